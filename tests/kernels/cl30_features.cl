// OpenCL C 3.0: feature macros (generic address space, program-scope
// globals), generic pointers, a program-scope global variable.
#if defined(__opencl_c_program_scope_global_variables)
global int g_bias = 1000;
#define BIAS g_bias
#else
#define BIAS 1000
#endif
#if defined(__opencl_c_generic_address_space)
__attribute__((noinline)) int twice(const int *p) { return *p * 2; }
#else
__attribute__((noinline)) int twice(const global int *p) { return *p * 2; }
#endif
kernel void cl30_features(global const int *in, global int *out)
{
  int i = get_global_id(0);
  out[2*i+0] = twice(&in[i]) + BIAS;
  out[2*i+1] = __OPENCL_C_VERSION__;
}
