n = 64
A = rand_ints(n, -128, 127, seed=3)
B = rand_ints(n, -128, 127, seed=4)
A[0], B[0] = -128, -1   # -128 / -1 = 128 wraps to -128 in char
s, u = [], []
for x, y in zip(A, B):
    ux, uy = x & 255, y & 255
    s += [x + y, x - y, x * y, cdiv(x, y) if y else 0, crem(x, y) if y else 0,
          x >> 2, x << 3, int(x < y)]
    u += [ux + uy, ux * uy, ux // uy if uy else 0, ux >> 3]
global_size = (n,); local_size = (16,)
args = [In("char", A), In("char", B), Out("char", 8 * n, expect=s), Out("uchar", 4 * n, expect=u)]
