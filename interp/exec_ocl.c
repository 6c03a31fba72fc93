/* exec_ocl.c - the OpenCL.std extended instruction set.
 *
 * ip_ocl_eval_lane() is the one description of every instruction that touches
 * no memory (shared with jit/): it works component by component; an operand
 * of scalar type where the result is a vector (mix's a, step's edge, ldexp's
 * k, fclamp's bounds ...) is broadcast.  Float functions use libm's float
 * variants for float (sinf ...) and double ones for double; functions libm
 * lacks (acospi, sinpi, rsqrt, rootn ...) are computed in double and rounded
 * once to float.  half is computed in float and rounded to half (RTE).
 *
 * The handler family here adds what touches memory: the pointer out-arguments
 * of frexp/modf/sincos/remquo/lgamma_r/fract, vloadn/vstoren, the half
 * loads and stores, printf (ocl_printf.c) and prefetch (a no-op).
 */
#include <float.h>
#include <math.h>
#include <spirv/unified1/OpenCL.std.h>
#include "ip_internal.h"
#include "ip_arith.h"

/* ---------------------------------------------------------- operand access */

static inline uint32_t ci(const ld_type *t, uint32_t c) { return t->n_comp > 1 ? c : 0; }

static double argf(const void *p, const ld_type *t, uint32_t c) {
  const uint8_t *b = (const uint8_t *)p;
  const ld_type *ct = t->comp;
  uint32_t i = ci(t, c);
  switch (ct->width) {
  case 16: { uint16_t h; memcpy(&h, b + 2 * i, 2); return ip_half_to_float(h); }
  case 32: { float f; memcpy(&f, b + 4 * i, 4); return f; }
  default: { double d; memcpy(&d, b + 8 * i, 8); return d; }
  }
}
static uint64_t argu(const void *p, const ld_type *t, uint32_t c) {
  const ld_type *ct = t->comp;
  return ip_load_uint((const uint8_t *)p + ct->size * ci(t, c), ct->size);
}
static inline int64_t sx(uint64_t x, uint32_t w) {
  return w >= 64 ? (int64_t)x : (int64_t)(x << (64 - w)) >> (64 - w);
}
static inline uint64_t wm(uint32_t w) { return w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1); }

static void putf(void *out, const ld_type *t, uint32_t c, double v) {
  uint8_t *b = (uint8_t *)out;
  switch (t->comp->width) {
  case 16: { uint16_t h = ip_double_to_half(v); memcpy(b + 2 * c, &h, 2); break; }
  case 32: { float f = (float)v; memcpy(b + 4 * c, &f, 4); break; }
  default: memcpy(b + 8 * c, &v, 8); break;
  }
}
static void putu(void *out, const ld_type *t, uint32_t c, uint64_t v) {
  uint32_t s = t->comp->size;
  uint8_t *b = (uint8_t *)out + s * c;
  switch (s) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(b, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(b, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(b, &x, 4); break; }
  default: memcpy(b, &v, 8); break;
  }
}

/* ------------------------------------------------------------ float math */

static double sinpi_d(double x) {
  if (!isfinite(x)) return NAN;
  double r = fmod(x, 2.0);               /* exact */
  if (r == floor(r)) return copysign(0.0, x);
  if (fabs(r) == 0.5 || fabs(r) == 1.5) return (r > 0) == (fabs(r) == 0.5) ? 1.0 : -1.0;
  return sin(M_PI * r);
}
static double cospi_d(double x) {
  if (!isfinite(x)) return NAN;
  double r = fabs(fmod(x, 2.0));
  if (r == 0.5 || r == 1.5) return 0.0;
  if (r == 0) return 1.0;
  if (r == 1) return -1.0;
  return cos(M_PI * r);
}
static double tanpi_d(double x) {
  if (!isfinite(x)) return NAN;
  double r = fmod(x, 1.0);
  if (r == 0) return copysign(0.0, x);
  if (fabs(r) == 0.5) return copysign(INFINITY, r);
  return sinpi_d(x) / cospi_d(x);
}
static double rootn_d(double x, int64_t n) {
  if (n == 0) return NAN;
  if (x < 0) return (n & 1) ? -pow(-x, 1.0 / (double)n) : NAN;
  return pow(x, 1.0 / (double)n);
}
static double powr_d(double x, double y) {
  if (x < 0 || isnan(x) || isnan(y)) return NAN;
  if ((x == 0 && y == 0) || (isinf(x) && y == 0) || (x == 1 && isinf(y))) return NAN;
  return pow(x, y);
}
static float powr_f(float x, float y) {
  if (x < 0 || isnan(x) || isnan(y)) return NAN;
  if ((x == 0 && y == 0) || (isinf(x) && y == 0) || (x == 1 && isinf(y))) return NAN;
  return powf(x, y);
}

/* fmin and fmax, spelled out so that every build and the JIT give the same
 * bits (libm's, and GCC's expansion of it, differ on the sign of a zero
 * result between builds): a NaN operand gives the other operand (both NaN:
 * y); between equal operands (zeros of either sign) fmin picks the one with
 * the sign bit set, fmax the other (docs/semantics.md).  Also the float
 * min, max, clamp, smoothstep, maxmag and minmag below. */
static float fmin_f(float x, float y) {
  return isnan(x) ? y : isnan(y) ? x : x < y ? x : y < x ? y : signbit(x) ? x : y;
}
static float fmax_f(float x, float y) {
  return isnan(x) ? y : isnan(y) ? x : x > y ? x : y > x ? y : signbit(x) ? y : x;
}
static double fmin_d(double x, double y) {
  return isnan(x) ? y : isnan(y) ? x : x < y ? x : y < x ? y : signbit(x) ? x : y;
}
static double fmax_d(double x, double y) {
  return isnan(x) ? y : isnan(y) ? x : x > y ? x : y > x ? y : signbit(x) ? y : x;
}

/* Magnitude picks: the larger (smaller) |.|, else fmax (fmin). */
#define MAGS(T, SFX) \
  static T maxmag_##SFX(T x, T y) { \
    T ax = fabs##SFX(x), ay = fabs##SFX(y); \
    return ax > ay ? x : ay > ax ? y : fmax_##SFX(x, y); } \
  static T minmag_##SFX(T x, T y) { \
    T ax = fabs##SFX(x), ay = fabs##SFX(y); \
    return ax < ay ? x : ay < ax ? y : fmin_##SFX(x, y); }
#define fabsd fabs
MAGS(float, f)
MAGS(double, d)

/* Common functions: every step rounded in the type T. */
#define COMMON(T, SFX, C180) \
  static T common_##SFX(uint32_t op, T x, T y, T z) { \
    switch (op) { \
    case OpenCLstd_FClamp: return fmin_##SFX(fmax_##SFX(x, y), z); \
    case OpenCLstd_Degrees: return x * (T)(180.0 / M_PI); \
    case OpenCLstd_Radians: return x * (T)(M_PI / 180.0); \
    case OpenCLstd_FMax_common: return fmax_##SFX(x, y); \
    case OpenCLstd_FMin_common: return fmin_##SFX(x, y); \
    case OpenCLstd_Mix: return x + (y - x) * z; \
    case OpenCLstd_Step: return y < x ? (T)0 : (T)1; \
    case OpenCLstd_Smoothstep: { \
      T t = (z - x) / (y - x); \
      t = fmin_##SFX(fmax_##SFX(t, (T)0), (T)1); \
      return t * t * ((T)3 - (T)2 * t); } \
    case OpenCLstd_Sign: \
      if (isnan(x)) return 0; \
      return x > 0 ? (T)1 : x < 0 ? (T)-1 : x; \
    case OpenCLstd_Mad: return x * y + z; \
    default: return (T)C180; \
    } }
COMMON(float, f, 0)
COMMON(double, d, 0)

/* One component of a float-valued function of float operands. */
static double fmath(uint32_t op, uint32_t w, double x, double y, double z) {
  bool d = w == 64;
  float xf = (float)x, yf = (float)y, zf = (float)z;
#define U(ff, fd) (d ? fd(x) : (double)ff(xf))
#define B(ff, fd) (d ? fd(x, y) : (double)ff(xf, yf))
#define DD(expr) (d ? (expr) : (double)(float)(expr))   /* computed in double */
  switch (op) {
  case OpenCLstd_Acos: return U(acosf, acos);
  case OpenCLstd_Acosh: return U(acoshf, acosh);
  case OpenCLstd_Acospi: return DD(acos(x) / M_PI);
  case OpenCLstd_Asin: return U(asinf, asin);
  case OpenCLstd_Asinh: return U(asinhf, asinh);
  case OpenCLstd_Asinpi: return DD(asin(x) / M_PI);
  case OpenCLstd_Atan: return U(atanf, atan);
  case OpenCLstd_Atan2: return B(atan2f, atan2);
  case OpenCLstd_Atanh: return U(atanhf, atanh);
  case OpenCLstd_Atanpi: return DD(atan(x) / M_PI);
  case OpenCLstd_Atan2pi: return DD(atan2(x, y) / M_PI);
  case OpenCLstd_Cbrt: return U(cbrtf, cbrt);
  case OpenCLstd_Ceil: return U(ceilf, ceil);
  case OpenCLstd_Copysign: return B(copysignf, copysign);
  case OpenCLstd_Cos: case OpenCLstd_Half_cos: case OpenCLstd_Native_cos: return U(cosf, cos);
  case OpenCLstd_Cosh: return U(coshf, cosh);
  case OpenCLstd_Cospi: return DD(cospi_d(x));
  case OpenCLstd_Erfc: return U(erfcf, erfc);
  case OpenCLstd_Erf: return U(erff, erf);
  case OpenCLstd_Exp: case OpenCLstd_Half_exp: case OpenCLstd_Native_exp: return U(expf, exp);
  case OpenCLstd_Exp2: case OpenCLstd_Half_exp2: case OpenCLstd_Native_exp2: return U(exp2f, exp2);
  case OpenCLstd_Exp10: case OpenCLstd_Half_exp10: case OpenCLstd_Native_exp10: return U(exp10f, exp10);
  case OpenCLstd_Expm1: return U(expm1f, expm1);
  case OpenCLstd_Fabs: return U(fabsf, fabs);
  case OpenCLstd_Fdim: return B(fdimf, fdim);
  case OpenCLstd_Floor: return U(floorf, floor);
  case OpenCLstd_Fma: return d ? fma(x, y, z) : (w == 16 ? (double)(float)fma(x, y, z) : (double)fmaf(xf, yf, zf));
  case OpenCLstd_Fmax: return B(fmax_f, fmax_d);
  case OpenCLstd_Fmin: return B(fmin_f, fmin_d);
  case OpenCLstd_Fmod: return B(fmodf, fmod);
  case OpenCLstd_Hypot: return B(hypotf, hypot);
  case OpenCLstd_Lgamma: return U(lgammaf, lgamma);
  case OpenCLstd_Log: case OpenCLstd_Half_log: case OpenCLstd_Native_log: return U(logf, log);
  case OpenCLstd_Log2: case OpenCLstd_Half_log2: case OpenCLstd_Native_log2: return U(log2f, log2);
  case OpenCLstd_Log10: case OpenCLstd_Half_log10: case OpenCLstd_Native_log10: return U(log10f, log10);
  case OpenCLstd_Log1p: return U(log1pf, log1p);
  case OpenCLstd_Logb: return U(logbf, logb);
  case OpenCLstd_Maxmag: return d ? maxmag_d(x, y) : maxmag_f(xf, yf);
  case OpenCLstd_Minmag: return d ? minmag_d(x, y) : minmag_f(xf, yf);
  case OpenCLstd_Pow: return B(powf, pow);
  case OpenCLstd_Powr: case OpenCLstd_Half_powr: case OpenCLstd_Native_powr: return d ? powr_d(x, y) : (double)powr_f(xf, yf);
  case OpenCLstd_Remainder: return B(remainderf, remainder);
  case OpenCLstd_Rint: return U(rintf, rint);
  case OpenCLstd_Round: return U(roundf, round);
  case OpenCLstd_Rsqrt: case OpenCLstd_Half_rsqrt: case OpenCLstd_Native_rsqrt: return DD(1.0 / sqrt(x));
  case OpenCLstd_Sin: case OpenCLstd_Half_sin: case OpenCLstd_Native_sin: return U(sinf, sin);
  case OpenCLstd_Sinh: return U(sinhf, sinh);
  case OpenCLstd_Sinpi: return DD(sinpi_d(x));
  case OpenCLstd_Sqrt: case OpenCLstd_Half_sqrt: case OpenCLstd_Native_sqrt: return U(sqrtf, sqrt);
  case OpenCLstd_Tan: case OpenCLstd_Half_tan: case OpenCLstd_Native_tan: return U(tanf, tan);
  case OpenCLstd_Tanh: return U(tanhf, tanh);
  case OpenCLstd_Tanpi: return DD(tanpi_d(x));
  case OpenCLstd_Tgamma: return U(tgammaf, tgamma);
  case OpenCLstd_Trunc: return U(truncf, trunc);
  case OpenCLstd_Half_divide: case OpenCLstd_Native_divide: return d ? x / y : (double)(xf / yf);
  case OpenCLstd_Half_recip: case OpenCLstd_Native_recip: return d ? 1.0 / x : (double)(1.0f / xf);
  case OpenCLstd_FClamp: case OpenCLstd_Degrees: case OpenCLstd_Radians: case OpenCLstd_FMax_common:
  case OpenCLstd_FMin_common: case OpenCLstd_Mix: case OpenCLstd_Step: case OpenCLstd_Smoothstep:
  case OpenCLstd_Sign: case OpenCLstd_Mad:
    return d ? common_d(op, x, y, z) : (double)common_f(op, xf, yf, zf);
  default: return NAN;
  }
#undef U
#undef B
#undef DD
}

static bool is_fmath(uint32_t op) {
  if (op <= OpenCLstd_Native_tan)
    return op != OpenCLstd_Fract && op != OpenCLstd_Frexp && op != OpenCLstd_Ilogb &&
           op != OpenCLstd_Ldexp && op != OpenCLstd_Lgamma_r && op != OpenCLstd_Modf &&
           op != OpenCLstd_Nan && op != OpenCLstd_Nextafter && op != OpenCLstd_Pown &&
           op != OpenCLstd_Remquo && op != OpenCLstd_Rootn && op != OpenCLstd_Sincos;
  return op >= OpenCLstd_FClamp && op <= OpenCLstd_Sign;
}

/* nextafter on the bits (also right for half, whose neighbours float cannot give) */
static uint64_t nextafter_bits(uint64_t x, uint64_t y, uint32_t w) {
  uint64_t sign = (uint64_t)1 << (w - 1), mag = sign - 1;
  double xv, yv;
  if (w == 16) { xv = ip_half_to_double((uint16_t)x); yv = ip_half_to_double((uint16_t)y); }
  else if (w == 32) { float a, b; uint32_t u = (uint32_t)x, v = (uint32_t)y; memcpy(&a, &u, 4); memcpy(&b, &v, 4); xv = a; yv = b; }
  else { memcpy(&xv, &x, 8); memcpy(&yv, &y, 8); }
  if (isnan(xv)) return x;
  if (isnan(yv)) return y;
  if (xv == yv) return y;
  if ((x & mag) == 0) return (yv > 0 ? 0 : sign) | 1;   /* smallest subnormal toward y */
  bool up = (yv > xv) == !(x & sign);                    /* magnitude grows */
  return up ? x + 1 : x - 1;
}

/* ----------------------------------------------------------- integer math */

static uint64_t imath(uint32_t op, uint32_t w, uint64_t a, uint64_t b, uint64_t c) {
  int64_t x = sx(a, w), y = sx(b, w), z = sx(c, w);
  uint64_t m = wm(w);
  __int128 smin = -((__int128)1 << (w - 1)), smax = ((__int128)1 << (w - 1)) - 1;
  unsigned __int128 umax = m;
  a &= m; b &= m; c &= m;
#define SCL(v) ((uint64_t)(int64_t)((v) < smin ? smin : (v) > smax ? smax : (v)))
#define UCL(v) ((uint64_t)((v) > umax ? umax : (v)))
  switch (op) {
  case OpenCLstd_SAbs: return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
  case OpenCLstd_SAbs_diff: return x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
  case OpenCLstd_UAbs: return a;
  case OpenCLstd_UAbs_diff: return a > b ? a - b : b - a;
  case OpenCLstd_SAdd_sat: return SCL((__int128)x + y);
  case OpenCLstd_UAdd_sat: return UCL((unsigned __int128)a + b);
  case OpenCLstd_SSub_sat: return SCL((__int128)x - y);
  case OpenCLstd_USub_sat: return a > b ? a - b : 0;
  case OpenCLstd_SHadd: return (uint64_t)(int64_t)(((__int128)x + y) >> 1);
  case OpenCLstd_UHadd: return (uint64_t)(((unsigned __int128)a + b) >> 1);
  case OpenCLstd_SRhadd: return (uint64_t)(int64_t)(((__int128)x + y + 1) >> 1);
  case OpenCLstd_URhadd: return (uint64_t)(((unsigned __int128)a + b + 1) >> 1);
  case OpenCLstd_SClamp: return (uint64_t)(x < y ? y : x > z ? z : x);
  case OpenCLstd_UClamp: return a < b ? b : a > c ? c : a;
  case OpenCLstd_Clz: return a ? (uint64_t)(__builtin_clzll(a) - (64 - (int)w)) : w;
  case OpenCLstd_Ctz: return a ? (uint64_t)__builtin_ctzll(a) : w;
  case OpenCLstd_Popcount: return (uint64_t)__builtin_popcountll(a);
  case OpenCLstd_SMul_hi: return (uint64_t)(int64_t)(((__int128)x * y) >> w);
  case OpenCLstd_UMul_hi: return (uint64_t)(((unsigned __int128)a * b) >> w);
  case OpenCLstd_SMad_hi: return (uint64_t)(int64_t)(((__int128)x * y) >> w) + c;
  case OpenCLstd_UMad_hi: return (uint64_t)(((unsigned __int128)a * b) >> w) + c;
  case OpenCLstd_SMad_sat: return SCL((__int128)x * y + z);
  case OpenCLstd_UMad_sat: return UCL((unsigned __int128)a * b + c);
  case OpenCLstd_SMax: return (uint64_t)(x > y ? x : y);
  case OpenCLstd_UMax: return a > b ? a : b;
  case OpenCLstd_SMin: return (uint64_t)(x < y ? x : y);
  case OpenCLstd_UMin: return a < b ? a : b;
  case OpenCLstd_Rotate: {
    uint32_t r = (uint32_t)(b % w);
    return r ? (a << r) | (a >> (w - r)) : a;
  }
  case OpenCLstd_SMul24: return (uint64_t)(sx(a & 0xffffff, 24) * sx(b & 0xffffff, 24));
  case OpenCLstd_UMul24: return (a & 0xffffff) * (b & 0xffffff);
  case OpenCLstd_SMad24: return (uint64_t)(sx(a & 0xffffff, 24) * sx(b & 0xffffff, 24)) + c;
  case OpenCLstd_UMad24: return (a & 0xffffff) * (b & 0xffffff) + c;
  default: return 0;
  }
#undef SCL
#undef UCL
}

static bool is_imath(uint32_t op) {
  return (op >= OpenCLstd_SAbs && op <= OpenCLstd_SMul24 + 1 && op != OpenCLstd_U_Upsample &&
          op != OpenCLstd_S_Upsample && op != OpenCLstd_Vloadn) ||
         (op >= OpenCLstd_UAbs && op <= OpenCLstd_UMad_hi);
}

/* ------------------------------------------------------------ geometric */

static double geo_length(const void *p, const ld_type *t) {
  long double s = 0;
  for (uint32_t c = 0; c < t->n_comp; c++) { long double v = argf(p, t, c); s += v * v; }
  return (double)sqrtl(s);
}

/* ---------------------------------------------------------- the evaluator */

bool ip_ocl_eval_lane(const ld_insn *insn, const void *const *args,
                      const ld_type *const *arg_types, void *out) {
  const ld_type *rt = insn->type;
  uint32_t op = insn->ext_op;
  if (!rt || !rt->n_comp) return false;
  uint32_t n = rt->n_comp, w = rt->comp->width;
  uint32_t na = insn->n_ops > 2 ? insn->n_ops - 2 : 0;

  if (is_fmath(op) || op == OpenCLstd_Mad) {
    if (rt->comp->kind != LD_T_FLOAT) return false;
    for (uint32_t c = 0; c < n; c++) {
      double x = na > 0 ? argf(args[0], arg_types[0], c) : 0;
      double y = na > 1 ? argf(args[1], arg_types[1], c) : 0;
      double z = na > 2 ? argf(args[2], arg_types[2], c) : 0;
      putf(out, rt, c, fmath(op, w, x, y, z));
    }
    return true;
  }
  if (is_imath(op)) {
    if (rt->comp->kind != LD_T_INT) return false;
    for (uint32_t c = 0; c < n; c++) {
      uint64_t a = na > 0 ? argu(args[0], arg_types[0], c) : 0;
      uint64_t b = na > 1 ? argu(args[1], arg_types[1], c) : 0;
      uint64_t d = na > 2 ? argu(args[2], arg_types[2], c) : 0;
      putu(out, rt, c, imath(op, w, a, b, d) & wm(w));
    }
    return true;
  }
  switch (op) {
  case OpenCLstd_U_Upsample: case OpenCLstd_S_Upsample: {
    uint32_t sw = arg_types[0]->comp->width;
    for (uint32_t c = 0; c < n; c++)
      putu(out, rt, c, (argu(args[0], arg_types[0], c) << sw) | (argu(args[1], arg_types[1], c) & wm(sw)));
    return true;
  }
  case OpenCLstd_Ilogb:
    for (uint32_t c = 0; c < n; c++) {
      double x = argf(args[0], arg_types[0], c);
      int32_t r = isnan(x) ? INT32_MAX : x == 0 ? INT32_MIN : isinf(x) ? INT32_MAX : ilogb(x);
      putu(out, rt, c, (uint32_t)r);
    }
    return true;
  case OpenCLstd_Ldexp: case OpenCLstd_Pown: case OpenCLstd_Rootn:
    for (uint32_t c = 0; c < n; c++) {
      double x = argf(args[0], arg_types[0], c);
      int64_t k = sx(argu(args[1], arg_types[1], c), arg_types[1]->comp->width), r;
      double v;
      if (op == OpenCLstd_Ldexp) {
        int kk = k > 100000 ? 100000 : k < -100000 ? -100000 : (int)k;
        v = w == 64 ? ldexp(x, kk) : (double)ldexpf((float)x, kk);
      } else if (op == OpenCLstd_Pown) {
        v = w == 64 ? pow(x, (double)k) : (double)(float)pow(x, (double)k);
      } else {
        r = k;
        v = w == 64 ? rootn_d(x, r) : (double)(float)rootn_d(x, r);
      }
      putf(out, rt, c, v);
    }
    return true;
  case OpenCLstd_Nan:
    for (uint32_t c = 0; c < n; c++) {
      uint64_t code = argu(args[0], arg_types[0], c);
      uint64_t bits = w == 16 ? 0x7e00u | (code & 0x1ffu)
                    : w == 32 ? 0x7fc00000u | (code & 0x3fffffu)
                              : 0x7ff8000000000000ull | (code & 0x7ffffffffffffull);
      putu(out, rt, c, bits);
    }
    return true;
  case OpenCLstd_Nextafter:
    for (uint32_t c = 0; c < n; c++)
      putu(out, rt, c, nextafter_bits(argu(args[0], arg_types[0], c), argu(args[1], arg_types[1], c), w));
    return true;
  case OpenCLstd_Cross: {
    double a[3], b[3];
    for (uint32_t c = 0; c < 3; c++) { a[c] = argf(args[0], arg_types[0], c); b[c] = argf(args[1], arg_types[1], c); }
    double r[4];
    if (w == 64) {
      r[0] = a[1] * b[2] - a[2] * b[1]; r[1] = a[2] * b[0] - a[0] * b[2]; r[2] = a[0] * b[1] - a[1] * b[0];
    } else {
      float af[3] = {(float)a[0], (float)a[1], (float)a[2]}, bf[3] = {(float)b[0], (float)b[1], (float)b[2]};
      r[0] = af[1] * bf[2] - af[2] * bf[1]; r[1] = af[2] * bf[0] - af[0] * bf[2]; r[2] = af[0] * bf[1] - af[1] * bf[0];
    }
    r[3] = 0;
    memset(out, 0, rt->size);
    for (uint32_t c = 0; c < n && c < 4; c++) putf(out, rt, c, r[c]);
    return true;
  }
  case OpenCLstd_Length: case OpenCLstd_Fast_length:
    putf(out, rt, 0, geo_length(args[0], arg_types[0]));
    return true;
  case OpenCLstd_Distance: case OpenCLstd_Fast_distance: {
    long double s = 0;
    for (uint32_t c = 0; c < arg_types[0]->n_comp; c++) {
      long double d = (long double)argf(args[0], arg_types[0], c) - argf(args[1], arg_types[1], c);
      s += d * d;
    }
    putf(out, rt, 0, (double)sqrtl(s));
    return true;
  }
  case OpenCLstd_Normalize: case OpenCLstd_Fast_normalize: {
    long double s = 0;
    for (uint32_t c = 0; c < n; c++) { long double v = argf(args[0], arg_types[0], c); s += v * v; }
    long double len = sqrtl(s);
    for (uint32_t c = 0; c < n; c++) {
      double v = argf(args[0], arg_types[0], c);
      putf(out, rt, c, len == 0 ? v : isinf(len) ? (isinf(v) ? copysign(1.0, v) : copysign(0.0, v))
                                    : (double)(v / len));
    }
    return true;
  }
  case OpenCLstd_Bitselect: {   /* (a & ~c) | (b & c) on the bits */
    uint32_t cs = rt->comp->size;
    for (uint32_t c = 0; c < n; c++) {
      uint64_t a = ip_load_uint((const uint8_t *)args[0] + cs * ci(arg_types[0], c), cs);
      uint64_t b = ip_load_uint((const uint8_t *)args[1] + cs * ci(arg_types[1], c), cs);
      uint64_t m = ip_load_uint((const uint8_t *)args[2] + cs * ci(arg_types[2], c), cs);
      putu(out, rt, c, (a & ~m) | (b & m));
    }
    return true;
  }
  case OpenCLstd_Select: {      /* scalar: c ? b : a; vector: MSB of c[i] */
    uint32_t cs = rt->comp->size, ccs = arg_types[2]->comp->size, cw = arg_types[2]->comp->width;
    for (uint32_t c = 0; c < n; c++) {
      uint64_t k = ip_load_uint((const uint8_t *)args[2] + ccs * ci(arg_types[2], c), ccs);
      bool pick_b = rt->n_comp == 1 ? k != 0 : ((k >> (cw - 1)) & 1u);
      memcpy((uint8_t *)out + cs * c, (const uint8_t *)args[pick_b ? 1 : 0] + cs * ci(arg_types[0], c), cs);
    }
    return true;
  }
  case OpenCLstd_Shuffle: case OpenCLstd_Shuffle2: {
    const ld_type *mt = arg_types[op == OpenCLstd_Shuffle ? 1 : 2];
    const void *mp = args[op == OpenCLstd_Shuffle ? 1 : 2];
    uint32_t cs = rt->comp->size, n1 = arg_types[0]->n_comp;
    uint32_t total = op == OpenCLstd_Shuffle ? n1 : n1 + arg_types[1]->n_comp;
    /* only the low bits that can index 2n (n rounded up to a power of two) count */
    uint32_t p2 = 1;
    while (p2 < total) p2 <<= 1;
    memset(out, 0, rt->size);
    for (uint32_t c = 0; c < n; c++) {
      uint32_t k = (uint32_t)(argu(mp, mt, c) & (p2 - 1));
      if (k >= total) continue;
      const uint8_t *src = k < n1 ? (const uint8_t *)args[0] + cs * k : (const uint8_t *)args[1] + cs * (k - n1);
      memcpy((uint8_t *)out + cs * c, src, cs);
    }
    return true;
  }
  default:
    return false;
  }
}

/* ------------------------------------------------------------- handlers */

#define MAX_ARGS 4

static int h_eval(ip_sg *sg, const ip_op *op) {
  const void *args[MAX_ARGS] = {0};
  const ld_type *types[MAX_ARGS] = {0};
  uint32_t na = op->n_in < MAX_ARGS ? op->n_in : MAX_ARGS;
  for (uint32_t i = 0; i < na; i++) types[i] = op->in[i].type;
  IP_FOR_LANES(sg->mask, l) {
    for (uint32_t i = 0; i < na; i++) args[i] = ip_in(sg, op, i, l);
    ip_ocl_eval_lane(op->insn, args, types, ip_res(sg, op, l));
  }
  return IP_NEXT;
}

/* Hot float32 shapes, no per-component dispatch. */
#define F32_HANDLER(name, expr) \
  static int name(ip_sg *sg, const ip_op *op) { \
    const uint32_t n = op->aux, na = op->n_in; \
    IP_FOR_LANES(sg->mask, l) { \
      const uint8_t *p0 = ip_in(sg, op, 0, l), *p1 = na > 1 ? ip_in(sg, op, 1, l) : p0, \
                    *p2 = na > 2 ? ip_in(sg, op, 2, l) : p0; \
      uint32_t s1 = na > 1 && op->in[1].type->n_comp > 1 ? 4 : 0, s2 = na > 2 && op->in[2].type->n_comp > 1 ? 4 : 0; \
      uint8_t *pr = ip_res(sg, op, l); \
      for (uint32_t c = 0; c < n; c++) { \
        float x, y = 0, z = 0, r; \
        memcpy(&x, p0 + 4 * c, 4); \
        if (na > 1) memcpy(&y, p1 + s1 * c, 4); \
        if (na > 2) memcpy(&z, p2 + s2 * c, 4); \
        r = (expr); (void)y; (void)z; \
        memcpy(pr + 4 * c, &r, 4); \
      } \
    } \
    return IP_NEXT; \
  }
F32_HANDLER(h_mad_f32, x * y + z)
F32_HANDLER(h_fma_f32, fmaf(x, y, z))
F32_HANDLER(h_fmin_f32, fmin_f(x, y))
F32_HANDLER(h_fmax_f32, fmax_f(x, y))
F32_HANDLER(h_sqrt_f32, sqrtf(x))
F32_HANDLER(h_fclamp_f32, fmin_f(fmax_f(x, y), z))

/* Address of lane's pointer operand i plus a byte offset. */
static uint64_t ptr_in(const ip_sg *sg, const ip_op *op, uint32_t i, uint32_t l) {
  return ip_in_uint(sg, op, i, l);
}

/* frexp, modf, sincos, remquo, lgamma_r, fract: a value result plus a second
 * result written through the last operand (pointer, one element per component). */
static int h_ptrout(ip_sg *sg, const ip_op *op) {
  const ld_type *rt = op->insn->type;
  uint32_t e = op->insn->ext_op, n = rt->n_comp, w = rt->comp->width;
  uint32_t pi = op->n_in - 1;
  const ld_type *pt = op->in[pi].type->elem;
  const ld_type *ot = pt && pt->n_comp ? pt->comp : NULL;
  uint32_t os = ot ? ot->size : 4;
  ip_mask bad = {{0, 0}};
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *pr = ip_res(sg, op, l);
    uint8_t second[128];
    memset(second, 0, sizeof second);
    for (uint32_t c = 0; c < n; c++) {
      double x = argf(ip_in(sg, op, 0, l), op->in[0].type, c), r = 0, s = 0;
      int64_t iv = 0;
      bool is_int_out = false;
      bool d = w == 64;
      switch (e) {
      case OpenCLstd_Frexp: {
        int ex = 0;
        r = d ? frexp(x, &ex) : (double)frexpf((float)x, &ex);
        iv = ex; is_int_out = true; break;
      }
      case OpenCLstd_Modf:
        if (d) { double ip; r = modf(x, &ip); s = ip; }
        else { float ip; r = modff((float)x, &ip); s = ip; }
        break;
      case OpenCLstd_Sincos:
        r = d ? sin(x) : (double)sinf((float)x);
        s = d ? cos(x) : (double)cosf((float)x);
        break;
      case OpenCLstd_Fract:
        if (d) { s = floor(x); r = isnan(x) ? x : isinf(x) ? copysign(0.0, x) : fmin(x - s, 0x1.fffffffffffffp-1); }
        else {
          float xf = (float)x, fl = floorf(xf);
          s = fl;
          r = isnan(xf) ? xf : isinf(xf) ? copysign(0.0f, xf) : fminf(xf - fl, w == 16 ? 0x1.ffcp-1f : 0x1.fffffep-1f);
        }
        break;
      case OpenCLstd_Remquo: {
        double y = argf(ip_in(sg, op, 1, l), op->in[1].type, c);
        int q = 0;
        r = d ? remquo(x, y, &q) : (double)remquof((float)x, (float)y, &q);
        iv = q; is_int_out = true; break;
      }
      default: {  /* Lgamma_r */
        int sg_ = 0;
        r = d ? lgamma_r(x, &sg_) : (double)lgammaf_r((float)x, &sg_);
        iv = sg_; is_int_out = true; break;
      }
      }
      putf(pr, rt, c, r);
      if (is_int_out) {
        uint64_t u = (uint64_t)iv;
        memcpy(second + c * os, &u, os);     /* little-endian truncation */
      } else if (ot) {
        putf(second, pt, c, s);
      }
    }
    uint64_t addr = ptr_in(sg, op, pi, l);
    void *dst = ip_mem(sg, l, addr, (uint64_t)n * os, os, IP_WRITE);
    if (dst) memcpy(dst, second, (size_t)n * os);
    else ip_mask_set(&bad, l);
  }
  (void)bad;   /* ip_mem has recorded the fault */
  return IP_NEXT;
}

/* vloadn / vload_half(n) / vloada_halfn: operands offset, p; literal n. */
static int h_vload(ip_sg *sg, const ip_op *op) {
  const ld_insn *in = op->insn;
  const ld_type *rt = in->type;
  uint32_t e = in->ext_op, n = rt->n_comp;
  bool half = e != OpenCLstd_Vloadn;
  uint32_t es = half ? 2 : rt->comp->size;
  uint32_t stride_n = e == OpenCLstd_Vloada_halfn && n == 3 ? 4 : n;
  uint32_t align = e == OpenCLstd_Vloada_halfn ? stride_n * 2 : es;
  IP_FOR_LANES(sg->mask, l) {
    uint64_t off = ip_in_uint(sg, op, 0, l), p = ip_in_uint(sg, op, 1, l);
    uint64_t addr = p + off * stride_n * es;
    uint8_t *r = ip_res(sg, op, l);
    memset(r, 0, op->res_size);
    const uint8_t *src = ip_mem(sg, l, addr, (uint64_t)n * es, align, IP_READ);
    if (!src) continue;
    if (!half) { memcpy(r, src, (size_t)n * es); continue; }
    for (uint32_t c = 0; c < n; c++) {
      uint16_t h;
      memcpy(&h, src + 2 * c, 2);
      putf(r, rt, c, ip_half_to_double(h));
    }
  }
  return IP_NEXT;
}

/* vstoren / vstore_half(n)(_r) / vstorea_halfn(_r): operands data, offset, p;
 * _r: literal rounding mode after them. */
static int h_vstore(ip_sg *sg, const ip_op *op) {
  const ld_insn *in = op->insn;
  const ld_type *dt = op->in[0].type;
  uint32_t e = in->ext_op, n = dt->n_comp;
  bool half = e != OpenCLstd_Vstoren;
  bool aligned = e == OpenCLstd_Vstorea_halfn || e == OpenCLstd_Vstorea_halfn_r;
  int mode = (int)op->aux;
  uint32_t es = half ? 2 : dt->comp->size;
  uint32_t stride_n = aligned && n == 3 ? 4 : n;
  uint32_t align = aligned ? stride_n * 2 : es;
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *data = ip_in(sg, op, 0, l);
    uint64_t off = ip_in_uint(sg, op, 1, l), p = ip_in_uint(sg, op, 2, l);
    uint64_t addr = p + off * stride_n * es;
    uint8_t buf[128];
    if (half) {
      for (uint32_t c = 0; c < n; c++) {
        uint16_t h = ip_ld_to_half_mode(argf(data, dt, c), mode);
        memcpy(buf + 2 * c, &h, 2);
      }
    } else {
      memcpy(buf, data, (size_t)n * es);
    }
    uint8_t *dst = ip_mem(sg, l, addr, (uint64_t)n * es, align, IP_WRITE);
    if (dst) memcpy(dst, buf, (size_t)n * es);
  }
  return IP_NEXT;
}

static int h_prefetch(ip_sg *sg, const ip_op *op) {
  (void)sg; (void)op;
  return IP_NEXT;
}

ip_handler *ip_lookup_ocl(const ld_module *m, const ld_insn *in, ip_op *op) {
  (void)m;
  if (in->op != SpvOpExtInst || in->ext_set != LD_EXT_OPENCL_STD) return NULL;
  uint32_t e = in->ext_op;
  const ld_type *rt = in->type;
  switch (e) {
  case OpenCLstd_Printf: return ip_ocl_printf;
  case OpenCLstd_Prefetch: return h_prefetch;
  case OpenCLstd_Vloadn: case OpenCLstd_Vload_half: case OpenCLstd_Vload_halfn:
  case OpenCLstd_Vloada_halfn:
    return rt && rt->n_comp ? h_vload : NULL;
  case OpenCLstd_Vstoren: case OpenCLstd_Vstore_half: case OpenCLstd_Vstore_halfn:
  case OpenCLstd_Vstorea_halfn:
    op->aux = SpvFPRoundingModeRTE;
    return h_vstore;
  case OpenCLstd_Vstore_half_r: case OpenCLstd_Vstore_halfn_r: case OpenCLstd_Vstorea_halfn_r:
    op->aux = in->n_ops > 5 ? in->ops[5] & 3 : SpvFPRoundingModeRTE;
    return h_vstore;
  case OpenCLstd_Frexp: case OpenCLstd_Modf: case OpenCLstd_Sincos: case OpenCLstd_Remquo:
  case OpenCLstd_Lgamma_r: case OpenCLstd_Fract:
    return rt && rt->n_comp && rt->comp->kind == LD_T_FLOAT ? h_ptrout : NULL;
  default: break;
  }
  if (!rt || !rt->n_comp) return NULL;
  op->aux = rt->n_comp;
  if (rt->comp->kind == LD_T_FLOAT && rt->comp->width == 32) {
    switch (e) {
    case OpenCLstd_Mad: return h_mad_f32;
    case OpenCLstd_Fma: return h_fma_f32;
    case OpenCLstd_Fmin: return h_fmin_f32;
    case OpenCLstd_Fmax: return h_fmax_f32;
    case OpenCLstd_Sqrt: return h_sqrt_f32;
    case OpenCLstd_FClamp: return h_fclamp_f32;
    default: break;
    }
  }
  bool known = is_fmath(e) || is_imath(e);
  switch (e) {
  case OpenCLstd_Mad: case OpenCLstd_U_Upsample: case OpenCLstd_S_Upsample: case OpenCLstd_Ilogb:
  case OpenCLstd_Ldexp: case OpenCLstd_Pown: case OpenCLstd_Rootn: case OpenCLstd_Nan:
  case OpenCLstd_Nextafter: case OpenCLstd_Cross: case OpenCLstd_Length: case OpenCLstd_Fast_length:
  case OpenCLstd_Distance: case OpenCLstd_Fast_distance: case OpenCLstd_Normalize:
  case OpenCLstd_Fast_normalize: case OpenCLstd_Bitselect: case OpenCLstd_Select:
  case OpenCLstd_Shuffle: case OpenCLstd_Shuffle2:
    known = true; break;
  default: break;
  }
  if (in->n_ops - 2 > MAX_ARGS) return NULL;
  return known ? h_eval : NULL;
}
