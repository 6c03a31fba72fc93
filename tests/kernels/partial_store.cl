/* Stores by some lanes of a subgroup: the JIT's partial-store paths (one
 * store per set bit of the mask when few lanes store, a test per lane when
 * many), one lane, a few, most, only lanes 64 and up (the second mask word
 * of a 128-lane subgroup) and a data-dependent set. */
kernel void partial_store(global const uint *in, global uint *out)
{
  size_t i = get_global_id(0);
  uint l = get_sub_group_local_id();
  size_t n = get_global_size(0);
  uint x = in[i];
  if (l == 0) out[i] = x + 1u;
  if (l % 7u == 3u) out[n + i] = x + 2u;
  if (l % 3u != 0u) out[2 * n + i] = x + 3u;
  if (l >= 64u) out[3 * n + i] = x + 4u;
  if (x % 5u == 1u) out[4 * n + i] = x + 5u;
}
