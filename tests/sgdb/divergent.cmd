# args: divergent.cl --global 16 --local 16 --subgroup-size 8
# Lane l takes line 7 when l is odd, line 9 when even: subgroup 0 holds
# lanes 0-7, so line 7 runs with exactly 1,3,5,7 and line 9 with 0,2,4,6.
# expect: Breakpoint 1 at 7 \(1 location\)
# expect: Breakpoint 1, 7
# expect: \[work-group \(0,0,0\) subgroup 0, lanes 1,3,5,7\] divergent at divergent\.cl:7
# expect: ^7\s+v = v \* 10;
# expect: ^active lanes: 1,3,5,7 \(4 of 8\)$
# expect: ^mask \(lane 0 first\): 01010101$
# v still holds the lane id in every lane; even lanes are inactive here
# expect: lane  0: 0   \(inactive\)
# expect: lane  1: 1$
# expect: lane  6: 6   \(inactive\)
# expect: lane  7: 7$
# expect: Breakpoint 2, 9
# expect: subgroup 0, lanes 0,2,4,6\] divergent at divergent\.cl:9
# expect: ^active lanes: 0,2,4,6 \(4 of 8\)$
# expect: ^mask \(lane 0 first\): 10101010$
# the second subgroup (lanes 8..15 of the work-group) stops at line 7 too
# expect: Breakpoint 1, 7
# expect: subgroup 1, lanes 1,3,5,7\]
# expect: ^local ids: 9 11 13 15$
break 7
run
lanes
print v
break 9
continue
lanes
continue
lanes
