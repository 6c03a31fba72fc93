/* Plain form of scan.cl: one work-item scans a chunk of 256 (NDRange n/256). */
kernel void scan(global const uint *in, global uint *out)
{
  size_t base = get_global_id(0) * 256;
  uint p = 0;
  for (int j = 0; j < 256; j++) {
    p += in[base + j];
    out[base + j] = p;
  }
}
