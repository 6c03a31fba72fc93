/* Ballot-compress stores (the JIT's vpcompress path, compress_store in
 * jit/jit_emit_memory.c): stream compaction where the lanes at the store
 * are the ballot's (one compressed store) and where they are a subset (the
 * general store), 64-bit values, partial subgroups, and stores partly out
 * of bounds or into read-only memory, which must take the checked store
 * and report exactly as the interpreter does. */
kernel void cs_subset(global const uint *in, global uint *out, uint salt)
{
  size_t i = get_global_id(0);
  uint lane = get_sub_group_local_id();
  uint x = in[i];
  int keep = (((x * 2654435761u) ^ salt) >> 16) & 1u;
  uint4 b = sub_group_ballot(keep);
  uint pos = sub_group_ballot_exclusive_scan(b);
  if (keep && ((x >> 3) & 1u))
    out[i - lane + pos] = x;
}

kernel void cs_long(global const ulong *in, global ulong *out)
{
  size_t i = get_global_id(0);
  uint lane = get_sub_group_local_id();
  ulong x = in[i];
  int keep = (x >> 17) & 1;
  uint4 b = sub_group_ballot(keep);
  uint pos = sub_group_ballot_exclusive_scan(b);
  if (keep)
    out[i - lane + pos] = x;
}

kernel void cs_partial(global const float *in, global float *out, global uint *counts)
{
  size_t i = get_global_id(0);
  uint lane = get_sub_group_local_id();
  float x = in[i];
  int keep = x > 0.0f;
  uint4 b = sub_group_ballot(keep);
  uint pos = sub_group_ballot_exclusive_scan(b);
  if (keep)
    out[i - lane + pos] = x;
  if (lane == 0)
    counts[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = sub_group_ballot_bit_count(b);
}

kernel void cs_bounds(global const uint *in, global uint *out, uint from)
{
  size_t i = get_global_id(0);
  uint lane = get_sub_group_local_id();
  uint x = in[i];
  int keep = ((x >> 5) & 1u) | (i >= from);
  uint4 b = sub_group_ballot(keep);
  uint pos = sub_group_ballot_exclusive_scan(b);
  if (keep)
    out[i - lane + pos] = x;
}
