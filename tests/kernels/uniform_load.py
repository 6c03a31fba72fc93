# N = 128 work-items in work-groups of 64.  a[i] = (31 i + 7) % 100 - 50;
# v[j] = (j, j + 0.5, 2 j, -j) (exact in float), so w.x + 2 w.y + 3 w.z + 4 w.w
# = 5 k + 1; c[j] = 100 j - 3.  Fault cases: off at 4 N, at 4 N + 64, at 2.
N, L = 128, 64
A = [(31 * i + 7) % 100 - 50 for i in range(N)]
V = []
for j in range(16):
    V += [float(j), j + 0.5, 2.0 * j, -float(j)]
C = [100 * j - 3 for j in range(8)]

def case(k, off, bad=None):
    out = []
    for i in range(N):
        g = i // L
        s = sum(A[g * 4 + q] for q in range(4))
        x = A[off // 4] if bad is None else 0
        out += [s + x, A[g * L + (k & 63)] + 1 + C[k & 7], 5 * k + 1, x]
    args = [In("int", A), In("float", V), In("int", C), Out("int", 4 * N, expect=out), Scalar("int", k),
            Scalar("int", off)]
    c = dict(global_size=(N,), local_size=(L,), subgroup_sizes=[None, 8], args=args)
    if bad is not None:   # the load faults in every lane; what follows is unspecified
        c.update(exit=1, diag=[bad])
        args[3].expect, args[3].check = None, (lambda got: None)
    return c

CASES = [case(3, 4 * 17), case(14, 4 * 100), case(5, 4 * N, "out-of-bounds"), case(9, 4 * N + 64, "out-of-bounds"),
         case(2, 2, "misaligned access")]
