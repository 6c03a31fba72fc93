__kernel void halve(__global const int *in, __global int *out)
{
  int i = get_global_id(0);
  int x = in[i];
  int h = x >> 1;
  out[i] = h;
}
