// cl_khr_subgroup_shuffle / _shuffle_relative / _clustered_reduce /
// cl_khr_subgroup_rotate on every type.  Ops whose sources could be missing
// lanes are guarded so the source lanes always exist (no UB), except
// shuffle_up/down in uniform flow, whose out-of-range lanes are not checked.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ID(v) (v)
#define NS 10
#define SHUF(o, X, CV, T)                                                  \
  do {                                                                     \
    T r;                                                                   \
    o[0] = CV(sub_group_shuffle(X, (lane * 7u + 3u) % n));                 \
    r = X; if ((lane ^ 1u) < n) r = sub_group_shuffle_xor(X, 1u); o[1] = CV(r); \
    r = X; if ((lane ^ 5u) < n) r = sub_group_shuffle_xor(X, 5u); o[2] = CV(r); \
    o[3] = CV(sub_group_shuffle_up(X, 1u));                                \
    o[4] = CV(sub_group_shuffle_down(X, 2u));                              \
    r = X; if (S >= 2) r = sub_group_clustered_reduce_add(X, 2); o[5] = CV(r); \
    r = X; if (S >= 4) r = sub_group_clustered_reduce_max(X, 4); o[6] = CV(r); \
    r = X; if (S >= 8) r = sub_group_clustered_reduce_min(X, 8); o[7] = CV(r); \
    r = X; if (n == S) r = sub_group_rotate(X, 3); o[8] = CV(r);           \
    r = X; if (n % 4 == 0) r = sub_group_clustered_rotate(X, 1, 4); o[9] = CV(r); \
  } while (0)

kernel void sg_shuffle(global const float *fin, global const double *din, global const ushort *hin,
                       global char *oc, global short *os, global int *oi, global long *ol,
                       global ulong *oul, global float *of, global double *od, global ushort *oh,
                       global int *oci) {
  uint lid = get_local_id(0);
  uint lane = get_sub_group_local_id(), n = get_sub_group_size(), S = get_max_sub_group_size();
  size_t g = get_global_id(0);
  uint raw = lid * 2654435761u + (uint)get_group_id(0) * 40503u;
  ulong raw64 = ((ulong)raw << 32) ^ ((ulong)raw * 3u);
  size_t a = g * NS;
  SHUF((oc + a), (char)raw, ID, char);
  SHUF((os + a), (short)raw, ID, short);
  SHUF((oi + a), (int)raw, ID, int);
  SHUF((ol + a), (long)raw64, ID, long);
  SHUF((oul + a), raw64, ID, ulong);
  SHUF((of + a), fin[g], ID, float);
  SHUF((od + a), din[g], ID, double);
  SHUF((oh + a), as_half(hin[g]), as_ushort, half);
  // int-only clustered ops, cluster 4 (needs S >= 4)
  global int *q = oci + g * 6;
  int x = (int)raw;
  if (S >= 4) {
    q[0] = sub_group_clustered_reduce_and(x, 4);
    q[1] = sub_group_clustered_reduce_or(x, 4);
    q[2] = sub_group_clustered_reduce_xor(x, 4);
    q[3] = sub_group_clustered_reduce_mul(x, 4);
    q[4] = sub_group_clustered_reduce_logical_and(x & 0x10, 4);
    q[5] = sub_group_clustered_reduce_logical_xor(x & 0x10, 4);
  }
}
