// Correct: a noinit scratch buffer written by every work-item before it is
// read back (by the same work-item).
kernel void ok_noinit_buffer(global int *scratch, global int *out) {
  int i = get_global_id(0);
  scratch[i] = i * 7;
  out[i] = scratch[i] + 1;
}
