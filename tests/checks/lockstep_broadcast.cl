// Lockstep assumption: lane 0 publishes a value in local memory and the other
// lanes of its subgroup read it at once.
kernel void lockstep_broadcast(global const int *in, global int *out) {
  local int slot[4];
  int sg = get_sub_group_id();
  if (get_sub_group_local_id() == 0)
    slot[sg] = in[get_global_id(0)] * 10;          // @W
  out[get_global_id(0)] = slot[sg] + 1;            // @R
}
