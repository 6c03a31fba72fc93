__kernel void scan(__global const int *in, __global int *out)
{
  int x = in[get_global_id(0)];
  int s = sub_group_scan_inclusive_add(x);
  out[get_global_id(0)] = s;
}
