std = "CL2.0"
n = 16
G = rand_ints(n, -100, 100, seed=25)
exp = [G[i] + 5 + (100 + i % 4 + i) + (i * 10 + 1) for i in range(n)]
global_size = (n,); local_size = (4,)
args = [InOut("int", G, expect=exp), Out("int", 3 * n, expect=[1, 2, 3] * n)]
