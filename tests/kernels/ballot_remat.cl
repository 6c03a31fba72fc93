/* Stream compaction by ballot with no barrier (bench/kernels/compact.cl's
 * shape): the predicate, the branch condition and the store address are
 * values the JIT recomputes where they are read (remat_plan): in the
 * ballot's lane loop, the if-conversion's mask and the then-block's store.
 * `salt` moves which lanes keep, so some subgroups keep none or all. */
kernel void ballot_remat(global const uint *in, global uint *out, global uint *counts, uint salt, uint keep_all)
{
  size_t i = get_global_id(0);
  uint lane = get_sub_group_local_id();
  uint x = in[i];
  int keep = ((((x * 2654435761u) ^ salt) >> 16) & 1u) | (x < keep_all);
  uint4 b = sub_group_ballot(keep);
  uint pos = sub_group_ballot_exclusive_scan(b);
  if (keep)
    out[i - lane + pos] = x;
  if (lane == 0)
    counts[i / get_sub_group_size()] = sub_group_ballot_bit_count(b);
}
