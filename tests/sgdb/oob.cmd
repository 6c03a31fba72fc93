# args: oob.cl --global 8 --local 8 --arg out=zero:8 --arg n=8
# exit: 1 (the kernel stops on a diagnostic)
# Work-item 7 writes out[8]: one element past the 32-byte buffer.
# expect: ^fault: out-of-bounds access: write of 4 bytes at buffer 'out'\+32 \(size 32\)
# expect: subgroup 0, lanes 7, OpStore at .*oob\.cl:5
# expect: raised by: OpStore .*\(oob\.cl:5\)
# expect: Stopped on the diagnostic above\.
# the report's lane gets the focus: print shows it alone
# expect: ^\[focus: lane 7\]$
# expect: ^%\d+ 'i' .*\n  lane  7: 7$
# expect: lane  7: 7$
# expect: \[kernel finished: 1 diagnostic\]
run
print i
print i lane 7
continue
