# Lane i: a[r] = 10i + r (r = 0..7); s = sum over r of a[r] * (r + 1);
# t = t * 3 + a[r] over r = 0..7 from 0 (32-bit wrap); out[3i] = s,
# out[3i + 1] = t, out[3i + 2] = a[i & 7].  Also with the bounds off.
n = 64
M = 0xffffffff
out = []
for i in range(n):
    a = [10 * i + r for r in range(8)]
    s = sum(a[r] * (r + 1) for r in range(8)) & M
    t = 0
    for r in range(8):
        t = (t * 3 + a[r]) & M
    out += [s, t, a[i & 7]]
c = dict(global_size=(n,), local_size=(32,), args=[Out("uint", 3 * n, expect=out)])
CASES = [c, dict(c, name="no_phi_bound", env={"SPIRV_SG_JIT_NO_PHI_BOUND": "1"})]
