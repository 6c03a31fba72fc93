# 128 work-items, work-groups of 64, in[x] = 1000 + x (256 elements).
# out[i] = in[i or i+64] + (group base + 63 - local id); out[128 + i] =
# in[i or i+128].
G, L = 128, 64
IN = [1000 + x for x in range(256)]
OUT = [0] * (2 * G)
for i in range(G):
    l = i % L
    p = i if i % 3 == 0 else i + 64
    q = i if (i // 16) & 1 else i + 128
    OUT[i] = IN[p] + (i - l) + 63 - l
    OUT[128 + i] = IN[q]
global_size = (G,); local_size = (L,)
args = [In("int", IN), Out("int", 2 * G, expect=OUT)]
