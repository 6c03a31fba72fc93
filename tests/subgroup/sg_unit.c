/* sg_unit.c - unit tests of the subgroup, Intel subgroup and image handlers
 * (interp/exec_subgroup.c, exec_intel.c, exec_image.c, sg_ref.c), run on a
 * hand-built subgroup with the machine functions (ip_ub, ip_mem, ...) stubbed
 * here.  Expected values are computed in this file from the specs' wording,
 * never by calling sg_ref.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include "ip_internal.h"
#include "ip_core.h"

/* ------------------------------------------------------------ machine stubs */

static int n_ub[IP_UB_OTHER + 1], n_fault;
static ip_addr_layout layout = {48, ((uint64_t)1 << 48) - 1, 0x4000, 0x7000, 0x8000, 0x8080};
static uint8_t gmem[4096];   /* region 1 */
static bool rendezvous_release;   /* set by the test for the second pass */

int ip_ub(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, const char *fmt, ...) {
  (void)sg; (void)lanes; (void)fmt;
  if (kind <= IP_UB_OTHER) n_ub[kind]++;
  return IP_NEXT;
}
int ip_fault(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, uint64_t addr, const char *fmt, ...) {
  (void)sg; (void)kind; (void)lanes; (void)addr; (void)fmt;
  n_fault++;
  return IP_NEXT;
}
const ip_addr_layout *ip_layout(const ip_sg *sg) { (void)sg; return &layout; }
void *ip_mem(ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size, uint32_t align, ip_access access) {
  (void)sg; (void)lane; (void)align; (void)access;
  uint64_t off = addr & layout.offset_mask;
  if ((addr >> 48) != 1 || off + size > sizeof gmem) { n_fault++; return NULL; }
  return gmem + off;
}
bool ip_wg_rendezvous(ip_sg *sg) {
  (void)sg;
  return rendezvous_release;
}
double ip_half_to_double(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}
float ip_half_to_float(uint16_t h) { return (float)ip_half_to_double(h); }
uint16_t ip_double_to_half(double d) {
  /* test-only: exact values only */
  uint16_t s = signbit(d) ? 0x8000 : 0;
  d = fabs(d);
  if (isnan(d)) return 0x7e00;
  if (isinf(d)) return s | 0x7c00;
  if (d == 0) return s;
  int e; double f = frexp(d, &e);   /* d = f * 2^e, f in [0.5,1) */
  int he = e + 14;
  if (he <= 0) return s | (uint16_t)nearbyint(ldexp(d, 24));
  return s | (uint16_t)(he << 10) | (uint16_t)((int)nearbyint(ldexp(f, 11)) - 1024);
}
uint16_t ip_float_to_half(float f) { return ip_double_to_half(f); }

/* ------------------------------------------------------------------ fixture */

static ld_type t_int, t_uint, t_char, t_float, t_half, t_bool, t_v4uint, t_int2, t_uint2, t_ptr, t_image,
    t_float4, t_ulong;
#define S 16
static ip_sg sg;
static ip_wg wg;
static uint8_t regs[1 << 16];
static uint32_t next_off;
static ip_opnd opnds[8];
static ip_op op;
static ld_insn insn;
static uint32_t insn_ops[4];
static int failures, checks;

#define CHECK(cond, ...) do { ++checks; if (!(cond)) { ++failures; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
  printf(__VA_ARGS__); printf("\n"); } } while (0)

static void scalar(ld_type *t, ld_type_kind k, uint32_t size, uint32_t width) {
  memset(t, 0, sizeof *t);
  t->kind = k; t->size = size; t->align = size; t->width = width; t->n_comp = 1; t->comp = t;
}
static void vector(ld_type *t, ld_type *e, uint32_t n) {
  memset(t, 0, sizeof *t);
  t->kind = LD_T_VECTOR; t->count = n; t->n_comp = n; t->comp = e; t->elem = e;
  t->size = e->size * (n == 3 ? 4 : n); t->align = t->size;
}

static void types(void) {
  scalar(&t_int, LD_T_INT, 4, 32); scalar(&t_uint, LD_T_INT, 4, 32); scalar(&t_char, LD_T_INT, 1, 8);
  scalar(&t_float, LD_T_FLOAT, 4, 32); scalar(&t_half, LD_T_FLOAT, 2, 16); scalar(&t_bool, LD_T_BOOL, 1, 0);
  scalar(&t_ulong, LD_T_INT, 8, 64);
  vector(&t_v4uint, &t_uint, 4); vector(&t_int2, &t_int, 2); vector(&t_uint2, &t_uint, 2);
  vector(&t_float4, &t_float, 4);
  memset(&t_ptr, 0, sizeof t_ptr); t_ptr.kind = LD_T_POINTER; t_ptr.size = 8;
  memset(&t_image, 0, sizeof t_image); t_image.kind = LD_T_IMAGE; t_image.size = 8; t_image.dim = SpvDim2D;
}

/* Starts an instruction: opcode, result type, literal GroupOperation. */
static void begin(SpvOp o, const ld_type *rt, uint32_t gop) {
  memset(&op, 0, sizeof op);
  memset(&insn, 0, sizeof insn);
  memset(opnds, 0, sizeof opnds);
  insn.op = o; insn.type = rt; insn.ops = insn_ops; insn.n_ops = 4;
  insn_ops[1] = gop;
  op.insn = &insn; op.in = opnds;
  next_off = 0;
  if (rt) { op.res_size = rt->size; op.res_off = next_off; next_off += rt->size; }
}
static void add_const(const ld_type *t, const void *bytes) {
  ip_opnd *o = &opnds[op.n_in++];
  o->cbase = bytes; o->size = t->size; o->type = t;
}
static uint64_t cvals[8];
static void add_const_u(const ld_type *t, uint64_t v) {
  cvals[op.n_in] = v;
  add_const(t, &cvals[op.n_in]);
}
/* A register operand; returns lane 0's slot. */
static uint8_t *add_reg(const ld_type *t) {
  ip_opnd *o = &opnds[op.n_in++];
  o->off = next_off; o->size = t->size; o->type = t;
  next_off += t->size;
  return regs + (size_t)o->off * S;
}
static uint8_t *res(uint32_t l) { return ip_res(&sg, &op, l); }
static int32_t res_i32(uint32_t l) { int32_t v; memcpy(&v, res(l), 4); return v; }
static float res_f32(uint32_t l) { float v; memcpy(&v, res(l), 4); return v; }

static void setup_sg(uint32_t n_lanes) {
  memset(&sg, 0, sizeof sg);
  sg.size = S; sg.n_lanes = n_lanes; sg.all = ip_mask_first_n(n_lanes); sg.mask = sg.all;
  sg.regs = regs; sg.wg = &wg;
  for (uint32_t l = 0; l < S; ++l) sg.local_linear[l] = l;
}

typedef ip_handler *(*lookup_fn)(const ld_module *, const ld_insn *, ip_op *);
static int exec(lookup_fn look) {
  ip_handler *h = look(NULL, &insn, &op);
  if (!h) { printf("FAIL: no handler for op %d\n", insn.op); ++failures; return -1; }
  return h(&sg, &op);
}
static void clear_ub(void) { memset(n_ub, 0, sizeof n_ub); n_fault = 0; }

/* ------------------------------------------------------------------- tests */

static void test_arith(void) {
  /* IAdd on a non-uniform mask: reduce, inclusive, exclusive, clustered */
  int32_t x[S];
  for (int l = 0; l < S; ++l) x[l] = l * 3 - 7;
  ip_mask m = {{0xB6F5u}};   /* arbitrary active set */
  static const SpvGroupOperation gops[] = {SpvGroupOperationReduce, SpvGroupOperationInclusiveScan,
                                           SpvGroupOperationExclusiveScan, SpvGroupOperationClusteredReduce};
  for (int g = 0; g < 4; ++g) {
    setup_sg(S);
    sg.mask = m;
    begin(SpvOpGroupNonUniformIAdd, &t_int, gops[g]);
    add_const_u(&t_uint, SpvScopeSubgroup);
    memcpy(add_reg(&t_int), x, sizeof x);
    if (g == 3) add_const_u(&t_uint, 4);
    clear_ub();
    exec(ip_lookup_subgroup);
    for (int l = 0; l < S; ++l) {
      if (!ip_mask_test(m, l)) continue;
      int32_t want = 0;
      for (int j = 0; j < S; ++j) {
        if (!ip_mask_test(m, j)) continue;
        bool in = g == 0 || (g == 1 && j <= l) || (g == 2 && j < l) || (g == 3 && j / 4 == l / 4);
        if (in) want += x[j];
      }
      CHECK(res_i32(l) == want, "iadd gop %d lane %d: %d want %d", g, l, res_i32(l), want);
    }
  }
  /* FAdd in increasing lane order, float rounding per step */
  float f[S];
  for (int l = 0; l < S; ++l) f[l] = (l % 3 == 0) ? 1e8f : (l % 3 == 1 ? 1.0f : -1e8f);
  setup_sg(S);
  begin(SpvOpGroupNonUniformFAdd, &t_float, SpvGroupOperationInclusiveScan);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_float), f, sizeof f);
  exec(ip_lookup_subgroup);
  {
    volatile float acc = 0;
    for (int l = 0; l < S; ++l) {
      acc = l ? acc + f[l] : f[l];
      CHECK(res_f32(l) == acc, "fadd scan lane %d: %g want %g", l, res_f32(l), (double)acc);
    }
  }
  /* FMin ignores NaN; exclusive scan starts at +inf */
  for (int l = 0; l < S; ++l) f[l] = l == 0 ? NAN : (float)(20 - l);
  begin(SpvOpGroupNonUniformFMin, &t_float, SpvGroupOperationExclusiveScan);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_float), f, sizeof f);
  exec(ip_lookup_subgroup);
  CHECK(isinf(res_f32(0)) && res_f32(0) > 0, "fmin excl lane 0 = %g", res_f32(0));
  CHECK(isnan(res_f32(1)), "fmin excl lane 1 = %g (NaN alone stays NaN)", res_f32(1));
  CHECK(res_f32(2) == 19.0f && res_f32(15) == 6.0f, "fmin excl: %g %g", res_f32(2), res_f32(15));
  /* SMin / UMax on char: sign matters */
  int8_t c[S];
  for (int l = 0; l < S; ++l) c[l] = (int8_t)(l * 17 - 100);
  int smin = 127, umax = 0;
  for (int l = 0; l < S; ++l) { if (c[l] < smin) smin = c[l]; if ((uint8_t)c[l] > umax) umax = (uint8_t)c[l]; }
  begin(SpvOpGroupNonUniformSMin, &t_char, SpvGroupOperationReduce);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_char), c, sizeof c);
  exec(ip_lookup_subgroup);
  CHECK((int8_t)*res(5) == smin, "smin char %d want %d", (int8_t)*res(5), smin);
  begin(SpvOpGroupNonUniformUMax, &t_char, SpvGroupOperationReduce);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_char), c, sizeof c);
  exec(ip_lookup_subgroup);
  CHECK(*res(5) == umax, "umax char %d want %d", *res(5), umax);
  /* half FMul: 1.5^k exact */
  uint16_t h[S];
  for (int l = 0; l < S; ++l) h[l] = l < 4 ? 0x3e00 : 0x3c00;   /* 1.5, 1.0 */
  begin(SpvOpGroupNonUniformFMul, &t_half, SpvGroupOperationReduce);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_half), h, sizeof h);
  exec(ip_lookup_subgroup);
  uint16_t hr; memcpy(&hr, res(0), 2);
  CHECK(hr == 0x4510, "half fmul 1.5^4 = 0x%04x want 0x4510 (5.0625)", hr);
  /* OpGroupIAdd at subgroup scope with a partial mask: UB + active lanes */
  setup_sg(S);
  sg.mask.w[0] = 0x00FF;
  begin(SpvOpGroupIAdd, &t_int, SpvGroupOperationReduce);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_int), x, sizeof x);
  clear_ub();
  exec(ip_lookup_subgroup);
  int32_t want = 0;
  for (int l = 0; l < 8; ++l) want += x[l];
  CHECK(res_i32(0) == want && n_ub[IP_UB_PARTIAL_COLLECTIVE] == 1, "partial sub_group_reduce_add");
  /* clustered with a bad cluster size */
  setup_sg(S);
  begin(SpvOpGroupNonUniformIAdd, &t_int, SpvGroupOperationClusteredReduce);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_int), x, sizeof x);
  add_const_u(&t_uint, 3);
  clear_ub();
  exec(ip_lookup_subgroup);
  CHECK(n_ub[IP_UB_CLUSTER_SIZE] == 1, "cluster size 3 diagnosed");
}

static void test_ballot(void) {
  setup_sg(S);
  sg.mask.w[0] = 0x7FFE;
  uint8_t pred[S];
  for (int l = 0; l < S; ++l) pred[l] = (l % 3) == 1;
  begin(SpvOpGroupNonUniformBallot, &t_v4uint, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_bool), pred, sizeof pred);
  exec(ip_lookup_subgroup);
  uint32_t want = 0;
  for (int l = 1; l < 15; ++l) if (pred[l]) want |= 1u << l;
  uint32_t got[4];
  memcpy(got, res(3), 16);
  CHECK(got[0] == want && got[1] == 0 && got[2] == 0 && got[3] == 0, "ballot 0x%x want 0x%x", got[0], want);

  uint32_t b[4] = {0x00F0F00Fu | 0xFFFF0000u, 0, 0, 0};   /* bits >= 16 ignored */
  static const SpvGroupOperation gops[] = {SpvGroupOperationReduce, SpvGroupOperationInclusiveScan,
                                           SpvGroupOperationExclusiveScan};
  setup_sg(S);
  for (int g = 0; g < 3; ++g) {
    begin(SpvOpGroupNonUniformBallotBitCount, &t_uint, gops[g]);
    add_const_u(&t_uint, SpvScopeSubgroup);
    add_const(&t_v4uint, b);
    exec(ip_lookup_subgroup);
    for (int l = 0; l < S; ++l) {
      int n = 0;
      for (int j = 0; j < S; ++j)
        if (((b[0] >> j) & 1) && (g == 0 || (g == 1 && j <= l) || (g == 2 && j < l))) ++n;
      CHECK(res_i32(l) == n, "bitcount gop %d lane %d: %d want %d", g, l, res_i32(l), n);
    }
  }
  begin(SpvOpGroupNonUniformBallotFindMSB, &t_uint, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  add_const(&t_v4uint, b);
  exec(ip_lookup_subgroup);
  CHECK(res_i32(0) == 15, "find msb %d", res_i32(0));
  begin(SpvOpGroupNonUniformBallotFindLSB, &t_uint, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  add_const(&t_v4uint, b);
  exec(ip_lookup_subgroup);
  CHECK(res_i32(0) == 0, "find lsb %d", res_i32(0));
  begin(SpvOpGroupNonUniformInverseBallot, &t_bool, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  add_const(&t_v4uint, b);
  exec(ip_lookup_subgroup);
  for (int l = 0; l < S; ++l) CHECK(*res(l) == ((b[0] >> l) & 1), "inverse ballot lane %d", l);
  /* elect, all, any, all_equal */
  sg.mask.w[0] = 0xFFF0;
  begin(SpvOpGroupNonUniformElect, &t_bool, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  exec(ip_lookup_subgroup);
  CHECK(*res(4) == 1 && *res(5) == 0, "elect");
  float fv[S];
  for (int l = 0; l < S; ++l) fv[l] = l < 4 ? 1.0f : (l == 4 ? -0.0f : 0.0f);
  begin(SpvOpGroupNonUniformAllEqual, &t_bool, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_float), fv, sizeof fv);
  exec(ip_lookup_subgroup);
  CHECK(*res(4) == 1, "all_equal -0 == +0 over lanes 4..15");
}

static void test_shuffles(void) {
  int32_t x[S], idx[S];
  for (int l = 0; l < S; ++l) x[l] = 100 + l;
  setup_sg(S);
  /* shuffle_xor 5 */
  begin(SpvOpGroupNonUniformShuffleXor, &t_int, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_int), x, sizeof x);
  add_const_u(&t_uint, 5);
  exec(ip_lookup_subgroup);
  for (int l = 0; l < S; ++l) CHECK(res_i32(l) == 100 + (l ^ 5), "shuffle_xor lane %d", l);
  /* shuffle_down 3: top lanes out of range -> 0 + one UB */
  begin(SpvOpGroupNonUniformShuffleDown, &t_int, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_int), x, sizeof x);
  add_const_u(&t_uint, 3);
  clear_ub();
  exec(ip_lookup_subgroup);
  for (int l = 0; l < S; ++l) CHECK(res_i32(l) == (l + 3 < S ? 100 + l + 3 : 0), "shuffle_down lane %d", l);
  CHECK(n_ub[IP_UB_INDEX_OUT_OF_RANGE] == 1, "shuffle_down OOR diagnosed");
  /* shuffle with per-lane index reading an inactive lane */
  sg.mask.w[0] = 0xFFFE;
  for (int l = 0; l < S; ++l) idx[l] = (l * 7 + 1) % S;   /* lane 9 reads inactive lane 0 */
  begin(SpvOpGroupNonUniformShuffle, &t_int, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_int), x, sizeof x);
  memcpy(add_reg(&t_uint), idx, sizeof idx);
  clear_ub();
  exec(ip_lookup_subgroup);
  for (int l = 1; l < S; ++l) CHECK(res_i32(l) == (idx[l] == 0 ? 0 : 100 + idx[l]), "shuffle lane %d", l);
  CHECK(n_ub[IP_UB_INACTIVE_LANE] == 1, "inactive source diagnosed");
  /* rotate: no cluster, and cluster 4 */
  setup_sg(S);
  for (int cl = 0; cl < 2; ++cl) {
    begin(SpvOpGroupNonUniformRotateKHR, &t_int, 0);
    add_const_u(&t_uint, SpvScopeSubgroup);
    memcpy(add_reg(&t_int), x, sizeof x);
    add_const_u(&t_uint, 3);
    if (cl) add_const_u(&t_uint, 4);
    exec(ip_lookup_subgroup);
    for (int l = 0; l < S; ++l) {
      int src = cl ? (l & ~3) + ((l % 4 + 3) % 4) : (l + 3) % S;
      CHECK(res_i32(l) == 100 + src, "rotate cl=%d lane %d: %d want %d", cl, l, res_i32(l), 100 + src);
    }
  }
  /* quad swap diagonal */
  begin(SpvOpGroupNonUniformQuadSwap, &t_int, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_int), x, sizeof x);
  add_const_u(&t_uint, 2);
  exec(ip_lookup_subgroup);
  for (int l = 0; l < S; ++l) CHECK(res_i32(l) == 100 + (l ^ 3), "quad swap diag lane %d", l);
  /* broadcast with a non-uniform id */
  for (int l = 0; l < S; ++l) idx[l] = l < 8 ? 2 : 3;
  begin(SpvOpGroupNonUniformBroadcast, &t_int, 0);
  add_const_u(&t_uint, SpvScopeSubgroup);
  memcpy(add_reg(&t_int), x, sizeof x);
  memcpy(add_reg(&t_uint), idx, sizeof idx);
  clear_ub();
  exec(ip_lookup_subgroup);
  CHECK(res_i32(9) == 102 && n_ub[IP_UB_NONUNIFORM] == 1, "nonuniform broadcast uses lane 0's id");

  /* Intel shuffle_down(current, next, delta) and shuffle_up(previous, current, delta) */
  int32_t nx[S];
  for (int l = 0; l < S; ++l) nx[l] = 200 + l;
  for (int up = 0; up < 2; ++up) {
    begin(up ? SpvOpSubgroupShuffleUpINTEL : SpvOpSubgroupShuffleDownINTEL, &t_int, 0);
    memcpy(add_reg(&t_int), up ? nx : x, sizeof x);   /* down: current=x; up: previous=nx */
    memcpy(add_reg(&t_int), up ? x : nx, sizeof x);   /* down: next=nx; up: current=x */
    add_const_u(&t_uint, 5);
    clear_ub();
    exec(ip_lookup_intel);
    for (int l = 0; l < S; ++l) {
      int want;
      if (!up) want = l + 5 < S ? 100 + l + 5 : 200 + l + 5 - S;
      else want = l - 5 >= 0 ? 100 + l - 5 : 200 + l - 5 + S;
      CHECK(res_i32(l) == want, "intel shuffle %s lane %d: %d want %d", up ? "up" : "down", l, res_i32(l), want);
    }
    CHECK(n_ub[IP_UB_INDEX_OUT_OF_RANGE] == 0, "no OOR for delta 5");
  }
  /* Intel shuffle on float4 with index out of range for some lanes */
  float v[S][4];
  for (int l = 0; l < S; ++l) for (int k = 0; k < 4; ++k) v[l][k] = (float)(l * 10 + k);
  for (int l = 0; l < S; ++l) idx[l] = S + 1 - l;   /* lanes 0, 1 out of range */
  begin(SpvOpSubgroupShuffleINTEL, &t_float4, 0);
  memcpy(add_reg(&t_float4), v, sizeof v);
  memcpy(add_reg(&t_uint), idx, sizeof idx);
  clear_ub();
  exec(ip_lookup_intel);
  CHECK(res_f32(0) == 0 && n_ub[IP_UB_INDEX_OUT_OF_RANGE] == 1, "intel shuffle OOR");
  float r4[4]; memcpy(r4, res(5), 16);
  CHECK(r4[0] == 120 && r4[3] == 123, "intel shuffle float4 lane 5 <- lane 12");
}

static void test_block(void) {
  /* block read of uint2 from p (region 1, offset 64): p[l + k*S] */
  for (uint32_t i = 0; i < sizeof gmem / 4; ++i) { uint32_t v = i * 7 + 1; memcpy(gmem + 4 * i, &v, 4); }
  uint64_t p = ((uint64_t)1 << 48) | 64;
  setup_sg(S);
  begin(SpvOpSubgroupBlockReadINTEL, &t_uint2, 0);
  add_const_u(&t_ptr, p);
  clear_ub();
  exec(ip_lookup_intel);
  for (int l = 0; l < S; ++l) {
    uint32_t r[2]; memcpy(r, res(l), 8);
    for (int k = 0; k < 2; ++k) {
      uint32_t want = (uint32_t)(16 + l + k * S) * 7 + 1;
      CHECK(r[k] == want, "block read lane %d k %d: %u want %u", l, k, r[k], want);
    }
  }
  CHECK(n_ub[IP_UB_BLOCK_ALIGNMENT] == 0 && n_fault == 0, "block read clean");
  /* block write ushort (8 components? use uint2 data) at 16-aligned p+4: alignment UB */
  uint32_t d[S][2];
  for (int l = 0; l < S; ++l) { d[l][0] = 1000 + l; d[l][1] = 2000 + l; }
  begin(SpvOpSubgroupBlockWriteINTEL, NULL, 0);
  add_const_u(&t_ptr, p + 4);
  memcpy(add_reg(&t_uint2), d, sizeof d);
  clear_ub();
  exec(ip_lookup_intel);
  CHECK(n_ub[IP_UB_BLOCK_ALIGNMENT] == 1, "block write 4-aligned pointer diagnosed");
  uint32_t w; memcpy(&w, gmem + 68 + 4 * (3 + S), 4);
  CHECK(w == 2003, "block write lane 3 k 1 = %u", w);
  /* partial subgroup */
  setup_sg(12);
  begin(SpvOpSubgroupBlockReadINTEL, &t_uint, 0);
  add_const_u(&t_ptr, p);
  clear_ub();
  exec(ip_lookup_intel);
  CHECK(n_ub[IP_UB_BLOCK_PARTIAL_SUBGROUP] == 1, "block read in a partial subgroup diagnosed");
}

static void test_workgroup(void) {
  /* two subgroups of 16 in one work-group of 32: work_group_scan_inclusive_add */
  static uint8_t scratch[32 * IP_WG_SCRATCH];
  ip_sg sgs[2];
  memset(&wg, 0, sizeof wg);
  wg.n_items = 32; wg.n_subgroups = 2; wg.sgs = sgs; wg.scratch = scratch;
  wg.local_size[0] = 32; wg.local_size[1] = wg.local_size[2] = 1;
  int32_t x[2][S];
  for (int i = 0; i < 32; ++i) x[i / S][i % S] = i * i - 50;
  /* each subgroup deposits (first call), then both compute (second call) */
  uint8_t saved[2][64 * S];
  for (int pass = 0; pass < 2; ++pass) {
    rendezvous_release = pass == 1;
    for (int s = 0; s < 2; ++s) {
      setup_sg(S);
      sg.id = (uint32_t)s;
      for (uint32_t l = 0; l < S; ++l) sg.local_linear[l] = (uint32_t)s * S + l;
      begin(SpvOpGroupIAdd, &t_int, SpvGroupOperationInclusiveScan);
      add_const_u(&t_uint, SpvScopeWorkgroup);
      memcpy(add_reg(&t_int), x[s], sizeof x[s]);
      sgs[s] = sg;
      int rc = exec(ip_lookup_subgroup);
      CHECK(rc == (pass == 0 ? IP_SUSPEND : IP_NEXT), "rendezvous pass %d rc %d", pass, rc);
      if (pass) memcpy(saved[s], res(0), 4 * S);
    }
  }
  int32_t acc = 0;
  for (int i = 0; i < 32; ++i) {
    acc += x[i / S][i % S];
    int32_t got; memcpy(&got, saved[i / S] + 4 * (i % S), 4);
    CHECK(got == acc, "wg scan item %d: %d want %d", i, got, acc);
  }
  /* work_group_broadcast(x, (size_t)19) */
  for (int pass = 0; pass < 2; ++pass) {
    rendezvous_release = pass == 1;
    for (int s = 0; s < 2; ++s) {
      setup_sg(S);
      sg.id = (uint32_t)s;
      for (uint32_t l = 0; l < S; ++l) sg.local_linear[l] = (uint32_t)s * S + l;
      begin(SpvOpGroupBroadcast, &t_int, 0);
      add_const_u(&t_uint, SpvScopeWorkgroup);
      memcpy(add_reg(&t_int), x[s], sizeof x[s]);
      add_const_u(&t_ulong, 19);
      exec(ip_lookup_subgroup);
      if (pass) CHECK(res_i32(7) == x[1][3], "wg broadcast sg %d: %d", s, res_i32(7));
    }
  }
}

static void test_image(void) {
  /* RGBA UNORM_INT8 4x3 image: write_imagef then read_imagef and a block read */
  static uint8_t pix[4 * 3 * 4];
  memset(pix, 0, sizeof pix);
  static ip_arg arg;
  memset(&arg, 0, sizeof arg);
  arg.kind = IP_ARG_IMAGE; arg.data = pix; arg.size = sizeof pix;
  arg.image.image_type = CL_MEM_OBJECT_IMAGE2D; arg.image.channel_order = CL_RGBA;
  arg.image.channel_type = CL_UNORM_INT8; arg.image.width = 4; arg.image.height = 3;
  static ip_launch launch;
  static const ip_arg *region_arg[8];
  static ld_module mod;
  memset(&launch, 0, sizeof launch);
  region_arg[2] = &arg;
  launch.region_arg = region_arg;
  mod.layout = layout;
  uint64_t h = ((uint64_t)2 << 48);
  setup_sg(S);
  sg.launch = &launch; sg.m = &mod;
  sg.mask = ip_mask_first_n(12);
  float data[S][4];
  int32_t co[S][2];
  for (int l = 0; l < S; ++l) {
    co[l][0] = l % 4; co[l][1] = l / 4;
    data[l][0] = l / 15.0f; data[l][1] = 0.5f; data[l][2] = -1.0f; data[l][3] = 2.0f;
  }
  begin(SpvOpImageWrite, NULL, 0);
  add_const_u(&t_image, h);
  memcpy(add_reg(&t_int2), co, sizeof co);
  memcpy(add_reg(&t_float4), data, sizeof data);
  clear_ub();
  exec(ip_lookup_image);
  for (int l = 0; l < 12; ++l) {
    uint8_t *q = pix + 4 * l;
    int r = (int)nearbyint(l / 15.0 * 255.0);
    CHECK(q[0] == r && q[1] == 128 && q[2] == 0 && q[3] == 255, "write_imagef pixel %d: %d %d %d %d", l,
          q[0], q[1], q[2], q[3]);
  }
  begin(SpvOpImageRead, &t_float4, 0);
  add_const_u(&t_image, h);
  memcpy(add_reg(&t_int2), co, sizeof co);
  exec(ip_lookup_image);
  float r4[4]; memcpy(r4, res(6), 16);
  CHECK(r4[0] == (float)pix[24] / 255.0f && r4[1] == 128.0f / 255.0f && r4[3] == 1.0f, "read_imagef");
  /* query size and order */
  begin(SpvOpImageQuerySizeLod, &t_uint2, 0);
  add_const_u(&t_image, h);
  add_const_u(&t_uint, 0);
  exec(ip_lookup_image);
  uint32_t sz[2]; memcpy(sz, res(0), 8);
  CHECK(sz[0] == 4 && sz[1] == 3, "image size %u x %u", sz[0], sz[1]);
  begin(SpvOpImageQueryOrder, &t_uint, 0);
  add_const_u(&t_image, h);
  exec(ip_lookup_image);
  CHECK(res_i32(0) + 0x10B0 == CL_RGBA, "image order");
  /* image block read at byte x = 4 (pixel 1), row 1: lanes past the width clamp */
  setup_sg(S);
  sg.launch = &launch; sg.m = &mod;
  int32_t bc[2] = {4, 1};
  begin(SpvOpSubgroupImageBlockReadINTEL, &t_uint2, 0);
  add_const_u(&t_image, h);
  add_const(&t_int2, bc);
  clear_ub();
  exec(ip_lookup_intel);
  for (int l = 0; l < S; ++l) {
    uint32_t r[2]; memcpy(r, res(l), 8);
    for (int k = 0; k < 2; ++k) {
      int px = 1 + l > 3 ? 3 : 1 + l, row = 1 + k;
      uint32_t want; memcpy(&want, pix + 4 * (row * 4 + px), 4);
      CHECK(r[k] == want, "image block read lane %d row %d", l, k);
    }
  }
}

int main(void) {
  types();
  test_arith();
  test_ballot();
  test_shuffles();
  test_block();
  test_workgroup();
  test_image();
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
