// Operands that must be the same in every lane, read from memory through
// each lane's own address, so that the uniformity analysis cannot prove
// them uniform and the JIT tests them at run time (lane0_value and
// or_lane_diff): the id of sub_group_broadcast, the delta of
// sub_group_rotate and the pointer of intel_sub_group_block_read.  Equal in
// every lane (first case): the inline paths; different (second case): the
// interpreter's handlers, which report the non-uniform operands as the
// interpreter does.
#pragma OPENCL EXTENSION cl_khr_subgroup_rotate : enable
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void uniform_runtime(global const int *x, global const uint *k, global const uint *blk, global int *out)
{
  size_t i = get_global_id(0);
  uint kk = k[i];
  out[4 * i] = sub_group_broadcast(x[i], kk);
  out[4 * i + 1] = sub_group_rotate(x[i], kk);
  out[4 * i + 2] = (int)intel_sub_group_block_read(blk + 16 * kk);
  out[4 * i + 3] = (int)kk;
}
