# 1024 work-items in work-groups of 256; in[i] = (2654435761 i) mod 2^32 >> 12.
# Reference: each work-group's sum (mod 2^32) and maximum.
n, L = 1024, 256
IN = [(2654435761 * i) % (1 << 32) >> 12 for i in range(n)]
groups = [IN[g * L:(g + 1) * L] for g in range(n // L)]
global_size = (n,); local_size = (L,)
subgroup_sizes = [None, 8]
args = [In("uint", IN), Out("uint", n // L, expect=[sum(p) % (1 << 32) for p in groups]),
        Out("uint", n // L, expect=[max(p) for p in groups])]
