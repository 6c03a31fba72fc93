// double (cl_khr_fp64): + - * / sqrt and fma are all correctly rounded.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void double_arith(global const double *a, global const double *b,
                         global double *r, global long *c)
{
  int i = get_global_id(0);
  double x = a[i], y = b[i];
  r[7*i+0] = x + y;
  r[7*i+1] = x - y;
  r[7*i+2] = x * y;
  r[7*i+3] = x / y;
  r[7*i+4] = sqrt(fabs(x));
  r[7*i+5] = fma(x, y, -x);
  r[7*i+6] = (double)(float)x;
  c[2*i+0] = (long)x;
  c[2*i+1] = x >= y;
}
