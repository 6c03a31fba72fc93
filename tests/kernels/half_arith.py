# Exact: a half +,-,*,/ computed in double then rounded once to half is the
# correctly rounded half result (53 >= 2*11+2).
n = 32
A = [f16_bits(v) for v in rand_floats(n, -100, 100, seed=11)]
B = [f16_bits(v) for v in rand_floats(n, 0.5, 60, seed=12)]
A[0], B[0] = f16_bits(65504.0), f16_bits(2.0)     # overflow to +inf
A[1], B[1] = f16_bits(2.0 ** -14), f16_bits(0.5)  # result is a subnormal
r, f = [], []
for a, b in zip(A, B):
    x, y = f16_from_bits(a), f16_from_bits(b)
    r += [f16_bits(x + y), f16_bits(x * y), f16_bits(x - y), f16_bits(x / y),
          f16_bits(f32(f32(x * 3.0) + 0.25))]
    f += [x, float(x < y)]
global_size = (n,); local_size = (8,)
args = [In("ushort", A), In("ushort", B), Out("ushort", 5 * n, expect=r), Out("float", 2 * n, expect=f)]
