n = 16
A = rand_ints(4 * n, -10**6, 10**6, seed=20)
r = []
for i in range(n):
    x, y, z, w = A[4*i:4*i+4]
    r += [w, z, y, x,  x, x, y, y,  z, w, x, z,  y, w, w, x,  y, x, w, y]
global_size = (n,); local_size = (4,)
args = [In("int", A), Out("int", 20 * n, expect=r)]
