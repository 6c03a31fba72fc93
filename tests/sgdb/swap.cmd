# args: swap.cl --global 8 --local 8 --subgroup-size 4 --arg in=range:1:1:8 --arg out=zero:8
# Going backwards by replay: step over a shuffle, then back over it, and see
# the values from before it.  x = 10*in; y = x of the lane next door (xor 1).
# expect: ^Breakpoint 1 at OpGroupNonUniformShuffleXor
# expect: ^Breakpoint 1, OpGroupNonUniformShuffleXor$
# expect: ^=> %call1 = OpGroupNonUniformShuffleXor 
# expect: ^%\d+ 'call1' \(uint\):\n  lane  0: 20\n  lane  1: 10\n  lane  2: 40\n  lane  3: 30$
# one instruction back: before the shuffle, its result is not there yet
# expect: ^\[back to step \d+ of the launch; replayed in \d+ ms\]$
# expect: ^=> %call1 = OpGroupNonUniformShuffleXor 
# expect: ^%\d+ 'call1' \(uint\):\n  lane  0: 0\n  lane  1: 0\n  lane  2: 0\n  lane  3: 0$
# expect: ^x \+ 0 \(int\):\n  lane  0: 10\n  lane  1: 20\n  lane  2: 30\n  lane  3: 40$
# forwards again, to line 5, and back to the start of line 4
# expect: ^5\t  out\[get_global_id\(0\)\] = y;$
# expect: ^y \+ 0 \(int\):\n  lane  0: 20\n  lane  1: 10\n  lane  2: 40\n  lane  3: 30$
# expect: ^\[back to step \d+ of the launch; replayed in \d+ ms\]\n\[work-group \(0,0,0\) subgroup 0, lanes 0-3\] swap at swap\.cl:4$
# expect: ^y \+ 0 \(int\):\n  lane  0: 0\n  lane  1: 0\n  lane  2: 0\n  lane  3: 0$
# the first subgroup's breakpoint again, the second's, then back to the first one's
# expect: ^Breakpoint 1, OpGroupNonUniformShuffleXor\n\[work-group \(0,0,0\) subgroup 0, lanes 0-3\]
# expect: ^Breakpoint 1, OpGroupNonUniformShuffleXor\n\[work-group \(0,0,0\) subgroup 1, lanes 0-3\]
# expect: ^x \+ 0 \(int\):\n  lane  0: 50\n  lane  1: 60\n  lane  2: 70\n  lane  3: 80$
# expect: ^\[back to step \d+ of the launch, the last stop before; replayed in \d+ ms\]\n\[work-group \(0,0,0\) subgroup 0, lanes 0-3\] swap at swap\.cl:4\n.*\n=> %call1 = OpGroupNonUniformShuffleXor
# expect: ^No breakpoint or watchpoint stop before this point: back at the start of the launch\.$
# history is rewritten going forwards: the same stops again
# expect: ^Breakpoint 1, OpGroupNonUniformShuffleXor\n\[work-group \(0,0,0\) subgroup 0
# expect: ^Breakpoint 1, OpGroupNonUniformShuffleXor\n\[work-group \(0,0,0\) subgroup 1
# expect: ^\[kernel finished: 0 diagnostics\]$
# expect: ^  1 int\* out = buffer of 32 bytes \{20, 10, 40, 30, 60, 50, 80, 70\}$
break OpGroupNonUniformShuffleXor
run
step
print call1
reverse-step
print call1
print x + 0
next
print y + 0
reverse-next
print y + 0
continue
continue
print x + 0
reverse-continue
reverse-continue
continue
continue
continue
info args
