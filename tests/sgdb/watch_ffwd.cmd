# args: ../../examples/saxpy.cl --global 64 --local 16 --subgroup-size 8 --arg a=2 --arg x=range:1:1:64 --arg y=fill:1:64
# A watchpoint on global memory set before 'workgroup 3': the earlier
# work-groups do not run at full speed (the watchpoint would not see their
# writes) but in the interpreter, with a notice, and the watchpoint fires in
# work-group 2, which writes y[40..43].  y = 2 * x + 1 with x = 1 + gid
# (by hand: y[40] = 83).
# expect: ^Watchpoint 1: y\[40\]@4 \(16 bytes at buffer 'y'\+160 \(size 256\)\), now \{1, 1, 1, 1\}$
# expect: ^\[watchpoint 1 watches global memory: the 3 earlier work-groups run in the interpreter, not at full speed\]$
# expect: ^Watchpoint 1: y\[40\]@4\nOld value = \{1, 1, 1, 1\}\nNew value = \{83, 85, 87, 89\}\nchanged: elements 0-3\nwritten by lanes 0-3 of work-group \(2,0,0\) subgroup 1 at saxpy\.cl:5$
# expect: ^finished 2, not started 1, in progress 1$
# a watchpoint only work-group 3 triggers: 'workgroup 3' gets there
# expect: ^\[watchpoint 2 watches global memory: the 3 earlier work-groups run in the interpreter, not at full speed\]$
# expect: ^\[work-group \(3,0,0\) subgroup 0, lanes 0-7\] saxpy
# expect: ^Watchpoint 2: y\[60\]\nOld value = 1\nNew value = 123\nwritten by lanes 4 of work-group \(3,0,0\) subgroup 1 at saxpy\.cl:5$
# no watchpoint: full speed again
# expect: ^\[ran 3 earlier work-groups at full speed \((native code from the JIT|interpreter)\) in \d+ ms\]$
# expect: ^\[kernel finished: 0 diagnostics\]$
# expect: ^  1 float\* y = buffer of 256 bytes \{3, 5, 7, 9, 11, 13, 15, 17, \.\.\.\}$
watch y[40]@4
workgroup 3
info workgroups
delete
restart
watch y[60]
workgroup 3
continue
delete
restart
workgroup 3
continue
info args
