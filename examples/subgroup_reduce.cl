/* One sum per subgroup: sub_group_reduce_add over the subgroup's inputs,
 * written by the subgroup's first lane. */
__kernel void subgroup_reduce(__global const int *in, __global int *sums,
                              __global uint *sizes)
{
  int s = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0) {
    size_t g = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
    sums[g] = s;
    sizes[g] = get_sub_group_size();
  }
}
