// Masked loops on both sides of work-group barriers: the first loop's
// values live across the barrier (the JIT's suspension keeps them), the
// second loop starts after the resume, with a trip count from another
// work-item's result, and stores in its trips; both loops' lanes leave at
// different trips.
kernel void masked_loop_barrier(global const int *n, global float *out, global int *trace, local float *tmp)
{
  size_t i = get_global_id(0), l = get_local_id(0);
  float s = 0.0f;
  int k = n[i] % 6;
  for (int j = 0; j < k; j++) s = s * 1.5f + (float)j;
  tmp[l] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  float t = tmp[(l + 1) % get_local_size(0)];
  int m = (int)t % 5;
  for (int j = 0; j < m + k; j++) { t = t * 0.5f + s; trace[i * 8 + (j & 7)] = j; }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = t + s;
}
