__kernel void total(__global const int *in, __global int *out, __local int *part)
{
  int s = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    part[get_sub_group_id()] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    int t = 0;
    for (uint i = 1; i < get_num_sub_groups(); i++)
      t += part[i];
    out[get_group_id(0)] = t;
  }
}
