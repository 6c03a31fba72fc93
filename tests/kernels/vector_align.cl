// Vector accesses need their component's alignment, not the vector's size
// (docs/semantics.md, "Memory"): int4 and ulong3 read through pointers one
// component past a 16- or 32-byte boundary are aligned accesses on every
// backend.  With bad != 0, work-item 0 also reads an int4 two bytes past an
// int boundary: a misaligned access, reported and performed.
kernel void vector_align(global const int *in, global int *out, global const ulong *lin,
                         global ulong *out3, global const uchar *bytes, global int *mis, uint bad)
{
  size_t i = get_global_id(0);
  int4 v = *(global const int4 *)(in + 1 + 4 * i);
  *(global int4 *)(out + 3 + 4 * i) = v + (int4)(1, 2, 3, 4);
  ulong3 w = *(global const ulong3 *)(lin + 1 + 4 * i);
  out3[i] = w.x + 2 * w.y + 3 * w.z;
  if (bad && i == 0) {
    int4 m = *(global const int4 *)(bytes + 2);
    mis[0] = m.x ^ m.y ^ m.z ^ m.w;
  }
}
