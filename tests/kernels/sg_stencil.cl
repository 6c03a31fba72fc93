// 1D stencils with the two-input Intel shuffles: each subgroup owns S
// consecutive elements; prev/next are the neighbouring subgroups' chunks.
// in has a halo of 32 elements on each side.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#pragma OPENCL EXTENSION cl_intel_subgroups_short : enable
kernel void sg_stencil(global const int *in, global int *out3, global int *out5,
                       global short *outs) {
  size_t g = get_global_id(0);
  uint S = get_max_sub_group_size();
  global const int *x = in + 32 + g;
  int prev = x[-(int)S], cur = x[0], next = x[S];
  int l1 = intel_sub_group_shuffle_up(prev, cur, 1u);
  int r1 = intel_sub_group_shuffle_down(cur, next, 1u);
  out3[g] = l1 - 2 * cur + r1;
  int l2 = intel_sub_group_shuffle_up(prev, cur, 2u);
  int r2 = intel_sub_group_shuffle_down(cur, next, 2u);
  int r3 = intel_sub_group_shuffle_down(cur, next, 3u);
  out5[g] = l2 + 2 * l1 + 4 * cur + 2 * r1 + r2 - r3;
  short sp = (short)prev, sc = (short)cur, sn = (short)next;
  outs[g] = (short)(intel_sub_group_shuffle_up(sp, sc, 1u) + intel_sub_group_shuffle_down(sc, sn, 1u));
}
