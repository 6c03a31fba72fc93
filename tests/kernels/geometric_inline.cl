// length, distance, normalize (and fast_ forms) and cross, which the JIT
// compiles inline with the interpreter's arithmetic (docs/semantics.md:
// the sums of squares in long double, rounded once): both backends agree
// bit for bit, the references allow 1 ulp.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void geometric_inline(global const float4 *a, global const float4 *b, global float *len,
                             global float4 *nrm, global float4 *crs, global double *dd)
{
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  len[6 * i + 0] = length(x);
  len[6 * i + 1] = length(x.xy);
  len[6 * i + 2] = distance(x.xyz, y.xyz);
  len[6 * i + 3] = fast_length(x.z);
  len[6 * i + 4] = distance(x, y);
  len[6 * i + 5] = fast_distance(x.xy, y.xy);
  nrm[2 * i + 0] = normalize(x);
  nrm[2 * i + 1] = (float4)(normalize(x.xyz), fast_normalize(y.x));
  crs[2 * i + 0] = cross(x, y);
  crs[2 * i + 1] = (float4)(cross(x.xyz, y.zyx), 9.0f);
  double3 dx = convert_double3(x.xyz), dy = convert_double3(y.xyz);
  double3 dc = cross(dx, dy);
  dd[4 * i + 0] = length(dx);
  dd[4 * i + 1] = dc.x + dc.y * 2 + dc.z * 4;
  dd[4 * i + 2] = normalize(dx).y;
  dd[4 * i + 3] = distance(dx, dy);
}
