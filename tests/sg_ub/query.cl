// kernels for spirv-sgrun --query (clGetKernelSubGroupInfoKHR)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void q8(global int *o) { o[get_global_id(0)] = get_sub_group_size(); }
kernel void qany(global int *o) { o[get_global_id(0)] = get_sub_group_size(); }
