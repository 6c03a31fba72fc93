/* sg_ref.c - reference semantics of the subgroup operations, shared by the
 * interpreter's handlers and the JIT (ip.h, "shared semantics").
 *
 * Reductions and scans combine component by component, in increasing lane
 * order (cl_khr_subgroups: "The scan order is defined by increasing sub-group
 * local ID"); a reduction or an inclusive scan starts from the first
 * participant's value (so a lone -0.0 stays -0.0), an exclusive scan's first
 * participant gets the identity.  Integer arithmetic wraps at the declared
 * width; FMin/FMax follow OpenCL fmin/fmax (a NaN operand is ignored; -0 is
 * below +0).  half arithmetic is done in double and rounded once, which is
 * exact for add, mul, min and max.
 */
#include <math.h>
#include <stdlib.h>
#include "ip_internal.h"

static uint64_t width_mask(uint32_t w) { return w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1); }

static int64_t sext(uint64_t v, uint32_t w) {
  if (w >= 64) return (int64_t)v;
  uint64_t sign = (uint64_t)1 << (w - 1);
  v &= width_mask(w);
  return (int64_t)((v ^ sign) - sign);
}

static void store_uint(void *p, uint32_t size, uint64_t v) {
  switch (size) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}

static double load_fp(const ld_type *t, const void *p) {
  if (t->width == 16) { uint16_t h; memcpy(&h, p, 2); return ip_half_to_double(h); }
  if (t->width == 32) { float f; memcpy(&f, p, 4); return f; }
  double d; memcpy(&d, p, 8); return d;
}

static void store_fp(const ld_type *t, void *p, double v) {
  if (t->width == 16) { uint16_t h = ip_double_to_half(v); memcpy(p, &h, 2); }
  else if (t->width == 32) { float f = (float)v; memcpy(p, &f, 4); }
  else memcpy(p, &v, 8);
}

/* OpenCL fmin/fmax with a fixed choice for signed zeros. */
static double fp_min(double a, double b) {
  if (isnan(a)) return b;
  if (isnan(b)) return a;
  if (a < b) return a;
  if (b < a) return b;
  return signbit(a) ? a : b;
}
static double fp_max(double a, double b) {
  if (isnan(a)) return b;
  if (isnan(b)) return a;
  if (a > b) return a;
  if (b > a) return b;
  return signbit(a) ? b : a;
}

static bool is_fp_op(ip_group_arith op) {
  return op == IP_GA_FADD || op == IP_GA_FMUL || op == IP_GA_FMIN || op == IP_GA_FMAX;
}

/* acc = acc OP x for one scalar component of type ct. */
static void combine(ip_group_arith op, const ld_type *ct, uint8_t *acc, const uint8_t *x) {
  if (is_fp_op(op) && ct->kind == LD_T_FLOAT) {
    double a = load_fp(ct, acc), b = load_fp(ct, x), r;
    if (ct->width == 32) {
      /* float arithmetic in float: one rounding per operation */
      float fa = (float)a, fb = (float)b;
      switch (op) {
      case IP_GA_FADD: r = (double)(fa + fb); break;
      case IP_GA_FMUL: r = (double)(fa * fb); break;
      case IP_GA_FMIN: r = fp_min(a, b); break;
      default: r = fp_max(a, b); break;
      }
    } else if (ct->width == 64 || ct->width == 16) {
      switch (op) {
      case IP_GA_FADD: r = a + b; break;
      case IP_GA_FMUL: r = a * b; break;
      case IP_GA_FMIN: r = fp_min(a, b); break;
      default: r = fp_max(a, b); break;
      }
    } else {
      return;
    }
    store_fp(ct, acc, r);
    return;
  }
  uint32_t w = ct->kind == LD_T_BOOL ? 1 : ct->width ? ct->width : ct->size * 8;
  uint64_t m = width_mask(w);
  uint64_t a = ip_load_uint(acc, ct->size) & m, b = ip_load_uint(x, ct->size) & m, r;
  switch (op) {
  case IP_GA_IADD: case IP_GA_FADD: r = a + b; break;
  case IP_GA_IMUL: case IP_GA_FMUL: r = a * b; break;
  case IP_GA_SMIN: r = sext(a, w) <= sext(b, w) ? a : b; break;
  case IP_GA_SMAX: r = sext(a, w) >= sext(b, w) ? a : b; break;
  case IP_GA_UMIN: case IP_GA_FMIN: r = a <= b ? a : b; break;
  case IP_GA_UMAX: case IP_GA_FMAX: r = a >= b ? a : b; break;
  case IP_GA_AND: r = a & b; break;
  case IP_GA_OR: r = a | b; break;
  case IP_GA_XOR: r = a ^ b; break;
  case IP_GA_LAND: r = (a != 0) & (b != 0); break;
  case IP_GA_LOR: r = (a != 0) | (b != 0); break;
  case IP_GA_LXOR: r = (a != 0) ^ (b != 0); break;
  default: r = a; break;
  }
  store_uint(acc, ct->size, r & m);
}

static void identity_comp(ip_group_arith op, const ld_type *ct, uint8_t *out) {
  memset(out, 0, ct->size);
  if (ct->kind == LD_T_FLOAT) {
    switch (op) {
    case IP_GA_FMUL: case IP_GA_IMUL: store_fp(ct, out, 1.0); break;
    case IP_GA_FMIN: store_fp(ct, out, INFINITY); break;
    case IP_GA_FMAX: store_fp(ct, out, -INFINITY); break;
    default: break;   /* add: +0 */
    }
    return;
  }
  uint32_t w = ct->kind == LD_T_BOOL ? 1 : ct->width ? ct->width : ct->size * 8;
  uint64_t m = width_mask(w), v = 0;
  switch (op) {
  case IP_GA_IMUL: case IP_GA_FMUL: v = 1; break;
  case IP_GA_SMIN: v = m >> 1; break;                 /* type max */
  case IP_GA_SMAX: v = (m >> 1) + 1; break;           /* type min */
  case IP_GA_UMIN: case IP_GA_FMIN: case IP_GA_AND: v = m; break;
  case IP_GA_LAND: v = 1; break;
  default: v = 0; break;
  }
  store_uint(out, ct->size, v & m);
}

void ip_group_arith_identity(ip_group_arith op, const ld_type *type, void *out) {
  const ld_type *ct = type->comp ? type->comp : type;
  uint32_t n = type->n_comp ? type->n_comp : 1;
  memset(out, 0, type->size);
  for (uint32_t c = 0; c < n; ++c)
    identity_comp(op, ct, (uint8_t *)out + (size_t)c * ct->size);
}

/* One component over one run of participants [lo, hi). */
static void eval_run(ip_group_arith op, SpvGroupOperation gop, const ld_type *ct, size_t coff,
                     uint32_t lo, uint32_t hi, const uint8_t *active, const uint8_t *in,
                     size_t in_stride, uint8_t *out, size_t out_stride) {
  uint8_t acc[16], id[16];
  bool have = false;
  identity_comp(op, ct, id);
  memcpy(acc, id, ct->size);
  if (gop == SpvGroupOperationInclusiveScan || gop == SpvGroupOperationExclusiveScan) {
    for (uint32_t i = lo; i < hi; ++i) {
      if (active && !active[i]) continue;
      const uint8_t *x = in + i * in_stride + coff;
      if (gop == SpvGroupOperationExclusiveScan) memcpy(out + i * out_stride + coff, acc, ct->size);
      if (have) combine(op, ct, acc, x);
      else { memcpy(acc, x, ct->size); have = true; }
      if (gop == SpvGroupOperationInclusiveScan) memcpy(out + i * out_stride + coff, acc, ct->size);
    }
    return;
  }
  for (uint32_t i = lo; i < hi; ++i) {
    if (active && !active[i]) continue;
    const uint8_t *x = in + i * in_stride + coff;
    if (have) combine(op, ct, acc, x);
    else { memcpy(acc, x, ct->size); have = true; }
  }
  for (uint32_t i = lo; i < hi; ++i) {
    if (active && !active[i]) continue;
    memcpy(out + i * out_stride + coff, acc, ct->size);
  }
}

void ip_group_arith_eval_n(ip_group_arith op, SpvGroupOperation gop, uint32_t cluster,
                           const ld_type *type, uint32_t n, const uint8_t *active,
                           const void *in, size_t in_stride, void *out) {
  const ld_type *ct = type->comp ? type->comp : type;
  uint32_t nc = type->n_comp ? type->n_comp : 1;
  if (ct->size == 0 || ct->size > 16) return;
  uint32_t cs = n;
  if (gop == SpvGroupOperationClusteredReduce && cluster > 0 && cluster < n) cs = cluster;
  SpvGroupOperation g = gop == SpvGroupOperationClusteredReduce ? SpvGroupOperationReduce : gop;
  for (uint32_t c = 0; c < nc; ++c)
    for (uint32_t lo = 0; lo < n; lo += cs)
      eval_run(op, g, ct, (size_t)c * ct->size, lo, lo + cs < n ? lo + cs : n, active,
               (const uint8_t *)in, in_stride, (uint8_t *)out, type->size);
}

void ip_group_arith_eval(ip_group_arith op, SpvGroupOperation gop, uint32_t cluster,
                         const ld_type *type, ip_mask active, const void *in, void *out) {
  uint8_t act[IP_MAX_LANES];
  for (uint32_t l = 0; l < IP_MAX_LANES; ++l) act[l] = ip_mask_test(active, l);
  uint32_t n = IP_MAX_LANES;
  while (n > 0 && !act[n - 1]) --n;
  if (gop == SpvGroupOperationClusteredReduce && cluster > 0 && n % cluster)
    n += cluster - n % cluster;   /* whole clusters; the padding lanes are inactive */
  if (n > IP_MAX_LANES) n = IP_MAX_LANES;
  ip_group_arith_eval_n(op, gop, cluster, type, n, act, in, type->size, out);
}

/* ------------------------------------------------------ lane permutations */

/* SPV_KHR_subgroup_rotate: LocalId = id mod RotationGroupSize (ClusterSize, or
 * the maximum subgroup size for kernels); the source is
 * ((LocalId + Delta) mod RotationGroupSize) + (id - LocalId). */
uint32_t ip_sg_rotate_src(uint32_t lane, uint64_t delta, uint32_t cluster, uint32_t size) {
  uint32_t g = cluster ? cluster : size;
  if (g == 0 || lane >= size) return IP_SRC_OUT_OF_RANGE;
  uint32_t local = lane % g;
  uint32_t src = (uint32_t)((local + delta % g) % g) + (lane - local);
  return src < size ? src : IP_SRC_OUT_OF_RANGE;
}

/* cl_intel_subgroups: index = sub_group_local_id + delta; < max size: current,
 * < 2 * max size: next[index - max size]; else out of range. */
uint32_t ip_intel_shuffle_down_src(uint32_t lane, uint64_t delta, uint32_t size, bool *out_next) {
  *out_next = false;
  if (delta >= 2 * (uint64_t)size) return IP_SRC_OUT_OF_RANGE;
  uint64_t idx = lane + delta;
  if (idx < size) return (uint32_t)idx;
  if (idx < 2 * (uint64_t)size) { *out_next = true; return (uint32_t)(idx - size); }
  return IP_SRC_OUT_OF_RANGE;
}

/* cl_intel_subgroups: signed index = sub_group_local_id - delta; in [0, max):
 * current, in [-max, 0): previous[index + max]; else out of range. */
uint32_t ip_intel_shuffle_up_src(uint32_t lane, uint64_t delta, uint32_t size, bool *out_prev) {
  *out_prev = false;
  if (delta > 2 * (uint64_t)size) return IP_SRC_OUT_OF_RANGE;
  int64_t idx = (int64_t)lane - (int64_t)delta;
  if (idx >= 0 && idx < (int64_t)size) return (uint32_t)idx;
  if (idx < 0 && idx >= -(int64_t)size) { *out_prev = true; return (uint32_t)(idx + size); }
  return IP_SRC_OUT_OF_RANGE;
}

uint32_t ip_ballot_bit_count(SpvGroupOperation gop, const uint32_t ballot[4], uint32_t lane,
                             uint32_t size) {
  uint32_t lim = size;
  if (gop == SpvGroupOperationInclusiveScan) lim = lane + 1 < size ? lane + 1 : size;
  else if (gop == SpvGroupOperationExclusiveScan) lim = lane < size ? lane : size;
  uint32_t n = 0;
  for (uint32_t w = 0; w < 4; ++w) {
    uint32_t lo = w * 32;
    if (lim <= lo) break;
    uint32_t bits = ballot[w];
    if (lim - lo < 32) bits &= ((uint32_t)1 << (lim - lo)) - 1;
    n += (uint32_t)__builtin_popcount(bits);
  }
  return n;
}

bool ip_group_values_equal(const ld_type *type, const void *a, const void *b) {
  const ld_type *ct = type->comp ? type->comp : NULL;
  if (!ct || ct->kind != LD_T_FLOAT) {
    if (ct && ct->kind == LD_T_BOOL) {
      for (uint32_t c = 0; c < type->n_comp; ++c)
        if ((((const uint8_t *)a)[c] != 0) != (((const uint8_t *)b)[c] != 0)) return false;
      return true;
    }
    /* vec3 padding is not part of the value */
    size_t n = ct ? (size_t)ct->size * type->n_comp : type->size;
    return memcmp(a, b, n) == 0;
  }
  for (uint32_t c = 0; c < type->n_comp; ++c) {
    size_t off = (size_t)c * ct->size;
    if (!(load_fp(ct, (const uint8_t *)a + off) == load_fp(ct, (const uint8_t *)b + off))) return false;
  }
  return true;
}

/* The operation of a Group / GroupNonUniform arithmetic opcode; false for
 * any other opcode.  One table for both backends. */
bool ip_group_arith_of(SpvOp o, ip_group_arith *out) {
  switch (o) {
  case SpvOpGroupIAdd: case SpvOpGroupNonUniformIAdd: *out = IP_GA_IADD; return true;
  case SpvOpGroupFAdd: case SpvOpGroupNonUniformFAdd: *out = IP_GA_FADD; return true;
  case SpvOpGroupIMulKHR: case SpvOpGroupNonUniformIMul: *out = IP_GA_IMUL; return true;
  case SpvOpGroupFMulKHR: case SpvOpGroupNonUniformFMul: *out = IP_GA_FMUL; return true;
  case SpvOpGroupSMin: case SpvOpGroupNonUniformSMin: *out = IP_GA_SMIN; return true;
  case SpvOpGroupUMin: case SpvOpGroupNonUniformUMin: *out = IP_GA_UMIN; return true;
  case SpvOpGroupFMin: case SpvOpGroupNonUniformFMin: *out = IP_GA_FMIN; return true;
  case SpvOpGroupSMax: case SpvOpGroupNonUniformSMax: *out = IP_GA_SMAX; return true;
  case SpvOpGroupUMax: case SpvOpGroupNonUniformUMax: *out = IP_GA_UMAX; return true;
  case SpvOpGroupFMax: case SpvOpGroupNonUniformFMax: *out = IP_GA_FMAX; return true;
  case SpvOpGroupBitwiseAndKHR: case SpvOpGroupNonUniformBitwiseAnd: *out = IP_GA_AND; return true;
  case SpvOpGroupBitwiseOrKHR: case SpvOpGroupNonUniformBitwiseOr: *out = IP_GA_OR; return true;
  case SpvOpGroupBitwiseXorKHR: case SpvOpGroupNonUniformBitwiseXor: *out = IP_GA_XOR; return true;
  case SpvOpGroupLogicalAndKHR: case SpvOpGroupNonUniformLogicalAnd: *out = IP_GA_LAND; return true;
  case SpvOpGroupLogicalOrKHR: case SpvOpGroupNonUniformLogicalOr: *out = IP_GA_LOR; return true;
  case SpvOpGroupLogicalXorKHR: case SpvOpGroupNonUniformLogicalXor: *out = IP_GA_LXOR; return true;
  default: return false;
  }
}
