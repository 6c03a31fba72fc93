// Lockstep assumption: neighbouring lanes swap values through global memory.
kernel void lockstep_global_swap(global int *buf, global int *out) {
  int g = get_global_id(0);
  buf[g] = g + 100;                                // @W
  out[g] = buf[g ^ 1];                             // @R
}
