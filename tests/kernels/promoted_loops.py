# Subgroups of 16 (reqd), lane l of the subgroup at base b.  a_t[r] =
# in[i*16 + r] + t; for t = 0, 1 and kk = 0..15: bv = lane kk's a_t[kk],
# acc[r] += a_t[r] * bv + kk (32-bit wrap), acc starting at r.  out[i*17 +
# r] = acc[r]; out[i*17 + 16] = a_1[0] plus, for n > 1000000, a_1[1000000]
# and so on: far past private memory, a fault that reads 0.
G = 64
M32 = 0xffffffff


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


IN = [((i * 37) % 101) - 50 for i in range(G * 16)]


def expect():
    out = [0] * (G * 17)
    for i in range(G):
        b = i - i % 16
        acc = list(range(16))
        for t in range(2):
            a = [IN[i * 16 + r] + t for r in range(16)]
            for kk in range(16):
                bv = IN[(b + kk) * 16 + kk] + t
                for r in range(16):
                    acc[r] = s32(acc[r] + a[r] * bv + kk)
        for r in range(16):
            out[i * 17 + r] = acc[r]
        out[i * 17 + 16] = IN[i * 16] + 1
    return out


def case(n):
    c = dict(global_size=(G,), local_size=(32,), subgroup_sizes=[None],
             args=[In("int", IN), Out("int", G * 17, expect=expect()), Scalar("uint", n)])
    if n > 1000000:
        c.update(exit=1, diag=["private memory"])
    return c


CASES = [case(1), case(2000001),
         # the tests back, as before the loop-counter bounds
         dict(case(2000001), name="no_phi_bound", env={"SPIRV_SG_JIT_NO_PHI_BOUND": "1"})]
