/* Correct code whose output depends on the subgroup size: a portability
 * hazard spirv-sgconform check reports per element. */
__kernel void sgsize(__global const int *in, __global int *out)
{
  size_t i = get_global_id(0);
  out[i] = sub_group_reduce_add(in[i]);
}
