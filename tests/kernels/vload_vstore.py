n = 16
IN = rand_ints(8 * n + 16, -1000, 1000, seed=56)
out = [0] * (4 * n + 2 * n)
so = [0] * (3 * n + 2)
for i in range(n):
    a = IN[4*i+1:4*i+5]
    b = IN[2*(3*i+1):2*(3*i+1)+2]
    c = IN[i:i+8]
    out[4*i:4*i+4] = [a[0] + b[0], a[1] + b[1], a[2] + b[1], a[3] + b[0]]
    out[4*n+2*i:4*n+2*i+2] = [c[0] + c[6], c[1] + c[7]]
    so[1+3*i:1+3*i+3] = [c[1], c[3], c[5]]
global_size = (n,); local_size = (4,)
args = [In("int", IN), Out("int", 6 * n, expect=out), Out("short", 3 * n + 2, expect=so)]
