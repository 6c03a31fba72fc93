// A float argument of an integer conversion (undefined in OpenCL C; the
// compiler warns): docs/semantics.md defines it as truncated toward zero,
// saturated at the 64-bit range, NaN as 0, then narrowed as an integer
// argument would be (32 bits without a length modifier).
kernel void printf_float_int(global const float *in)
{
  float z = in[0] - in[0];               // 0, from memory: no constant folding
  printf("%d %d %d %d %d %ld %ld\n", z / z, in[1], -in[1], in[2], in[3], in[2], -in[2]);
}
