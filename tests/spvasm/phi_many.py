# OpPhi with 13 predecessors (12 switch cases at 0, 3, ..., 33 and a default).
N = 12
X = list(range(40)) + rand_ints(24, 0, 40, seed=3)
n = len(X)
out = []
for x in X:
    if x % 3 == 0 and x // 3 < N:
        k = 1000 + 37 * (x // 3)
        out += [x + k, k]
    else:
        out += [777, 777]
global_size = (n,); local_size = (16,)
args = [In("uint", X), Out("uint", 2 * n, expect=out)]
