n, L = 256, 64
IN = rand_ints(n, 0, 2**20, seed=63)
hist, stats = [], []
for g in range(n // L):
    part = IN[g*L:(g+1)*L]
    hist += [sum(1 for v in part if v & 15 == b) for b in range(16)]
    stats += [sum(v >> 4 for v in part), min(v >> 4 for v in part), 42]
global_size = (n,); local_size = (L,)
args = [In("uint", IN), Out("uint", 16 * n // L, expect=hist), Out("int", 3 * n // L, expect=stats)]
