// Plain float -> integer conversions (casts and convert_T without _sat or a
// rounding mode): OpConvertFToS / OpConvertFToU with no decoration.  Out of
// range they saturate and NaN gives 0 (docs/semantics.md), on every backend.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void float_to_int(global const float *f, global const double *d,
                         global char *c, global uchar *uc, global short *s, global ushort *us,
                         global int *i, global uint *ui, global long *l, global ulong *ul)
{
  size_t k = get_global_id(0);
  float x = f[k];
  double y = d[k];
  c[2*k] = (char)x;    c[2*k+1] = (char)y;
  uc[2*k] = (uchar)x;  uc[2*k+1] = (uchar)y;
  s[2*k] = (short)x;   s[2*k+1] = (short)y;
  us[2*k] = (ushort)x; us[2*k+1] = (ushort)y;
  i[2*k] = (int)x;     i[2*k+1] = (int)y;
  ui[2*k] = (uint)x;   ui[2*k+1] = (uint)y;
  l[2*k] = (long)x;    l[2*k+1] = (long)y;
  ul[2*k] = (ulong)x;  ul[2*k+1] = (ulong)y;
}

// The same as vectors: convert_int4 / convert_uint4 of four neighbours.
kernel void float_to_int4(global const float *f, global int *i, global uint *ui)
{
  size_t k = get_global_id(0);
  float4 v = vload4(k, f);
  vstore4(convert_int4(v), k, i);
  vstore4(convert_uint4(v), k, ui);
}
