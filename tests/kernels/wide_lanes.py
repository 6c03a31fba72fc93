std = "CL2.0"
# Per work-item g (v = in[g]): 40 xorshift64 steps of s = v * K + 1, the
# Horner sums y = y * x + 0.5 (double, x = (v % 1000) * 0.001) and
# z = z * xf + 0.25 (float, each operation rounded to float32), and over
# the steps whose s is odd, acc += s >> 40 and c += v.  st[g] = s ^ s of
# the next work-item of the work-group (local memory across a barrier),
# red[g] = the sum of acc over g's subgroup.  wide_lanes stores s and acc
# themselves.  Subgroups of 16 (64-bit lanes: 128-byte lane values), 32
# and 8.
G, L, N = 192, 64, 40
M64 = (1 << 64) - 1

def expect(S):
    IN = [(2654435761 * g + 12345) & 0xffffffff for g in range(G)]
    S_, Y, Z, A, C = [], [], [], [], []
    for v in IN:
        s = (v * 0x9E3779B97F4A7C15 + 1) & M64
        x = float(v % 1000) * 0.001
        xf = f32(f32(float(v % 100)) * f32(0.01))
        y, z, acc, c = 0.0, 0.0, 0, 0
        for _ in range(N):
            s ^= (s << 13) & M64
            s ^= s >> 7
            s ^= (s << 17) & M64
            y = y * x + 0.5
            z = f32(f32(z * xf) + 0.25)
            if s & 1:
                acc = (acc + (s >> 40)) & M64
                c = (c + v) & 0xffffffff
        S_.append(s); Y.append(y); Z.append(z); A.append(acc); C.append(c)
    st = [S_[g] ^ S_[g - g % L + (g % L + 1) % L] for g in range(G)]
    red = [sum(A[g - g % S: g - g % S + S]) & M64 for g in range(G)]
    return IN, st, Y, Z, red, C, S_, A

def case(S, bar):
    IN, st, Y, Z, red, C, S_, A = expect(S)
    return dict(kernel="wide_lanes_bar" if bar else "wide_lanes", global_size=(G,), local_size=(L,),
                subgroup_sizes=[S],
                args=[In("uint", IN), Out("ulong", G, expect=st if bar else S_), Out("double", G, expect=Y),
                      Out("float", G, expect=Z), Out("ulong", G, expect=red if bar else A),
                      Out("uint", G, expect=C), Scalar("int", N)])

CASES = [case(S, bar) for bar in (False, True) for S in (16, 32, 8)]
