# Two work-groups of 256; per group: h1 = histogram of the top 8 bits of
# x * 2654435761 (mod 2^32), h2[x & 63] += x >> 6, h3[x % 10] -= 1 (mod 2^32),
# h4[(x >> 3) & 255] += 2.  The over kernel's indices reach 511 (past h[256]):
# the lanes with an index >= 256 fault (out-of-bounds).  bounded_const:
# TAB[x & 15] * 100 + TAB[x >> 28] * 10 + TAB[(x & 255) % 16].
G, L = 512, 256
IN = rand_ints(G, 0, 2**32 - 1, seed=91)
M = 0xffffffff

def groups():
    out = []
    for g in range(G // L):
        h1, h2, h3, h4 = [0] * 256, [0] * 64, [0] * 10, [0] * 256
        for x in IN[g * L:(g + 1) * L]:
            h1[((x * 2654435761) & M) >> 24] += 1
            h2[x & 63] = (h2[x & 63] + (x >> 6)) & M
            h3[x % 10] = (h3[x % 10] - 1) & M
            h4[(x >> 3) & 255] += 2
        out += h1 + h2 + h3 + h4
    return out

over = [((x * 2654435761) & M) >> 23 for x in IN]
assert any(i >= 256 for i in over) and any(i < 256 for i in over)

TAB = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3]

CASES = [
    dict(kernel="bounded_const", global_size=(G,), local_size=(L,),
         args=[In("uint", IN), Out("uint", G, expect=[TAB[x & 15] * 100 + TAB[x >> 28] * 10 + TAB[(x & 255) % 16]
                                                     for x in IN])]),
    dict(kernel="bounded_local", global_size=(G,), local_size=(L,),
         args=[In("uint", IN), Out("uint", 586 * G // L, expect=groups())]),
    dict(kernel="bounded_local_over", global_size=(G,), local_size=(L,), exit=1, diag=["out-of-bounds"],
         args=[In("uint", IN), Out("uint", G, expect=None, check=lambda got: None)]),
]
