# References from the OpenCL C built-ins' definitions (float: one IEEE
# operation each, rounded to the type; integer: exact, then truncated), and
# docs/semantics.md's choices: mul24/mad24 take the low 24 bits (signed:
# sign-extended); clamp(x, lo, hi) with lo > hi gives lo when x < lo, else
# hi when x > hi, else x.
from fractions import Fraction
nan, inf = float("nan"), float("inf")
n = 64
FE = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.7, -3.7, 1e10, -1e10, inf, -inf, nan, 0.49999997,
      -0.4, 1e-40, -1e-40, 8388607.5, -8388607.5, 16777216.0, 3.4e38, 2.0, 0.25, 100.0]
X = [f32(v) for v in FE + rand_floats(n - len(FE), -1000, 1000, seed=21)]
Y = [f32(v) for v in rand_floats(n, -50, 50, seed=22)]
Z = [f32(v) for v in rand_floats(n, -1e4, 1e4, seed=23)]
Y[0], Y[1], Y[2] = -0.0, 0.0, -1.0
D = [0.0, -0.0, 2.5, -2.5, 1e300, -1e-310, inf, nan, 4503599627370495.5, -7.25] + \
    rand_floats(n - 10, -1e6, 1e6, seed=24)
def fsign(q, a):   # an integral result with a's sign (floor(-0.0) = -0.0, ceil(-0.5) = -0.0)
    return math.copysign(float(q), a)
def fop(name, a):
    if math.isnan(a) or math.isinf(a):
        if name == "sqrt" and a < 0:
            return nan
        return abs(a) if name == "fabs" else a
    if name == "fabs": return abs(a)
    if name == "sqrt": return nan if a < 0 else (a if a == 0 else math.sqrt(a))
    if name == "floor": return fsign(math.floor(a), a)
    if name == "ceil": return fsign(math.ceil(a), a)
    if name == "trunc": return fsign(math.trunc(a), a)
    if name == "rint": return fsign(round(Fraction(a)), a)
r, rd = [], []
def fma_(f, a, b, c):   # the exact product and sum; inf and NaN as IEEE
    if all(math.isfinite(v) for v in (a, b, c)):
        return f(a, b, c)
    return a * b + c
for a, b, c in zip(X, Y, Z):
    r += [f32(fop(k, a)) for k in ("fabs", "sqrt", "floor", "ceil", "trunc", "rint")]
    r += [fma_(fma32, a, b, c), math.copysign(a, b)]
for d in D:
    rd += [fop("fabs", d), fop("sqrt", d), fop("floor", d), fma_(fma64, d, d, -1.0)]

IE = [0, 1, -1, 0x7fffffff, -0x80000000, 0x00ffffff, 0x00800000, -0x00800000, 0x01000001, 12345678,
      -12345678, 65535, -32768, 32767, 100, -100]
A = IE + rand_ints(n - len(IE), -2**31, 2**31 - 1, seed=25)
B = rand_ints(n, -2**31, 2**31 - 1, seed=26)
C = rand_ints(n, -2**31, 2**31 - 1, seed=27)
B[:6] = [-5, 5, 0, 1 << 20, -(1 << 23), 7]
C[:6] = [5, -5, 0, -(1 << 20), 1 << 23, 7]     # crossed and equal bounds
def sx24(v):
    v &= 0xffffff
    return v - (1 << 24) if v >> 23 else v
def clamp_(x, lo, hi):
    return lo if x < lo else hi if x > hi else x
ri, ru, rs, rl = [], [], [], []
for a, b, c in zip(A, B, C):
    ua, ub, uc = a & 0xffffffff, b & 0xffffffff, c & 0xffffffff
    ri += [max(a, b), min(a, b), clamp_(a, b, c), wrap("int", sx24(a) * sx24(b)),
           wrap("int", sx24(a) * sx24(b) + c), (a * b) >> 32, wrap("int", abs(a)), bin(ua).count("1")]
    ru += [max(ua, ub), min(ua, ub), clamp_(ua, ub, uc), ((ua & 0xffffff) * (ub & 0xffffff)) & 0xffffffff,
           ((ua & 0xffffff) * (ub & 0xffffff) + uc) & 0xffffffff, (ua * ub) >> 32]
    sa, sb = wrap("short", a), wrap("short", b)
    rs += [max(sa, sb), wrap("short", abs(sa))]
    la, lb = wrap("long", a * 4096 - 7), wrap("long", b << 20)
    rl += [wrap("ulong", min(la, lb)), max(la & (2**64 - 1), lb & (2**64 - 1)), bin(la & (2**64 - 1)).count("1")]
V = rand_ints(n, -1000, 1000, seed=28)
BOUNDS = [-300, 450]
rv = [clamp_(v, BOUNDS[0], BOUNDS[1]) for v in V]
CASES = [
    dict(name="float", kernel="ocl_std_f", global_size=(n,), local_size=(16,),
         args=[In("float", X), In("float", Y), In("float", Z), In("double", D),
               Out("float", 8 * n, expect=r), Out("double", 4 * n, expect=rd)]),
    dict(name="int", kernel="ocl_std_i", global_size=(n,), local_size=(16,),
         args=[In("int", A), In("int", B), In("int", C), Out("int", 8 * n, expect=ri), Out("uint", 6 * n, expect=ru),
               Out("short", 2 * n, expect=rs), Out("ulong", 3 * n, expect=rl)]),
    dict(name="vec", kernel="ocl_std_v", global_size=(n // 4,), local_size=(16,),
         args=[In("int", V), In("int", BOUNDS), Out("int", n, expect=rv)]),
]
