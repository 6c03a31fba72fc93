// Atomics in if-converted then-blocks whose active lanes address
// consecutive elements (the JIT's window test of a virtual lane 0: the first
// active lane's address less its lanes before, for the subgroup's whole
// span; a failed test falls back to the two-ends test and the per-lane
// path).  Local and global memory, data-dependent masks, an offset that
// moves the span past the buffer's end (an out-of-bounds fault when an
// active lane lands there) or before its start (lanes 0..2 then inactive).
kernel void ifc_atomic(global const uint *in, global uint *bins, global uint *lout, int off)
{
  local uint lh[64];
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  lh[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[gid];
  if (v & 1)
    atomic_add(&lh[lid], v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (v & 2)
    atomic_add(&bins[(int)lid + off], v);
  lout[gid] = lh[lid];
}
