# Intel block read/write on uchar2 and ulong2 (cl_intel_subgroups: component k
# of lane l is p[l + k*S]); one full subgroup of S lanes.
def case(S):
    in8 = [(7 * i + 3) % 256 for i in range(2 * S)]
    in64 = [(0x0123456789ABCDEF * (i + 1)) % (1 << 64) for i in range(2 * S)]
    plain8 = [in8[l + k * S] for l in range(S) for k in range(2)]
    plain64 = [in64[l + k * S] for l in range(S) for k in range(2)]
    blk8 = [0] * (2 * S)
    blk64 = [0] * (2 * S)
    for l in range(S):
        for k in range(2):
            blk8[l + k * S] = (2 * l + k) % 256
            blk64[l + k * S] = 2 * l + k + 1000
    return dict(name="s%d" % S, global_size=(S,), local_size=(S,), subgroup_sizes=[S],
                args=[In("uchar", in8), Out("uchar", 2 * S, expect=plain8), Out("uchar", 2 * S, expect=blk8),
                      In("ulong", in64), Out("ulong", 2 * S, expect=plain64),
                      Out("ulong", 2 * S, expect=blk64)])
CASES = [case(8), case(16), case(32)]
