// Images through run files: read_imagef on UNORM_INT8 RGBA / BGRA and FLOAT
// RGBA, read_imageui on UNSIGNED_INT16 RG, write_imagef to UNORM_INT8 RGBA,
// UNORM_INT16 R and FLOAT RGBA (sampler-less reads, integer coordinates).
kernel void cov_images(read_only image2d_t a, read_only image2d_t bgra,
                       read_only image2d_t f, read_only image2d_t u,
                       write_only image2d_t wa, write_only image2d_t w16,
                       write_only image2d_t wf,
                       global float4 *of, global uint4 *ou, global int *dims) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * get_image_width(a) + x;
  int2 c = (int2)(x, y);
  float4 va = read_imagef(a, c);
  of[i * 3 + 0] = va;
  of[i * 3 + 1] = read_imagef(bgra, c);
  float4 vf = read_imagef(f, c);
  of[i * 3 + 2] = vf;
  ou[i] = read_imageui(u, c);
  write_imagef(wa, c, va.wzyx);
  write_imagef(w16, c, (float4)((float)(x + y) / 7.0f, 0.0f, 0.0f, 1.0f));
  write_imagef(wf, c, vf * 2.0f + (float4)(0.25f));
  if (i == 0) {
    dims[0] = get_image_width(wa);
    dims[1] = get_image_height(wa);
    dims[2] = get_image_channel_order(u);
    dims[3] = get_image_channel_data_type(u);
  }
}
