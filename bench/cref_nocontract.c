/* cref_nocontract.c - the benchmark kernels whose products and sums are
 * rounded separately, as their OpenCL C asks (FP_CONTRACT OFF), so that the
 * outputs compare exactly: compiled with -ffp-contract=off (GCC's default
 * for C contracts a * b + c into an FMA). */
#include <stddef.h>
#include <stdint.h>

/* In blocks of 16 elements, the Horner steps over the block's lanes
 * innermost: GCC vectorizes that (two zmm chains).  The plain loop over
 * elements with the steps inside stays scalar at -O3 when n is not a
 * constant (85 ms at 1M elements against 6.4 ms).  n: a multiple of 16. */
void k_horner(size_t n, const uint32_t *in, double *out);
__attribute__((noinline)) void k_horner(size_t n, const uint32_t *in, double *out)
{
  for (size_t i = 0; i < n; i += 16) {
    double x[16], y[16];
    for (int l = 0; l < 16; l++) {
      x[l] = (double)(in[i + l] & 1023) * (1.0 / 1024);
      y[l] = 0;
    }
    for (int k = 0; k < 64; k++)
      for (int l = 0; l < 16; l++)
        y[l] = y[l] * x[l] + 0.5;
    for (int l = 0; l < 16; l++)
      out[i + l] = y[l];
  }
}
