# 2D images given in the run file (docs/runfile.md, image extension).
from fractions import Fraction
W, H = 4, 3
N = W * H
A = rand_ints(4 * N, 0, 255, seed=61)
B = rand_ints(4 * N, 0, 255, seed=62)
F = rand_floats(4 * N, -8, 8, seed=63, digits=6)
U = rand_ints(2 * N, 0, 65535, seed=64)

def unorm8(c):
    return round_frac(Fraction(c, 255), 24, -126)

def to_unorm(v, m):
    # convert_<t>_sat_rte(v * m) in float (OpenCL C 8.3.1.1)
    t = f32(f32(v) * m)
    return max(0, min(m, round(t)))   # Python round: ties to even

of, ou, wa, w16, wf = [], [], [], [], []
for y in range(H):
    for x in range(W):
        i = y * W + x
        va = [unorm8(c) for c in A[4 * i:4 * i + 4]]
        b, g, r, a = B[4 * i:4 * i + 4]        # BGRA: memory order b, g, r, a
        of += va + [unorm8(c) for c in (r, g, b, a)] + F[4 * i:4 * i + 4]
        ou += [U[2 * i], U[2 * i + 1], 0, 1]    # RG: missing b = 0, a = 1
        wa += [to_unorm(v, 255) for v in reversed(va)]
        w16 += [to_unorm(f32(f32(x + y) / 7.0), 65535)]
        wf += [f32(f32(v * 2.0) + 0.25) for v in F[4 * i:4 * i + 4]]
CL_RG, CL_UNSIGNED_INT16 = 0x10B2, 0x10DB
global_size = (W, H); local_size = (2, 1)
args = [Image(W, H, "RGBA", "UNORM_INT8", "uchar", A),
        Image(W, H, "BGRA", "UNORM_INT8", "uchar", B),
        Image(W, H, "RGBA", "FLOAT", "float", F),
        Image(W, H, "RG", "UNSIGNED_INT16", "ushort", U),
        Image(W, H, "RGBA", "UNORM_INT8", "uchar", expect=wa),
        Image(W, H, "R", "UNORM_INT16", "ushort", expect=w16),
        Image(W, H, "RGBA", "FLOAT", "float", expect=wf),
        Out("float", 12 * N, expect=of), Out("uint", 4 * N, expect=ou),
        Out("int", 4, expect=[W, H, CL_RG, CL_UNSIGNED_INT16])]
