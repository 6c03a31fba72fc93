/* exec_arith.c - arithmetic, bitwise, relational, conversions, composites.
 *
 * Every operation is elementwise over the n_comp components of scalars and
 * vectors (ld_type.n_comp; a vec3 occupies vec4's bytes, the fourth is never
 * read and written as 0 where we build whole vectors).  Handlers are chosen at
 * lookup time by component type and container width, so the lane loop runs
 * without a switch on type:
 *
 *   h_<op>_<8|16|32|64>  integer ops whose operands and result share one
 *                        container width of 8/16/32/64 bits
 *   h_<op>_g             any other integer shape: each operand read with its
 *                        own component size, result masked to its width
 *                        (odd widths such as i2 stay zero-extended, ld.h)
 *   h_<op>_f/_d/_h       float / double / half (half: computed in float,
 *                        rounded to half to nearest even)
 *
 * Float arithmetic is IEEE binary32/binary64 as C on x86-64 SSE: this file is
 * compiled with -ffp-contract=off (interp/meson.build), so a*b+c is never
 * fused.  Integer semantics and every choice for undefined cases are in
 * docs/semantics.md ("Arithmetic, conversions and OpenCL.std").
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include "ip_internal.h"
#include "ip_arith.h"

/* ------------------------------------------------------------ half floats */

float ip_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3ffu, bits;
  if (e == 31) bits = sign | 0x7f800000u | (m << 13);
  else if (e) bits = sign | ((e + 112u) << 23) | (m << 13);
  else if (!m) bits = sign;
  else {                                /* subnormal: m * 2^-24 */
    float f = (float)m * 0x1p-24f;
    return sign ? -f : f;
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

double ip_half_to_double(uint16_t h) { return (double)ip_half_to_float(h); }

/* Rounds an exact value to binary16 under an SpvFPRoundingMode (0 RTE, 1 RTZ,
 * 2 RTP, 3 RTN).  long double holds every int64/uint64/double exactly. */
uint16_t ip_ld_to_half_mode(long double v, int mode) {
  uint16_t sign = signbit(v) ? 0x8000u : 0;
  if (isnan(v)) return (uint16_t)(sign | 0x7e00u);
  long double a = fabsl(v);
  if (isinf(a)) return (uint16_t)(sign | 0x7c00u);
  int e;
  (void)frexpl(a, &e);
  int q = e - 1;                      /* a in [2^q, 2^(q+1)) */
  if (q < -14) q = -14;               /* subnormal range: quantum 2^-24 */
  long double scaled = ldexpl(a, 10 - q);
  if (scaled >= 4096.0L) {            /* far beyond half range: avoid huge ints */
    scaled = 4096.0L;
    q = 16;
  }
  long double ipart = truncl(scaled), frac = scaled - ipart;
  uint32_t mant = (uint32_t)ipart;
  bool up;
  switch (mode) {
  case SpvFPRoundingModeRTZ: up = false; break;
  case SpvFPRoundingModeRTP: up = frac > 0 && !sign; break;
  case SpvFPRoundingModeRTN: up = frac > 0 && sign; break;
  default: up = frac > 0.5L || (frac == 0.5L && (mant & 1u)); break;
  }
  if (up) mant++;
  if (mant >= 2048) { mant >>= 1; q++; }
  if (mant < 1024) return (uint16_t)(sign | mant);       /* subnormal or zero */
  if (q > 15) {                                           /* overflow */
    bool to_inf = mode == SpvFPRoundingModeRTE || (mode == SpvFPRoundingModeRTP && !sign) ||
                  (mode == SpvFPRoundingModeRTN && sign);
    return (uint16_t)(sign | (to_inf ? 0x7c00u : 0x7bffu));
  }
  return (uint16_t)(sign | ((uint32_t)(q + 15) << 10) | (mant - 1024u));
}

uint16_t ip_double_to_half(double d) { return ip_ld_to_half_mode(d, SpvFPRoundingModeRTE); }

uint16_t ip_float_to_half(float f) {
  /* fast path for the common normal range; exact RTE on the float bits */
  uint32_t b;
  memcpy(&b, &f, 4);
  uint32_t sign = (b >> 16) & 0x8000u, e = (b >> 23) & 255u;
  if (e >= 113 && e <= 142) {
    uint32_t m = b & 0x7fffffu, r = (sign | ((e - 112u) << 10) | (m >> 13));
    uint32_t rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (r & 1u))) r++;   /* may carry into inf: right */
    return (uint16_t)r;
  }
  return ip_ld_to_half_mode(f, SpvFPRoundingModeRTE);
}

/* Exact value -> float / double under a rounding mode: round to nearest, then
 * step one ulp toward the wanted direction when the result is on the wrong
 * side (this also turns an RTZ overflow to inf into FLT_MAX). */
float ip_ld_to_float_mode(long double v, int mode) {
  float f = (float)v;
  if (mode == SpvFPRoundingModeRTE || isnan(v) || (long double)f == v) return f;
  switch (mode) {
  case SpvFPRoundingModeRTZ: if (fabsl((long double)f) > fabsl(v)) f = nextafterf(f, 0.0f); break;
  case SpvFPRoundingModeRTP: if ((long double)f < v) f = nextafterf(f, INFINITY); break;
  case SpvFPRoundingModeRTN: if ((long double)f > v) f = nextafterf(f, -INFINITY); break;
  default: break;
  }
  return f;
}

double ip_ld_to_double_mode(long double v, int mode) {
  double f = (double)v;
  if (mode == SpvFPRoundingModeRTE || isnan(v) || (long double)f == v) return f;
  switch (mode) {
  case SpvFPRoundingModeRTZ: if (fabsl((long double)f) > fabsl(v)) f = nextafter(f, 0.0); break;
  case SpvFPRoundingModeRTP: if ((long double)f < v) f = nextafter(f, INFINITY); break;
  case SpvFPRoundingModeRTN: if ((long double)f > v) f = nextafter(f, -INFINITY); break;
  default: break;
  }
  return f;
}

/* ------------------------------------------------------------- helpers */

static inline int64_t sext(uint64_t x, uint32_t w) {
  return w >= 64 ? (int64_t)x : (int64_t)(x << (64 - w)) >> (64 - w);
}
static inline uint64_t wmask(uint32_t w) { return w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1); }

static inline float ldf(const uint8_t *p) { float v; memcpy(&v, p, 4); return v; }
static inline double ldd(const uint8_t *p) { double v; memcpy(&v, p, 8); return v; }
static inline float ldh(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return ip_half_to_float(v); }
static inline void stf(uint8_t *p, float v) { memcpy(p, &v, 4); }
static inline void std_(uint8_t *p, double v) { memcpy(p, &v, 8); }
static inline void sth(uint8_t *p, float v) { uint16_t h = ip_float_to_half(v); memcpy(p, &h, 2); }

static inline void ip_store_uint(void *p, uint32_t size, uint64_t v) {
  switch (size) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}

static const ld_type *val_type(const ld_module *m, const ld_insn *in, uint32_t i) {
  return i < in->n_ops && in->ops[i] < m->bound ? m->values[in->ops[i]].type : NULL;
}
static const ld_type *comp_of(const ld_type *t) { return t && t->n_comp ? t->comp : NULL; }
static bool is_int(const ld_type *c) { return c && c->kind == LD_T_INT; }
static bool is_float(const ld_type *c) { return c && c->kind == LD_T_FLOAT; }
static bool std_width(uint32_t w) { return w == 8 || w == 16 || w == 32 || w == 64; }

static int div_fault(ip_sg *sg, ip_mask bad) {
  return ip_fault(sg, IP_FAULT_DIVISION_BY_ZERO, bad, 0,
                  "integer division by zero or signed overflow (MIN / -1); result 0");
}

/* ------------------------------------------------------ integer operations
 * f(a, b, w, bad): a and b are zero-extended w-bit values; the result is
 * truncated by the caller. */
#define IOP(name, ...) \
  static inline uint64_t name(uint64_t a, uint64_t b, uint32_t w, bool *bad) { \
    (void)a; (void)b; (void)w; (void)bad; __VA_ARGS__ }

IOP(o_iadd, return a + b;)
IOP(o_isub, return a - b;)
IOP(o_imul, return a * b;)
IOP(o_udiv, if (!b) { *bad = true; return 0; } return a / b;)
IOP(o_umod, if (!b) { *bad = true; return 0; } return a % b;)
IOP(o_sdiv, int64_t x = sext(a, w), y = sext(b, w);
    if (!y || (y == -1 && x == sext((uint64_t)1 << (w - 1), w))) { *bad = true; return 0; }
    return (uint64_t)(x / y);)
IOP(o_srem, int64_t x = sext(a, w), y = sext(b, w);
    if (!y) { *bad = true; return 0; }
    if (y == -1) return 0;
    return (uint64_t)(x % y);)
IOP(o_smod, int64_t x = sext(a, w), y = sext(b, w);
    if (!y) { *bad = true; return 0; }
    if (y == -1) return 0;
    int64_t r = x % y;
    if (r && ((r < 0) != (y < 0))) r += y;
    return (uint64_t)r;)
IOP(o_shl, return a << (b % w);)
IOP(o_shr, return (a & wmask(w)) >> (b % w);)
IOP(o_sar, return (uint64_t)(sext(a, w) >> (b % w));)
IOP(o_or, return a | b;)
IOP(o_xor, return a ^ b;)
IOP(o_and, return a & b;)
IOP(o_ieq, return (a & wmask(w)) == (b & wmask(w));)
IOP(o_ine, return (a & wmask(w)) != (b & wmask(w));)
IOP(o_ugt, return (a & wmask(w)) > (b & wmask(w));)
IOP(o_uge, return (a & wmask(w)) >= (b & wmask(w));)
IOP(o_ult, return (a & wmask(w)) < (b & wmask(w));)
IOP(o_ule, return (a & wmask(w)) <= (b & wmask(w));)
IOP(o_sgt, return sext(a, w) > sext(b, w);)
IOP(o_sge, return sext(a, w) >= sext(b, w);)
IOP(o_slt, return sext(a, w) < sext(b, w);)
IOP(o_sle, return sext(a, w) <= sext(b, w);)
/* unary (b ignored) */
IOP(o_sneg, return (uint64_t)0 - a;)
IOP(o_not, return ~a;)
IOP(o_bitcount, return (uint64_t)__builtin_popcountll(a & wmask(w));)
IOP(o_bitrev, uint64_t r = 0; a &= wmask(w);
    for (uint32_t i = 0; i < w; i++) r |= ((a >> i) & 1u) << (w - 1 - i);
    return r;)

typedef uint64_t iop_fn(uint64_t, uint64_t, uint32_t, bool *);

/* Integer elementwise handler, any shape: operand i component size from its
 * type, result component size and width from the result. */
static int int_generic(ip_sg *sg, const ip_op *op, iop_fn *f, uint32_t arity) {
  const ld_type *rt = op->insn->type->comp, *at = op->in[0].type->comp;
  const ld_type *bt = arity > 1 ? op->in[1].type->comp : at;
  uint32_t n = op->insn->type->n_comp, w = at->width, rs = rt->size;
  uint32_t as = at->size, bs = bt->size;
  bool rbool = rt->kind == LD_T_BOOL;
  uint64_t rmask = rbool ? 1 : wmask(rt->width);
  ip_mask bad = {{0, 0}};
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l), *pb = arity > 1 ? ip_in(sg, op, 1, l) : pa;
    bool bad_lane = false;
    uint8_t *pr = ip_res(sg, op, l);
    for (uint32_t c = 0; c < n; c++) {
      const uint8_t *qb = arity > 1 && op->in[1].type->n_comp == 1 ? pb : pb + c * bs;
      uint64_t a = ip_load_uint(pa + c * as, as), b = ip_load_uint(qb, bs);
      ip_store_uint(pr + c * rs, rs, f(a, b, w, &bad_lane) & rmask);
    }
    if (bad_lane) ip_mask_set(&bad, l);
  }
  return ip_mask_empty(bad) ? IP_NEXT : div_fault(sg, bad);
}

/* Fast handlers: operands and result share container T (W bits); compare
 * ops write bytes. */
#define DEF_IBIN_W(name, T, W, RT) \
  static int h_##name##_##W(ip_sg *sg, const ip_op *op) { \
    const uint32_t n = op->aux; size_t sa, sb; \
    const uint8_t *a0 = ip_in_base(sg, op, 0, &sa), *b0 = ip_in_base(sg, op, 1, &sb); \
    ip_mask bad = {{0, 0}}; \
    IP_FOR_LANES(sg->mask, l) { \
      const uint8_t *pa = a0 + l * sa, *pb = b0 + l * sb; \
      uint8_t *pr = ip_res(sg, op, l); bool bd = false; \
      for (uint32_t c = 0; c < n; c++) { \
        T a, b; RT r; memcpy(&a, pa + c * sizeof(T), sizeof(T)); memcpy(&b, pb + c * sizeof(T), sizeof(T)); \
        r = (RT)name(a, b, W, &bd); memcpy(pr + c * sizeof(RT), &r, sizeof(RT)); \
      } \
      if (bd) ip_mask_set(&bad, l); \
    } \
    return ip_mask_empty(bad) ? IP_NEXT : div_fault(sg, bad); \
  }
#define DEF_IUN_W(name, T, W) \
  static int h_##name##_##W(ip_sg *sg, const ip_op *op) { \
    const uint32_t n = op->aux; size_t sa; bool bd = false; \
    const uint8_t *a0 = ip_in_base(sg, op, 0, &sa); \
    IP_FOR_LANES(sg->mask, l) { \
      const uint8_t *pa = a0 + l * sa; uint8_t *pr = ip_res(sg, op, l); \
      for (uint32_t c = 0; c < n; c++) { \
        T a, r; memcpy(&a, pa + c * sizeof(T), sizeof(T)); \
        r = (T)name(a, 0, W, &bd); memcpy(pr + c * sizeof(T), &r, sizeof(T)); \
      } \
    } \
    return IP_NEXT; \
  }
#define DEF_IBIN(name) \
  DEF_IBIN_W(name, uint8_t, 8, uint8_t) DEF_IBIN_W(name, uint16_t, 16, uint16_t) \
  DEF_IBIN_W(name, uint32_t, 32, uint32_t) DEF_IBIN_W(name, uint64_t, 64, uint64_t) \
  static int h_##name##_g(ip_sg *sg, const ip_op *op) { return int_generic(sg, op, name, 2); }
#define DEF_ICMP(name) \
  DEF_IBIN_W(name, uint8_t, 8, uint8_t) DEF_IBIN_W(name, uint16_t, 16, uint8_t) \
  DEF_IBIN_W(name, uint32_t, 32, uint8_t) DEF_IBIN_W(name, uint64_t, 64, uint8_t) \
  static int h_##name##_g(ip_sg *sg, const ip_op *op) { return int_generic(sg, op, name, 2); }
#define DEF_IUN(name) \
  DEF_IUN_W(name, uint8_t, 8) DEF_IUN_W(name, uint16_t, 16) \
  DEF_IUN_W(name, uint32_t, 32) DEF_IUN_W(name, uint64_t, 64) \
  static int h_##name##_g(ip_sg *sg, const ip_op *op) { return int_generic(sg, op, name, 1); }

DEF_IBIN(o_iadd) DEF_IBIN(o_isub) DEF_IBIN(o_imul) DEF_IBIN(o_udiv) DEF_IBIN(o_umod)
DEF_IBIN(o_sdiv) DEF_IBIN(o_srem) DEF_IBIN(o_smod) DEF_IBIN(o_shl) DEF_IBIN(o_shr)
DEF_IBIN(o_sar) DEF_IBIN(o_or) DEF_IBIN(o_xor) DEF_IBIN(o_and)
DEF_ICMP(o_ieq) DEF_ICMP(o_ine) DEF_ICMP(o_ugt) DEF_ICMP(o_uge) DEF_ICMP(o_ult)
DEF_ICMP(o_ule) DEF_ICMP(o_sgt) DEF_ICMP(o_sge) DEF_ICMP(o_slt) DEF_ICMP(o_sle)
DEF_IUN(o_sneg) DEF_IUN(o_not) DEF_IUN(o_bitrev)
static int h_o_bitcount_g(ip_sg *sg, const ip_op *op) { return int_generic(sg, op, o_bitcount, 1); }

typedef struct ihandlers { ip_handler *h8, *h16, *h32, *h64, *hg; } ihandlers;
#define IH(name) {h_##name##_8, h_##name##_16, h_##name##_32, h_##name##_64, h_##name##_g}

static ip_handler *pick_int(const ld_module *m, const ld_insn *in, ip_op *op, const ihandlers *hs,
                            uint32_t arity) {
  const ld_type *rt = in->type, *a = val_type(m, in, 0), *b = arity > 1 ? val_type(m, in, 1) : a;
  const ld_type *ac = comp_of(a), *bc = comp_of(b), *rc = comp_of(rt);
  if (!is_int(ac) || !is_int(bc) || !rc) return NULL;
  op->aux = rt->n_comp;
  bool same = ac->size == bc->size && a->n_comp == b->n_comp && a->n_comp == rt->n_comp &&
              std_width(ac->width) && ac->width == bc->width &&
              (rc->kind == LD_T_BOOL || (rc->width == ac->width));
  if (!same) return hs->hg;
  switch (ac->width) {
  case 8: return hs->h8;
  case 16: return hs->h16;
  case 32: return hs->h32;
  default: return hs->h64;
  }
}

/* -------------------------------------------------------- float operations */

#define DEF_FBIN_T(name, sfx, T, LD, ST, SZ, expr) \
  static int h_##name##_##sfx(ip_sg *sg, const ip_op *op) { \
    const uint32_t n = op->aux; size_t sa, sb; \
    const uint8_t *a0 = ip_in_base(sg, op, 0, &sa), *b0 = ip_in_base(sg, op, 1, &sb); \
    IP_FOR_LANES(sg->mask, l) { \
      const uint8_t *pa = a0 + l * sa, *pb = b0 + l * sb; uint8_t *pr = ip_res(sg, op, l); \
      for (uint32_t c = 0; c < n; c++) { \
        T a = LD(pa + c * SZ), b = LD(pb + c * SZ); ST(pr + c * SZ, (T)(expr)); \
      } \
    } \
    return IP_NEXT; \
  }
#define DEF_FBIN(name, exprf, exprd) \
  DEF_FBIN_T(name, f, float, ldf, stf, 4, exprf) DEF_FBIN_T(name, d, double, ldd, std_, 8, exprd) \
  DEF_FBIN_T(name, h, float, ldh, sth, 2, exprf)

static inline float fmod_signb_f(float a, float b) {
  float r = fmodf(a, b);
  if (r != 0 && (signbit(r) != signbit(b))) r += b;
  return r;
}
static inline double fmod_signb_d(double a, double b) {
  double r = fmod(a, b);
  if (r != 0 && (signbit(r) != signbit(b))) r += b;
  return r;
}

DEF_FBIN(fadd, a + b, a + b)
DEF_FBIN(fsub, a - b, a - b)
DEF_FBIN(fmul, a * b, a * b)
DEF_FBIN(fdiv, a / b, a / b)
DEF_FBIN(frem, fmodf(a, b), fmod(a, b))
DEF_FBIN(fmodop, fmod_signb_f(a, b), fmod_signb_d(a, b))
#define DEF_FUN_T(name, sfx, T, LD, ST, SZ, expr) \
  static int h_##name##_##sfx(ip_sg *sg, const ip_op *op) { \
    const uint32_t n = op->aux; size_t sa; \
    const uint8_t *a0 = ip_in_base(sg, op, 0, &sa); \
    IP_FOR_LANES(sg->mask, l) { \
      const uint8_t *pa = a0 + l * sa; uint8_t *pr = ip_res(sg, op, l); \
      for (uint32_t c = 0; c < n; c++) { T a = LD(pa + c * SZ); ST(pr + c * SZ, (T)(expr)); } \
    } \
    return IP_NEXT; \
  }
DEF_FUN_T(fneg, f, float, ldf, stf, 4, -a) DEF_FUN_T(fneg, d, double, ldd, std_, 8, -a)
/* half negation flips the sign bit only (exact, keeps NaN payloads) */
static inline uint16_t negh(uint16_t a) { return (uint16_t)(a ^ 0x8000u); }
static inline void sthb(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static inline uint16_t ldhb(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
DEF_FUN_T(fneg, h, uint16_t, ldhb, sthb, 2, negh(a))

/* float compares -> bool bytes */
#define DEF_FCMP_T(name, sfx, T, LD, SZ, expr) \
  static int h_##name##_##sfx(ip_sg *sg, const ip_op *op) { \
    const uint32_t n = op->aux; size_t sa, sb; \
    const uint8_t *a0 = ip_in_base(sg, op, 0, &sa), *b0 = ip_in_base(sg, op, 1, &sb); \
    IP_FOR_LANES(sg->mask, l) { \
      const uint8_t *pa = a0 + l * sa, *pb = b0 + l * sb; uint8_t *pr = ip_res(sg, op, l); \
      for (uint32_t c = 0; c < n; c++) { \
        T a = LD(pa + c * SZ), b = LD(pb + c * SZ); pr[c] = (uint8_t)(expr); \
      } \
    } \
    return IP_NEXT; \
  }
#define DEF_FCMP(name, expr) \
  DEF_FCMP_T(name, f, float, ldf, 4, expr) DEF_FCMP_T(name, d, double, ldd, 8, expr) \
  DEF_FCMP_T(name, h, float, ldh, 2, expr)

DEF_FCMP(foeq, a == b)
DEF_FCMP(fueq, !(a < b || a > b))
DEF_FCMP(fone, a < b || a > b)
DEF_FCMP(fune, a != b)
DEF_FCMP(folt, a < b)
DEF_FCMP(fult, !(a >= b))
DEF_FCMP(fogt, a > b)
DEF_FCMP(fugt, !(a <= b))
DEF_FCMP(fole, a <= b)
DEF_FCMP(fule, !(a > b))
DEF_FCMP(foge, a >= b)
DEF_FCMP(fuge, !(a < b))
DEF_FCMP(fordered, !isnan(a) && !isnan(b))
DEF_FCMP(funordered, isnan(a) || isnan(b))
/* unary predicates (b unused but read harmlessly from operand 0) */
#define DEF_FPRED_T(name, sfx, T, LD, SZ, expr) \
  static int h_##name##_##sfx(ip_sg *sg, const ip_op *op) { \
    const uint32_t n = op->aux; size_t sa; \
    const uint8_t *a0 = ip_in_base(sg, op, 0, &sa); \
    IP_FOR_LANES(sg->mask, l) { \
      const uint8_t *pa = a0 + l * sa; uint8_t *pr = ip_res(sg, op, l); \
      for (uint32_t c = 0; c < n; c++) { T a = LD(pa + c * SZ); pr[c] = (uint8_t)(expr); } \
    } \
    return IP_NEXT; \
  }
static inline uint16_t ldh_bits(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
#define DEF_FPRED(name, expr, hexpr) \
  DEF_FPRED_T(name, f, float, ldf, 4, expr) DEF_FPRED_T(name, d, double, ldd, 8, expr) \
  DEF_FPRED_T(name, h, uint16_t, ldh_bits, 2, hexpr)
DEF_FPRED(isnan, isnan(a) != 0, (a & 0x7c00u) == 0x7c00u && (a & 0x3ffu))
DEF_FPRED(isinf, isinf(a) != 0, (a & 0x7fffu) == 0x7c00u)
DEF_FPRED(isfinite, isfinite(a) != 0, (a & 0x7c00u) != 0x7c00u)
DEF_FPRED(isnormal, isnormal(a) != 0, (a & 0x7c00u) != 0x7c00u && (a & 0x7c00u) != 0)
DEF_FPRED(signbitset, signbit(a) != 0, (a >> 15) != 0)

typedef struct fhandlers { ip_handler *hf, *hd, *hh; } fhandlers;
#define FH(name) {h_##name##_f, h_##name##_d, h_##name##_h}

static ip_handler *pick_float(const ld_module *m, const ld_insn *in, ip_op *op, const fhandlers *hs,
                              uint32_t arity) {
  const ld_type *a = val_type(m, in, 0), *b = arity > 1 ? val_type(m, in, 1) : a;
  const ld_type *ac = comp_of(a), *bc = comp_of(b);
  if (!is_float(ac) || !is_float(bc) || ac->width != bc->width || !in->type) return NULL;
  op->aux = in->type->n_comp;
  switch (ac->width) {
  case 16: return hs->hh;
  case 32: return hs->hf;
  case 64: return hs->hd;
  default: return NULL;
  }
}

/* VectorTimesScalar: operand 1 is one scalar. */
#define DEF_VTS(sfx, T, LD, ST, SZ) \
  static int h_vts_##sfx(ip_sg *sg, const ip_op *op) { \
    const uint32_t n = op->aux; \
    IP_FOR_LANES(sg->mask, l) { \
      const uint8_t *pa = ip_in(sg, op, 0, l); T s = LD(ip_in(sg, op, 1, l)); \
      uint8_t *pr = ip_res(sg, op, l); \
      for (uint32_t c = 0; c < n; c++) ST(pr + c * SZ, (T)(LD(pa + c * SZ) * s)); \
    } \
    return IP_NEXT; \
  }
DEF_VTS(f, float, ldf, stf, 4) DEF_VTS(d, double, ldd, std_, 8) DEF_VTS(h, float, ldh, sth, 2)

/* Dot: a0*b0 + a1*b1 + ... in component order, each step rounded (half: to half). */
static int h_dot(ip_sg *sg, const ip_op *op) {
  const ld_type *c = op->in[0].type->comp;
  uint32_t n = op->in[0].type->n_comp;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l), *pb = ip_in(sg, op, 1, l);
    uint8_t *pr = ip_res(sg, op, l);
    if (c->width == 64) {
      double s = 0;
      for (uint32_t i = 0; i < n; i++) s = (i ? s + ldd(pa + i * 8) * ldd(pb + i * 8) : ldd(pa) * ldd(pb));
      std_(pr, s);
    } else if (c->width == 32) {
      float s = 0;
      for (uint32_t i = 0; i < n; i++) {
        float p = ldf(pa + i * 4) * ldf(pb + i * 4);
        s = i ? s + p : p;
      }
      stf(pr, s);
    } else {
      float s = 0;
      for (uint32_t i = 0; i < n; i++) {
        float p = ip_half_to_float(ip_float_to_half(ldh(pa + i * 2) * ldh(pb + i * 2)));
        s = i ? ip_half_to_float(ip_float_to_half(s + p)) : p;
      }
      sth(pr, s);
    }
  }
  return IP_NEXT;
}

/* ----------------------------------------------- extended integer results
 * Result is a struct {T lo_or_result; T hi_or_carry;}: member 1 at offsets[1]. */
static int h_extended(ip_sg *sg, const ip_op *op) {
  const ld_type *st = op->insn->type, *t = st->members[0];
  uint32_t n = t->n_comp, cs = t->comp->size, w = t->comp->width, off1 = st->offsets[1];
  SpvOp o = op->insn->op;
  uint64_t mk = wmask(w);
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l), *pb = ip_in(sg, op, 1, l);
    uint8_t *pr = ip_res(sg, op, l);
    memset(pr, 0, op->res_size);
    for (uint32_t c = 0; c < n; c++) {
      uint64_t a = ip_load_uint(pa + c * cs, cs) & mk, b = ip_load_uint(pb + c * cs, cs) & mk, r0, r1;
      switch (o) {
      case SpvOpIAddCarry: r0 = (a + b) & mk; r1 = w == 64 ? r0 < a : ((a + b) >> w) & 1u; break;
      case SpvOpISubBorrow: r0 = (a - b) & mk; r1 = a < b; break;
      case SpvOpUMulExtended: {
        unsigned __int128 p = (unsigned __int128)a * b;
        r0 = (uint64_t)p & mk; r1 = (uint64_t)(p >> w) & mk;
        break;
      }
      default: {   /* SMulExtended */
        __int128 p = (__int128)sext(a, w) * sext(b, w);
        r0 = (uint64_t)p & mk; r1 = (uint64_t)(p >> w) & mk;
        break;
      }
      }
      ip_store_uint(pr + c * cs, cs, r0);
      ip_store_uint(pr + off1 + c * cs, cs, r1);
    }
  }
  return IP_NEXT;
}

/* ------------------------------------------------------------ bit fields
 * Offset and Count are scalars of any integer width.  Bits beyond the
 * base's width that offset+count would name are dropped (spec: undefined). */
static int h_bitfield(ip_sg *sg, const ip_op *op) {
  const ld_type *t = op->insn->type;
  uint32_t n = t->n_comp, cs = t->comp->size, w = t->comp->width;
  SpvOp o = op->insn->op;
  uint32_t io = o == SpvOpBitFieldInsert ? 2 : 1;
  uint64_t mk = wmask(w);
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l);
    const uint8_t *pi = o == SpvOpBitFieldInsert ? ip_in(sg, op, 1, l) : NULL;
    uint64_t offset = ip_in_uint(sg, op, io, l), count = ip_in_uint(sg, op, io + 1, l);
    uint8_t *pr = ip_res(sg, op, l);
    for (uint32_t c = 0; c < n; c++) {
      uint64_t base = ip_load_uint(pa + c * cs, cs) & mk, r;
      uint64_t fm = count >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << count) - 1);
      if (offset >= w || count == 0) {
        r = o == SpvOpBitFieldInsert ? base : 0;
      } else if (o == SpvOpBitFieldInsert) {
        uint64_t ins = ip_load_uint(pi + c * cs, cs);
        r = (base & ~(fm << offset)) | ((ins & fm) << offset);
      } else {
        uint64_t f = (base >> offset) & fm;
        if (o == SpvOpBitFieldSExtract && count < 64) f = (uint64_t)sext(f, (uint32_t)count);
        r = f;
      }
      ip_store_uint(pr + c * cs, cs, r & mk);
    }
  }
  return IP_NEXT;
}

/* ---------------------------------------------------------------- logical */

static int h_logic(ip_sg *sg, const ip_op *op) {
  const uint32_t n = op->aux;
  SpvOp o = op->insn->op;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l), *pb = op->n_in > 1 ? ip_in(sg, op, 1, l) : pa;
    uint8_t *pr = ip_res(sg, op, l);
    for (uint32_t c = 0; c < n; c++) {
      bool a = pa[c] != 0, b = pb[c] != 0, r;
      switch (o) {
      case SpvOpLogicalEqual: r = a == b; break;
      case SpvOpLogicalNotEqual: r = a != b; break;
      case SpvOpLogicalOr: r = a || b; break;
      case SpvOpLogicalAnd: r = a && b; break;
      default: r = !a; break;
      }
      pr[c] = r;
    }
  }
  return IP_NEXT;
}

static int h_anyall(ip_sg *sg, const ip_op *op) {
  const uint32_t n = op->aux;
  bool any = op->insn->op == SpvOpAny;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l);
    bool r = !any;
    for (uint32_t c = 0; c < n; c++) {
      if (any && pa[c]) r = true;
      if (!any && !pa[c]) r = false;
    }
    *ip_res(sg, op, l) = r;
  }
  return IP_NEXT;
}

/* OpSelect: scalar condition picks whole objects; a vector condition picks
 * per component. */
static int h_select(ip_sg *sg, const ip_op *op) {
  const ld_type *ct = op->in[0].type;
  uint32_t sz = op->res_size;
  if (ct->kind == LD_T_BOOL) {
    IP_FOR_LANES(sg->mask, l)
      memmove(ip_res(sg, op, l), ip_in(sg, op, *ip_in(sg, op, 0, l) ? 1 : 2, l), sz);
  } else {
    uint32_t n = ct->n_comp, cs = op->insn->type->comp->size;
    IP_FOR_LANES(sg->mask, l) {
      const uint8_t *pc = ip_in(sg, op, 0, l), *p1 = ip_in(sg, op, 1, l), *p2 = ip_in(sg, op, 2, l);
      uint8_t *pr = ip_res(sg, op, l);
      memset(pr, 0, sz);
      for (uint32_t c = 0; c < n; c++) memcpy(pr + c * cs, (pc[c] ? p1 : p2) + c * cs, cs);
    }
  }
  return IP_NEXT;
}

/* ------------------------------------------------------------ conversions
 * aux: bits 0-1 source class, 2-3 destination class (0 unsigned, 1 signed,
 * 2 float), 4-6 rounding mode (7 = default), bit 7 saturate, bit 8
 * QuantizeToF16. */
enum { CV_U = 0, CV_S = 1, CV_F = 2 };

static long double load_float_ld(const uint8_t *p, uint32_t w) {
  switch (w) {
  case 16: return ip_half_to_float(ldh_bits(p));
  case 32: return ldf(p);
  default: return ldd(p);
  }
}

static void store_float_mode(uint8_t *p, uint32_t w, long double v, int mode) {
  switch (w) {
  case 16: { uint16_t h = ip_ld_to_half_mode(v, mode); memcpy(p, &h, 2); break; }
  case 32: stf(p, ip_ld_to_float_mode(v, mode)); break;
  default: std_(p, ip_ld_to_double_mode(v, mode)); break;
  }
}

/* Float -> integer of width w (signed or not): rounding mode (default RTZ),
 * always saturating; NaN -> 0.  (Saturation without the decoration is our
 * choice for C's undefined out-of-range conversion; docs/semantics.md.) */
uint64_t ip_float_to_int(long double v, uint32_t w, bool is_signed, int mode) {
  if (isnan(v)) return 0;
  long double r;
  switch (mode) {
  case SpvFPRoundingModeRTE: r = roundevenl(v); break;
  case SpvFPRoundingModeRTP: r = ceill(v); break;
  case SpvFPRoundingModeRTN: r = floorl(v); break;
  default: r = truncl(v); break;
  }
  if (is_signed) {
    long double lo = -ldexpl(1.0L, (int)w - 1), hi = ldexpl(1.0L, (int)w - 1);
    if (r < lo) return (uint64_t)sext((uint64_t)1 << (w - 1), w) & wmask(w);
    if (r >= hi) return wmask(w) >> 1;
    return (uint64_t)(int64_t)r & wmask(w);
  }
  if (r <= 0) return 0;
  if (r >= ldexpl(1.0L, (int)w)) return wmask(w);
  return (uint64_t)r;
}

static int h_convert(ip_sg *sg, const ip_op *op) {
  const ld_type *st = op->in[0].type->comp, *dt = op->insn->type->comp;
  uint32_t n = op->insn->type->n_comp, ss = st->size, ds = dt->size, sw = st->width, dw = dt->width;
  uint32_t sc = op->aux & 3, dc = (op->aux >> 2) & 3, mode = (op->aux >> 4) & 7;
  bool sat = (op->aux >> 7) & 1, quant = (op->aux >> 8) & 1;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l);
    uint8_t *pr = ip_res(sg, op, l);
    if (op->res_size > n * ds) memset(pr, 0, op->res_size);
    for (uint32_t c = 0; c < n; c++) {
      const uint8_t *p = pa + c * ss;
      uint8_t *q = pr + c * ds;
      if (sc == CV_F) {
        long double v = load_float_ld(p, sw);
        if (quant) {
          uint16_t h = ip_ld_to_half_mode(v, SpvFPRoundingModeRTE);
          if ((h & 0x7c00u) == 0 && (h & 0x3ffu)) h &= 0x8000u;   /* denormal half -> signed 0 */
          stf(q, ip_half_to_float(h));
        } else if (dc == CV_F) {
          store_float_mode(q, dw, v, mode == 7 ? SpvFPRoundingModeRTE : (int)mode);
        } else {
          ip_store_uint(q, ds, ip_float_to_int(v, dw, dc == CV_S, mode == 7 ? SpvFPRoundingModeRTZ : (int)mode));
        }
        continue;
      }
      uint64_t u = ip_load_uint(p, ss) & wmask(sw);
      bool neg = sc == CV_S && sext(u, sw) < 0;
      if (dc == CV_F) {
        long double v = sc == CV_S ? (long double)sext(u, sw) : (long double)u;
        store_float_mode(q, dw, v, mode == 7 ? SpvFPRoundingModeRTE : (int)mode);
        continue;
      }
      uint64_t r;
      if (!sat) {
        r = sc == CV_S ? (uint64_t)sext(u, sw) : u;
      } else if (dc == CV_U) {
        if (neg) r = 0;
        else r = u > wmask(dw) ? wmask(dw) : u;
      } else {   /* signed destination */
        int64_t hi = (int64_t)(wmask(dw) >> 1), lo = -hi - 1;
        if (sc == CV_S) {
          int64_t x = sext(u, sw);
          r = (uint64_t)(x < lo ? lo : x > hi ? hi : x);
        } else {
          r = u > (uint64_t)hi ? (uint64_t)hi : u;
        }
      }
      ip_store_uint(q, ds, r & wmask(dw));
    }
  }
  return IP_NEXT;
}

/* Fast conversions of the hottest shapes (no decorations). */
static int h_cvt_s32_f32(ip_sg *sg, const ip_op *op) {
  const uint32_t n = op->aux;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l);
    uint8_t *pr = ip_res(sg, op, l);
    for (uint32_t c = 0; c < n; c++) { int32_t v; memcpy(&v, pa + 4 * c, 4); stf(pr + 4 * c, (float)v); }
  }
  return IP_NEXT;
}
static int h_cvt_u32_f32(ip_sg *sg, const ip_op *op) {
  const uint32_t n = op->aux;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l);
    uint8_t *pr = ip_res(sg, op, l);
    for (uint32_t c = 0; c < n; c++) { uint32_t v; memcpy(&v, pa + 4 * c, 4); stf(pr + 4 * c, (float)v); }
  }
  return IP_NEXT;
}
static int h_cvt_u32_u64(ip_sg *sg, const ip_op *op) {   /* UConvert 32 -> 64 */
  const uint32_t n = op->aux;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l);
    uint8_t *pr = ip_res(sg, op, l);
    for (uint32_t c = 0; c < n; c++) { uint32_t v; memcpy(&v, pa + 4 * c, 4); uint64_t r = v; memcpy(pr + 8 * c, &r, 8); }
  }
  return IP_NEXT;
}
static int h_cvt_s32_s64(ip_sg *sg, const ip_op *op) {   /* SConvert 32 -> 64 */
  const uint32_t n = op->aux;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l);
    uint8_t *pr = ip_res(sg, op, l);
    for (uint32_t c = 0; c < n; c++) { int32_t v; memcpy(&v, pa + 4 * c, 4); int64_t r = v; memcpy(pr + 8 * c, &r, 8); }
  }
  return IP_NEXT;
}
static int h_cvt_64_32(ip_sg *sg, const ip_op *op) {     /* U/SConvert 64 -> 32 */
  const uint32_t n = op->aux;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *pa = ip_in(sg, op, 0, l);
    uint8_t *pr = ip_res(sg, op, l);
    for (uint32_t c = 0; c < n; c++) memcpy(pr + 4 * c, pa + 8 * c, 4);
  }
  return IP_NEXT;
}

static bool find_decoration(const ld_module *m, uint32_t id, SpvDecoration d, uint32_t *lit) {
  for (uint32_t i = 0; i < m->n_decorations; i++) {
    const ld_decoration *x = &m->decorations[i];
    if (x->target == id && x->member < 0 && x->decoration == d) {
      if (lit) *lit = x->n_literals ? x->literals[0] : 0;
      return true;
    }
  }
  return false;
}

static ip_handler *lookup_convert(const ld_module *m, const ld_insn *in, ip_op *op) {
  const ld_type *s = comp_of(val_type(m, in, 0)), *d = comp_of(in->type);
  if (!s || !d || s->kind == LD_T_POINTER || d->kind == LD_T_POINTER) return NULL;
  uint32_t sc, dc;
  switch (in->op) {
  case SpvOpConvertFToU: sc = CV_F; dc = CV_U; break;
  case SpvOpConvertFToS: sc = CV_F; dc = CV_S; break;
  case SpvOpConvertSToF: sc = CV_S; dc = CV_F; break;
  case SpvOpConvertUToF: sc = CV_U; dc = CV_F; break;
  case SpvOpUConvert: case SpvOpSatConvertUToS: sc = CV_U; dc = in->op == SpvOpUConvert ? CV_U : CV_S; break;
  case SpvOpSConvert: case SpvOpSatConvertSToU: sc = CV_S; dc = in->op == SpvOpSConvert ? CV_S : CV_U; break;
  default: sc = CV_F; dc = CV_F; break;   /* FConvert, QuantizeToF16 */
  }
  if ((sc == CV_F) != (s->kind == LD_T_FLOAT) || (dc == CV_F) != (d->kind == LD_T_FLOAT)) return NULL;
  uint32_t mode = 7, sat = 0;
  bool has_mode = find_decoration(m, in->result, SpvDecorationFPRoundingMode, &mode);
  if (!has_mode || mode > 3) mode = 7;
  if (find_decoration(m, in->result, SpvDecorationSaturatedConversion, NULL) ||
      in->op == SpvOpSatConvertSToU || in->op == SpvOpSatConvertUToS)
    sat = 1;
  op->aux = in->type->n_comp;
  if (mode == 7 && !sat) {
    if (in->op == SpvOpConvertSToF && s->width == 32 && d->width == 32) return h_cvt_s32_f32;
    if (in->op == SpvOpConvertUToF && s->width == 32 && d->width == 32) return h_cvt_u32_f32;
    if (in->op == SpvOpUConvert && s->width == 32 && d->width == 64) return h_cvt_u32_u64;
    if (in->op == SpvOpSConvert && s->width == 32 && d->width == 64) return h_cvt_s32_s64;
    if ((in->op == SpvOpSConvert || in->op == SpvOpUConvert) && s->width == 64 && d->width == 32)
      return h_cvt_64_32;
  }
  op->aux = sc | dc << 2 | mode << 4 | sat << 7 | (in->op == SpvOpQuantizeToF16 ? 1u << 8 : 0);
  return h_convert;
}

/* ------------------------------------------------------------- composites */

/* Byte offset of the element a literal index path names; false if invalid. */
static bool path_offset(const ld_type *t, const uint32_t *idx, uint32_t n, uint32_t *off,
                        const ld_type **out) {
  uint32_t o = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!t) return false;
    switch (t->kind) {
    case LD_T_VECTOR:
      if (idx[i] >= t->count) return false;
      o += idx[i] * t->elem->size; t = t->elem; break;
    case LD_T_ARRAY:
      if (idx[i] >= t->count) return false;
      o += idx[i] * t->elem->size; t = t->elem; break;
    case LD_T_STRUCT:
      if (idx[i] >= t->n_members) return false;
      o += t->offsets[idx[i]]; t = t->members[idx[i]]; break;
    default: return false;
    }
  }
  *off = o;
  *out = t;
  return true;
}

/* The data-movement handlers use memmove: a module loaded without
 * validation may name an instruction's own result as its operand, and the
 * slots then overlap (the values are unspecified, the copy must still be
 * defined). */
static int h_extract(ip_sg *sg, const ip_op *op) {
  uint32_t off = op->aux, sz = op->res_size;
  IP_FOR_LANES(sg->mask, l) memmove(ip_res(sg, op, l), ip_in(sg, op, 0, l) + off, sz);
  return IP_NEXT;
}
static int h_extract4(ip_sg *sg, const ip_op *op) {
  uint32_t off = op->aux;
  size_t s;
  const uint8_t *b = ip_in_base(sg, op, 0, &s);
  IP_FOR_LANES(sg->mask, l) memmove(ip_res(sg, op, l), b + l * s + off, 4);
  return IP_NEXT;
}
static int h_extract8(ip_sg *sg, const ip_op *op) {
  uint32_t off = op->aux;
  size_t s;
  const uint8_t *b = ip_in_base(sg, op, 0, &s);
  IP_FOR_LANES(sg->mask, l) memmove(ip_res(sg, op, l), b + l * s + off, 8);
  return IP_NEXT;
}

static int h_insert(ip_sg *sg, const ip_op *op) {   /* in[0] object, in[1] composite */
  uint32_t off = op->aux, osz = op->in[0].size, sz = op->res_size;
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = ip_res(sg, op, l);
    memmove(r, ip_in(sg, op, 1, l), sz);
    memmove(r + off, ip_in(sg, op, 0, l), osz);
  }
  return IP_NEXT;
}

static int h_construct(ip_sg *sg, const ip_op *op) {
  const ld_type *t = op->insn->type;
  IP_FOR_LANES(sg->mask, l) memset(ip_res(sg, op, l), 0, op->res_size);
  uint32_t off = 0;
  for (uint32_t i = 0; i < op->n_in; i++) {
    const ld_type *ct = op->in[i].type;
    uint32_t len = op->in[i].size, at;
    if (t->kind == LD_T_VECTOR) {
      at = off;
      len = ct->n_comp * ct->comp->size;
      off += len;
    } else if (t->kind == LD_T_STRUCT) {
      at = i < t->n_members ? t->offsets[i] : 0;
    } else {
      at = i * t->elem->size;
    }
    if (at + len > op->res_size) len = at < op->res_size ? op->res_size - at : 0;
    IP_FOR_LANES(sg->mask, l) memcpy(ip_res(sg, op, l) + at, ip_in(sg, op, i, l), len);
  }
  return IP_NEXT;
}

/* Dynamic index out of range (undefined): extract yields 0, insert leaves the
 * vector unchanged. */
static int h_vextract_dyn(ip_sg *sg, const ip_op *op) {
  const ld_type *vt = op->in[0].type;
  uint32_t cs = vt->comp->size;
  IP_FOR_LANES(sg->mask, l) {
    uint64_t i = ip_in_uint(sg, op, 1, l);
    uint8_t *r = ip_res(sg, op, l);
    if (i < vt->count) memcpy(r, ip_in(sg, op, 0, l) + i * cs, cs);
    else memset(r, 0, cs);
  }
  return IP_NEXT;
}
static int h_vinsert_dyn(ip_sg *sg, const ip_op *op) {
  const ld_type *vt = op->insn->type;
  uint32_t cs = vt->comp->size;
  IP_FOR_LANES(sg->mask, l) {
    uint64_t i = ip_in_uint(sg, op, 2, l);
    uint8_t *r = ip_res(sg, op, l);
    memcpy(r, ip_in(sg, op, 0, l), op->res_size);
    if (i < vt->count) memcpy(r + i * cs, ip_in(sg, op, 1, l), cs);
  }
  return IP_NEXT;
}

static bool is_vec(const ld_type *t) { return t && t->kind == LD_T_VECTOR && t->comp && t->comp->size; }

static int h_shuffle(ip_sg *sg, const ip_op *op) {
  const ld_insn *in = op->insn;
  const ld_type *t1 = op->in[0].type;
  uint32_t cs = in->type->comp->size, n1 = t1->count, n2 = op->in[1].type->count;
  uint32_t n = in->type->count;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *a = ip_in(sg, op, 0, l), *b = ip_in(sg, op, 1, l);
    uint8_t *r = ip_res(sg, op, l);
    memset(r, 0, op->res_size);
    for (uint32_t c = 0; c < n && 2 + c < in->n_ops; c++) {
      uint32_t s = in->ops[2 + c];
      if (s < n1) memcpy(r + c * cs, a + s * cs, cs);
      else if (s - n1 < n2) memcpy(r + c * cs, b + (s - n1) * cs, cs);
    }
  }
  return IP_NEXT;
}

static int h_copy(ip_sg *sg, const ip_op *op) {
  uint32_t sz = op->res_size < op->in[0].size ? op->res_size : op->in[0].size;
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = ip_res(sg, op, l);
    memcpy(r, ip_in(sg, op, 0, l), sz);
    if (sz < op->res_size) memset(r + sz, 0, op->res_size - sz);
  }
  return IP_NEXT;
}

/* ----------------------------------------------------------------- lookup */

#define INT_CASE(OP, name, ar) case OP: { static const ihandlers h = IH(name); return pick_int(m, in, op, &h, ar); }
#define FLT_CASE(OP, name, ar) case OP: { static const fhandlers h = FH(name); return pick_float(m, in, op, &h, ar); }

ip_handler *ip_lookup_arith(const ld_module *m, const ld_insn *in, ip_op *op) {
  switch (in->op) {
  INT_CASE(SpvOpIAdd, o_iadd, 2)
  INT_CASE(SpvOpISub, o_isub, 2)
  INT_CASE(SpvOpIMul, o_imul, 2)
  INT_CASE(SpvOpUDiv, o_udiv, 2)
  INT_CASE(SpvOpSDiv, o_sdiv, 2)
  INT_CASE(SpvOpUMod, o_umod, 2)
  INT_CASE(SpvOpSRem, o_srem, 2)
  INT_CASE(SpvOpSMod, o_smod, 2)
  INT_CASE(SpvOpShiftLeftLogical, o_shl, 2)
  INT_CASE(SpvOpShiftRightLogical, o_shr, 2)
  INT_CASE(SpvOpShiftRightArithmetic, o_sar, 2)
  INT_CASE(SpvOpBitwiseOr, o_or, 2)
  INT_CASE(SpvOpBitwiseXor, o_xor, 2)
  INT_CASE(SpvOpBitwiseAnd, o_and, 2)
  INT_CASE(SpvOpIEqual, o_ieq, 2)
  INT_CASE(SpvOpINotEqual, o_ine, 2)
  INT_CASE(SpvOpUGreaterThan, o_ugt, 2)
  INT_CASE(SpvOpUGreaterThanEqual, o_uge, 2)
  INT_CASE(SpvOpULessThan, o_ult, 2)
  INT_CASE(SpvOpULessThanEqual, o_ule, 2)
  INT_CASE(SpvOpSGreaterThan, o_sgt, 2)
  INT_CASE(SpvOpSGreaterThanEqual, o_sge, 2)
  INT_CASE(SpvOpSLessThan, o_slt, 2)
  INT_CASE(SpvOpSLessThanEqual, o_sle, 2)
  INT_CASE(SpvOpSNegate, o_sneg, 1)
  INT_CASE(SpvOpNot, o_not, 1)
  INT_CASE(SpvOpBitReverse, o_bitrev, 1)
  case SpvOpBitCount:
    if (!is_int(comp_of(val_type(m, in, 0))) || !is_int(comp_of(in->type))) return NULL;
    return h_o_bitcount_g;
  FLT_CASE(SpvOpFAdd, fadd, 2)
  FLT_CASE(SpvOpFSub, fsub, 2)
  FLT_CASE(SpvOpFMul, fmul, 2)
  FLT_CASE(SpvOpFDiv, fdiv, 2)
  FLT_CASE(SpvOpFRem, frem, 2)
  FLT_CASE(SpvOpFMod, fmodop, 2)
  FLT_CASE(SpvOpFNegate, fneg, 1)
  FLT_CASE(SpvOpFOrdEqual, foeq, 2)
  FLT_CASE(SpvOpFUnordEqual, fueq, 2)
  FLT_CASE(SpvOpFOrdNotEqual, fone, 2)
  FLT_CASE(SpvOpFUnordNotEqual, fune, 2)
  FLT_CASE(SpvOpFOrdLessThan, folt, 2)
  FLT_CASE(SpvOpFUnordLessThan, fult, 2)
  FLT_CASE(SpvOpFOrdGreaterThan, fogt, 2)
  FLT_CASE(SpvOpFUnordGreaterThan, fugt, 2)
  FLT_CASE(SpvOpFOrdLessThanEqual, fole, 2)
  FLT_CASE(SpvOpFUnordLessThanEqual, fule, 2)
  FLT_CASE(SpvOpFOrdGreaterThanEqual, foge, 2)
  FLT_CASE(SpvOpFUnordGreaterThanEqual, fuge, 2)
  FLT_CASE(SpvOpLessOrGreater, fone, 2)
  FLT_CASE(SpvOpOrdered, fordered, 2)
  FLT_CASE(SpvOpUnordered, funordered, 2)
  FLT_CASE(SpvOpIsNan, isnan, 1)
  FLT_CASE(SpvOpIsInf, isinf, 1)
  FLT_CASE(SpvOpIsFinite, isfinite, 1)
  FLT_CASE(SpvOpIsNormal, isnormal, 1)
  FLT_CASE(SpvOpSignBitSet, signbitset, 1)
  case SpvOpVectorTimesScalar: {
    static const fhandlers h = FH(vts);
    return pick_float(m, in, op, &h, 1);
  }
  case SpvOpDot:
    if (!is_float(comp_of(val_type(m, in, 0)))) return NULL;
    return h_dot;
  case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended:
    if (!in->type || in->type->kind != LD_T_STRUCT || in->type->n_members != 2 ||
        !is_int(comp_of(in->type->members[0])))
      return NULL;
    return h_extended;
  case SpvOpBitFieldInsert: case SpvOpBitFieldSExtract: case SpvOpBitFieldUExtract:
    if (!is_int(comp_of(in->type))) return NULL;
    return h_bitfield;
  case SpvOpLogicalEqual: case SpvOpLogicalNotEqual: case SpvOpLogicalOr:
  case SpvOpLogicalAnd: case SpvOpLogicalNot:
    op->aux = in->type ? in->type->n_comp : 1;
    return h_logic;
  case SpvOpAny: case SpvOpAll: {
    const ld_type *t = val_type(m, in, 0);
    op->aux = t && t->n_comp ? t->n_comp : 1;
    return h_anyall;
  }
  case SpvOpSelect:
    if (!in->type) return NULL;
    { const ld_type *ct = val_type(m, in, 0);
      if (!ct || (ct->kind == LD_T_VECTOR && (!in->type->comp || in->type->kind != LD_T_VECTOR))) return NULL; }
    return h_select;
  case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpQuantizeToF16:
  case SpvOpSatConvertSToU: case SpvOpSatConvertUToS:
    return lookup_convert(m, in, op);
  case SpvOpBitcast: {
    const ld_type *s = val_type(m, in, 0);
    if (!s || !in->type || s->kind == LD_T_POINTER || in->type->kind == LD_T_POINTER) return NULL;
    return h_copy;
  }
  case SpvOpCopyObject: case SpvOpCopyLogical:
    return h_copy;
  case SpvOpCompositeExtract: {
    uint32_t off;
    const ld_type *t;
    if (in->n_ops < 1 || !path_offset(val_type(m, in, 0), in->ops + 1, in->n_ops - 1, &off, &t))
      return NULL;
    op->aux = off;
    if (in->type && in->type->size == 4) return h_extract4;
    if (in->type && in->type->size == 8) return h_extract8;
    return h_extract;
  }
  case SpvOpCompositeInsert: {
    uint32_t off;
    const ld_type *t;
    if (in->n_ops < 2 || !path_offset(in->type, in->ops + 2, in->n_ops - 2, &off, &t)) return NULL;
    op->aux = off;
    return h_insert;
  }
  case SpvOpCompositeConstruct:
    if (!in->type || (in->type->kind != LD_T_VECTOR && in->type->kind != LD_T_STRUCT &&
                      in->type->kind != LD_T_ARRAY))
      return NULL;
    return h_construct;
  /* the vector operands must be vectors (a module loaded without
   * validation may name any value there: no handler, the instruction is
   * reported as unsupported) */
  case SpvOpVectorExtractDynamic:
    return op->n_in >= 2 && is_vec(op->in[0].type) ? h_vextract_dyn : NULL;
  case SpvOpVectorInsertDynamic:
    return op->n_in >= 3 && is_vec(in->type) && is_vec(op->in[0].type) ? h_vinsert_dyn : NULL;
  case SpvOpVectorShuffle:
    return op->n_in >= 2 && is_vec(in->type) && is_vec(op->in[0].type) && is_vec(op->in[1].type) ? h_shuffle : NULL;
  default:
    return NULL;
  }
}
