n, L = 512, 64
IN = rand_ints(n, -10**5, 10**5, seed=66)
groups = [IN[g*L:(g+1)*L] for g in range(n // L)]
global_size = (n,); local_size = (L,)
args = [In("int", IN), Out("int", n // L, expect=[sum(p) for p in groups]),
        Out("int", n // L, expect=[max(p) for p in groups])]
