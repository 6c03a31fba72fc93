// Relational built-ins: select, bitselect, any, all, isnan, isinf, signbit,
// isequal, islessgreater, isordered; scalar results are 0/1, vector -1/0.
kernel void relational(global const float4 *a, global const float4 *b, global const int4 *m, global int *r, global float4 *rf)
{
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  int4 k = m[i];
  int4 lt = isless(x, y);
  r[10*i+0] = any(lt);
  r[10*i+1] = all(lt);
  r[10*i+2] = isnan(x.x);
  r[10*i+3] = isinf(y.y);
  r[10*i+4] = signbit(x.z);
  r[10*i+5] = isequal(x.w, y.w);
  r[10*i+6] = islessgreater(x.x, y.x);
  r[10*i+7] = any(isnan(x)) + 2 * all(isordered(x, y));
  int4 v = select(k, (int4)(7), lt);
  r[10*i+8] = v.x + v.y * 3 + v.z * 5 + v.w * 11;
  r[10*i+9] = bitselect(k.x, k.y, k.z);
  rf[i] = select(x, y, k < 0);
}
