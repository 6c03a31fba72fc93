# N = 64 work-items in work-groups of 32; off[i] = 4 * P[i] with P a
# permutation of 0..63 that follows no lane stride.  Valid cases: every
# store in a (sel all 0), or lanes split between a and b (sel[i] = i % 3 ==
# 0).  Fault cases: one lane's offset at 4 * N (past the end), at -4
# (before the start), or at 4 * P[i] + 2 (misaligned).
N, L = 64, 32
P = [(37 * k + 11) % N for k in range(N)]
IN = [(7919 * k + 13) % 1000 - 500 for k in range(N)]

def case(sel, bad=None):
    off = [4 * p for p in P]
    if bad is not None:
        off[bad[0]] = bad[1]
    a, b = [0] * N, [0] * N
    g = [IN[P[i]] for i in range(N)]
    for i in range(N):
        (b if sel[i] else a)[P[i]] = IN[i] * 2 + 1
    args = [In("int", off), In("int", sel), In("int", IN), InOut("int", [0] * N, expect=a),
            InOut("int", [0] * N, expect=b), Out("int", N, expect=g)]
    c = dict(global_size=(N,), local_size=(L,), subgroup_sizes=[None, 8], args=args)
    if bad is not None:   # the faulting lane's access does not happen; the rest is unspecified after a fault
        c.update(exit=1, diag=[bad[2]])
        for x in args[3:]:
            x.expect, x.check = None, (lambda got: None)
    return c

ALL_A = [0] * N
SPLIT = [1 if i % 3 == 0 else 0 for i in range(N)]
CASES = [case(ALL_A), case(SPLIT),
         case(ALL_A, (21, 4 * N, "out-of-bounds")), case(SPLIT, (40, -4, "out-of-bounds")),
         case(ALL_A, (5, 4 * P[5] + 2, "misaligned access"))]
