n = 128
A = rand_ints(n, -5, 5, seed=31)
B = rand_ints(n, -40, 40, seed=32)
out = []
for i, (x, y) in enumerate(zip(A, B)):
    if x > 0:
        if y > 0:
            r = x + y
            r = r * 2 if x > y else r - 1
        else:
            r = x - y if x & 1 else y - x
    elif x == 0:
        r = 11 if ((y != 0 and cdiv(100, y) > 3) or y == -1) else 22
    else:
        if y < -10: r = 1 if y < -30 else 2
        elif y < 10: r = 3
        else: r = 4 + (40 if i & 1 else 0)
    out.append(r)
global_size = (n,); local_size = (32,)
args = [In("int", A), In("int", B), Out("int", n, expect=out)]
