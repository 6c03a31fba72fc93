# out1[i] / out2[i] (out1 when the subgroup id sg % 3 == 0, else out2) =
# (v + 1) * 3 with v the little-endian uint at byte off + 4i of src (b for
# odd sg, else a); a read past the end of src yields 0 (the fault's value),
# a misaligned one (off % 4 != 0) is reported and still reads those bytes;
# the other output keeps its 0.  1-D: sg = (i mod local) / S.
import struct
M = 0xffffffff


def expect(n, local, S, off, n_src):
    a = [(k * 3 + 1) & M for k in range(n_src)]
    b = [(k * 5 + 2) & M for k in range(n_src)]
    out1, out2 = [0] * n, [0] * n
    for i in range(n):
        sg = (i % local) // S
        src = b if sg & 1 else a
        raw = struct.pack("<%dI" % n_src, *src)
        at = off + 4 * i
        v = struct.unpack_from("<I", raw, at)[0] if at + 4 <= len(raw) else 0
        r = ((v + 1) * 3) & M
        if sg % 3 == 0:
            out1[i] = r
        else:
            out2[i] = r
    return out1, out2


def case(n, local, S, off, n_src, **kw):
    o1, o2 = expect(n, local, S or 16, off, n_src)
    c = dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S],
             args=[In("uint", [(k * 3 + 1) & M for k in range(n_src)]),
                   In("uint", [(k * 5 + 2) & M for k in range(n_src)]),
                   Out("uint", n, expect=o1), Out("uint", n, expect=o2), Scalar("uint", off)])
    c.update(kw)
    return c


CASES = [
    case(256, 64, None, 0, 256),
    case(256, 64, 8, 4, 257),
    case(192, 64, 32, 0, 192),
    case(256, 64, None, 4, 256, exit=1, diag=["out-of-bounds"]),   # the last subgroup reads past the end
    case(256, 64, None, 2, 256, exit=1, diag=["misaligned"]),
]
