// short/ushort arithmetic, conversions between them and int.
// x % y lives in its own function: at -O2 LLVM pairs a division and a
// remainder of the same operands with a 'freeze' that llvm-spirv-15 cannot translate.
__attribute__((noinline)) int rem_s(int x, int y) { return x % y; }
__attribute__((noinline)) uint rem_u(uint x, uint y) { return x % y; }
kernel void int16_ops(global const short *a, global const short *b,
                      global short *s, global ushort *u, global int *w)
{
  int i = get_global_id(0);
  short x = a[i], y = b[i];
  ushort ux = x, uy = y;
  s[6*i+0] = x + y;
  s[6*i+1] = x * y;
  s[6*i+2] = y ? x / y : (short)-7;
  s[6*i+3] = y ? rem_s(x, y) : (short)-7;
  s[6*i+4] = ~x;
  s[6*i+5] = x ^ y;
  u[3*i+0] = ux - uy;
  u[3*i+1] = ux * uy;
  u[3*i+2] = max(ux, uy);
  w[i] = (int)x * (int)y;
}
