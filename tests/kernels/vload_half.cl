// vload_half / vstore_half with each rounding mode, vload_half4, and
// vstorea_halfN: float <-> half bits without cl_khr_fp16.
kernel void vload_half(global const float *f, global const half *h, global float *rf, global half *rh)
{
  int i = get_global_id(0);
  float x = f[i];
  rf[5*i+0] = vload_half(i, h);
  float4 v = vload_half4(i, h + 64);
  rf[5*i+1] = v.x; rf[5*i+2] = v.y; rf[5*i+3] = v.z; rf[5*i+4] = v.w;
  vstore_half(x, 5*i+0, rh);
  vstore_half_rte(x, 5*i+1, rh);
  vstore_half_rtz(x, 5*i+2, rh);
  vstore_half_rtp(x, 5*i+3, rh);
  vstore_half_rtn(x, 5*i+4, rh);
}
