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
// Work-group collectives left by some work-items (local 32, subgroups of 8):
// work-items 20.. return (subgroup 3 finishes, subgroup 2 keeps 4 lanes) and
// local id 5 skips the reduction.  Missing work-items contribute the identity.
kernel void ub_wg_partial(global int *out, global const int *in) {
  local int buf[8];
  size_t i = get_global_id(0);
  int v = in[i];
  if (get_local_id(0) >= 20) return;
  int r = 0;
  if (get_local_id(0) != 5) r = work_group_reduce_add(v);
  event_t e = async_work_group_copy(buf, in, 8, 0);
  wait_group_events(1, &e);
  out[i] = r + work_group_broadcast(v, 2) + buf[get_local_id(0) & 7];
}
// Work-group barriers (local 32, subgroups of 8).  ub_barrier_finished:
// work-items 24.. return first, so subgroup 3 finishes while the others wait.
kernel void ub_barrier_finished(global int *out) {
  size_t i = get_global_id(0);
  if (get_local_id(0) >= 24) return;
  out[i] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[i] += 1;
}
// ub_barrier_divergent: local ids 9 and 30 return before the first barrier
// (not divergence: they have left); the second barrier is reached by local
// ids 0-3 only, the subgroup barrier by sub-group lanes 0-1 only.
kernel void ub_barrier_divergent(global int *out) {
  size_t i = get_global_id(0);
  uint l = get_local_id(0);
  if (l == 9 || l == 30) return;
  out[i] = 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (l < 4) barrier(CLK_GLOBAL_MEM_FENCE);
  out[i] += 1;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_sub_group_local_id() < 2) sub_group_barrier(CLK_LOCAL_MEM_FENCE);
}
