# out is 12 rows of W*8 floats: [0, 4W*8): in*2 + l at i = y*W + x (only the
# first W*8 written), [4W*8, ..): in + 1 at the same index, [8W*8, ..): in[i]
# at 2i and 2i+1.  l = the subgroup local id: the linear local id mod S, the
# linear local id x + y*Lx (docs/semantics.md), S 16 unless named.
W = 32
H = 8
N = W * H


def expect(lx, ly, S, n_in):
    out = [0.0] * (12 * N)
    for y in range(H):
        for x in range(W):
            i = y * W + x
            lin = (x % lx) + (y % ly) * lx
            l = lin % S
            v = float(i) if i < n_in else 0.0
            out[i] = v * 2.0 + l
            out[4 * N + i] = v + 1.0
            out[8 * N + 2 * i] = v
            out[8 * N + 2 * i + 1] = v
    return out


def case(lx, ly, S, n_in=N, **kw):
    c = dict(global_size=(W, H), local_size=(lx, ly), subgroup_sizes=[S],
             args=[In("float", [float(k) for k in range(n_in)]),
                   Out("float", 12 * N, expect=expect(lx, ly, S or 16, n_in)),
                   Scalar("uint", W), Scalar("int", 7)])
    c.update(kw)
    return c


CASES = [
    case(32, 1, None),          # 1-D rows: linear x
    case(16, 2, None),          # local x a multiple of S
    case(8, 4, None),           # a subgroup spans two rows: x is not lane-affine
    case(8, 2, 8),              # S 8, local x 8
    case(4, 4, 8),              # S 8 across four rows
    case(32, 1, None, n_in=N - 40, exit=1, diag=["out-of-bounds"]),   # the last rows fault
]
