// Data race: the first work-item of every work-group writes its group id to
// the same global word; nothing orders work-groups.
kernel void race_global_groups(global int *out) {
  if (get_local_id(0) == 0)
    out[0] = (int)get_group_id(0);                 // @W
}
