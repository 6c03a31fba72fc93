// Program-scope variables (OpenCL C 2.0): a global array with an
// initializer, a global pointer initialized with the address of one of its
// elements, a constant table, and a global counter the kernel updates.
global int g_arr[] = {7, 42};
global int *p = &g_arr[1];
constant int c_tab[3] = {100, 200, 300};
global int counter;

kernel void program_scope_vars(global int *out)
{
  size_t i = get_global_id(0);
  out[4 * i + 0] = *p;
  out[4 * i + 1] = g_arr[0];
  out[4 * i + 2] = c_tab[i % 3];
  atomic_add(&counter, 1);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[4 * i + 3] = p == &g_arr[1];
  if (i == 0) g_arr[0] = 9;      // visible to later reads of work-item 0 only
  if (i == 0) out[4 * i + 1] += g_arr[0];
}
