// Two-level reduction: sub_group_reduce_add, then the subgroup sums are
// combined per work-group through local memory + barrier, and the work-group
// sums go to a global total with an atomic (and to a partials array for a
// second pass).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sg_reduce2(global const int *in, global const float *fin,
                       global int *partial, global float *fpartial,
                       global int *total, local int *scratch, local float *fscratch) {
  uint lid = get_local_id(0);
  size_t g = get_global_id(0);
  int s = sub_group_reduce_add(in[g]);
  float fs = sub_group_reduce_add(fin[g]);
  if (get_sub_group_local_id() == 0) {
    scratch[get_sub_group_id()] = s;
    fscratch[get_sub_group_id()] = fs;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    int acc = 0;
    float facc = 0.0f;
    for (uint i = 0; i < get_num_sub_groups(); i++) {
      acc += scratch[i];
      facc += fscratch[i];
    }
    partial[get_group_id(0)] = acc;
    fpartial[get_group_id(0)] = facc;
    atomic_add(total, acc);
  }
}
