# args: scan.cl --global 8 --local 8 --subgroup-size 8 --arg in=3,1,4,1,5,9,2,6
# sub_group_scan_inclusive_add over in = 3 1 4 1 5 9 2 6, by hand:
#   3, 3+1=4, 4+4=8, 8+1=9, 9+5=14, 14+9=23, 23+2=25, 25+6=31
# expect: Breakpoint 1, 5
# expect: lane  0: 3$
# expect: lane  1: 4$
# expect: lane  2: 8$
# expect: lane  3: 9$
# expect: lane  4: 14$
# expect: lane  5: 23$
# expect: lane  6: 25$
# expect: lane  7: 31$
# expect: 'x'.*\n  lane  5: 9$
# the scan instruction itself, found by opcode name, runs with all 8 lanes
# expect: Breakpoint 2 at OpGroupIAdd
# the memory of 'in' read through lane 0
# expect: buffer 'in'\+0 \(size 32\)\), lane 0, 8 x int:\n  \+0    : 3 1 4 1 5 9 2 6
break 5
run
print s
print x lane 5
break OpGroupIAdd
x/8d in
info breakpoints
continue
