// Geometric built-ins: dot and cross (exact on these inputs), length,
// distance and normalize (ULP tolerance).
kernel void geometric(global const float4 *a, global const float4 *b, global float *r, global float4 *c)
{
  int i = get_global_id(0);
  float4 x = a[i], y = b[i];
  r[5*i+0] = dot(x, y);
  r[5*i+1] = dot(x.xyz, y.xyz);
  r[5*i+2] = length(x);
  r[5*i+3] = distance(x.xy, y.xy);
  r[5*i+4] = fast_length((float2)(3.0f, 4.0f));
  c[2*i+0] = cross(x, y);
  c[2*i+1] = normalize(x);
}
