# args: halve.cl --global 8 --local 8 --subgroup-size 8 --arg in=10,12,14,-5,7,9,11,13 --arg out=zero:8
# exit: 2 (a command failed)
# A lane-3-only bug found with a conditional breakpoint: out[3] is -3, not
# -5 / 2 = -2, because x >> 1 rounds toward minus infinity.  Only lane 3's
# input is negative, so 'break 5 if x < 0' stops once, for lane 3 alone.
# Expected values are by hand: in = 10,12,14,-5,7,9,11,13.
# expect: ^Breakpoint 1 at 5 \(1 location\)$
# expect: ^  only where x < 0$
# expect: ^Breakpoint 1, 5 if x < 0, in lanes 3$
# expect: ^\[work-group \(0,0,0\) subgroup 0, lanes 0-7\] halve at halve\.cl:5$
# expect: ^\[focus: lane 3\]$
# the focus shows lane 3 only; the old form of print (a whole variable)
# expect: ^%\d+ 'x' \(uint\), variable: value in memory:\n  lane  3: 4294967291 \(-5\)$
# expect: ^x >> 1 \(int\):\n  lane  3: -3$
# expect: ^x / 2 \(int\):\n  lane  3: -2$
# every lane, through the kernel's pointer and the global id
# expect: ^in\[gid\] \(int\):\n  lane  0: 10\n  lane  1: 12\n  lane  2: 14\n  lane  3: -5\n  lane  4: 7\n  lane  5: 9\n  lane  6: 11\n  lane  7: 13$
# expect: ^get_global_id\(0\) \* 100 \+ lane \(ulong\):\n  lane  0: 0\n  lane  1: 101\n  lane  2: 202\n  lane  3: 303\n  lane  4: 404
# expect: ^in\[i\] == x && x < 0 \(bool\):\n  lane  0: false\n  lane  1: false\n  lane  2: false\n  lane  3: true\n  lane  4: false
# expect: ^\(float\)x / 4 \(float\):\n  lane  3: -1\.25$
# expect: ^\(uint\)x \(uint\):\n  lane  3: 4294967291$
# expect: ^&in\[2\] \(uint \*\):\n  lane  3: 0x[0-9a-f]+ -> buffer 'in'\+8 \(size 32\)$
# expect: ^\*\(in \+ 6\) \(int\):\n  lane  3: 11$
# expect: ^Focus on lane 6
# expect: ^%\d+ 'h' \(uint\), variable: value in memory:\n  lane  6: 5$
# expect: ^No lane focus
# info lanes: ids and where each lane is
# expect: ^  Lane  Active  Global id        Local id        Where$
# expect: ^     3  yes     \(3,0,0\)          \(3,0,0\)         halve\.cl:6$
# expect: ^     7  yes     \(7,0,0\)          \(7,0,0\)         halve\.cl:6$
# --json forms
# expect: ^\{"expr": "h", "workgroup": \[0, 0, 0\], "subgroup": 0, "lanes": \[\{"lane": 0, "active": true, "value": "5"\}, .*\{"lane": 3, "active": true, "value": "-3"\}.*\], "type": "int"\}$
# expect: ^\{"workgroup": \[0, 0, 0\], "subgroup": 0, "lanes": \[\{"lane": 0, "active": true, "global_id": \[0, 0, 0\], "local_id": \[0, 0, 0\], "where": "halve\.cl:6"\}
# expect: ^\{"frames": \[\{"level": 0, "function": "halve", "file": "[^"]*halve\.cl", "line": 6, 
# errors: one line each
# expect: ^\S+\.cmd:\d+: error: the expression ends too early \(column 4\)$
# expect: ^\S+\.cmd:\d+: error: no value named 'nosuch'$
# expect: ^\S+\.cmd:\d+: error: division by zero$
# expect: ^\S+\.cmd:\d+: error: cannot read 4 bytes at 0x[0-9a-f]+ \(buffer 'in'\+4000 \(size 32\)\)$
# expect: ^\S+\.cmd:\d+: error: '\*' needs a pointer$
# expect: ^\S+\.cmd:\d+: error: no value named 'nosuch'$
# expect: ^\[kernel finished: 0 diagnostics\]$
break 5 if x < 0
run
print x
print x >> 1
print x / 2
print in[gid] all
print get_global_id(0) * 100 + lane all
print in[i] == x && x < 0 all
print (float)x / 4
print (uint)x
print &in[2]
print *(in + 6)
next
lane 6
print h
lane all
info lanes
print --json h
info lanes --json
where --json
print x +
print nosuch + 1
print 1/0
print in[1000]
print *x
break 6 if nosuch > 1
continue
