/* A private array the JIT promotes (promo_access), indexed by a value the
 * same in every lane (u = sel[0]): one range test of lane 0's index, then a
 * row of the array; the access chains are computed only on the slow path
 * (promo_skip_chain).  A huge u is a fault on every lane: loads give 0,
 * the store is dropped, as without promotion. */
kernel void promoted_uniform(global int *out, global const int *sel)
{
  size_t i = get_global_id(0);
  size_t g = get_global_size(0);
  int a[8];
  for (int k = 0; k < 8; k++)
    a[k] = 10 * k + (int)i;
  int u = sel[0];
  a[u & 7] += 1000;
  out[i] = a[u & 7] + a[(u + 1) & 7];
  a[u] = sel[1];
  out[g + i] = a[u + sel[2]];   /* sel[2] = 0: not forwarded from the store */
}
