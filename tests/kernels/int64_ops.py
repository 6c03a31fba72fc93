n = 64
A = rand_ints(n, -2**63, 2**63 - 1, seed=9)
B = rand_ints(n, -2**63, 2**63 - 1, seed=10)
A[:4] = [-2**63, 5, -5, 1 << 40]
B[:4] = [3, -3, 0, 1 << 20]
s, u = [], []
M = 2**64 - 1
for x, y in zip(A, B):
    ux, uy = x & M, y & M
    ok = y not in (0, -1)
    s += [x + y, x * y, cdiv(x, y) if ok else 0, crem(x, y) if ok else 0,
          x >> (y & 63), wrap("int", x) + (y & 0xFFFFFFFF)]
    u += [ux // uy if uy else 0, ux << (uy & 63), ux >> (uy & 63), max(ux, uy)]
global_size = (n,); local_size = (16,)
args = [In("long", A), In("long", B), Out("long", 6 * n, expect=s), Out("ulong", 4 * n, expect=u)]
