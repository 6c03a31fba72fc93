n = 64
IN = rand_ints(n, 0, 40, seed=30)
out = []
for i, nn in enumerate(IN):
    s = t = k = 0
    for j in range(nn):
        if j % 3 == 1: continue
        if s > 200: break
        s += j
    for a in range(i & 7):
        for b in range(a, nn % 5):
            t += a * b + 1
    m = nn
    while True:
        k += 1; m >>= 1
        if not m > 0: break
    while True:
        if t & 1: t = 3 * t + 1
        else: t >>= 1
        if t <= 1: break
        k += 1
        if k > 50: break
    out += [s, t, k]
global_size = (n,); local_size = (16,)
args = [In("int", IN), Out("int", 3 * n, expect=out)]
