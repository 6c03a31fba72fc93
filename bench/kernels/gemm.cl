/* GEMM tile, C = A * B (n x n): a subgroup computes a 16x16 tile of C, lane
 * l one column; rows of A and B come in with intel_sub_group_block_read and
 * A's elements are broadcast with intel_sub_group_shuffle.
 * NDRange (n, n/16). */
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void gemm(global const float *A, global const float *B, global float *C, uint n)
{
  uint l = get_sub_group_local_id();
  size_t col0 = get_global_id(0) - l, row0 = get_global_id(1) * 16;
  float acc[16];
  for (int r = 0; r < 16; r++)
    acc[r] = 0.0f;
  for (uint k0 = 0; k0 < n; k0 += 16) {
    float a[16];
    for (int r = 0; r < 16; r++)
      a[r] = as_float(intel_sub_group_block_read((global const uint *)(A + (row0 + r) * n + k0)));
    for (uint kk = 0; kk < 16; kk++) {
      float b = as_float(intel_sub_group_block_read((global const uint *)(B + (k0 + kk) * n + col0)));
      for (int r = 0; r < 16; r++)
        acc[r] += intel_sub_group_shuffle(a[r], kk) * b;
    }
  }
  for (int r = 0; r < 16; r++)
    C[(row0 + r) * n + col0 + l] = acc[r];
}
