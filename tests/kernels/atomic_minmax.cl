// atomic_min / atomic_max (signed, unsigned, 64-bit) and atomic_xchg, which
// the JIT compiles inline: each lane's own element (one vector
// read-modify-write), one element for every lane (lane by lane), and local
// memory.  The old values returned for the lanes' own elements are the
// initial ones; the shared elements end at the minimum / maximum.
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void atomic_minmax(global const int *x, global int *smax, global uint *umin, global int *xch,
                          global int *old, global int *shared, global long *l64, global int *lres)
{
  local int lm[2];
  size_t i = get_global_id(0);
  int lid = get_local_id(0);
  if (lid == 0) { lm[0] = -2147483647 - 1; lm[1] = 2147483647; }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = x[i];
  old[3 * i + 0] = atomic_max(&smax[i], v);
  old[3 * i + 1] = (int)atomic_min(&umin[i], (uint)v);
  old[3 * i + 2] = atomic_xchg(&xch[i], v * 3);
  atomic_max(&shared[0], v);
  atomic_min(&shared[1], v);
  atomic_max((global uint *)&shared[2], (uint)v);
  atomic_min((global uint *)&shared[3], (uint)v);
  atom_max(&l64[0], (long)v * 1000000007L);
  atom_min(&l64[1], (long)v * 1000000007L);
  atomic_max(&lm[0], v);
  atomic_min(&lm[1], v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) { lres[2 * get_group_id(0)] = lm[0]; lres[2 * get_group_id(0) + 1] = lm[1]; }
}
