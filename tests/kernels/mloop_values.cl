// Masked loops (lanes leave at different trips), one kernel per shape, each
// compiled as a convergent kernel with masked loops: the JIT writes a
// loop's values without the mask's blend where no lane reads them after
// leaving (mloop_local_plan), and phis that read one another go through
// temporaries.
//   mlv_gcd    p, q swap through two phis; q, a header phi, read after the
//              loop (a lane that left early read a stale temporary)
//   mlv_seq    four masked loops in a row, a 64-bit sum carried through
//              the phis of each loop's exit into the next
//   mlv_brk    a break in the middle: values made before the test are read
//              after the loop, those after it are not
//   mlv_steps  32-bit Collatz step count (the counter read after the loop)
//   mlv_mandel a float Mandelbrot loop with a two-part exit test (the JIT
//              zeroes a masked loop's values at a subgroup's start: a blend
//              of the first trip must not read an uninitialized local)
#pragma OPENCL FP_CONTRACT OFF
kernel void mlv_gcd(global const uint *in, global uint *out)
{
  size_t i = get_global_id(0);
  uint v = in[i];
  uint p = v % 1000 + 1, q = (v >> 10) % 1000 + 1;
  while (q) { uint t = p % q; p = q; q = t; }
  out[i] = p;
}
kernel void mlv_seq(global const uint *in, global ulong *out)
{
  size_t i = get_global_id(0);
  ulong acc = 0;
  for (int o = 0; o < 4; o++) {
    ulong x = in[i] + o + 1;
    while (x > 1) { x = (x & 1) ? 3 * x + 1 : x >> 1; acc += x; }
  }
  out[i] = acc;
}
kernel void mlv_brk(global const uint *in, global uint *out)
{
  size_t i = get_global_id(0);
  uint x = in[i] | 1, s = 0, last = 0;
  for (int k = 0; k < 100; k++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    last = x & 0xff;
    if ((x & 31) == 7) break;
    s += last;
  }
  out[i] = s + last * 3;
}
kernel void mlv_steps(global const uint *in, global uint *out)
{
  size_t i = get_global_id(0);
  uint c = in[i] % 5000 + 1, n = 0;
  while (c != 1) { c = (c & 1) ? 3 * c + 1 : c >> 1; n++; }
  out[i] = n;
}
kernel void mlv_mandel(global float *out, int maxit)
{
  size_t i = get_global_id(0);
  float cx = -2.0f + (float)(i % 16) * 0.1875f, cy = -1.5f + (float)(i / 16) * 0.1875f;
  float x = 0, y = 0;
  int it = 0;
  while (x * x + y * y < 4.0f && it < maxit) {
    float t = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = t;
    it++;
  }
  out[i] = (float)it + x;
}
