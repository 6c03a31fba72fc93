/* Writes one element past the end of out for the last work-item. */
__kernel void oob(__global int *out, int n)
{
  int i = (int)get_global_id(0);
  out[i + 1] = i;
}
