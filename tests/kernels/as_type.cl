// as_T reinterpretation between same-size types (scalars and vectors).
kernel void as_type(global const float *f, global const uint *u, global uint *r, global float *rf, global ushort *rs)
{
  int i = get_global_id(0);
  r[3*i+0] = as_uint(f[i]);
  r[3*i+1] = as_uint(-f[i]);
  uchar4 b = as_uchar4(u[i]);
  r[3*i+2] = as_uint(b.wzyx);
  rf[i] = as_float(u[i] & 0x807FFFFFu | 0x3F800000u);
  ushort2 h = as_ushort2(f[i]);
  rs[2*i+0] = h.x;
  rs[2*i+1] = h.y;
}
