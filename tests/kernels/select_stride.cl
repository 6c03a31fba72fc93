/* Selects between two values of the same lane stride (the JIT's
 * emit_select_uniform): an index i - k or i + n - k, and a pointer in or
 * in + 3.  Whether the condition is the same in every lane of a subgroup
 * depends on k and the subgroup size: both the uniform and the mixed case
 * must give the interpreter's values. */
kernel void select_stride(global const uint *in, global uint *out, global uint *out2, uint k, uint n)
{
  size_t i = get_global_id(0);
  size_t j = i >= k ? i - k : i + n - k;
  out[i] = in[j] * 3u + (i < k ? 1000u : 0u);
  global const uint *p = ((i / 24u) & 1u) ? in + 3 : in;
  out2[i] = p[i] + 1u;
}
