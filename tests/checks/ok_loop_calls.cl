// Correct: an accumulator set before its loop, a conditional value set on
// every path, and values passed through a function call.
int pick(int a, int b, int c) { return c ? a : b; }
kernel void ok_loop_calls(global const int *in, global int *out) {
  int g = get_global_id(0);
  int sum = 0, v;
  for (int k = 0; k < 4; k++) sum += in[(g + k) % 64];
  if (sum & 1) v = 1; else v = 2;
  int w[2];
  w[0] = sum; w[1] = v;
  out[g] = pick(w[0], w[1], g & 1) + (v > 1 ? sum : 0);
}
