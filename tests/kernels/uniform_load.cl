// Loads whose address is the same in every lane of a subgroup: a global int
// in a loop (a[group * 4 + q], as gemm's plain form reads A), a global int at
// a data-driven byte offset (off, the fault cases), a float4 at a uniform
// index, a local int and a constant int.  With every lane active the JIT
// tests lane 0's address once and loads once; a failed test takes the
// per-lane path, whose reports the fault cases check (one element past the
// end, one before the start, two bytes off the int alignment).
kernel void uniform_load(global const int *a, global const float4 *v, constant int *c, global int *out,
                         int k, int off)
{
  local int t[64];
  uint l = get_local_id(0);
  size_t i = get_global_id(0);
  t[l] = a[i] + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int q = 0; q < 4; q++)
    s += a[get_group_id(0) * 4 + q];
  int x = *(global const int *)((global const char *)a + off);
  float4 w = v[k];
  out[4 * i + 0] = s + x;
  out[4 * i + 1] = t[k & 63] + c[k & 7];
  out[4 * i + 2] = (int)(w.x + w.y * 2 + w.z * 3 + w.w * 4);
  out[4 * i + 3] = x;
}
