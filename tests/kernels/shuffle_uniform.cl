/* intel_sub_group_shuffle with an index that is the same in every lane (a
 * kernel argument, a constant): the JIT reads the source lane once and
 * broadcasts it (emit_intel_shuffle), for scalars, vectors and 64-bit
 * values; an index >= the subgroup size is undefined behaviour, diagnosed,
 * and reads 0 (docs/semantics.md), as the interpreter has it. */
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void shuffle_uniform(global const int *in, global int *out, global int4 *out4, global long *outl, uint k)
{
  size_t i = get_global_id(0);
  int x = in[i] * 3 + 1;
  out[i] = intel_sub_group_shuffle(x, k);
  int4 v = (int4)(x, x + 1, x * 2, -x);
  out4[i] = intel_sub_group_shuffle(v, k ^ 1u);
  long y = ((long)x << 33) - 7;
  outl[i] = intel_sub_group_shuffle(y, 2u);
}
