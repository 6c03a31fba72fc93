// Values and phis around work-group barriers in a convergent kernel: every
// subgroup suspends at each barrier and resumes at the segment after it
// (the JIT's direct resume: mask[] and pred[] set as at a first start).
// After the first barrier a uniform branch merges two values in a phi,
// after the second a uniform loop carries one; both read values made
// before the barriers (a loaded int, the local id) and local memory that
// other subgroups wrote.
kernel void resume_phi(global const int *in, global int *out, int n)
{
  local int t[64];
  uint l = get_local_id(0);
  size_t i = get_global_id(0);
  int v = in[i];
  t[l] = v * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  int r;
  if (n > 3)
    r = t[63 - l] + (int)l;
  else
    r = v - (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < n; k++)
    r = r * 3 + k + v;
  out[i] = r;
}
