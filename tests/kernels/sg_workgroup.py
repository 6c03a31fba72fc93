# Expected values from the OpenCL C work_group_* functions: scans in linear
# local id order (docs/semantics.md); float inputs are multiples of 1/8 below
# 2^8 so every float/double sum is exact; broadcast local id 3 / last.
import os
exec(open(os.path.join(os.path.dirname(__file__), "sg_model.py")).read())
NW = 11


def make_case(G, Lr, name, sizes):
    fin = [f32(v) for v in rand_floats(G, -200, 200, seed=51, digits=3)]
    out = {t: [None] * (G * NW) for t in ("int", "uint", "long", "float", "double")}
    ov = [None] * (G * 3)
    g0 = 0
    for grp, L in enumerate(wg_sizes(G, Lr)):
        raw = [(lid * 2654435761 + grp * 40503) & U32 for lid in range(L)]
        vals = {"int": [wrapt("int", x) for x in raw], "uint": raw,
                "long": [x * 12345 for x in raw],
                "float": [fin[g0 + i] for i in range(L)],
                "double": [fin[g0 + i] * 0.1 for i in range(L)]}
        for t, v in vals.items():
            res = [[reduce_(t, op, v)] * L for op in ("add", "min", "max")]
            res += [scan_incl(t, op, v) for op in ("add", "min", "max")]
            res += [scan_excl(t, op, v) for op in ("add", "min", "max")]
            res += [[v[L - 1]] * L, [v[3]] * L]
            for i in range(L):
                out[t][(g0 + i) * NW:(g0 + i + 1) * NW] = [res[k][i] for k in range(NW)]
        for i in range(L):
            ov[(g0 + i) * 3:(g0 + i) * 3 + 3] = [int(all(x & 7 for x in raw)),
                                                 int(any((x & 63) == 9 for x in raw)), 1]
        g0 += L
    args = [In("float", fin)] + [Out(t, G * NW, expect=out[t]) for t in ("int", "uint", "long", "float", "double")]
    args.append(Out("int", G * 3, expect=ov))
    return dict(name=name, kernel="sg_workgroup", global_size=(G,), local_size=(Lr,),
                subgroup_sizes=sizes, args=args)


CASES = [make_case(160, 40, "l40", [None, 1, 12, 16, 64]),
         make_case(90, 40, "nonuniform", [16, 12]),
         make_case(128, 128, "l128", [8, 32])]
# 2D: local (8, 5), global (16, 5): broadcast of local id (3, 2) (linear 19)
exp2 = [None] * (16 * 5 * 3)
for gy in range(5):
    for gx in range(16):
        grp, x, y = gx // 8, gx % 8, gy
        vals = {(xx, yy): xx * 100 + yy * 7 + grp * 1000 for xx in range(8) for yy in range(5)}
        lin = x + 8 * y
        i = gy * 16 + gx
        exp2[i * 3:i * 3 + 3] = [vals[(3, 2)], max(vals.values()), lin + 1]
CASES.append(dict(name="2d", kernel="sg_workgroup2d", global_size=(16, 5), local_size=(8, 5),
                  subgroup_sizes=[None, 4, 12], args=[Out("int", 16 * 5 * 3, expect=exp2)]))
std = "CL2.0"
