// Masked regions inside masked regions: an outer loop whose trip count
// differs per lane holds an inner loop whose trip count differs per lane and
// per outer trip.  The interpreter's stack runs both in lockstep: at outer
// trip i and inner trip j the lanes still in both run, which the reduction
// sees.  The JIT nests the inner loop's region in the outer's
// (jit_kernel.mloops[].parent): entering the inner loop from the outer's
// lanes, leaving it back to them.
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
kernel void masked_nest(global const uint *in, global uint *out, global uint *trace)
{
  uint gid = get_global_id(0);
  uint a = in[gid] % 5, acc = 0;
  for (uint i = 0; i < a; i++) {
    uint b = (in[gid] + i) % 4;
    for (uint j = 0; j < b; j++)
      acc = acc * 3u + sub_group_non_uniform_reduce_add(i * 7u + j + gid);
    trace[gid * 5 + i] = acc;
  }
  out[gid] = acc;
}
