# N = 96 work-items in work-groups of 32.  p[i] = (i, i + 0.25, 2 i, -i),
# q[i] = (3 i, 0.5 i): every result is exact in float.
N, L = 96, 32

def case(short=0):
    P, Q, O, O2 = [], [], [], []
    for i in range(N):
        a = [float(i), i + 0.25, 2.0 * i, -float(i)]
        b = [3.0 * i, 0.5 * i]
        P += a
        Q += b
        O += [a[0] + b[0], a[1] * 2.0, a[2] - b[1], a[3]]
        O2 += [a[0] * b[1], a[3] + b[0]]
    args = [In("float", P[:4 * (N - short)]), In("float", Q), Out("float", 4 * N, expect=O),
            Out("float", 2 * N, expect=O2)]
    c = dict(global_size=(N,), local_size=(L,), subgroup_sizes=[None, 8], args=args)
    if short:   # the lanes past the end fault; what the others stored is unspecified after a fault
        c.update(exit=1, diag=["out-of-bounds"])
        for x in args[2:]:
            x.expect, x.check = None, (lambda got: None)
    return c

CASES = [case(), case(3)]
