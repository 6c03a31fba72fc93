// OpenCL.std transcendental functions in float (checked against the
// OpenCL C full-profile ULP limits) and double.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void math_basic(global const float *a, global const float *b,
                       global float *r, global double *d)
{
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  r[8*i+0] = sqrt(fabs(x));
  r[8*i+1] = exp(x * 0.125f);
  r[8*i+2] = log(fabs(x) + 1.0f);
  r[8*i+3] = sin(x);
  r[8*i+4] = cos(x);
  r[8*i+5] = pow(fabs(x), y);
  r[8*i+6] = exp2(y * 4.0f);
  r[8*i+7] = atan2(x, y);
  double dx = (double)x;
  d[3*i+0] = sqrt(fabs(dx));
  d[3*i+1] = exp(dx * 0.125);
  d[3*i+2] = sin(dx);
}
