from fractions import Fraction
n = 64
A = rand_floats(n, -8, 8, seed=42)
B = rand_floats(n, -8, 8, seed=43)
C = rand_floats(n, -8, 8, seed=44)
A[0], B[0], C[0] = 1 + 2**-23, 1 + 2**-23, -1.0   # fma keeps the 2^-46 term
A[1] = 0.0
def fmod_exact(x, y):
    q = Fraction(x) / Fraction(y)
    t = int(q)  # truncation
    return float(Fraction(x) - t * Fraction(y)) if Fraction(x) - t * Fraction(y) != 0 else math.copysign(0.0, x)
def frexp_c(x):
    m, e = math.frexp(x)
    return m, e
r, e = [], []
for i, (x, y, z) in enumerate(zip(A, B, C)):
    m, ex = frexp_c(x)
    r += [fma32(x, y, z), math.floor(x) * 0.5 + math.floor(z), min(x, y), max(x, z),
          max(-1.0, min(1.0, x)), 8.0 * 0.25 * (i & 3), 0.0 if x < y else 1.0,
          math.copysign(x, y), fmod_exact(x, 0.75), math.ldexp(m, 3)]
    e.append(ex)
global_size = (n,); local_size = (16,)
args = [In("float", A), In("float", B), In("float", C), Out("float", 10 * n, expect=r), Out("int", n, expect=e)]
