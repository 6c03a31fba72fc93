std = "CL2.0"   # ctz is OpenCL C 2.0
n = 64
A = rand_ints(n, -2**31, 2**31 - 1, seed=45)
B = rand_ints(n, -2**31, 2**31 - 1, seed=46)
A[:6] = [2**31 - 1, -2**31, 0, -1, 1, 12345]
B[:6] = [1, 1, 0, -1, 2**31 - 1, -2**31]
def rot(v, s, bits):
    m = (1 << bits) - 1
    v &= m; s %= bits
    return ((v << s) | (v >> (bits - s))) & m
def clzn(v, bits):
    v &= (1 << bits) - 1
    return bits - v.bit_length()
def ctz(v):
    v &= 0xFFFFFFFF
    return 32 if v == 0 else (v & -v).bit_length() - 1
r, u, l, c = [], [], [], []
for x, y in zip(A, B):
    ux, uy = x & 0xFFFFFFFF, y & 0xFFFFFFFF
    s24 = lambda v: wrap("int", v << 8) >> 8
    r += [sat("int", x + y), sat("int", x - y), (x * y) >> 32, wrap("int", rot(x, y, 32)),
          (x + y) >> 1, (x + y + 1) >> 1,
          wrap("int", s24(x >> 8) * s24(y >> 8) + 12345),
          sat("int", x * y + x)]
    u += [clzn(ux, 32), bin(ux).count("1"), abs(x) & 0xFFFFFFFF, abs(x - y),
          (ux * uy) >> 32, min(ux + uy, 0xFFFFFFFF)]
    l.append(((x << 32) | uy))
    cx, cy = x & 255, y & 255
    c += [min(cx + cy, 255), clzn(cy, 8), rot(cx, cy, 8), ctz(ux)]
global_size = (n,); local_size = (16,)
args = [In("int", A), In("int", B), Out("int", 8 * n, expect=r), Out("uint", 6 * n, expect=u),
        Out("long", n, expect=l), Out("uchar", 4 * n, expect=c)]
