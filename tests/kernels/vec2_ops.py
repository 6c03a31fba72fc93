n = 32
A = rand_ints(2 * n, -1000, 1000, seed=16)
B = rand_floats(2 * n, -100, 100, seed=17, digits=6)
ri, rf = [], []
for i in range(n):
    x0, x1 = A[2*i], A[2*i+1]
    y0, y1 = B[2*i], B[2*i+1]
    ri += [x0 * 3 + x1, x1 * -2 + x0,
           int(x0 > x1) - (-1 if x0 > 0 else 0), x1 - (-1 if x1 > 0 else 0)]
    rf += [f32(y0 + y1), f32(y1 + y0), y1 * 2, 3.0]
global_size = (n,); local_size = (8,)
args = [In("int", A), In("float", B), Out("int", 4 * n, expect=ri), Out("float", 4 * n, expect=rf)]
