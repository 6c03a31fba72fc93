# Work-items in linear local order form the subgroups (docs/semantics.md):
# local linear id li = lx + ly * LW, subgroup li // S, lane li % S.  in[i] =
# 1000 + 7 * i.  Work-group sizes are multiples of S (no partial subgroup).
def case(GW, GH, LW, LH, S):
    n = GW * GH
    IN = [1000 + 7 * i for i in range(n)]
    o1, o2, o3 = [0] * (4 * n), [0] * n, [0] * n
    wgs = LW * LH
    for gy in range(GH // LH):
        for gx in range(GW // LW):
            grp = gy * (GW // LW) + gx
            for li in range(wgs):
                lx, ly = li % LW, li // LW
                x, y = gx * LW + lx, gy * LH + ly
                v = IN[y * GW + x]
                gl = grp * wgs + li
                l, sg = li % S, li // S
                for k in range(4):
                    o1[k * n + gl - l + (l + k) % S] = v + k
                o2[grp * wgs + sg * S + (l * 3 + 1) % S] = v
                o3[x * GH + y] = v
    return dict(global_size=(GW, GH), local_size=(LW, LH), subgroup_sizes=[S],
                args=[In("int", IN), Out("int", 4 * n, expect=o1), Out("int", n, expect=o2),
                      Out("int", n, expect=o3)])

CASES = [case(64, 4, 32, 2, 16), case(32, 8, 16, 4, 16), case(32, 8, 8, 4, 16), case(64, 4, 32, 2, 8),
         case(64, 8, 64, 1, 32)]
std = "CL2.0"
