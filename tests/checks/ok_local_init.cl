// Correct: every local slot is written before the barrier and read after.
kernel void ok_local_init(global int *out) {
  local int tmp[64];
  int lid = get_local_id(0);
  tmp[lid] = lid * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[63 - lid];
}
