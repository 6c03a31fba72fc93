// Stream compaction (stable within a work-group): keep x with x % 3 == 0.
// sub_group_ballot + bit_count / exclusive scan give each kept element its
// slot in the subgroup; subgroup counts are combined through local memory;
// sub_group_broadcast_first hands the subgroup's base to the
// kept lanes; the total goes to a global counter.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sg_compact(global const int *in, global int *out, global int *counts,
                       global int *first_kept, global int *total, local uint *sgcount) {
  size_t g = get_global_id(0);
  uint lid = get_local_id(0), sg = get_sub_group_id(), L = get_local_size(0);
  int x = in[g];
  int keep = (x % 3) == 0;
  uint4 b = sub_group_ballot(keep);
  uint cnt = sub_group_ballot_bit_count(b);
  uint pos = sub_group_ballot_exclusive_scan(b);
  if (get_sub_group_local_id() == 0)
    sgcount[sg] = cnt;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (keep) {
    uint base = 0;
    if (sub_group_elect())
      for (uint i = 0; i < sg; i++)
        base += sgcount[i];
    base = sub_group_broadcast_first(base);
    out[get_group_id(0) * L + base + pos] = x;
    first_kept[get_group_id(0) * 128 + sg] = sub_group_broadcast_first((int)lid);
  }
  if (lid == 0) {
    uint c = 0;
    for (uint i = 0; i < get_num_sub_groups(); i++)
      c += sgcount[i];
    counts[get_group_id(0)] = c;
    atomic_add(total, (int)c);
  }
}
