n = 16
A = rand_ints(8 * n, -10**6, 10**6, seed=59)
B = rand_ints(8 * n, -10**6, 10**6, seed=60)
M = rand_ints(8 * n, 0, 2**32 - 1, seed=61)
r = []
for i in range(n):
    a, b, m = A[8*i:8*i+8], B[8*i:8*i+8], M[8*i:8*i+8]
    ab = a + b
    r += [a[k & 7] for k in m]
    r += [ab[k & 15] for k in m]
    lo4, hi4 = a[:4], b[4:]
    r += [lo4[3], lo4[2], lo4[1], lo4[0]]
    r += [(lo4 + hi4)[((k + 8) & 0xFFFFFFFF) & 7] for k in m[:4]]
global_size = (n,); local_size = (4,)
args = [In("int", A), In("int", B), In("uint", M), Out("int", 24 * n, expect=r)]
