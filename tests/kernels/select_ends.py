# in[v] = 7v + 1 (n + 3 values); lane i of the n work-items:
#   out1 = in[i if (i + base) mod 2^32 > 2 else i + 1]
#   out2 = in[i + 2 if int32(i + sbase) > 0x7ffffffe else i]
#   out3 = in[i if (m - i) mod 2^32 >= 3 else i + 3]
#   out4 = in[i if (i + ubase) mod 2^64 > 2 else i + 1]
#   out5 = in[i + 2 if int64(i + lsbase) > 2^63 - 2 else i]
#   out6 = in[i if (um - i) mod 2^64 >= 3 else i + 3]
M32, M64 = 0xffffffff, 0xffffffffffffffff


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def s64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def case(n, local, S, base, sbase, m, ubase):
    # the 64-bit twins: as close to 2^63 - 1 as sbase to 2^31 - 1; um = m
    lsbase = (1 << 63) - 1 - (0x7fffffff - sbase) if sbase > 0x70000000 else sbase
    um = m
    vals = [(7 * v + 1) & M32 for v in range(n + 3)]
    o1 = [vals[i if (i + base) & M32 > 2 else i + 1] for i in range(n)]
    o2 = [vals[i + 2 if s32(i + sbase) > 0x7ffffffe else i] for i in range(n)]
    o3 = [vals[i if (m - i) & M32 >= 3 else i + 3] for i in range(n)]
    o4 = [vals[i if (i + ubase) & M64 > 2 else i + 1] for i in range(n)]
    o5 = [vals[i + 2 if s64(i + lsbase) > (1 << 63) - 2 else i] for i in range(n)]
    o6 = [vals[i if (um - i) & M64 >= 3 else i + 3] for i in range(n)]
    return dict(global_size=(n,), local_size=(local,), subgroup_sizes=[S],
                args=[In("uint", vals), Out("uint", n, expect=o1), Out("uint", n, expect=o2),
                      Out("uint", n, expect=o3), Out("uint", n, expect=o4), Out("uint", n, expect=o5),
                      Out("uint", n, expect=o6), Scalar("uint", base), Scalar("int", sbase), Scalar("uint", m),
                      Scalar("ulong", ubase), Scalar("long", lsbase), Scalar("ulong", um)])


CASES = [
    # wraps inside the first subgroup: its end lanes agree, lanes 3..5 differ
    case(256, 64, None, 0xfffffffd, 0x7ffffffc, 5, M64 - 2),
    case(128, 32, 8, 0xfffffffd, 0x7ffffffc, 5, M64 - 2),
    # a wrap in a later subgroup (x: at i = 32, y: i = 35, z: i = 64 + 5)
    case(256, 64, None, 0xffffffe0, 0x7fffffdd, 69, M64 - 31),
    # no wrap: the conditions change at a lane boundary or not at all
    case(256, 64, None, 0, 0, 1000, 0),
    case(256, 64, 32, 7, -40, 200, 40),
]
