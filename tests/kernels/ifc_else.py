std = "CL2.0"
# NDRange 96 in work-groups of 32: odd v takes the then-arm, even v the
# else-arm; mixed subgroups, and one all-odd and one all-even 16-item run
# (whole subgroups at S = 16 take one arm with every lane).  r: the sum of
# v over the subgroup's odd lanes, or 10^6 + the max over its even lanes.
# d: 1 in lane 3 of each subgroup, else 2 + (S - 1) (whole subgroups).
# Last case: b holds 80 elements, so even items 80..95 store past its
# end (an out-of-bounds fault; the outputs are then unspecified).
G, L = 96, 32
IN = [(37 * k + 11) % 101 for k in range(64)] + [2 * k + 1 for k in range(16)] + [2 * k for k in range(16)]

def expect(S):
    a = [3 * v if v & 1 else 0 for v in IN]
    b = [0 if v & 1 else v + 7 for v in IN]
    c = []
    for k, v in enumerate(IN):
        sg = IN[k - k % S:k - k % S + S]
        if v & 1:
            c.append(sum(x for x in sg if x & 1) & 0xffffffff)
        else:
            c.append(max(x for x in sg if not x & 1) + 1000000)
    return a, b, c

def case(S, nb=G):
    a, b, c = expect(S)
    d = [1 if k % S == 3 else S + 1 for k in range(G)]
    args = [In("uint", IN), Out("uint", G, expect=a), Out("uint", nb, expect=b[:nb]), Out("uint", G, expect=c),
            Out("uint", G, expect=d)]
    r = dict(global_size=(G,), local_size=(L,), subgroup_sizes=[S], args=args)
    if nb < G:
        r.update(exit=1, diag=["out-of-bounds"])
        for x in args[1:]:
            x.expect, x.check = None, (lambda got: None)
    return r

CASES = [case(16), case(8), case(32), case(16, 80)]
