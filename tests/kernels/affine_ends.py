# Buffers of N = 150 elements, NDRange 160 in work-groups of 32 (subgroups
# of 16 at S = 16, whole: the lanes' strides are known there).  lim = 150: work-items 150..159 are inactive
# in every `if` (their addresses are past the ends) and nothing faults.
# lim = 155: items 150..154 store past the ends: an out-of-bounds fault.
N, G, L = 150, 160, 32
IN = [(7919 * k + 13) % 1000 - 500 for k in range(N)]
M32 = 0xffffffff

def case(lim):
    out, rev, pairs, cnt = [0] * N, [0] * N, [0] * N, [5 * k for k in range(N)]
    for i in range(min(lim, N)):
        out[i] = IN[i] * 3
        cnt[i] = cnt[i] + i
        if lim - 1 - i < N:
            rev[lim - 1 - i] = IN[i] + 7
        if i & 1:
            pairs[i // 2 * 2] = IN[i] - 1
    args = [In("int", IN), Out("int", N, expect=out), Out("int", N, expect=rev),
            Out("int", N, expect=pairs), InOut("int", [5 * k for k in range(N)], expect=cnt), Scalar("uint", lim)]
    c = dict(global_size=(G,), local_size=(L,), subgroup_sizes=[None, 8], args=args)
    if lim > N:   # the faulting lanes' stores do not happen; the rest is unspecified after a fault
        c.update(exit=1, diag=["out-of-bounds"])
        for a in args[1:5]:
            a.expect, a.check = None, (lambda got: None)
    return c

CASES = [case(150), case(155)]
