// Integer division and remainder of every width, inline on the JIT when no
// active lane divides by zero (or int's MIN by -1), through the interpreter's
// handler otherwise: those lanes record a division-by-zero fault and get 0
// (docs/semantics.md).  A lane that does not run the division (the `if`)
// never faults, whatever its divisor.  The remainders live in their own
// functions: at -O2 LLVM pairs x / y with x % y through a 'freeze' that
// llvm-spirv-15 cannot translate.
__attribute__((noinline)) int rem_i(int x, int y) { return x % y; }
__attribute__((noinline)) uint rem_u(uint x, uint y) { return x % y; }
__attribute__((noinline)) long rem_l(long x, long y) { return x % y; }
kernel void int_div(global const int *x, global const int *y, global const int *z,
                    global int *r, global uint *ru, global long *rl, global short *rs, global uchar *rc)
{
  size_t k = get_global_id(0);
  int a = x[k], b = y[k];
  r[3*k+0] = a / b;
  r[3*k+1] = rem_i(a, b);
  r[3*k+2] = 0;
  if (k & 1)                       /* the even lanes' z is 0: never divided */
    r[3*k+2] = a / z[k];
  ru[2*k+0] = (uint)a / (uint)b;
  ru[2*k+1] = rem_u((uint)a, (uint)b);
  long la = (long)a * 3 + 1, lb = b;
  rl[2*k+0] = la / lb;
  rl[2*k+1] = rem_l(la, lb);
  rs[k] = (short)a / (short)b;     /* computed in int, then truncated */
  rc[k] = (uchar)((uchar)a / (uchar)b);
}

// int4 / int4
kernel void int_div4(global const int *x, global const int *y, global int *r)
{
  size_t k = get_global_id(0);
  vstore4(vload4(k, x) / vload4(k, y), k, r);
}
