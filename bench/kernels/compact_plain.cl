/* Plain form of compact.cl: one work-item per 16 inputs (NDRange n/16). */
kernel void compact(global const uint *in, global uint *out, global uint *counts)
{
  size_t g = get_global_id(0);
  uint c = 0;
  for (int j = 0; j < 16; j++) {
    uint x = in[g * 16 + j];
    if (((x * 2654435761u) >> 16) & 1u)
      out[g * 16 + c++] = x;
  }
  counts[g] = c;
}
