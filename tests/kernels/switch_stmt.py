n = 64
X = rand_ints(n, -2, 9, seed=29)
Y = rand_ints(n, -50, 50, seed=35)
Y[:4] = [-5, 0, 17, 1000000]
Z = rand_ints(n, -1, 4, seed=36)
IN = X + Y + Z
out = []
for x, y, z in zip(X, Y, Z):
    c = x
    if c == 0: r = 11
    elif c == 4 or c < 0 or c > 6: r = 7
    elif c == 1: r = 10
    elif c in (2, 3): r = x * 2
    elif c == 5: r = -x + 100
    elif c == 6: r = 100
    else: r = 7
    q = {0: 5, 1: 6, 2: 7}.get(z, 8)
    sp = {-5: 1, 0: 2, 17: 3, 1000000: 4}.get(y, -1)
    out += [r, q, sp]
global_size = (n,); local_size = (16,)
args = [In("int", IN), Out("int", 3 * n, expect=out)]
