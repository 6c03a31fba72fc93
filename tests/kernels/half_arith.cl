// cl_khr_fp16: half arithmetic is done in half precision (each operation
// rounded to half), conversions to/from float.  Buffers hold half bits.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_arith(global const half *a, global const half *b,
                       global half *r, global float *f)
{
  int i = get_global_id(0);
  half x = a[i], y = b[i];
  r[5*i+0] = x + y;
  r[5*i+1] = x * y;
  r[5*i+2] = x - y;
  r[5*i+3] = x / y;
  r[5*i+4] = (half)((float)x * 3.0f + 0.25f);
  f[2*i+0] = (float)x;
  f[2*i+1] = (float)(x < y);
}
