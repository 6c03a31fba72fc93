n = 32
F = rand_floats(n, -1e6, 1e6, seed=49)
F[0] = 0.0
U = rand_ints(n, 0, 2**32 - 1, seed=50)
r, rf, rs = [], [], []
for x, u in zip(F, U):
    b = f32_bits(x)
    r += [b, b ^ 0x80000000, int.from_bytes(u.to_bytes(4, "little"), "big")]
    rf.append(f32_from_bits((u & 0x807FFFFF) | 0x3F800000))
    rs += [b & 0xFFFF, b >> 16]
global_size = (n,); local_size = (8,)
args = [In("float", F), In("uint", U), Out("uint", 3 * n, expect=r), Out("float", n, expect=rf),
        Out("ushort", 2 * n, expect=rs)]
