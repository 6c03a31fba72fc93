/* Plain form of reduce.cl: one work-item per 16 inputs (NDRange n/16). */
kernel void reduce(global const uint *in, global uint *out)
{
  size_t g = get_global_id(0);
  uint s = 0;
  for (int j = 0; j < 16; j++)
    s += in[g * 16 + j];
  out[g] = s;
}
