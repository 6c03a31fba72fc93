P = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53]
W = [(0.5, 0.25, 2.0, -1.0), (8.0, 1.0, 0.125, 3.0)]
T = [(1, 1.5), (-4, 0.75), (9, -2.0)]
M = b"spirv"
n = 64
IDX = rand_ints(n, 0, 1000, seed=26)
oi, of = [], []
for k in IDX:
    oi += [P[k & 15], T[k % 3][0] + M[k % 5], P[(k * 7) & 15] * P[15 - (k & 15)]]
    w = W[k & 1]
    of += [w[0] + w[1] * w[2] - w[3], f32(T[k % 3][1] * k)]
global_size = (n,); local_size = (16,)
args = [In("int", IDX), Out("int", 3 * n, expect=oi), Out("float", 2 * n, expect=of)]
