# printf-heavy, atomics-free, many work-groups, one subgroup per group: run
# with -j 1 and -j 2 (text and --json) and require identical output.  Order:
# linear work-group order, then per printf call the active lanes in order
# (docs/semantics.md "Output and threads", "printf").
G, L = 96, 8
IN = rand_ints(G * L, -100000, 100000, seed=77)
text = []
for g in range(G):
    ids = range(g * L, (g + 1) * L)
    for i in ids:
        text.append("wg %u lane %u: v=%d x=%08x\n" % (g, i - g * L, IN[i], IN[i] & 0xFFFFFFFF))
    for i in ids:
        if IN[i] & 1:
            text.append("  odd %d half=%.2f\n" % (IN[i], f32(IN[i] * 0.5)))
    for i in ids:
        text.append("  done %s\n" % ("B" if i & 2 else "A"))
printf = "".join(text)
global_size = (G * L,); local_size = (L,)
subgroup_sizes = [8]
jobs_compare = [1, 2]
args = [In("int", IN), Out("int", G * L, expect=[2 * v + 1 for v in IN])]
