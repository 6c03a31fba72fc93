// Accesses in divergent blocks whose addresses have a lane stride among the
// lanes that run them (the loader's ld_uni_lane_stride_in): clang computes
// &a[lid] inside the `if`, as a + (lid & 0xffffffff) from a uint index, and
// the JIT then tests only the active lanes' two ends and moves them with one
// masked vector access.  The masks are data-dependent (some lanes of every
// subgroup), and a bounds guard whose inactive lanes address past the
// buffers' ends (no fault for them); with lim past the ends, active lanes
// fault.  Global and local memory.
kernel void div_affine(global const uint *in, global uint *acc, global uint *out, global uint *lout, uint lim)
{
  local uint lh[32];
  uint lid = get_local_id(0);
  uint gid = get_global_id(0);
  size_t base = get_group_id(0) * 32;   /* the work-group's slice */
  uint v = in[gid];
  lh[gid & 31] = gid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (v & 2)
    lh[gid & 31] += 1000u;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint r = lh[gid & 31];
  if (v & 1)
    (acc + base)[lid] += v;
  if (gid < lim)
    (out + base)[lid] = v * 3u;
  if (gid < lim)
    (lout + base)[lid] = r;
}
