# 32 work-items in work-groups of 16, n = 70000 iterations (the step check
# fires in every subgroup).  Reference: x_{k+1} = 3 x_k + c_k (mod 2^32) is
# x_n = 3^n x_0 + S_n, with S_n independent of x_0: computed once per
# recurrence, then per work-item in closed form.
G, L, N = 32, 16, 70000
IN = [(29 * i + 7) % 97 - 48 for i in range(G)]
M = 1 << 32

def wrap(x):
    x %= M
    return x - M if x >> 31 else x

def offset(c):   # S_n for the constant sequence c(k)
    s = 0
    for k in range(N):
        s = (3 * s + c(k)) % M
    return s

P = pow(3, N, M)
S = [offset(lambda k, m=m: k + m) for m in range(8)]
SQ = [offset(lambda k: k), offset(lambda k: 1), offset(lambda k: 2), offset(lambda k: 3)]
out = []
for v in IN:
    xs = [wrap(P * (v + m) + S[m]) for m in range(8)]
    qs = [wrap(P * (v * f) + SQ[c]) for c, f in enumerate((1, 2, 3, 5))]
    out += xs + qs

CASES = [dict(global_size=(G,), local_size=(L,), subgroup_sizes=[None, 8],
              args=[In("int", IN), Out("int", 12 * G, expect=out), Scalar("int", N)])]
