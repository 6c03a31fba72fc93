// Local-memory atomics run by all 16 lanes of a subgroup, with lanes that
// share an address: increments, decrements and additions and
// subtractions of a constant and of a lane's own value, whose returned old
// values follow lane order, and every lane on one address.  Subgroups run
// one after the other up to the barrier.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void atomic_conflict(global const uint *in, global uint *out, global uint *tab)
{
  local uint h[32];
  uint l = get_local_id(0);
  size_t i = get_global_id(0);
  if (l < 32) h[l] = l * 1000u;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint b = in[i] & 31u;
  uint r1 = atomic_inc(&h[b]);
  uint r2 = atomic_add(&h[(b + 3u) & 31u], 5u);
  uint r3 = atomic_sub(&h[b >> 2], 7u);
  uint r4 = atomic_dec(&h[0]);
  uint r5 = atomic_add(&h[b & 7u], b);
  out[i * 5] = r1;
  out[i * 5 + 1] = r2;
  out[i * 5 + 2] = r3;
  out[i * 5 + 3] = r4;
  out[i * 5 + 4] = r5;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 32) tab[get_group_id(0) * 32 + l] = h[l];
}
