# Subgroups of 8 lanes, work-groups of 16 (two subgroups per group).
S, L = 8, 16
n = 64
X = rand_ints(n, 0, 1 << 20, seed=12)
M = 0xFFFFFFFF

def case(d):
    out = []
    for i in range(n):
        sg0 = i - i % S
        l = i % S
        xs = X[sg0:sg0 + S]
        w = i // L
        idx = (w * 3 + d) & 7
        rot = xs[(l + d) & (S - 1)]
        rotc = xs[((l + d) & 3) + (l & ~3)]
        c0 = l & ~3
        cl = xs[c0:c0 + 4]
        out += [rot, rotc, xs[idx], xs[idx], (2 * xs[idx]) & M,
                sum(xs) & M, (2 * sum(xs)) & M,
                f32_bits(float(max(xs))), f32_bits(-float(min(xs))),
                xs[l ^ 1], (2 * xs[l ^ 1]) & M, sum(cl) & M, (2 * sum(cl)) & M]
    return dict(name="d%d" % d, args=[In("uint", X), Out("uint", 13 * n, expect=out),
                                     Scalar("uint", d)])

global_size = (n,); local_size = (L,)
subgroup_sizes = [8]
CASES = [case(0), case(1), case(5)]
