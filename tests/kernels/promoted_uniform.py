# a[k] = 10k + i; a[u & 7] += 1000; out[i] = a[u & 7] + a[(u + 1) & 7];
# then a[u] = v and out[g + i] = a[u]: v when u < 8, else (u far past the
# lane's private memory) a fault: the store is dropped and the load gives 0.


def case(g, local, S, u, v):
    out = [0] * (2 * g)
    for i in range(g):
        a = [10 * k + i for k in range(8)]
        a[u & 7] += 1000
        out[i] = a[u & 7] + a[(u + 1) & 7]
        out[g + i] = v if u < 8 else 0
    c = dict(global_size=(g,), local_size=(local,), subgroup_sizes=[S],
             args=[Out("int", 2 * g, expect=out), In("int", [u, v, 0])])
    if u >= 8:
        c.update(exit=1, diag=["private memory"])
    return c


CASES = [
    case(64, 32, None, 3, 77),
    case(64, 64, 8, 7, -5),
    case(64, 32, None, 4000000, 9),
]
