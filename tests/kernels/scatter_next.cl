// Scattered stores whose addresses come from the built-in ids: the JIT
// prefetches, for writing, the address lane 0 will store to in the next
// subgroup (the pointer's expression rebuilt with the next subgroup's ids:
// x + S in a work-group wider than S, else y + S / width; the linear ids,
// the subgroup id).  A prefetch never changes a result: this test makes sure
// the rebuilt expressions compile for each id and work-group shape, and that
// the stores themselves stay exact.  out1: a rotation inside each subgroup
// (transpose's pattern), in a loop; out2: a permutation by the subgroup id;
// out3: the transposed grid (a column per subgroup row).
kernel void scatter_next(global const int *in, global int *out1, global int *out2, global int *out3)
{
  size_t gw = get_global_size(0), gh = get_global_size(1), n = gw * gh;
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t wgs = get_local_size(0) * get_local_size(1);
  size_t grp = get_group_id(1) * get_num_groups(0) + get_group_id(0);
  size_t gl = grp * wgs + get_local_linear_id();
  uint l = get_sub_group_local_id(), sz = get_sub_group_size();
  int v = in[y * gw + x];
  for (uint k = 0; k < 4; k++)
    out1[k * n + gl - l + ((l + k) % sz)] = v + (int)k;
  out2[grp * wgs + get_sub_group_id() * get_max_sub_group_size() + ((l * 3 + 1) % sz)] = v;
  out3[x * gh + y] = v;
}
