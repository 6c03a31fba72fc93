# args: barrier.cl --global 32 --local 32 --subgroup-size 16
# Two subgroups of 16 lanes; subgroup 0 reaches the barrier first.
# expect: Breakpoint 1, 7
# expect: subgroup 0, lanes 0-15\] wgbar at barrier\.cl:7
# expect: subgroup 0 waits at a work-group barrier: 1 of 2 subgroups arrived
# expect: ^\* 0  at barrier lanes 0-15\s+barrier\.cl:7  OpControlBarrier
# expect: ^  1  running    lanes 0-15
# continue: subgroup 1 reaches the breakpoint at the barrier line
# expect: Breakpoint 1, 7
# expect: subgroup 1, lanes 0-15\] wgbar at barrier\.cl:7
# subgroup 0 already waits, so stepping subgroup 1 over the barrier releases
# both: subgroup 1 moves on to line 8, subgroup 0 is released (still on the
# barrier instruction, no longer waiting)
# expect: subgroup 1, lanes 0-15\] wgbar at barrier\.cl:8
# expect: ^  0  running    lanes 0-15\s+barrier\.cl:7  OpControlBarrier
# expect: ^\* 1  running    lanes 0-15\s+barrier\.cl:8
# expect: \[kernel finished: 0 diagnostics\]
break 7
run
step
info subgroups
continue
step
info subgroups
delete 1
continue
