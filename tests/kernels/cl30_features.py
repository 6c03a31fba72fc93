std = "CL3.0"
n = 32
IN = rand_ints(n, -10**6, 10**6, seed=72)
out = []
for v in IN:
    out += [2 * v + 1000, 300]
global_size = (n,); local_size = (8,)
args = [In("int", IN), Out("int", 2 * n, expect=out)]
