# NDRange 224 in work-groups of 32; out, acc and lout hold N = 200 elements,
# in 224 (items 200..223 read in[] but are inactive in every `if`: in[] is
# even there and lim <= 200 keeps them out of the guards).  lim = 200:
# nothing faults.  lim = 205: items 200..204 store past out's end: an
# out-of-bounds fault.
N, G, L = 200, 224, 32
IN = [((7919 * k + 13) % 1013) if k < N else 4 * k for k in range(G)]
ACC0 = [5 * k for k in range(N)]

def case(lim):
    acc = [ACC0[k] + IN[k] if IN[k] & 1 else ACC0[k] for k in range(N)]
    out = [IN[k] * 3 if k < lim else 0 for k in range(N)]
    lout = [k + (1000 if IN[k] & 2 else 0) if k < lim else 0 for k in range(N)]
    args = [In("uint", IN), InOut("uint", ACC0, expect=acc), Out("uint", N, expect=out),
            Out("uint", N, expect=lout), Scalar("uint", lim)]
    c = dict(global_size=(G,), local_size=(L,), subgroup_sizes=[None, 8], args=args)
    if lim > N:   # the faulting lanes' stores do not happen; the rest is unspecified after a fault
        c.update(exit=1, diag=["out-of-bounds"])
        for a in args[1:4]:
            a.expect, a.check = None, (lambda got: None)
    return c

CASES = [case(200), case(205)]
