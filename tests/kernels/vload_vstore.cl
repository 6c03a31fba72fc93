// vloadN / vstoreN at element offsets (unaligned w.r.t. the vector size).
kernel void vload_vstore(global const int *in, global int *out, global short *sout)
{
  int i = get_global_id(0);
  int4 a = vload4(i, in + 1);
  int2 b = vload2(3 * i + 1, in);
  int8 c = vload8(0, in + i);
  vstore4(a + (int4)(b, b.yx), i, out);
  vstore2(c.lo.lo + c.hi.hi, i, out + 4 * get_global_size(0));
  vstore3(convert_short3(c.s135), i, sout + 1);
}
