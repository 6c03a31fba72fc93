# ULP limits from the OpenCL C spec (full profile): sqrt 3, exp 3, log 3,
# sin/cos 4, pow 16, exp2 3, atan2 6; double: sqrt 0, exp 3, sin 4.
n = 64
A = rand_floats(n, -20, 20, seed=40)
B = rand_floats(n, -2, 2, seed=41)
A[0] = 0.0
cols = [[] for _ in range(8)]
dd = [[] for _ in range(3)]
for x, y in zip(A, B):
    cols[0].append(f32(math.sqrt(abs(x))))
    cols[1].append(f32(math.exp(f32(x * 0.125))))
    cols[2].append(f32(math.log(f32(abs(x) + 1.0))))
    cols[3].append(f32(math.sin(x)))
    cols[4].append(f32(math.cos(x)))
    cols[5].append(f32(abs(x) ** y) if x != 0 else (0.0 if y > 0 else math.inf))
    cols[6].append(f32(2.0 ** f32(y * 4.0)))
    cols[7].append(f32(math.atan2(x, y)))
    dd[0].append(math.sqrt(abs(x)))
    dd[1].append(math.exp(x * 0.125))
    dd[2].append(math.sin(x))
ulps = [3, 3, 3, 4, 4, 16, 3, 6]
# One Out per function would need separate buffers; instead check with the
# largest limit per element through a custom check.
def interleave(cs):
    out = []
    for k in range(len(cs[0])):
        out += [c[k] for c in cs]
    return out
exp_r = interleave(cols)
exp_d = interleave(dd)
def per_col_check(expected, ulps, typ):
    def chk(got):
        bad = []
        w = len(ulps)
        for j, (e, g) in enumerate(zip(expected, got)):
            if isinstance(g, str):
                g = float(g)
            g = float(g)
            if math.isinf(e) or math.isinf(g) or math.isnan(g):
                if not (e == g):
                    bad.append(j)
                continue
            eb = struct.unpack("<i" if typ == "f" else "<q", struct.pack("<" + typ, e))[0]
            gb = struct.unpack("<i" if typ == "f" else "<q", struct.pack("<" + typ, g))[0]
            if (eb < 0) != (gb < 0):
                if abs(eb) + abs(gb) > ulps[j % w] and not (e == 0 and g == 0):
                    bad.append(j)
            elif abs(eb - gb) > ulps[j % w]:
                bad.append(j)
        if bad:
            return "%d values outside the ULP limits, first [%d]: got %r expected %r" % (
                len(bad), bad[0], got[bad[0]], expected[bad[0]])
        return None
    return chk
global_size = (n,); local_size = (16,)
args = [In("float", A), In("float", B),
        Out("float", 8 * n, check=per_col_check(exp_r, ulps, "f")),
        Out("double", 3 * n, check=per_col_check(exp_d, [0, 3, 4], "d"))]
