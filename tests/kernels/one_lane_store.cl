/* A store by one lane (lid == 0) after a subgroup reduction, as the reduce
 * benchmark does: the JIT runs lane 0 alone with its own range-check window
 * and, in a kernel compiled for whole subgroups, without a stack entry for
 * the block (jit_emit_control.c: ifc_no_push).  one_lane_store_over: out
 * holds fewer sums than there are subgroups; the stores past its end fault
 * for lane 0 alone, as in the interpreter, and the others land. */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void one_lane_store(global const uint *in, global uint *out)
{
  size_t i = get_global_id(0);
  uint s = sub_group_reduce_add(in[i]);
  if (get_sub_group_local_id() == 0)
    out[i / 16] = s;
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void one_lane_store_over(global const uint *in, global uint *out)
{
  size_t i = get_global_id(0);
  uint s = sub_group_reduce_add(in[i]);
  if (get_sub_group_local_id() == 0)
    out[i / 16 + 3] = s ^ (uint)i;
}

/* Lane 5 alone stores the subgroup's ballot count (the JIT finds the first
 * active lane of the block, 5, without a stack entry: top_m). */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void one_lane_count(global const uint *in, global uint *out)
{
  size_t i = get_global_id(0);
  uint4 b = sub_group_ballot((in[i] >> 7) & 1u);
  if (get_sub_group_local_id() == 5)
    out[i / 16] = sub_group_ballot_bit_count(b) * 100u + (uint)(i & 15u);
}

/* Lane 0 of subgroup `bad` stores far past the end of out; with
 * --stop-on-fault the launch stops there, so the later subgroups store
 * nothing (the JIT reads the stop flag after a subgroup whose host helper
 * ran: jit_emit.c, J.hc). */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void one_lane_store_stop(global const uint *in, global uint *out, uint bad)
{
  size_t i = get_global_id(0);
  uint s = sub_group_reduce_add(in[i]);
  if (get_sub_group_local_id() == 0)
    out[i / 16 + (i / 16 == bad ? 100000u : 0u)] = s;
}
