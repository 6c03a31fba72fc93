// OpenCL.std built-ins the JIT compiles inline (jit_plan.c: ocl_std_native),
// at their edges: NaN, signed zeros, the ends of each integer type, clamp
// with its bounds crossed, mul24 / mad24 past 24 bits.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void ocl_std_f(global const float *x, global const float *y, global const float *z,
                      global const double *dx, global float *r, global double *rd)
{
  size_t k = get_global_id(0);
  float a = x[k], b = y[k], c = z[k];
  double d = dx[k];
  r[8*k+0] = fabs(a);
  r[8*k+1] = sqrt(a);
  r[8*k+2] = floor(a);
  r[8*k+3] = ceil(a);
  r[8*k+4] = trunc(a);
  r[8*k+5] = rint(a);
  r[8*k+6] = fma(a, b, c);
  r[8*k+7] = copysign(a, b);
  rd[4*k+0] = fabs(d);
  rd[4*k+1] = sqrt(d);
  rd[4*k+2] = floor(d);
  rd[4*k+3] = fma(d, d, -1.0);
}

kernel void ocl_std_i(global const int *x, global const int *y, global const int *z,
                      global int *ri, global uint *ru, global short *rs, global ulong *rl)
{
  size_t k = get_global_id(0);
  int a = x[k], b = y[k], c = z[k];
  uint ua = a, ub = b, uc = c;
  ri[8*k+0] = max(a, b);
  ri[8*k+1] = min(a, b);
  ri[8*k+2] = clamp(a, b, c);
  ri[8*k+3] = mul24(a, b);
  ri[8*k+4] = mad24(a, b, c);
  ri[8*k+5] = mul_hi(a, b);
  ri[8*k+6] = (int)abs(a);
  ri[8*k+7] = popcount(a);
  ru[6*k+0] = max(ua, ub);
  ru[6*k+1] = min(ua, ub);
  ru[6*k+2] = clamp(ua, ub, uc);
  ru[6*k+3] = mul24(ua, ub);
  ru[6*k+4] = mad24(ua, ub, uc);
  ru[6*k+5] = mul_hi(ua, ub);
  rs[2*k+0] = max((short)a, (short)b);
  rs[2*k+1] = (short)abs((short)a);
  long la = (long)a * 4096 - 7, lb = (long)b << 20;
  rl[3*k+0] = (ulong)min(la, lb);
  rl[3*k+1] = max((ulong)la, (ulong)lb);
  rl[3*k+2] = popcount(la);
}

// vectors with scalar bounds: clamp(int4, int, int)
kernel void ocl_std_v(global const int *x, global const int *y, global int *r)
{
  size_t k = get_global_id(0);
  int4 v = vload4(k, x);
  vstore4(clamp(v, y[0], y[1]), k, r);
}
