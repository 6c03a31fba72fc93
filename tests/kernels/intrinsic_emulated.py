# Each byte swap computed from the little-endian bytes by Python.
import struct as _s
n = 16
xs = [(0x0123456789abcdef * (i + 1) + 0x1111) & (2**64 - 1) for i in range(n)]
def swap(v, size, code):
    return _s.unpack(">" + code, _s.pack("<" + code, v & ((1 << (8 * size)) - 1)))[0]
global_size = (n,); local_size = (8,)
args = [In("ulong", xs), Out("uint", n, expect=[swap(x, 4, "I") for x in xs]),
        Out("ushort", n, expect=[swap(x, 2, "H") for x in xs]),
        Out("ulong", n, expect=[swap(x, 8, "Q") for x in xs])]
