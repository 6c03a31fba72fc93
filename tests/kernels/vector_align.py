# G work-items, one subgroup per work-group of 16 (S = the default and 8).
# out[3 + 4i + k] = in[1 + 4i + k] + k + 1; out3[i] = lin[1+4i] + 2 lin[2+4i]
# + 3 lin[3+4i] (mod 2^64); mis[0] = the xor of the four little-endian ints
# at bytes[2..17] when bad, else untouched (0).
import struct as _s
G = 32
IN = rand_ints(4 * G + 8, -(1 << 30), 1 << 30, seed=71)
LIN = rand_ints(4 * G + 8, 0, (1 << 64) - 1, seed=72)
BYTES = [(29 * k + 5) & 0xff for k in range(20)]

def case(bad):
    out = [0] * (4 * G + 8)
    for i in range(G):
        for k in range(4):
            out[3 + 4 * i + k] = IN[1 + 4 * i + k] + k + 1
    out3 = [(LIN[1 + 4 * i] + 2 * LIN[2 + 4 * i] + 3 * LIN[3 + 4 * i]) % (1 << 64) for i in range(G)]
    m = 0
    if bad:
        for k in range(4):
            m ^= _s.unpack("<i", bytes(BYTES[2 + 4 * k:6 + 4 * k]))[0]
    c = dict(global_size=(G,), local_size=(16,), subgroup_sizes=[None, 8],
             args=[In("int", IN), Out("int", 4 * G + 8, expect=out), In("ulong", LIN),
                   Out("ulong", G, expect=out3), In("uchar", BYTES), Out("int", 1, expect=[m]),
                   Scalar("uint", bad)])
    if bad:
        c.update(exit=1, diag=["misaligned access"])
    return c

CASES = [case(0), case(1)]
