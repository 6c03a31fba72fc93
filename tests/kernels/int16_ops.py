n = 64
A = rand_ints(n, -32768, 32767, seed=5)
B = rand_ints(n, -32768, 32767, seed=6)
B[1] = 0
A[2], B[2] = -32768, -1
s, u, w = [], [], []
for x, y in zip(A, B):
    ux, uy = x & 0xFFFF, y & 0xFFFF
    s += [x + y, x * y, cdiv(x, y) if y else -7, crem(x, y) if y else -7, ~x, x ^ y]
    u += [ux - uy, ux * uy, max(ux, uy)]
    w.append(x * y)
global_size = (n,); local_size = (8,)
args = [In("short", A), In("short", B), Out("short", 6 * n, expect=s),
        Out("ushort", 3 * n, expect=u), Out("int", n, expect=w)]
