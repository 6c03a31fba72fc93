n = 32
IN = rand_ints(n, -500, 500, seed=27)
out, ao = [], []
for i, x0 in enumerate(IN):
    s = 0
    for k in range(1 + (i & 3)):
        x = x0 + k
        a, b, c, d = x * 3, wrap("short", x - 7), wrap("char", x), x << 33
        v = [(x + j) * 0.5 for j in range(3)]
        s += a + b + c + (d >> 30) + math.trunc(v[k % 3] * 4.0)
    out.append(s)
    ao += [x0 * (k + 1) for k in range(5)][::-1]
global_size = (n,); local_size = (8,)
args = [In("int", IN), Out("long", n, expect=out), Out("int", 5 * n, expect=ao)]
