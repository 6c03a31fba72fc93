// Uninitialized value forms an address: idx[3] is never written.
kernel void uninit_index(global const int *in, global int *out) {
  int idx[4];
  for (int k = 0; k < 3; k++) idx[k] = k;
  int g = get_global_id(0);
  out[g] = in[idx[3] & 15];                        // @U
}
