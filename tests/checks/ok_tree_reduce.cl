// Correct: the classic tree reduction in local memory, a barrier per step.
kernel void ok_tree_reduce(global const int *in, global int *out) {
  local int tmp[64];
  int lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
