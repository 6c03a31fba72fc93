# References from the definitions: round (half to even, up, down, toward
# zero), then clamp to the destination's range; NaN gives 0.  Integer
# saturation clamps the source's value (its own signedness) to the range.
nan, inf = float("nan"), float("inf")
def rnd(v, mode):
    if mode == "rte":
        f = math.floor(v); d = v - f
        return f + 1 if d > 0.5 or (d == 0.5 and f % 2) else f
    if mode == "rtp": return math.ceil(v)
    if mode == "rtn": return math.floor(v)
    return math.trunc(v)
def f2i(v, mode, lo, hi):
    if math.isnan(v): return 0
    if math.isinf(v): return lo if v < 0 else hi
    r = rnd(v, mode)
    return lo if r < lo else hi if r > hi else r
def sat(v, lo, hi): return lo if v < lo else hi if v > hi else v
I32 = (-2**31, 2**31 - 1); U32 = (0, 2**32 - 1); U8 = (0, 255); I8 = (-128, 127); I16 = (-32768, 32767)
U16 = (0, 65535); I64 = (-2**63, 2**63 - 1); U64 = (0, 2**64 - 1)
n = 64
FE = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.0, 254.5, 255.5, 256.0, -1.0, 3e9, -3e9, 2147483520.0,
      -2147483648.0, nan, inf, -inf, 1e20, 4294967040.0, 4294967296.0, -7.25, 7.75, 100.5, -100.5, 0.0, 1.0]
F = [f32(v) for v in FE + rand_floats(n - len(FE), -1000, 1000, seed=91)]
AE = [0, -1, 1, 127, 128, 255, 256, -128, -129, 32767, 32768, -32768, -32769, 65535, 65536, 2**31 - 1, -2**31]
A = AE + rand_ints(n - len(AE), -2**31, 2**31 - 1, seed=92)
LE = [0, -1, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**32 - 1, 2**32, 2**63 - 1, -2**63]
L = LE + rand_ints(n - len(LE), -2**63, 2**63 - 1, seed=93)
fi, fu, ii, ll, dd = [], [], [], [], []
for x, y, z in zip(F, A, L):
    fi += [f2i(x, "rte", *I32), f2i(x, "rtp", *I32), f2i(x, "rtn", *I32), f2i(x, "rtz", *I32),
           wrap("int", f2i(x, "rte", *U32))]
    fu += [f2i(x, "rtz", *U8), f2i(x, "rtp", *U8)]
    yu = y & 0xffffffff
    ii += [sat(y, *U8), sat(y, *I8), sat(y, *I16), sat(yu, *U16), wrap("int", sat(y, *U32)), sat(yu, *I32)]
    zu = z & 0xffffffffffffffff
    ll += [sat(z, *I32), sat(z, *U32), sat(zu, *I64), wrap("long", sat(z, *U64))]
    dd.append(float(f2i(x * 1e10, "rtn", *I64)) + float(f2i(x, "rte", *I16)))
global_size = (n,); local_size = (16,)
args = [In("float", F), In("int", A), In("long", L), Out("int", 5 * n, expect=fi), Out("uchar", 2 * n, expect=fu),
        Out("int", 6 * n, expect=ii), Out("long", 4 * n, expect=ll), Out("double", n, expect=dd)]
