// OpenCL 2.0 generic address space: one function, called with global,
// local and private pointers; to_global/to_local/to_private casts.
__attribute__((noinline)) void bump(int *p, int by) { *p += by; }
__attribute__((noinline)) int where(int *p)
{
  if (to_global(p)) return 1;
  if (to_local(p)) return 2;
  if (to_private(p)) return 3;
  return 0;
}
kernel void generic_ptr(global int *g, global int *kinds)
{
  local int l[4];
  int lid = get_local_id(0), gid = get_global_id(0);
  int p = gid * 10;
  l[lid] = 100 + lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  bump(&g[gid], 5);
  bump(&l[lid], gid);
  bump(&p, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  g[gid] += l[lid] + p;
  kinds[3*gid+0] = where(&g[gid]);
  kinds[3*gid+1] = where(&l[lid]);
  kinds[3*gid+2] = where(&p);
}
