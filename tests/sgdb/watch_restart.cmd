# args: total.cl --global 32 --local 16 --subgroup-size 8 --arg in=range:1:1:32 --arg out=zero:2 --arg part=local:64
# exit: 2 (x/2fh is refused on purpose)
# A watchpoint stays across 'restart' and fires at the same store again; the
# buffers going back to their first contents is not a write.  out[0] gets
# part[1] only (the loop starts at 1): 9 + ... + 16 = 100 (by hand).
# expect: ^Watchpoint 1: out\[0\]\nOld value = 0\nNew value = 100\nwritten by lanes 0 of work-group \(0,0,0\) subgroup 0 at total\.cl:11$
# expect: ^Restarted\.$
# expect: ^\(sgdb\) continue\n\nWatchpoint 1: out\[0\]\nOld value = 0\nNew value = 100\nwritten by lanes 0 of work-group \(0,0,0\) subgroup 0 at total\.cl:11$
# expect: ^1    watch out\[0\]                   2$
# x with gdb's format and unit size: in = 1..32 as ints, little-endian
# expect: ^0x[0-9a-f]+ \(buffer 'in'\+0 \(size 128\)\), lane 0, 4 x int:\n  \+0    : 1 2 3 4$
# expect: ^0x[0-9a-f]+ \(buffer 'in'\+0 \(size 128\)\), lane 0, 2 x ulong:\n  \+0    : 0x0000000200000001 0x0000000400000003$
# expect: ^\S*watch_restart\.cmd:21: error: x: unknown format 'fh'
watch out[0]
continue
restart
continue
info breakpoints
x/4dw in
x/2xg in
x/2fh in
