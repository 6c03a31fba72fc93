// Correct: atomics against atomics never race, in local memory and across
// work-groups in global memory.
kernel void ok_atomics(global int *total, global int *out) {
  local int count;
  if (get_local_id(0) == 0) count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&count, 1);
  atomic_add(total, (int)get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = count;
}
