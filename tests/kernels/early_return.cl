// Non-inlined functions with several early returns taken by different
// lanes, returning values and writing through out-pointers.
__attribute__((noinline)) int classify(int x, int *aux)
{
  if (x < 0) { *aux = -x; return -1; }
  if (x == 0) return 0;
  for (int k = 2; k * k <= x; k++)
    if (x % k == 0) { *aux = k; return 2; }    /* composite: smallest factor */
  *aux = x;
  return 1;                                    /* prime (or 1) */
}
__attribute__((noinline)) void maybe_store(global int *p, int v)
{
  if (v & 1) return;
  *p = v;
}
kernel void early_return(global const int *in, global int *out)
{
  int i = get_global_id(0);
  int aux = 99;
  int c = classify(in[i], &aux);
  out[3*i+0] = c;
  out[3*i+1] = aux;
  out[3*i+2] = -1;
  maybe_store(&out[3*i+2], in[i]);
}
