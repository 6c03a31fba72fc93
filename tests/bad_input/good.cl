// The valid kernel the bad-input cases start from.
kernel void add_one(global const int *in, global int *out, int n)
{
  int i = get_global_id(0);
  if (i < n) out[i] = in[i] + 1;
}
