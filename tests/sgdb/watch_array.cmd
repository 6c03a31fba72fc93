# args: total.cl --global 32 --local 16 --subgroup-size 8 --arg in=range:1:1:32 --arg out=zero:2 --arg part=local:64
# exit: 2 (a command failed)
# A watchpoint on more than one scalar: part[0]@2 watches the two partial
# sums of work-group 0 (local memory) as one object, and each stop says
# which element changed.  part[0] = 1+...+8 = 36, part[1] = 9+...+16 = 100
# (values by hand).
# expect: ^Watchpoint 1: part\[0\]@2 \(8 bytes at local 'part'\+0 \(size 64\)\), now \{0, 0\}$
# expect: ^Watchpoint 1: part\[0\]@2\nOld value = \{0, 0\}\nNew value = \{36, 0\}\nchanged: element 0\nwritten by lanes 0 of work-group \(0,0,0\) subgroup 0 at total\.cl:5$
# expect: ^Watchpoint 1: part\[0\]@2\nOld value = \{36, 0\}\nNew value = \{36, 100\}\nchanged: element 1\nwritten by lanes 0 of work-group \(0,0,0\) subgroup 1 at total\.cl:5$
# expect: ^1    watch part\[0\]@2                2$
# the count after '@' and the size limit
# expect: ^\S+\.cmd:\d+: error: watch part\[0\]@0: after '@' comes a count of elements \(1\.\.4096\)$
# expect: ^\S+\.cmd:\d+: error: watch part\[0\]@5000: after '@' comes a count of elements \(1\.\.4096\)$
# expect: ^\S+\.cmd:\d+: error: in\[0\]@2000 is 8000 bytes; a watchpoint watches at most 4096$
# going back over the second hit and forwards again finds it again
# expect: ^Watchpoint 1: part\[0\]@2\nOld value = \{36, 0\}\nNew value = \{36, 100\}
# expect: ^\[kernel finished: 0 diagnostics\]$
watch part[0]@2
continue
continue
info breakpoints
watch part[0]@0
watch part[0]@5000
watch in[0]@2000
reverse-step
continue
delete
continue
