// 32-bit atomics on global memory from every work-item: the final values
// are order-independent; atomic_inc returns unique tickets.
kernel void atomics_global(global const int *in, global int *acc, global uint *tickets)
{
  int i = get_global_id(0);
  int v = in[i];
  atomic_add(&acc[0], v);
  atomic_sub(&acc[1], v);
  atomic_min(&acc[2], v);
  atomic_max(&acc[3], v);
  atomic_or(&acc[4], 1 << (i & 31));
  atomic_and(&acc[5], ~(1 << (i & 15)));
  atomic_xor(&acc[6], v);
  tickets[i] = atomic_inc((volatile global uint *)&acc[7]);
  atomic_max((volatile global uint *)&acc[8], (uint)v);
  int old = atomic_cmpxchg(&acc[9 + (i & 1)], 0, i + 1);   /* first one wins */
  (void)old;
}
