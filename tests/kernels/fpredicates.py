# IEEE classification from the definitions (normal: finite, |x| at least the
# smallest normal); bitselect takes the sign and mantissa bits from y and
# the exponent from x (mask 0x807fffff); select picks y in odd lanes.  The
# double column: d = x (times 1e-300 when i & 2), then isnormal(d) +
# 2 isfinite(d) + 4 signbit(d) + 8 isinf(d * 1e300).
import struct
nan, inf = float("nan"), float("inf")
FMIN = 2.0 ** -126
n = 64
XE = [0.0, -0.0, 1e-40, -1e-40, FMIN, -FMIN, 3.4028234663852886e38, inf, -inf, nan, 1.0, -2.5, 1e-45, 7.0, -7.0, nan]
YE = [1.0, nan, 0.0, -1.0, FMIN, 2.0, inf, inf, 1.0, nan, 1.0, -2.5, 0.0, nan, 3.0, 1.0]
X = [f32(v) for v in XE + rand_floats(n - len(XE), -1e3, 1e3, seed=101)]
Y = [f32(v) for v in YE + rand_floats(n - len(YE), -1e3, 1e3, seed=102)]
def bits(v): return struct.unpack("<I", struct.pack("<f", v))[0]
def fl(b): return struct.unpack("<f", struct.pack("<I", b))[0]
def sb(v): return 1 if math.copysign(1.0, v) < 0 else 0
def normal(v, mn=FMIN): return 1 if math.isfinite(v) and abs(v) >= mn else 0
r, rf, rd = [], [], []
for i, (x, y) in enumerate(zip(X, Y)):
    un = 1 if math.isnan(x) or math.isnan(y) else 0
    r += [1 if math.isinf(x) else 0, 1 if math.isfinite(x) else 0, normal(x), sb(x), 1 - un, un,
          1 if (x < y or x > y) else 0,
          (-normal(x) - 2 * un) * 16 + (-normal(y) - 2 * un)]
    m = 0x807fffff
    rf += [fl((bits(x) & ~m & 0xffffffff) | (bits(y) & m)), y if i & 1 else x]
    d = x * (1e-300 if i & 2 else 1.0)
    big = d * 1e300
    rd.append(normal(d, 2.0 ** -1022) + 2 * (1 if math.isfinite(d) else 0) + 4 * sb(d) +
              8 * (1 if math.isinf(big) else 0))
global_size = (n,); local_size = (16,)
args = [In("float", X), In("float", Y), Out("int", 8 * n, expect=r), Out("float", 2 * n, expect=rf),
        Out("long", n, expect=rd)]
