/* Double-precision Horner evaluation: 64 steps of y = y * x + 0.5 per
 * work-item, x from the input.  No subgroup operations (its own plain form).
 * Its lane values are 64-bit: at subgroup size 16 each fills 128 bytes,
 * which the JIT keeps in two vector registers (docs/semantics.md, JIT, wide
 * lane values).  FP_CONTRACT OFF: every backend and the C reference round
 * the product and the sum separately, so the outputs match exactly. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
kernel void horner(global const uint *in, global double *out)
{
  size_t i = get_global_id(0);
  double x = (double)(in[i] & 1023) * (1.0 / 1024), y = 0;
  for (int k = 0; k < 64; k++)
    y = y * x + 0.5;
  out[i] = y;
}
