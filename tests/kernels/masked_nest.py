std = "CL2.0"
# in[g] = (13 g + 5) mod 23; a = in % 5 outer trips; at outer trip i,
# b = (in + i) % 4 inner trips.  At (i, j) the reduction adds i*7 + j + g
# over the subgroup's lanes with a > i and b(i) > j (both loops in
# lockstep).  trace[5 g + i] = acc after outer trip i.
G, L = 96, 32

def expect(S, n=G):
    IN = [(13 * g + 5) % 23 for g in range(n)]
    acc = [0] * n
    trace = [0] * (5 * n)
    for g0 in range(0, n, L):
        for s0 in range(g0, min(g0 + L, n), S):
            lanes = range(s0, min(s0 + S, g0 + L, n))
            for i in range(5):
                outer = [g for g in lanes if IN[g] % 5 > i]
                for j in range(4):
                    act = [g for g in outer if (IN[g] + i) % 4 > j]
                    r = sum(i * 7 + j + g for g in act) & 0xffffffff
                    for g in act: acc[g] = (acc[g] * 3 + r) & 0xffffffff
                for g in outer: trace[5 * g + i] = acc[g]
    return IN, acc, trace

def case(S, n=G):
    IN, acc, trace = expect(S or 16, n)
    return dict(global_size=(n,), local_size=(L,), subgroup_sizes=[S],
                args=[In("uint", IN), Out("uint", n, expect=acc), Out("uint", 5 * n, expect=trace)])

CASES = [case(None), case(8), case(32, n=90)]
