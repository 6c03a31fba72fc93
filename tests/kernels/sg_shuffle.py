# Expected values from the cl_khr_subgroup_shuffle(_relative) / clustered
# reduce / rotate texts with the lid // S, lid % S mapping; out-of-range
# shuffle_up/down lanes are left unchecked (None).
import os
exec(open(os.path.join(os.path.dirname(__file__), "sg_model.py")).read())
NS = 10
TT = ["char", "short", "int", "long", "ulong", "float", "double", "half"]


def make_case(S, G, Lr, name):
    fin = [f32(v) for v in rand_floats(G, -100, 100, seed=41)]
    din = [v * 1.0000001 for v in rand_floats(G, -1e6, 1e6, seed=42)]
    hin = [f16_bits(v) for v in rand_floats(G, -8, 8, seed=43)]
    out = {t: [None] * (G * NS) for t in TT}
    oci = [0] * (G * 6)
    g0 = 0
    for grp, L in enumerate(wg_sizes(G, Lr)):
        for lids in subgroups(L, S):
            n = len(lids)
            raw = [(lid * 2654435761 + grp * 40503) & U32 for lid in lids]
            r64 = [(x << 32) ^ (x * 3) for x in raw]
            gids = [g0 + lid for lid in lids]
            vals = {"char": [wrapt("char", x) for x in raw], "short": [wrapt("short", x) for x in raw],
                    "int": [wrapt("int", x) for x in raw], "long": [wrapt("long", x) for x in r64],
                    "ulong": [wrapt("ulong", x) for x in r64], "float": [fin[g] for g in gids],
                    "double": [din[g] for g in gids], "half": [hin[g] for g in gids]}

            def cluster(l, C):
                return [j for j in range(l - l % C, l - l % C + C) if j < n]
            for t in TT:
                v = vals[t]
                for l in range(n):
                    o = [v[(l * 7 + 3) % n],
                         v[l ^ 1] if (l ^ 1) < n else v[l],
                         v[l ^ 5] if (l ^ 5) < n else v[l],
                         v[l - 1] if l >= 1 else None,
                         v[l + 2] if l + 2 < n else None,
                         reduce_(t, "add", [v[j] for j in cluster(l, 2)]) if S >= 2 else v[l],
                         reduce_(t, "max", [v[j] for j in cluster(l, 4)]) if S >= 4 else v[l],
                         reduce_(t, "min", [v[j] for j in cluster(l, 8)]) if S >= 8 else v[l],
                         v[(l + 3) % S] if n == S else v[l],
                         v[(l % 4 + 1) % 4 + l - l % 4] if n % 4 == 0 else v[l]]
                    out[t][gids[l] * NS:gids[l] * NS + NS] = o
            if S >= 4:
                iv = vals["int"]
                for l in range(n):
                    c = [iv[j] for j in cluster(l, 4)]
                    p = [int(bool(x & 0x10)) for x in c]
                    oci[gids[l] * 6:gids[l] * 6 + 6] = [reduce_("int", "and", c), reduce_("int", "or", c),
                                                        reduce_("int", "xor", c), reduce_("int", "mul", c),
                                                        reduce_("int", "land", p), reduce_("int", "lxor", p)]
        g0 += L
    args = [In("float", fin), In("double", din), In("ushort", hin)]
    args += [Out("ushort" if t == "half" else t, G * NS, expect=out[t]) for t in TT]
    args.append(Out("int", G * 6, expect=oci))
    return dict(name=name, subgroup_sizes=[S], global_size=(G,), local_size=(Lr,), args=args)


CASES = [make_case(S, 80, 40, "s%d" % S) for S in (1, 4, 8, 12, 16, 32, 64)]
CASES.append(make_case(16, 64, 64, "full16"))
std = "CL2.0"
