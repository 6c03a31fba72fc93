/* cf_ops.c - the case space: types, operation table, shapes, lane layout. */
#include <stdio.h>
#include <string.h>
#define CL_TARGET_OPENCL_VERSION 300   /* OpenCL 3.0 names (cl_version.h asks for one) */
#include <CL/cl.h>
#include "cf.h"

const cf_scalar_info cf_scalars[CF_N_SCALARS] = {
  {"char", 'i', 1}, {"uchar", 'u', 1}, {"short", 'i', 2}, {"ushort", 'u', 2},
  {"int", 'i', 4}, {"uint", 'u', 4}, {"long", 'i', 8}, {"ulong", 'u', 8},
  {"half", 'f', 2}, {"float", 'f', 4}, {"double", 'f', 8},
};

const char *cf_type_name(cf_type t, char *buf, size_t size)
{
  if (t.vec <= 1)
    snprintf(buf, size, "%s", cf_scalars[t.s].name);
  else
    snprintf(buf, size, "%s%u", cf_scalars[t.s].name, t.vec);
  return buf;
}

uint32_t cf_type_size(cf_type t)
{
  uint32_t n = t.vec == 3 ? 4 : (t.vec ? t.vec : 1);
  return n * cf_scalars[t.s].bytes;
}

bool cf_type_parse(const char *s, cf_type *out)
{
  for (int i = CF_N_SCALARS - 1; i >= 0; --i) {
    size_t n = strlen(cf_scalars[i].name);
    if (strncmp(s, cf_scalars[i].name, n) != 0)
      continue;
    /* "uchar" must not match "char": exact prefix then digits only */
    const char *r = s + n;
    unsigned v = 1;
    if (*r) {
      if (sscanf(r, "%u", &v) != 1)
        continue;
      if (v != 2 && v != 3 && v != 4 && v != 8 && v != 16)
        return false;
    }
    out->s = (cf_scalar)i;
    out->vec = v;
    return true;
  }
  return false;
}

const cf_family_info cf_families[CF_N_FAMILIES] = {
  [CF_FAM_KHR] = {"khr", "cl_khr_subgroups"},
  [CF_FAM_QUERY] = {"query", "cl_khr_subgroups"},
  [CF_FAM_EXT_TYPES] = {"ext_types", "cl_khr_subgroup_extended_types"},
  [CF_FAM_VOTE] = {"vote", "cl_khr_subgroup_non_uniform_vote"},
  [CF_FAM_BALLOT] = {"ballot", "cl_khr_subgroup_ballot"},
  [CF_FAM_ARITH] = {"arith", "cl_khr_subgroup_non_uniform_arithmetic"},
  [CF_FAM_SHUFFLE] = {"shuffle", "cl_khr_subgroup_shuffle"},
  [CF_FAM_SHUFFLE_REL] = {"shuffle_rel", "cl_khr_subgroup_shuffle_relative"},
  [CF_FAM_CLUSTERED] = {"clustered", "cl_khr_subgroup_clustered_reduce"},
  [CF_FAM_ROTATE] = {"rotate", "cl_khr_subgroup_rotate"},
  [CF_FAM_INTEL] = {"intel", "cl_intel_subgroups"},
  [CF_FAM_INTEL_BLOCK] = {"intel_block", "cl_intel_subgroups"},
  [CF_FAM_BARRIER] = {"sg_barrier", "cl_khr_subgroups"},
  [CF_FAM_INTEL_SPV] = {"intel_spv", "cl_intel_subgroups_char, cl_intel_subgroups_long"},
  [CF_FAM_INTEL_IMAGE_BLOCK] = {"intel_image_block", "cl_intel_subgroups"},
};

const char *const cf_flow_names[CF_N_FLOWS] = {"uniform", "ifelse", "nested", "loop"};
const char *const cf_shape_names[CF_N_SHAPES] = {"1d", "1dpart", "2d", "3d", "nonuni"};

#define V(...) (uint32_t)((__VA_ARGS__))
#define VEC_ALL (V((1u << 2) | (1u << 3) | (1u << 4) | (1u << 8) | (1u << 16)))
#define INTEL_VEC_T (CF_TS(CF_INT) | CF_TS(CF_UINT) | CF_TS(CF_FLOAT) | CF_TS(CF_SHORT) | CF_TS(CF_USHORT))
#define INTEL_T (CF_TS(CF_INT) | CF_TS(CF_UINT) | CF_TS(CF_FLOAT) | CF_TS(CF_LONG) | \
                 CF_TS(CF_ULONG) | CF_TS(CF_HALF) | CF_TS(CF_DOUBLE) | CF_TS(CF_SHORT) | CF_TS(CF_USHORT))

static const int clusters[] = {1, 2, 4, 8, 16, 32, 64};
static const int nub_ids[] = {0, 1, 5};
static const int block_n[] = {1, 2, 4, 8};
/* sub_group_barrier forms: 1 (CLK_LOCAL_MEM_FENCE), 2 (local | global fence),
 * 3 (local fence, memory_scope_sub_group), 4 (local fence, memory_scope_work_group) */
static const int barrier_forms[] = {1, 2, 3, 4};
static const int block_n8[] = {1, 2, 4, 8, 16};
#define VEC_NO3 (V((1u << 2) | (1u << 4) | (1u << 8) | (1u << 16)))
#define CHARS (CF_TS(CF_CHAR) | CF_TS(CF_UCHAR))

#define CL .variants = clusters, .n_variants = 7, .pow2_variant = true

/* The khr scans and reductions of cl_khr_subgroups and of
 * cl_khr_subgroup_extended_types share names; the families differ in types. */
#define KHR_RS(fam, T, pre, suf, sem, a) \
  {pre suf, fam, "sub_group_" pre suf, sem, a, CF_SIG_X, CF_RES_T, T, 0, false, false, NULL, 0}
#define KHR_ARITH(fam, T) \
  KHR_RS(fam, T, "reduce_", "add", CF_SEM_REDUCE, CF_A_ADD), \
  KHR_RS(fam, T, "reduce_", "min", CF_SEM_REDUCE, CF_A_MIN), \
  KHR_RS(fam, T, "reduce_", "max", CF_SEM_REDUCE, CF_A_MAX), \
  KHR_RS(fam, T, "scan_inclusive_", "add", CF_SEM_SCAN_INC, CF_A_ADD), \
  KHR_RS(fam, T, "scan_inclusive_", "min", CF_SEM_SCAN_INC, CF_A_MIN), \
  KHR_RS(fam, T, "scan_inclusive_", "max", CF_SEM_SCAN_INC, CF_A_MAX), \
  KHR_RS(fam, T, "scan_exclusive_", "add", CF_SEM_SCAN_EXC, CF_A_ADD), \
  KHR_RS(fam, T, "scan_exclusive_", "min", CF_SEM_SCAN_EXC, CF_A_MIN), \
  KHR_RS(fam, T, "scan_exclusive_", "max", CF_SEM_SCAN_EXC, CF_A_MAX)

#define LC_ADD "add"
#define LC_MUL "mul"
#define LC_MIN "min"
#define LC_MAX "max"
#define LC_AND "and"
#define LC_OR "or"
#define LC_XOR "xor"
#define NU(kind, sem, a, T) \
  {kind LC_##a, CF_FAM_ARITH, "sub_group_non_uniform_" kind LC_##a, sem, CF_A_##a, CF_SIG_X, CF_RES_T, T, 0, true, false, NULL, 0}
#define NUL(kind, sem, a) \
  {kind "logical_" LC_##a, CF_FAM_ARITH, "sub_group_non_uniform_" kind "logical_" LC_##a, sem, CF_A_L##a, CF_SIG_PRED, CF_RES_BOOL, CF_TS(CF_INT), 0, true, false, NULL, 0}
#define NU_KIND(kind, sem) \
  NU(kind, sem, ADD, CF_T_ALL), NU(kind, sem, MUL, CF_T_ALL), NU(kind, sem, MIN, CF_T_ALL), \
  NU(kind, sem, MAX, CF_T_ALL), NU(kind, sem, AND, CF_T_INTS), NU(kind, sem, OR, CF_T_INTS), \
  NU(kind, sem, XOR, CF_T_INTS), NUL(kind, sem, AND), NUL(kind, sem, OR), NUL(kind, sem, XOR)
#define CLU(a, T) \
  {"clustered_reduce_" LC_##a, CF_FAM_CLUSTERED, "sub_group_clustered_reduce_" LC_##a, CF_SEM_CLUSTERED, CF_A_##a, CF_SIG_XV, CF_RES_T, T, 0, true, CL}
#define CLUL(a) \
  {"clustered_reduce_logical_" LC_##a, CF_FAM_CLUSTERED, "sub_group_clustered_reduce_logical_" LC_##a, CF_SEM_CLUSTERED, CF_A_L##a, CF_SIG_PRED, CF_RES_BOOL, CF_TS(CF_INT), 0, true, CL}

const cf_op cf_ops[] = {
  /* cl_khr_subgroups */
  {"all", CF_FAM_KHR, "sub_group_all", CF_SEM_ALL, CF_A_NONE, CF_SIG_PRED, CF_RES_BOOL, CF_TS(CF_INT), 0, false, false, NULL, 0},
  {"any", CF_FAM_KHR, "sub_group_any", CF_SEM_ANY, CF_A_NONE, CF_SIG_PRED, CF_RES_BOOL, CF_TS(CF_INT), 0, false, false, NULL, 0},
  {"broadcast", CF_FAM_KHR, "sub_group_broadcast", CF_SEM_BROADCAST, CF_A_NONE, CF_SIG_XP, CF_RES_T, CF_T_KHR, 0, false, false, NULL, 0},
  KHR_ARITH(CF_FAM_KHR, CF_T_KHR),
  {"get_sub_group_size", CF_FAM_QUERY, "get_sub_group_size", CF_SEM_Q_SIZE, CF_A_NONE, CF_SIG_VOID, CF_RES_UINT, CF_TS(CF_UINT), 0, false, false, NULL, 0},
  {"get_max_sub_group_size", CF_FAM_QUERY, "get_max_sub_group_size", CF_SEM_Q_MAX_SIZE, CF_A_NONE, CF_SIG_VOID, CF_RES_UINT, CF_TS(CF_UINT), 0, false, false, NULL, 0},
  {"get_num_sub_groups", CF_FAM_QUERY, "get_num_sub_groups", CF_SEM_Q_NUM, CF_A_NONE, CF_SIG_VOID, CF_RES_UINT, CF_TS(CF_UINT), 0, false, false, NULL, 0},
  {"get_enqueued_num_sub_groups", CF_FAM_QUERY, "get_enqueued_num_sub_groups", CF_SEM_Q_ENQ_NUM, CF_A_NONE, CF_SIG_VOID, CF_RES_UINT, CF_TS(CF_UINT), 0, false, false, NULL, 0},
  {"get_sub_group_id", CF_FAM_QUERY, "get_sub_group_id", CF_SEM_Q_ID, CF_A_NONE, CF_SIG_VOID, CF_RES_UINT, CF_TS(CF_UINT), 0, false, false, NULL, 0},
  {"get_sub_group_local_id", CF_FAM_QUERY, "get_sub_group_local_id", CF_SEM_Q_LOCAL_ID, CF_A_NONE, CF_SIG_VOID, CF_RES_UINT, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  /* cl_khr_subgroup_extended_types: 8/16-bit scalars everywhere, vectors for broadcast */
  {"broadcast", CF_FAM_EXT_TYPES, "sub_group_broadcast", CF_SEM_BROADCAST, CF_A_NONE, CF_SIG_XP, CF_RES_T, CF_T_ALL, VEC_ALL, false, false, NULL, 0},
  KHR_ARITH(CF_FAM_EXT_TYPES, CF_T_EXT8_16),
  /* cl_khr_subgroup_non_uniform_vote */
  {"elect", CF_FAM_VOTE, "sub_group_elect", CF_SEM_ELECT, CF_A_NONE, CF_SIG_VOID, CF_RES_BOOL, CF_TS(CF_INT), 0, true, false, NULL, 0},
  {"non_uniform_all", CF_FAM_VOTE, "sub_group_non_uniform_all", CF_SEM_ALL, CF_A_NONE, CF_SIG_PRED, CF_RES_BOOL, CF_TS(CF_INT), 0, true, false, NULL, 0},
  {"non_uniform_any", CF_FAM_VOTE, "sub_group_non_uniform_any", CF_SEM_ANY, CF_A_NONE, CF_SIG_PRED, CF_RES_BOOL, CF_TS(CF_INT), 0, true, false, NULL, 0},
  {"non_uniform_all_equal", CF_FAM_VOTE, "sub_group_non_uniform_all_equal", CF_SEM_ALL_EQUAL, CF_A_NONE, CF_SIG_X, CF_RES_BOOL, CF_T_ALL, 0, true, false, NULL, 0},
  /* cl_khr_subgroup_ballot */
  {"non_uniform_broadcast", CF_FAM_BALLOT, "sub_group_non_uniform_broadcast", CF_SEM_NU_BROADCAST, CF_A_NONE, CF_SIG_XV, CF_RES_T, CF_T_ALL, VEC_ALL, true, false, nub_ids, 3},
  {"broadcast_first", CF_FAM_BALLOT, "sub_group_broadcast_first", CF_SEM_BROADCAST_FIRST, CF_A_NONE, CF_SIG_X, CF_RES_T, CF_T_ALL, 0, true, false, NULL, 0},
  {"ballot", CF_FAM_BALLOT, "sub_group_ballot", CF_SEM_BALLOT, CF_A_NONE, CF_SIG_PRED, CF_RES_UINT4, CF_TS(CF_INT), 0, true, false, NULL, 0},
  {"inverse_ballot", CF_FAM_BALLOT, "sub_group_inverse_ballot", CF_SEM_INVERSE_BALLOT, CF_A_NONE, CF_SIG_Q, CF_RES_BOOL, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"ballot_bit_extract", CF_FAM_BALLOT, "sub_group_ballot_bit_extract", CF_SEM_BIT_EXTRACT, CF_A_NONE, CF_SIG_QA, CF_RES_BOOL, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"ballot_bit_count", CF_FAM_BALLOT, "sub_group_ballot_bit_count", CF_SEM_BIT_COUNT, CF_A_NONE, CF_SIG_Q, CF_RES_UINT, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"ballot_inclusive_scan", CF_FAM_BALLOT, "sub_group_ballot_inclusive_scan", CF_SEM_BALLOT_INC, CF_A_NONE, CF_SIG_Q, CF_RES_UINT, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"ballot_exclusive_scan", CF_FAM_BALLOT, "sub_group_ballot_exclusive_scan", CF_SEM_BALLOT_EXC, CF_A_NONE, CF_SIG_Q, CF_RES_UINT, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"ballot_find_lsb", CF_FAM_BALLOT, "sub_group_ballot_find_lsb", CF_SEM_BALLOT_LSB, CF_A_NONE, CF_SIG_Q, CF_RES_UINT, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"ballot_find_msb", CF_FAM_BALLOT, "sub_group_ballot_find_msb", CF_SEM_BALLOT_MSB, CF_A_NONE, CF_SIG_Q, CF_RES_UINT, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"eq_mask", CF_FAM_BALLOT, "get_sub_group_eq_mask", CF_SEM_MASK_EQ, CF_A_NONE, CF_SIG_VOID, CF_RES_MASK, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"ge_mask", CF_FAM_BALLOT, "get_sub_group_ge_mask", CF_SEM_MASK_GE, CF_A_NONE, CF_SIG_VOID, CF_RES_MASK, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"gt_mask", CF_FAM_BALLOT, "get_sub_group_gt_mask", CF_SEM_MASK_GT, CF_A_NONE, CF_SIG_VOID, CF_RES_MASK, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"le_mask", CF_FAM_BALLOT, "get_sub_group_le_mask", CF_SEM_MASK_LE, CF_A_NONE, CF_SIG_VOID, CF_RES_MASK, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  {"lt_mask", CF_FAM_BALLOT, "get_sub_group_lt_mask", CF_SEM_MASK_LT, CF_A_NONE, CF_SIG_VOID, CF_RES_MASK, CF_TS(CF_UINT), 0, true, false, NULL, 0},
  /* cl_khr_subgroup_non_uniform_arithmetic */
  NU_KIND("reduce_", CF_SEM_REDUCE),
  NU_KIND("scan_inclusive_", CF_SEM_SCAN_INC),
  NU_KIND("scan_exclusive_", CF_SEM_SCAN_EXC),
  /* cl_khr_subgroup_shuffle, _shuffle_relative, _rotate */
  {"shuffle", CF_FAM_SHUFFLE, "sub_group_shuffle", CF_SEM_SHUFFLE, CF_A_NONE, CF_SIG_XA, CF_RES_T, CF_T_ALL, 0, true, false, NULL, 0},
  {"shuffle_xor", CF_FAM_SHUFFLE, "sub_group_shuffle_xor", CF_SEM_SHUFFLE_XOR, CF_A_NONE, CF_SIG_XA, CF_RES_T, CF_T_ALL, 0, true, false, NULL, 0},
  {"shuffle_up", CF_FAM_SHUFFLE_REL, "sub_group_shuffle_up", CF_SEM_SHUFFLE_UP, CF_A_NONE, CF_SIG_XP, CF_RES_T, CF_T_ALL, 0, true, false, NULL, 0},
  {"shuffle_down", CF_FAM_SHUFFLE_REL, "sub_group_shuffle_down", CF_SEM_SHUFFLE_DOWN, CF_A_NONE, CF_SIG_XP, CF_RES_T, CF_T_ALL, 0, true, false, NULL, 0},
  {"rotate", CF_FAM_ROTATE, "sub_group_rotate", CF_SEM_ROTATE, CF_A_NONE, CF_SIG_XP, CF_RES_T, CF_T_ALL, 0, true, false, NULL, 0},
  {"clustered_rotate", CF_FAM_ROTATE, "sub_group_clustered_rotate", CF_SEM_CLUSTERED_ROTATE, CF_A_NONE, CF_SIG_XPV, CF_RES_T, CF_T_ALL, 0, true, CL},
  /* cl_khr_subgroup_clustered_reduce */
  CLU(ADD, CF_T_ALL), CLU(MUL, CF_T_ALL), CLU(MIN, CF_T_ALL), CLU(MAX, CF_T_ALL),
  CLU(AND, CF_T_INTS), CLU(OR, CF_T_INTS), CLU(XOR, CF_T_INTS),
  CLUL(AND), CLUL(OR), CLUL(XOR),
  /* cl_intel_subgroups (+ cl_intel_subgroups_short) */
  {"intel_shuffle", CF_FAM_INTEL, "intel_sub_group_shuffle", CF_SEM_ISHUFFLE, CF_A_NONE, CF_SIG_XA, CF_RES_T, INTEL_T, VEC_ALL, true, false, NULL, 0},
  {"intel_shuffle_xor", CF_FAM_INTEL, "intel_sub_group_shuffle_xor", CF_SEM_ISHUFFLE_XOR, CF_A_NONE, CF_SIG_XA, CF_RES_T, INTEL_T, VEC_ALL, true, false, NULL, 0},
  {"intel_shuffle_up", CF_FAM_INTEL, "intel_sub_group_shuffle_up", CF_SEM_ISHUFFLE_UP, CF_A_NONE, CF_SIG_XYA, CF_RES_T, INTEL_T, VEC_ALL, true, false, NULL, 0},
  {"intel_shuffle_down", CF_FAM_INTEL, "intel_sub_group_shuffle_down", CF_SEM_ISHUFFLE_DOWN, CF_A_NONE, CF_SIG_XYA, CF_RES_T, INTEL_T, VEC_ALL, true, false, NULL, 0},
  {"intel_block_read", CF_FAM_INTEL_BLOCK, "intel_sub_group_block_read", CF_SEM_BLOCK_READ, CF_A_NONE, CF_SIG_BLOCK_READ, CF_RES_T, CF_TS(CF_UINT), 0, false, false, block_n, 4},
  {"intel_block_write", CF_FAM_INTEL_BLOCK, "intel_sub_group_block_write", CF_SEM_BLOCK_WRITE, CF_A_NONE, CF_SIG_BLOCK_WRITE, CF_RES_T, CF_TS(CF_UINT), 0, false, false, block_n, 4},
  {"intel_block_read_us", CF_FAM_INTEL_BLOCK, "intel_sub_group_block_read_us", CF_SEM_BLOCK_READ, CF_A_NONE, CF_SIG_BLOCK_READ, CF_RES_T, CF_TS(CF_USHORT), 0, false, false, block_n, 4},
  {"intel_block_write_us", CF_FAM_INTEL_BLOCK, "intel_sub_group_block_write_us", CF_SEM_BLOCK_WRITE, CF_A_NONE, CF_SIG_BLOCK_WRITE, CF_RES_T, CF_TS(CF_USHORT), 0, false, false, block_n, 4},
  /* cl_intel_subgroups_char (shuffles of char/uchar and their vectors, _uc
   * block I/O) and cl_intel_subgroups_long (_ul block I/O): SPIR-V assembly,
   * uniform control flow */
  {"intel_shuffle", CF_FAM_INTEL_SPV, "intel_sub_group_shuffle", CF_SEM_ISHUFFLE, CF_A_NONE, CF_SIG_XA, CF_RES_T, CHARS, VEC_NO3, false, false, NULL, 0},
  {"intel_shuffle_xor", CF_FAM_INTEL_SPV, "intel_sub_group_shuffle_xor", CF_SEM_ISHUFFLE_XOR, CF_A_NONE, CF_SIG_XA, CF_RES_T, CHARS, VEC_NO3, false, false, NULL, 0},
  {"intel_shuffle_up", CF_FAM_INTEL_SPV, "intel_sub_group_shuffle_up", CF_SEM_ISHUFFLE_UP, CF_A_NONE, CF_SIG_XYA, CF_RES_T, CHARS, VEC_NO3, false, false, NULL, 0},
  {"intel_shuffle_down", CF_FAM_INTEL_SPV, "intel_sub_group_shuffle_down", CF_SEM_ISHUFFLE_DOWN, CF_A_NONE, CF_SIG_XYA, CF_RES_T, CHARS, VEC_NO3, false, false, NULL, 0},
  {"intel_block_read_uc", CF_FAM_INTEL_SPV, "intel_sub_group_block_read_uc", CF_SEM_BLOCK_READ, CF_A_NONE, CF_SIG_BLOCK_READ, CF_RES_T, CF_TS(CF_UCHAR), 0, false, false, block_n8, 5},
  {"intel_block_write_uc", CF_FAM_INTEL_SPV, "intel_sub_group_block_write_uc", CF_SEM_BLOCK_WRITE, CF_A_NONE, CF_SIG_BLOCK_WRITE, CF_RES_T, CF_TS(CF_UCHAR), 0, false, false, block_n8, 5},
  {"intel_block_read_ul", CF_FAM_INTEL_SPV, "intel_sub_group_block_read_ul", CF_SEM_BLOCK_READ, CF_A_NONE, CF_SIG_BLOCK_READ, CF_RES_T, CF_TS(CF_ULONG), 0, false, false, block_n, 4},
  {"intel_block_write_ul", CF_FAM_INTEL_SPV, "intel_sub_group_block_write_ul", CF_SEM_BLOCK_WRITE, CF_A_NONE, CF_SIG_BLOCK_WRITE, CF_RES_T, CF_TS(CF_ULONG), 0, false, false, block_n, 4},
  /* cl_intel_subgroups: image2d_t block I/O (uniform control flow, full subgroups) */
  {"intel_image_block_read", CF_FAM_INTEL_IMAGE_BLOCK, "intel_sub_group_block_read", CF_SEM_IMG_BLOCK_READ, CF_A_NONE, CF_SIG_IMG_BLOCK_READ, CF_RES_T, CF_TS(CF_UINT), 0, false, false, block_n, 4},
  {"intel_image_block_write", CF_FAM_INTEL_IMAGE_BLOCK, "intel_sub_group_block_write", CF_SEM_IMG_BLOCK_WRITE, CF_A_NONE, CF_SIG_IMG_BLOCK_WRITE, CF_RES_T, CF_TS(CF_UINT), 0, false, false, block_n, 4},
  /* cl_intel_subgroups_short image forms: ushort elements; only scenarios
   * whose every access lies inside the image (cf_case_valid) */
  {"intel_image_block_read_us", CF_FAM_INTEL_IMAGE_BLOCK, "intel_sub_group_block_read_us", CF_SEM_IMG_BLOCK_READ, CF_A_NONE, CF_SIG_IMG_BLOCK_READ, CF_RES_T, CF_TS(CF_USHORT), 0, false, false, block_n, 4},
  {"intel_image_block_write_us", CF_FAM_INTEL_IMAGE_BLOCK, "intel_sub_group_block_write_us", CF_SEM_IMG_BLOCK_WRITE, CF_A_NONE, CF_SIG_IMG_BLOCK_WRITE, CF_RES_T, CF_TS(CF_USHORT), 0, false, false, block_n, 4},
  /* cl_khr_subgroups: sub_group_barrier (uniform control flow only) */
  {"sub_group_barrier", CF_FAM_BARRIER, "sub_group_barrier", CF_SEM_SG_BARRIER, CF_A_NONE, CF_SIG_BARRIER, CF_RES_T, CF_T_ALL, VEC_ALL, false, false, barrier_forms, 4},
};
const uint32_t cf_n_ops = sizeof cf_ops / sizeof cf_ops[0];

/* ----------------------------------------------------------------- shapes */

void cf_shape_geom(cf_shape_id sh, uint32_t S, cf_geom *g)
{
  memset(g, 0, sizeof *g);
  g->S = S;
  for (int i = 0; i < 3; ++i)
    g->global[i] = g->local[i] = 1;
  switch (sh) {
  case CF_SHAPE_1D_FULL:         /* whole subgroups only */
    g->dim = 1; g->local[0] = S * (S >= 32 ? 2 : 4); g->global[0] = 2 * g->local[0]; break;
  case CF_SHAPE_1D_PARTIAL:      /* the last subgroup of every work-group is partial */
    g->dim = 1; g->local[0] = 2 * S + (S > 1 ? S / 2 + (S % 2 == 0 && S / 2 + 1 < S) : 1);
    g->global[0] = 2 * g->local[0]; break;
  case CF_SHAPE_2D:
    g->dim = 2; g->local[0] = 5; g->local[1] = 3; g->global[0] = 10; g->global[1] = 6; break;
  case CF_SHAPE_3D:
    g->dim = 3; g->local[0] = 3; g->local[1] = 2; g->local[2] = 4;
    g->global[0] = 6; g->global[1] = 4; g->global[2] = 4; break;
  case CF_SHAPE_NONUNIFORM:      /* global not a multiple of local: last group smaller */
    g->dim = 1; g->local[0] = 2 * S + 3; g->global[0] = 3 * g->local[0] - S - 1; break;
  default:
    break;
  }
}

void cf_image_geom(uint32_t S, cf_geom *g)
{
  memset(g, 0, sizeof *g);
  g->S = S;
  g->dim = 1;
  for (int i = 0; i < 3; ++i)
    g->global[i] = g->local[i] = 1;
  g->global[0] = g->local[0] = S;
}

/* The S lanes cover 4*S bytes of a row from cx on; component k is row cy+k
 * (k < 8).  0: inside; 1: right half of the lanes past the edge, padded
 * pitch; 2: bottom rows past the edge; 3: right and bottom; 4: unaligned x,
 * inside (reads only); 5: left and top (negative coordinate). */
void cf_image_scenario(uint32_t p, uint32_t S, cf_img_scn *o)
{
  memset(o, 0, sizeof *o);
  int32_t s = (int32_t)S;
  switch (p) {
  case 0: o->width = 24; o->height = 10; o->cx = 16; o->cy = 1; break;
  case 1: o->width = 16; o->height = 6; o->cx = 4 * (16 - s / 2); o->cy = 0; o->row_pitch = 16 * 4 + 16; break;
  case 2: o->width = 24; o->height = 6; o->cx = 0; o->cy = 4; break;
  case 3: o->width = 16; o->height = 6; o->cx = 4 * (16 - 3); o->cy = 3; break;
  case 4: o->width = 24; o->height = 10; o->cx = 6; o->cy = 0; o->read_only = true; break;
  default: o->width = 16; o->height = 6; o->cx = -8; o->cy = -1; break;
  }
  if (!o->row_pitch)
    o->row_pitch = o->width * 4;
  /* two 4-byte formats: RGBA8 unorm (even p) and R32 uint (odd p) */
  o->order = p % 2 ? CL_R : CL_RGBA;
  o->ctype = p % 2 ? CL_UNSIGNED_INT32 : CL_UNORM_INT8;
}

uint32_t cf_geom_items(const cf_geom *g)
{
  return (uint32_t)(g->global[0] * g->global[1] * g->global[2]);
}

uint32_t cf_layout(const cf_geom *g, cf_item *items, uint32_t *sg_members, uint32_t *out_n_sg)
{
  size_t ng[3];
  for (int d = 0; d < 3; ++d)
    ng[d] = (g->global[d] + g->local[d] - 1) / g->local[d];
  uint32_t S = g->S, key = 0;
  uint32_t enq_items = (uint32_t)(g->local[0] * g->local[1] * g->local[2]);
  for (size_t gz = 0; gz < ng[2]; ++gz)
    for (size_t gy = 0; gy < ng[1]; ++gy)
      for (size_t gx = 0; gx < ng[0]; ++gx) {
        size_t ls[3], base[3] = {gx * g->local[0], gy * g->local[1], gz * g->local[2]};
        for (int d = 0; d < 3; ++d) {   /* the actual (possibly smaller) local size */
          ls[d] = g->global[d] - base[d];
          if (ls[d] > g->local[d])
            ls[d] = g->local[d];
        }
        uint32_t n_items = (uint32_t)(ls[0] * ls[1] * ls[2]);
        uint32_t n_sg = (n_items + S - 1) / S;
        uint32_t wg = (uint32_t)((gz * ng[1] + gy) * ng[0] + gx);
        for (uint32_t k = 0; k < n_sg * S; ++k)
          sg_members[(key + k / S) * S + k % S] = UINT32_MAX;
        for (size_t lz = 0; lz < ls[2]; ++lz)
          for (size_t ly = 0; ly < ls[1]; ++ly)
            for (size_t lx = 0; lx < ls[0]; ++lx) {
              uint32_t llin = (uint32_t)((lz * ls[1] + ly) * ls[0] + lx);
              uint32_t lin = (uint32_t)(((base[2] + lz) * g->global[1] + base[1] + ly) * g->global[0] +
                                        base[0] + lx);
              cf_item *it = &items[lin];
              it->wg = wg;
              it->sg = llin / S;
              it->lane = llin % S;
              it->sg_size = it->sg + 1 < n_sg ? S : n_items - it->sg * S;
              it->n_sg = n_sg;
              it->n_sg_enq = (enq_items + S - 1) / S;
              it->sg_key = key + it->sg;
              sg_members[it->sg_key * S + it->lane] = lin;
            }
        key += n_sg;
      }
  uint32_t n = cf_geom_items(g);
  for (uint32_t i = 0; i < n; ++i)
    items[i].first_lin = sg_members[items[i].sg_key * S];
  *out_n_sg = key;
  return n;
}

/* ------------------------------------------------------------------ names */

void cf_kernel_name(const cf_case *c, char *buf, size_t size)
{
  char t[32];
  cf_type_name(c->type, t, sizeof t);
  if (c->op->n_variants)
    snprintf(buf, size, "k_%s_%s_%s_%s_v%d", cf_families[c->op->fam].name, c->op->name, t,
             cf_flow_names[c->flow], c->variant);
  else
    snprintf(buf, size, "k_%s_%s_%s_%s", cf_families[c->op->fam].name, c->op->name, t,
             cf_flow_names[c->flow]);
}

void cf_case_name(const cf_case *c, char *buf, size_t size)
{
  char t[32], v[16] = "";
  cf_type_name(c->type, t, sizeof t);
  if (c->op->n_variants)
    snprintf(v, sizeof v, ".v%d", c->variant);
  snprintf(buf, size, "%s/%s.%s.%s%s.s%u.%s.p%u.O%d.%s", cf_families[c->op->fam].name,
           c->op->name, t, cf_flow_names[c->flow], v, c->S, cf_shape_names[c->shape], c->p,
           c->olevel, c->backend ? "jit" : "interp");
}

uint32_t cf_result_size(const cf_case *c)
{
  switch (c->op->res) {
  case CF_RES_T:
    if (cf_sig_is_block(c->op->sig)) {
      cf_type t = {c->type.s, (uint32_t)c->variant};
      return cf_type_size(t);
    }
    return cf_type_size(c->type);
  case CF_RES_BOOL: case CF_RES_UINT: return 4;
  case CF_RES_UINT4: case CF_RES_MASK: return 16;
  }
  return 4;
}
