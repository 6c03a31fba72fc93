std = "CL2.0"
n = 32
IN = rand_ints(n, 0, 100, seed=73)
global_size = (n,); local_size = (8,)
args = [In("int", IN), Out("int", n, expect=[[1, 2, 3, 4][v & 3] * 10 + 5 for v in IN])]
