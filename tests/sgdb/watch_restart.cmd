# args: total.cl --global 32 --local 16 --subgroup-size 8 --arg in=range:1:1:32 --arg out=zero:2 --arg part=local:64
# A watchpoint stays across 'restart' and fires at the same store again; the
# buffers going back to their first contents is not a write.  out[0] gets
# part[1] only (the loop starts at 1): 9 + ... + 16 = 100 (by hand).
# expect: ^Watchpoint 1: out\[0\]\nOld value = 0\nNew value = 100\nwritten by lanes 0 of work-group \(0,0,0\) subgroup 0 at total\.cl:11$
# expect: ^Restarted\.$
# expect: ^\(sgdb\) continue\n\nWatchpoint 1: out\[0\]\nOld value = 0\nNew value = 100\nwritten by lanes 0 of work-group \(0,0,0\) subgroup 0 at total\.cl:11$
# expect: ^1    watch out\[0\]                   2$
watch out[0]
continue
restart
continue
info breakpoints
