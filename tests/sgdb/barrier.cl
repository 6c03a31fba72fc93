/* Two subgroups exchange data through local memory around a barrier. */
__kernel void wgbar(__global int *out)
{
  __local int tmp[32];
  uint l = get_local_id(0);
  tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[31 - l];
}
