/* Intel shuffles down, up and xor whose delta is a kernel argument: the
 * same in every lane (the JIT builds the permute index in a register, and
 * takes the interpreter's handler for a delta out of range: past S for up
 * and down, S or more for xor). */
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void shuffle_delta(global const uint *in, global uint *out, uint d)
{
  size_t i = get_global_id(0);
  uint cur = in[i], prev = cur + 1000u, next = cur + 2000u;
  out[3 * i] = intel_sub_group_shuffle_down(cur, next, d);
  out[3 * i + 1] = intel_sub_group_shuffle_up(prev, cur, d);
  out[3 * i + 2] = intel_sub_group_shuffle_xor(cur, d & (get_sub_group_size() - 1u));
}
