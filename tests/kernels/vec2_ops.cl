// int2/float2 arithmetic, component access and vector literals.
kernel void vec2_ops(global const int2 *a, global const float2 *b, global int2 *ri, global float2 *rf)
{
  int i = get_global_id(0);
  int2 x = a[i];
  float2 y = b[i];
  ri[2*i+0] = x * (int2)(3, -2) + x.yx;
  ri[2*i+1] = (int2)(x.x > x.y, x.s1) - (x > 0);   /* vector compare: -1 / 0 */
  rf[2*i+0] = y + y.yx;
  rf[2*i+1] = (float2)(y.y, 1.5f) * (float2)(2.0f);
}
