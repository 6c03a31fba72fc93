# lane l of the subgroup starting at b (x = in[b + l], prev = x + 1000, next
# = x + 2000): down = cur[l + d] or next[l + d - S]; up = cur[l - d] or
# prev[l - d + S]; xor = cur[l ^ (d & (S - 1))].  Deltas 0, 1, S - 1, S.
def case(n, S, d):
    xs = [(7 * x + 3) & 0xffffffff for x in range(n)]
    out = []
    for i in range(n):
        b, l = i - i % S, i % S
        cur = lambda k: xs[b + k]
        down = cur(l + d) if l + d < S else cur(l + d - S) + 2000
        up = cur(l - d) if l - d >= 0 else cur(l - d + S) + 1000
        xo = cur(l ^ (d & (S - 1)))
        out += [down & 0xffffffff, up & 0xffffffff, xo & 0xffffffff]
    return dict(global_size=(n,), local_size=(64,), subgroup_sizes=[S],
                args=[In("uint", xs), Out("uint", 3 * n, expect=out), Scalar("uint", d)])


CASES = [case(128, 16, d) for d in (0, 1, 15, 16)] + [case(128, 8, d) for d in (0, 3, 7, 8)]
