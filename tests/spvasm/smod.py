# smod(x, y) = x - y * floor(x / y) (the divisor's sign), srem = C's %,
# sdiv = C's /, from the definitions; y = 0 (or MIN / -1 for sdiv):
# a division-by-zero fault and 0.
from fractions import Fraction
n = 32
MIN = -2**31
X = [7, -7, 7, -7, 0, 5, -5, MIN, MIN, 2**31 - 1, 65535, 32767, -32768, 100, -100, 9] + \
    rand_ints(n - 16, -2**31, 2**31 - 1, seed=41)
Y = [3, 3, -3, -3, 5, 0, -1, -1, 7, -1, 2, -7, 3, 0x10007, 0x1fff9, -4] + rand_ints(n - 16, -1000, 1000, seed=42)
Y = [y if (y & 0xffff) or k == 5 else y + 1 for k, y in enumerate(Y)]   # a zero 16-bit divisor only in lane 5
def smod(x, y):
    return x - y * math.floor(Fraction(x, y))
out = []
for x, y in zip(X, Y):
    xs, ys = wrap("short", x), wrap("short", y)
    out += [0 if y == 0 else wrap("int", smod(x, y)), 0 if y == 0 or y == -1 else crem(x, y),
            0 if y == 0 or (x == MIN and y == -1) else wrap("int", cdiv(x, y)),
            0 if ys == 0 else wrap("int", smod(xs, ys))]
CASES = [dict(global_size=(n,), local_size=(16,), exit=1, diag=["division by zero"],
              args=[In("int", X), In("int", Y), Out("uint", 4 * n, expect=out)])]
