# 128 work-items, work-groups of 64 (subgroups of 16).  A model of the
# schedule docs/semantics.md gives: in each work-group the subgroups run in
# order up to the barrier, each atomic instruction lane by lane in lane
# order; the values are modulo 2^32.
G, L, S = 128, 64, 16
M = 0xffffffff
IN = [(i * 7 + (i // 5) * 3) % 29 for i in range(G)]   # many shared bins
IN[70] = 31
OUT = [0] * (5 * G)
TAB = [0] * (2 * 32)
for g in range(0, G, L):
    h = [l * 1000 for l in range(32)]
    for s0 in range(g, g + L, S):
        lanes = range(s0, s0 + S)
        def rmw(addr, val, k):
            for i in lanes:
                a = addr(i)
                OUT[i * 5 + k] = h[a]
                h[a] = (h[a] + val(i)) & M
        rmw(lambda i: IN[i] & 31, lambda i: 1, 0)
        rmw(lambda i: ((IN[i] & 31) + 3) & 31, lambda i: 5, 1)
        rmw(lambda i: (IN[i] & 31) >> 2, lambda i: -7, 2)
        rmw(lambda i: 0, lambda i: -1, 3)
        rmw(lambda i: IN[i] & 7, lambda i: IN[i] & 31, 4)
    TAB[(g // L) * 32:(g // L) * 32 + 32] = h
global_size = (G,); local_size = (L,)
args = [In("uint", IN), Out("uint", 5 * G, expect=OUT), Out("uint", 64, expect=TAB)]
