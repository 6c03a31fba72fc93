// cl_khr_subgroups / non_uniform_arithmetic / ballot / shuffle / rotate as
// programs use them; subgroup size fixed at 16.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_collectives(global const int *in, global const float *fin, global int *out,
                           global float *fout) {
  size_t g = get_global_id(0);
  uint l = get_sub_group_local_id();
  int x = in[g];
  global int *o = out + g * 12;
  o[0] = sub_group_reduce_add(x);
  o[1] = sub_group_scan_inclusive_max(x);
  o[2] = sub_group_scan_exclusive_add(x);
  o[3] = sub_group_broadcast(x, 5);
  o[4] = sub_group_all(x > -1000) + 2 * sub_group_any(x == 7);
  o[5] = sub_group_shuffle_xor(x, 3);
  o[6] = sub_group_clustered_reduce_min(x, 4);
  o[7] = sub_group_rotate(x, 6);
  uint4 b = sub_group_ballot((x & 1) != 0);
  o[8] = (int)b.x;
  o[9] = (int)sub_group_ballot_inclusive_scan(b);
  // non-uniform: only odd lanes take part
  int r = -1;
  if (l & 1) r = sub_group_non_uniform_reduce_add(x);
  o[10] = r;
  o[11] = sub_group_non_uniform_scan_inclusive_mul(l < 8 ? 2 : 1);
  fout[g] = sub_group_scan_inclusive_add(fin[g]);
}
