/* Tile transpose with shuffles: a subgroup holds a 16x16 tile, lane l one
 * column (v[r] = in[y0+r][x0+l]); 16 rotating intel_sub_group_shuffle steps
 * hand every lane a row of the transposed tile.  NDRange (w, w/16). */
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void transpose(global const float *in, global float *out, uint w)
{
  uint l = get_sub_group_local_id();
  size_t x0 = get_global_id(0) - l, y0 = get_global_id(1) * 16;
  float v[16];
  for (int r = 0; r < 16; r++)
    v[r] = in[(y0 + r) * w + x0 + l];
  for (uint k = 0; k < 16; k++) {
    uint s = (l - k) & 15u;
    float t = intel_sub_group_shuffle(v[(l + k) & 15u], s);
    out[(x0 + s) * w + y0 + l] = t;
  }
}
