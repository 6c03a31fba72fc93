// Data race: the barrier fences global memory only, so the local writes are
// not ordered before the reads of another subgroup's slots.
kernel void race_local_wrong_fence(global int *out) {
  local int tmp[64];
  int lid = get_local_id(0);
  tmp[lid] = lid * 3;                              // @W
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[63 - lid];           // @R
}
