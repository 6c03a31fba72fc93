n = 16
A = rand_floats(4 * n, -50, 50, seed=18, digits=4)
P = rand_floats(3 * n, -50, 50, seed=19, digits=4)
r, po = [], []
for i in range(n):
    v = A[4*i:4*i+3]
    p = P[3*i:3*i+3]
    r += [v[2] + p[0], v[0] + p[1], v[1] + p[2], None]   # 4th: padding (see below)
    po += [p[1] * 2 - v[0], p[2] * 2 - v[1], p[0] * 2 - v[2]]
# A 16-byte float3 store may or may not write the padding lane, so r's 4th
# components are not checked (None); the backends must still agree.
global_size = (n,); local_size = (4,)
args = [In("float", A), In("float", P), Out("float", 4 * n, expect=r), Out("float", 3 * n, expect=po)]
