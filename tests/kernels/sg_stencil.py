# Expected: the stencils computed directly on the array (x[i] = in[32 + i]).
G = 256
IN = rand_ints(G + 64, -3000, 3000, seed=3)
x = lambda i: IN[32 + i]
o3 = [x(i - 1) - 2 * x(i) + x(i + 1) for i in range(G)]
o5 = [x(i - 2) + 2 * x(i - 1) + 4 * x(i) + 2 * x(i + 1) + x(i + 2) - x(i + 3) for i in range(G)]
os_ = [wrap("short", wrap("short", x(i - 1)) + wrap("short", x(i + 1))) for i in range(G)]
std = "CL2.0"
global_size = (G,); local_size = (64,)
subgroup_sizes = [None, 4, 8, 16, 32]
args = [In("int", IN), Out("int", G, expect=o3), Out("int", G, expect=o5), Out("short", G, expect=os_)]
