/* tests/backend_test.py: faults (out-of-bounds reads), UB (shuffle index
 * out of range) and printf in a few of 4096 work-groups. */
__kernel void faulty(__global int *out, __global const int *in, uint n) {
  uint g = get_global_id(0);
  int v = in[g];
  if (get_group_id(0) % 512 == 5 && get_sub_group_local_id() >= 2 && get_sub_group_local_id() < 5)
    v = in[g + n];
  int w = sub_group_shuffle(v, (uint)(get_group_id(0) % 512 == 6 && get_sub_group_id() == 1 ? 40 : get_sub_group_local_id() ^ 1));
  out[g] = v * 2 + w;
  if (get_group_id(0) % 512 == 9 && get_local_id(0) == 0) printf("g%u\n", (uint)get_group_id(0));
}
