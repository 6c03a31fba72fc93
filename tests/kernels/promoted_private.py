# idx[0] = 5: s = sum_{k<5} (10k + i) * (100 + k) for every i; out[i] =
# a[idx[i] & 7] + s; out[32+i] = b[idx[i] & 7], or b[idx[i]] for the lanes
# with bit 64 set (idx 4000064 and 4000065: far past private memory: fault, 0).
G = 32
IDX = [5, 3, 0, 7, 1, 2, 6, 4] * 4
IDX[9] = 4000064
IDX[20] = 4000065


def s_of(i):
    return sum((10 * k + i) * (100 + k) for k in range(IDX[0] & 7))


OUT = [0] * (2 * G)
for i in range(G):
    n = IDX[i]
    OUT[i] = 10 * (n & 7) + i + s_of(i)
    OUT[G + i] = 0 if n & 64 else 100 + (n & 7)
global_size = (G,); local_size = (G,)
exit = 1
diag = ["private memory"]
args = [Out("int", 2 * G, expect=OUT), In("int", IDX)]
