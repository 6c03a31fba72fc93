# out: five rows of n; row r holds in[i] + r + 1 where lane l = the subgroup
# local id of work-item i stores (l == 0; l % 7 == 3; l % 3 != 0; l >= 64;
# in[i] % 5 == 1), else 0.  1-D: l = (i mod local size) mod S.


def expect(n, local, S):
    x = [(i * 37) % 1000 for i in range(n)]
    out = [0] * (5 * n)
    for i in range(n):
        l = (i % local) % S
        if l == 0:
            out[i] = x[i] + 1
        if l % 7 == 3:
            out[n + i] = x[i] + 2
        if l % 3 != 0:
            out[2 * n + i] = x[i] + 3
        if l >= 64:
            out[3 * n + i] = x[i] + 4
        if x[i] % 5 == 1:
            out[4 * n + i] = x[i] + 5
    return out


def case(n, local, S):
    return dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S],
                args=[In("uint", [(i * 37) % 1000 for i in range(n)]),
                      Out("uint", 5 * n, expect=expect(n, local, S or 16))])


CASES = [
    case(512, 256, None),
    case(512, 256, 8),
    case(512, 256, 64),
    case(512, 256, 128),
    case(400, 200, 128),   # the second subgroup of each work-group has 72 lanes
    case(300, 100, 16),    # a last subgroup of 4 lanes
]
