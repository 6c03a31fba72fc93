// One sum per subgroup, written by the subgroup's first lane (the IL test of
// tests/icd/host_tests.c loads this as SPIR-V through clCreateProgramWithIL).
kernel void sg_sum(global const uint *in, global uint *out)
{
  uint s = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    out[get_global_id(0) / get_max_sub_group_size()] = s;
}
