# 128 work-items in work-groups of 64; in[i] = (37 * i + 5) % 101 - 50.
# Reference in Python from the kernel's definition (32-bit wrap-around).
G, L = 128, 64
IN = [(37 * i + 5) % 101 - 50 for i in range(G)]

def wrap(x):
    x &= 0xffffffff
    return x - (1 << 32) if x >> 31 else x

def case(n):
    out = []
    for i in range(G):
        l, base = i % L, i - i % L
        v = IN[i]
        r = IN[base + 63 - l] * 2 + l if n > 3 else v - l
        for k in range(n):
            r = wrap(r * 3 + k + v)
        out.append(wrap(r))
    return dict(global_size=(G,), local_size=(L,), subgroup_sizes=[None, 8],
                args=[In("int", IN), Out("int", G, expect=out), Scalar("int", n)])

CASES = [case(2), case(5)]
