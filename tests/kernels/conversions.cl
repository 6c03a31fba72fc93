// convert_T with saturation and rounding modes, implicit conversions.
kernel void conversions(global const float *f, global const long *l,
                        global int *ri, global uchar *rc, global float *rf, global short *rs)
{
  int i = get_global_id(0);
  float x = f[i];
  long y = l[i];
  ri[5*i+0] = convert_int_sat_rtz(x * 1e6f);
  ri[5*i+1] = convert_int_rte(x);
  ri[5*i+2] = convert_int_rtp(x);
  ri[5*i+3] = convert_int_rtn(x);
  ri[5*i+4] = convert_int_sat(y);
  rc[2*i+0] = convert_uchar_sat(x * 10.0f);
  rc[2*i+1] = convert_uchar_sat(y);
  rf[2*i+0] = convert_float(y);             /* round to nearest even */
  rf[2*i+1] = convert_float_rtz(y);
  rs[i] = convert_short_sat_rte(x * 1000.0f);
}
