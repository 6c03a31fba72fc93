# args: total.cl --global 32 --local 16 --subgroup-size 8 --arg in=range:1:1:32 --arg out=zero:2 --arg part=local:64
# A wrong reduction found with watchpoints.  Each work-group should write
# the sum of its 16 inputs: out[0] = 1+...+16 = 136.  The loop that adds the
# subgroups' partial sums starts at 1, so out[0] gets part[1] alone:
# 9+...+16 = 100 (part[0] = 1+...+8 = 36).  Values by hand.
# expect: ^Watchpoint 1: out\[0\] \(4 bytes at buffer 'out'\+0 \(size 8\)\), now 0$
# expect: ^Watchpoint 1: out\[0\]\nOld value = 0\nNew value = 100\nwritten by lanes 0 of work-group \(0,0,0\) subgroup 0 at total\.cl:11$
# expect: ^  by: OpStore 
# expect: ^part\[0\] \(int\):\n  lane  0: 36$
# expect: ^part\[1\] \(int\):\n  lane  0: 100$
# expect: ^part\[0\] \+ part\[1\] \(int\):\n  lane  0: 136$
# again from the start, watching the running total t of lane 0
# expect: ^Breakpoint 2 at 8
# expect: ^Breakpoint 2, 8$
# expect: ^Watchpoint 3: t \(4 bytes at private
# expect: ^  private memory of lane 0 of subgroup 0$
# t = 0 stores the value it already holds: no stop there; the first change
# is the first addition, and it adds part[1]
# expect: ^Watchpoint 3: t\nOld value = 0\nNew value = 100\nwritten by lanes 0 of work-group \(0,0,0\) subgroup 0 at total\.cl:10$
# expect: ^%\d+ 'i' \(uint\), variable: value in memory:\n  lane  0: 1$
# expect: ^Num  Where                          Hits\n2    8                              1\n3    watch t                        1$
# the second work-group: its own t
# expect: ^\[work-group \(0,0,0\) finished\]$
# expect: ^\[kernel finished: 0 diagnostics\]$
watch out[0]
continue
lane 0
print part[0]
print part[1]
print part[0] + part[1]
delete
break 8
restart
continue
watch t
continue
print i
info breakpoints
delete
continue
