# args: halve.cl --global 32 --local 8 --subgroup-size 4 --arg in=range:10:1:32 --arg out=zero:32
# Breakpoint options: tbreak, '... lane L', '... workgroup X' (the work-groups
# before it run at full speed), 'if', condition, ignore, display, rwatch.
# x = in[gid] = 10 + gid; 4 work-groups of 8, subgroups of 4.
# expect: ^  temporary, only in lane 2$
# expect: ^  only in work-group \(2,0,0\), only where x > 27$
# expect: ^Breakpoint 1, 5, in lanes 2$
# expect: ^\[work-group \(0,0,0\) subgroup 0, lanes 0-3\] halve at halve\.cl:5$
# expect: ^Temporary breakpoint 1 deleted\.$
# expect: ^\[work-group \(1,0,0\) ran at full speed: no breakpoint can stop in it\]$
# gid 16..19: x = 26..29, so lanes 2 and 3
# expect: ^Breakpoint 2, 6 if x > 27, in lanes 2-3$
# expect: ^\[work-group \(2,0,0\) subgroup 0, lanes 0-3\] halve at halve\.cl:6$
# expect: ^x \+ 0 \(int\):\n  lane  0: 26\n  lane  1: 27\n  lane  2: 28\n  lane  3: 29$
# gid 20..23: x == 31 in lane 1
# expect: ^Breakpoint 2 stops only where x == 31$
# expect: ^Breakpoint 2, 6 if x == 31, in lanes 1$
# expect: ^\[work-group \(2,0,0\) subgroup 1, lanes 0-3\]
# expect: ^2    6                              2\n       only in work-group \(2,0,0\)\n       stop only where x == 31$
# display, in the focused lane (1): h = 31 >> 1 = 15
# expect: ^1: h \+ 0 \(int\):\n  lane  1: 15$
# expect: ^halve at halve\.cl:7$|^7\t\}$
# expect: ^1: h \+ 0 \(int\):\n  lane  1: 15$
# a read watchpoint: in[29] is read by gid 29, lane 1 of subgroup 1 of work-group 3
# expect: ^Read watchpoint 3: in\[29\] \(4 bytes at buffer 'in'\+116 \(size 128\)\), now 39$
# expect: ^Read watchpoint 3: in\[29\]\nValue = 39\nread by lanes 1 of work-group \(3,0,0\) subgroup 1 at halve\.cl:4$
# ignore: the first two hits of line 4 (work-group 0, subgroups 0 and 1) pass
# expect: ^Will ignore the next 2 crossings of breakpoint 4\.$
# expect: ^Breakpoint 4, 4\n\[work-group \(1,0,0\) subgroup 0, lanes 0-3\]
# expect: ^4    4                              3$
# expect: ^\[kernel finished: 0 diagnostics\]$
tbreak 5 lane 2
break 6 workgroup 2 if x > 27
run
continue
print x + 0 all
condition 2 x == 31
continue
info breakpoints
display h + 0
next
delete
lane all
lane 1
rwatch in[29]
continue
delete
restart
break 4
ignore 4 2
continue
info breakpoints
delete
continue
