# 256 work-items in work-groups of 64 (4 work-groups: at -j 2 the global
# atomics go through each thread's deferred copy); bins has 64 elements,
# starting at 7 + k each.  off = 0: every lane in range.  off = 1: lid 63
# lands past the end; in[63] has bit 1 set, so that lane faults.  off = -3:
# lids 0..2 would land before the start, and in[] has bit 1 clear there in
# every work-group, so they never run the atomic.
G, L, N = 256, 64, 64

def inputs(off):
    v = [(2654435761 * (k + 1)) >> 20 & 0xff for k in range(G)]
    if off < 0:   # lids 0..2 never take the global atomic
        v = [x & ~2 if k % L < -off else x for k, x in enumerate(v)]
    if off > 0:
        v[63] |= 2
    return v

def case(off):
    IN = inputs(off)
    bins = [7 + k for k in range(N)]
    for g in range(G):
        if IN[g] & 2:
            t = g % L + off
            if 0 <= t < N:
                bins[t] = (bins[t] + IN[g]) & 0xffffffff
    lout = [IN[g] if IN[g] & 1 else 0 for g in range(G)]
    args = [In("uint", IN), InOut("uint", [7 + k for k in range(N)], expect=bins), Out("uint", G, expect=lout),
            Scalar("int", off)]
    c = dict(global_size=(G,), local_size=(L,), subgroup_sizes=[None, 8], args=args)
    if any(IN[g] & 2 and not 0 <= g % L + off < N for g in range(G)):
        # the faulting lane's atomic does not happen; the rest is unspecified after a fault
        c.update(exit=1, diag=["out-of-bounds"])
        for a in args[1:3]:
            a.expect, a.check = None, (lambda got: None)
    return c

CASES = [case(0), case(1), case(-3)]
