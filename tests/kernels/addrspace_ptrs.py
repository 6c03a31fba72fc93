n = 32
IN = rand_ints(n + 1, -1000, 1000, seed=24)
C = [7 * k + 1 for k in range(8)]
out = []
for g in range(n):
    l = g % 8
    base = g - l
    out += [IN[g] + IN[g+1], sum(IN[base + k] * 2 for k in range(l + 1)),
            g + g + 1 + IN[g], sum([10, 20, 30, 40][:(g & 3) + 1]), C[l]]
global_size = (n,); local_size = (8,)
args = [In("int", IN), In("int", C), Out("int", 5 * n, expect=out)]
