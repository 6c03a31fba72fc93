// Correct: lane 0 publishes through local memory, and a subgroup collective
// (sub_group_reduce_add) between the write and the reads orders them.
kernel void ok_lockstep_collective(global const int *in, global int *out) {
  local int slot[4];
  int sg = get_sub_group_id();
  int x = in[get_global_id(0)];
  if (get_sub_group_local_id() == 0)
    slot[sg] = x * 10;
  int sum = sub_group_reduce_add(x);
  out[get_global_id(0)] = slot[sg] + sum;
}
