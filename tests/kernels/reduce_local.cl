// Work-group tree reduction in local memory with barriers (sum and max).
kernel void reduce_local(global const int *in, global int *sums, global int *maxs)
{
  local int s[64], m[64];
  int lid = get_local_id(0), n = get_local_size(0);
  int v = in[get_global_id(0)];
  s[lid] = v; m[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = n / 2; off > 0; off >>= 1) {
    if (lid < off) {
      s[lid] += s[lid + off];
      m[lid] = max(m[lid], m[lid + off]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) { sums[get_group_id(0)] = s[0]; maxs[get_group_id(0)] = m[0]; }
}
