# References from the definition: vloadn(k, p) reads p[k*n .. k*n + n - 1],
# vstoren(v, k, p) writes them; OpenCL C arithmetic on the lanes (uchar and
# short wrap, float and double in IEEE single / double).
n = 64
F = [f32(v) for v in rand_floats(8 * n, -100, 100, seed=71)]
IN = rand_ints(3 * n, -10**6, 10**6, seed=72)
B = rand_ints(16 * n, 0, 255, seed=73)
D = rand_floats(2 * n, -1e6, 1e6, seed=74)
LL = rand_ints(6 * n, -2**62, 2**62, seed=75)
S = rand_ints(8 * n + 8, -30000, 30000, seed=76)
fo, io, bo, do, lo = [], [], [], [], []
so = [0] * (8 * n + 8)
for i in range(n):
    x = F[4*i:4*i+4]; y = F[2*(3*i+1):2*(3*i+1)+2]; z = F[5:13]
    add = [y[0], y[1], z[0], z[3]]
    fo += [f32(f32(x[k] * 2.0) + add[k]) for k in range(4)]
    t = IN[3*i:3*i+3]
    io += [wrap("int", t[2] + i), wrap("int", t[0] + i), wrap("int", t[1] + i)]
    c = B[16*i:16*i+16]
    bo += [(c[15 - k] + 1) & 0xff for k in range(16)]
    e = D[2*i:2*i+2]
    do += [e[1] * 0.5, e[0] * 0.5]
    m = LL[6*i:6*i+3]
    lo += [m[0] - 1, m[1] - 2, m[2] - 3]
for i in range(n):                              # the even lanes' pairs, then the odd lanes' eights
    if not i & 1:
        h = S[8*i:8*i+8]
        so[8*i:8*i+2] = h[0:2]
for i in range(n):
    if i & 1:
        h = S[8*i:8*i+8]
        so[8*i:8*i+8] = [wrap("short", v + 7) for v in h]
N_OOB = 64
IO = rand_ints(4 * N_OOB, -1000, 1000, seed=77)
CASES = [
    dict(kernel="vload_inline", global_size=(n,), local_size=(32,), subgroup_sizes=[None, 8],
         args=[In("float", F), Out("float", 4 * n, expect=fo), In("int", IN), Out("int", 3 * n, expect=io),
               In("uchar", B), Out("uchar", 16 * n, expect=bo), In("double", D), Out("double", 2 * n, expect=do),
               In("long", LL), Out("long", 3 * n, expect=lo), In("short", S), Out("short", 8 * n + 8, expect=so)]),
    dict(name="clean", kernel="vload_oob", global_size=(N_OOB,), local_size=(16,),
         args=[In("int", IO), Out("int", 4 * N_OOB, expect=IO), Scalar("int", 0)]),
    # shift 2: lanes 62 and 63 read elements 256..259 of 256: out-of-bounds,
    # their results 0; the others read IO[4*(i+2) ..]
    dict(name="oob", kernel="vload_oob", global_size=(N_OOB,), local_size=(16,), exit=1, diag=["out-of-bounds"],
         args=[In("int", IO), Out("int", 4 * N_OOB, expect=IO[8:] + [0] * 8), Scalar("uint", 2)]),
    # 32-bit addresses: i + shift wraps in 32 bits, so lanes 16 and up read
    # element i - 16; lanes 0 to 15 have offsets near 2^32, and p + offset * 16
    # (a 64-bit sum in the handler) is far past the 32-bit address space:
    # they fault and read 0 (the JIT must not index its region table there)
    dict(name="m32_far", kernel="vload_oob", global_size=(N_OOB,), local_size=(16,), exit=1, diag=["out-of-bounds"],
         extra_flags=["-m32"], args=[In("int", IO), Out("int", 4 * N_OOB, expect=[0] * 64 + IO[:4 * N_OOB - 64]),
                                     Scalar("uint", 0xfffffff0)]),
]
