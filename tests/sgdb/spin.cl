__kernel void spin(__global int *out, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i ^ (int)get_sub_group_local_id();
  out[get_global_id(0)] = s;
}
