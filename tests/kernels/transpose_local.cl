// 2D matrix transpose through a local tile (with +1 padding), 2D NDRange.
#define T 8
kernel void transpose_local(global const float *in, global float *out, int w, int h)
{
  local float tile[T][T + 1];
  int x = get_global_id(0), y = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = get_group_id(1) * T + lx, oy = get_group_id(0) * T + ly;
  out[oy * h + ox] = tile[lx][ly];
}
