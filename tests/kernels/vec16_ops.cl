// uchar16 / int16: .sF component names, .s0123456789abcdef permutations,
// reductions over components via a loop on a private array.
kernel void vec16_ops(global const uchar16 *a, global uchar16 *r, global int *sum)
{
  int i = get_global_id(0);
  uchar16 v = a[i];
  r[2*i+0] = v.sfedcba9876543210 + v;
  r[2*i+1] = (uchar16)(v.s5, v.sA, v.sF, v.s0, v.lo.lo, v.hi.odd, v.s1, v.s23, v.sE);
  int16 w = convert_int16(v);
  int t = 0;
  int e[16];
  vstore16(w * w, 0, e);
  for (int k = 0; k < 16; k++) t += e[k];
  sum[i] = t;
}
