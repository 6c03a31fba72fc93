// Correct: a barrier with a global fence orders the exchange through global
// memory inside the work-group.
kernel void ok_barrier_global(global int *buf, global int *out) {
  int g = get_global_id(0), lid = get_local_id(0);
  buf[g] = g * 2;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = buf[get_group_id(0) * 64 + (lid + 32) % 64];
}
