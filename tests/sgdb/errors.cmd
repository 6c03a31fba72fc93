# args: divergent.cl --global 16 --local 16 --subgroup-size 8
# exit: 2 (a command failed)
# Bad input never crashes: each gets one clear error line.
# expect: ^\S*errors\.cmd:21: error: unknown command 'frobnicate' \(try 'help'\)$
# expect: ^\S*errors\.cmd:22: error: break 999: no instruction has source line 999
# expect: error: break nosuchthing: no such line
# expect: error: break OpNoSuchOp: unknown opcode name
# expect: error: print needs
# expect: error: no value named 'zzz'
# expect: error: lane 99 does not exist
# expect: error: step: bad count 'x'
# expect: error: subgroup '7' out of range \(the work-group has 2 subgroups\)
# expect: error: work-group id '3' out of range
# expect: error: delete: no breakpoint number '42'
# expect: error: x: unknown format
# expect: error: x: 'nope' is neither an address nor a value name
# expect: error: info bogus: unknown
# expect: error: usage: break
# expect: Commands \(aliases in brackets\):
# expect: run \(r\)
frobnicate
break 999
break nosuchthing
break OpNoSuchOp
print
print zzz
print v lane 99
step x
subgroup 7
workgroup 3
delete 42
x/4q out
x/4d nope
info bogus
break
help
step 3
x/2d 0
print %1
print %999999
lanes
where
list
disassemble
info args
info workgroups
quit
