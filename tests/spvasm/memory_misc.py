# OpCopyMemorySized / OpCopyMemory / OpLifetime* / OpUndef / OpConstantNull
# struct / OpVectorShuffle 0xFFFFFFFF (only defined components are stored).
n = 24
IN = rand_ints(8 * n, 0, 1 << 30, seed=44)
out = []
for i in range(n):
    row = IN[8 * i:8 * i + 8]
    x = row[0]
    out += row[:3] + [12345] + row[4:] + [x, 0, 0, 0, 0, 0, (2 * x) & 0xFFFFFFFF, 0]
global_size = (n,); local_size = (8,)
args = [In("uint", IN), Out("uint", 16 * n, expect=out)]
