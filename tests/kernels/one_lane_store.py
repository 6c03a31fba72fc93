# Sums of 16 consecutive inputs by lane 0 of each subgroup.  The _over
# kernel writes sum ^ i at out[s + 3] for subgroup s (first id i = 16 s);
# out has N / 16 elements, so the last 3 subgroups' stores fault (lane 0,
# named in the report), the others land.
N, L = 1024, 128
M = 0xffffffff
IN = rand_ints(N, 0, 2**32 - 1, seed=17)
SUMS = [sum(IN[16 * s:16 * s + 16]) & M for s in range(N // 16)]
OVER = [0, 0, 0] + [SUMS[s] ^ (16 * s) for s in range(N // 16 - 3)]
COUNTS = [sum((x >> 7) & 1 for x in IN[16 * s:16 * s + 16]) * 100 + 5 for s in range(N // 16)]
CASES = [
    dict(kernel="one_lane_count", global_size=(N,), local_size=(L,), subgroup_sizes=[16],
         args=[In("uint", IN), Out("uint", N // 16, expect=COUNTS)]),
    dict(kernel="one_lane_store", global_size=(N,), local_size=(L,), subgroup_sizes=[16],
         args=[In("uint", IN), Out("uint", N // 16, expect=SUMS)]),
    dict(kernel="one_lane_store_over", global_size=(N,), local_size=(L,), subgroup_sizes=[16], exit=1,
         diag=["out-of-bounds"], stderr=["work-group (7,0,0), subgroup 7, lanes 0, OpStore"],
         args=[In("uint", IN), Out("uint", N // 16, expect=OVER)]),
    # --stop-on-fault at -j 1: subgroup 2 of work-group 0 faults, nothing after it runs
    dict(kernel="one_lane_store_stop", global_size=(N,), local_size=(L,), subgroup_sizes=[16], exit=1,
         run_flags=["--stop-on-fault", "-j", "1"], diag=["out-of-bounds"],
         stderr=["work-group (0,0,0), subgroup 2, lanes 0, OpStore"],
         args=[In("uint", IN), Out("uint", N // 16, expect=SUMS[:2] + [0] * (N // 16 - 2)), Scalar("uint", 2)]),
]
std = "CL2.0"
