__kernel void inv(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  uint4 v = read_imageui(src, p);
  write_imageui(dst, p, (uint4)(255) - v);
}
