// cl_intel_subgroups: shuffles with two sources and buffer block I/O.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void intel_subgroups(global uint *src, global uint *dst, global int *out) {
  size_t g = get_global_id(0);
  uint l = get_sub_group_local_id();
  size_t base = g - l;
  int cur = (int)(g * 3), nxt = (int)(1000 + g);
  out[4 * g + 0] = intel_sub_group_shuffle_down(cur, nxt, 5u);
  out[4 * g + 1] = intel_sub_group_shuffle_up(nxt, cur, 3u);
  out[4 * g + 2] = intel_sub_group_shuffle(cur, 15u - l);
  float2 f = (float2)((float)l, (float)(2 * l));
  float2 s = intel_sub_group_shuffle_xor(f, 1u);
  out[4 * g + 3] = (int)(s.x * 100 + s.y);
  // block read 2 uints per lane from this subgroup's 32-uint slice, write them back swapped
  uint2 v = intel_sub_group_block_read2(src + 2 * base);
  intel_sub_group_block_write2(dst + 2 * base, (uint2)(v.y, v.x));
}
