// 64-bit atomics (cl_khr_int64_base_atomics / extended_atomics) on global
// and local memory.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomics64(global const long *in, global long *acc, global long *grp_out)
{
  local long l[2];
  int lid = get_local_id(0);
  if (lid == 0) { l[0] = 0; l[1] = LONG_MIN; }
  barrier(CLK_LOCAL_MEM_FENCE);
  long v = in[get_global_id(0)];
  atom_add(&acc[0], v);
  atom_min(&acc[1], v);
  atom_max(&acc[2], v);
  atom_xor(&acc[3], v);
  atom_cmpxchg(&acc[4], 0L, v | 1L);       /* some lane wins; the value is odd */
  atom_add(&l[0], v >> 3);
  atom_max(&l[1], v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 2) grp_out[get_group_id(0) * 2 + lid] = l[lid];
}
