# Subgroup s (lanes i = sS .. sS + S - 1, x = in[i] = 40503 i + 7 mod 2^32)
# keeps lane i when bit 16 of (x * 2654435761 mod 2^32) ^ salt is set or
# x < keep_all; the kept x land in order at out[sS ..], counts[s] = how
# many.  The rest of out stays 0.
M = 0xffffffff


def case(n, S, salt, keep_all=0, local=64):
    xs = [(40503 * i + 7) & M for i in range(n)]
    keep = [((((x * 2654435761) & M) ^ salt) >> 16) & 1 or x < keep_all for x in xs]
    out, counts = [0] * n, []
    for s in range(n // S):
        kept = [xs[i] for i in range(s * S, s * S + S) if keep[i]]
        out[s * S:s * S + len(kept)] = kept
        counts.append(len(kept))
    return dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S],
                args=[In("uint", xs), Out("uint", n, expect=out), Out("uint", n // S, expect=counts),
                      Scalar("uint", salt), Scalar("uint", keep_all)])


CASES = [case(512, 16, 0), case(512, 16, 0x5a5a), case(256, 8, 0x1234), case(256, 32, 0),
         case(256, 16, 0, keep_all=1 << 31)]
std = "CL2.0"
