#!/usr/bin/env python3
"""A small Debug Adapter Protocol client that drives `spirv-sgdb --dap`.

It speaks the real protocol (Content-Length framed JSON on the adapter's
stdin/stdout), the way VS Code does: initialize, launch, setBreakpoints,
configurationDone, threads, stackTrace, scopes, variables, evaluate, next,
continue, disconnect, and checks every reply against values worked out by
hand for halve.cl (in = 10,12,14,-5,7,9,11,13; out[i] = in[i] >> 1).

usage: dap_client.py --sgdb PATH
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class Adapter:
    def __init__(self, sgdb):
        self.p = subprocess.Popen([sgdb, '--dap'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=HERE)
        self.seq = 1
        self.events = []

    def send(self, command, arguments=None):
        msg = {'seq': self.seq, 'type': 'request', 'command': command}
        if arguments is not None:
            msg['arguments'] = arguments
        self.seq += 1
        data = json.dumps(msg).encode()
        self.p.stdin.write(b'Content-Length: %d\r\n\r\n' % len(data) + data)
        self.p.stdin.flush()
        return msg['seq']

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError('the adapter closed its output')
            line = line.strip()
            if not line:
                break
            k, _, v = line.partition(b':')
            if k.strip().lower() == b'content-length':
                length = int(v)
        if length is None:
            raise ValueError('a message without Content-Length')
        return json.loads(self.p.stdout.read(length))

    def request(self, command, arguments=None):
        """Sends a request; returns its response, keeping events seen on the way."""
        s = self.send(command, arguments)
        while True:
            m = self.read()
            if m['type'] == 'event':
                self.events.append(m)
            elif m['type'] == 'response' and m['request_seq'] == s:
                return m

    def wait_event(self, name):
        for i, e in enumerate(self.events):
            if e['event'] == name:
                return self.events.pop(i)
        while True:
            m = self.read()
            if m['type'] == 'event' and m['event'] == name:
                return m
            if m['type'] == 'event':
                self.events.append(m)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sgdb', required=True)
    a = ap.parse_args()
    checks = []

    def check(what, cond, detail=''):
        checks.append(bool(cond))
        print('%s %s%s' % ('ok  ' if cond else 'FAIL', what, '' if cond else ': ' + str(detail)))

    ad = Adapter(os.path.abspath(a.sgdb))
    try:
        r = ad.request('initialize', {'adapterID': 'spirv-sgdb', 'linesStartAt1': True})
        check('initialize', r['success'] and r['body'].get('supportsConditionalBreakpoints'), r)
        check('initialized event', ad.wait_event('initialized'))
        r = ad.request('launch', {'program': 'halve.cl',
                                  'args': ['--global', '8', '--local', '8', '--subgroup-size', '8',
                                           '--arg', 'in=10,12,14,-5,7,9,11,13', '--arg', 'out=zero:8']})
        check('launch', r['success'], r)
        src = os.path.join(HERE, 'halve.cl')
        r = ad.request('setBreakpoints', {'source': {'path': src},
                                          'breakpoints': [{'line': 5, 'condition': 'x < 0'}, {'line': 99}]})
        bps = r['body']['breakpoints'] if r['success'] else []
        check('setBreakpoints: line 5 verified, line 99 not',
              len(bps) == 2 and bps[0]['verified'] and bps[0]['line'] == 5 and not bps[1]['verified'], r)
        r = ad.request('configurationDone')
        check('configurationDone', r['success'], r)
        ev = ad.wait_event('stopped')
        # the condition holds in lane 3 only: the stop is reported on thread 4
        check('stopped at the conditional breakpoint, on lane 3',
              ev['body']['reason'] == 'breakpoint' and ev['body']['threadId'] == 4, ev)
        r = ad.request('threads')
        th = r['body']['threads']
        check('threads: one per lane, named by lane and global id',
              len(th) == 8 and th[3]['id'] == 4 and th[3]['name'].startswith('lane 3 (global id 3,0,0)'), th)
        r = ad.request('stackTrace', {'threadId': 4})
        fr = r['body']['stackFrames']
        check('stackTrace: halve at halve.cl:5',
              fr and fr[0]['name'] == 'halve' and fr[0]['line'] == 5 and fr[0]['source']['name'] == 'halve.cl', fr)
        r = ad.request('scopes', {'frameId': fr[0]['id'] if fr else 0})
        sc = r['body']['scopes']
        check('scopes: Locals and Work-item', [s['name'] for s in sc] == ['Locals', 'Work-item'], sc)
        r = ad.request('variables', {'variablesReference': sc[0]['variablesReference']})
        vs = {v['name']: v['value'] for v in r['body']['variables']}
        check('variables of lane 3: x = -5, i = 3', vs.get('x') == '-5' and vs.get('i') == '3', vs)
        r = ad.request('variables', {'variablesReference': sc[1]['variablesReference']})
        vs = {v['name']: v['value'] for v in r['body']['variables']}
        check('work-item ids of lane 3', vs.get('get_global_id(0)') == '3' and
              vs.get('get_sub_group_local_id()') == '3', vs)
        r = ad.request('evaluate', {'expression': 'x / 2', 'frameId': 0, 'context': 'watch'})
        check('evaluate x / 2 = -2 (watch pane)', r['success'] and r['body']['result'] == '-2', r)
        r = ad.request('evaluate', {'expression': 'x >> 1', 'frameId': 0, 'context': 'hover'})
        check('evaluate x >> 1 = -3 (the bug)', r['success'] and r['body']['result'] == '-3', r)
        r = ad.request('evaluate', {'expression': 'nosuch + 1', 'frameId': 0, 'context': 'watch'})
        check('evaluate of an unknown name fails with a message',
              not r['success'] and 'nosuch' in r.get('message', ''), r)
        # lane 0 through its thread
        ad.request('stackTrace', {'threadId': 1})
        r = ad.request('evaluate', {'expression': 'in[gid] + 1', 'frameId': 0, 'context': 'watch'})
        check('evaluate in lane 0: in[gid] + 1 = 11', r['success'] and r['body']['result'] == '11', r)
        r = ad.request('next', {'threadId': 4})
        check('next', r['success'], r)
        ev = ad.wait_event('stopped')
        r = ad.request('stackTrace', {'threadId': 4})
        fr = r['body']['stackFrames']
        check('next stops at line 6', ev['body']['reason'] == 'step' and fr and fr[0]['line'] == 6, (ev, fr))
        r = ad.request('evaluate', {'expression': 'h', 'frameId': 0, 'context': 'watch'})
        check('evaluate h = -3 in lane 3', r['success'] and r['body']['result'] == '-3', r)
        r = ad.request('continue', {'threadId': 4})
        check('continue', r['success'], r)
        ev = ad.wait_event('terminated')
        check('the kernel runs to its end: terminated', ev, ev)
        r = ad.request('disconnect', {})
        check('disconnect', r['success'], r)
        ad.p.stdin.close()
        rc = ad.p.wait(timeout=60)
        err = ad.p.stderr.read().decode()
        check('the adapter exits 0 with nothing on stderr', rc == 0 and
              'Sanitizer' not in err and 'runtime error' not in err, (rc, err))
    except (EOFError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired) as e:
        check('the conversation', False, repr(e) + ' ' + ad.p.stderr.read().decode()[:2000])
        ad.p.kill()
    passed = sum(checks)
    print('%d passed, %d failed' % (passed, len(checks) - passed))
    return 0 if passed == len(checks) else 1


if __name__ == '__main__':
    sys.exit(main())
