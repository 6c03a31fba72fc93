// A __local pointer kernel argument (size given by the run file), used as
// scratch for a group-wide prefix sum (Hillis-Steele, double buffered).
kernel void local_arg(global const int *in, global int *out, local int *scratch)
{
  int lid = get_local_id(0), n = get_local_size(0);
  local int *a = scratch, *b = scratch + n;
  a[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < n; off <<= 1) {
    b[lid] = a[lid] + (lid >= off ? a[lid - off] : 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *t = a; a = b; b = t;
  }
  out[get_global_id(0)] = a[lid];
}
