std = "CL2.0"
# References from the definitions, per subgroup of 16 consecutive lanes in
# lane order: the fold starts from the first participant's value; an
# exclusive scan gives lane 0 the identity (min: the type's max or +inf,
# max: the type's min or -inf, xor: 0); fmin/fmax ignore a NaN operand and
# order -0 below +0; integers wrap; float products round each step.
nan, inf = float("nan"), float("inf")
def neg(v): return math.copysign(1.0, v) < 0
def fmin(a, b):
    if math.isnan(a): return b
    if math.isnan(b): return a
    if a < b: return a
    if b < a: return b
    return a if neg(a) else b
def fmax(a, b):
    if math.isnan(a): return b
    if math.isnan(b): return a
    if a > b: return a
    if b > a: return b
    return b if neg(a) else a
def fold(vals, op):
    acc = vals[0]
    for v in vals[1:]: acc = op(acc, v)
    return acc
def scan(vals, op, incl, ident):
    out, acc = [], None
    for v in vals:
        if not incl: out.append(ident if acc is None else acc)
        acc = v if acc is None else op(acc, v)
        if incl: out.append(acc)
    return out
n = 64
A = [0, -1, 5, -7, 2**31 - 1, -2**31, 3, 3, 100, -100, 17, 8, -3, 4, 6, 1] + rand_ints(n - 16, -1000, 1000, seed=111)
F = [f32(v) for v in [0.0, -0.0, 1.5, nan, -2.0, 0.0, 3.0, -0.0, 1e30, -1e30, 0.5, 2.0, nan, 1.0, -1.0, 0.25]
     + rand_floats(n - 16, -4, 4, seed=112)]
L = [-2**63, 2**63 - 1, 0, -1] + rand_ints(n - 4, -2**62, 2**62, seed=113)
U32 = lambda v: v & 0xffffffff
I32 = lambda v: wrap("int", v)
r, rf, rl = [0] * (12 * n), [0.0] * (6 * n), [0] * (3 * n)
for g in range(0, n, 16):
    xs, ys, zs = A[g:g+16], F[g:g+16], L[g:g+16]
    mn, mx = min(xs), max(xs)
    umn = min(U32(v) for v in xs)
    imax = scan(xs, max, True, None); emin = scan(xs, min, False, 2**31 - 1)
    mul = I32(fold(xs, lambda a, b: I32(a * b)))
    band = fold(xs, lambda a, b: a & b)
    ior = scan(xs, lambda a, b: a | b, True, None); exor = scan(xs, lambda a, b: a ^ b, False, 0)
    odd = [xs[k] for k in range(1, 16, 2)]; even = [xs[k] for k in range(0, 16, 2)]
    emn = scan(even, min, True, None)
    fmn = fold(ys, fmin); fmx = fold(ys, fmax); efmx = scan(ys, fmax, False, -inf)
    fml = fold(ys, lambda a, b: f32(a * b)); ifmn = scan(ys, fmin, True, None)
    for k in range(16):
        i = g + k
        c = xs[4 * (k // 4): 4 * (k // 4) + 4]; cf = ys[4 * (k // 4): 4 * (k // 4) + 4]
        r[12*i:12*i+12] = [mn, mx, I32(umn), imax[k], emin[k], mul, band, ior[k], exor[k], min(c),
                           I32(sum(c)), max(odd) if k & 1 else emn[k // 2]]
        rf[6*i:6*i+6] = [fmn, fmx, efmx[k], fml, fold(cf, fmax), ifmn[k]]
        rl[3*i:3*i+3] = [min(zs), wrap("long", max(v & 0xffffffffffffffff for v in zs)),
                         wrap("long", fold(zs[:k+1], lambda a, b: a ^ b))]
r12 = []
for g in range(0, 48, 12):           # subgroups of 12 lanes
    for k in range(12):
        c8 = A[g + 8 * (k // 8): g + min(8 * (k // 8) + 8, 12)]
        c4 = A[g + 4 * (k // 4): g + 4 * (k // 4) + 4]
        r12 += [I32(sum(c8)), max(c8), min(c4)]
CASES = [dict(kernel="sg_fold", global_size=(n,), local_size=(32,),
              args=[In("int", A), In("float", F), In("long", L), Out("int", 12 * n, expect=r),
                    Out("float", 6 * n, expect=rf), Out("long", 3 * n, expect=rl)]),
         dict(name="s12", kernel="sg_fold12", global_size=(48,), local_size=(48,), subgroup_sizes=[12],
              args=[In("int", A[:48]), Out("int", 3 * 48, expect=r12)])]
