// 32-bit atomics on local memory: a per-group histogram and counters,
// copied out after a barrier.
kernel void atomics_local(global const uint *in, global uint *hist, global int *stats)
{
  local uint h[16];
  local int s[3];
  int lid = get_local_id(0), grp = get_group_id(0);
  if (lid < 16) h[lid] = 0;
  if (lid < 3) s[lid] = lid == 1 ? INT_MAX : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  atomic_inc(&h[v & 15]);
  atomic_add(&s[0], (int)(v >> 4));
  atomic_min(&s[1], (int)(v >> 4));
  atomic_xchg(&s[2], 42);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16) hist[grp * 16 + lid] = h[lid];
  if (lid < 3) stats[grp * 3 + lid] = s[lid];
}
