# args: tutorial.cl --global 16 --local 16 --subgroup-size 8 --arg in=range:1:1:16 --arg out=zero:2
# The docs/sgdb.md tutorial.  in = 1..16; odd lanes contribute x, even lanes 0:
# subgroup 0: 2+4+6+8 = 20, subgroup 1: 10+12+14+16 = 52.
# expect: subgroup 0, lanes 1,3,5,7\] sum_odd at tutorial\.cl:6
# expect: ^active lanes: 1,3,5,7 \(4 of 8\)$
# expect: Breakpoint 2, OpGroupIAdd
# expect: subgroup 0, lanes 0-7\] sum_odd at tutorial\.cl:8
# the operand: 0 in even lanes, x in odd lanes
# expect: lane  0: 0\n  lane  1: 2\n  lane  2: 0\n  lane  3: 4\n  lane  4: 0\n  lane  5: 6\n  lane  6: 0\n  lane  7: 8
# expect: 'call2'.*\n  lane  0: 20\n  lane  1: 20\n(  lane  \d: 20\n){5}  lane  7: 20
# expect: Breakpoint 2, OpGroupIAdd
# expect: subgroup 1, lanes 0-7\]
# expect: lane  3: 52
break 6
run
lanes
break OpGroupIAdd
continue
print %v
step
print call2
delete 1
continue
step
print call2 lane 3
