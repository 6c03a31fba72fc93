# Work-groups of 32 (two subgroups of 16): groups 0 and 2 reach OpUnreachable
# (fault, exit 1; nothing stored), groups 1, 3, 4, 5 store x + 5.
N = 192
X = [(7 * i + 3) & 0xffffffff for i in range(N)]
global_size = (N,); local_size = (32,)
subgroup_sizes = [16]
exit = 1
diag = ["unreachable"]
stderr = ["work-group (2,0,0), subgroup 1, lanes 0-15"]
args = [In("uint", X), Out("uint", N, expect=[0 if (i // 32) in (0, 2) else X[i] + 5 for i in range(N)])]
