# Lane l of subgroup base b (1-D, whole subgroups): x(i) = in[i] * 3 + 1;
# out[i] = x(b + k), out4[i] = (x, x + 1, 2x, -x) at b + (k ^ 1), outl[i] =
# (x(b + 2) << 33) - 7; an index >= S reads 0 and is reported.
M32 = 0xffffffff


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def case(n, local, S, k):
    s = S or 16
    inp = [(7 * i - 50) for i in range(n)]
    x = [s32(v * 3 + 1) for v in inp]
    out, out4, outl = [], [], []
    for i in range(n):
        b = i - (i % local) % s
        out.append(x[b + k] if k < s else 0)
        kk = k ^ 1
        if kk < s:
            xv = x[b + kk]
            out4 += [xv, s32(xv + 1), s32(xv * 2), s32(-xv)]
        else:
            out4 += [0, 0, 0, 0]
        outl.append(((x[b + 2] << 33) - 7) if s > 2 else 0)
    c = dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S],
             args=[In("int", inp), Out("int", n, expect=out), Out("int", 4 * n, expect=out4),
                   Out("long", n, expect=outl), Scalar("uint", k)])
    if k >= s or (k ^ 1) >= s:
        c.update(diag=["index out of range"])
    return c


CASES = [
    case(128, 64, None, 5),
    case(64, 32, 8, 7),
    case(128, 64, 32, 30),
    case(64, 64, None, 16),   # out of range: 0 and a report
]
