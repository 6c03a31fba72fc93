# args: ../../examples/saxpy.cl --global 64 --local 16 --subgroup-size 8 --arg a=2 --arg x=range:1:1:64 --arg y=fill:1:64
# Fast-forward: 'workgroup 3' runs work-groups 0..2 at full speed (native
# code when the JIT compiles the kernel, else the interpreter without stops)
# before focusing on 3.  y = 2 * x + 1 with x = 1 + gid.
# expect: ^\[ran 3 earlier work-groups at full speed \((native code from the JIT|interpreter)\) in \d+ ms\]$
# expect: ^\[work-group \(3,0,0\) subgroup 0, lanes 0-7\] saxpy
# expect: ^finished 3, not started 0, in progress 1$
# y[47] = 2 * 48 + 1; y[48] not yet written
# expect: ^y\[gid - 1\] \(float\):\n  lane  0: 97$
# expect: ^y\[gid\] \(float\):\n  lane  0: 1$
# going back replays the fast-forward too
# expect: ^\[back to step 2 of the launch; replayed in \d+ ms\]$
# expect: ^y\[gid - 1\] \(float\):\n  lane  0: 97$
# expect: ^\[kernel finished: 0 diagnostics\]$
# expect: ^  1 float\* y = buffer of 256 bytes \{3, 5, 7, 9, 11, 13, 15, 17, \.\.\.\}$
workgroup 3
info workgroups
print y[gid - 1] lane 0
print y[gid] lane 0
step 3
reverse-step
print y[gid - 1] lane 0
continue
info args
