n = 64
IN = rand_ints(n, -20, 200, seed=33)
IN[:3] = [0, 1, 2]
out = []
for x in IN:
    aux = 99
    if x < 0: c, aux = -1, -x
    elif x == 0: c = 0
    else:
        c, aux = 1, x
        k = 2
        while k * k <= x:
            if x % k == 0:
                c, aux = 2, k
                break
            k += 1
    out += [c, aux, -1 if x & 1 else x]
global_size = (n,); local_size = (16,)
args = [In("int", IN), Out("int", 3 * n, expect=out)]
