# *p = g_arr[1] = 42, g_arr[0] = 7 (work-item 0 then adds the 9 it stored),
# c_tab[i % 3], p == &g_arr[1].  One work-group of 4.
n = 4
expect = []
for i in range(n):
    expect += [42, 7 + (9 if i == 0 else 0), [100, 200, 300][i % 3], 1]
std = "CL2.0"
global_size = (n,); local_size = (n,)
args = [Out("int", 4 * n, expect=expect)]
