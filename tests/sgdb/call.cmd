# args: call.cl --global 4 --local 4
# scale() is a real function at -O0: break in its body, check the stack.
# expect: Breakpoint 1 at scale
# expect: Breakpoint 1, scale
# expect: lanes 0-3\] scale at
# expect: ^#0  scale at
# expect: ^#1  call at call\.cl:11: %\w+ = OpFunctionCall %uint %scale
# expect: ^#2  call at
# x is the argument: the global id; k is 3 in every lane
# expect: lane  0: 0$
# expect: lane  3: 3$
# expect: lane  2: 3$
# line 4 (r = x * k) inside scale; next steps to line 5
# expect: Breakpoint 2, call\.cl:4
# expect: scale at call\.cl:4
# expect: scale at call\.cl:5
# r = x * 3
# expect: 'r' \(uint\), variable: value in memory:\n  lane  0: 0\n  lane  1: 3\n  lane  2: 6\n  lane  3: 9
# finish returns to the kernel at line 11
# expect: call at call\.cl:11
# expect: ^#0  call at call\.cl:11
# expect: \[kernel finished: 0 diagnostics\]
break scale
run
where
print x
print k lane 2
break call.cl:4
continue
next
print r
finish
where
delete
continue
