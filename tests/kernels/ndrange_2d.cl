// 2D NDRange: every work-item query, written per work-item.
int get_local_linear_id_1x(void) { return get_local_id(1) * get_local_size(0) + get_local_id(0); }
kernel void ndrange_2d(global int *out)
{
  int x = get_global_id(0), y = get_global_id(1);
  int w = get_global_size(0);
  global int *o = out + 10 * (y * w + x);
  o[0] = x; o[1] = y;
  o[2] = get_local_id(0); o[3] = get_local_id(1);
  o[4] = get_group_id(0); o[5] = get_group_id(1);
  o[6] = get_num_groups(0) * 100 + get_num_groups(1);
  o[7] = get_local_size(0) * 100 + get_local_size(1);
  o[8] = get_work_dim();
  o[9] = get_global_size(1) * 1000 + get_local_linear_id_1x();
}
