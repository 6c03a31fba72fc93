// Global work offset: get_global_id includes it, get_global_offset reports
// it; buffers are indexed relative to the offset.
kernel void global_offset(global int *out)
{
  int x = get_global_id(0), y = get_global_id(1);
  int ox = get_global_offset(0), oy = get_global_offset(1);
  int w = get_global_size(0);
  global int *o = out + 4 * ((y - oy) * w + (x - ox));
  o[0] = x; o[1] = y; o[2] = ox * 1000 + oy; o[3] = get_group_id(0) * 10 + get_group_id(1);
}
