/* Selects whose condition compares two lane-affine values (the JIT decides
 * "the same in every lane" from the two end lanes, cond_ends, and
 * recomputes the index and the address from it where they are read,
 * remat_plan).  That holds only while neither side wraps inside the
 * subgroup: base, sbase, m, ubase, lsbase and um put the wrap inside one, where the end
 * lanes agree and a middle lane does not. */
kernel void select_ends(global const uint *in, global uint *out1, global uint *out2, global uint *out3,
                        global uint *out4, global uint *out5, global uint *out6, uint base, int sbase,
                        uint m, ulong ubase, long lsbase, ulong um)
{
  size_t g = get_global_id(0);
  uint i = (uint)g;
  uint x = i + base;                        /* unsigned, stride 1 */
  out1[g] = in[x > 2u ? i : i + 1u];
  int y = (int)i + sbase;                   /* signed, stride 1 */
  out2[g] = in[y > 0x7ffffffe ? i + 2u : i];
  uint z = m - i;                           /* unsigned, stride -1 */
  out3[g] = in[z >= 3u ? i : i + 3u];
  ulong w = g + ubase;                      /* 64-bit */
  out4[g] = in[w > 2ul ? g : g + 1];
  long ly = (long)g + lsbase;               /* 64-bit signed */
  out5[g] = in[ly > 0x7ffffffffffffffeL ? g + 2 : g];
  ulong lz = um - g;                        /* 64-bit, stride -1 */
  out6[g] = in[lz >= 3ul ? g : g + 3];
}
