/* 3-point stencil out[i] = left + 2*in[i] + right with two-input shuffles
 * (intel_sub_group_shuffle_up/down over this and the neighbouring 16-element
 * slice).  At the ends the neighbour slice is this one: left(0) = in[15],
 * right(n-1) = in[n-16]. */
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void stencil(global const uint *in, global uint *out, uint n)
{
  size_t i = get_global_id(0);
  uint cur = in[i];
  uint prev = in[i >= 16 ? i - 16 : i];
  uint next = in[i + 16 < n ? i + 16 : i];
  uint left = intel_sub_group_shuffle_up(prev, cur, 1u);
  uint right = intel_sub_group_shuffle_down(cur, next, 1u);
  out[i] = left + 2u * cur + right;
}
