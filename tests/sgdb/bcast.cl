__kernel void bcast(__global const int *in, __global int *out)
{
  int i = get_global_id(0);
  int v = in[i];
  if (v > 0)
    v = sub_group_broadcast(v, 0);
  out[i] = v;
}
