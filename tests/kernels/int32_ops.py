n = 128
A = rand_ints(n, -2**31, 2**31 - 1, seed=7)
B = rand_ints(n, -2**31, 2**31 - 1, seed=8)
A[:6] = [-2**31, 7, -7, 7, -7, 100]
B[:6] = [-1, 2, 2, -2, -2, 0]
for i in range(6, 30):
    B[i] = rand_ints(1, -40, 40, seed=i)[0]
s, u = [], []
for x, y in zip(A, B):
    ux, uy = x & 0xFFFFFFFF, y & 0xFFFFFFFF
    okdiv = y != 0 and not (x == -2**31 and y == -1)
    s += [x + y, x - y, x * y, cdiv(x, y) if okdiv else 0, crem(x, y) if okdiv else 0,
          x >> (y & 31), x << (y & 7), (x > y) - (x < y)]
    u += [ux // uy if uy else 0, ux % uy if uy else 0, ux >> (uy & 31), int(ux < uy)]
global_size = (n,); local_size = (32,)
args = [In("int", A), In("int", B), Out("int", 8 * n, expect=s), Out("uint", 4 * n, expect=u)]
