// Correct: the warp-synchronous reduction with sub_group_barrier between its
// steps.
kernel void ok_lockstep_barrier(global const int *in, global int *out) {
  local int tmp[64];
  int lid = get_local_id(0), sl = get_sub_group_local_id();
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sl < 8) tmp[lid] += tmp[lid + 8];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (sl < 4) tmp[lid] += tmp[lid + 4];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (sl < 2) tmp[lid] += tmp[lid + 2];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (sl < 1) tmp[lid] += tmp[lid + 1];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (sl == 0) out[get_group_id(0) * 4 + get_sub_group_id()] = tmp[lid];
}
