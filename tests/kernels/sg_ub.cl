// One kernel per kind of subgroup undefined behaviour (docs/semantics.md,
// "Subgroup operations"); each must be diagnosed, the run still exits 0 under
// the default --ub=warn (tests/sg_ub_test.py checks --ub=error exits 1).
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#define SG __attribute__((intel_reqd_sub_group_size(16)))

SG kernel void ub_shuffle_oor(global int *out) {        // index >= S
  uint l = get_sub_group_local_id();
  out[get_global_id(0)] = sub_group_shuffle((int)l + 100, l + 16u);
}
SG kernel void ub_shuffle_inactive(global int *out) {   // source lane not active
  uint l = get_sub_group_local_id();
  int r = -1;
  if (l & 1)
    r = sub_group_shuffle((int)l + 100, l ^ 1u);
  out[get_global_id(0)] = r;
}
SG kernel void ub_intel_shuffle_oor(global int *out) {  // cl_intel: index >= S
  uint l = get_sub_group_local_id();
  out[get_global_id(0)] = intel_sub_group_shuffle((int)l + 100, 31u - l);
}
SG kernel void ub_broadcast_nonuniform(global int *out) { // id differs between lanes
  uint l = get_sub_group_local_id();
  out[get_global_id(0)] = sub_group_broadcast((int)l + 100, l & 1u);
}
SG kernel void ub_partial_reduce(global int *out) {     // uniform collective in divergent code
  uint l = get_sub_group_local_id();
  int r = -1;
  if (l < 3)
    r = sub_group_reduce_add((int)l + 100);
  out[get_global_id(0)] = r;
}
SG kernel void ub_partial_barrier(global int *out) {
  uint l = get_sub_group_local_id();
  out[get_global_id(0)] = (int)l;
  if (l < 3)
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
}
SG kernel void ub_partial_block_read(global int *out, global const uint *p) {
  uint l = get_sub_group_local_id();
  int r = -1;
  if (l < 3)
    r = (int)intel_sub_group_block_read(p);
  out[get_global_id(0)] = r;
}
SG kernel void ub_block_partial_subgroup(global int *out, global const uint *p) {
  // launched with local size 20: the second subgroup has 4 lanes
  out[get_global_id(0)] = (int)intel_sub_group_block_read(p + 16 * get_sub_group_id());
}
SG kernel void ub_block_write_misaligned(global int *out, global uint *p) {
  uint l = get_sub_group_local_id();
  intel_sub_group_block_write(p + 1, l);   // p is 16-byte aligned, p + 1 is not
  out[get_global_id(0)] = 0;
}
SG kernel void ub_cluster_size(global int *out) {
  uint l = get_sub_group_local_id();
  out[get_global_id(0)] = sub_group_clustered_reduce_add((int)l, 3);
}
