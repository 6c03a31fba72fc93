# bins[b] = sum of (x >> 6) over x & mask == b (an index past 63 faults and
# adds nothing); misc: a count up, a sum down,
# an XOR, an OR and an AND of bit masks, a count down; wide[b] = sum of
# x << 20 (64-bit) over x & 7 == b.  256 work-groups of 16: two threads
# share them at -j 2.
M = 0xffffffff
G, L = 256, 16
N = G * L
IN = [v & M for v in rand_ints(N, 0, (1 << 31) - 1, seed=41)]


def case(mask, **kw):
    bins = [0] * 64
    for x in IN:
        if (x & mask) < 64:
            bins[x & mask] = (bins[x & mask] + (x >> 6)) & M
    c = dict(global_size=(N,), local_size=(L,), subgroup_sizes=[16], jobs_compare=[1, 2],
             args=[In("uint", IN), Out("uint", 64, expect=bins),
                   InOut("uint", [0, 0, 0, 0, M, 0, 0, 0], expect=misc),
                   Out("ulong", 8, expect=wide), Scalar("uint", mask)])
    c.update(kw)
    return c


wide = [0] * 8
misc = [0, 0, 0, 0, M, 0, 0, 0]
for x in IN:
    misc[0] = (misc[0] + 1) & M
    misc[1] = (misc[1] - (x & 0xff)) & M
    misc[2] ^= x
    misc[3] |= 1 << (x & 31)
    misc[4] &= ~(1 << (x % 29)) & M
    misc[5] = (misc[5] - 1) & M
    wide[x & 7] = (wide[x & 7] + (x << 20)) & 0xffffffffffffffff
CASES = [case(63), case(127, exit=1, diag=["out-of-bounds"])]
