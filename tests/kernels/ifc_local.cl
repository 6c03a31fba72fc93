/* If-converted then-blocks (the JIT's ifc_local_plan): values only
 * lane-local instructions of the block read (written for every lane, no
 * blend), one that leaves the block through a phi (blended), and a
 * then-block inside a loop whose lanes change from one iteration to the
 * next. */
kernel void ifc_local(global const uint *in, global uint *out, global uint *out2, global uint *out3)
{
  size_t i = get_global_id(0);
  uint l = get_sub_group_local_id();
  uint x = in[i];
  uint y = 7u;
  if (x & 1u) {
    uint a = x * 3u + l;
    uint b = a ^ 0x55u;
    out[i] = b;
    y = b + 1u;
  }
  out2[i] = y;
  for (uint k = 0; k < 3u; k++) {
    if ((x >> (k + 1u)) & 1u) {
      uint t = x * (k + 2u) + l;
      out3[i * 3u + k] = t >> 1;
    }
  }
}
