# args: spin.cl --global 8 --local 8 --subgroup-size 8 --arg n=30000 --arg out=zero:8
# Going backwards through checkpoints: after a few hundred thousand
# subgroup instructions the session has checkpoints (copies of the process,
# one every 65,536 steps), and going back replays from the latest one before
# the target, not from the launch's start.  The breakpoint, the display and
# the watchpoint go with the session to the checkpoint that takes it over.
# s = 0 + 1 + ... + (i - 1) before line 5 adds i ^ lane (the xor permutes
# each block of 8 values of i, and 15000, 20000, 30000 are multiples of 8):
# s at i = 15000 is 15000 * 14999 / 2 = 112492500, at i = 20000 199990000,
# at the end 30000 * 29999 / 2 = 449985000 (by hand).
# expect: ^1: i \+ 0 \(int\):\n  lane  0: 20000$
# expect: ^\[back to step \d+ of the launch, the last stop before; replayed in \d+ ms from the checkpoint at step \d+\]$
# expect: ^1: i \+ 0 \(int\):\n  lane  0: 15000$
# expect: ^%\d+ 's' \(uint\), variable: value in memory:\n  lane  0: 112492500$
# one instruction back, and forwards again
# expect: ^\[back to step \d+ of the launch; replayed in \d+ ms from the checkpoint at step \d+\]$
# expect: ^1: i \+ 0 \(int\):\n  lane  0: 15000$
# the breakpoint still stops at the next multiple of 5000
# expect: ^Breakpoint 1, 5 if i % 5000 == 0, in lanes 0-7$
# expect: ^1: i \+ 0 \(int\):\n  lane  0: 20000$
# expect: ^Watchpoint 2: s \(4 bytes at private memory of lane 0\+\d+ \(size \d+\)\), now 199990000$
# back to the last change of s: the addition of i = 19999
# expect: ^\[back to step \d+ of the launch, the last stop before; replayed in \d+ ms from the checkpoint at step \d+\]$
# expect: ^1: i \+ 0 \(int\):\n  lane  0: 19999$
# expect: ^%\d+ 's' \(uint\), variable: value in memory:\n  lane  0: 199990000$
# expect: ^Breakpoint 1, 5 if i % 5000 == 0, in lanes 0-7$
# expect: ^1: i \+ 0 \(int\):\n  lane  0: 20000$
# expect: ^1    5                              \d+\n       stop only where i % 5000 == 0\n2    watch s                        0$
# expect: ^\[kernel finished: 0 diagnostics\]$
# expect: ^  0 int\* out = buffer of 32 bytes \{449985000, 449985000, 449985000, 449985000, 449985000, 449985000, 449985000, 449985000\}$
break 5 if i % 5000 == 0
display i + 0
run
continue
continue
continue
continue
reverse-continue
print s lane 0
reverse-step
step
continue
watch s lane 0
reverse-continue
print s lane 0
continue
info breakpoints
delete
continue
info args
