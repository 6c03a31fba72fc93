# out[i] = 7, except in lane K of each subgroup: in[base + sg] * 2 + K (0 for
# a read past the end of in, the fault's value); per_sg[sg] = that + 1 (a
# store past the end of per_sg is dropped).  sg = group * subgroups per group
# + subgroup id; 1-D, a work-group's last subgroup may be partial.
M = 0xffffffff


def expect(n, local, S, K, base, n_in, n_sg):
    vals = [(k * 7 + 3) & M for k in range(n_in)]
    nsg = -(-local // S)
    out, per = [0] * n, [0] * n_sg
    for i in range(n):
        l = i % local
        lane = l % S
        sg = (i // local) * nsg + l // S
        r = 7
        if lane == K:
            v = vals[base + sg] if base + sg < n_in else 0
            r = (v * 2 + K) & M
            if sg < n_sg:
                per[sg] = (r + 1) & M
        out[i] = r
    return vals, out, per


def case(n, local, S, K, base, n_in, n_sg, **kw):
    vals, out, per = expect(n, local, S or 16, K, base, n_in, n_sg)
    c = dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S], defines={"K": K},
             args=[In("uint", vals), Out("uint", n_sg, expect=per), Out("uint", n, expect=out),
                   Scalar("uint", base)])
    c.update(kw)
    return c


CASES = [
    case(256, 64, None, 0, 0, 16, 16),
    case(128, 64, 8, 3, 5, 40, 16),
    case(80, 40, 32, 31, 1, 8, 4),     # the partial subgroup (8 lanes) has no lane 31
    case(80, 40, 32, 5, 0, 4, 4),      # ... but a lane 5
    case(128, 64, None, 20, 0, 8, 8),  # K past the subgroup size: no lane runs the block
    case(256, 64, None, 15, 14, 16, 16, exit=1, diag=["out-of-bounds"]),   # the last 14 subgroups read past in
    case(256, 64, 8, 0, 0, 32, 30, exit=1, diag=["out-of-bounds"]),        # the last 2 store past per_sg
]
