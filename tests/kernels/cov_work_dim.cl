// get_work_dim and the sizes of every dimension, launched with 1, 2 and 3
// dimensions through --global (run files always launch 3-D).
kernel void cov_work_dim(global uint *out) {
  uint d = get_work_dim();
  size_t i = get_global_linear_id();
  out[i * 8 + 0] = d;
  for (uint k = 0; k < 3; k++) {
    out[i * 8 + 1 + k] = (uint)get_global_size(k);
    out[i * 8 + 4 + k] = (uint)get_local_size(k);
  }
  // (a dynamic index >= 3 would be OpVectorExtractDynamic out of range with
  // llvm-spirv-15: undefined, so not tested)
  out[i * 8 + 7] = 100u * (uint)get_num_groups(d - 1) + (uint)get_enqueued_local_size(d - 1);
}
