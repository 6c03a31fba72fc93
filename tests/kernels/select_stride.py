# out[i] = in[i >= k ? i - k : i + n - k] * 3 (+ 1000 for i < k);
# out2[i] = in[i + 3 if (i // 24) odd else i] + 1.  in[x] = 5x + 2, n + 3 long.
M = 0xffffffff


def case(n, local, S, k):
    vals = [(5 * x + 2) & M for x in range(n + 3)]
    out = [((vals[i - k if i >= k else i + n - k] * 3) + (1000 if i < k else 0)) & M for i in range(n)]
    out2 = [(vals[i + 3 if (i // 24) & 1 else i] + 1) & M for i in range(n)]
    return dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S],
                args=[In("uint", vals), Out("uint", n, expect=out), Out("uint", n, expect=out2),
                      Scalar("uint", k), Scalar("uint", n)])


CASES = [
    case(256, 64, None, 16),   # the condition changes at a subgroup boundary
    case(256, 64, None, 5),    # ... inside the first subgroup
    case(256, 64, 8, 37),
    case(192, 64, 32, 40),
]
