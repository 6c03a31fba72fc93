// int/uint: wrapping arithmetic, C division, shifts (count taken modulo 32).
// x % y lives in its own function: at -O2 LLVM pairs a division and a
// remainder of the same operands with a 'freeze' that llvm-spirv-15 cannot translate.
__attribute__((noinline)) int rem_s(int x, int y) { return x % y; }
__attribute__((noinline)) uint rem_u(uint x, uint y) { return x % y; }
kernel void int32_ops(global const int *a, global const int *b, global int *s, global uint *u)
{
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  uint ux = x, uy = y;
  s[8*i+0] = x + y;
  s[8*i+1] = x - y;
  s[8*i+2] = (int)((uint)x * (uint)y);
  s[8*i+3] = (y != 0 && !(x == INT_MIN && y == -1)) ? x / y : 0;
  s[8*i+4] = (y != 0 && !(x == INT_MIN && y == -1)) ? rem_s(x, y) : 0;
  s[8*i+5] = x >> y;           /* OpenCL: shift count is y & 31 */
  s[8*i+6] = x << (y & 7);
  s[8*i+7] = (x > y) - (x < y);
  u[4*i+0] = uy ? ux / uy : 0u;
  u[4*i+1] = uy ? rem_u(ux, uy) : 0u;
  u[4*i+2] = ux >> uy;
  u[4*i+3] = ux < uy;
}
