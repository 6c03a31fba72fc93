# Physical32 addressing: the module is compiled for the 32-bit spir triple.
extra_flags = ["-m32"]
sweep = True
n, L = 32, 8
IN = rand_ints(n, -1000, 1000, seed=321)
out = []
for g in range(n):
    l, base = g % L, g - g % L
    out += [4, 4, (n - 1 - g) - g, 12, 20, wrap("int", IN[base + (l + 1) % L] * 3),
            wrap("int", IN[base + L - 1 - l] * 3), 1]
out = [wrap("uint", v) for v in out]
global_size = (n,); local_size = (L,)
args = [In("int", IN), Out("uint", 8 * n, expect=out), Local(4 * L),
        InOut("int", [0, -(1 << 31), 0], expect=[n * (n + 1) // 2, max(IN), n])]
