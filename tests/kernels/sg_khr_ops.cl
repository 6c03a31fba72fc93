// cl_khr_subgroups (+ extended types, fp16, fp64) collectives in uniform
// control flow, every type, on values derived from the local id; work-item
// queries.  One launch, one output buffer per type (NOPS values per item).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define NOPS 11
#define ID(v) (v)
#define OPS(o, x, CV)                                          \
  do {                                                         \
    o[0] = CV(sub_group_reduce_add(x));                        \
    o[1] = CV(sub_group_reduce_min(x));                        \
    o[2] = CV(sub_group_reduce_max(x));                        \
    o[3] = CV(sub_group_scan_inclusive_add(x));                \
    o[4] = CV(sub_group_scan_inclusive_min(x));                \
    o[5] = CV(sub_group_scan_inclusive_max(x));                \
    o[6] = CV(sub_group_scan_exclusive_add(x));                \
    o[7] = CV(sub_group_scan_exclusive_min(x));                \
    o[8] = CV(sub_group_scan_exclusive_max(x));                \
    o[9] = CV(sub_group_broadcast(x, get_sub_group_size() - 1)); \
    o[10] = CV(sub_group_broadcast(x, 0));                     \
  } while (0)

kernel void sg_khr_ops(global const float *fin, global const double *din, global const ushort *hin,
                       global char *oc, global uchar *ouc, global short *os, global ushort *ous,
                       global int *oi, global uint *oui, global long *ol, global ulong *oul,
                       global float *of, global double *od, global ushort *oh, global int *info) {
  uint lid = get_local_id(0);
  size_t g = get_global_id(0);
  uint raw = lid * 2654435761u + (uint)get_group_id(0) * 40503u;
  ulong raw64 = ((ulong)raw << 32) ^ ((ulong)raw * 3u);
  size_t b = g * NOPS;
  OPS((oc + b), (char)raw, ID);
  OPS((ouc + b), (uchar)raw, ID);
  OPS((os + b), (short)raw, ID);
  OPS((ous + b), (ushort)raw, ID);
  OPS((oi + b), (int)raw, ID);
  OPS((oui + b), raw, ID);
  OPS((ol + b), (long)raw64, ID);
  OPS((oul + b), raw64, ID);
  OPS((of + b), fin[g], ID);
  OPS((od + b), din[g], ID);
  OPS((oh + b), as_half(hin[g]), as_ushort);
  global int *q = info + g * 9;
  q[0] = get_sub_group_size();
  q[1] = get_max_sub_group_size();
  q[2] = get_num_sub_groups();
  q[3] = get_enqueued_num_sub_groups();
  q[4] = get_sub_group_id();
  q[5] = get_sub_group_local_id();
  q[6] = sub_group_all((int)(raw & 7) != 0);
  q[7] = sub_group_any((raw & 31) == 3);
  q[8] = sub_group_all(lid < 1000);
}
