// Pointers into every address space passed to non-inlined functions.
constant int ctab[4] = {10, 20, 30, 40};
__attribute__((noinline)) int sum_g(global const int *p, int n) { int s = 0; for (int k = 0; k < n; k++) s += p[k]; return s; }
__attribute__((noinline)) int sum_l(local const int *p, int n) { int s = 0; for (int k = 0; k < n; k++) s += p[k]; return s; }
__attribute__((noinline)) int sum_p(private const int *p, int n) { int s = 0; for (int k = 0; k < n; k++) s += p[k]; return s; }
__attribute__((noinline)) int sum_c(constant const int *p, int n) { int s = 0; for (int k = 0; k < n; k++) s += p[k]; return s; }
kernel void addrspace_ptrs(global const int *in, constant int *cin, global int *out)
{
  local int lbuf[8];
  int lid = get_local_id(0), gid = get_global_id(0);
  lbuf[lid] = in[gid] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  int priv[3] = {gid, gid + 1, in[gid]};
  out[5*gid+0] = sum_g(in + gid, 2);
  out[5*gid+1] = sum_l(lbuf, lid + 1);
  out[5*gid+2] = sum_p(priv, 3);
  out[5*gid+3] = sum_c(ctab, (gid & 3) + 1);
  out[5*gid+4] = sum_c(cin + lid, 1);
}
