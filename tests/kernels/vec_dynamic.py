# References in Python: float products and sums rounded to single after
# each step (f32), double ones in Python's double; the index masks keep it
# in range.
n = 64
A = [f32(v) for v in rand_floats(4 * n, -50, 50, seed=81)]
Bv = [f32(v) for v in rand_floats(4 * n, -50, 50, seed=82)]
IDX = rand_ints(n, 0, 1000, seed=83)
def fdot(xs, ys):
    s = None
    for x, y in zip(xs, ys):
        p = f32(x * y)
        s = p if s is None else f32(s + p)
    return s
def ddot(xs, ys):
    s = None
    for x, y in zip(xs, ys):
        p = x * y
        s = p if s is None else s + p
    return s
dots, ex, ins, dd = [], [], [], []
for i in range(n):
    x, y, k = A[4*i:4*i+4], Bv[4*i:4*i+4], IDX[i]
    dots += [fdot(x, y), fdot(x[0:2], y[2:4]), fdot(x[0:3], y[0:3]), f32(x[k & 3] + y[(k >> 2) & 3])]
    v = [i, 10 * i, -i, 7, i * i, 3, -5, 100]
    ex.append(v[k & 7])
    w = [c * i for c in (1, 2, 3, 4)]
    w[k & 3] = -1
    ins += w
    dd.append(ddot(x, [c * 0.1 for c in y]))
global_size = (n,); local_size = (16,)
args = [In("float", A), In("float", Bv), In("int", IDX), Out("float", 4 * n, expect=dots), Out("int", n, expect=ex),
        Out("int", 4 * n, expect=ins), Out("double", n, expect=dd)]
