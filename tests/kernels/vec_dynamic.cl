// dot, and vectors indexed by a run-time value (OpVectorExtractDynamic,
// OpVectorInsertDynamic), which the JIT compiles inline: dot rounds each
// product and each sum in component order (docs/semantics.md).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void vec_dynamic(global const float4 *a, global const float4 *b, global const int *idx,
                        global float *dots, global int *ex, global int4 *ins, global double *dd)
{
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  dots[4 * i + 0] = dot(x, y);
  dots[4 * i + 1] = dot(x.xy, y.zw);
  dots[4 * i + 2] = dot(x.xyz, y.xyz);
  dots[4 * i + 3] = x[idx[i] & 3] + y[(idx[i] >> 2) & 3];
  int8 v = (int8)(i, 10 * i, -i, 7, i * i, 3, -5, 100);
  ex[i] = v[idx[i] & 7];
  int4 w = (int4)(1, 2, 3, 4) * i;
  w[idx[i] & 3] = -1;
  ins[i] = w;
  double4 dx = convert_double4(x), dy = convert_double4(y);
  dd[i] = dot(dx, dy * 0.1);
}
