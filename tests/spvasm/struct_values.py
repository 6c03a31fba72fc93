# Struct and array SSA values (struct_values.spvasm).  Struct P: uint a
# (word 0), ulong b (words 2-3), uint c[3] (words 4-6); words 1 and 7 are
# padding and not checked.  Work-item i: mk = {i, i, {i, 7, 100}}; odd i:
# bump(in[i], 1000) = in[i] with a += 1000 and c[2] = c[0] + 1000; the phi
# takes bump for odd i and mk for even i; i < 4 selects mk.
N = 12
IN = list(range(1, N * 8 + 1))
out, pout = [], [None] * (N * 8)
for i in range(N):
    w = IN[8 * i:8 * i + 8]
    ld = (w[0], w[2] | (w[3] << 32), [w[4], w[5], w[6]])
    mk = (i, i, [i, 7, 100])
    ph = ((ld[0] + 1000) & 0xFFFFFFFF, ld[1], [ld[2][0], ld[2][1], (ld[2][0] + 1000) & 0xFFFFFFFF]) if i & 1 else mk
    se = mk if i < 4 else ph
    pout[8 * i] = se[0]
    pout[8 * i + 2], pout[8 * i + 3] = se[1] & 0xFFFFFFFF, se[1] >> 32
    pout[8 * i + 4:8 * i + 7] = se[2]
    out.append((se[0] + (se[1] & 0xFFFFFFFF) + se[2][2]) & 0xFFFFFFFF)
global_size = (N,); local_size = (4,)
subgroup_sizes = [None, 4]
args = [Out("uint", N, expect=out), In("uint", IN), Out("uint", N * 8, expect=pout)]
