# Expected from the definitions: the guarded lanes (i < n, or odd x[i])
# write, the others keep their first value; a reduction covers exactly the lanes of
# the subgroup (16 consecutive work-items) that take the block.
G, L, S = 256, 64, 16
n = 200                       # subgroups 0..11 whole, 12 (192..207) partial, 13..15 none
X = [f32(0.25 * k - 7.0) for k in range(G)]
y = [f32(2.0 * X[i] + 1.0) if i < n else 0.0 for i in range(G)]
r = []
for i in range(G):
    sg = range(i // S * S, i // S * S + S)
    r.append((sum(k for k in sg if k < n) + i % S) & 0xffffffff if i < n else 0)
# odd values: whole subgroups (0, 3), mixed (1, 4..), none (2)
V = []
for k in range(G):
    b = k // S
    V.append((2 * k + 1) if b in (0, 3, 9) else (2 * k) if b in (2, 7) else (k * 2654435761 >> 7) & 0xffff)
Y0 = [(7 * k + 5) & 0xffff for k in range(G)]
yd, rd = [], []
for i in range(G):
    sg = range(i // S * S, i // S * S + S)
    act = [k for k in sg if V[k] & 1]
    if V[i] & 1:
        yd.append((Y0[i] * 2 + V[i] * 3 + i) & 0xffffffff)
        rd.append(len(act) * 100 + max(V[k] for k in act))
    else:
        yd.append(Y0[i]); rd.append(0)
CASES = [
    dict(name="guard", kernel="ifc_guard", global_size=(G,), local_size=(L,),
         args=[In("float", X), Out("float", G, expect=y), Out("uint", G, expect=r), Scalar("uint", n)]),
    dict(name="data", kernel="ifc_data", global_size=(G,), local_size=(L,),
         args=[In("uint", V), InOut("uint", Y0, expect=yd), Out("uint", G, expect=rd)]),
    dict(name="data_lanes", kernel="ifc_data", global_size=(G,), local_size=(L,),
         env={"SPIRV_SG_JIT_NO_MASKED_VEC": "1"},
         args=[In("uint", V), InOut("uint", Y0, expect=yd), Out("uint", G, expect=rd)]),
    dict(name="guard_nocopy", kernel="ifc_guard", global_size=(G,), local_size=(L,),
         env={"SPIRV_SG_JIT_NO_IFC_FULL": "1"},
         args=[In("float", X), Out("float", G, expect=y), Out("uint", G, expect=r), Scalar("uint", n)]),
]
