// Uninitialized value stored to global memory: v is set on no path taken.
kernel void uninit_store_global(global const float *in, global float *out) {
  float v;
  int g = get_global_id(0);
  if (in[g] < 0.0f) v = in[g];
  out[g] = v;                                      // @U
}
