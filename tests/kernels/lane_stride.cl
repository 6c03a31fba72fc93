/* Lane-affine addresses (the JIT's ld_uni_lane_stride fast path): a row
 * copy through the global id, one through the subgroup's base plus the
 * subgroup local id (x0 + l, uniform x0), a stride-2 access that is not
 * consecutive, and an index built in 32 bits that the analysis must not
 * trust.  Launched 1-D and 2-D with local x sizes that do and do not keep a
 * subgroup inside one row, and with an input short enough to fault. */
kernel void lane_stride(global const float *in, global float *out, uint w, int base)
{
  size_t x = get_global_id(0), y = get_global_id(1);
  uint l = get_sub_group_local_id();
  size_t x0 = x - l;
  size_t i = y * w + x;
  out[i] = in[i] * 2.0f + (float)l;                       /* stride 4 with linear x */
  out[4 * w * 8 + y * w + x0 + l] = in[y * w + x0 + l] + 1.0f;   /* stride 4 always */
  out[8 * w * 8 + 2 * i] = in[i];                         /* stride 8: not consecutive */
  int j = (int)x + base;                                  /* 32-bit index */
  out[8 * w * 8 + 2 * i + 1] = in[y * w + (size_t)(j - base)];
}
