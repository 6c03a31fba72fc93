/* Stream compaction with ballots: each subgroup packs the inputs it keeps to
 * the front of its 16-element slice of out (sub_group_ballot +
 * sub_group_ballot_exclusive_scan) and writes its count. */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void compact(global const uint *in, global uint *out, global uint *counts)
{
  size_t i = get_global_id(0);
  uint lane = get_sub_group_local_id();
  uint x = in[i];
  int keep = ((x * 2654435761u) >> 16) & 1u;
  uint4 b = sub_group_ballot(keep);
  uint pos = sub_group_ballot_exclusive_scan(b);
  if (keep)
    out[i - lane + pos] = x;
  if (lane == 0)
    counts[i / 16] = sub_group_ballot_bit_count(b);
}
