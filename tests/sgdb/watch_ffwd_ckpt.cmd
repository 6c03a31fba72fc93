# args: ../../examples/saxpy.cl --global 65536 --local 16 --subgroup-size 8 --arg a=2 --arg x=range:1:1:65536 --arg y=fill:1:65536
# 'workgroup 4000' with a watchpoint on y[60000]: the earlier work-groups
# run in the interpreter (hundreds of thousands of steps, so checkpoints are
# taken on the way) and the watchpoint fires in work-group 60000 / 16 = 3750
# with y[60000] = 2 * 60001 + 1 = 120003 (by hand).  Going back one step
# goes through a checkpoint taken while 'workgroup' ran; 'continue' then
# runs to the end (the checkpoint forgot that 'workgroup' was under way).
# expect: ^\[watchpoint 1 watches global memory: the 4000 earlier work-groups run in the interpreter, not at full speed\]$
# expect: ^Watchpoint 1: y\[60000\]\nOld value = 1\nNew value = 120003\nwritten by lanes 0 of work-group \(3750,0,0\) subgroup 0 at saxpy\.cl:5$
# expect: ^\[back to step \d+ of the launch; replayed in \d+ ms from the checkpoint at step \d+\]$
# expect: ^\[work-group \(3750,0,0\) subgroup 0, lanes 0-7\] saxpy at saxpy\.cl:5$
# expect: ^Watchpoint 1: y\[60000\]\nOld value = 1\nNew value = 120003$
# expect: ^\[kernel finished: 0 diagnostics\]$
# expect: ^finished 4096, not started 0, in progress 0$
watch y[60000]
workgroup 4000
reverse-step
step
continue
info workgroups
