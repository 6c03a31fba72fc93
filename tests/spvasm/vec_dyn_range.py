# v = (i, 7i, 7, 100) (uint), index x: out = v[x] or 0 when x >= 4, then v
# with component x set to 7 (unchanged when x >= 4).
n = 32
X = [k % 6 for k in range(16)] + [4, 5, 0xffffffff, 1000, 2**31] + rand_ints(n - 21, 0, 5, seed=85)
out = []
for i, x in enumerate(X):
    v = [i, 7 * i, 7, 100]
    e = v[x] if x < 4 else 0
    w = list(v)
    if x < 4: w[x] = 7
    out += [e] + w
CASES = [dict(global_size=(n,), local_size=(16,), args=[In("uint", X), Out("uint", 5 * n, expect=out)])]
