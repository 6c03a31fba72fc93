# Reads: the little-endian int made of in[2..5] and in[5..8]; the write puts
# 0x11223344 into bytes[3..6]; the out-of-bounds read yields 0 (suppressed).
import struct as _s
data = [(7 * i + 3) & 0xff for i in range(16)]
def le32(b, o):
    return _s.unpack("<i", bytes(b[o:o + 4]))[0]
bytes_out = [0] * 8
bytes_out[3:7] = [0x44, 0x33, 0x22, 0x11]
global_size = (1,)
exit = 1
diag = ["misaligned access", "out-of-bounds"]
args = [In("uchar", data), Out("int", 3, expect=[le32(data, 2), le32(data, 5), 0]),
        Out("uchar", 8, expect=bytes_out)]
