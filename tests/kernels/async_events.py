# in[i] = 100 + i.  ae_ok: a[l] + b[15-l] = (100+l) + (116+15-l) = 231 with no
# report.  The others: the report named; values are what the runs must agree
# on where the copy is complete (never_waited / invalid / wait_divergent: the
# copy is done at the call, so out = in[l]).
n = 16
xs = [100 + i for i in range(2 * n)]
ones = [1] * n
same = [100 + l for l in range(n)]
CASES = [
    dict(kernel="ae_ok", args=[In("int", xs), Out("int", n, expect=[231] * n)]),
    dict(kernel="ae_partial", exit=1, diag=["async_work_group_copy not reached by every work-item"],
         args=[In("int", xs), Out("int", n, expect=ones)]),
    dict(kernel="ae_loop", exit=1, diag=["async_work_group_copy not reached by every work-item"],
         args=[In("int", xs), Out("int", n, expect=ones)]),
    dict(kernel="ae_single", exit=1, diag=["async_work_group_copy not reached by every work-item",
                                           "reached by 1 of 2 subgroups"],
         args=[In("int", xs), Out("int", n, expect=ones)]),
    dict(kernel="ae_never_waited", exit=1, diag=["never waited for"],
         args=[In("int", xs), Out("int", n, expect=same)]),
    dict(kernel="ae_invalid", exit=1, diag=["wait_group_events on an invalid event"],
         args=[In("int", xs), Out("int", n, expect=same)]),
    dict(kernel="ae_wait_divergent", exit=1, diag=["wait_group_events not reached by every work-item"],
         args=[In("int", xs), Out("int", n, expect=same)]),
]
for c in CASES:
    c["name"] = c["kernel"][3:]
global_size = (n,); local_size = (n,)
subgroup_sizes = [8]
