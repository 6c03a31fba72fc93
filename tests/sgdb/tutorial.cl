__kernel void sum_odd(__global const int *in, __global int *out)
{
  int x = in[get_global_id(0)];
  int v = 0;
  if (get_sub_group_local_id() % 2 == 1) {
    v = x;
  }
  int s = sub_group_reduce_add(v);
  if (get_sub_group_local_id() == 0)
    out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;
}
