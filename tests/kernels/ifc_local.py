# out[i] = ((x*3 + l) ^ 0x55) for odd x, else untouched (0); out2[i] = that
# + 1 for odd x, else 7; out3[3i + k] = (x*(k+2) + l) >> 1 where bit k+1 of
# x is set, else 0.  l = i mod S (1-D).
M = 0xffffffff


def case(n, local, S):
    xs = [v & M for v in rand_ints(n, 0, 1 << 30, seed=5 + n)]
    out = [0] * n; out2 = [7] * n; out3 = [0] * (3 * n)
    for i, x in enumerate(xs):
        l = i % (S or 16)
        if x & 1:
            b = ((x * 3 + l) & M) ^ 0x55
            out[i] = b
            out2[i] = (b + 1) & M
        for k in range(3):
            if (x >> (k + 1)) & 1:
                out3[3 * i + k] = ((x * (k + 2) + l) & M) >> 1
    return dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S],
                args=[In("uint", xs), Out("uint", n, expect=out), Out("uint", n, expect=out2),
                      Out("uint", 3 * n, expect=out3)])


CASES = [case(256, 64, None), case(96, 32, 8), case(64, 64, 32)]
