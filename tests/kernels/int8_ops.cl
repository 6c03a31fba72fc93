// char/uchar arithmetic: promotion to int, then truncation on store.
// x % y lives in its own function: at -O2 LLVM pairs a division and a
// remainder of the same operands with a 'freeze' that llvm-spirv-15 cannot translate.
__attribute__((noinline)) int rem_s(int x, int y) { return x % y; }
__attribute__((noinline)) uint rem_u(uint x, uint y) { return x % y; }
kernel void int8_ops(global const char *a, global const char *b,
                     global char *s, global uchar *u)
{
  int i = get_global_id(0);
  char x = a[i], y = b[i];
  uchar ux = (uchar)x, uy = (uchar)y;
  s[8*i+0] = x + y;
  s[8*i+1] = x - y;
  s[8*i+2] = x * y;
  s[8*i+3] = y != 0 ? x / y : 0;
  s[8*i+4] = y != 0 ? rem_s(x, y) : 0;
  s[8*i+5] = x >> 2;
  s[8*i+6] = (char)(x << 3);
  s[8*i+7] = x < y;
  u[4*i+0] = ux + uy;
  u[4*i+1] = ux * uy;
  u[4*i+2] = uy != 0 ? ux / uy : 0;
  u[4*i+3] = ux >> 3;
}
