# Expected values and diagnostics of wg_faults.cl (local size 32, subgroups
# of 8, two work-groups); every case faults, so exit 1.
CASES = []
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
    c["name"] = c["kernel"][3:]
std = "CL2.0"
