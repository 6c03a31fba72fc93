/* A divergent loop: the Collatz step count of in[i] + 1, a trip count that
 * differs from work-item to work-item (the JIT's masked loop: every trip
 * under the lanes still in the loop).  No subgroup operations: also its own
 * plain form. */
kernel void collatz(global const uint *in, global uint *out)
{
  ulong x = (ulong)in[get_global_id(0)] + 1;
  uint s = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x >> 1;
    s++;
  }
  out[get_global_id(0)] = s;
}
