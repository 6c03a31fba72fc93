/* Divergent branch: only odd lanes take the first branch. */
__kernel void divergent(__global int *out)
{
  uint lid = get_sub_group_local_id();
  int v = (int)lid;
  if (lid % 2 == 1) {
    v = v * 10;
  } else {
    v = v + 100;
  }
  out[get_global_id(0)] = v;
}
