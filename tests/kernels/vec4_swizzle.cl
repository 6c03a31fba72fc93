// int4 swizzles: .wzyx, .xxyy, .lo/.hi/.even/.odd, .s3210, swizzle stores.
kernel void vec4_swizzle(global const int4 *a, global int4 *r)
{
  int i = get_global_id(0);
  int4 v = a[i];
  int4 t;
  t.xz = v.yw;
  t.yw = v.lo;
  r[5*i+0] = v.wzyx;
  r[5*i+1] = v.xxyy;
  r[5*i+2] = (int4)(v.hi, v.even);
  r[5*i+3] = (int4)(v.odd, v.s30);
  r[5*i+4] = t;
}
