// Float classification and comparison built-ins (OpIsInf, OpIsFinite,
// OpIsNormal, OpSignBitSet, OpOrdered, OpUnordered, OpLessOrGreater) on
// zeros, subnormals, the normal range's ends, infinities and NaNs; float
// bitselect and select.  Scalar results are 0/1, vector ones -1/0.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void fpredicates(global const float *a, global const float *b, global int *r, global float *rf,
                        global long *rd)
{
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  r[8 * i + 0] = isinf(x);
  r[8 * i + 1] = isfinite(x);
  r[8 * i + 2] = isnormal(x);
  r[8 * i + 3] = signbit(x);
  r[8 * i + 4] = isordered(x, y);
  r[8 * i + 5] = isunordered(x, y);
  r[8 * i + 6] = islessgreater(x, y);
  int2 v = isnormal((float2)(x, y)) + 2 * isunordered((float2)(x, y), (float2)(y, x));
  r[8 * i + 7] = v.x * 16 + v.y;
  rf[2 * i + 0] = bitselect(x, y, as_float(0x807fffffu));
  rf[2 * i + 1] = select(x, y, (int)(i & 1));
  double d = (double)x * (i & 2 ? 1e-300 : 1.0);
  rd[i] = isnormal(d) + 2L * isfinite(d) + 4L * signbit(d) + 8L * isinf(d * 1e300);
}
