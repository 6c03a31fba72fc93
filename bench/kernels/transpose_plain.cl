/* Plain form of transpose.cl: NDRange (w, w). */
kernel void transpose(global const float *in, global float *out, uint w)
{
  size_t x = get_global_id(0), y = get_global_id(1);
  out[x * w + y] = in[y * w + x];
}
