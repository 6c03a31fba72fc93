// Atomics whose lanes address consecutive elements (a known stride of the
// element's size): where one thread owns them (-j 1, local memory, a
// deferred argument's private copy) the JIT does a subgroup's lanes as one
// masked vector load, operation and masked store (AVX-512, subgroups of 16
// 32-bit or 8 64-bit lanes), and inactive lanes are neither read nor
// written.  Each kind of read-modify-write, under partial and full masks,
// with the old values used; one shared accumulation whose result is unused
// (bins[lid], hist's pattern; deferred with -j 2); 64-bit elements; local
// memory.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void atomic_vec(global uint *a, global uint *b, global ulong *c, global uint *old, global ulong *old64)
{
  local uint lm[64];
  size_t i = get_global_id(0), n = get_global_size(0);
  uint lid = get_local_id(0);
  uint x = ((uint)i * 2654435761u) >> 20;
  /* then-blocks on independent bits (clang turns complementary ones into
   * an if-else): the kernel stays convergent (if-converted), where the JIT
   * knows the lanes' strides */
  if (x & 1)
    old[i] = atomic_add(&a[i], x);
  if (x & 8)
    old[5 * n + i] = atomic_sub(&a[i], x);
  old[n + i] = atomic_inc(&a[n + i]);
  if (x & 2)
    old[2 * n + i] = atomic_dec(&a[2 * n + i]);
  if (x & 16)
    old[6 * n + i] = atomic_xor(&a[2 * n + i], x);
  uint o = atomic_or(&a[3 * n + i], x);
  old[3 * n + i] = o ^ atomic_and(&a[3 * n + i], x | 0xf0f0u);
  atomic_add(&b[lid], x);
  old64[i] = atom_add(&c[i], (ulong)x << 33);
  lm[lid] = lid * 3u;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x & 4)
    atomic_add(&lm[lid], x);
  barrier(CLK_LOCAL_MEM_FENCE);
  old[4 * n + i] = lm[lid];
}
