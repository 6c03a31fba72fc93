// Values live across work-group barriers in different ways: one read after
// every barrier (a), one dead after the loop's first barrier in each
// iteration but read again after the loop (b), a loop-carried sum updated
// in an if-converted then-block between two barriers (acc), the work-item's
// global id kept as an affine value across all of them, and a subgroup
// reduction after the loop.  The JIT spills at a barrier only what is live
// after it and keeps affine values as one scalar per subgroup there.
kernel void barrier_live(global const uint *in, global uint *out)
{
  uint l = get_local_id(0);
  size_t i = get_global_id(0);
  local uint sh[64];
  uint a = in[i];
  uint b = a * 3u;
  uint acc = 0;
  for (uint k = 0; k < 4; k++) {
    sh[l] = a + k;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint x = sh[(l + 1 + k) & 63];
    if (x & 1)
      acc += x * b;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  uint c = sub_group_reduce_add(acc);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = acc + c + b + (uint)i;
}
