// Data race: work-items read a neighbour's slot of local memory with no
// barrier after the writes; the neighbour (lid + 16) is in another subgroup.
kernel void race_local_nobarrier(global int *out) {
  local int tmp[64];
  int lid = get_local_id(0);
  tmp[lid] = lid;                                  // @W
  out[get_global_id(0)] = tmp[(lid + 16) % 64];    // @R
}
