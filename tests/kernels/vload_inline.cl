// vloadn / vstoren shapes the JIT compiles inline (jit_emit_memory.c:
// emit_vloadstore) and the ones that keep the handler: consecutive spans
// (vload4(i, p)), lanes at their own addresses (a stride, one address for
// every lane), element sizes 1 to 8, n = 2, 3, 4, 8, 16, a divergent store,
// and an access past the end (vload_oob: the handler's report).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void vload_inline(global const float *f, global float *fo, global const int *in, global int *io,
                         global const uchar *b, global uchar *bo, global const double *d, global double *dout,
                         global const long *l, global long *lo, global const short *s, global short *so)
{
  int i = get_global_id(0);
  float4 x = vload4(i, f);                       // consecutive
  float2 y = vload2(3 * i + 1, f);               // stride 3 pairs: each lane its own address
  float8 z = vload8(0, f + 5);                   // every lane the same address
  vstore4(x * 2.0f + (float4)(y, z.s03), i, fo);
  int3 t = vload3(i, in);                        // packed triples
  vstore3(t.zxy + (int3)(i), i, io);
  uchar16 c = vload16(i, b);
  vstore16(c.sfedcba9876543210 + (uchar)1, i, bo);
  double2 e = vload2(i, d);
  vstore2(e.yx * 0.5, i, dout);
  long3 m = vload3(2 * i, l);                    // every other triple
  vstore3(m - (long3)(1, 2, 3), i, lo);
  short8 h = vload8(i, s);
  if (i & 1)                                     // divergent: the odd lanes store
    vstore8(h + (short)7, i, so);
  else
    vstore2(h.s01, 4 * i, so);
}
kernel void vload_oob(global const int *in, global int *out, uint shift)
{
  int i = get_global_id(0);
  int4 v = vload4(i + shift, in);                // the last lanes read past the end
  vstore4(v, i, out);
}
