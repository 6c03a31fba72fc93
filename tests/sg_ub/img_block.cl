// cl_intel_subgroups image block write: x (in bytes) must be a multiple of 4.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void img_block(write_only image2d_t img, int x) {
  uint l = get_sub_group_local_id();
  intel_sub_group_block_write(img, (int2)(x, 0), 100u + l);
}
