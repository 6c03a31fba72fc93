// OpenCL C 2.0 program-scope global variables: initialised data, updated
// with atomics by every work-item, read back through a second kernel-free
// path (the kernel copies it out after all groups have incremented).
global int counter = 5;
global int table[4] = {1, 2, 3, 4};
kernel void program_scope_global(global const int *in, global int *out)
{
  int i = get_global_id(0);
  out[i] = table[in[i] & 3] * 10 + counter;   /* counter is only read */
}
