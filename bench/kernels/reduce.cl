/* Subgroup reduction: out[s] = sum of the 16 inputs of subgroup s. */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void reduce(global const uint *in, global uint *out)
{
  size_t i = get_global_id(0);
  uint s = sub_group_reduce_add(in[i]);
  if (get_sub_group_local_id() == 0)
    out[i / 16] = s;
}
