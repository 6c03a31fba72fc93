import random as _r
g = _r.Random(15)
n = 64
A = [g.uniform(-1e6, 1e6) for _ in range(n)]
B = [g.uniform(-1e3, 1e3) for _ in range(n)]
A[0], B[0] = 0.1, 3.0
A[1], B[1] = 2.0, 2.0
r, c = [], []
for x, y in zip(A, B):
    r += [x + y, x - y, x * y, x / y, math.sqrt(abs(x)), fma64(x, y, -x), f32(x)]
    c += [math.trunc(x), int(x >= y)]
global_size = (n,); local_size = (8,)
args = [In("double", A), In("double", B), Out("double", 7 * n, expect=r), Out("long", 2 * n, expect=c)]
