/* A helper that stays a real function at -O0 (the debugger's default). */
int scale(int x, int k)
{
  int r = x * k;
  return r + 1;
}

__kernel void call(__global int *out)
{
  int i = (int)get_global_id(0);
  out[i] = scale(i, 3);
}
