// If-converted then-blocks that every lane of a subgroup takes run a copy
// compiled without a mask (jit_emit_control.c: ifc_full_entry); a subgroup
// with some lanes out runs the masked block.  Both here: a bounds guard
// whose last subgroup is partial, and a data-dependent condition true for
// whole subgroups, some lanes, or none.  The subgroup reductions inside
// count exactly the lanes that take the block.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void ifc_guard(global const float *x, global float *y, global uint *r, uint n)
{
  size_t i = get_global_id(0);
  if (i < n) {
    y[i] = 2.0f * x[i] + 1.0f;
    r[i] = sub_group_reduce_add((uint)i) + get_sub_group_local_id();
  }
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void ifc_data(global const uint *x, global uint *y, global uint *r)
{
  size_t i = get_global_id(0);
  uint v = x[i];
  if (v & 1u) {                    /* y[i] read and written under the lanes' mask */
    y[i] = y[i] * 2u + v * 3u + (uint)i;
    r[i] = sub_group_reduce_add(1u) * 100u + sub_group_reduce_max(v);
  }
}
