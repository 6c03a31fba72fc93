# Each a[k] and c[i] is touched by one work-item: old values and final
# contents follow from that item alone; b[l] gets every item's x with local
# id l, in any order.  x = (i * 2654435761 mod 2^32) >> 20.
N, L = 256, 64
M32, M64 = 0xffffffff, 0xffffffffffffffff
A0 = [(1000003 * k + 12345) & M32 for k in range(4 * N)]
B0 = [7 * l for l in range(L)]
C0 = [(i * 0x100000001 + 3) & M64 for i in range(N)]
a, b, c = list(A0), list(B0), list(C0)
old, old64 = [0] * (7 * N), [0] * N
for i in range(N):
    x = ((i * 2654435761) & M32) >> 20
    lid = i % L
    if x & 1:
        old[i] = a[i]
        a[i] = (a[i] + x) & M32
    if x & 8:
        old[5 * N + i] = a[i]
        a[i] = (a[i] - x) & M32
    old[N + i] = a[N + i]
    a[N + i] = (a[N + i] + 1) & M32
    k = 2 * N + i
    if x & 2:
        old[k] = a[k]
        a[k] = (a[k] - 1) & M32
    if x & 16:
        old[6 * N + i] = a[k]
        a[k] ^= x
    k = 3 * N + i
    o = a[k]
    a[k] |= x
    o2 = a[k]
    a[k] &= x | 0xf0f0
    old[k] = o ^ o2
    b[lid] = (b[lid] + x) & M32
    old64[i] = c[i]
    c[i] = (c[i] + (x << 33)) & M64
    old[4 * N + i] = (lid * 3 + (x if x & 4 else 0)) & M32
global_size = (N,); local_size = (L,)
subgroup_sizes = [None, 8, 16, 32]
std = "CL2.0"
args = [InOut("uint", A0, expect=a), InOut("uint", B0, expect=b), InOut("ulong", C0, expect=c),
        Out("uint", 7 * N, expect=old), Out("ulong", N, expect=old64)]
jobs_compare = [1, 2]
