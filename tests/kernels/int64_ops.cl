// long/ulong arithmetic, mixed with int, and 64-bit shifts.
// x % y lives in its own function: at -O2 LLVM pairs a division and a
// remainder of the same operands with a 'freeze' that llvm-spirv-15 cannot translate.
__attribute__((noinline)) long rem_s(long x, long y) { return x % y; }
__attribute__((noinline)) ulong rem_u(ulong x, ulong y) { return x % y; }
kernel void int64_ops(global const long *a, global const long *b, global long *s, global ulong *u)
{
  int i = get_global_id(0);
  long x = a[i], y = b[i];
  ulong ux = x, uy = y;
  s[6*i+0] = x + y;
  s[6*i+1] = (long)((ulong)x * (ulong)y);
  s[6*i+2] = (y != 0 && y != -1) ? x / y : 0;
  s[6*i+3] = (y != 0 && y != -1) ? rem_s(x, y) : 0;
  s[6*i+4] = x >> (y & 63);
  s[6*i+5] = (long)(int)x + (long)(uint)y;
  u[4*i+0] = uy ? ux / uy : 0;
  u[4*i+1] = ux << (uy & 63);
  u[4*i+2] = ux >> (uy & 63);
  u[4*i+3] = ux > uy ? ux : uy;
}
