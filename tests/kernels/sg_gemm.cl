// GEMM C = A * B with one subgroup of T lanes per T x T tile of C (T = 8 or
// 16, -DT=...): lane l keeps column l of the tile; A's rows are fetched with
// intel_sub_group_block_read (lane l gets A[r][k0 + l]) and broadcast with
// intel_sub_group_shuffle; B's rows with block reads too.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(T)))
kernel void sg_gemm(global const float *A, global const float *B, global float *C,
                    int K, int N) {
  uint l = get_sub_group_local_id();
  int col0 = get_group_id(0) * T, row0 = get_group_id(1) * T;
  float acc[T];
  for (int r = 0; r < T; r++)
    acc[r] = 0.0f;
  for (int k0 = 0; k0 < K; k0 += T) {
    float a[T];
    for (int r = 0; r < T; r++)
      a[r] = as_float(intel_sub_group_block_read((global const uint *)(A + (row0 + r) * K + k0)));
    for (int kk = 0; kk < T; kk++) {
      float b = as_float(intel_sub_group_block_read((global const uint *)(B + (k0 + kk) * N + col0)));
      for (int r = 0; r < T; r++)
        acc[r] += intel_sub_group_shuffle(a[r], (uint)kk) * b;
    }
  }
  for (int r = 0; r < T; r++)
    C[(row0 + r) * N + col0 + l] = acc[r];
}
