# 64 work-items, one work-group, subgroups of 16: lane l = i % 16.
# out[4i + k] = v[(l + 5k) & 15] = (16i + s) / 2; outi[4i + k] =
# w[(3l + k) & 15] = 100i - that index; outi[256 + i] = w[idx[i]], 0 for
# lane 37 whose index is far past private memory (a fault).
G = 64
IDX = [(i * 7) & 15 for i in range(G)]
IDX[37] = 4000064
OUT = [0.0] * (4 * G)
OUTI = [0] * (4 * G + G)
for i in range(G):
    l = i % 16
    for k in range(4):
        OUT[4 * i + k] = (16 * i + ((l + 5 * k) & 15)) * 0.5
        OUTI[4 * i + k] = 100 * i - ((3 * l + k) & 15)
    OUTI[256 + i] = 0 if i == 37 else 100 * i - IDX[i]
global_size = (G,); local_size = (G,)
exit = 1
diag = ["private memory"]
args = [Out("float", 4 * G, expect=OUT), Out("int", 5 * G, expect=OUTI), In("uint", IDX)]
