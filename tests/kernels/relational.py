n = 32
nan, inf = math.nan, math.inf
A = rand_floats(4 * n, -4, 4, seed=51, digits=1)
B = rand_floats(4 * n, -4, 4, seed=52, digits=1)
A[0], A[4], A[9], B[5], B[13], A[18] = nan, -0.0, inf, inf, -inf, nan
K = rand_ints(4 * n, -5, 5, seed=53)
r, rf = [], []
def isless(p, q): return p < q   # false when either is NaN
for i in range(n):
    x, y, k = A[4*i:4*i+4], B[4*i:4*i+4], K[4*i:4*i+4]
    lt = [isless(p, q) for p, q in zip(x, y)]
    r += [int(any(lt)), int(all(lt)), int(math.isnan(x[0])), int(math.isinf(y[1])),
          int(math.copysign(1.0, x[2]) < 0), int(x[3] == y[3]),
          int(x[0] < y[0] or x[0] > y[0]),
          int(any(math.isnan(p) for p in x)) + 2 * int(all(not math.isnan(p) and not math.isnan(q) for p, q in zip(x, y)))]
    v = [7 if lt[j] else k[j] for j in range(4)]   # select(a, b, c): c's MSB set -> b
    r.append(v[0] + v[1] * 3 + v[2] * 5 + v[3] * 11)
    r.append(wrap("int", (k[0] & ~k[2]) | (k[1] & k[2])))
    rf += [y[j] if k[j] < 0 else x[j] for j in range(4)]
global_size = (n,); local_size = (8,)
args = [In("float", A), In("float", B), In("int", K), Out("int", 10 * n, expect=r), Out("float", 4 * n, expect=rf)]
