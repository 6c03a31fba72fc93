// Uninitialized local memory stored to global memory: half the slots are
// never written.
kernel void uninit_local(global int *out) {
  local int tmp[64];
  int lid = get_local_id(0);
  if (lid < 32) tmp[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[63 - lid];           // @U
}
