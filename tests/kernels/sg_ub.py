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
for c in CASES:
    c.setdefault("global_size", (16,)); c.setdefault("local_size", (16,))
    c["name"] = c["kernel"][3:]
std = "CL2.0"
