# 128 work-items, work-groups of 64, subgroups of 16 (the default size).
# in[i] = i * 7 + 1.  Per work-item: a = in[i], b = 3a; for k < 4 the
# work-group's sh[l] = a_l + k, x = sh[(l + 1 + k) & 63] (same group),
# acc += x * b if x is odd; c = the sum of acc over the 16-lane subgroup;
# out[i] = acc + c + b + i (all modulo 2^32).
G, L, S = 128, 64, 16
IN = [i * 7 + 1 for i in range(G)]
M = 0xffffffff
acc = [0] * G
for g in range(0, G, L):
    for k in range(4):
        sh = [(IN[g + l] + k) & M for l in range(L)]
        for l in range(L):
            x = sh[(l + 1 + k) & 63]
            if x & 1:
                acc[g + l] = (acc[g + l] + x * 3 * IN[g + l]) & M
OUT = []
for i in range(G):
    s0 = i - i % S
    c = sum(acc[s0:s0 + S]) & M
    OUT.append((acc[i] + c + 3 * IN[i] + i) & M)
global_size = (G,); local_size = (L,)
args = [In("uint", IN), Out("uint", G, expect=OUT)]
