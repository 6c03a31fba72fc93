// 3-component vectors: float3 in a buffer takes 16 bytes (4th is padding),
// vload3/vstore3 read/write packed triples; swizzles on vec3.
kernel void vec3_loadstore(global const float3 *a, global const float *packed,
                           global float3 *r, global float *pout)
{
  int i = get_global_id(0);
  float3 v = a[i];
  float3 p = vload3(i, packed);
  r[i] = v.zxy + p;                       /* padding lane of r is not written */
  vstore3(p.yzx * 2.0f - v, i, pout);
}
