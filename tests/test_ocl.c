/* test_ocl.c - unit tests of the per-lane OpenCL.std evaluator, the half and
 * rounding-mode conversions and a few arithmetic handlers, driven directly
 * (hand-built types, instructions and a subgroup register file).  Expected
 * values come from hand-checked tables, C's libm, or properties computed here
 * in wider integer types. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <spirv/unified1/OpenCL.std.h>
#include "ip_internal.h"
#include "ip_arith.h"

static int n_pass, n_fail;

#define CHECK(cond, ...) do { \
    if (cond) n_pass++; \
    else { n_fail++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

/* ---------------------------------------------------------------- types */

static ld_type pool[64];
static uint32_t n_pool;
static ld_type *new_type(void) { return n_pool < 64 ? &pool[n_pool++] : &pool[63]; }

static ld_type *scalar(ld_type_kind k, uint32_t width) {
  ld_type *t = new_type();
  t->kind = k;
  t->width = k == LD_T_BOOL ? 8 : width;
  t->size = k == LD_T_BOOL ? 1 : width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
  t->align = t->size;
  t->n_comp = 1;
  t->comp = t;
  return t;
}
static ld_type *vec(ld_type *c, uint32_t n) {
  ld_type *t = new_type();
  t->kind = LD_T_VECTOR;
  t->count = n;
  t->elem = c;
  t->size = c->size * (n == 3 ? 4 : n);
  t->align = t->size;
  t->n_comp = n;
  t->comp = c;
  return t;
}

static ld_type *F16, *F32, *F64, *I8, *I16, *I32, *I64, *I2, *BOOL;

/* ------------------------------------------------- OpenCL.std evaluator */

static ld_insn ext(uint32_t e, const ld_type *rt, uint32_t nargs) {
  static uint32_t ops[8];
  ld_insn in;
  memset(&in, 0, sizeof in);
  in.op = SpvOpExtInst;
  in.type = rt;
  in.n_ops = 2 + nargs;
  in.ops = ops;
  in.ext_set = LD_EXT_OPENCL_STD;
  in.ext_op = e;
  return in;
}

static float ev_f1(uint32_t e, float x) {
  ld_insn in = ext(e, F32, 1);
  const void *a[1] = {&x};
  const ld_type *t[1] = {F32};
  float r = -12345;
  if (!ip_ocl_eval_lane(&in, a, t, &r)) return -99999;
  return r;
}
static float ev_f3(uint32_t e, float x, float y, float z, uint32_t n) {
  ld_insn in = ext(e, F32, n);
  const void *a[3] = {&x, &y, &z};
  const ld_type *t[3] = {F32, F32, F32};
  float r = -12345;
  if (!ip_ocl_eval_lane(&in, a, t, &r)) return -99999;
  return r;
}
static double ev_d1(uint32_t e, double x) {
  ld_insn in = ext(e, F64, 1);
  const void *a[1] = {&x};
  const ld_type *t[1] = {F64};
  double r = -12345;
  ip_ocl_eval_lane(&in, a, t, &r);
  return r;
}
static uint64_t ev_i(uint32_t e, const ld_type *ty, uint64_t x, uint64_t y, uint64_t z, uint32_t n) {
  ld_insn in = ext(e, ty, n);
  const void *a[3] = {&x, &y, &z};   /* little-endian: low bytes first */
  const ld_type *t[3] = {ty, ty, ty};
  uint64_t r = 0;
  if (!ip_ocl_eval_lane(&in, a, t, &r)) return 0xdeadbeef;
  return r & (ty->width >= 64 ? ~0ull : ((1ull << ty->width) - 1));
}
static int64_t sx(uint64_t v, uint32_t w) { return (int64_t)(v << (64 - w)) >> (64 - w); }

static bool same_f(float a, float b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, 4) == 0; }
static bool same_d(double a, double b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, 8) == 0; }

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static void test_float_math(void) {
  static const float xs[] = {0.0f, -0.0f, 0.5f, 1.0f, -1.5f, 3.14159265f, 100.0f, 1e-30f, 7.25f, 0.999f};
  for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
    float x = xs[i];
    CHECK(same_f(ev_f1(OpenCLstd_Sin, x), sinf(x)), "sin(%a)", x);
    CHECK(same_f(ev_f1(OpenCLstd_Cos, x), cosf(x)), "cos(%a)", x);
    CHECK(same_f(ev_f1(OpenCLstd_Exp, x), expf(x)), "exp(%a)", x);
    CHECK(same_f(ev_f1(OpenCLstd_Log, fabsf(x)), logf(fabsf(x))), "log(%a)", x);
    CHECK(same_f(ev_f1(OpenCLstd_Sqrt, fabsf(x)), sqrtf(fabsf(x))), "sqrt(%a)", x);
    CHECK(same_f(ev_f1(OpenCLstd_Native_sqrt, fabsf(x)), sqrtf(fabsf(x))), "native_sqrt(%a)", x);
    CHECK(same_f(ev_f1(OpenCLstd_Tanh, x), tanhf(x)), "tanh(%a)", x);
    CHECK(same_f(ev_f1(OpenCLstd_Cbrt, x), cbrtf(x)), "cbrt(%a)", x);
    CHECK(same_d(ev_d1(OpenCLstd_Sin, x), sin((double)x)), "sin double");
    CHECK(same_d(ev_d1(OpenCLstd_Log2, fabs(x)), log2(fabs((double)x))), "log2 double");
  }
  CHECK(ev_f1(OpenCLstd_Rsqrt, 4.0f) == 0.5f, "rsqrt(4)");
  CHECK(ev_f1(OpenCLstd_Sinpi, 0.5f) == 1.0f, "sinpi(0.5)");
  CHECK(ev_f1(OpenCLstd_Sinpi, -0.5f) == -1.0f, "sinpi(-0.5)");
  CHECK(ev_f1(OpenCLstd_Sinpi, 3.0f) == 0.0f && !signbit(ev_f1(OpenCLstd_Sinpi, 3.0f)), "sinpi(3)=+0");
  CHECK(ev_f1(OpenCLstd_Cospi, 0.5f) == 0.0f, "cospi(0.5)");
  CHECK(ev_f1(OpenCLstd_Cospi, 1.0f) == -1.0f, "cospi(1)");
  CHECK(ev_f1(OpenCLstd_Acospi, -1.0f) == 1.0f, "acospi(-1)");
  CHECK(ev_f1(OpenCLstd_Exp10, 2.0f) == 100.0f, "exp10(2)");
  CHECK(ev_f1(OpenCLstd_Sign, -3.0f) == -1.0f && ev_f1(OpenCLstd_Sign, 2.0f) == 1.0f, "sign");
  CHECK(ev_f1(OpenCLstd_Sign, NAN) == 0.0f && signbit(ev_f1(OpenCLstd_Sign, -0.0f)), "sign nan/-0");
  CHECK(ev_f1(OpenCLstd_Degrees, (float)M_PI) == 180.0f, "degrees(pi)");
  CHECK(ev_f3(OpenCLstd_Mix, 1.0f, 3.0f, 0.25f, 3) == 1.5f, "mix");
  CHECK(ev_f3(OpenCLstd_Step, 1.0f, 0.5f, 0, 2) == 0.0f && ev_f3(OpenCLstd_Step, 1.0f, 1.0f, 0, 2) == 1.0f, "step");
  CHECK(ev_f3(OpenCLstd_Smoothstep, 0.0f, 1.0f, 0.5f, 3) == 0.5f, "smoothstep mid");
  CHECK(ev_f3(OpenCLstd_Smoothstep, 0.0f, 1.0f, 2.0f, 3) == 1.0f, "smoothstep hi");
  CHECK(ev_f3(OpenCLstd_FClamp, 5.0f, 0.0f, 2.0f, 3) == 2.0f, "fclamp");
  CHECK(ev_f3(OpenCLstd_Fmax, NAN, 2.0f, 0, 2) == 2.0f, "fmax(nan,2)");
  CHECK(ev_f3(OpenCLstd_Maxmag, -3.0f, 2.0f, 0, 2) == -3.0f, "maxmag");
  CHECK(ev_f3(OpenCLstd_Minmag, -3.0f, 2.0f, 0, 2) == 2.0f, "minmag");
  /* mad is unfused: (1+2^-12)^2 - 1 in float loses the 2^-24 term; fma keeps it */
  float a = 1.0f + 0x1p-12f;
  CHECK(ev_f3(OpenCLstd_Mad, a, a, -1.0f, 3) == 0x1p-11f, "mad unfused");
  CHECK(ev_f3(OpenCLstd_Fma, a, a, -1.0f, 3) == 0x1p-11f + 0x1p-24f, "fma fused");
  CHECK(ev_f3(OpenCLstd_Powr, -1.0f, 2.0f, 0, 2) != ev_f3(OpenCLstd_Powr, -1.0f, 2.0f, 0, 2), "powr(-1,2)=nan");
  CHECK(ev_f3(OpenCLstd_Pow, -2.0f, 3.0f, 0, 2) == -8.0f, "pow(-2,3)");

  /* rootn / pown / ldexp take an int operand */
  {
    ld_insn in = ext(OpenCLstd_Rootn, F32, 2);
    float x = -27.0f, r = 0; int32_t k = 3;
    const void *ar[2] = {&x, &k};
    const ld_type *t[2] = {F32, I32};
    ip_ocl_eval_lane(&in, ar, t, &r);
    CHECK(fabsf(r + 3.0f) < 1e-6f, "rootn(-27,3)=%g", r);
    in.ext_op = OpenCLstd_Pown; x = 2.0f; k = -2;
    ip_ocl_eval_lane(&in, ar, t, &r);
    CHECK(r == 0.25f, "pown(2,-2)");
    in.ext_op = OpenCLstd_Ldexp; x = 3.0f; k = 4;
    ip_ocl_eval_lane(&in, ar, t, &r);
    CHECK(r == 48.0f, "ldexp(3,4)");
    in = ext(OpenCLstd_Ilogb, I32, 1); x = 48.0f; int32_t ir = 0;
    const ld_type *tf[1] = {F32};
    ip_ocl_eval_lane(&in, ar, tf, &ir);
    CHECK(ir == 5, "ilogb(48)");
    x = 0; ip_ocl_eval_lane(&in, ar, tf, &ir);
    CHECK(ir == INT32_MIN, "ilogb(0)");
  }
  /* nan(code) and nextafter on half bits */
  {
    ld_insn in = ext(OpenCLstd_Nan, F32, 1);
    uint32_t code = 5, r = 0;
    const void *ar[1] = {&code};
    const ld_type *t[1] = {I32};
    ip_ocl_eval_lane(&in, ar, t, &r);
    CHECK(r == 0x7fc00005u, "nan(5) bits %08x", r);
    in = ext(OpenCLstd_Nextafter, F16, 2);
    uint16_t hx = 0x3c00, hy = 0x4000, hr = 0;
    const void *ah[2] = {&hx, &hy};
    const ld_type *th[2] = {F16, F16};
    ip_ocl_eval_lane(&in, ah, th, &hr);
    CHECK(hr == 0x3c01, "nextafter half up %04x", hr);
    hx = 0; hy = 0xbc00;
    ip_ocl_eval_lane(&in, ah, th, &hr);
    CHECK(hr == 0x8001, "nextafter half 0 down %04x", hr);
  }
  /* half result: computed in float, rounded to half */
  {
    ld_insn in = ext(OpenCLstd_Sqrt, F16, 1);
    uint16_t x = 0x4400 /* 4.0 */, r = 0;
    const void *ar[1] = {&x};
    const ld_type *t[1] = {F16};
    ip_ocl_eval_lane(&in, ar, t, &r);
    CHECK(r == 0x4000, "half sqrt(4) %04x", r);
  }
}

static void test_int_math(void) {
  CHECK(ev_i(OpenCLstd_SAdd_sat, I32, 0x7fffffff, 1, 0, 2) == 0x7fffffff, "add_sat max");
  CHECK(ev_i(OpenCLstd_SAdd_sat, I8, 0x80, 0xff, 0, 2) == 0x80, "add_sat char min");
  CHECK(ev_i(OpenCLstd_UAdd_sat, I8, 200, 100, 0, 2) == 255, "uchar add_sat");
  CHECK(ev_i(OpenCLstd_USub_sat, I16, 5, 9, 0, 2) == 0, "ushort sub_sat");
  CHECK(ev_i(OpenCLstd_Clz, I32, 1, 0, 0, 1) == 31, "clz(1)");
  CHECK(ev_i(OpenCLstd_Clz, I32, 0, 0, 0, 1) == 32, "clz(0)");
  CHECK(ev_i(OpenCLstd_Clz, I8, 0x10, 0, 0, 1) == 3, "clz char");
  CHECK(ev_i(OpenCLstd_Ctz, I64, 0, 0, 0, 1) == 64, "ctz(0) long");
  CHECK(ev_i(OpenCLstd_Ctz, I16, 0x100, 0, 0, 1) == 8, "ctz short");
  CHECK(ev_i(OpenCLstd_Popcount, I32, 0xf0f0f0f0u, 0, 0, 1) == 16, "popcount");
  CHECK(ev_i(OpenCLstd_Rotate, I32, 0x80000001u, 1, 0, 2) == 3, "rotate");
  CHECK(ev_i(OpenCLstd_Rotate, I8, 0x81, 9, 0, 2) == 0x03, "rotate char by 9");
  CHECK(ev_i(OpenCLstd_UMul_hi, I32, 0x80000000u, 2, 0, 2) == 1, "mul_hi");
  CHECK(ev_i(OpenCLstd_UMul_hi, I64, ~0ull, ~0ull, 0, 2) == ~0ull - 1, "ulong mul_hi");
  CHECK(ev_i(OpenCLstd_SAbs, I32, 0x80000000u, 0, 0, 1) == 0x80000000u, "abs(INT_MIN)");
  CHECK(ev_i(OpenCLstd_SAbs_diff, I32, 0x7fffffff, 0x80000000u, 0, 2) == 0xffffffffu, "abs_diff");
  CHECK(ev_i(OpenCLstd_SClamp, I32, (uint32_t)-5, 0, 10, 3) == 0, "clamp");
  CHECK(ev_i(OpenCLstd_UMad_sat, I32, 0x10000, 0x10000, 5, 3) == 0xffffffffu, "mad_sat");
  CHECK(ev_i(OpenCLstd_SMad24, I32, 0xffffff /* -1 in 24 bits */, 3, 1, 3) == (uint32_t)-2, "mad24");
  CHECK(ev_i(OpenCLstd_UMul24, I32, 0x1000002, 3, 0, 2) == 6, "mul24 uses low 24 bits");
  /* property checks against int64/__int128 arithmetic */
  for (int i = 0; i < 2000; i++) {
    int32_t x = (int32_t)rnd(), y = (int32_t)rnd();
    int64_t s = (int64_t)x + y;
    int64_t sat = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    uint32_t u1 = (uint32_t)x, u2 = (uint32_t)y;
    bool ok = sx(ev_i(OpenCLstd_SAdd_sat, I32, u1, u2, 0, 2), 32) == sat &&
              sx(ev_i(OpenCLstd_SHadd, I32, u1, u2, 0, 2), 32) == (s >> 1) &&
              sx(ev_i(OpenCLstd_SRhadd, I32, u1, u2, 0, 2), 32) == ((s + 1) >> 1) &&
              ev_i(OpenCLstd_UHadd, I32, u1, u2, 0, 2) == (((uint64_t)u1 + u2) >> 1) &&
              sx(ev_i(OpenCLstd_SMul_hi, I32, u1, u2, 0, 2), 32) == (((int64_t)x * y) >> 32) &&
              ev_i(OpenCLstd_UMax, I32, u1, u2, 0, 2) == (u1 > u2 ? u1 : u2) &&
              sx(ev_i(OpenCLstd_SMin, I32, u1, u2, 0, 2), 32) == (x < y ? x : y);
    if (!ok) { CHECK(0, "int property x=%d y=%d", x, y); break; }
    if (i == 1999) CHECK(1, "int properties");
  }
  /* upsample: (hi << w) | lo */
  {
    ld_insn in = ext(OpenCLstd_U_Upsample, I16, 2);
    uint8_t hi = 0x12, lo = 0x34;
    uint16_t r = 0;
    const void *a[2] = {&hi, &lo};
    const ld_type *t[2] = {I8, I8};
    ip_ocl_eval_lane(&in, a, t, &r);
    CHECK(r == 0x1234, "upsample %04x", r);
  }
}

static void test_vector_ops(void) {
  ld_type *f3 = vec(F32, 3), *f4 = vec(F32, 4), *i4 = vec(I32, 4), *f2 = vec(F32, 2);
  {
    ld_insn in = ext(OpenCLstd_Cross, f3, 2);
    float a[4] = {1, 0, 0, 9}, b[4] = {0, 1, 0, 9}, r[4] = {7, 7, 7, 7};
    const void *ar[2] = {a, b};
    const ld_type *t[2] = {f3, f3};
    ip_ocl_eval_lane(&in, ar, t, r);
    CHECK(r[0] == 0 && r[1] == 0 && r[2] == 1, "cross");
  }
  {
    ld_insn in = ext(OpenCLstd_Length, F32, 1);
    float a[2] = {3, 4}, r = 0;
    const void *ar[1] = {a};
    const ld_type *t[1] = {f2};
    ip_ocl_eval_lane(&in, ar, t, &r);
    CHECK(r == 5.0f, "length");
    in = ext(OpenCLstd_Normalize, f2, 1);
    float n[2];
    ip_ocl_eval_lane(&in, ar, t, n);
    CHECK(n[0] == 0.6f && n[1] == 0.8f, "normalize %g %g", n[0], n[1]);
  }
  {   /* mix(float4, float4, float): the scalar is broadcast */
    ld_insn in = ext(OpenCLstd_Mix, f4, 3);
    float x[4] = {0, 1, 2, 3}, y[4] = {4, 5, 6, 7}, a = 0.5f, r[4];
    const void *ar[3] = {x, y, &a};
    const ld_type *t[3] = {f4, f4, F32};
    ip_ocl_eval_lane(&in, ar, t, r);
    CHECK(r[0] == 2 && r[1] == 3 && r[2] == 4 && r[3] == 5, "mix broadcast");
  }
  {   /* select on vectors uses the MSB of c */
    ld_insn in = ext(OpenCLstd_Select, i4, 3);
    int32_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {-1, 1, INT32_MIN, 0}, r[4];
    const void *ar[3] = {a, b, c};
    const ld_type *t[3] = {i4, i4, i4};
    ip_ocl_eval_lane(&in, ar, t, r);
    CHECK(r[0] == 5 && r[1] == 2 && r[2] == 7 && r[3] == 4, "select msb");
    in = ext(OpenCLstd_Bitselect, i4, 3);
    int32_t m[4] = {0x0f, 0, -1, 0xff00};
    a[0] = 0x55; b[0] = 0xaa; a[3] = 0x1234; b[3] = 0xabcd;
    const void *am[3] = {a, b, m};
    ip_ocl_eval_lane(&in, am, t, r);
    CHECK(r[0] == 0x5a && r[1] == 2 && r[2] == 7 && r[3] == 0xab34, "bitselect");
  }
  {   /* shuffle2(float2 x, float2 y, uint4 mask) */
    ld_insn in = ext(OpenCLstd_Shuffle2, f4, 3);
    float x[2] = {1, 2}, y[2] = {3, 4}, r[4];
    uint32_t mk[4] = {3, 0, 2, 5 /* 5 & 3 = 1 */};
    const void *ar[3] = {x, y, mk};
    const ld_type *t[3] = {f2, f2, i4};
    ip_ocl_eval_lane(&in, ar, t, r);
    CHECK(r[0] == 4 && r[1] == 1 && r[2] == 3 && r[3] == 2, "shuffle2 %g %g %g %g", r[0], r[1], r[2], r[3]);
  }
}

static void test_conversions(void) {
  static const struct { float f; uint16_t h; } tab[] = {
    {1.0f, 0x3c00}, {-2.0f, 0xc000}, {65504.0f, 0x7bff}, {65520.0f, 0x7c00}, {0x1p-24f, 0x0001},
    {0x1p-25f, 0x0000} /* tie to even 0 */, {0x1.8p-25f, 0x0001}, {0x1p-14f, 0x0400},
    {0.1f, 0x2e66}, {INFINITY, 0x7c00}, {-0.0f, 0x8000}, {1.0f + 0x1p-11f, 0x3c00},
    {1.0f + 0x1.8p-11f, 0x3c01}, {1.0f + 0x3p-11f, 0x3c02} /* tie to even up */,
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    uint16_t h = ip_float_to_half(tab[i].f);
    CHECK(h == tab[i].h, "float_to_half(%a) = %04x want %04x", tab[i].f, h, tab[i].h);
    CHECK(ip_double_to_half(tab[i].f) == tab[i].h, "double_to_half(%a)", tab[i].f);
  }
  CHECK(ip_half_to_float(0x0001) == 0x1p-24f, "half denormal");
  CHECK(ip_half_to_float(0x7bff) == 65504.0f, "half max");
  CHECK(isnan(ip_half_to_float(0x7e00)), "half nan");
  /* all 65536 halves round-trip through float */
  int bad = 0;
  for (uint32_t h = 0; h < 65536; h++) {
    float f = ip_half_to_float((uint16_t)h);
    if (isnan(f)) continue;
    if (ip_float_to_half(f) != h) bad++;
  }
  CHECK(bad == 0, "half round trip: %d bad", bad);
  /* vstore_half_r rounding modes on 1 + 2^-11 (a tie) and -(1 + 2^-11) */
  long double t = 1.0L + 0x1p-11L;
  CHECK(ip_ld_to_half_mode(t, SpvFPRoundingModeRTE) == 0x3c00, "rte");
  CHECK(ip_ld_to_half_mode(t, SpvFPRoundingModeRTZ) == 0x3c00, "rtz");
  CHECK(ip_ld_to_half_mode(t, SpvFPRoundingModeRTP) == 0x3c01, "rtp");
  CHECK(ip_ld_to_half_mode(t, SpvFPRoundingModeRTN) == 0x3c00, "rtn");
  CHECK(ip_ld_to_half_mode(-t, SpvFPRoundingModeRTN) == 0xbc01, "rtn neg");
  CHECK(ip_ld_to_half_mode(-t, SpvFPRoundingModeRTP) == 0xbc00, "rtp neg");
  CHECK(ip_ld_to_half_mode(70000.0L, SpvFPRoundingModeRTZ) == 0x7bff, "rtz overflow");
  CHECK(ip_ld_to_half_mode(-70000.0L, SpvFPRoundingModeRTP) == 0xfbff, "rtp neg overflow");
  CHECK(ip_ld_to_half_mode(-70000.0L, SpvFPRoundingModeRTN) == 0xfc00, "rtn neg overflow");
  CHECK(ip_ld_to_half_mode(0x1p-30L, SpvFPRoundingModeRTP) == 0x0001, "rtp tiny");
  /* int -> float with modes */
  CHECK(ip_ld_to_float_mode(16777217.0L, SpvFPRoundingModeRTZ) == 16777216.0f, "rtz 2^24+1");
  CHECK(ip_ld_to_float_mode(16777217.0L, SpvFPRoundingModeRTP) == 16777218.0f, "rtp 2^24+1");
  CHECK(ip_ld_to_float_mode(-16777217.0L, SpvFPRoundingModeRTN) == -16777218.0f, "rtn");
  CHECK(ip_ld_to_float_mode(1e39L, SpvFPRoundingModeRTZ) == FLT_MAX, "rtz overflow float");
  CHECK(ip_ld_to_double_mode((long double)UINT64_MAX, SpvFPRoundingModeRTZ) == 0x1.fffffffffffffp63, "u64 rtz double");
  /* float -> int */
  CHECK(ip_float_to_int(2.5L, 32, true, SpvFPRoundingModeRTE) == 2, "rte 2.5");
  CHECK(ip_float_to_int(3.5L, 32, true, SpvFPRoundingModeRTE) == 4, "rte 3.5");
  CHECK(ip_float_to_int(-2.5L, 32, true, SpvFPRoundingModeRTN) == (uint32_t)-3, "rtn -2.5");
  CHECK(ip_float_to_int(-2.5L, 32, true, SpvFPRoundingModeRTZ) == (uint32_t)-2, "rtz -2.5");
  CHECK(ip_float_to_int(2.1L, 32, true, SpvFPRoundingModeRTP) == 3, "rtp 2.1");
  CHECK(ip_float_to_int(1e10L, 32, true, SpvFPRoundingModeRTZ) == 0x7fffffff, "sat hi");
  CHECK(ip_float_to_int(-1e10L, 32, true, SpvFPRoundingModeRTZ) == 0x80000000u, "sat lo");
  CHECK(ip_float_to_int(NAN, 32, true, SpvFPRoundingModeRTZ) == 0, "nan -> 0");
  CHECK(ip_float_to_int(-3.0L, 8, false, SpvFPRoundingModeRTZ) == 0, "uchar sat 0");
  CHECK(ip_float_to_int(300.0L, 8, false, SpvFPRoundingModeRTZ) == 255, "uchar sat 255");
  CHECK(ip_float_to_int(0x1p64L, 64, false, SpvFPRoundingModeRTZ) == UINT64_MAX, "ulong sat");
}

/* ------------------------------------------------- arithmetic handlers */

#define S 4
static uint8_t regs[64 * 8 * S];
static ld_value values[16];
static ld_decoration decos[4];
static ld_module mod;

/* Runs instruction `op` with result type rt and operands of types ts[] whose
 * per-lane values are vals[i] (S * size bytes each, lane-major); result lanes
 * into out.  Operands are ids 1..n, the result id 10. */
static bool run_op(SpvOp opc, const ld_type *rt, uint32_t n, const ld_type *const *ts,
                   const void *const *vals, const uint32_t *lits, uint32_t n_lits, void *out) {
  uint32_t ops[16];
  ip_opnd in[8];
  memset(regs, 0, sizeof regs);
  for (uint32_t i = 0; i < n; i++) {
    ops[i] = i + 1;
    values[i + 1].kind = LD_V_RESULT;
    values[i + 1].type = ts[i];
    memset(&in[i], 0, sizeof in[i]);
    in[i].off = 64 * i;
    in[i].size = ts[i]->size;
    in[i].type = ts[i];
    in[i].id = i + 1;
    memcpy(regs + (size_t)in[i].off * S, vals[i], (size_t)ts[i]->size * S);
  }
  for (uint32_t i = 0; i < n_lits; i++) ops[n + i] = lits[i];
  ld_insn insn;
  memset(&insn, 0, sizeof insn);
  insn.op = opc;
  insn.result = 10;
  insn.type = rt;
  insn.n_ops = n + n_lits;
  insn.ops = ops;
  mod.values = values;
  mod.bound = 16;
  ip_op op;
  memset(&op, 0, sizeof op);
  op.insn = &insn;
  op.res_off = 64 * 7;
  op.res_size = rt->size;
  op.n_in = n;
  op.in = in;
  ip_handler *h = ip_lookup_arith(&mod, &insn, &op);
  if (!h) return false;
  op.fn = h;
  ip_sg sg;
  memset(&sg, 0, sizeof sg);
  sg.size = S;
  sg.n_lanes = S;
  sg.all = sg.mask = ip_mask_first_n(S);
  sg.regs = regs;
  sg.m = &mod;
  h(&sg, &op);
  memcpy(out, regs + (size_t)op.res_off * S, (size_t)rt->size * S);
  return true;
}

static void test_arith(void) {
  {
    uint32_t a[S] = {1, 0xffffffffu, 7, 100}, b[S] = {2, 1, (uint32_t)-9, 55}, r[S];
    const void *v[2] = {a, b};
    const ld_type *t[2] = {I32, I32};
    CHECK(run_op(SpvOpIAdd, I32, 2, t, v, NULL, 0, r) && r[0] == 3 && r[1] == 0 && r[2] == (uint32_t)-2 && r[3] == 155, "iadd");
    uint32_t sa[S] = {(uint32_t)-7, 7, (uint32_t)-7, 7}, sb[S] = {2, (uint32_t)-2, (uint32_t)-2, 2};
    const void *sv[2] = {sa, sb};
    run_op(SpvOpSDiv, I32, 2, t, sv, NULL, 0, r);
    CHECK((int32_t)r[0] == -3 && (int32_t)r[1] == -3 && r[2] == 3 && r[3] == 3, "sdiv");
    run_op(SpvOpSRem, I32, 2, t, sv, NULL, 0, r);
    CHECK((int32_t)r[0] == -1 && r[1] == 1 && (int32_t)r[2] == -1 && r[3] == 1, "srem");
    run_op(SpvOpSMod, I32, 2, t, sv, NULL, 0, r);
    CHECK(r[0] == 1 && (int32_t)r[1] == -1 && (int32_t)r[2] == -1 && r[3] == 1, "smod %d %d %d %d", r[0], r[1], r[2], r[3]);
    run_op(SpvOpShiftRightArithmetic, I32, 2, t, (const void *[]){sa, (uint32_t[]){1, 33, 31, 0}}, NULL, 0, r);
    CHECK((int32_t)r[0] == -4 && r[1] == 3 && r[2] == 0xffffffffu && r[3] == 7, "sar (amount mod 32)");
  }
  {   /* u8 shift by 9 = shift by 1 */
    uint8_t a[S] = {200, 1, 0x80, 3}, b[S] = {9, 7, 8, 0}, r[S];
    const ld_type *t[2] = {I8, I8};
    run_op(SpvOpShiftLeftLogical, I8, 2, t, (const void *[]){a, b}, NULL, 0, r);
    CHECK(r[0] == 144 && r[1] == 128 && r[2] == 0x80 && r[3] == 3, "shl u8");
  }
  {   /* i2 (odd width): kept zero-extended */
    uint8_t a[S] = {3, 2, 1, 0}, b[S] = {1, 3, 1, 3}, r[S];
    const ld_type *t[2] = {I2, I2};
    run_op(SpvOpIAdd, I2, 2, t, (const void *[]){a, b}, NULL, 0, r);
    CHECK(r[0] == 0 && r[1] == 1 && r[2] == 2 && r[3] == 3, "i2 add");
    run_op(SpvOpSLessThan, BOOL, 2, t, (const void *[]){a, b}, NULL, 0, r);   /* 3=-1<1, 2=-2<-1, 1<1, 0<-1 */
    CHECK(r[0] == 1 && r[1] == 1 && r[2] == 0 && r[3] == 0, "i2 slt");
  }
  {   /* float compares with NaN */
    float a[S] = {1, NAN, 2, 3}, b[S] = {2, 1, 2, NAN};
    uint8_t r[S];
    const ld_type *t[2] = {F32, F32};
    run_op(SpvOpFOrdLessThan, BOOL, 2, t, (const void *[]){a, b}, NULL, 0, r);
    CHECK(r[0] == 1 && r[1] == 0 && r[2] == 0 && r[3] == 0, "FOrdLessThan");
    run_op(SpvOpFUnordLessThan, BOOL, 2, t, (const void *[]){a, b}, NULL, 0, r);
    CHECK(r[0] == 1 && r[1] == 1 && r[2] == 0 && r[3] == 1, "FUnordLessThan");
    run_op(SpvOpFOrdNotEqual, BOOL, 2, t, (const void *[]){a, b}, NULL, 0, r);
    CHECK(r[0] == 1 && r[1] == 0 && r[2] == 0 && r[3] == 0, "FOrdNotEqual");
    run_op(SpvOpFUnordNotEqual, BOOL, 2, t, (const void *[]){a, b}, NULL, 0, r);
    CHECK(r[0] == 1 && r[1] == 1 && r[2] == 0 && r[3] == 1, "FUnordNotEqual");
  }
  {   /* half add rounds to half: 65504 + 16 = 65520 -> inf (tie to even) */
    uint16_t a[S] = {0x3c00, 0x7bff, 0x3c00, 0x0001}, b[S] = {0x3c00, 0x4c00, 0x1000, 0x0001}, r[S];
    const ld_type *t[2] = {F16, F16};
    run_op(SpvOpFAdd, F16, 2, t, (const void *[]){a, b}, NULL, 0, r);
    CHECK(r[0] == 0x4000 && r[1] == 0x7c00 && r[2] == 0x3c00 && r[3] == 0x0002, "half add %04x %04x %04x %04x", r[0], r[1], r[2], r[3]);
  }
  {   /* UMulExtended u32 -> struct {lo, hi} */
    ld_type st;
    memset(&st, 0, sizeof st);
    const ld_type *mem[2] = {I32, I32};
    uint32_t offs[2] = {0, 4};
    st.kind = LD_T_STRUCT; st.size = 8; st.n_members = 2; st.members = mem; st.offsets = offs;
    uint32_t a[S] = {0xffffffffu, 2, 0x10000, 0}, b[S] = {0xffffffffu, 3, 0x10000, 5}, r[2 * S];
    const ld_type *t[2] = {I32, I32};
    CHECK(run_op(SpvOpUMulExtended, &st, 2, t, (const void *[]){a, b}, NULL, 0, r), "umulext lookup");
    CHECK(r[0] == 1 && r[1] == 0xfffffffeu && r[2] == 6 && r[3] == 0 && r[4] == 0 && r[5] == 1, "umulext");
    run_op(SpvOpIAddCarry, &st, 2, t, (const void *[]){a, b}, NULL, 0, r);
    CHECK(r[0] == 0xfffffffeu && r[1] == 1 && r[2] == 5 && r[3] == 0, "iaddcarry");
  }
  {   /* conversions with decorations: ConvertFToS RTN + saturated */
    float a[S] = {-2.5f, 3e9f, NAN, 2.5f};
    int32_t r[S];
    const ld_type *t[1] = {F32};
    uint32_t rtn = SpvFPRoundingModeRTN;
    decos[0] = (ld_decoration){.target = 10, .member = -1, .decoration = SpvDecorationFPRoundingMode, .n_literals = 1, .literals = &rtn};
    decos[1] = (ld_decoration){.target = 10, .member = -1, .decoration = SpvDecorationSaturatedConversion};
    mod.decorations = decos; mod.n_decorations = 2;
    run_op(SpvOpConvertFToS, I32, 1, t, (const void *[]){a}, NULL, 0, r);
    CHECK(r[0] == -3 && r[1] == INT32_MAX && r[2] == 0 && r[3] == 2, "convert_int_sat_rtn");
    mod.n_decorations = 0;
    uint8_t cr[S];
    int32_t ia[S] = {-5, 300, 100, 255};
    const ld_type *ti[1] = {I32};
    run_op(SpvOpSatConvertSToU, I8, 1, ti, (const void *[]){ia}, NULL, 0, cr);
    CHECK(cr[0] == 0 && cr[1] == 255 && cr[2] == 100 && cr[3] == 255, "SatConvertSToU");
    int64_t lr[S];
    run_op(SpvOpSConvert, I64, 1, ti, (const void *[]){ia}, NULL, 0, lr);
    CHECK(lr[0] == -5 && lr[1] == 300, "sconvert");
    run_op(SpvOpConvertSToF, F32, 1, ti, (const void *[]){ia}, NULL, 0, a);
    CHECK(a[0] == -5.0f && a[3] == 255.0f, "convert s->f");
  }
  {   /* composites */
    ld_type *f4 = vec(F32, 4), *f2 = vec(F32, 2);
    float a[4 * S], b[2 * S], r[4 * S];
    for (int i = 0; i < 4 * S; i++) a[i] = (float)i;
    for (int i = 0; i < 2 * S; i++) b[i] = 100.0f + (float)i;
    const ld_type *t[2] = {f4, f2};
    uint32_t lits[4] = {5, 0, 0xffffffffu, 3};
    run_op(SpvOpVectorShuffle, f4, 2, t, (const void *[]){a, b}, lits, 4, r);
    CHECK(r[0] == 101 && r[1] == 0 && r[2] == 0 && r[3] == 3 && r[4] == 103 && r[5] == 4, "shuffle");
    uint32_t idx = 2;
    float e[S];
    const ld_type *t1[1] = {f4};
    run_op(SpvOpCompositeExtract, F32, 1, t1, (const void *[]){a}, &idx, 1, e);
    CHECK(e[0] == 2 && e[1] == 6 && e[3] == 14, "extract");
    run_op(SpvOpDot, F32, 2, (const ld_type *[]){f4, f4}, (const void *[]){a, a}, NULL, 0, e);
    CHECK(e[0] == 14 && e[1] == 16 + 25 + 36 + 49, "dot");
  }
  {   /* bitfield ops and bit count */
    uint32_t a[S] = {0xabcd1234u, 0xffffffffu, 0xf0, 1}, off[S] = {8, 4, 4, 0}, cnt[S] = {8, 4, 4, 32}, r[S];
    const ld_type *t[3] = {I32, I32, I32};
    run_op(SpvOpBitFieldUExtract, I32, 3, t, (const void *[]){a, off, cnt}, NULL, 0, r);
    CHECK(r[0] == 0x12 && r[1] == 0xf && r[2] == 0xf && r[3] == 1, "ubfe");
    run_op(SpvOpBitFieldSExtract, I32, 3, t, (const void *[]){a, off, cnt}, NULL, 0, r);
    CHECK(r[0] == 0x12 && r[1] == 0xffffffffu && r[2] == 0xffffffffu, "sbfe");
    run_op(SpvOpBitCount, I32, 1, t, (const void *[]){a}, NULL, 0, r);
    CHECK(r[0] == 15 && r[1] == 32 && r[2] == 4 && r[3] == 1, "bitcount");
    run_op(SpvOpBitReverse, I32, 1, t, (const void *[]){a}, NULL, 0, r);
    CHECK(r[3] == 0x80000000u && r[2] == 0x0f000000u, "bitreverse");
  }
}

int main(void) {
  F16 = scalar(LD_T_FLOAT, 16); F32 = scalar(LD_T_FLOAT, 32); F64 = scalar(LD_T_FLOAT, 64);
  I8 = scalar(LD_T_INT, 8); I16 = scalar(LD_T_INT, 16); I32 = scalar(LD_T_INT, 32);
  I64 = scalar(LD_T_INT, 64); I2 = scalar(LD_T_INT, 2); BOOL = scalar(LD_T_BOOL, 8);
  test_float_math();
  test_int_math();
  test_vector_ops();
  test_conversions();
  test_arith();
  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
