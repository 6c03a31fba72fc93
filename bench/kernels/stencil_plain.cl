/* Plain form of stencil.cl (same end rule). */
kernel void stencil(global const uint *in, global uint *out, uint n)
{
  size_t i = get_global_id(0);
  uint left = i > 0 ? in[i - 1] : in[15];
  uint right = i + 1 < n ? in[i + 1] : in[n - 16];
  out[i] = left + 2u * in[i] + right;
}
