// OpenCL 2.0 work-group collectives (they meet across subgroups), in 1D with
// partial subgroups and non-uniform work-groups, and 2D broadcast.
#define NW 11
#define WG(o, x, T)                                               \
  do {                                                            \
    o[0] = work_group_reduce_add(x);                              \
    o[1] = work_group_reduce_min(x);                              \
    o[2] = work_group_reduce_max(x);                              \
    o[3] = work_group_scan_inclusive_add(x);                      \
    o[4] = work_group_scan_inclusive_min(x);                      \
    o[5] = work_group_scan_inclusive_max(x);                      \
    o[6] = work_group_scan_exclusive_add(x);                      \
    o[7] = work_group_scan_exclusive_min(x);                      \
    o[8] = work_group_scan_exclusive_max(x);                      \
    o[9] = work_group_broadcast(x, get_local_size(0) - 1);        \
    o[10] = work_group_broadcast(x, (size_t)3);                   \
  } while (0)

kernel void sg_workgroup(global const float *fin, global int *oi, global uint *oui,
                         global long *ol, global float *of, global double *od, global int *ov) {
  uint lid = get_local_id(0);
  size_t g = get_global_id(0);
  uint raw = lid * 2654435761u + (uint)get_group_id(0) * 40503u;
  size_t b = g * NW;
  WG((oi + b), (int)raw, int);
  WG((oui + b), raw, uint);
  WG((ol + b), (long)raw * 12345L, long);
  WG((of + b), fin[g], float);
  WG((od + b), (double)fin[g] * 0.1, double);
  ov[g * 3 + 0] = work_group_all((raw & 7) != 0);
  ov[g * 3 + 1] = work_group_any((raw & 63) == 9);
  ov[g * 3 + 2] = work_group_all(lid < 4096);
}

kernel void sg_workgroup2d(global int *out) {
  size_t x = get_local_id(0), y = get_local_id(1);
  int v = (int)(x * 100 + y * 7 + get_group_id(0) * 1000);
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[i * 3 + 0] = work_group_broadcast(v, (size_t)3, (size_t)2);
  out[i * 3 + 1] = work_group_reduce_max(v);
  out[i * 3 + 2] = work_group_scan_inclusive_add(1);
}
