// Lane values of 128 bytes (64-bit lanes at subgroup size 16), which the
// JIT keeps in two 64-byte vector locals (its wide fields; at S = 32 only
// with SPIRV_SG_JIT_WIDE32=1, so those cases run its lane arrays): a uniform
// loop carries a 64-bit xorshift state, a double and a float Horner sum,
// and a divergent 64-bit accumulation (wide_lanes).  In wide_lanes_bar the
// states then cross a work-group barrier through local memory and a
// subgroup reduction adds the accumulators.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

// the loop both kernels run (a macro: a helper function would be a call at -O0)
#define WIDE_STEPS                                   \
  size_t g = get_global_id(0);                       \
  uint v = in[g];                                    \
  ulong s = (ulong)v * 0x9E3779B97F4A7C15UL + 1;     \
  double x = (double)(v % 1000) * 0.001, y = 0;      \
  float xf = (float)(v % 100) * 0.01f, z = 0;        \
  ulong acc = 0;                                     \
  uint c = 0;                                        \
  for (int k = 0; k < n; k++) {                      \
    s ^= s << 13;                                    \
    s ^= s >> 7;                                     \
    s ^= s << 17;                                    \
    y = y * x + 0.5;                                 \
    z = z * xf + 0.25f;                              \
    if (s & 1) {                                     \
      acc += s >> 40;                                \
      c += v;                                        \
    }                                                \
  }

kernel void wide_lanes(global const uint *in, global ulong *st, global double *yd,
                       global float *yf, global ulong *accs, global uint *cnt, int n)
{
  WIDE_STEPS
  st[g] = s;
  yd[g] = y;
  yf[g] = z;
  accs[g] = acc;
  cnt[g] = c;
}

kernel void wide_lanes_bar(global const uint *in, global ulong *st, global double *yd,
                           global float *yf, global ulong *red, global uint *cnt, int n)
{
  WIDE_STEPS
  local ulong tmp[64];
  tmp[get_local_id(0)] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong other = tmp[(get_local_id(0) + 1) % get_local_size(0)];
  st[g] = s ^ other;
  yd[g] = y;
  yf[g] = z;
  red[g] = sub_group_reduce_add(acc);
  cnt[g] = c;
}
