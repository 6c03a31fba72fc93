n = 16
A = rand_ints(16 * n, 0, 255, seed=23)
r, s = [], []
for i in range(n):
    v = A[16*i:16*i+16]
    r += [(v[15-k] + v[k]) & 255 for k in range(16)]
    r += [v[5], v[10], v[15], v[0]] + v[0:4] + [v[9], v[11], v[13], v[15]] + [v[1], v[2], v[3], v[14]]
    s.append(sum(x * x for x in v))
global_size = (n,); local_size = (4,)
args = [In("uchar", A), Out("uchar", 32 * n, expect=r), Out("int", n, expect=s)]
