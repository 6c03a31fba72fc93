# Expected values from the cl_intel_subgroups text: shuffle(data, c) reads lane
# c; shuffle_xor lane l ^ v; shuffle_down(cur, next, d): i = l + d, cur[i] if
# i < S else next[i - S]; shuffle_up(prev, cur, d): i = l - d, cur[i] if i >= 0
# else prev[i + S]; vectors move whole.  Block read: lane l, element k gets
# p[l + k*S]; block write stores the same layout.
CASES = []
for S in (8, 16, 32):
    G = 64
    of, oi, ol, osh, och = [], [], [], [], []
    src = [(i * 2654435761) & 0xFFFFFFFF for i in range(16 * G)]
    usrc = [(i * 40503 + 7) & 0xFFFF for i in range(4 * G)]
    dst = [0] * (16 * G); udst = [0] * (4 * G)

    def vec(g):
        fg = float(g)
        return [fg, fg + 0.5, -fg, fg * 2, fg + 0.25, 3.0, -fg * 4, fg - 7, fg + 100, -1.0, fg * 0.125,
                fg + 9, 11 - fg, fg, fg * 8, -0.5]
    for g in range(G):
        l = g % S; b = g - l
        lane = lambda j: b + j
        of += vec(lane((l + 5) % S))[0:2]
        of += vec(lane(l ^ 3))[2:5]
        of += vec(lane(S - 1 - l))[4:8]
        of += vec(lane(l ^ 1))[0:8]
        of += vec(lane((l * 3) % S))
        cur = lambda j: lane(j) * 7
        nxt = lambda j: 100000 + lane(j)
        prv = lambda j: -1 - lane(j)
        i = l + 3
        d = cur(i) if i < S else nxt(i - S)
        i = l - 2
        u = cur(i) if i >= 0 else prv(i + S)
        oi += [d, u, cur(S - 1 - l), cur(l ^ 2)]
        lc = lambda j: lane(j) * 0x100000001
        ln = lambda j: -lane(j) * 77
        i = l + S - 1
        ol += [lc(i) if i < S else ln(i - S), wrap("ulong", ln(l))]
        sh = lambda j: wrap("short", lane(j) * 1001)
        osh += [sh((l + 1) % S), wrap("short", sh(l ^ 1))]
        ch = lambda j: wrap("char", lane(j) * 13)
        cn = lambda j: wrap("char", lane(j) * 5 + 1)
        i = l + 1
        och += [ch(i) if i < S else cn(i - S), cn(S - 1) if l == 0 else ch(l - 1)]
    for b in range(0, G, S):
        R = 16 * b
        for l in range(S):
            dst[R + l] = (src[R + l] + 1) & 0xFFFFFFFF
            a2 = [src[R + S + l + k * S] for k in range(2)]
            a4 = [src[R + 3 * S + l + k * S] for k in range(4)]
            a8 = [src[R + 7 * S + l + k * S] for k in range(8)]
            w2 = [a2[1], a2[0]]; w4 = a4[::-1]; w8 = a8[1:] + a8[:1]
            for k in range(2): dst[R + S + l + k * S] = w2[k]
            for k in range(4): dst[R + 3 * S + l + k * S] = w4[k]
            for k in range(8): dst[R + 7 * S + l + k * S] = w8[k]
            U = 4 * b
            udst[U + l] = usrc[U + l] ^ 0xFFFF
            b2 = [usrc[U + S + l + k * S] for k in range(2)]
            udst[U + S + l] = b2[1]; udst[U + 2 * S + l] = b2[0]
    CASES.append(dict(name="s%d" % S, subgroup_sizes=[S], global_size=(G,), local_size=(G,),
                      args=[Out("float", 33 * G, expect=of), Out("int", 4 * G, expect=oi),
                            Out("long", 2 * G, expect=ol), Out("short", 2 * G, expect=osh),
                            Out("char", 2 * G, expect=och), In("uint", src),
                            Out("uint", 16 * G, expect=dst), In("ushort", usrc),
                            Out("ushort", 4 * G, expect=udst)]))
std = "CL2.0"
