// float: correctly rounded + - * and sqrt-free basics; / is checked separately
// (OpenCL allows 2.5 ulp); rounding built-ins and conversions.
kernel void float_arith(global const float *a, global const float *b,
                        global float *r, global float *d, global int *c)
{
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  r[8*i+0] = x + y;
  r[8*i+1] = x - y;
  r[8*i+2] = x * y;
  r[8*i+3] = fabs(x);
  r[8*i+4] = floor(x);
  r[8*i+5] = ceil(x);
  r[8*i+6] = trunc(x);
  r[8*i+7] = rint(x);
  d[i] = x / y;
  c[3*i+0] = (int)x;
  c[3*i+1] = x < y;
  c[3*i+2] = x == y;
}
