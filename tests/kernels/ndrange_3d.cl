// 3D NDRange: ids and a 3D stencil-like sum over a small volume.
kernel void ndrange_3d(global const int *vol, global int *out, global int *ids)
{
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int X = get_global_size(0), Y = get_global_size(1), Z = get_global_size(2);
  int idx = (z * Y + y) * X + x;
  int s = vol[idx];
  if (x > 0) s += vol[idx - 1];
  if (y + 1 < Y) s += vol[idx + X];
  if (z > 0) s -= vol[idx - X * Y];
  out[idx] = s;
  ids[4*idx+0] = get_group_id(2) * 100 + get_group_id(1) * 10 + get_group_id(0);
  ids[4*idx+1] = get_local_id(2) * 100 + get_local_id(1) * 10 + get_local_id(0);
  ids[4*idx+2] = get_work_dim();
  ids[4*idx+3] = Z;
}
