// A long convergent loop whose step check fires while it runs: the JIT
// counts branches and, every 65,536 of them, calls the runtime (on x86-64
// through a call that keeps every register, jit_pa_call).  Eight lane
// values (in vector registers once GCC vectorizes the lanes), a uniform
// counter and an int4 are live across each check; the results show that
// none of them changed under the call.
kernel void step_check_regs(global const int *in, global int *out, int n)
{
  size_t i = get_global_id(0);
  int v = in[i];
  int x0 = v, x1 = v + 1, x2 = v + 2, x3 = v + 3, x4 = v + 4, x5 = v + 5, x6 = v + 6, x7 = v + 7;
  int4 q = (int4)(v, v * 2, v * 3, v * 5);
  for (int k = 0; k < n; k++) {
    x0 = x0 * 3 + k;
    x1 = x1 * 3 + k + 1;
    x2 = x2 * 3 + k + 2;
    x3 = x3 * 3 + k + 3;
    x4 = x4 * 3 + k + 4;
    x5 = x5 * 3 + k + 5;
    x6 = x6 * 3 + k + 6;
    x7 = x7 * 3 + k + 7;
    q = q * 3 + (int4)(k, 1, 2, 3);
  }
  out[12 * i + 0] = x0; out[12 * i + 1] = x1; out[12 * i + 2] = x2; out[12 * i + 3] = x3;
  out[12 * i + 4] = x4; out[12 * i + 5] = x5; out[12 * i + 6] = x6; out[12 * i + 7] = x7;
  out[12 * i + 8] = q.x; out[12 * i + 9] = q.y; out[12 * i + 10] = q.z; out[12 * i + 11] = q.w;
}
