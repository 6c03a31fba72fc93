# args: bcast.cl --global 8 --local 8 --subgroup-size 8 --arg in=5,6,0,8,9,10,11,12 --arg out=zero:8
# exit: 1 (the kernel stops on a diagnostic)
# A divergence found with 'break diverge': the broadcast was meant for the
# whole subgroup, but it sits under 'if (v > 0)' and in[2] is 0, so lane 2
# skips it: the collective runs on 7 lanes (undefined behaviour).
# expect: ^Breakpoint 1: stop where a subgroup's active lanes split at a branch$
# expect: ^Breakpoint 1, divergence at bcast\.cl:5: lanes 0-7 split; lanes 0-1,3-7 go on, lanes 2 wait$
# expect: ^\[work-group \(0,0,0\) subgroup 0, lanes 0-1,3-7\] bcast at bcast\.cl:6$
# expect: ^Subgroup 0 \(innermost frame\), top first:\n  #0 running: lanes 0-1,3-7 at bcast\.cl:6; they reconverge at %if\.end\n  #1 reconvergence point bcast\.cl:7 \(%if\.end\): lanes 0-7 meet there; lanes 2 already wait$
# expect: ^     1  yes     \(1,0,0\)          \(1,0,0\)         bcast\.cl:6\n     2  no      \(2,0,0\)          \(2,0,0\)         waits at bcast\.cl:7 \(%if\.end\) to reconverge$
# expect: ^v \+ 0 \(int\):\n  lane  0: 5\n  lane  1: 6\n  lane  2: 0   \(inactive\)\n  lane  3: 8
# continuing runs into the UB report, which stops on the instruction
# expect: ^ub: collective in divergent code: sub_group_broadcast .* lanes 2, OpGroupBroadcast
# expect: ^Stopped on the diagnostic above\.$
# the lanes rejoin after the if
# expect: ^Breakpoint 2, reconvergence: lanes 0-1,3-7 rejoin, lanes 0-7 run together$
# expect: ^\[work-group \(0,0,0\) subgroup 0, lanes 0-7\] bcast at bcast\.cl:7$
# expect: ^No divergence: 
# in the divergent.cl kernel both sides of the branch have code: a pending path
# expect: ^\[kernel finished: 1 diagnostic\]$
break diverge
run
info divergence
info lanes
print v + 0 all
continue
break converge
continue
info divergence
delete
continue
