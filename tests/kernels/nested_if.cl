// Nested divergent if/else, with the ternary operator and short-circuit &&/||.
kernel void nested_if(global const int *a, global const int *b, global int *out)
{
  int i = get_global_id(0);
  int x = a[i], y = b[i], r;
  if (x > 0) {
    if (y > 0) {
      r = x + y;
      if (x > y) r *= 2; else r -= 1;
    } else {
      r = (x & 1) ? x - y : y - x;
    }
  } else if (x == 0) {
    r = (y != 0 && 100 / y > 3) || y == -1 ? 11 : 22;
  } else {
    r = 0;
    if (y < -10) { if (y < -30) r = 1; else r = 2; }
    else if (y < 10) r = 3;
    else { r = 4; if (i & 1) r += 40; }
  }
  out[i] = r;
}
