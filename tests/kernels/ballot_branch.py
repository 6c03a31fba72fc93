# out[i] = the ballot's word 0 for x & 1 in i's subgroup (+ 300000 when
# bit 1 of x is clear); sel[i] = x + 1000 for odd x (ballot_odd), x + 20000
# for even x (ballot_even), else 0.  Work-groups of 64 (whole subgroups:
# the ballot path) and of 40 (a partial subgroup at S = 16 and 32: the
# lane loop).
def ref(xs, local, S, odd):
    out, sel = [], []
    for g in range(0, len(xs), local):
        for base in range(g, min(g + local, len(xs)), S):
            lanes = range(base, min(base + S, g + local, len(xs)))
            bits = 0
            for k, i in enumerate(lanes):
                if xs[i] & 1:
                    bits |= 1 << k
            for i in lanes:
                w = bits & 0xffffffff
                out.append(w if xs[i] & 2 else w + 300000)
                if odd:
                    sel.append(xs[i] + 1000 if xs[i] & 1 else 0)
                else:
                    sel.append(0 if xs[i] & 1 else xs[i] + 20000)
    return out, sel


def case(kernel, n, local, S, seed):
    xs = [(2654435761 * (i + seed)) >> 7 & 0xffff for i in range(n)]
    out, sel = ref(xs, local, S, kernel == "ballot_odd")
    return dict(kernel=kernel, global_size=(n,), local_size=(local,), subgroup_sizes=[S],
                args=[In("uint", xs), Out("uint", n, expect=out), Out("uint", n, expect=sel)])


CASES = [case(k, n, local, S, seed) for k in ("ballot_odd", "ballot_even")
         for (n, local, S, seed) in ((256, 64, 16, 1), (256, 64, 8, 2), (160, 40, 16, 3), (160, 40, 32, 4))]
std = "CL2.0"
