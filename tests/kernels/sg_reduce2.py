# Expected: plain sums (the float inputs are multiples of 1/8 below 2^10 so
# every partial sum is exact in float, whatever the grouping).
G, L = 640, 128
IN = rand_ints(G, -1000, 1000, seed=31)
FIN = [f32(v) for v in rand_floats(G, -1000, 1000, seed=32, digits=3)]
ngr = G // L
partial = [sum(IN[g * L:(g + 1) * L]) for g in range(ngr)]
fpartial = [sum(FIN[g * L:(g + 1) * L]) for g in range(ngr)]
std = "CL2.0"
global_size = (G,); local_size = (L,)
subgroup_sizes = [None, 1, 8, 12, 16, 32, 64]
args = [In("int", IN), In("float", FIN), Out("int", ngr, expect=partial),
        Out("float", ngr, expect=fpartial), InOut("int", [5], expect=[5 + sum(IN)]),
        Local(4 * L), Local(4 * L)]
