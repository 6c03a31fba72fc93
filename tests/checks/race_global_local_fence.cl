// Data race: work-items exchange values through a global buffer, but the
// barrier fences local memory only.
kernel void race_global_local_fence(global int *buf, global int *out) {
  int g = get_global_id(0), lid = get_local_id(0);
  buf[g] = g * 2;                                  // @W
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = buf[get_group_id(0) * 64 + (lid + 32) % 64];   // @R
}
