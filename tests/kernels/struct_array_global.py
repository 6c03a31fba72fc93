# item_t layout (OpenCL C, same as C on x86-64): tag@0, count@4, sum@8,
# hist@16..21, size 24 (alignment 8).  The buffer is described as 6 ints.
n = 16
vals = rand_ints(n, -1000, 1000, seed=28)
items = []
for i in range(n):
    items.append(dict(tag=0, count=i, sum=float(i) * 0.25, hist=[i, -i, 0]))
def pack(it):
    b = struct.pack("<b3xid3hxx", it["tag"], it["count"], it["sum"], *it["hist"])
    return list(struct.unpack("<6i", b))
init = []
for it in items:
    init += pack(it)
for i in range(n):
    it = items[i]; v = vals[i]
    it["count"] += 1
    it["sum"] += v * 0.5
    it["hist"][v & 1] = wrap("short", it["hist"][v & 1] + v)
    it["tag"] = ord('a') + i % 26
for i in range(1, n):
    items[i - 1]["hist"][2] = i
exp = []
for it in items:
    e = pack(it)
    e[1 - 1] = None if False else e[0]
    exp += e
# word 0 holds tag and 3 padding bytes: a whole-struct store may copy padding
# bytes (they were 0 and stay 0 either way), and word 5 holds hist[2] and
# 2 padding bytes; both stay exact since padding started as zero.
global_size = (n,); local_size = (4,)
args = [InOut("int", init, expect=exp), In("int", vals)]
