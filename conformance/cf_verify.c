/* cf_verify.c - the verifiers: expected per-lane results, written from the
 * specification text, independent of interp/ and jit/.
 *
 * Sources (quoted where a rule is not obvious):
 *   OpenCL C 3.0 / cl_khr_subgroups: "The scan order is defined by increasing
 *     sub-group local ID within the sub-group"; exclusive scans return the
 *     identity (0 for add, the largest value for min, the smallest for max)
 *     in the first work-item.
 *   cl_khr_subgroup_* extensions: non-uniform functions operate on the active
 *     work-items only; reading a work-item that is not active, or an index
 *     out of range, is undefined.
 *   cl_intel_subgroups: shuffle_down/up index rules against
 *     max_sub_group_size; block reads "p[sub_group_local_id + k *
 *     max_sub_group_size]"; block I/O "must be encountered by all work items".
 *
 * Floating-point reductions may combine in any order; the input generator
 * only produces values for which every order gives the same result, so the
 * comparison is exact (numeric, so +0 == -0).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cf.h"

const char *cf_plant_wrong;

/* ------------------------------------------------------------- components */

static uint32_t ncomp_of(const cf_case *c, bool result)
{
  if (cf_sig_is_block(c->op->sig))
    return (uint32_t)c->variant;
  if (result && c->op->res != CF_RES_T)
    return c->op->res == CF_RES_UINT4 || c->op->res == CF_RES_MASK ? 4 : 1;
  return c->type.vec == 3 ? 3 : c->type.vec;
}

static cf_scalar scalar_of(const cf_case *c, bool result)
{
  if (result && c->op->res != CF_RES_T)
    return c->op->res == CF_RES_BOOL ? CF_INT : CF_UINT;
  return c->type.s;
}

static uint64_t rd_u(cf_scalar s, const uint8_t *p)
{
  uint64_t v = 0;
  memcpy(&v, p, cf_scalars[s].bytes);   /* little-endian host */
  return v;
}

static int64_t rd_i(cf_scalar s, const uint8_t *p)
{
  uint32_t bits = cf_scalars[s].bytes * 8;
  uint64_t v = rd_u(s, p);
  if (bits < 64 && (v >> (bits - 1) & 1))
    v |= ~(uint64_t)0 << bits;
  int64_t r;
  memcpy(&r, &v, 8);
  return r;
}

static double half_to_double(uint16_t h)
{
  int e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 0)
    v = ldexp(m, -24);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}

static uint16_t half_from_double(double v)
{
  /* exact values only (see the input generator); others round toward zero */
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  v = fabs(v);
  if (v == 0)
    return sign;
  if (isinf(v) || v >= 65520)
    return sign | 0x7c00;
  int e;
  double f = frexp(v, &e);      /* v = f * 2^e, f in [0.5, 1) */
  if (e - 1 < -14)               /* subnormal */
    return sign | (uint16_t)(v / ldexp(1, -24));
  return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((f * 2 - 1) * 1024);
}

static double rd_f(cf_scalar s, const uint8_t *p)
{
  if (s == CF_HALF) {
    uint16_t h;
    memcpy(&h, p, 2);
    return half_to_double(h);
  }
  if (s == CF_FLOAT) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

static void wr_u(cf_scalar s, uint8_t *p, uint64_t v) { memcpy(p, &v, cf_scalars[s].bytes); }

static void wr_f(cf_scalar s, uint8_t *p, double v)
{
  if (s == CF_HALF) {
    uint16_t h = half_from_double(v);
    memcpy(p, &h, 2);
  } else if (s == CF_FLOAT) {
    float f = (float)v;
    memcpy(p, &f, 4);
  } else {
    memcpy(p, &v, 8);
  }
}

/* --------------------------------------------------------------- arithmetic */

static uint64_t width_mask(cf_scalar s)
{
  uint32_t bits = cf_scalars[s].bytes * 8;
  return bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
}

static void identity(cf_arith a, cf_scalar s, uint8_t *out)
{
  char k = cf_scalars[s].kind;
  uint64_t m = width_mask(s);
  if (k == 'f') {
    double v = a == CF_A_ADD ? 0 : a == CF_A_MUL ? 1 : a == CF_A_MIN ? INFINITY : -INFINITY;
    wr_f(s, out, v);
    return;
  }
  uint64_t v = 0;
  switch (a) {
  case CF_A_MUL: case CF_A_LAND: v = 1; break;
  case CF_A_AND: v = m; break;
  case CF_A_MIN: v = k == 'i' ? m >> 1 : m; break;
  case CF_A_MAX: v = k == 'i' ? (m >> 1) + 1 : 0; break;   /* INT_MIN pattern */
  default: v = 0; break;
  }
  wr_u(s, out, v);
}

static void combine(cf_arith a, cf_scalar s, const uint8_t *x, const uint8_t *y, uint8_t *out)
{
  char k = cf_scalars[s].kind;
  if (k == 'f') {
    double u = rd_f(s, x), v = rd_f(s, y), r;
    switch (a) {
    case CF_A_ADD: r = u + v; break;
    case CF_A_MUL: r = u * v; break;
    case CF_A_MIN: r = fmin(u, v); break;
    default: r = fmax(u, v); break;
    }
    wr_f(s, out, r);
    return;
  }
  uint64_t u = rd_u(s, x), v = rd_u(s, y), r = 0;
  switch (a) {
  case CF_A_ADD: r = u + v; break;
  case CF_A_MUL: r = u * v; break;
  case CF_A_MIN: r = k == 'i' ? (rd_i(s, x) < rd_i(s, y) ? u : v) : (u < v ? u : v); break;
  case CF_A_MAX: r = k == 'i' ? (rd_i(s, x) > rd_i(s, y) ? u : v) : (u > v ? u : v); break;
  case CF_A_AND: r = u & v; break;
  case CF_A_OR: r = u | v; break;
  case CF_A_XOR: r = u ^ v; break;
  case CF_A_LAND: r = (u != 0) && (v != 0); break;
  case CF_A_LOR: r = (u != 0) || (v != 0); break;
  case CF_A_LXOR: r = (u != 0) != (v != 0); break;
  default: break;
  }
  wr_u(s, out, r & width_mask(s));
}

/* Applies combine to each component of vector values */
static void combine_vec(const cf_case *c, const uint8_t *x, const uint8_t *y, uint8_t *out)
{
  cf_scalar s = c->type.s;
  uint32_t n = ncomp_of(c, false), b = cf_scalars[s].bytes;
  for (uint32_t k = 0; k < n; ++k)
    combine(c->op->arith, s, x + k * b, y + k * b, out + k * b);
}

static void identity_vec(const cf_case *c, uint8_t *out)
{
  uint32_t n = ncomp_of(c, false), b = cf_scalars[c->type.s].bytes;
  for (uint32_t k = 0; k < n; ++k)
    identity(c->op->arith, c->type.s, out + k * b);
}

/* ------------------------------------------------------------ the verifier */

typedef struct call_ctx {
  const cf_case *c;
  const cf_inputs *in;
  const cf_item *items;
  const uint32_t *members;   /* of this subgroup: lane -> lin or UINT32_MAX */
  uint32_t S, n;             /* max size, lanes in this subgroup */
  bool act[CF_MAX_S];
  bool alt;                  /* else-branch data */
  cf_expect *e;
  uint32_t slot;
} call_ctx;

static const uint8_t *xv(const call_ctx *k, uint32_t lane)
{
  const uint8_t *base = k->alt ? k->in->y : k->in->x;
  return base + (size_t)k->members[lane] * k->in->esize;
}

static const uint8_t *yv(const call_ctx *k, uint32_t lane)
{
  const uint8_t *base = k->alt ? k->in->x : k->in->y;
  return base + (size_t)k->members[lane] * k->in->esize;
}

static void q_of(const call_ctx *k, uint32_t q[4])
{
  for (int i = 0; i < 4; ++i)
    q[i] = k->in->q[k->alt ? (i + 1) % 4 : i];
}

static bool qbit(const uint32_t q[4], uint32_t b) { return b < 128 && (q[b / 32] >> (b % 32) & 1); }

static uint8_t *slot_value(const call_ctx *k, uint32_t lane)
{
  return k->e->value + ((size_t)k->members[lane] * CF_NSLOT + k->slot) * k->e->rsize;
}

static void set_any(call_ctx *k, uint32_t lane)
{
  k->e->state[(size_t)k->members[lane] * CF_NSLOT + k->slot] = CF_EXP_ANY;
  k->e->ub_allowed = true;
}

static void set_bytes(call_ctx *k, uint32_t lane, const void *v, size_t n)
{
  k->e->state[(size_t)k->members[lane] * CF_NSLOT + k->slot] = CF_EXP_VALUE;
  memcpy(slot_value(k, lane), v, n);
}

static void set_u32(call_ctx *k, uint32_t lane, uint32_t v) { set_bytes(k, lane, &v, 4); }

static void set_mask(call_ctx *k, uint32_t lane, const uint32_t m[4]) { set_bytes(k, lane, m, 16); }

static void set_from_lane(call_ctx *k, uint32_t lane, uint32_t src, bool use_y)
{
  if (src >= k->n || !k->act[src]) {
    set_any(k, lane);
    return;
  }
  set_bytes(k, lane, use_y ? yv(k, src) : xv(k, src), k->in->esize);
}

static bool truthy(const call_ctx *k, uint32_t lane)
{
  int32_t v;
  memcpy(&v, xv(k, lane), 4);
  return v != 0;
}

static void range_mask(uint32_t lo, uint32_t hi, uint32_t m[4])
{
  memset(m, 0, 16);
  for (uint32_t b = lo; b < hi && b < 128; ++b)
    m[b / 32] |= 1u << (b % 32);
}

static void eval_call(call_ctx *k)
{
  const cf_case *c = k->c;
  uint32_t S = k->S, n = k->n, first = CF_MAX_S;
  uint8_t acc[CF_MAX_VAL], tmp[CF_MAX_VAL];
  for (uint32_t l = 0; l < n; ++l)
    if (k->act[l]) { first = l; break; }
  if (first == CF_MAX_S)
    return;   /* nobody calls */
  uint32_t q[4];
  q_of(k, q);
  for (uint32_t l = 0; l < n; ++l) {
    if (!k->act[l])
      continue;
    uint32_t a = k->in->aux[k->members[l]];
    switch (c->op->sem) {
    case CF_SEM_REDUCE: case CF_SEM_SCAN_INC: case CF_SEM_SCAN_EXC: case CF_SEM_CLUSTERED: {
      uint32_t lo = 0, hi = n;
      if (c->op->sem == CF_SEM_SCAN_INC) hi = l + 1;
      if (c->op->sem == CF_SEM_SCAN_EXC) hi = l;
      if (c->op->sem == CF_SEM_CLUSTERED) {
        lo = l / (uint32_t)c->variant * (uint32_t)c->variant;
        hi = lo + (uint32_t)c->variant < n ? lo + (uint32_t)c->variant : n;
      }
      if (c->op->sig == CF_SIG_PRED) {     /* logical ops on predicates: truth values */
        uint32_t r = c->op->arith == CF_A_LAND;
        for (uint32_t j = lo; j < hi; ++j)
          if (k->act[j]) {
            bool t = truthy(k, j);
            r = c->op->arith == CF_A_LAND ? (r && t) : c->op->arith == CF_A_LOR ? (r || t) : (r != t);
          }
        set_u32(k, l, r);
        break;
      }
      identity_vec(c, acc);
      for (uint32_t j = lo; j < hi; ++j)
        if (k->act[j]) {
          combine_vec(c, acc, xv(k, j), tmp);
          memcpy(acc, tmp, k->in->esize);
        }
      set_bytes(k, l, acc, k->in->esize);
      break;
    }
    case CF_SEM_ALL: case CF_SEM_ANY: {
      bool all = true, any = false;
      for (uint32_t j = 0; j < n; ++j)
        if (k->act[j]) {
          bool t = truthy(k, j);
          all = all && t;
          any = any || t;
        }
      set_u32(k, l, c->op->sem == CF_SEM_ALL ? all : any);
      break;
    }
    case CF_SEM_ALL_EQUAL: {
      bool eq = true;
      for (uint32_t j = 0; j < n; ++j)
        if (k->act[j] && memcmp(xv(k, j), xv(k, first), k->in->esize) != 0)
          eq = false;
      set_u32(k, l, eq);
      break;
    }
    case CF_SEM_ELECT: set_u32(k, l, l == first); break;
    case CF_SEM_BROADCAST: set_from_lane(k, l, k->in->p, false); break;
    case CF_SEM_NU_BROADCAST: set_from_lane(k, l, (uint32_t)c->variant, false); break;
    case CF_SEM_BROADCAST_FIRST: set_from_lane(k, l, first, false); break;
    case CF_SEM_BALLOT: {
      uint32_t m[4] = {0, 0, 0, 0};
      for (uint32_t j = 0; j < n; ++j)
        if (k->act[j] && truthy(k, j))
          m[j / 32] |= 1u << (j % 32);
      set_mask(k, l, m);
      break;
    }
    case CF_SEM_INVERSE_BALLOT: set_u32(k, l, qbit(q, l)); break;
    case CF_SEM_BIT_EXTRACT:
      if (a >= S) set_any(k, l); else set_u32(k, l, qbit(q, a));
      break;
    case CF_SEM_BIT_COUNT: case CF_SEM_BALLOT_INC: case CF_SEM_BALLOT_EXC: {
      uint32_t hi = c->op->sem == CF_SEM_BIT_COUNT ? S : c->op->sem == CF_SEM_BALLOT_INC ? l + 1 : l;
      uint32_t cnt = 0;
      bool beyond = false;
      for (uint32_t b = 0; b < hi; ++b)
        if (qbit(q, b)) { ++cnt; beyond = beyond || b >= n; }
      /* "only the bits that represent invocations in the subgroup": a partial
       * subgroup leaves bits [n, S) open to interpretation */
      if (beyond) set_any(k, l); else set_u32(k, l, cnt);
      break;
    }
    case CF_SEM_BALLOT_LSB: case CF_SEM_BALLOT_MSB: {
      uint32_t lsb = UINT32_MAX, msb = UINT32_MAX;
      for (uint32_t b = 0; b < S; ++b)
        if (qbit(q, b)) { if (lsb == UINT32_MAX) lsb = b; msb = b; }
      uint32_t r = c->op->sem == CF_SEM_BALLOT_LSB ? lsb : msb;
      if (r == UINT32_MAX || r >= n) set_any(k, l); else set_u32(k, l, r);
      break;
    }
    case CF_SEM_MASK_EQ: case CF_SEM_MASK_GE: case CF_SEM_MASK_GT: case CF_SEM_MASK_LE:
    case CF_SEM_MASK_LT: {
      uint32_t m[4];
      switch (c->op->sem) {
      case CF_SEM_MASK_EQ: range_mask(l, l + 1, m); break;
      case CF_SEM_MASK_GE: range_mask(l, 128, m); break;
      case CF_SEM_MASK_GT: range_mask(l + 1, 128, m); break;
      case CF_SEM_MASK_LE: range_mask(0, l + 1, m); break;
      default: range_mask(0, l, m); break;
      }
      set_mask(k, l, m);   /* compared below the subgroup's size only */
      break;
    }
    case CF_SEM_SHUFFLE: case CF_SEM_ISHUFFLE: set_from_lane(k, l, a, false); break;
    case CF_SEM_SHUFFLE_XOR: case CF_SEM_ISHUFFLE_XOR: set_from_lane(k, l, l ^ a, false); break;
    case CF_SEM_SHUFFLE_UP:
      set_from_lane(k, l, l >= k->in->p ? l - k->in->p : UINT32_MAX, false);
      break;
    case CF_SEM_SHUFFLE_DOWN:
      set_from_lane(k, l, k->in->p < S ? l + k->in->p : UINT32_MAX, false);
      break;
    case CF_SEM_ROTATE: {
      /* (id + delta) mod the subgroup size; for a partial subgroup "size" may
       * be read as S or as the lanes present: accept either where they differ */
      uint32_t s1 = (uint32_t)((l + (uint64_t)k->in->p) % S), s2 = (uint32_t)((l + (uint64_t)k->in->p) % n);
      if (s1 != s2) set_any(k, l); else set_from_lane(k, l, s1, false);
      break;
    }
    case CF_SEM_CLUSTERED_ROTATE: {
      uint32_t cs = (uint32_t)c->variant;
      uint32_t src = (uint32_t)(((l + (uint64_t)k->in->p) & (cs - 1)) + (l & ~(cs - 1)));
      set_from_lane(k, l, src, false);
      break;
    }
    case CF_SEM_ISHUFFLE_DOWN: {
      uint64_t idx = (uint64_t)l + a;
      if (idx < S) set_from_lane(k, l, (uint32_t)idx, false);
      else if (idx < 2ull * S) set_from_lane(k, l, (uint32_t)(idx - S), true);
      else set_any(k, l);
      break;
    }
    case CF_SEM_ISHUFFLE_UP: {
      int64_t idx = (int64_t)l - (int64_t)a;
      if (idx >= 0) set_from_lane(k, l, (uint32_t)idx, true);              /* current = y */
      else if (idx >= -(int64_t)S) set_from_lane(k, l, (uint32_t)(idx + S), false); /* previous = x */
      else set_any(k, l);
      break;
    }
    case CF_SEM_BLOCK_READ: case CF_SEM_BLOCK_WRITE: {
      if (n < S) {   /* block I/O in a partial subgroup: undefined */
        set_any(k, l);
        break;
      }
      if (c->op->sem == CF_SEM_BLOCK_WRITE) {   /* out[i] = in[i] */
        set_bytes(k, l, xv(k, l), k->in->esize);
        break;
      }
      const cf_item *it = &k->items[k->members[l]];
      uint32_t eb = cf_scalars[c->type.s].bytes;
      size_t base = (size_t)(it->wg * it->n_sg_enq + it->sg) * k->in->p;
      for (int j = 0; j < c->variant; ++j)
        memcpy(tmp + (size_t)j * eb, (const uint8_t *)k->in->block + (base + l + (size_t)j * S) * eb, eb);
      set_bytes(k, l, tmp, (size_t)c->variant * eb);
      break;
    }
    case CF_SEM_IMG_BLOCK_READ: case CF_SEM_IMG_BLOCK_WRITE: {
      if (n < S) {   /* block I/O in a partial subgroup: undefined */
        set_any(k, l);
        break;
      }
      if (c->op->sem == CF_SEM_IMG_BLOCK_WRITE) {   /* out[i] = in[i] */
        set_bytes(k, l, xv(k, l), k->in->esize);
        break;
      }
      /* cl_intel_subgroups, "Sub-group Read and Write Functions": lane l's
       * k-th value is the uint at byte cx + 4*l of row cy + k, read without
       * format conversion.  4-byte pixels: out of bounds reads return the
       * edge element (clamp to edge, in units of uints).  An unaligned x
       * spans two pixels: defined only when both lie inside. */
      cf_img_scn sc;
      cf_image_scenario(c->p, S, &sc);
      bool undef = false;
      uint32_t eb = cf_scalars[c->type.s].bytes;   /* 4 (uint) or 2 (_us: ushort) */
      const uint8_t *img = (const uint8_t *)k->in->block;
      for (int j = 0; j < c->variant; ++j) {
        int64_t bx = (int64_t)sc.cx + eb * (int64_t)l, row = (int64_t)sc.cy + j;
        if (eb != 4 || bx % 4 != 0) {
          if (bx < 0 || bx + eb > 4 * (int64_t)sc.width || row < 0 || row >= sc.height) {
            undef = true;
            break;
          }
          memcpy(tmp + (size_t)j * eb, img + (size_t)row * sc.row_pitch + (size_t)bx, eb);
        } else {
          int64_t u = bx / 4;
          u = u < 0 ? 0 : u >= sc.width ? sc.width - 1 : u;
          row = row < 0 ? 0 : row >= sc.height ? sc.height - 1 : row;
          memcpy(tmp + (size_t)j * 4, img + (size_t)row * sc.row_pitch + (size_t)u * 4, 4);
        }
      }
      if (undef)
        set_any(k, l);
      else
        set_bytes(k, l, tmp, (size_t)c->variant * eb);
      break;
    }
    case CF_SEM_Q_SIZE: set_u32(k, l, n); break;
    case CF_SEM_Q_MAX_SIZE: {
      const cf_item *it = &k->items[k->members[l]];
      /* a work-group smaller than S: max may be read as S or the largest present */
      if (it->n_sg_enq == 1 && n < S) set_any(k, l); else set_u32(k, l, S);
      break;
    }
    case CF_SEM_Q_NUM: set_u32(k, l, k->items[k->members[l]].n_sg); break;
    case CF_SEM_Q_ENQ_NUM: set_u32(k, l, k->items[k->members[l]].n_sg_enq); break;
    case CF_SEM_Q_ID: set_u32(k, l, k->items[k->members[l]].sg); break;
    case CF_SEM_Q_LOCAL_ID: set_u32(k, l, l); break;
    case CF_SEM_SG_BARRIER:
      /* cl_khr_subgroups: "all work-items in a sub-group ... must execute
       * this function before any are allowed to continue", and the fence
       * makes their local-memory writes before it visible to the subgroup
       * after it: slot 0 is the first round's value (x) of lane
       * (l + aux % n) % n, slot 1 the second round's (y) of lane n-1-l. */
      if (k->slot == 0)
        set_from_lane(k, l, (l + a % n) % n, false);
      else
        set_from_lane(k, l, n - 1 - l, true);
      break;
    }
  }
}

void cf_verify_expect(const cf_case *c, const cf_geom *g, const cf_item *items,
                      const uint32_t *sg_members, const cf_inputs *in, cf_expect *e)
{
  uint32_t S = g->S, n_items = in->n;
  memset(e, 0, sizeof *e);
  e->rsize = cf_result_size(c);
  e->state = calloc((size_t)n_items * CF_NSLOT + 1, 1);
  e->value = calloc((size_t)n_items * CF_NSLOT * e->rsize + 1, 1);
  if (!e->state || !e->value)
    return;
  /* subgroups are visited through their lane 0's linear id */
  for (uint32_t i = 0; i < n_items; ++i) {
    const cf_item *it = &items[i];
    if (it->lane != 0)
      continue;
    call_ctx k = {.c = c, .in = in, .items = items, .members = sg_members + (size_t)it->sg_key * S,
                  .S = S, .n = it->sg_size, .e = e};
    int n_calls = c->flow == CF_FLOW_UNIFORM ? 1 : c->flow == CF_FLOW_LOOP ? 3 : 2;
    if (c->op->sem == CF_SEM_SG_BARRIER)
      n_calls = 2;   /* two exchange rounds, both in uniform control flow */
    for (int call = 0; call < n_calls; ++call) {
      k.slot = (uint32_t)call;
      k.alt = (c->flow == CF_FLOW_IFELSE || c->flow == CF_FLOW_NESTED) && call == 1;
      for (uint32_t l = 0; l < k.n; ++l) {
        int s = in->sel[k.members[l]];
        bool a = true;
        switch (c->flow) {
        case CF_FLOW_IFELSE: a = call == 0 ? (s & 1) != 0 : (s & 1) == 0 && (s & 4) != 0; break;
        case CF_FLOW_NESTED: a = call == 0 ? (s & 1) != 0 : (s & 3) == 3; break;
        case CF_FLOW_LOOP: a = (s & 3) > call; break;
        default: break;
        }
        k.act[l] = a;
      }
      eval_call(&k);
    }
  }
  if (c->op->sem == CF_SEM_BLOCK_WRITE) {
    uint32_t eb = cf_scalars[c->type.s].bytes;
    e->block_state = calloc(in->n_block + 1, 1);
    e->block_value = calloc(in->n_block + 1, 8);
    if (!e->block_state || !e->block_value)
      return;
    memcpy(e->block_value, in->block, (size_t)in->n_block * eb);
    memset(e->block_state, CF_EXP_VALUE, in->n_block);
    for (uint32_t i = 0; i < n_items; ++i) {
      const cf_item *it = &items[i];
      size_t base = (size_t)(it->wg * it->n_sg_enq + it->sg) * in->p;
      for (int j = 0; j < c->variant; ++j) {
        size_t pos = base + it->lane + (size_t)j * S;
        if (pos >= in->n_block)
          continue;
        if (it->sg_size < S) {
          /* partial subgroup: the whole block of the subgroup is undefined */
          for (size_t q = base; q < base + (size_t)S * (size_t)c->variant && q < in->n_block; ++q)
            e->block_state[q] = CF_EXP_ANY;
          e->ub_allowed = true;
          continue;
        }
        memcpy((uint8_t *)e->block_value + pos * eb, in->x + (size_t)i * in->esize + (size_t)j * eb, eb);
      }
    }
  }
  if (c->op->sem == CF_SEM_IMG_BLOCK_WRITE) {
    /* the whole image afterwards: lane l's k-th value lands at byte
     * cx + eb*l of row cy + k when that element lies inside the image (4-byte
     * pixels: out-of-bounds writes are ignored); every other byte,
     * including the row padding, is untouched */
    cf_img_scn sc;
    cf_image_scenario(c->p, S, &sc);
    e->block_state = calloc(in->n_block + 1, 1);
    e->block_value = calloc(in->n_block + 1, 8);
    if (!e->block_state || !e->block_value)
      return;
    uint32_t eb = cf_scalars[c->type.s].bytes;   /* 4 (uint) or 2 (_us: ushort) */
    memcpy(e->block_value, in->block, (size_t)in->n_block * eb);
    memset(e->block_state, CF_EXP_VALUE, in->n_block);
    for (uint32_t i = 0; i < n_items; ++i) {
      const cf_item *it = &items[i];
      for (int j = 0; j < c->variant; ++j) {
        int64_t bx = (int64_t)sc.cx + eb * (int64_t)it->lane, row = (int64_t)sc.cy + j;
        /* (x is a multiple of 4 in every write case; _us cases stay inside) */
        if (bx < 0 || bx + eb > 4 * (int64_t)sc.width || row < 0 || row >= sc.height)
          continue;
        size_t pos = (size_t)row * sc.row_pitch + (size_t)bx;   /* bytes */
        if (it->sg_size < S) {
          e->block_state[pos / eb] = CF_EXP_ANY;
          e->ub_allowed = true;
          continue;
        }
        memcpy((uint8_t *)e->block_value + pos, in->x + (size_t)i * in->esize + (size_t)j * eb, eb);
      }
    }
  }
  if (cf_plant_wrong && strcmp(cf_plant_wrong, c->op->name) == 0) {
    /* self-test: corrupt lane 1 of every subgroup's first defined result */
    for (uint32_t i = 0; i < n_items; ++i)
      if (items[i].lane == 1)
        for (uint32_t s = 0; s < CF_NSLOT; ++s)
          if (e->state[(size_t)i * CF_NSLOT + s] == CF_EXP_VALUE) {
            uint8_t *v = e->value + ((size_t)i * CF_NSLOT + s) * e->rsize;
            if (c->op->res == CF_RES_BOOL) {
              uint32_t b;
              memcpy(&b, v, 4);
              b = !b;
              memcpy(v, &b, 4);
            } else {
              v[0] ^= 1;
            }
            break;
          }
  }
}

void cf_expect_free(cf_expect *e)
{
  free(e->state);
  free(e->value);
  free(e->block_state);
  free(e->block_value);
  memset(e, 0, sizeof *e);
}

bool cf_result_match(const cf_case *c, const cf_item *it, const void *expect, const void *actual)
{
  const uint8_t *x = expect, *y = actual;
  switch (c->op->res) {
  case CF_RES_BOOL: {
    int32_t a, b;
    memcpy(&a, x, 4);
    memcpy(&b, y, 4);
    return (a != 0) == (b != 0);
  }
  case CF_RES_UINT: return memcmp(x, y, 4) == 0;
  case CF_RES_UINT4: return memcmp(x, y, 16) == 0;
  case CF_RES_MASK: {
    uint32_t m[4], a[4], b[4];
    range_mask(0, it->sg_size, m);
    memcpy(a, x, 16);
    memcpy(b, y, 16);
    for (int i = 0; i < 4; ++i)
      if ((a[i] & m[i]) != (b[i] & m[i]))
        return false;
    return true;
  }
  case CF_RES_T: break;
  }
  cf_scalar s = scalar_of(c, true);
  uint32_t n = ncomp_of(c, true), b = cf_scalars[s].bytes;
  for (uint32_t k = 0; k < n; ++k) {
    if (cf_scalars[s].kind == 'f') {
      double u = rd_f(s, x + k * b), v = rd_f(s, y + k * b);
      if (!(u == v))
        return false;
    } else if (memcmp(x + k * b, y + k * b, b) != 0) {
      return false;
    }
  }
  return true;
}

void cf_format_value(const cf_case *c, bool result, const void *v, char *buf, size_t size)
{
  const uint8_t *p = v;
  cf_scalar s = scalar_of(c, result);
  uint32_t n = ncomp_of(c, result), b = cf_scalars[s].bytes;
  if (result && c->op->res == CF_RES_UINT4) s = CF_UINT;
  size_t len = 0;
  buf[0] = 0;
  for (uint32_t k = 0; k < n && len + 1 < size; ++k) {
    int w;
    const char *sep = n > 1 ? (k == 0 ? "(" : ",") : "";
    if (cf_scalars[s].kind == 'f')
      w = snprintf(buf + len, size - len, "%s%.9g", sep, rd_f(s, p + k * b));
    else if (cf_scalars[s].kind == 'i')
      w = snprintf(buf + len, size - len, "%s%lld", sep, (long long)rd_i(s, p + k * b));
    else if (result && (c->op->res == CF_RES_UINT4 || c->op->res == CF_RES_MASK))
      w = snprintf(buf + len, size - len, "%s0x%08llx", sep, (unsigned long long)rd_u(s, p + k * b));
    else
      w = snprintf(buf + len, size - len, "%s%llu", sep, (unsigned long long)rd_u(s, p + k * b));
    if (w < 0)
      break;
    len += (size_t)w;
    if (len >= size)
      len = size - 1;
  }
  if (n > 1 && len + 2 < size) {
    buf[len++] = ')';
    buf[len] = 0;
  }
}
