# Expected values written from cl_khr_subgroups + the non-uniform extensions,
# subgroup size 16, work-group 32.
import struct
S = 16
n = 64
IN = rand_ints(n, -300, 300, seed=7)
IN[1] = 7
FIN = [f32(v) for v in rand_floats(n, -1e4, 1e4, seed=9, digits=3)]
FIN[3] = 1e9
out = []
fout = []
for g in range(n):
    base = g - g % S
    l = g % S
    xs = IN[base:base + S]
    o = [0] * 12
    o[0] = sum(xs)
    o[1] = max(xs[:l + 1])
    o[2] = sum(xs[:l])
    o[3] = xs[5]
    o[4] = int(all(v > -1000 for v in xs)) + 2 * int(any(v == 7 for v in xs))
    o[5] = xs[l ^ 3]
    c = l - l % 4
    o[6] = min(xs[c:c + 4])
    o[7] = xs[(l + 6) % S]
    bits = sum(1 << i for i in range(S) if xs[i] & 1)
    o[8] = bits
    o[9] = bin(bits & ((1 << (l + 1)) - 1)).count("1")
    o[10] = sum(xs[i] for i in range(S) if i & 1) if l & 1 else -1
    p = 1
    for i in range(l + 1):
        p *= 2 if i < 8 else 1
    o[11] = p
    out += o
    acc = None
    for i in range(l + 1):
        acc = FIN[base + i] if acc is None else f32(acc + FIN[base + i])
    fout.append(acc)
std = "CL3.0"
global_size = (n,); local_size = (32,)
args = [In("int", IN), In("float", FIN), Out("int", 12 * n, expect=out), Out("float", n, expect=fout)]
