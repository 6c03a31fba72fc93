# s.b[0..1] = 2, 3; s.b[2] is s.c = 4 (inside s: no fault); s.b[3] is past s:
# fault, 0.  c_arr[i] + g_arr[i]: 8, 44, then two faulting reads each: 0.
std = "CL2.0"
global_size = (4,); local_size = (4,)
exit = 1
diag = ["private memory", "variable 'c_arr'", "variable 'g_arr'"]
args = [Out("int", 8, expect=[2, 3, 4, 0, 8, 44, 0, 0])]
