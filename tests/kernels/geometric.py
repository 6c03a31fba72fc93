# Small integers: dot/cross are exact whatever the evaluation order.
# length/distance/normalize: the spec does not pin them down exactly; we use
# a generous 8 ulp (sqrt 3 ulp + rounding of the intermediate sums).
n = 32
A = [float(v) for v in rand_ints(4 * n, -20, 20, seed=54)]
B = [float(v) for v in rand_ints(4 * n, -20, 20, seed=55)]
A[0:4] = [3.0, 4.0, 0.0, 0.0]
r_exact, r_len, cr, nr = [], [], [], []
for i in range(n):
    x, y = A[4*i:4*i+4], B[4*i:4*i+4]
    d4 = sum(p * q for p, q in zip(x, y))
    d3 = sum(p * q for p, q in zip(x[:3], y[:3]))
    L = math.sqrt(sum(p * p for p in x))
    D = math.sqrt((x[0] - y[0]) ** 2 + (x[1] - y[1]) ** 2)
    r_exact += [d4, d3, None, None, None]
    r_len += [None, None, f32(L), f32(D), None]
    cr += [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0], 0.0]
    nr += [f32(p / L) if L else 0.0 for p in x]
def both(exact, approx, ulp):
    def chk(got):
        for j, (e, a) in enumerate(zip(exact, approx)):
            g = float(got[j]) if not isinstance(got[j], str) else float(got[j])
            if e is not None and f32_bits(g) != f32_bits(e):
                return "[%d] got %r expected %r" % (j, g, e)
            if a is not None and abs(f32_bits(g) - f32_bits(a)) > ulp:
                return "[%d] got %r expected %r (%d ulp)" % (j, g, a, ulp)
        return None
    return chk
cexp = []
for i in range(n):
    cexp += cr[4*i:4*i+4] + [None] * 4
napprox = []
for i in range(n):
    napprox += [None] * 4 + nr[4*i:4*i+4]
# fast_length((3,4)) = 5 within its own (large) tolerance: not checked exactly
global_size = (n,); local_size = (8,)
args = [In("float", A), In("float", B), Out("float", 5 * n, check=both(r_exact, r_len, 8)),
        Out("float", 8 * n, check=both(cexp, napprox, 8))]
