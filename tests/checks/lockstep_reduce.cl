// Lockstep assumption: the warp-synchronous reduction.  After the barrier,
// each step reads what other lanes of the same subgroup wrote in the step
// before, with nothing between (docs/semantics.md, "Detectors").
kernel void lockstep_reduce(global const int *in, global int *out) {
  local int tmp[64];
  int lid = get_local_id(0), sl = get_sub_group_local_id();
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sl < 8) tmp[lid] += tmp[lid + 8];            // @S1
  if (sl < 4) tmp[lid] += tmp[lid + 4];            // @S2
  if (sl < 2) tmp[lid] += tmp[lid + 2];            // @S3
  if (sl < 1) tmp[lid] += tmp[lid + 1];            // @S4
  if (sl == 0) out[get_group_id(0) * 4 + get_sub_group_id()] = tmp[lid];
}
