/* Uniform collectives whose results do not depend on the subgroup size:
 * spirv-sgconform check gives a clean report. */
__kernel void clean(__global const int *in, __global int *out)
{
  size_t i = get_global_id(0);
  int first = in[0];
  int m = sub_group_reduce_max(first);
  int all = sub_group_all(in[i] > 0);
  out[i] = in[i] + m + all;
}
