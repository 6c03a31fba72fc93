/* One-lane blocks: `if (get_sub_group_local_id() == K)` can run only lane
 * K, and the JIT emits such a block for that lane alone (ifc_lane_bound in
 * jit/jit_emit_control.c).  The block loads, stores and defines a value the
 * merge point reads (a phi); its load and store fault for some subgroups,
 * K may be past the subgroup size (no lane) or past a partial subgroup's
 * last lane.  Outputs and faults must be the interpreter's. */
kernel void one_lane(global const uint *in, global uint *per_sg, global uint *out, uint base)
{
  size_t i = get_global_id(0);
  uint lid = get_sub_group_local_id();
  uint sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
  uint r = 7u;
  if (lid == K) {
    r = in[base + sg] * 2u + lid;
    per_sg[sg] = r + 1u;
  }
  out[i] = r;
}
