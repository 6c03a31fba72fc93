// switch with fall-through, default, dense and sparse cases.
// NOTE: a switch on (x & 7) or (x & 3) is narrowed by LLVM at -O2 to an
// i3/i2 switch, which makes llvm-spirv-15 assert (SPIRVSwitch::validate);
// so the switches here are on raw inputs, kept small by the test data.
__attribute__((noinline)) int sparse(int x)
{
  switch (x) {
  case -5: return 1;
  case 0: return 2;
  case 17: return 3;
  case 1000000: return 4;
  default: return -1;
  }
}
kernel void switch_stmt(global const int *in, global int *out)
{
  int i = get_global_id(0);
  int x = in[i], r = 0, y = in[i + 64], z = in[i + 128];
  switch (x) {
  case 0: r += 1;
  case 1: r += 10; break;       /* 0 falls through */
  case 2:
  case 3: r = x * 2; break;
  case 5: r = -x; /* fall through */
  case 6: r += 100; break;
  default: r = 7;
  }
  int q;
  switch (z) { case 0: q = 5; break; case 1: q = 6; break; case 2: q = 7; break; default: q = 8; }
  out[3*i+0] = r;
  out[3*i+1] = q;
  out[3*i+2] = sparse(y);
}
