// OpenCL.std float functions the JIT calls libm for, as the interpreter
// does (jit_plan.c: ocl_libm): the backends agree bit for bit; the
// references allow a few ulp (glibc's float functions are not all
// correctly rounded).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void ocl_libm(global const float *xs, global const float *ys, global float *r, global double *rd)
{
  size_t k = get_global_id(0);
  float x = xs[k], y = ys[k];
  global float *o = r + 24 * k;
  o[0] = exp(x);      o[1] = exp2(x);     o[2] = expm1(x);    o[3] = log(x);
  o[4] = log2(x);     o[5] = log10(x);    o[6] = log1p(x);    o[7] = sin(x);
  o[8] = cos(x);      o[9] = tan(x);      o[10] = atan(x);    o[11] = atan2(x, y);
  o[12] = sinh(x);    o[13] = tanh(x);    o[14] = asinh(x);   o[15] = cbrt(x);
  o[16] = pow(y, x);  o[17] = fmod(x, y); o[18] = hypot(x, y); o[19] = fdim(x, y);
  o[20] = fmin(x, y); o[21] = fmax(x, y); o[22] = round(x);   o[23] = native_cos(x);
  double d = x;
  rd[4*k+0] = exp(d); rd[4*k+1] = log(d); rd[4*k+2] = fmin(d, (double)y); rd[4*k+3] = pow((double)y, d);
}
