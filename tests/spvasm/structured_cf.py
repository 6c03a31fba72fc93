# Structured selection/loop merges; subgroup operations right after them see
# every lane of the subgroup again; lanes that returned are gone.
S, n = 8, 32
X = rand_ints(n, 0, 3000, seed=5)
M = 0xFFFFFFFF
out = [0] * (6 * n)
for base in range(0, n, S):
    xs = X[base:base + S]
    ys = [(x * 3) & M if x & 1 else x + 1000 for x in xs]
    accs = []
    for l, x in enumerate(xs):
        acc = 0
        for j in range((l & 3) + 1):
            acc = (acc + x * (j + 1)) & M
            if acc > 5000:
                break
        accs.append(acc)
    for l in range(S):
        i = base + l
        out[6 * i:6 * i + 6] = [ys[l] if l == 7 else 7, sum(ys) & M, sum(x & 1 for x in xs),
                                accs[l], sum(accs) & M, sum(ys[:l + 1]) & M]
global_size = (n,); local_size = (16,)
subgroup_sizes = [8]
args = [In("uint", X), Out("uint", 6 * n, expect=out)]
