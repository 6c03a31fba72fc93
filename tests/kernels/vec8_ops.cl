// short8 / float8: element-wise ops, hi/lo halves, min/max on vectors.
kernel void vec8_ops(global const short8 *a, global const float8 *b, global short8 *rs, global float4 *rf)
{
  int i = get_global_id(0);
  short8 x = a[i];
  float8 y = b[i];
  rs[2*i+0] = max(x, x.s76543210) - (short8)(1);
  rs[2*i+1] = x >> (short8)(1, 2, 3, 4, 5, 6, 7, 8);
  rf[i] = y.lo * y.hi + y.even;
}
