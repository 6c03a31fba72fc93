// Integer built-ins: add_sat, sub_sat, mul_hi, rotate, clz, popcount,
// abs, abs_diff, upsample, mad24, mul24, hadd, rhadd, mad_sat, min/max, ctz.
kernel void int_builtins(global const int *a, global const int *b,
                         global int *r, global uint *u, global long *l, global uchar *c)
{
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  uint ux = x, uy = y;
  r[8*i+0] = add_sat(x, y);
  r[8*i+1] = sub_sat(x, y);
  r[8*i+2] = mul_hi(x, y);
  r[8*i+3] = rotate(x, y);
  r[8*i+4] = hadd(x, y);
  r[8*i+5] = rhadd(x, y);
  r[8*i+6] = mad24(x >> 8, y >> 8, 12345);
  r[8*i+7] = mad_sat(x, y, x);
  u[6*i+0] = clz(ux);
  u[6*i+1] = popcount(ux);
  u[6*i+2] = abs(x);
  u[6*i+3] = abs_diff(x, y);
  u[6*i+4] = mul_hi(ux, uy);
  u[6*i+5] = add_sat(ux, uy);
  l[i] = upsample(x, uy);
  c[4*i+0] = add_sat((uchar)x, (uchar)y);
  c[4*i+1] = clz((uchar)y);
  c[4*i+2] = rotate((uchar)x, (uchar)y);
  c[4*i+3] = ctz(ux) ;
}
