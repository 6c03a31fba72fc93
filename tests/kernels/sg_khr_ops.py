# Expected values from cl_khr_subgroups + docs/semantics.md: subgroup of
# local id lid = lid // S, lane = lid % S, the last one partial; reductions /
# scans in increasing lane order, one rounding per step; exclusive scans start
# from the identity; broadcast reads the given lane.
import os
exec(open(os.path.join(os.path.dirname(__file__), "sg_model.py")).read())
NOPS = 11
OPN = ["add", "min", "max"]
TL = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half"]


def make_case(S, G, Lr, std, name):
    fin = [f32(v) for v in rand_floats(G, -100, 100, seed=11)]
    din = [v * 1.0000001 for v in rand_floats(G, -1e6, 1e6, seed=12)]
    hin = [f16_bits(v) for v in rand_floats(G, -4, 4, seed=13)]
    outs = {t: [None] * (G * NOPS) for t in TL}
    info = [None] * (G * 9)
    g0 = 0
    for grp, L in enumerate(wg_sizes(G, Lr)):
        for sgid, lids in enumerate(subgroups(L, S)):
            raws = [(lid * 2654435761 + grp * 40503) & U32 for lid in lids]
            vals = {}
            for t in INT_TYPES:
                if t in ("long", "ulong"):
                    vals[t] = [wrapt(t, ((r << 32) ^ (r * 3))) for r in raws]
                else:
                    vals[t] = [wrapt(t, r) for r in raws]
            gids = [g0 + lid for lid in lids]
            vals["float"] = [fin[g] for g in gids]
            vals["double"] = [din[g] for g in gids]
            vals["half"] = [hin[g] for g in gids]
            n = len(lids)
            for t in TL:
                v = vals[t]
                res = []
                for op in OPN:
                    res.append([reduce_(t, op, v)] * n)
                res += [scan_incl(t, op, v) for op in OPN]
                res += [scan_excl(t, op, v) for op in OPN]
                res.append([v[n - 1]] * n)
                res.append([v[0]] * n)
                for i, g in enumerate(gids):
                    for k in range(NOPS):
                        outs[t][g * NOPS + k] = res[k][i]
            enq = (Lr + S - 1) // S
            for i, (g, lid, r) in enumerate(zip(gids, lids, raws)):
                info[g * 9:g * 9 + 9] = [n, S, len(subgroups(L, S)), enq, sgid, i,
                                         int(all((x & 7) != 0 for x in raws)),
                                         int(any((x & 31) == 3 for x in raws)), 1]
        g0 += L
    args = [In("float", fin), In("double", din), In("ushort", hin)]
    for t in TL:
        tt = "ushort" if t == "half" else t
        args.append(Out(tt, G * NOPS, expect=outs[t]))
    args.append(Out("int", G * 9, expect=info))
    return dict(name=name, subgroup_sizes=[S], global_size=(G,), local_size=(Lr,), std=std, args=args)


CASES = [make_case(S, 80, 40, "CL2.0", "s%d" % S) for S in (1, 4, 8, 12, 16, 32, 64)]
# non-uniform work-groups (OpenCL 2.0): 40, 40, 10
CASES += [make_case(S, 90, 40, "CL2.0", "nu%d" % S) for S in (16, 12)]
