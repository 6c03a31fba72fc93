# length and distance: the exact square root of the exact sum of squares,
# rounded; normalize: each component over that length; a zero vector stays
# as it is; an infinite length gives copysign(1 or 0, v) (1 for the
# infinite components).  cross: (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0),
# each product and difference rounded to float (double for double3), 4th
# component 0.
from fractions import Fraction
nan, inf = float("nan"), float("inf")
def exact_len(vs):
    if any(math.isnan(v) for v in vs): return nan
    if any(math.isinf(v) for v in vs): return inf
    s = sum(Fraction(v) ** 2 for v in vs)
    return math.sqrt(float(s)) if s < 2**1000 else math.sqrt(float(s / 2**100)) * 2**50
def normalize(vs):
    l = exact_len(vs)
    if l == 0: return list(vs)
    if math.isinf(l): return [math.copysign(1.0 if math.isinf(v) else 0.0, v) for v in vs]
    return [v / l for v in vs]
def cross(a, b, r):
    return [r(r(a[1] * b[2]) - r(a[2] * b[1])), r(r(a[2] * b[0]) - r(a[0] * b[2])), r(r(a[0] * b[1]) - r(a[1] * b[0]))]
dbl = lambda v: v
n = 64
AE = [0, 0, 0, 0,  3, 4, 0, 0,  inf, 1, 0, 2,  -inf, 2, -3, 0,  nan, 1, 2, 3,  1e30, 1e30, 0, 1,  1e-30, 0, -1e-30, 0]
BE = [1, 2, 3, 4,  0, 0, 0, 0,  1, 1, 1, 1,  2, 0, 0, 1,  0, 0, 0, 0,  -1e30, 1, 1, 0,  5, 6, 7, 8]
A = [f32(v) for v in AE + rand_floats(4 * n - len(AE), -100, 100, seed=97)]
B = [f32(v) for v in BE + rand_floats(4 * n - len(BE), -100, 100, seed=98)]
L, N, C, D = [], [], [], []
for i in range(n):
    x, y = A[4*i:4*i+4], B[4*i:4*i+4]
    d3 = [x[k] - y[k] for k in range(3)]
    d4 = [x[k] - y[k] for k in range(4)]
    d2 = [x[k] - y[k] for k in range(2)]
    L += [exact_len(x), exact_len(x[:2]), exact_len(d3), exact_len([x[2]]), exact_len(d4), exact_len(d2)]
    N += normalize(x) + normalize(x[:3]) + normalize([y[0]])
    C += cross(x, y, f32) + [0.0] + cross(x[:3], [y[2], y[1], y[0]], f32) + [9.0]
    dc = cross(x[:3], y[:3], dbl)
    D += [exact_len(x[:3]), dc[0] + dc[1] * 2 + dc[2] * 4, normalize(x[:3])[1], exact_len(d3)]
global_size = (n,); local_size = (16,)
args = [In("float", A), In("float", B), Out("float", 6 * n, expect=L, ulp=1), Out("float", 8 * n, expect=N, ulp=1),
        Out("float", 8 * n, expect=C), Out("double", 4 * n, expect=D, ulp=2)]
