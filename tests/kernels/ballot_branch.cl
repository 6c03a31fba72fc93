// A branch whose condition tests the same value as an earlier ballot's
// predicate (with the same sense, ballot_odd, or the opposite one,
// ballot_even): the JIT takes the lanes of such a branch from the ballot's
// bits when every lane is active.  The then-blocks store, so that clang
// keeps them as branches.
kernel void ballot_odd(global const uint *in, global uint *out, global uint *sel)
{
  size_t i = get_global_id(0);
  uint x = in[i];
  uint4 b = sub_group_ballot(x & 1u);
  out[i] = b.x;
  if (x & 1u)
    sel[i] = x + 1000u;
  if ((x & 2u) == 0)   /* no ballot of this one: the lane loop */
    out[i] = b.x + 300000u;
}

kernel void ballot_even(global const uint *in, global uint *out, global uint *sel)
{
  size_t i = get_global_id(0);
  uint x = in[i];
  uint4 b = sub_group_ballot(x & 1u);
  out[i] = b.x;
  if (!(x & 1u))
    sel[i] = x + 20000u;
  if ((x & 2u) == 0)
    out[i] = b.x + 300000u;
}
