# Expected values written from cl_khr_subgroup_non_uniform_arithmetic /
# _non_uniform_vote / _ballot and docs/semantics.md: inside if (lid % 3) the
# lanes of a subgroup that take the same arm work together; in the loops the
# lanes still iterating do.
import os
exec(open(os.path.join(os.path.dirname(__file__), "sg_model.py")).read())
NA, NB, NV, NL = 12, 9, 20, 24
AT = ["char", "short", "int", "uint", "long", "ulong", "float", "double", "half"]
OPS4 = ["add", "mul", "min", "max"]
BOPS = ["and", "or", "xor"]
LOPS = ["land", "lor", "lxor"]


def words(m):
    return [wrapt("int", (m >> (32 * i)) & U32) for i in range(4)]


def make_case(S, G, Lr, name):
    fin = [f32(v) for v in rand_floats(G, 0.5, 2.0, seed=21)]
    fin[5] = fin[6] = fin[7] = fin[8] = fin[9] = fin[10] = 1.5   # some equal
    din = [v * 1.0000001 for v in rand_floats(G, 0.5, 2.0, seed=22)]
    hin = [f16_bits(v) for v in rand_floats(G, 0.5, 2.0, seed=23)]
    out = {t: [None] * (G * NA) for t in AT}
    obit = [None] * (G * NB); ologic = [None] * (G * NB)
    ovote = [None] * (G * NV); oloop = [None] * (G * NL)
    g0 = 0
    for grp, L in enumerate(wg_sizes(G, Lr)):
        for lids in subgroups(L, S):
            lane_of = {lid: lid % S for lid in lids}
            raw = {lid: (lid * 2654435761 + grp * 40503) & U32 for lid in lids}
            for arm in (True, False):
                act = [lid for lid in lids if bool(lid % 3) == arm]
                if not act:
                    continue
                gids = [g0 + lid for lid in act]
                r = [raw[lid] for lid in act]
                small = [(x >> 27) - 15 for x in r]
                r64 = [(x << 32) ^ (x * 3) for x in r]
                vals = {"char": [wrapt("char", x) for x in small],
                        "short": [wrapt("short", x) for x in r],
                        "int": small, "uint": r,
                        "long": [wrapt("long", x) for x in r64],
                        "ulong": [wrapt("ulong", x) for x in r64],
                        "float": [fin[g] for g in gids], "double": [din[g] for g in gids],
                        "half": [hin[g] for g in gids]}
                n = len(act)
                for t in AT:
                    v = vals[t]
                    res = [[reduce_(t, op, v)] * n for op in OPS4]
                    res += [scan_incl(t, op, v) for op in OPS4]
                    res += [scan_excl(t, op, v) for op in OPS4]
                    for i, g in enumerate(gids):
                        for k in range(NA):
                            out[t][g * NA + k] = res[k][i]
                v = [wrapt("int", x) for x in r]
                res = [[reduce_("int", op, v)] * n for op in BOPS]
                res += [scan_incl("int", op, v) for op in BOPS]
                res += [scan_excl("int", op, v) for op in BOPS]
                p = [int(bool(x & 0x30)) for x in r]
                lres = [[reduce_("int", op, p)] * n for op in LOPS]
                lres += [scan_incl("int", op, p) for op in LOPS]
                lres += [scan_excl("int", op, p) for op in LOPS]
                ball = ballot_bits({lane_of[lid]: raw[lid] & 1 for lid in act})
                fv = [fin[g] for g in gids]
                for i, (g, lid) in enumerate(zip(gids, act)):
                    obit[g * NB:g * NB + NB] = [res[k][i] for k in range(NB)]
                    ologic[g * NB:g * NB + NB] = [lres[k][i] for k in range(NB)]
                    lane = lane_of[lid]
                    inv = (0x5a5a5a5a | (0x0f0f0f0f << 32) | (1 << 64) | (2 << 96)) >> lane & 1
                    o = [int(i == 0), int(all(x & 3 for x in r)), int(any((x & 15) == 5 for x in r)),
                         int(len(set(x & 0x100 for x in r)) == 1), int(all(x == fv[0] for x in fv))]
                    o += words(ball)
                    o += [inv, (ball >> ((lane * 5) % S)) & 1, popcount(ball),
                          popcount(ball & ((2 << lane) - 1)), popcount(ball & ((1 << lane) - 1)),
                          (ball & -ball).bit_length() - 1 if ball else -7,
                          ball.bit_length() - 1 if ball else -7,
                          wrapt("int", r[0]), wrapt("int", r[0]), 1, 1]
                    ovote[g * NV:g * NV + NV] = o
            # uniform flow: masks, loops
            full = (1 << S) - 1
            for lid in lids:
                g, lane = g0 + lid, lane_of[lid]
                masks = [1 << lane, full & ~((1 << lane) - 1), full & ~((2 << lane) - 1),
                         (2 << lane) - 1, (1 << lane) - 1]
                acc = cnt = 0
                for i in range(lane % 5 + 1):
                    part = [lane_of[x] for x in lids if lane_of[x] % 5 >= i]
                    acc += sum(i * 100 + pl for pl in part)
                    cnt += sum(1 for pl in part if pl <= lane)
                k, last = 0, -1
                while True:
                    if (lane + 3 * k) % 7 == 0 or k > 6:
                        break
                    part = []
                    for x in lids:
                        pl = lane_of[x]
                        # still in the loop at iteration k: no earlier or current break
                        if all(not ((pl + 3 * j) % 7 == 0 or j > 6) for j in range(k + 1)):
                            part.append(pl)
                    last = max(pl + k for pl in part)
                    k += 1
                oloop[g * NL:g * NL + NL] = [acc, cnt, last, int(lane == 0)] + sum((words(m) for m in masks), [])
        g0 += L
    args = [In("float", fin), In("double", din), In("ushort", hin)]
    for t in AT:
        args.append(Out("ushort" if t == "half" else t, G * NA, expect=out[t]))
    args += [Out("int", G * NB, expect=obit), Out("int", G * NB, expect=ologic),
             Out("int", G * NV, expect=ovote), Out("int", G * NL, expect=oloop)]
    return dict(name=name, subgroup_sizes=[S], global_size=(G,), local_size=(Lr,), args=args)


CASES = [make_case(S, 80, 40, "s%d" % S) for S in (1, 4, 8, 12, 16, 32, 64)]
std = "CL2.0"
