// If-else shapes the JIT if-converts (IFC_ELSE): each arm one block, the
// then-arm (the branch's first target) first under its lanes, then the
// else-arm under the others, as the interpreter's stack runs them.
// Subgroup operations in the arms see exactly their own lanes; an arm's
// values meet at the merge's phi; an else-arm store past its buffer's end
// faults for its own lanes only (last case).  The second if-else singles
// out one lane (`lid == 3`: the JIT's one-lane then-block).
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
kernel void ifc_else(global const uint *in, global uint *a, global uint *b, global uint *c, global uint *d)
{
  uint gid = get_global_id(0);
  uint v = in[gid];
  uint r;
  if (v & 1) {
    a[gid] = v * 3u;
    r = sub_group_non_uniform_reduce_add(v);
  } else {
    b[gid] = v + 7u;
    r = sub_group_non_uniform_reduce_max(v) + 1000000u;
  }
  c[gid] = r;
  uint e;
  if (get_sub_group_local_id() == 3)
    e = 1u;
  else
    e = 2u + sub_group_non_uniform_reduce_add(1u);
  d[gid] = e;
}
