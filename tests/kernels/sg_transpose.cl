// Tile transpose in registers: each lane holds one row of a TxT tile (T = the
// subgroup size); step j sends element (l + j) % T and receives from lane
// (l - j) % T, so lane l ends up with column l.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void sg_transpose8(global const float *in, global float *out, int n) {
  // one subgroup per 8x8 tile; tiles laid out along x
  uint l = get_sub_group_local_id();
  uint tx = get_global_id(0) / 8, ty = get_global_id(1);
  global const float *src = in + (ty * 8 + l) * n + tx * 8;
  float row[8], col[8];
  for (int k = 0; k < 8; k++)
    row[k] = src[k];
  for (uint j = 0; j < 8; j++) {
    uint k = (l - j) & 7;
    col[k] = intel_sub_group_shuffle(row[(l + j) & 7], k);
  }
  // lane l has column l of the input tile = row l of the output tile (tx, ty) -> (ty, tx)
  global float *dst = out + (tx * 8 + l) * n + ty * 8;
  for (int k = 0; k < 8; k++)
    dst[k] = col[k];
}

// The same with cl_khr_subgroup_shuffle at whatever subgroup size the launch
// has (T = get_max_sub_group_size() <= 32, the tile is T x T).
kernel void sg_transpose_khr(global const int *in, global int *out, int n) {
  uint l = get_sub_group_local_id(), T = get_max_sub_group_size();
  uint tx = get_global_id(0) / T, ty = get_global_id(1);
  global const int *src = in + (ty * T + l) * n + tx * T;
  int row[32], col[32];
  for (uint k = 0; k < T; k++)
    row[k] = src[k];
  for (uint j = 0; j < T; j++) {
    uint k = (l + T - j) % T;
    col[k] = sub_group_shuffle(row[(l + j) % T], k);
  }
  global int *dst = out + (tx * T + l) * n + ty * T;
  for (uint k = 0; k < T; k++)
    dst[k] = col[k];
}
