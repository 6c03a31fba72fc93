/* Range-check windows (the JIT's mem_fast_window): consecutive accesses
 * whose region changes from subgroup to subgroup (two input and two output
 * buffers chosen by the subgroup id), a local array every work-group walks,
 * and a byte offset on the input that shifts every read by one element (the
 * last subgroup then reads past the end) or misaligns it: the faults must
 * be the interpreter's. */
kernel void windows(global const uint *a, global const uint *b, global uint *out1, global uint *out2, uint off)
{
  local uint tmp[64];
  volatile local uint *t = tmp;   /* kept in memory: a local window */
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  uint sg = get_sub_group_id();
  global const uint *p = (sg & 1u) ? b : a;
  global const uint *q = (global const uint *)((global const uchar *)p + off);
  t[l] = q[i] + 1u;
  global uint *o = (sg % 3u == 0u) ? out1 : out2;
  o[i] = t[l] * 3u;
}
