n = 16
A = rand_ints(8 * n, -30000, 30000, seed=21)
B = rand_floats(8 * n, -16, 16, seed=22, digits=3)
rs, rf = [], []
for i in range(n):
    x = A[8*i:8*i+8]
    y = B[8*i:8*i+8]
    rs += [max(x[k], x[7-k]) - 1 for k in range(8)]
    rs += [x[k] >> (k + 1) for k in range(8)]
    rf += [y[k] * y[k+4] + y[2*k] for k in range(4)]   # exact: 3+3 fractional bits
global_size = (n,); local_size = (4,)
args = [In("short", A), In("float", B), Out("short", 16 * n, expect=rs), Out("float", 4 * n, expect=rf)]
