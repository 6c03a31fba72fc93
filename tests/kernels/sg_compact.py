# Expected: the kept elements of each work-group in order; first_kept[sg] is
# the local id of the lowest kept lane of subgroup sg (lid // S mapping).
import os
exec(open(os.path.join(os.path.dirname(__file__), "sg_model.py")).read())
G, L = 240, 80
IN = rand_ints(G, -500, 500, seed=77)
CASES = []
for S in (1, 4, 8, 12, 16, 32, 64):
    out = [-1] * G
    counts, first = [], [-1] * (128 * (G // L))
    tot = 0
    for w in range(G // L):
        kept = [x for x in IN[w * L:(w + 1) * L] if x % 3 == 0]
        out[w * L:w * L + len(kept)] = kept
        counts.append(len(kept)); tot += len(kept)
        for s, lids in enumerate(subgroups(L, S)):
            k = [lid for lid in lids if IN[w * L + lid] % 3 == 0]
            if k:
                first[w * 128 + s] = k[0]
    CASES.append(dict(name="s%d" % S, subgroup_sizes=[S],
                      args=[In("int", IN), Out("int", G, fill=-1, expect=out),
                            Out("int", G // L, expect=counts),
                            Out("int", 128 * (G // L), fill=-1, expect=first),
                            InOut("int", [0], expect=[tot]), Local(4 * 80)]))
std = "CL2.0"
global_size = (G,); local_size = (L,)
