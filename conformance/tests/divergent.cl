/* A collective inside lane-dependent control flow (sub_group_reduce_add in
 * an if on the subgroup local id): spirv-sgconform check must report it. */
__kernel void divergent(__global const int *in, __global int *out)
{
  size_t i = get_global_id(0);
  int v = in[i];
  if (get_sub_group_local_id() < 3) {
    v = sub_group_reduce_add(v);
  }
  out[i] = v;
}
