// A loop whose trip count differs between lanes: the JIT runs it as one
// masked loop (jit_kernel.mloops), every trip under the lanes still in it,
// as the interpreter's stack runs it.  The guard (k > 0) lets only the lanes
// with trips in; the reduction in the loop sees exactly the lanes still in
// it at that trip; the break (lim = 20) leaves at trip 8 for every lane
// still in (lim is an argument, so clang keeps the loop a loop); the
// stores in the loop are made by the lanes in it alone (the last case gives
// trace too few elements: a fault for those lanes only, at their trip).
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
kernel void masked_loop(global const uint *in, global uint *sum, global uint *trace, global float *f, float lim)
{
  uint gid = get_global_id(0);
  uint k = in[gid];
  uint acc = 0;
  float x = 1.0f;
  for (uint j = 0; j < k; j++) {
    acc += sub_group_non_uniform_reduce_add(j + gid);
    trace[gid * 10 + j] = acc;
    x = x * 1.5f;
    if (x > lim) break;
  }
  sum[gid] = acc;
  f[gid] = x;
}
