// From the differential fuzzer (tests/fuzz/kgen.py, campaign seed 101454,
// reduced by hand): three OpenCL.std select calls (clang -O2 unrolls the
// loop; the JIT runs each through the interpreter's handler) after a
// uniform branch whose phi makes `a`, with a whole and a partial subgroup.
// At session 16's head the JIT gave the first select 1 as its condition in
// lanes 12..15: GCC 12 (libgccjit) stored the lower half of the
// condition's lane array into both halves of its frame copy before the
// handler call (-fno-tree-fre or -fno-tree-loop-vectorize avoided it).
// Later code changes compile this kernel correctly; the test keeps it so.
kernel void remat_select_extinst(global const uint *in, global const float *inf, global uint *out, uint m)
{
  size_t gid = get_global_id(0);
  uint grp = get_group_id(0);
  uint sl = get_sub_group_local_id();
  uint a = m;
  uint s = 0;
  if (fmax(inf[grp], 3.0f) == 0.5f)
    a = in[grp];
  for (uint i = 0; i < 3u; i++)
    s -= select(a, s, (uint)(sl < 12u)) + 1u;
  out[gid * 8] = a;
  out[gid * 8 + 3] ^= m;
  out[gid * 8 + 6] = s;
  out[gid * 8 + 7] = a;
}
