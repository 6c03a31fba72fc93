# out[4i + 0] = full[i & 3] = i + 100 * ((i & 3) + 1); out[4i + 1] =
# part[i & 3]: i + 100 or i + 300 for indices 0 and 2, 0 (never written)
# for 1 and 3; out[4i + 2] = late[i & 3], every element written by then;
# out[4i + 3] = late[1] read before it was written: 0.  Several work-groups
# of 16 (one subgroup each) reuse the private memory.
n = 64
out = []
for i in range(n):
    e = i & 3
    full = i + 100 * (e + 1)
    part = full if e in (0, 2) else 0
    out += [full, part, full, 0]
global_size = (n,); local_size = (16,)
args = [Out("uint", 4 * n, expect=out)]
