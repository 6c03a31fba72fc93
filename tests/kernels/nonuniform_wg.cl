// OpenCL 2.0 non-uniform work-groups: the global size is not a multiple of
// the local size; the last group is smaller (get_local_size vs
// get_enqueued_local_size), and a local reduction still works.
kernel void nonuniform_wg(global const int *in, global int *info, global int *sums)
{
  local int s[16];
  int gid = get_global_id(0), lid = get_local_id(0), n = get_local_size(0);
  info[3*gid+0] = n;
  info[3*gid+1] = get_enqueued_local_size(0);
  info[3*gid+2] = get_num_groups(0);
  s[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    int t = 0;
    for (int k = 0; k < n; k++) t += s[k];
    sums[get_group_id(0)] = t;
  }
}
