/* Plain form of gemm.cl: one work-item per element of C, NDRange (n, n). */
kernel void gemm(global const float *A, global const float *B, global float *C, uint n)
{
  size_t col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (uint k = 0; k < n; k++)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
