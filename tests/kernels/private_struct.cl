// Private structs and arrays passed by pointer to non-inlined functions.
typedef struct { int a; short b; char c; long d; float v[3]; } rec_t;
__attribute__((noinline)) void fill(rec_t *r, int x)
{
  r->a = x * 3; r->b = (short)(x - 7); r->c = (char)x; r->d = (long)x << 33;
  for (int k = 0; k < 3; k++) r->v[k] = (float)(x + k) * 0.5f;
}
__attribute__((noinline)) long fold(const rec_t *r, int n)
{
  long s = 0;
  for (int k = 0; k < n; k++) s += r[k].a + r[k].b + r[k].c + (r[k].d >> 30) + (long)(r[k].v[k % 3] * 4.0f);
  return s;
}
__attribute__((noinline)) void rev(int *arr, int n)
{
  for (int k = 0; k < n / 2; k++) { int t = arr[k]; arr[k] = arr[n-1-k]; arr[n-1-k] = t; }
}
kernel void private_struct(global const int *in, global long *out, global int *arr_out)
{
  int i = get_global_id(0);
  rec_t rs[4];
  for (int k = 0; k < 4; k++) fill(&rs[k], in[i] + k);
  out[i] = fold(rs, 1 + (i & 3));
  int arr[5];
  for (int k = 0; k < 5; k++) arr[k] = in[i] * (k + 1);
  rev(arr, 5);
  for (int k = 0; k < 5; k++) arr_out[5*i+k] = arr[k];
}
