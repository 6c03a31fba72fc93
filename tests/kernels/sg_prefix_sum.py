# Expected: the inclusive prefix sum of each work-group's slice.
def scan(xs):
    out, acc = [], 0
    for x in xs:
        acc += x
        out.append(acc)
    return out
CASES = []
for G, L in ((512, 128), (120, 40), (96, 96)):
    IN = rand_ints(G, -10**5, 10**5, seed=G + L)
    exp = []
    for b in range(0, G, L):
        exp += scan(IN[b:b + L])
    CASES.append(dict(name="L%d" % L, global_size=(G,), local_size=(L,),
                      args=[In("int", IN), Out("int", G, expect=exp), Local(4 * L)]))
std = "CL2.0"
subgroup_sizes = [None, 4, 8, 12, 32]
