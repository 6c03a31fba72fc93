// Uninitialized value decides a branch: x is set only for work-items that
// do not exist.
kernel void uninit_branch(global int *out) {
  int x;
  int i = get_global_id(0);
  if (i > 1000) x = 5;
  if (x > 3)                                       // @U
    out[i] = 1;
}
