# x = {2, 3, 4}: a*b+c = 10 everywhere; with x.a += i: (2+i)*3+4 (exact in
# float).  Mixed = {n=3, scale=0.5, off=-7} as bytes (int, float, short,
# 2 bytes of padding): (v*3-7)*0.5.
import struct as _s
n = 8
mixed = list(_s.pack("<ifhxx", 3, 0.5, -7))
CASES = [
    dict(kernel="sbv_read", args=[Scalar("float", [2, 3, 4]), Out("float", n, expect=[10.0] * n)]),
    dict(kernel="sbv_write", args=[Scalar("float", [2, 3, 4]),
                                   Out("float", n, expect=[(2.0 + i) * 3 + 4 for i in range(n)])]),
    dict(kernel="sbv_mixed", args=[In("int", list(range(n))), Scalar("uchar", mixed),
                                   Out("float", n, expect=[(v * 3 - 7) * 0.5 for v in range(n)])]),
]
for c in CASES:
    c["name"] = c["kernel"][4:]
global_size = (n,); local_size = (4,)
jit_fallback = "struct passed by value"
