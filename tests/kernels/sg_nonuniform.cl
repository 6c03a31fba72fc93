// cl_khr_subgroup_non_uniform_arithmetic / _vote / _ballot in divergent
// control flow: every op runs in both arms of if (lid % 3), so each arm's
// lanes of a subgroup work together; plus a loop whose trip count depends on
// the lane.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ID(v) (v)
#define NA 12
#define ARITH(o, x, CV)                                              \
  do {                                                               \
    o[0] = CV(sub_group_non_uniform_reduce_add(x));                  \
    o[1] = CV(sub_group_non_uniform_reduce_mul(x));                  \
    o[2] = CV(sub_group_non_uniform_reduce_min(x));                  \
    o[3] = CV(sub_group_non_uniform_reduce_max(x));                  \
    o[4] = CV(sub_group_non_uniform_scan_inclusive_add(x));          \
    o[5] = CV(sub_group_non_uniform_scan_inclusive_mul(x));          \
    o[6] = CV(sub_group_non_uniform_scan_inclusive_min(x));          \
    o[7] = CV(sub_group_non_uniform_scan_inclusive_max(x));          \
    o[8] = CV(sub_group_non_uniform_scan_exclusive_add(x));          \
    o[9] = CV(sub_group_non_uniform_scan_exclusive_mul(x));          \
    o[10] = CV(sub_group_non_uniform_scan_exclusive_min(x));         \
    o[11] = CV(sub_group_non_uniform_scan_exclusive_max(x));         \
  } while (0)
#define NB 9
#define BITW(o, x)                                                   \
  do {                                                               \
    o[0] = sub_group_non_uniform_reduce_and(x);                      \
    o[1] = sub_group_non_uniform_reduce_or(x);                       \
    o[2] = sub_group_non_uniform_reduce_xor(x);                      \
    o[3] = sub_group_non_uniform_scan_inclusive_and(x);              \
    o[4] = sub_group_non_uniform_scan_inclusive_or(x);               \
    o[5] = sub_group_non_uniform_scan_inclusive_xor(x);              \
    o[6] = sub_group_non_uniform_scan_exclusive_and(x);              \
    o[7] = sub_group_non_uniform_scan_exclusive_or(x);               \
    o[8] = sub_group_non_uniform_scan_exclusive_xor(x);              \
  } while (0)
#define LOGIC(o, p)                                                  \
  do {                                                               \
    o[0] = sub_group_non_uniform_reduce_logical_and(p);              \
    o[1] = sub_group_non_uniform_reduce_logical_or(p);               \
    o[2] = sub_group_non_uniform_reduce_logical_xor(p);              \
    o[3] = sub_group_non_uniform_scan_inclusive_logical_and(p);      \
    o[4] = sub_group_non_uniform_scan_inclusive_logical_or(p);       \
    o[5] = sub_group_non_uniform_scan_inclusive_logical_xor(p);      \
    o[6] = sub_group_non_uniform_scan_exclusive_logical_and(p);      \
    o[7] = sub_group_non_uniform_scan_exclusive_logical_or(p);       \
    o[8] = sub_group_non_uniform_scan_exclusive_logical_xor(p);      \
  } while (0)
#define NV 20
#define VOTE(o, X, F, LN, SS)                                       \
  do {                                                               \
    o[0] = sub_group_elect();                                        \
    o[1] = sub_group_non_uniform_all((X & 3) != 0);                  \
    o[2] = sub_group_non_uniform_any((X & 15) == 5);                 \
    o[3] = sub_group_non_uniform_all_equal(X & 0x100);               \
    o[4] = sub_group_non_uniform_all_equal(F);                       \
    uint4 b = sub_group_ballot((X & 1) != 0);                        \
    o[5] = b.x; o[6] = b.y; o[7] = b.z; o[8] = b.w;                  \
    o[9] = sub_group_inverse_ballot((uint4)(0x5a5a5a5au, 0x0f0f0f0fu, 1u, 2u)); \
    o[10] = sub_group_ballot_bit_extract(b, (LN * 5u) % SS);        \
    o[11] = sub_group_ballot_bit_count(b);                           \
    o[12] = sub_group_ballot_inclusive_scan(b);                      \
    o[13] = sub_group_ballot_exclusive_scan(b);                      \
    o[14] = (b.x | b.y) ? (int)sub_group_ballot_find_lsb(b) : -7;    \
    o[15] = (b.x | b.y) ? (int)sub_group_ballot_find_msb(b) : -7;    \
    o[16] = sub_group_broadcast_first(X);                            \
    o[17] = sub_group_non_uniform_broadcast(X, sub_group_broadcast_first(LN)); \
    o[18] = sub_group_non_uniform_all_equal((long)SS);                \
    o[19] = sub_group_non_uniform_all_equal((half)1.0h);             \
  } while (0)

/* the same statements in reverse order */
#define ARITH_R(o, x, CV) \
  do { \
  o[11] = CV(sub_group_non_uniform_scan_exclusive_max(x)); \
  o[10] = CV(sub_group_non_uniform_scan_exclusive_min(x)); \
  o[9] = CV(sub_group_non_uniform_scan_exclusive_mul(x)); \
  o[8] = CV(sub_group_non_uniform_scan_exclusive_add(x)); \
  o[7] = CV(sub_group_non_uniform_scan_inclusive_max(x)); \
  o[6] = CV(sub_group_non_uniform_scan_inclusive_min(x)); \
  o[5] = CV(sub_group_non_uniform_scan_inclusive_mul(x)); \
  o[4] = CV(sub_group_non_uniform_scan_inclusive_add(x)); \
  o[3] = CV(sub_group_non_uniform_reduce_max(x)); \
  o[2] = CV(sub_group_non_uniform_reduce_min(x)); \
  o[1] = CV(sub_group_non_uniform_reduce_mul(x)); \
  o[0] = CV(sub_group_non_uniform_reduce_add(x)); \
  } while (0)
#define BITW_R(o, x) \
  do { \
  o[8] = sub_group_non_uniform_scan_exclusive_xor(x); \
  o[7] = sub_group_non_uniform_scan_exclusive_or(x); \
  o[6] = sub_group_non_uniform_scan_exclusive_and(x); \
  o[5] = sub_group_non_uniform_scan_inclusive_xor(x); \
  o[4] = sub_group_non_uniform_scan_inclusive_or(x); \
  o[3] = sub_group_non_uniform_scan_inclusive_and(x); \
  o[2] = sub_group_non_uniform_reduce_xor(x); \
  o[1] = sub_group_non_uniform_reduce_or(x); \
  o[0] = sub_group_non_uniform_reduce_and(x); \
  } while (0)
#define LOGIC_R(o, p) \
  do { \
  o[8] = sub_group_non_uniform_scan_exclusive_logical_xor(p); \
  o[7] = sub_group_non_uniform_scan_exclusive_logical_or(p); \
  o[6] = sub_group_non_uniform_scan_exclusive_logical_and(p); \
  o[5] = sub_group_non_uniform_scan_inclusive_logical_xor(p); \
  o[4] = sub_group_non_uniform_scan_inclusive_logical_or(p); \
  o[3] = sub_group_non_uniform_scan_inclusive_logical_and(p); \
  o[2] = sub_group_non_uniform_reduce_logical_xor(p); \
  o[1] = sub_group_non_uniform_reduce_logical_or(p); \
  o[0] = sub_group_non_uniform_reduce_logical_and(p); \
  } while (0)
#define VOTE_R(o, X, F, LN, SS) \
  do { \
  uint4 b = sub_group_ballot((X & 1) != 0); \
  o[19] = sub_group_non_uniform_all_equal((half)1.0h); \
  o[18] = sub_group_non_uniform_all_equal((long)SS); \
  o[17] = sub_group_non_uniform_broadcast(X, sub_group_broadcast_first(LN)); \
  o[16] = sub_group_broadcast_first(X); \
  o[15] = (b.x | b.y) ? (int)sub_group_ballot_find_msb(b) : -7; \
  o[14] = (b.x | b.y) ? (int)sub_group_ballot_find_lsb(b) : -7; \
  o[13] = sub_group_ballot_exclusive_scan(b); \
  o[12] = sub_group_ballot_inclusive_scan(b); \
  o[11] = sub_group_ballot_bit_count(b); \
  o[10] = sub_group_ballot_bit_extract(b, (LN * 5u) % SS); \
  o[9] = sub_group_inverse_ballot((uint4)(0x5a5a5a5au, 0x0f0f0f0fu, 1u, 2u)); \
  o[5] = b.x; o[6] = b.y; o[7] = b.z; o[8] = b.w; \
  o[4] = sub_group_non_uniform_all_equal(F); \
  o[3] = sub_group_non_uniform_all_equal(X & 0x100); \
  o[2] = sub_group_non_uniform_any((X & 15) == 5); \
  o[1] = sub_group_non_uniform_all((X & 3) != 0); \
  o[0] = sub_group_elect(); \
  } while (0)

kernel void sg_nonuniform(global const float *fin, global const double *din, global const ushort *hin,
                          global char *oc, global short *os, global int *oi, global uint *oui,
                          global long *ol, global ulong *oul, global float *of, global double *od,
                          global ushort *oh, global int *obit, global int *ologic, global int *ovote,
                          global int *oloop) {
  uint lid = get_local_id(0);
  uint lane = get_sub_group_local_id(), S = get_max_sub_group_size();
  size_t g = get_global_id(0);
  uint raw = lid * 2654435761u + (uint)get_group_id(0) * 40503u;
  int small = (int)(raw >> 27) - 15;            /* -15..16: products stay meaningful */
  ulong raw64 = ((ulong)raw << 32) ^ ((ulong)raw * 3u);
  size_t a = g * NA, bb = g * NB, v = g * NV;
  if (lid % 3) {
    ARITH((oc + a), (char)small, ID);
    ARITH((os + a), (short)raw, ID);
    ARITH((oi + a), small, ID);
    ARITH((oui + a), raw, ID);
    ARITH((ol + a), (long)raw64, ID);
    ARITH((oul + a), raw64, ID);
    ARITH((of + a), fin[g], ID);
    ARITH((od + a), din[g], ID);
    ARITH((oh + a), as_half(hin[g]), as_ushort);
    BITW((obit + bb), (int)raw);
    LOGIC((ologic + bb), (int)(raw & 0x30));
    VOTE((ovote + v), raw, fin[g], lane, S);
  } else {
    VOTE_R((ovote + v), raw, fin[g], lane, S);
    LOGIC_R((ologic + bb), (int)(raw & 0x30));
    BITW_R((obit + bb), (int)raw);
    ARITH_R((oh + a), as_half(hin[g]), as_ushort);
    ARITH_R((od + a), din[g], ID);
    ARITH_R((of + a), fin[g], ID);
    ARITH_R((oul + a), raw64, ID);
    ARITH_R((ol + a), (long)raw64, ID);
    ARITH_R((oui + a), raw, ID);
    ARITH_R((oi + a), small, ID);
    ARITH_R((os + a), (short)raw, ID);
    ARITH_R((oc + a), (char)small, ID);
  }
  // uniform-flow masks (bits below the maximum subgroup size)
  uint4 m[5] = {get_sub_group_eq_mask(), get_sub_group_ge_mask(), get_sub_group_gt_mask(),
                get_sub_group_le_mask(), get_sub_group_lt_mask()};
  for (int i = 0; i < 5; i++) {
    oloop[g * 24 + 4 + 4 * i + 0] = m[i].x;
    oloop[g * 24 + 4 + 4 * i + 1] = m[i].y;
    oloop[g * 24 + 4 + 4 * i + 2] = m[i].z;
    oloop[g * 24 + 4 + 4 * i + 3] = m[i].w;
  }
  // lane-dependent loop exits: iteration i has the lanes with lane % 5 >= i
  int acc = 0, cnt = 0;
  for (uint i = 0; i < lane % 5 + 1; i++) {
    acc += sub_group_non_uniform_reduce_add((int)(i * 100 + lane));
    cnt += sub_group_non_uniform_scan_inclusive_add(1);
  }
  oloop[g * 24 + 0] = acc;
  oloop[g * 24 + 1] = cnt;
  // while loop with a break on a lane-dependent condition
  int k = 0, last = -1;
  while (1) {
    if (((lane + 3 * k) % 7) == 0 || k > 6)
      break;
    last = sub_group_non_uniform_reduce_max((int)lane + k);
    k++;
  }
  oloop[g * 24 + 2] = last;
  oloop[g * 24 + 3] = sub_group_elect();
}
