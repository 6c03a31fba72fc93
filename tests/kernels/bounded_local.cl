// Local atomics whose index the JIT bounds from its definition (a logical
// right shift by a constant, an AND with a constant, a remainder by a
// constant, a zero extension): one test of the variable's size replaces the
// lanes' address tests.  bounded_local_over: a shift that leaves indices past
// the array (>> 23 into 256 bins, and a uchar index into 200): those lanes
// fault, as in the interpreter, and the others' increments happen.
kernel void bounded_local(global const uint *in, global uint *out)
{
  local uint h1[256];
  local uint h2[64];
  local uint h3[10];
  local uint h4[256];
  uint lid = get_local_id(0), grp = get_group_id(0);
  h1[lid] = 0;
  if (lid < 64) h2[lid] = 0;
  if (lid < 10) h3[lid] = 0;
  h4[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x = in[get_global_id(0)];
  atomic_inc(&h1[(x * 2654435761u) >> 24]);
  atomic_add(&h2[x & 63], x >> 6);
  atomic_sub(&h3[x % 10], 1u);
  atomic_add(&h4[(uchar)(x >> 3)], 2u);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[grp * 586 + lid] = h1[lid];
  if (lid < 64) out[grp * 586 + 256 + lid] = h2[lid];
  if (lid < 10) out[grp * 586 + 320 + lid] = h3[lid];
  out[grp * 586 + 330 + lid] = h4[lid];
}

kernel void bounded_local_over(global const uint *in, global uint *out)
{
  local uint h[256];
  uint lid = get_local_id(0);
  h[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x = in[get_global_id(0)];
  atomic_inc(&h[(x * 2654435761u) >> 23]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = h[lid];
}

// A constant table read at bounded indices (a zero extension of a uchar, a
// shift, an AND).
constant uint TAB[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
kernel void bounded_const(global const uint *in, global uint *out)
{
  uint x = in[get_global_id(0)];
  out[get_global_id(0)] = TAB[x & 15] * 100 + TAB[x >> 28] * 10 + TAB[(uchar)x % 16];
}
