// Correct: the same reduction with the values passed by shuffles instead of
// memory.
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
kernel void ok_lockstep_shuffle(global const int *in, global int *out) {
  int v = in[get_global_id(0)];
  for (uint d = 8; d > 0; d >>= 1)
    v += sub_group_shuffle_xor(v, d);
  if (get_sub_group_local_id() == 0) out[get_group_id(0) * 4 + get_sub_group_id()] = v;
}
