// Private arrays the JIT keeps in vector locals (promoted private arrays,
// docs/semantics.md): a[] and b[] are indexed by a value read from memory,
// so they stay arrays; a uniform index (k, the loop counter) and a
// per-lane one (idx[i]).  An index past the lane's private memory is a
// fault that yields 0, exactly as without promotion.
kernel void promoted_private(global int *out, global const int *idx)
{
  size_t i = get_global_id(0);
  int a[8], b[8];
  for (int k = 0; k < 8; k++) {
    a[k] = 10 * k + (int)i;
    b[k] = 100 + k;
  }
  int n = idx[i];
  int s = 0;
  for (int k = 0; k < (idx[0] & 7); k++)   /* uniform index */
    s += a[k] * b[k];
  out[i] = a[n & 7] + s;                      /* per-lane index, in range */
  int m = (n & 64) ? n : (n & 7);
  out[32 + i] = b[m];                         /* far out of range: fault, 0 */
}
