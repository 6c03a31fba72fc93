// Work-group barriers and collectives left by some work-items: the
// interpreter's faults (barrier divergence) and UB reports, which the JIT
// must reproduce exactly (docs/semantics.md, "Barriers and work-group
// collectives").  Each run faults (exit 1).
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
