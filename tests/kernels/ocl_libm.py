# References from Python's math (double), rounded to float; a domain error
# is NaN, an overflow infinity.  fmin / fmax: the other operand when one is
# NaN (both NaN: the second); between two zeros fmin the negative one, fmax
# the positive one (docs/semantics.md).
nan, inf = float("nan"), float("inf")
n = 64
XE = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 10.0, -10.0, 100.0, inf, -inf, nan, 0.0, 3.14159265, nan]
YE = [0.0, 0.0, 2.0, 3.0, nan, 0.25, -1.5, 0.5, 2.0, 1.5, 2.0, 1.0, 1.0, -0.0, -0.0, nan]
X = [f32(v) for v in XE + rand_floats(n - len(XE), -6, 6, seed=51)]
Y = [f32(v) for v in YE + rand_floats(n - len(YE), 0.1, 4, seed=52)]
def M(fn, *a):
    try:
        if any(math.isnan(v) for v in a):
            return nan
        return fn(*a)
    except ValueError:
        return nan
    except (OverflowError, ZeroDivisionError):
        return inf
def log_(f, x):
    if x == 0: return -inf
    if x == inf: return inf
    return M(f, x)
def fmin_(x, y):
    if math.isnan(x): return y
    if math.isnan(y): return x
    if x == 0 and y == 0: return x if math.copysign(1, x) < 0 else y
    return min(x, y)
def fmax_(x, y):
    if math.isnan(x): return y
    if math.isnan(y): return x
    if x == 0 and y == 0: return y if math.copysign(1, x) < 0 else x
    return max(x, y)
def round_(x):
    if not math.isfinite(x): return x
    return math.copysign(math.floor(abs(x) + 0.5), x)
def pow_(y, x):
    if x == 0: return 1.0
    if y == 1.0: return 1.0
    if math.isnan(x) or math.isnan(y): return nan
    if y == 0: return inf if x < 0 else 0.0
    if math.isinf(x):
        return (inf if x > 0 else 0.0) if abs(y) > 1 else (0.0 if x > 0 else inf)
    return M(math.pow, y, x)
def sinh_(x):
    return x if math.isinf(x) else M(math.sinh, x)
def fmod_(x, y):
    if math.isinf(y) and math.isfinite(x): return x
    return M(math.fmod, x, y)
r, rd = [], []
for x, y in zip(X, Y):
    ex = [M(math.exp, x) if x != -inf else 0.0, M(lambda v: 2.0 ** v, x) if x != -inf else 0.0,
          M(math.expm1, x) if x != -inf else -1.0, log_(math.log, x), log_(math.log2, x), log_(math.log10, x),
          (-inf if x == -1 else inf if x == inf else M(math.log1p, x)),
          M(math.sin, x), M(math.cos, x), M(math.tan, x), M(math.atan, x), M(math.atan2, x, y),
          sinh_(x), M(math.tanh, x), (x if math.isinf(x) else M(math.asinh, x)),
          (x if not math.isfinite(x) else math.copysign(abs(x) ** (1 / 3), x)),
          pow_(y, x), fmod_(x, y), (inf if math.isinf(x) or math.isinf(y) else M(math.hypot, x, y)),
          (nan if math.isnan(x) or math.isnan(y) else (x - y if x > y else 0.0)),
          fmin_(x, y), fmax_(x, y), round_(x), M(math.cos, x)]
    r += [f32(v) for v in ex]
    rd += [M(math.exp, x) if x != -inf else 0.0, log_(math.log, x), fmin_(x, y), pow_(y, x)]
global_size = (n,); local_size = (16,)
args = [In("float", X), In("float", Y), Out("float", 24 * n, expect=r, ulp=8), Out("double", 4 * n, expect=rd, ulp=8)]
