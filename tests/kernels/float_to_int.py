# Expected values: round toward zero, then clamp to the destination's range;
# NaN -> 0 (docs/semantics.md: float -> int always saturates).
nan, inf = float("nan"), float("inf")
EDGE = [0.0, -0.0, 0.5, -0.5, 0.99999994, 1.0, -1.0, -0.99999994, 1.5, -1.5, 127.5, 128.0, -128.5, -129.0,
        255.9, 256.0, 32767.5, 32768.0, -32768.9, -32769.0, 65535.5, 65536.0,
        2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0,
        9223371487098961920.0, 9223372036854775808.0, -9223372036854775808.0, -9223373136366403584.0,
        18446742974197923840.0, 18446744073709551616.0, 1e30, -1e30, inf, -inf, nan, -nan,
        3.4e38, 1e-30, -1e-30, 12345.678, -98765.43, 2147483647.5, -2147483648.5, 4294967295.5,
        9223372036854774784.0, 18446744073709549568.0, -9223372036854777856.0, 1e300, -1e300]
n = 64
R = rand_floats(n - len(EDGE), -3e9, 3e9, seed=91)
D = EDGE + R
F = [f32(x) for x in D]
TYPES_OUT = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]
def conv(t, x):
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return sat(t, -(1 << 70) if x < 0 else 1 << 70)
    return sat(t, math.trunc(x))
exp = {t: [] for t in TYPES_OUT}
for x, y in zip(F, D):
    for t in TYPES_OUT:
        exp[t] += [conv(t, x), conv(t, y)]
v_i = [conv("int", x) for x in F]
v_u = [conv("uint", x) for x in F]
CASES = [
    dict(name="scalar", kernel="float_to_int", global_size=(n,), local_size=(16,),
         args=[In("float", F), In("double", D)] + [Out(t, 2 * n, expect=exp[t]) for t in TYPES_OUT]),
    dict(name="vec4", kernel="float_to_int4", global_size=(n // 4,), local_size=(16,),
         args=[In("float", F), Out("int", n, expect=v_i), Out("uint", n, expect=v_u)]),
]
