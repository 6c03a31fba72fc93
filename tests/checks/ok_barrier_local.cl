// Correct: a work-group barrier with a local fence orders the writes before
// the reads of other subgroups' slots.
kernel void ok_barrier_local(global int *out) {
  local int tmp[64];
  int lid = get_local_id(0);
  tmp[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[(lid + 16) % 64];
}
