// Reads past the end of a buffer that is too small for the NDRange:
// the run must report an out-of-bounds fault (exit 1), not crash.
kernel void oob_fault(global const int *in, global int *out)
{
  int i = get_global_id(0);
  out[i] = in[i] + 1;
}
