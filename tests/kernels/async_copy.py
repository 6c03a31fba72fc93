G, L = 4, 32
IN = rand_ints(G * 32, -1000, 1000, seed=68)
out = []
strided = [0] * (32 * 4 + 4)
for g in range(G):
    src = IN[g*32:(g+1)*32]
    buf = [src[l] * 3 + src[4 * (l & 3) + 1] for l in range(32)]
    out += buf
for g in range(G):
    buf = out[g*32:(g+1)*32]
    for k in range(32):
        strided[g + 4 * k] = buf[k]
global_size = (G * L,); local_size = (L,)
args = [In("int", IN), Out("int", G * 32, expect=out), Out("int", 32 * 4 + 4, expect=strided)]
