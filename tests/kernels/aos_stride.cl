// Arrays of structs and of float2: every member access steps by the
// struct's size (16 bytes) and every float2 by 8, with every lane active.
// The JIT tests the two ends of the subgroup's lanes once and then computes
// each lane's pointer as lane 0's plus l times the stride, for the loads and
// for the stores.  The fault case gives p three elements too few: the last
// subgroup's ends test fails and the per-lane path reports the lanes past
// the end.
typedef struct { float x, y, z, w; } P;
kernel void aos_stride(global const P *p, global const float2 *q, global P *o, global float2 *o2)
{
  size_t i = get_global_id(0);
  P a = p[i];
  float2 b = q[i];
  P r;
  r.x = a.x + b.x;
  r.y = a.y * 2.0f;
  r.z = a.z - b.y;
  r.w = a.w;
  o[i] = r;
  o2[i] = (float2)(a.x * b.y, a.w + b.x);
}
