// Accesses whose lanes step by a known stride, under an `if`: the JIT tests
// only the two ends of the lanes that may be active (their first and last
// addresses) and takes the per-lane path when an end fails.  Lanes past
// `lim` are inactive and their addresses lie past the buffers' ends (no
// fault may be reported for them); with lim past the buffers (second case)
// active lanes fault.  Strides 4 (out, cnt), -4 (rev) and 8 (odd lanes'
// pairs), in whole subgroups (work-groups of 32).
kernel void affine_ends(global const int *in, global int *out, global int *rev, global int *pairs,
                        global int *cnt, uint lim)
{
  size_t i = get_global_id(0);
  if (i < lim) {
    out[i] = in[i] * 3;
    atomic_add(&cnt[i], (int)i);
    rev[lim - 1 - i] = in[i] + 7;
  }
  if ((i & 1) & (i < lim))   /* one branch (&& would nest two) */
    pairs[i / 2 * 2] = in[i] - 1;
}
