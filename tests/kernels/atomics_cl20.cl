// OpenCL C 2.0 atomics: atomic_fetch_add_explicit, compare_exchange,
// atomic_load/store, fetch_or, on atomic_int/atomic_uint in global memory.
kernel void atomics_cl20(global const int *in, global atomic_int *acc, global atomic_uint *bits, global int *seen)
{
  int i = get_global_id(0);
  atomic_fetch_add_explicit(&acc[0], in[i], memory_order_relaxed, memory_scope_device);
  atomic_fetch_max_explicit(&acc[1], in[i], memory_order_relaxed);
  atomic_fetch_or(&bits[i >> 5], 1u << (i & 31));
  int expected = 0;
  int won = atomic_compare_exchange_strong(&acc[2], &expected, i + 100);
  seen[i] = won ? -1 : expected;        /* losers see the winner's value */
  atomic_fetch_sub(&acc[3], 1);
  if (i == 0) atomic_store_explicit(&acc[4], 77, memory_order_relaxed);
}
