// Loops whose trip count depends on the lane, with break and continue,
// a nested loop, and a do-while.
kernel void loop_divergent(global const int *in, global int *out)
{
  int i = get_global_id(0);
  int n = in[i];
  int s = 0, t = 0, k = 0;
  for (int j = 0; j < n; j++) {
    if (j % 3 == 1) continue;
    if (s > 200) break;
    s += j;
  }
  for (int a = 0; a < (i & 7); a++)
    for (int b = a; b < n % 5; b++)
      t += a * b + 1;
  do { k++; n >>= 1; } while (n > 0);
  while (1) { if (t & 1) { t = 3 * t + 1; } else { t >>= 1; } if (t <= 1 || ++k > 50) break; }
  out[3*i+0] = s;
  out[3*i+1] = t;
  out[3*i+2] = k;
}
