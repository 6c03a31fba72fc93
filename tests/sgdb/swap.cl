__kernel void swap(__global const int *in, __global int *out)
{
  int x = in[get_global_id(0)] * 10;
  int y = sub_group_shuffle_xor(x, 1);
  out[get_global_id(0)] = y;
}
