// A tree reduction whose loop clang unrolls at -O2 (a constant start): nine
// work-group barriers at the top level with an `if (lid < s)` between each
// two, divergent within a subgroup once s is below its size.  The JIT runs
// each then-block if-converted and resumes every subgroup after each
// barrier; a resume zeroes only the then-blocks' values that some path from
// it reaches before the next barrier.
kernel void tree_unrolled(global const uint *in, global uint *out, global uint *mx)
{
  local uint tmp[256], big[256];
  uint lid = get_local_id(0);
  uint v = in[get_global_id(0)];
  tmp[lid] = v;
  big[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 128; s > 0; s >>= 1) {
    if (lid < s) {
      tmp[lid] += tmp[lid + s];
      big[lid] = max(big[lid], big[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    out[get_group_id(0)] = tmp[0];
    mx[get_group_id(0)] = big[0];
  }
}
