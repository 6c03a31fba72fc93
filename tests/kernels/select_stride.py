# out[i] = in[i >= k ? i - k : i + n - k] * 3 (+ 1000 for i < k);
# out2[i] = in[i + 3 if (i // 24) odd else i] + 1.  in[x] = 5x + 2, n + 3 long
# (or n_in: a read past it faults and yields 0).
M = 0xffffffff


def case(n, local, S, k, n_in=None, **kw):
    n_in = n + 3 if n_in is None else n_in
    vals = [(5 * x + 2) & M for x in range(n_in)]
    v = lambda x: vals[x] if x < n_in else 0
    out = [((v(i - k if i >= k else i + n - k) * 3) + (1000 if i < k else 0)) & M for i in range(n)]
    out2 = [(v(i + 3 if (i // 24) & 1 else i) + 1) & M for i in range(n)]
    c = dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S],
             args=[In("uint", vals), Out("uint", n, expect=out), Out("uint", n, expect=out2),
                   Scalar("uint", k), Scalar("uint", n)])
    c.update(kw)
    return c


CASES = [
    case(256, 64, None, 16),   # the condition changes at a subgroup boundary
    case(256, 64, None, 5),    # ... inside the first subgroup
    case(256, 64, 8, 37),
    case(192, 64, 32, 40),
    # in too short: whole subgroups whose select took one arm read past it
    # (the JIT's window test under the select's flag fails: per-lane faults)
    case(256, 64, None, 16, n_in=200, exit=1, diag=["out-of-bounds"]),
    case(256, 64, None, 5, n_in=203, exit=1, diag=["out-of-bounds"]),
]
