# Stream compaction: subgroup s of size S (lanes i = base .. base + S - 1,
# base its first global id) keeps lane i when keep(x_i); its kept x land in
# lane order at out[base ..].  cs_subset stores only the kept lanes that
# also have bit 3 of x, each at its rank among the kept ones (gaps stay 0).
M = 0xffffffff


def subgroups(n, local, S):
    """(base, size) of every subgroup: each work-group of `local` items in
    subgroups of S, the last one smaller."""
    out = []
    for g in range(0, n, local):
        for b in range(g, g + local, S):
            out.append((b, min(S, g + local - b)))
    return out


def compact(xs, keep, local, S, store=None):
    out = [0] * len(xs)
    counts = []
    for base, size in subgroups(len(xs), local, S):
        r = 0
        for i in range(base, base + size):
            if keep[i]:
                if store is None or store[i]:
                    out[base + r] = xs[i]
                r += 1
        counts.append(r)
    return out, counts


def subset(n, S, salt):
    xs = [(40503 * i + 7) & M for i in range(n)]
    keep = [(((x * 2654435761) & M) ^ salt) >> 16 & 1 for x in xs]
    out, _ = compact(xs, keep, 64, S, store=[(x >> 3) & 1 for x in xs])
    return dict(kernel="cs_subset", global_size=(n,), local_size=(64,), subgroup_sizes=[S],
                args=[In("uint", xs), Out("uint", n, expect=out), Scalar("uint", salt)])


def long_case(n, S):
    xs = [(0x9E3779B97F4A7C15 * (i + 1)) & 0xffffffffffffffff for i in range(n)]
    keep = [(x >> 17) & 1 for x in xs]
    out, _ = compact(xs, keep, 32, S)
    return dict(kernel="cs_long", global_size=(n,), local_size=(32,), subgroup_sizes=[S],
                args=[In("ulong", xs), Out("ulong", n, expect=out)])


def partial(S):
    # work-groups of 40: subgroups of S, S, ..., the last smaller (S = 16:
    # 16, 16, 8, which the JIT runs without lane strides, so through its
    # general store; S = 8: the compressed store)
    n = 200
    xs = [float((i * 37) % 11 - 5) for i in range(n)]
    keep = [x > 0 for x in xs]
    out, counts = compact(xs, keep, 40, S)
    per_group = -(-40 // S)
    return dict(kernel="cs_partial", global_size=(n,), local_size=(40,), subgroup_sizes=[S],
                args=[In("float", xs), Out("float", n, expect=out),
                      Out("uint", (n // 40) * per_group, expect=counts)])


def bounds(S, short):
    # every lane of the last subgroup keeps: its store runs `short` elements
    # past the end of out; those lanes fault (their writes are dropped), the
    # others store
    n = 128
    xs = [(40503 * i + 7) & M for i in range(n)]
    keep = [(x >> 5) & 1 or i >= n - S for i, x in enumerate(xs)]
    full, _ = compact(xs, keep, 64, S)
    return dict(kernel="cs_bounds", global_size=(n,), local_size=(64,), subgroup_sizes=[S], exit=1,
                diag=["write of 4 bytes at buffer 'out'+%d (size %d)" % (4 * (n - short), 4 * (n - short))],
                stderr=["work-group (1,0,0), subgroup %d, lanes %d-%d, OpStore" % (64 // S - 1, S - short, S - 1)],
                args=[In("uint", xs), Out("uint", n - short, expect=full[:n - short]), Scalar("uint", n - S)])


def readonly(S):
    n = 64
    xs = [(40503 * i + 7) & M for i in range(n)]
    return dict(kernel="cs_bounds", global_size=(n,), local_size=(64,), subgroup_sizes=[S], exit=1,
                diag=["write to read-only memory"],
                args=[In("uint", xs), InOut("uint", [0] * n, expect=[0] * n, flags="ro"), Scalar("uint", 0)])


CASES = [subset(512, 16, 0), subset(512, 16, 0x3c3c), subset(256, 8, 0x1234),
         long_case(256, 8), long_case(256, 4), long_case(256, 16),
         partial(16), partial(8),
         bounds(16, 4), bounds(8, 3), readonly(16)]
std = "CL2.0"
