std = "CL2.0"
# in[gid] = (7 gid + 3) mod 10 trips, except items 64..79 (no trip: the
# guard lets no lane in) and 80..95 (9 trips each: every lane leaves at the
# break, trip 8).  Lane l of a subgroup runs t = min(k, 8) trips; at trip j
# the reduction adds j + gid over the subgroup's lanes with t > j.
# x = 1.5^t (exact in float).  trace[10 gid + j]: acc after trip j.
G, L = 96, 32

def inputs(n):
    return [0 if 64 <= g < 80 else 9 if g >= 80 else (7 * g + 3) % 10 for g in range(n)]

def expect(n, S, ntrace):
    IN = inputs(n)
    t = [min(k, 8) for k in IN]
    acc = [0] * n
    trace = [0] * ntrace
    for g0 in range(0, n, L):                 # work-groups
        for s0 in range(g0, min(g0 + L, n), S):   # subgroups
            lanes = range(s0, min(s0 + S, g0 + L, n))
            for j in range(8):
                act = [g for g in lanes if t[g] > j]
                r = sum(j + g for g in act) & 0xffffffff
                for g in act:
                    acc[g] = (acc[g] + r) & 0xffffffff
                    if 10 * g + j < ntrace: trace[10 * g + j] = acc[g]
    return acc, trace, [1.5 ** x for x in t]

def case(S, n=G, ntrace=10 * G):
    acc, trace, x = expect(n, S or 16, ntrace)
    args = [In("uint", inputs(n)), Out("uint", n, expect=acc), Out("uint", ntrace, expect=trace), Out("float", n, expect=x),
            Scalar("float", 20.0)]
    c = dict(global_size=(n,), local_size=(L,), subgroup_sizes=[S], args=args)
    if ntrace < 10 * n:   # the stores past the end fault; the outputs are then unspecified
        c.update(exit=1, diag=["out-of-bounds"])
        for a in args[1:4]:
            a.expect, a.check = None, (lambda got: None)
    return c

CASES = [case(None), case(8), case(None, n=90), case(None, ntrace=10 * G - 45)]
