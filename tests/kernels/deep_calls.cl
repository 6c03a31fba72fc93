// A recursion-free chain of ten non-inlined calls, mixing scalar, vector
// and pointer parameters, with a divergent branch at the bottom.
#define NI __attribute__((noinline))
NI int f9(int x) { return (x & 1) ? x * 3 + 1 : x / 2; }
NI int f8(int x) { return f9(x) + 1; }
NI int f7(int x, int y) { return f8(x) ^ y; }
NI int2 f6(int2 v) { return (int2)(f7(v.x, v.y), f7(v.y, v.x)); }
NI int f5(int2 v) { int2 r = f6(v); return r.x - r.y; }
NI void f4(int x, int *o) { *o = f5((int2)(x, x + 1)); }
NI int f3(int x) { int o; f4(x, &o); return o * 2; }
NI long f2(int x) { return (long)f3(x) << 20; }
NI long f1(int x) { return f2(x) + f2(x + 7); }
NI long f0(int x) { return x < 0 ? -f1(-x) : f1(x); }
kernel void deep_calls(global const int *in, global long *out)
{
  int i = get_global_id(0);
  out[i] = f0(in[i]);
}
