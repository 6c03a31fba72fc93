# args: spin.cl --global 8 --local 8 --subgroup-size 8 --arg n=30000 --arg out=zero:8
# reverse-next deep into a run with checkpoints (one every 65,536 steps):
# the positions it needs come from a replay from the latest checkpoint, not
# from the launch's start.  One iteration of the loop is 15 steps (lines 5
# then 4), so i = 20000 is past step 300,000 and past four checkpoints.
# s before line 5 adds i ^ lane is 0 + 1 + ... + (i - 1) when i is a
# multiple of 8 (the xor permutes each block of 8): 20000 * 19999 / 2 =
# 199990000 (by hand).
# expect: ^Breakpoint 1, 5 if i == 20000, in lanes 0-7$
# expect: ^i \+ 0 \(int\):\n  lane  0: 20001$
# back to the start of line 4 (i++ and the test): i is still 20000
# expect: ^\[back to step 300021 of the launch; replayed in \d+ ms from the checkpoint at step 262144\]\n.*spin\.cl:4\n4\t  for
# expect: ^i \+ 0 \(int\):\n  lane  0: 20000$
# back to the start of line 5 of the same iteration: s before the addition
# expect: ^\[back to step 300014 of the launch; replayed in \d+ ms from the checkpoint at step 262144\]\n.*spin\.cl:5\n5\t    s \+=
# expect: ^i \+ 0 \(int\):\n  lane  0: 20000$
# expect: ^%\d+ 's' \(uint\), variable: value in memory:\n  lane  0: 199990000$
# and line 4 of the iteration before
# expect: ^\[back to step 300006 of the launch; replayed in \d+ ms from the checkpoint at step 262144\]\n.*spin\.cl:4\n
# expect: ^i \+ 0 \(int\):\n  lane  0: 19999$
# forwards again: the same values (the history after the point went)
# expect: ^Breakpoint 2, 5 if i == 20000, in lanes 0-7$
# expect: ^%\d+ 's' \(uint\), variable: value in memory:\n  lane  0: 199990000$
# expect: ^\[kernel finished: 0 diagnostics\]$
# expect: ^  0 int\* out = buffer of 32 bytes \{449985000, 449985000, 449985000, 449985000, 449985000, 449985000, 449985000, 449985000\}$
break 5 if i == 20000
run
delete
next
next
print i + 0 lane 0
reverse-next
print i + 0 lane 0
reverse-next
print i + 0 lane 0
print s lane 0
reverse-next
print i + 0 lane 0
break 5 if i == 20000
continue
print s lane 0
delete
continue
info args
