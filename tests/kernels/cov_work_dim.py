# get_work_dim() follows the launch's dimension count (cli launches:
# --global X[,Y[,Z]]).
std = "CL2.0"
def case(gs, ls, cli=True):
    d = len(gs) if cli else 3     # run files always launch 3-D (as Oclgrind)
    G = list(gs) + [1] * (3 - len(gs))
    Lz = list(ls) + [1] * (3 - len(ls))
    n = G[0] * G[1] * G[2]
    row = [d] + G + Lz + [100 * (G[d - 1] // Lz[d - 1]) + Lz[d - 1]]
    return dict(name="%dd" % len(gs) + ("" if cli else ".sim"), cli=cli, global_size=gs, local_size=ls,
                args=[Out("uint", 8 * n, expect=row * n)])
CASES = [case((8,), (4,)), case((4, 6), (2, 3)), case((2, 4, 6), (2, 2, 3)),
         case((8,), (4,), cli=False)]
