std = "CL2.0"
# Per work-item (v = in[g]): mlv_gcd, the gcd of v % 1000 + 1 and
# (v >> 10) % 1000 + 1 by Euclid's loop; mlv_seq, the sum of the Collatz
# values of v + o + 1 over four loops o = 0..3 (64-bit; v = g * 37 % 300
# there); mlv_brk,
# a 32-bit xorshift loop of at most 100 steps that breaks when
# x & 31 == 7 (s sums the bytes before the break, last is the byte at it,
# out = s + 3 * last); mlv_steps, the Collatz step count of v % 5000 + 1;
# mlv_mandel, the escape count (at most 64) plus x of the Mandelbrot loop at
# c = (-2 + (g % 16) * 3/16, -1.5 + (g / 16) * 3/16).
# Subgroups of 16, 32 and 8: lanes leave every loop at different trips.
# The first inputs make lane 0 leave the gcd loop on its first trip.
from math import gcd as _gcd
G, L = 256, 64
M32, M64 = (1 << 32) - 1, (1 << 64) - 1
IN = [0, 1024, 5] + [(2654435761 * g + 977) & M32 for g in range(3, G)]

def f_gcd(v):
    return _gcd(v % 1000 + 1, (v >> 10) % 1000 + 1)

def f_seq(v):
    acc = 0
    for o in range(4):
        x = v + o + 1
        while x > 1:
            x = 3 * x + 1 if x & 1 else x >> 1
            acc = (acc + x) & M64
    return acc

def f_brk(v):
    x, s, last = v | 1, 0, 0
    for _ in range(100):
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        last = x & 0xff
        if (x & 31) == 7:
            break
        s = (s + last) & M32
    return (s + last * 3) & M32

def f_steps(v):
    c, n = v % 5000 + 1, 0
    while c != 1:
        c = 3 * c + 1 if c & 1 else c >> 1
        n += 1
    return n

def f_mandel(g, maxit=64):
    # FP_CONTRACT OFF: every operation rounded to float32 (double then
    # float rounding is exact for +, -, *)
    cx = f32(-2.0 + f32((g % 16) * 0.1875))
    cy = f32(-1.5 + f32((g // 16) * 0.1875))
    x = y = 0.0
    it = 0
    while f32(f32(x * x) + f32(y * y)) < 4.0 and it < maxit:
        t = f32(f32(f32(x * x) - f32(y * y)) + cx)
        y = f32(f32(f32(2.0 * x) * y) + cy)
        x = t
        it += 1
    return f32(it + x)

IN_SEQ = [g * 37 % 300 for g in range(G)]
KERNELS = [("mlv_gcd", "uint", f_gcd, IN), ("mlv_seq", "ulong", f_seq, IN_SEQ), ("mlv_brk", "uint", f_brk, IN),
           ("mlv_steps", "uint", f_steps, IN)]
CASES = [dict(kernel=k, global_size=(G,), local_size=(L,), subgroup_sizes=[S],
              args=[In("uint", inp), Out(t, G, expect=[f(v) for v in inp])])
         for k, t, f, inp in KERNELS for S in (16, 32, 8)]
CASES += [dict(kernel="mlv_mandel", global_size=(G,), local_size=(L,), subgroup_sizes=[S],
               args=[Out("float", G, expect=[f_mandel(g) for g in range(G)]), Scalar("int", 64)])
          for S in (16, 32, 8)]
