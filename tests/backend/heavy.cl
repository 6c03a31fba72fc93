/* tests/backend_test.py: enough work per work-group that --backend auto
 * switches to the JIT mid-launch; printf from a few work-groups. */
__kernel void heavy(__global uint *out, uint n) {
  uint g = get_global_id(0);
  uint acc = g;
  for (uint i = 0; i < n; i++)
    acc = acc * 1664525u + 1013904223u + (uint)sub_group_reduce_add((int)i);
  out[g] = acc + sub_group_broadcast(acc, 3);
  if (get_group_id(0) % 1000 == 7 && get_sub_group_local_id() == 0)
    printf("wg %u sg %u\n", (uint)get_group_id(0), (uint)get_sub_group_id());
}
