# Expected values from the cl_intel_subgroups text, subgroup size 16.
S = 16
n = 32
SRC = [(i * 2654435761) & 0xffffffff for i in range(2 * n)]
out = []
for g in range(n):
    l = g % S; base = g - l
    cur = lambda i: (base + i) * 3
    nxt = lambda i: 1000 + base + i
    i = l + 5
    down = cur(i) if i < S else nxt(i - S)
    i = l - 3
    up = cur(i) if i >= 0 else nxt(i + S)
    sh = cur(15 - l)
    k = l ^ 1
    out += [down, up, sh, k * 100 + 2 * k]
dst = [0] * (2 * n)
for sgb in range(0, n, S):
    p = 2 * sgb
    for l in range(S):
        v0 = SRC[p + l]; v1 = SRC[p + l + S]     # p[l], p[l + S]
        dst[p + l] = v1; dst[p + l + S] = v0
std = "CL3.0"
global_size = (n,); local_size = (n,)
args = [In("uint", SRC), Out("uint", 2 * n, expect=dst), Out("int", 4 * n, expect=out)]
