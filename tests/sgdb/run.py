#!/usr/bin/env python3
"""Runs the spirv-sgdb command-script tests in this folder.

Each NAME.cmd holds the debugger's command line after '# args:', the
expected output as '# expect: REGEX' lines (matched in order, each one after
the previous match; ^ and $ match at line ends), the exit status of the
--batch session as '# exit: N' (default 0; 1 after a stop on a diagnostic,
2 after a command error), and the commands (every line that is not a
comment).  The expectations are written by hand, not captured.

usage: run.py --sgdb PATH [NAME...]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def parse(path):
    args, expects, status = None, [], 0
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('# args:'):
                args = shlex.split(line[len('# args:'):])
            elif line.startswith('# expect:'):
                expects.append(line[len('# expect:'):].strip())
            elif line.startswith('# exit:'):
                status = int(line[len('# exit:'):].split()[0])
    return args, expects, status


def run_one(sgdb, path):
    name = os.path.basename(path)[:-4]
    args, expects, status = parse(path)
    if args is None:
        return name, ['no "# args:" line']
    cmd = [sgdb] + args + ['-x', path, '--batch']
    try:
        p = subprocess.run(cmd, cwd=HERE, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return name, ['timed out']
    out = p.stdout
    errors = []
    if p.returncode != status:
        errors.append('exit code %d, expected %d; stderr:\n%s' % (p.returncode, status, p.stderr))
    if 'Sanitizer' in p.stderr or 'runtime error' in p.stderr:
        errors.append('sanitizer report:\n' + p.stderr)
    pos = 0
    for e in expects:
        m = re.compile(e, re.M).search(out, pos)
        if not m:
            errors.append('expected /%s/ after offset %d' % (e, pos))
            break
        pos = m.end()
    if errors:
        errors.append('--- output ---\n' + out)
    return name, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sgdb', required=True)
    ap.add_argument('names', nargs='*')
    a = ap.parse_args()
    names = a.names or sorted(f[:-4] for f in os.listdir(HERE) if f.endswith('.cmd'))
    failed = 0
    for n in names:
        name, errors = run_one(os.path.abspath(a.sgdb), os.path.join(HERE, n + '.cmd'))
        if errors:
            failed += 1
            print('FAIL %s\n  %s' % (name, '\n  '.join(errors)))
        else:
            print('ok   %s' % name)
    print('%d of %d sgdb tests passed' % (len(names) - failed, len(names)))
    print('%d passed, %d failed' % (len(names) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
