/* Global integer atomics from many work-groups, run with -j 1 and -j 2: the
 * JIT uses plain reads and writes when one thread runs the whole launch and
 * locked instructions when two do (docs/semantics.md, Atomics), and both
 * must give every update.  The results do not depend on the order.  bins
 * and wide are only added to (with unused results): with two threads the
 * JIT adds into per-run copies (deferred atomics), also where some lanes
 * fault (bin index past 64 with mask 127). */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void atomic_threads(global const uint *in, global uint *bins, global uint *misc, global ulong *wide,
                           uint mask)
{
  size_t i = get_global_id(0);
  uint x = in[i];
  atomic_add(&bins[x & mask], x >> 6);
  atomic_inc(&misc[0]);
  atomic_sub(&misc[1], x & 0xffu);
  atomic_xor(&misc[2], x);
  atomic_or(&misc[3], 1u << (x & 31u));
  atomic_and(&misc[4], ~(1u << (x % 29u)));
  atomic_dec(&misc[5]);
  atom_add(&wide[x & 7u], (ulong)x << 20);
}
