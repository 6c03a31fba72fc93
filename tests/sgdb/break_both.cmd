# args: tutorial.cl --global 16 --local 16 --subgroup-size 8 --arg in=range:1:1:16 --arg out=zero:2
# Two breakpoints that stop at the same point are both named: line 6 is the
# first instruction after the branch of line 5 splits the odd lanes (1,3,5,7:
# get_sub_group_local_id() % 2 == 1) from the even ones, so 'break 6' and
# 'break diverge' stop together; a tbreak there goes after it stops.
# expect: ^Breakpoint 1, 6\nBreakpoint 2, divergence at tutorial\.cl:5: lanes 0-7 split; lanes 1,3,5,7 go on, lanes 0,2,4,6 wait\nBreakpoint 3, 6\n\[work-group \(0,0,0\) subgroup 0, lanes 1,3,5,7\] sum_odd at tutorial\.cl:6$
# expect: ^Temporary breakpoint 3 deleted\.$
# line 9's branch: only lane 0 (local id 0) writes out
# expect: ^Breakpoint 2, divergence at tutorial\.cl:9: lanes 0-7 split; lanes 0 go on, lanes 1-7 wait\n\[work-group \(0,0,0\) subgroup 0, lanes 0\] sum_odd at tutorial\.cl:10$
# the second subgroup: the same two again, the tbreak is gone
# expect: ^Breakpoint 1, 6\nBreakpoint 2, divergence at tutorial\.cl:5: lanes 0-7 split; lanes 1,3,5,7 go on, lanes 0,2,4,6 wait\n\[work-group \(0,0,0\) subgroup 1, lanes 1,3,5,7\]
break 6
break diverge
tbreak 6
run
continue
continue
continue
