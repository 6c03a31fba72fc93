/* Histogram with local atomics: 256 bins of a multiplicative hash, counted
 * per work-group (work-group size 256) in local memory, then added to the
 * global bins.  No subgroup operations: also its own plain form. */
kernel void hist(global const uint *in, global uint *bins)
{
  local uint lh[256];
  uint lid = get_local_id(0);
  lh[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x = in[get_global_id(0)];
  atomic_inc(&lh[(x * 2654435761u) >> 24]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lh[lid])
    atomic_add(&bins[lid], lh[lid]);
}
