# Each case: the diagnostic kind that docs/semantics.md names for it, exit 0
# (--ub=warn), and where the doc fixes the value (0 for a bad lane read;
# first active lane's id for a non-uniform broadcast id), that value.
def ids(n=16):
    return list(range(n))
CASES = [
    dict(kernel="ub_shuffle_oor", diag=["index out of range"],
         args=[Out("int", 16, expect=[0] * 16)]),
    dict(kernel="ub_shuffle_inactive", diag=["inactive lane"],
         args=[Out("int", 16, expect=[-1 if l % 2 == 0 else 0 for l in ids()])]),
    dict(kernel="ub_intel_shuffle_oor", diag=["index out of range"],
         args=[Out("int", 16, expect=[(31 - l) + 100 if 31 - l < 16 else 0 for l in ids()])]),
    dict(kernel="ub_broadcast_nonuniform", diag=["non-uniform"],
         args=[Out("int", 16, expect=[100] * 16)]),
    dict(kernel="ub_partial_reduce", diag=["collective in divergent code"],
         args=[Out("int", 16, expect=[303 if l < 3 else -1 for l in ids()])]),
    dict(kernel="ub_partial_barrier", diag=["collective in divergent code"],
         args=[Out("int", 16, expect=ids())]),
    dict(kernel="ub_partial_block_read", diag=["collective in divergent code"],
         args=[Out("int", 16, expect=[1000 + l if l < 3 else -1 for l in ids()]),
               In("uint", [1000 + i for i in range(16)])]),
    dict(kernel="ub_block_partial_subgroup", diag=["partial subgroup"], global_size=(20,), local_size=(20,),
         args=[Out("int", 20, expect=[1000 + i for i in range(20)]),
               In("uint", [1000 + i for i in range(32)])]),
    dict(kernel="ub_block_write_misaligned", diag=["misaligned block"],
         args=[Out("int", 16), InOut("uint", [0] * 20)]),
    dict(kernel="ub_cluster_size", diag=["bad cluster size"],
         args=[Out("int", 16, expect=[120] * 16)]),
]
# ub_wg_partial: in[i] = i + 1; per work-group g (base b = 32 g) the sum over
# local ids 0..19 except 5 of (b + lid + 1), the broadcast of local id 2, and
# buf = in[0..7] copied by the async copy.
def wg_partial_expect():
    out = [0] * 64
    for g in range(2):
        b = 32 * g
        red = sum(b + lid + 1 for lid in range(20) if lid != 5)
        for lid in range(20):
            out[b + lid] = (0 if lid == 5 else red) + (b + 3) + (lid % 8) + 1
    return out
CASES.append(dict(kernel="ub_wg_partial", global_size=(64,), local_size=(32,), subgroup_sizes=[8], exit=1,
                  diag=["finished without reaching it", "not reached by every work-item",
                        "reached by 3 of 4 subgroups"],
                  args=[Out("int", 64, expect=wg_partial_expect()), In("int", list(range(1, 65)))]))
# barriers: 2 where the work-item ran to the end, 0 where it returned early
CASES.append(dict(kernel="ub_barrier_finished", global_size=(64,), local_size=(32,), subgroup_sizes=[8], exit=1,
                  diag=["work-group barrier reached by 3 of 4 subgroups"],
                  args=[Out("int", 64, expect=[2 if i % 32 < 24 else 0 for i in range(64)])]))
CASES.append(dict(kernel="ub_barrier_divergent", global_size=(64,), local_size=(32,), subgroup_sizes=[8], exit=1,
                  diag=["work-group barrier not reached by every work-item of the subgroup",
                        "subgroup barrier not reached by every lane"],
                  args=[Out("int", 64, expect=[0 if i % 32 in (9, 30) else 2 for i in range(64)])]))
for c in CASES:
    c.setdefault("global_size", (16,)); c.setdefault("local_size", (16,))
    c["name"] = c["kernel"][3:]
std = "CL2.0"
