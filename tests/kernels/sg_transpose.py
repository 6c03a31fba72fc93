# Expected: out[c][r] = in[r][c] for an n x n matrix.
n = 32
def transpose(m):
    return [m[r * n + c] for c in range(n) for r in range(n)]
FM = [f32(v) for v in rand_floats(n * n, -100, 100, seed=5)]
IM = rand_ints(n * n, -10**9, 10**9, seed=6)
CASES = []
CASES.append(dict(name="intel8", kernel="sg_transpose8", global_size=(n, n // 8), local_size=(8, 1),
                  args=[In("float", FM), Out("float", n * n, expect=transpose(FM)), Scalar("int", n)]))
for T in (4, 8, 16, 32):
    CASES.append(dict(name="khr%d" % T, kernel="sg_transpose_khr", subgroup_sizes=[T],
                      global_size=(n, n // T), local_size=(T, 1),
                      args=[In("int", IM), Out("int", n * n, expect=transpose(IM)), Scalar("int", n)]))
std = "CL2.0"
