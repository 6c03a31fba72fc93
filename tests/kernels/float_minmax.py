# References written from docs/semantics.md's rule, not from the tool: fmin
# of x and y is the other operand when one is NaN (both NaN: y); otherwise
# the smaller, and between equal operands (+0 and -0) the one with the sign
# bit set; fmax likewise with the larger and the one without it.  min, max
# are fmin, fmax; clamp(x, lo, hi) = fmin(fmax(x, lo), hi); maxmag / minmag
# pick the larger / smaller magnitude, else fmax / fmin.
nan, inf = float("nan"), float("inf")
def neg(v): return math.copysign(1.0, v) < 0
def fmin_(x, y):
    if math.isnan(x): return y
    if math.isnan(y): return x
    if x < y: return x
    if y < x: return y
    return x if neg(x) else y
def fmax_(x, y):
    if math.isnan(x): return y
    if math.isnan(y): return x
    if x > y: return x
    if y > x: return y
    return y if neg(x) else x
def maxmag_(x, y):
    ax, ay = abs(x), abs(y)
    return x if ax > ay else y if ay > ax else fmax_(x, y)
def minmag_(x, y):
    ax, ay = abs(x), abs(y)
    return x if ax < ay else y if ay < ax else fmin_(x, y)
Z = [0.0, -0.0]
XE, YE, ZE = [], [], []
for a in Z:            # every sign combination of zeros
    for b in Z:
        for c in Z:
            XE.append(a); YE.append(b); ZE.append(c)
XE += [nan, 1.0, nan, -0.0, 0.0, 2.0, -2.0, inf, -inf, 5.0, -1.0, 0.5, 3.0, nan, -0.0, 0.0]
YE += [1.0, nan, nan, 1.0, -1.0, -2.0, 2.0, 1.0, 1.0, 5.0, -1.0, -0.5, 1.0, 0.0, -0.0, 0.0]
ZE += [2.0, 2.0, 2.0, 2.0, 0.0, 1.0, -3.0, 3.0, nan, 4.0, -0.0, 0.25, 0.5, -0.0, 0.0, -0.0]
n = 64
X = [f32(v) for v in XE + rand_floats(n - len(XE), -3, 3, seed=61)]
Y = [f32(v) for v in YE + rand_floats(n - len(YE), -3, 3, seed=62)]
Zs = [f32(v) for v in ZE + rand_floats(n - len(ZE), -3, 3, seed=63)]
r, rd = [], []
for x, y, z in zip(X, Y, Zs):
    r += [fmin_(x, y), fmax_(x, y), fmin_(fmax_(x, y), z), fmin_(x, y), fmax_(x, y),
          maxmag_(x, y), minmag_(x, y), fmin_(fmax_(x, -0.0), 0.0)]
    rd += [fmin_(x, y), fmax_(x, y), fmin_(fmax_(x, y), z)]
global_size = (n,); local_size = (16,)
args = [In("float", X), In("float", Y), In("float", Zs), Out("float", 8 * n, expect=r),
        Out("double", 3 * n, expect=rd)]
