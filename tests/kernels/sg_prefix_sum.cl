// Work-group inclusive prefix sum: sub_group_scan_inclusive_add inside each
// subgroup, the subgroup totals scanned by subgroup 0 in chunks of the
// subgroup size with a carry, then added back.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sg_prefix_sum(global const int *in, global int *out, local int *sums) {
  size_t g = get_global_id(0);
  uint sg = get_sub_group_id(), nsg = get_num_sub_groups();
  uint lane = get_sub_group_local_id(), n = get_sub_group_size();
  int inc = sub_group_scan_inclusive_add(in[g]);
  if (lane == n - 1)
    sums[sg] = inc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sg == 0) {
    int carry = 0;
    for (uint base = 0; base < nsg; base += n) {
      uint i = base + lane;
      int v = i < nsg ? sums[i] : 0;
      int e = sub_group_scan_exclusive_add(v) + carry;
      carry += sub_group_reduce_add(v);
      if (i < nsg)
        sums[i] = e;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = inc + sums[sg];
}
