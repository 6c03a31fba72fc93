/* Detector benchmark (bench/run.py, issue #14): a tree reduction in local
 * memory with a barrier per step, plain OpenCL C (no subgroup operations) so
 * that oclgrind-kernel runs it too. */
kernel void tree_reduce(global const uint *in, global uint *out)
{
  local uint tmp[256];
  uint lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 128; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
