n = 64
A = rand_floats(n, -1000, 1000, seed=13)
B = rand_floats(n, -1000, 1000, seed=14)
A[0], B[0] = 2.5, 2.5
A[1], B[1] = -3.5, 1e-30
A[2], B[2] = 1e30, 1e30      # product overflows to inf
A[3], B[3] = -0.5, 7.0
r, d, c = [], [], []
for x, y in zip(A, B):
    def rne(v):
        fl = math.floor(v)
        diff = v - fl
        return fl + 1 if diff > 0.5 or (diff == 0.5 and fl % 2 == 1) else fl
    r += [f32(x + y), f32(x - y), f32(x * y), abs(x), math.floor(x), math.ceil(x),
          float(math.trunc(x)), math.copysign(rne(x), x)]
    d.append(f32(x / y))
    c += [math.trunc(x) if abs(x) < 2**31 else None, int(x < y), int(x == y)]   # out of range: undefined
# floor/ceil/trunc of -0.5 etc keep the sign of zero
r[8*3+5] = -0.0   # ceil(-0.5) = -0
r[8*3+6] = -0.0   # trunc(-0.5) = -0
global_size = (n,); local_size = (16,)
args = [In("float", A), In("float", B), Out("float", 8 * n, expect=r),
        Out("float", n, expect=d, ulp=3), Out("int", 3 * n, expect=c)]
