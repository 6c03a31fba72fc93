std = "CL2.0"
# NDRange 100 in work-groups of 32 (the last one 4 items: partial
# subgroups).  k = n[i] % 6 with n[i] = 7 i + 3; s: k trips of s = 1.5 s + j;
# t: the next work-item's s (in the work-group, wrapping), then m + k trips
# of t = t / 2 + s, m = (int)t % 5; every value is exact in float.
# trace[8 i + (j & 7)] = j for each trip j (the later trip wins).
G, L = 100, 32

def expect():
    N = [7 * i + 3 for i in range(G)]
    S = []
    for i in range(G):
        s = 0.0
        for j in range(N[i] % 6): s = s * 1.5 + j
        S.append(s)
    out, trace = [], [0] * (8 * G)
    for i in range(G):
        g0 = i - i % L
        lsz = min(L, G - g0)
        t = S[g0 + (i - g0 + 1) % lsz]
        k = N[i] % 6
        for j in range(int(t) % 5 + k):
            t = t * 0.5 + S[i]
            trace[8 * i + (j & 7)] = j
        out.append(t + S[i])
    return N, out, trace

N, OUT, TRACE = expect()
CASES = [dict(global_size=(G,), local_size=(L,), subgroup_sizes=[None, 8],
              args=[In("int", N), Out("float", G, expect=OUT), Out("int", 8 * G, expect=TRACE), Local(4 * L)],
              jobs_compare=[1, 2])]
