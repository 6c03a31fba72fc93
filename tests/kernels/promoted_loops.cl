/* Private arrays indexed by loop counters, as in bench/kernels/gemm.cl: the
 * JIT bounds a counter from its loop's branch (a phi whose back edge is
 * taken only while r < 15 carries r + 1) and then accesses the promoted
 * array (docs/semantics.md) and shuffles by the counter with no test.  At
 * -O2 clang keeps the kk and r loops rolled.  A counter compared with a
 * kernel argument has no such bound: with n > 1000000, a[1000000] is far
 * past the lane's private memory, a fault that reads 0, exactly as without
 * promotion. */
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void promoted_loops(global const int *in, global int *out, uint n)
{
  size_t i = get_global_id(0);
  int acc[16], a[16];
  for (int r = 0; r < 16; r++)
    acc[r] = r;
  for (uint t = 0; t < 2; t++) {
    for (int r = 0; r < 16; r++)
      a[r] = in[i * 16 + r] + (int)t;
    for (uint kk = 0; kk < 16; kk++) {
      int b = intel_sub_group_shuffle(a[kk], kk);
      for (int r = 0; r < 16; r++)
        acc[r] += a[r] * b + (int)kk;
    }
  }
  for (int r = 0; r != 16; r++)
    out[i * 17 + r] = acc[r];
  int s = 0;
  for (uint r = 0; r < n; r += 1000000u)
    s += a[r];
  out[i * 17 + 16] = s;
}
