// Uninitialized global memory: the run file declares `scratch` noinit and
// only even work-items write their slot before every work-item reads its own.
kernel void uninit_noinit_buffer(global int *scratch, global int *out) {
  int i = get_global_id(0);
  if (i % 2 == 0) scratch[i] = i * 7;
  out[i] = scratch[i];                             // @U
}
