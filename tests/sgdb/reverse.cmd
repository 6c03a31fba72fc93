# args: spin.cl --global 8 --local 8 --subgroup-size 8 --arg n=3000 --arg out=zero:8
# exit: 2 (a command failed)
# Going backwards through a loop: one subgroup, so the launch's steps are all
# its own; s += i ^ lane for i = 0..n-1.
# expect: ^Breakpoint 1 at 5
# expect: ^i \+ 0 \(int\):\n  lane  0: 2$
# reverse-continue: the previous stop at line 5, one iteration earlier
# expect: ^\[back to step \d+ of the launch, the last stop before; replayed in \d+ ms\]
# expect: ^i \+ 0 \(int\):\n  lane  0: 1$
# expect: ^i \+ 0 \(int\):\n  lane  0: 0$
# expect: ^No breakpoint or watchpoint stop before this point: back at the start of the launch\.$
# forwards again
# expect: ^i \+ 0 \(int\):\n  lane  0: 0$
# thousands of instructions, then back one and three
# expect: ^\[back to step 29999 of the launch; replayed in \d+ ms\]$
# expect: ^\[back to step 29996 of the launch; replayed in \d+ ms\]$
# expect: ^\S+\.cmd:\d+: error: subgroup 0 has not executed 40000 instructions yet$
# s after the whole loop: i ^ lane only permutes each block of 8 values of i,
# and 3000 = 375 * 8, so every lane gets 0 + 1 + ... + 2999 = 4498500
# expect: ^\[kernel finished: 0 diagnostics\]$
# expect: ^  0 int\* out = buffer of 32 bytes \{4498500, 4498500, 4498500, 4498500, 4498500, 4498500, 4498500, 4498500\}
break 5
run
continue
continue
print i + 0 lane 0
reverse-continue
print i + 0 lane 0
reverse-continue
print i + 0 lane 0
reverse-continue
continue
print i + 0 lane 0
delete
restart
step 30000
reverse-step
reverse-step 3
reverse-step 40000
continue
info args
