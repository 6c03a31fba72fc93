// Subgroup reductions, scans and clustered reductions that the JIT folds
// inline (jit_emit_subgroup.c: emit_group_fold): min, max, mul, and, or,
// xor on signed, unsigned and 64-bit integers, min, max and mul on floats
// (zeros of both signs, NaN), clusters of 4, whole subgroups and a
// divergent branch (odd lanes).
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_clustered_reduce : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_fold(global const int *a, global const float *f, global const long *l, global int *r,
                    global float *rf, global long *rl)
{
  size_t i = get_global_id(0);
  int x = a[i];
  float y = f[i];
  long z = l[i];
  global int *o = r + 12 * i;
  o[0] = sub_group_reduce_min(x);
  o[1] = sub_group_reduce_max(x);
  o[2] = (int)sub_group_reduce_min((uint)x);
  o[3] = sub_group_scan_inclusive_max(x);
  o[4] = sub_group_scan_exclusive_min(x);
  o[5] = sub_group_non_uniform_reduce_mul(x);
  o[6] = sub_group_non_uniform_reduce_and(x);
  o[7] = sub_group_non_uniform_scan_inclusive_or(x);
  o[8] = sub_group_non_uniform_scan_exclusive_xor(x);
  o[9] = sub_group_clustered_reduce_min(x, 4);
  o[10] = sub_group_clustered_reduce_add(x, 4);
  o[11] = (i & 1) ? sub_group_non_uniform_reduce_max(x) : sub_group_non_uniform_scan_inclusive_min(x);
  global float *p = rf + 6 * i;
  p[0] = sub_group_reduce_min(y);
  p[1] = sub_group_reduce_max(y);
  p[2] = sub_group_scan_exclusive_max(y);
  p[3] = sub_group_non_uniform_reduce_mul(y);
  p[4] = sub_group_clustered_reduce_max(y, 4);
  p[5] = sub_group_scan_inclusive_min(y);
  global long *q = rl + 3 * i;
  q[0] = sub_group_reduce_min(z);
  q[1] = (long)sub_group_reduce_max((ulong)z);
  q[2] = sub_group_non_uniform_scan_inclusive_xor(z);
}
// Subgroups of 12 lanes (subgroup_sizes = [12]): clusters of 8 leave a
// partial last cluster, lanes 8 to 11.
kernel void sg_fold12(global const int *a, global int *r)
{
  size_t i = get_global_id(0);
  int x = a[i];
  r[3 * i + 0] = sub_group_clustered_reduce_add(x, 8);
  r[3 * i + 1] = sub_group_clustered_reduce_max(x, 8);
  r[3 * i + 2] = sub_group_clustered_reduce_min(x, 4);
}
