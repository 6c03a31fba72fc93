#!/usr/bin/env python3
"""spirv-sgdb in a real terminal: a tmux session driven as a person would.

Starts the debugger on the docs/sgdb.md tutorial kernel inside a detached
tmux session, types commands with send-keys, and reads the screen with
capture-pane after each one: the first screen must hold the banner and the
prompt and no warning (the .cl compiles with debug information, which
Debian 12's spirv-val would complain about), then a conditional breakpoint,
print of an expression, lane focus and a watchpoint, each answered on the
screen; then going back through a checkpoint (a forked copy of the process
takes the session over and must go on reading the terminal).  Expected
text is written by hand.

usage: tmux_session.py --sgdb PATH
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sgdb', required=True)
    a = ap.parse_args()
    if not shutil.which('tmux'):
        print('tmux is not installed (apt-get install tmux)')
        print('0 passed, 1 failed')
        return 1
    sock = 'sgdb-test-%d' % os.getpid()
    session = 'sgdb'
    tmux = ['tmux', '-L', sock]
    cmd = ('%s tutorial.cl --global 16 --local 16 --subgroup-size 8 '
           '--arg in=range:1:1:16 --arg out=zero:2' % os.path.abspath(a.sgdb))
    checks = []

    def check(what, cond, screen):
        checks.append(bool(cond))
        print('%s %s' % ('ok  ' if cond else 'FAIL', what))
        if not cond:
            print('--- screen ---\n' + screen)

    def screen():
        return subprocess.run(tmux + ['capture-pane', '-p', '-t', session, '-S', '-200'],
                              capture_output=True, text=True).stdout

    def wait_for(text, timeout=60):
        """Waits until the screen shows `text` after a fresh prompt."""
        end = time.time() + timeout
        s = ''
        while time.time() < end:
            s = screen()
            if text in s and s.rstrip().endswith('(sgdb)'):
                return s
            time.sleep(0.2)
        return s

    def type_line(line):
        subprocess.run(tmux + ['send-keys', '-t', session, '-l', line], check=True)
        subprocess.run(tmux + ['send-keys', '-t', session, 'Enter'], check=True)

    env = dict(os.environ, TERM='xterm')
    subprocess.run(tmux + ['new-session', '-d', '-s', session, '-x', '150', '-y', '50', '-c', HERE,
                           'bash --norc --noprofile'], check=True, env=env)
    try:
        type_line('PS1="$ "; clear')
        time.sleep(0.5)
        type_line(cmd)
        s = wait_for('Type \'help\' for commands.')
        check('banner and prompt', 'spirv-sgdb: kernel sum_odd, 1 x 1 x 1 work-groups, subgroup size 8.' in s
              and s.rstrip().endswith('(sgdb)'), s)
        check('no warning before the first prompt', 'warning' not in s and 'spirv-val' not in s, s)

        type_line('break 6 if x == 4')
        s = wait_for('only where x == 4')
        check('conditional breakpoint accepted', 'Breakpoint 1 at 6 (1 location)' in s, s)

        type_line('run')
        s = wait_for('Breakpoint 1, 6 if x == 4, in lanes 3')
        # in = 1..16: x == 4 only in lane 3 (odd lanes enter line 6)
        check('stops for lane 3 only', 'Breakpoint 1, 6 if x == 4, in lanes 3' in s and
              '[work-group (0,0,0) subgroup 0, lanes 1,3,5,7] sum_odd at tutorial.cl:6' in s, s)

        type_line('print x * 10 all')
        s = wait_for('lane  7: 80')
        check('print an expression in every lane',
              'x * 10 (int):' in s and 'lane  3: 40' in s and 'lane  0: 10   (inactive)' in s, s)

        type_line('lane 5')
        type_line('print get_global_id(0) + x')
        s = wait_for('get_global_id(0) + x (ulong):')
        check('lane focus: one lane shown', 'lane  5: 11' in s, s)

        type_line('watch out[0]')
        s = wait_for('Watchpoint 2: out[0]')
        type_line('continue')
        s = wait_for('New value = 20')
        # subgroup 0's sum of odd-lane values: 2 + 4 + 6 + 8 = 20, written by lane 0
        check('watchpoint: old, new, writing lanes', 'Old value = 0' in s and 'New value = 20' in s and
              'written by lanes 0 of work-group (0,0,0) subgroup 0 at tutorial.cl:10' in s, s)

        type_line('quit')
        time.sleep(1)
        s = screen()
        check('quit returns to the shell', s.rstrip().endswith('$'), s)

        # going back through a checkpoint in a terminal: the session moves
        # to another process (a forked copy), which must go on reading the
        # terminal; 50 steps forwards and 50 back give the same state
        type_line('clear; %s spin.cl --global 8 --local 8 --subgroup-size 8 --arg n=20000 '
                  '--arg out=zero:8' % os.path.abspath(a.sgdb))
        wait_for('Type \'help\' for commands.')
        type_line('step 100000')
        type_line('print s + 0 lane 0')
        s = wait_for('s + 0 (int):')
        before = s[s.rindex('s + 0 (int):'):].split('\n')[1].strip()
        type_line('step 50')
        type_line('reverse-step 50')
        s = wait_for('from the checkpoint at step 65536]')
        check('reverse-step through a checkpoint', 'from the checkpoint at step 65536]' in s, s)
        type_line('clear')
        type_line('print s + 0 lane 0')
        s = wait_for('s + 0 (int):')
        after = s[s.rindex('s + 0 (int):'):].split('\n')[1].strip()
        check('the same value after 50 steps there and back (%s)' % before,
              before.startswith('lane  0:') and before == after, s)
        type_line('quit')
        time.sleep(1)
        type_line('echo "rc=$?"')
        time.sleep(0.5)
        s = screen()
        check('the terminal gets the shell back, exit status 0', 'rc=0' in s, s)
    finally:
        subprocess.run(tmux + ['kill-server'], capture_output=True)
    passed = sum(checks)
    print('%d passed, %d failed' % (passed, len(checks) - passed))
    return 0 if passed == len(checks) else 1


if __name__ == '__main__':
    sys.exit(main())
