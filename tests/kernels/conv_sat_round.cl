// Decorated conversions the JIT compiles inline: float to integer with a
// rounding mode (_rte, _rtp, _rtn, _rtz; always saturating, NaN -> 0) and
// saturating integer to integer (convert_T_sat: OpSatConvertSToU /
// OpSatConvertUToS, or S/UConvert decorated SaturatedConversion).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void conv_sat_round(global const float *f, global const int *a, global const long *l,
                           global int *fi, global uchar *fu, global int *ii, global long *ll, global double *dd)
{
  int i = get_global_id(0);
  float x = f[i];
  fi[5 * i + 0] = convert_int_rte(x);
  fi[5 * i + 1] = convert_int_rtp(x);
  fi[5 * i + 2] = convert_int_sat_rtn(x);
  fi[5 * i + 3] = convert_int_sat(x);
  fi[5 * i + 4] = (int)convert_uint_sat_rte(x);
  fu[2 * i + 0] = convert_uchar_sat(x);
  fu[2 * i + 1] = convert_uchar_sat_rtp(x);
  int y = a[i];
  ii[6 * i + 0] = convert_uchar_sat(y);
  ii[6 * i + 1] = convert_char_sat(y);
  ii[6 * i + 2] = convert_short_sat(y);
  ii[6 * i + 3] = convert_ushort_sat((uint)y);
  ii[6 * i + 4] = (int)convert_uint_sat(y);
  ii[6 * i + 5] = convert_int_sat((uint)y);
  long z = l[i];
  ll[4 * i + 0] = convert_int_sat(z);
  ll[4 * i + 1] = convert_uint_sat(z);
  ll[4 * i + 2] = convert_long_sat((ulong)z);
  ll[4 * i + 3] = (long)convert_ulong_sat(z);
  dd[i] = (double)convert_long_rtn((double)x * 1e10) + (double)convert_short_sat_rte((double)x);
}
