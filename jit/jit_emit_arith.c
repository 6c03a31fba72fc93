/* jit_emit_arith.c - elementwise operations (arithmetic, comparisons,
 * conversions, composites, OpenCL.std native operations) and built-in
 * variables.  See jit.c for the design. */
#include "jit_emit.h"
#include <spirv/unified1/OpenCL.std.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* Component c of the OpenCL.std instructions jit_plan.c's ocl_std_native
 * accepts, with the interpreter's formulas (interp/exec_ocl.c: imath,
 * fmath), so both backends give the same bits.  Float: the GCC built-ins
 * of the same libm functions (fabs, sqrt, floor, ceil, trunc, rint, fma,
 * copysign: each one IEEE operation, which GCC emits as the instruction
 * glibc uses, vectorized in the lane loop; -fno-math-errno). */
static gcc_jit_rvalue *ocl_arg(J *j, uint32_t inst, const ld_insn *in, uint32_t k, uint32_t c) {
  const ld_type *t; uint32_t n = 1;
  lane_shape(j->m->values[in->ops[2 + k]].type, &t, &n);
  return V(j, inst, in->ops[2 + k], n == 1 ? 0 : c);
}
static gcc_jit_rvalue *fbuiltin(J *j, const char *name, bool dbl, int n, gcc_jit_rvalue **a) {
  char nm[40];
  snprintf(nm, sizeof nm, "__builtin_%s%s", name, dbl ? "" : "f");
  gcc_jit_function *f = gcc_jit_context_get_builtin_function(j->cx, nm);
  return gcc_jit_context_new_call(j->cx, NULL, f, n, a);
}
/* A call of the libm function ocl_libm names, imported (an opaque call:
 * GCC neither folds nor rewrites it), once per context. */
static gcc_jit_rvalue *libm_call(J *j, uint32_t op, bool d, gcc_jit_type *T, gcc_jit_rvalue **a) {
  int n = 0;
  const char *nm = ocl_libm(op, &n);
  if (!nm || op >= 128) return NULL;
  gcc_jit_function **f = &j->libm[d][op];
  if (!*f) {
    char name[24];
    snprintf(name, sizeof name, "%s", nm);
    if (d) name[strlen(name) - 1] = 0;   /* expf -> exp */
    /* an earlier op of the same function (cos and native_cos) */
    for (uint32_t q = 0; q < 128 && !*f; q++) {
      int n2;
      const char *o = q != op && j->libm[d][q] ? ocl_libm(q, &n2) : NULL;
      if (o && !strcmp(o, nm)) *f = j->libm[d][q];
    }
    if (!*f) {
      gcc_jit_param *p[2] = {gcc_jit_context_new_param(j->cx, NULL, T, "x"), gcc_jit_context_new_param(j->cx, NULL, T, "y")};
      *f = gcc_jit_context_new_function(j->cx, NULL, GCC_JIT_FUNCTION_IMPORTED, T, name, n, p, 0);
    }
  }
  return gcc_jit_context_new_call(j->cx, NULL, *f, n, a);
}

/* fmin (mn) or fmax of x and y, as the interpreter's fmin_f / fmax_f
 * (interp/exec_ocl.c): a NaN gives the other operand (both: y); of equal
 * operands fmin takes the one with the sign bit set, fmax the other;
 * branch-free.  Also float min, max and clamp (fmin(fmax(x, lo), hi)). */
gcc_jit_rvalue *fminmax(J *j, bool mn, gcc_jit_rvalue *x, gcc_jit_rvalue *y, gcc_jit_type *T, bool d) {
  gcc_jit_type *I = d ? j->t_s[3] : j->t_s[2];
  gcc_jit_rvalue *sx = b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, gcc_jit_context_new_bitcast(j->cx, NULL, x, I), ci(j, I, 0)));
  gcc_jit_rvalue *r = mn ? blend_by(j, sx, x, y, T) : blend_by(j, sx, y, x, T);
  r = blend_by(j, b2u8(j, cmp(j, mn ? GCC_JIT_COMPARISON_LT : GCC_JIT_COMPARISON_GT, y, x)), y, r, T);
  r = blend_by(j, b2u8(j, cmp(j, mn ? GCC_JIT_COMPARISON_LT : GCC_JIT_COMPARISON_GT, x, y)), x, r, T);
  r = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, y, y)), x, r, T);
  return blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, x, x)), y, r, T);
}

/* length, distance, normalize (and their fast_ forms) and cross, as
 * interp/exec_ocl.c computes them: the sums of squares in long double
 * from the components as doubles, one sqrtl, then rounded to double and to
 * the result's type; normalize's zero and infinite lengths as there; cross
 * in the type, its fourth component 0.  NULL: not one of them. */
static gcc_jit_rvalue *emit_geometric(J *j, uint32_t inst, const ld_insn *in, uint32_t c, gcc_jit_type *T) {
  uint32_t op = in->ext_op, x = in->ops[2];
  if (op != OpenCLstd_Length && op != OpenCLstd_Fast_length && op != OpenCLstd_Distance &&
      op != OpenCLstd_Fast_distance && op != OpenCLstd_Normalize && op != OpenCLstd_Fast_normalize &&
      op != OpenCLstd_Cross)
    return NULL;
  const ld_type *xt; uint32_t xn;
  lane_shape(j->m->values[x].type, &xt, &xn);
  if (op == OpenCLstd_Cross) {
    if (c >= 3) return gcc_jit_context_new_rvalue_from_double(j->cx, T, 0.0);
    uint32_t y = in->ops[3], p = (c + 1) % 3, q = (c + 2) % 3;   /* r[c] = a[p] * b[q] - a[q] * b[p] */
    return bin(j, GCC_JIT_BINARY_OP_MINUS, T, bin(j, GCC_JIT_BINARY_OP_MULT, T, V(j, inst, x, p), V(j, inst, y, q)),
               bin(j, GCC_JIT_BINARY_OP_MULT, T, V(j, inst, x, q), V(j, inst, y, p)));
  }
  gcc_jit_type *LD = gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_LONG_DOUBLE), *D = j->t_f64;
  bool dist = op == OpenCLstd_Distance || op == OpenCLstd_Fast_distance;
  gcc_jit_rvalue *sum = gcc_jit_context_new_rvalue_from_double(j->cx, LD, 0.0);
  for (uint32_t k = 0; k < xn; k++) {
    gcc_jit_rvalue *v = cast(j, cast(j, V(j, inst, x, xn == 1 ? 0 : k), D), LD);
    if (dist) v = bin(j, GCC_JIT_BINARY_OP_MINUS, LD, v, cast(j, cast(j, V(j, inst, in->ops[3], xn == 1 ? 0 : k), D), LD));
    sum = bin(j, GCC_JIT_BINARY_OP_PLUS, LD, sum, bin(j, GCC_JIT_BINARY_OP_MULT, LD, v, v));
  }
  gcc_jit_function *sq = gcc_jit_context_get_builtin_function(j->cx, "__builtin_sqrtl");
  gcc_jit_lvalue *len = local(j, LD);
  assign(j, len, gcc_jit_context_new_call(j->cx, NULL, sq, 1, &sum));
  if (op != OpenCLstd_Normalize && op != OpenCLstd_Fast_normalize) return cast(j, cast(j, R_(len), D), T);
  /* len == 0: v; len infinite: copysign(isinf(v) ? 1 : 0, v); else v / len */
  gcc_jit_rvalue *v = cast(j, V(j, inst, x, xn == 1 ? 0 : c), D);
  gcc_jit_rvalue *inf = gcc_jit_context_new_rvalue_from_double(j->cx, D, INFINITY);
  gcc_jit_rvalue *args[2] = {gcc_jit_context_new_rvalue_from_double(j->cx, D, 1.0), v};
  gcc_jit_rvalue *one = fbuiltin(j, "copysign", true, 2, args);
  args[0] = gcc_jit_context_new_rvalue_from_double(j->cx, D, 0.0);
  gcc_jit_rvalue *zero = fbuiltin(j, "copysign", true, 2, args);
  gcc_jit_rvalue *fa = fbuiltin(j, "fabs", true, 1, &v);
  gcc_jit_rvalue *atinf = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, fa, inf)), one, zero, D);
  gcc_jit_rvalue *r = cast(j, bin(j, GCC_JIT_BINARY_OP_DIVIDE, LD, cast(j, v, LD), R_(len)), D);
  r = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(len), gcc_jit_context_new_rvalue_from_double(j->cx, LD, INFINITY))),
               atinf, r, D);
  r = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(len), gcc_jit_context_new_rvalue_from_double(j->cx, LD, 0.0))),
               v, r, D);
  return cast(j, r, T);
}

gcc_jit_rvalue *emit_ocl_std(J *j, uint32_t inst, const ld_insn *in, uint32_t c, const ld_type *rt, gcc_jit_type *T) {
  uint32_t na = in->n_ops - 2, w = rt->width;
  if (in->ext_op == OpenCLstd_Bitselect) {   /* (a & ~k) | (b & k) on the bits */
    gcc_jit_type *I = w == 64 ? j->t_u[3] : w == 32 ? j->t_u[2] : w == 16 ? j->t_u[1] : j->t_u[0];
    gcc_jit_rvalue *x[3];
    for (int q = 0; q < 3; q++) {
      x[q] = ocl_arg(j, inst, in, (uint32_t)q, c);
      if (rt->kind == LD_T_FLOAT) x[q] = gcc_jit_context_new_bitcast(j->cx, NULL, x[q], I);
      else x[q] = cast(j, x[q], I);
    }
    gcc_jit_rvalue *r = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, I,
        bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, I, x[0], gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, I, x[2])),
        bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, I, x[1], x[2]));
    return rt->kind == LD_T_FLOAT ? gcc_jit_context_new_bitcast(j->cx, NULL, r, T) : cast(j, r, T);
  }
  if (in->ext_op == OpenCLstd_Shuffle || in->ext_op == OpenCLstd_Shuffle2) {
    /* component (mask[c] & (p2 - 1)) of x (then y), p2 the input count
     * rounded up to a power of two; past the inputs 0 (exec_ocl.c) */
    bool two = in->ext_op == OpenCLstd_Shuffle2;
    const ld_type *xt, *kt; uint32_t n1, kn;
    lane_shape(j->m->values[in->ops[2]].type, &xt, &n1);
    uint32_t mk = in->ops[two ? 4 : 3], total = two ? 2 * n1 : n1, p2 = 1;
    lane_shape(j->m->values[mk].type, &kt, &kn);
    while (p2 < total) p2 <<= 1;
    gcc_jit_type *U = j->t_u[3];
    gcc_jit_rvalue *k = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, V(j, inst, mk, c), U), ci(j, U, p2 - 1));
    gcc_jit_rvalue *r = rt->kind == LD_T_FLOAT ? gcc_jit_context_new_rvalue_from_double(j->cx, T, 0.0) : ci(j, T, 0);
    for (uint32_t q = 0; q < total; q++)
      r = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, k, ci(j, U, q))),
                   V(j, inst, q < n1 ? in->ops[2] : in->ops[3], q < n1 ? q : q - n1), r, T);
    return r;
  }
  if (in->ext_op == OpenCLstd_Select) {
    /* select(a, b, k): b where k is nonzero (a scalar result) or has its
     * most significant bit set (a vector's component), as exec_ocl.c */
    const ld_type *kt, *xt; uint32_t kn, xn, rn = in->type->n_comp ? in->type->n_comp : 1;
    lane_shape(j->m->values[in->ops[4]].type, &kt, &kn);
    lane_shape(j->m->values[in->ops[2]].type, &xt, &xn);
    gcc_jit_type *KT = scal(j, kt);
    gcc_jit_rvalue *k = V(j, inst, in->ops[4], kn == 1 ? 0 : c);
    gcc_jit_rvalue *pick = rn == 1 ? b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, k, ci(j, KT, 0)))
                                   : cast(j, bin(j, GCC_JIT_BINARY_OP_RSHIFT, KT, k, ci(j, KT, kt->width - 1)), j->t_u[0]);
    uint32_t cc = xn == 1 ? 0 : c;
    return blend_by(j, pick, cast(j, V(j, inst, in->ops[3], cc), T), cast(j, V(j, inst, in->ops[2], cc), T), T);
  }
  if (rt->kind == LD_T_FLOAT) {
    gcc_jit_rvalue *g = emit_geometric(j, inst, in, c, T);
    if (g) return g;
  }
  gcc_jit_rvalue *a[3] = {NULL, NULL, NULL};
  for (uint32_t k = 0; k < na && k < 3; k++) a[k] = cast(j, ocl_arg(j, inst, in, k, c), T);
  if (rt->kind == LD_T_FLOAT) {
    bool d = w == 64;
    gcc_jit_rvalue *lc = libm_call(j, in->ext_op, d, T, a);
    if (lc) return lc;
    switch (in->ext_op) {
    case OpenCLstd_Fabs: return fbuiltin(j, "fabs", d, 1, a);
    case OpenCLstd_Sqrt: return fbuiltin(j, "sqrt", d, 1, a);
    case OpenCLstd_Floor: return fbuiltin(j, "floor", d, 1, a);
    case OpenCLstd_Ceil: return fbuiltin(j, "ceil", d, 1, a);
    case OpenCLstd_Trunc: return fbuiltin(j, "trunc", d, 1, a);
    case OpenCLstd_Rint: return fbuiltin(j, "rint", d, 1, a);
    case OpenCLstd_Fma: return fbuiltin(j, "fma", d, 3, a);
    case OpenCLstd_Copysign: return fbuiltin(j, "copysign", d, 2, a);
    case OpenCLstd_Fmin: case OpenCLstd_FMin_common: return fminmax(j, true, a[0], a[1], T, d);
    case OpenCLstd_Fmax: case OpenCLstd_FMax_common: return fminmax(j, false, a[0], a[1], T, d);
    case OpenCLstd_FClamp: return fminmax(j, true, fminmax(j, false, a[0], a[1], T, d), a[2], T, d);
    default: break;
    }
    failf(j->e, "%s: OpExtInst %u not compiled yet", ld_insn_where(j->m, in), in->ext_op);
    return ci(j, T, 0);
  }
  gcc_jit_type *ST = sscal(j, rt), *U64 = j->t_u[3], *S64 = j->t_s[3];
  gcc_jit_rvalue *s0 = a[0] ? cast(j, a[0], ST) : NULL, *s1 = a[1] ? cast(j, a[1], ST) : NULL;
  gcc_jit_rvalue *s2 = a[2] ? cast(j, a[2], ST) : NULL;
#define LT_(x, y) b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, x, y))
#define GT_(x, y) b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, x, y))
  switch (in->ext_op) {
  case OpenCLstd_SMax: return blend_by(j, GT_(s0, s1), a[0], a[1], T);
  case OpenCLstd_SMin: return blend_by(j, LT_(s0, s1), a[0], a[1], T);
  case OpenCLstd_UMax: return blend_by(j, GT_(a[0], a[1]), a[0], a[1], T);
  case OpenCLstd_UMin: return blend_by(j, LT_(a[0], a[1]), a[0], a[1], T);
  case OpenCLstd_SClamp:   /* x < lo ? lo : x > hi ? hi : x */
    return blend_by(j, LT_(s0, s1), a[1], blend_by(j, GT_(s0, s2), a[2], a[0], T), T);
  case OpenCLstd_UClamp:
    return blend_by(j, LT_(a[0], a[1]), a[1], blend_by(j, GT_(a[0], a[2]), a[2], a[0], T), T);
  case OpenCLstd_SAbs:
    return blend_by(j, LT_(s0, ci(j, ST, 0)), bin(j, GCC_JIT_BINARY_OP_MINUS, T, ci(j, T, 0), a[0]), a[0], T);
  case OpenCLstd_UAbs: return a[0];
  case OpenCLstd_Popcount: {
    gcc_jit_function *pc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_popcountll");
    gcc_jit_rvalue *x = cast(j, cast(j, a[0], U64), gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_UNSIGNED_LONG_LONG));
    return cast(j, gcc_jit_context_new_call(j->cx, NULL, pc, 1, &x), T);
  }
  case OpenCLstd_UMul24: case OpenCLstd_UMad24: {   /* (a & 0xffffff) * (b & 0xffffff) [+ c], modulo 2^w */
    gcc_jit_rvalue *m24 = ci(j, T, 0xffffff);
    gcc_jit_rvalue *p = bin(j, GCC_JIT_BINARY_OP_MULT, T, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, a[0], m24),
                            bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, a[1], m24));
    return in->ext_op == OpenCLstd_UMad24 ? bin(j, GCC_JIT_BINARY_OP_PLUS, T, p, a[2]) : p;
  }
  case OpenCLstd_SMul24: case OpenCLstd_SMad24: {   /* the low 24 bits as signed, multiplied in 64 bits */
    gcc_jit_rvalue *x[2];
    for (int k = 0; k < 2; k++)
      x[k] = bin(j, GCC_JIT_BINARY_OP_RSHIFT, S64,
                 cast(j, bin(j, GCC_JIT_BINARY_OP_LSHIFT, U64, cast(j, a[k], U64), ci(j, U64, 40)), S64), ci(j, S64, 40));
    gcc_jit_rvalue *p = cast(j, cast(j, bin(j, GCC_JIT_BINARY_OP_MULT, S64, x[0], x[1]), U64), T);
    return in->ext_op == OpenCLstd_SMad24 ? bin(j, GCC_JIT_BINARY_OP_PLUS, T, p, a[2]) : p;
  }
  case OpenCLstd_UMul_hi:   /* 32 bits: the high half of the 64-bit product */
    return cast(j, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U64, bin(j, GCC_JIT_BINARY_OP_MULT, U64, cast(j, a[0], U64),
                                                              cast(j, a[1], U64)), ci(j, U64, 32)), T);
  case OpenCLstd_SMul_hi:
    return cast(j, cast(j, bin(j, GCC_JIT_BINARY_OP_RSHIFT, S64, bin(j, GCC_JIT_BINARY_OP_MULT, S64, cast(j, s0, S64),
                                                                      cast(j, s1, S64)), ci(j, S64, 32)), ST), T);
  default: break;
  }
#undef LT_
#undef GT_
  failf(j->e, "%s: OpExtInst %u not compiled yet", ld_insn_where(j->m, in), in->ext_op);
  return ci(j, T, 0);
}

/* Component c of an elementwise instruction, for the current lane. */
gcc_jit_rvalue *emit_elementwise(J *j, uint32_t inst, const ld_insn *in, uint32_t c) {
  const ld_module *m = j->m;
  const ld_type *rt, *at = NULL; uint32_t rn, an = 0;
  lane_shape(in->type, &rt, &rn);
  gcc_jit_type *T = scal(j, rt);
  uint32_t a0 = in->n_ops > 0 ? in->ops[0] : 0;
  if (a0) lane_shape(m->values[a0].type, &at, &an);
  gcc_jit_rvalue *a = NULL, *b = NULL;
  switch (in->op) {   /* whole-vector operands (jit_plan.c: native_ok_ checks the shapes) */
  case SpvOpDot: {   /* a0*b0 + a1*b1 + ... in component order, each step rounded (interp h_dot) */
    gcc_jit_rvalue *sum = NULL;
    for (uint32_t k = 0; k < an; k++) {
      gcc_jit_rvalue *p = bin(j, GCC_JIT_BINARY_OP_MULT, T, V(j, inst, in->ops[0], k), V(j, inst, in->ops[1], k));
      sum = sum ? bin(j, GCC_JIT_BINARY_OP_PLUS, T, sum, p) : p;
    }
    return sum;
  }
  case SpvOpVectorExtractDynamic: {   /* component idx, 0 past the end (interp h_vextract_dyn) */
    gcc_jit_type *U = j->t_u[3];
    gcc_jit_rvalue *ix = cast(j, V(j, inst, in->ops[1], 0), U), *r = ci(j, T, 0);
    for (uint32_t k = 0; k < an; k++)
      r = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, ix, ci(j, U, k))), V(j, inst, a0, k), r, T);
    return r;
  }
  case SpvOpVectorInsertDynamic: {   /* component idx replaced; none past the end (h_vinsert_dyn) */
    gcc_jit_type *U = j->t_u[3];
    gcc_jit_rvalue *ix = cast(j, V(j, inst, in->ops[2], 0), U);
    return blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, ix, ci(j, U, c))), V(j, inst, in->ops[1], 0),
                    V(j, inst, a0, c), T);
  }
  case SpvOpAny: case SpvOpAll: {   /* a bool vector's components (0/1) or'ed / and'ed (interp h_anyall) */
    bool any = in->op == SpvOpAny;
    gcc_jit_rvalue *r = NULL;
    for (uint32_t k = 0; k < an; k++) {
      gcc_jit_rvalue *v = b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, a0, k), ci(j, scal(j, at), 0)));
      r = r ? bin(j, any ? GCC_JIT_BINARY_OP_BITWISE_OR : GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[0], r, v) : v;
    }
    return cast(j, r, T);
  }
  case SpvOpGenericCastToPtrExplicit: {
    /* the pointer when its region is of the storage class, else null
     * (interp exec_memory.c: addr_class) */
    const ld_addr_layout *la = &m->layout;
    gcc_jit_type *U = j->t_u[3];
    gcc_jit_rvalue *p = V(j, inst, a0, 0);
    gcc_jit_rvalue *r = bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, cast(j, p, U), ci(j, U, (long)la->shift));
    uint32_t lo = in->ops[1] == SpvStorageClassCrossWorkgroup ? 1 : in->ops[1] == SpvStorageClassWorkgroup
                ? la->local_base : la->priv_base;
    uint32_t hi = in->ops[1] == SpvStorageClassCrossWorkgroup ? la->local_base : in->ops[1] == SpvStorageClassWorkgroup
                ? la->builtin_base : UINT32_MAX;
    gcc_jit_rvalue *in_ = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_GE, r, ci(j, U, lo))),
                              b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, r, ci(j, U, (long)hi))));
    return blend_by(j, in_, cast(j, p, T), ci(j, T, 0), T);
  }
  default: break;
  }
  if (in->op != SpvOpCompositeExtract && in->op != SpvOpCompositeInsert &&
      in->op != SpvOpCompositeConstruct && in->op != SpvOpVectorShuffle && in->op != SpvOpSelect &&
      in->op != SpvOpExtInst) {
    if (!at) { failf(j->e, "%s: operand of unsupported type", ld_insn_where(m, in)); return ci(j, T, 0); }
    if (odd_width(at) && in->op != SpvOpUConvert && in->op != SpvOpIEqual && in->op != SpvOpINotEqual &&
        in->op != SpvOpCopyObject && in->op != SpvOpBitwiseAnd && in->op != SpvOpBitwiseOr &&
        in->op != SpvOpBitwiseXor && in->op != SpvOpULessThan && in->op != SpvOpUGreaterThan) {
      failf(j->e, "%s: %u-bit integer operation", ld_insn_where(m, in), at->width);
      return ci(j, T, 0);
    }
    a = V(j, inst, a0, an == 1 ? 0 : c);
    if (in->n_ops > 1 && in->op != SpvOpBitcast) {
      const ld_type *bt; uint32_t bn;
      if (lane_shape(m->values[in->ops[1]].type, &bt, &bn)) b = V(j, inst, in->ops[1], bn == 1 ? 0 : c);
    }
  }
  gcc_jit_type *AT = at ? scal(j, at) : NULL;
  gcc_jit_type *AS = at ? sscal(j, at) : NULL;
  enum gcc_jit_binary_op bop;
  enum gcc_jit_comparison cop;
  switch (in->op) {
  case SpvOpCopyObject: case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr: return cast(j, a, T);
  case SpvOpPtrEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, a, cast(j, b, AT)));
  case SpvOpPtrNotEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, cast(j, b, AT)));
  case SpvOpIAdd: bop = GCC_JIT_BINARY_OP_PLUS; goto ibin;
  case SpvOpISub: bop = GCC_JIT_BINARY_OP_MINUS; goto ibin;
  case SpvOpIMul: bop = GCC_JIT_BINARY_OP_MULT; goto ibin;
  case SpvOpBitwiseAnd: bop = GCC_JIT_BINARY_OP_BITWISE_AND; goto ibin;
  case SpvOpBitwiseOr: bop = GCC_JIT_BINARY_OP_BITWISE_OR; goto ibin;
  case SpvOpBitwiseXor: bop = GCC_JIT_BINARY_OP_BITWISE_XOR; goto ibin;
  ibin:
    if (T == j->t_u[0] || T == j->t_u[1]) /* avoid int promotion surprises: compute in u32 */
      return fixw(j, rt, cast(j, bin(j, bop, j->t_u[2], cast(j, a, j->t_u[2]), cast(j, b, j->t_u[2])), T));
    return fixw(j, rt, bin(j, bop, T, a, cast(j, b, T)));
  case SpvOpSNegate:
    return fixw(j, rt, bin(j, GCC_JIT_BINARY_OP_MINUS, T, ci(j, T, 0), a));
  case SpvOpNot:
    return fixw(j, rt, gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, T, a));
  case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: {
    uint32_t w = comp_bytes(j->k, rt) * 8;
    gcc_jit_rvalue *sh = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, cast(j, b, T), ci(j, T, w - 1));
    if (in->op == SpvOpShiftLeftLogical) return bin(j, GCC_JIT_BINARY_OP_LSHIFT, T, a, sh);
    if (in->op == SpvOpShiftRightLogical) return bin(j, GCC_JIT_BINARY_OP_RSHIFT, T, a, sh);
    gcc_jit_type *ST = sscal(j, rt);
    return cast(j, bin(j, GCC_JIT_BINARY_OP_RSHIFT, ST, cast(j, a, ST), cast(j, sh, ST)), T);
  }
  case SpvOpFAdd: bop = GCC_JIT_BINARY_OP_PLUS; goto fbin;
  case SpvOpFSub: bop = GCC_JIT_BINARY_OP_MINUS; goto fbin;
  case SpvOpFMul: bop = GCC_JIT_BINARY_OP_MULT; goto fbin;
  case SpvOpFDiv: bop = GCC_JIT_BINARY_OP_DIVIDE; goto fbin;
  fbin:
    return bin(j, bop, T, a, b);
  case SpvOpFNegate:
    return gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_MINUS, T, a);
  case SpvOpIEqual: case SpvOpLogicalEqual: cop = GCC_JIT_COMPARISON_EQ; goto ucmp;
  case SpvOpINotEqual: case SpvOpLogicalNotEqual: cop = GCC_JIT_COMPARISON_NE; goto ucmp;
  case SpvOpUGreaterThan: cop = GCC_JIT_COMPARISON_GT; goto ucmp;
  case SpvOpUGreaterThanEqual: cop = GCC_JIT_COMPARISON_GE; goto ucmp;
  case SpvOpULessThan: cop = GCC_JIT_COMPARISON_LT; goto ucmp;
  case SpvOpULessThanEqual: cop = GCC_JIT_COMPARISON_LE; goto ucmp;
  ucmp:
    return b2u8(j, cmp(j, cop, a, cast(j, b, AT)));
  case SpvOpSGreaterThan: cop = GCC_JIT_COMPARISON_GT; goto scmp;
  case SpvOpSGreaterThanEqual: cop = GCC_JIT_COMPARISON_GE; goto scmp;
  case SpvOpSLessThan: cop = GCC_JIT_COMPARISON_LT; goto scmp;
  case SpvOpSLessThanEqual: cop = GCC_JIT_COMPARISON_LE; goto scmp;
  scmp:
    return b2u8(j, cmp(j, cop, cast(j, a, AS), cast(j, b, AS)));
  case SpvOpFOrdEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, a, b));
  case SpvOpFOrdLessThan: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, a, b));
  case SpvOpFOrdGreaterThan: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, a, b));
  case SpvOpFOrdLessThanEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_LE, a, b));
  case SpvOpFOrdGreaterThanEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_GE, a, b));
  case SpvOpFOrdNotEqual: case SpvOpLessOrGreater:
    return bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, a, b)),
               b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, a, b)));
  case SpvOpFUnordNotEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, b));
  case SpvOpFUnordEqual: case SpvOpFUnordLessThan: case SpvOpFUnordGreaterThan:
  case SpvOpFUnordLessThanEqual: case SpvOpFUnordGreaterThanEqual: {
    gcc_jit_rvalue *ord;
    if (in->op == SpvOpFUnordEqual)
      ord = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, a, b)),
                b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, a, b)));
    else
      ord = b2u8(j, cmp(j, in->op == SpvOpFUnordLessThan ? GCC_JIT_COMPARISON_GE :
                           in->op == SpvOpFUnordGreaterThan ? GCC_JIT_COMPARISON_LE :
                           in->op == SpvOpFUnordLessThanEqual ? GCC_JIT_COMPARISON_GT : GCC_JIT_COMPARISON_LT, a, b));
    return bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[0], ord, ci(j, j->t_u[0], 1));
  }
  case SpvOpIsNan: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, a));
  case SpvOpOrdered: case SpvOpUnordered: {   /* neither / either operand NaN */
    gcc_jit_rvalue *nn = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, a)),
                             b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, b, b)));
    return in->op == SpvOpUnordered ? nn : bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[0], nn, ci(j, j->t_u[0], 1));
  }
  case SpvOpIsInf: case SpvOpIsFinite: case SpvOpIsNormal: {   /* on |a|, as isinf, isfinite, isnormal */
    bool dbl = at->width == 64;
    gcc_jit_rvalue *fa = fbuiltin(j, "fabs", dbl, 1, &a);
    gcc_jit_rvalue *inf = gcc_jit_context_new_rvalue_from_double(j->cx, AT, INFINITY);
    if (in->op == SpvOpIsInf) return b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, fa, inf));
    gcc_jit_rvalue *fin = b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, fa, inf));
    if (in->op == SpvOpIsFinite) return fin;
    gcc_jit_rvalue *mn = gcc_jit_context_new_rvalue_from_double(j->cx, AT, dbl ? 0x1p-1022 : 0x1p-126);
    return bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[0], fin, b2u8(j, cmp(j, GCC_JIT_COMPARISON_GE, fa, mn)));
  }
  case SpvOpSignBitSet: {   /* the sign bit of the bits */
    gcc_jit_type *I = at->width == 64 ? j->t_u[3] : j->t_u[2];
    return cast(j, bin(j, GCC_JIT_BINARY_OP_RSHIFT, I, gcc_jit_context_new_bitcast(j->cx, NULL, a, I),
                       ci(j, I, at->width - 1)), T);
  }
  case SpvOpLogicalAnd: return bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, a, b);
  case SpvOpLogicalOr: return bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, T, a, b);
  case SpvOpLogicalNot: return bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, T, a, ci(j, T, 1));
  case SpvOpUConvert: case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
  case SpvOpSConvert: case SpvOpSatConvertSToU: case SpvOpSatConvertUToS: {
    int mode; bool sat;
    conv_decorations(m, in->result, &mode, &sat);
    bool ss = in->op == SpvOpSConvert || in->op == SpvOpSatConvertSToU;
    if (sat || in->op == SpvOpSatConvertSToU || in->op == SpvOpSatConvertUToS) {
      /* saturating, as interp h_convert: the source as a 64-bit value of
       * its signedness, clamped to the destination's range */
      bool ds = in->op == SpvOpSConvert || in->op == SpvOpSatConvertUToS;
      gcc_jit_type *S64 = j->t_s[3], *U64 = j->t_u[3];
      uint32_t w = rt->width;
      uint64_t hi = ds ? (1ull << (w - 1)) - 1 : w == 64 ? ~0ull : (1ull << w) - 1;
      gcc_jit_rvalue *his = cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, S64, (long)hi), U64);
      if (ss) {
        gcc_jit_rvalue *x = cast(j, cast(j, a, AS), S64);
        gcc_jit_rvalue *lo = gcc_jit_context_new_rvalue_from_long(j->cx, S64, ds ? -(long)hi - 1 : 0);
        gcc_jit_rvalue *r = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, x, lo)), lo, x, S64);
        if (w != 64)   /* a 64-bit destination holds every non-negative source */
          r = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, x, cast(j, his, S64))), cast(j, his, S64), r, S64);
        return cast(j, cast(j, r, U64), T);
      }
      gcc_jit_rvalue *x = cast(j, a, U64);
      return cast(j, blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, x, his)), his, x, U64), T);
    }
    if (ss) return fixw(j, rt, cast(j, cast(j, cast(j, a, AS), sscal(j, rt)), T));
    return fixw(j, rt, cast(j, a, T));
  }
  case SpvOpFConvert: case SpvOpConvertUToF: return cast(j, a, T);
  case SpvOpConvertSToF: return cast(j, cast(j, a, AS), T);
  case SpvOpUDiv: case SpvOpUMod: case SpvOpSDiv: case SpvOpSRem: case SpvOpSMod: {
    /* the lanes idiv_check let through (jit_emit.c), as the interpreter's
     * o_udiv ... o_smod: a zero divisor (an inactive lane's) divides by 1;
     * SDiv by -1 is the negation (MIN / -1 never gets here active), SRem
     * and SMod by -1 are 0 */
    gcc_jit_rvalue *y = cast(j, b, T);
    gcc_jit_rvalue *z = b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, y, ci(j, T, 0)));
    if (in->op == SpvOpUDiv || in->op == SpvOpUMod)
      return bin(j, in->op == SpvOpUDiv ? GCC_JIT_BINARY_OP_DIVIDE : GCC_JIT_BINARY_OP_MODULO, T, a,
                 blend_by(j, z, ci(j, T, 1), y, T));
    gcc_jit_type *ST = sscal(j, rt);
    gcc_jit_rvalue *xs = cast(j, a, ST), *ys = cast(j, y, ST);
    gcc_jit_rvalue *m1 = b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, ys, ci(j, ST, -1)));
    gcc_jit_rvalue *safe = blend_by(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[0], z, m1), ci(j, ST, 1), ys, ST);
    if (in->op == SpvOpSDiv)
      return blend_by(j, m1, bin(j, GCC_JIT_BINARY_OP_MINUS, T, ci(j, T, 0), a),
                      cast(j, bin(j, GCC_JIT_BINARY_OP_DIVIDE, ST, xs, safe), T), T);
    gcc_jit_lvalue *r0 = local(j, ST);
    assign(j, r0, bin(j, GCC_JIT_BINARY_OP_MODULO, ST, xs, safe));
    if (in->op == SpvOpSRem) return cast(j, R_(r0), T);
    /* SMod: the sign of the divisor (r += y when r != 0 and the signs differ) */
    gcc_jit_rvalue *adj = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[0],
        b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, R_(r0), ci(j, ST, 0))),
        bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, R_(r0), ci(j, ST, 0))),
            b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, ys, ci(j, ST, 0)))));
    return blend_by(j, adj, bin(j, GCC_JIT_BINARY_OP_PLUS, T, cast(j, R_(r0), T), y), cast(j, R_(r0), T), T);
  }
  case SpvOpBitCount: {   /* the operand's set bits (zero-extended: a narrower one gains none) */
    gcc_jit_function *pc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_popcountll");
    gcc_jit_rvalue *x = cast(j, cast(j, a, j->t_u[3]), gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_UNSIGNED_LONG_LONG));
    return cast(j, gcc_jit_context_new_call(j->cx, NULL, pc, 1, &x), T);
  }
  case SpvOpConvertFToU: case SpvOpConvertFToS: {
    /* Rounding toward zero, saturating, NaN -> 0, as the interpreter
     * (ip_float_to_int; docs/semantics.md).  Only an operand inside the
     * destination's range [lo, hi) is converted (any other becomes 0 first,
     * so the C conversion GCC emits is always defined); then the lanes at or
     * past either end take the end's value.  Branch-free: the lane loop
     * vectorizes (jit_simd_test's `convert`). */
    bool sg = in->op == SpvOpConvertFToS;
    uint32_t w = rt->width;
    int mode; bool sat_;
    conv_decorations(m, in->result, &mode, &sat_);   /* always saturating */
    /* a rounding mode: the operand rounded to an integer first (exact in
     * its own type), as ip_float_to_int's roundevenl / ceill / floorl */
    bool dbl = at->width == 64;
    if (mode == 0) a = fbuiltin(j, "roundeven", dbl, 1, &a);
    else if (mode == 2) a = fbuiltin(j, "ceil", dbl, 1, &a);
    else if (mode == 3) a = fbuiltin(j, "floor", dbl, 1, &a);
    gcc_jit_rvalue *flo = gcc_jit_context_new_rvalue_from_double(j->cx, AT, sg ? -ldexp(1.0, (int)w - 1) : 0.0);
    gcc_jit_rvalue *fhi = gcc_jit_context_new_rvalue_from_double(j->cx, AT, ldexp(1.0, sg ? (int)w - 1 : (int)w));
    gcc_jit_rvalue *inr = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_GE, a, flo)),
                              b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, a, fhi)));
    gcc_jit_rvalue *x = blend_by(j, inr, a, gcc_jit_context_new_rvalue_from_double(j->cx, AT, 0.0), AT);
    gcc_jit_rvalue *ge = b2u8(j, cmp(j, GCC_JIT_COMPARISON_GE, a, fhi));
    if (!sg) {
      gcc_jit_rvalue *mx = cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3],
                                    (long)(w == 64 ? ~0ull : (1ull << w) - 1)), T);
      return blend_by(j, ge, mx, cast(j, x, T), T);
    }
    /* signed: below lo the minimum, at or above hi the maximum, which is
     * the minimum less one (modulo 2^w): one blend (two made GCC branch
     * instead of vectorizing the lane loop) */
    gcc_jit_rvalue *mn = cast(j, cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3],
                                           w == 64 ? LONG_MIN : -(long)(1ull << (w - 1))), sscal(j, rt)), T);
    gcc_jit_rvalue *ov = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[0], ge, b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, a, flo)));
    gcc_jit_rvalue *end = bin(j, GCC_JIT_BINARY_OP_MINUS, T, mn, cast(j, ge, T));
    return blend_by(j, ov, end, cast(j, cast(j, x, sscal(j, rt)), T), T);
  }
  case SpvOpBitcast:
    if (an != rn) {
      /* another component count (native_ok: integers and floats of 8 to
       * 64 bits, the same bytes): result component c from its bytes of
       * the source, little-endian */
      uint32_t rb = rt->width / 8, ab = at->width / 8;
      gcc_jit_type *RU = j->t_u[rb == 1 ? 0 : rb == 2 ? 1 : rb == 4 ? 2 : 3];
      gcc_jit_type *AU = j->t_u[ab == 1 ? 0 : ab == 2 ? 1 : ab == 4 ? 2 : 3];
#define BITS_(v) (at->kind == LD_T_FLOAT ? gcc_jit_context_new_bitcast(j->cx, NULL, (v), AU) : cast(j, (v), AU))
      gcc_jit_rvalue *r;
      if (rb > ab) {
        uint32_t ratio = rb / ab;
        r = ci(j, RU, 0);
        for (uint32_t k = 0; k < ratio; k++)
          r = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, RU, r,
                  bin(j, GCC_JIT_BINARY_OP_LSHIFT, RU, cast(j, BITS_(V(j, inst, a0, c * ratio + k)), RU), ci(j, RU, 8 * ab * k)));
      } else {
        uint32_t ratio = ab / rb;
        r = cast(j, bin(j, GCC_JIT_BINARY_OP_RSHIFT, AU, BITS_(V(j, inst, a0, c / ratio)), ci(j, AU, 8 * rb * (c % ratio))), RU);
      }
#undef BITS_
      return rt->kind == LD_T_FLOAT ? gcc_jit_context_new_bitcast(j->cx, NULL, r, T) : cast(j, r, T);
    }
    if (comp_bytes(j->k, at) != comp_bytes(j->k, rt)) {
      failf(j->e, "%s: bitcast changing the component count", ld_insn_where(m, in));
      return ci(j, T, 0);
    }
    if (AT == T) return a;
    if ((rt->kind == LD_T_FLOAT) != (at->kind == LD_T_FLOAT)) return gcc_jit_context_new_bitcast(j->cx, NULL, a, T);
    return cast(j, a, T);
  case SpvOpSelect: {
    const ld_type *ct; uint32_t cn;
    lane_shape(m->values[in->ops[0]].type, &ct, &cn);
    gcc_jit_rvalue *cond = V(j, inst, in->ops[0], cn == 1 ? 0 : c);
    gcc_jit_rvalue *x = V(j, inst, in->ops[1], c), *y = V(j, inst, in->ops[2], c);
    /* branch-free, so the lane loop vectorizes */
    return blend_by(j, cmp(j, GCC_JIT_COMPARISON_NE, cond, ci(j, j->t_u[0], 0)), x, y, T);
  }
  case SpvOpExtInst:   /* OpenCL.std mad: x * y + z, not contracted (as the interpreter) */
    if (in->ext_op == OpenCLstd_Mad && in->n_ops == 5)
      return bin(j, GCC_JIT_BINARY_OP_PLUS, T,
                 bin(j, GCC_JIT_BINARY_OP_MULT, T, V(j, inst, in->ops[2], c), V(j, inst, in->ops[3], c)),
                 V(j, inst, in->ops[4], c));
    return emit_ocl_std(j, inst, in, c, rt, T);
  case SpvOpCompositeExtract: {
    if (in->n_ops != 2) break;
    return V(j, inst, in->ops[0], in->ops[1]);
  }
  case SpvOpCompositeInsert: {
    if (in->n_ops != 3) break;
    return c == in->ops[2] ? V(j, inst, in->ops[0], 0) : V(j, inst, in->ops[1], c);
  }
  case SpvOpCompositeConstruct: {
    uint32_t k = 0;
    for (uint32_t i = 0; i < in->n_ops; i++) {
      const ld_type *et; uint32_t en;
      if (!lane_shape(m->values[in->ops[i]].type, &et, &en)) break;
      if (c < k + en) return V(j, inst, in->ops[i], c - k);
      k += en;
    }
    break;
  }
  case SpvOpVectorShuffle: {
    const ld_type *t1; uint32_t n1;
    lane_shape(m->values[in->ops[0]].type, &t1, &n1);
    uint32_t sidx = in->ops[2 + c];
    if (sidx == 0xFFFFFFFFu) return ci(j, T, 0);
    return sidx < n1 ? V(j, inst, in->ops[0], sidx) : V(j, inst, in->ops[1], sidx - n1);
  }
  default: break;
  }
  failf(j->e, "%s: %s not compiled yet", ld_insn_where(m, in), opname(in->op));
  return ci(j, T, 0);
}

/* A built-in Input variable: every component computed per lane from the
 * work-group values (jit_wgs) and the lane's linear local index. */
void emit_builtin(J *j, uint32_t inst, const ld_insn *in, SpvBuiltIn bi, const ld_type *ct, uint32_t n) {
  gcc_jit_type *U = j->t_u[3], *T = scal(j, ct);
  gcc_jit_rvalue *sgid = cast(j, j->h_sgi, U);   /* only kernel functions load built-ins */
  if (bi >= SpvBuiltInSubgroupEqMask && bi <= SpvBuiltInSubgroupLtMask) {
    /* word c holds lanes k in [32c, 32c+32) of [0, S) with k ==/>=/>/<=/< l */
    gcc_jit_type *SI = j->t_s[3];
    fuse_open(j);
    gcc_jit_rvalue *l = cast(j, L(j), SI);
    for (uint32_t c = 0; c < n; c++) {
      int64_t base = 32 * (int64_t)c;
      /* lowbits(x): the x lowest bits of a word, x clamped to [0, 32] */
      #define LOWBITS(x_) sel(j, cmp(j, GCC_JIT_COMPARISON_LE, (x_), ci(j, SI, 0)), ci(j, U, 0), \
          sel(j, cmp(j, GCC_JIT_COMPARISON_GE, (x_), ci(j, SI, 32)), ci(j, U, 0xffffffffL), \
              bin(j, GCC_JIT_BINARY_OP_MINUS, U, bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, ci(j, U, 1), cast(j, (x_), U)), ci(j, U, 1)), U), U)
      int64_t fulln = (int64_t)j->S - base;
      uint64_t full = fulln <= 0 ? 0 : fulln >= 32 ? 0xffffffffull : (1ull << fulln) - 1;
      gcc_jit_rvalue *x = bin(j, GCC_JIT_BINARY_OP_MINUS, SI, l, ci(j, SI, (long)base));
      gcc_jit_rvalue *x1 = bin(j, GCC_JIT_BINARY_OP_PLUS, SI, x, ci(j, SI, 1));
      gcc_jit_rvalue *v;
      switch (bi) {
      case SpvBuiltInSubgroupEqMask: v = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, LOWBITS(x1), LOWBITS(x)); break;
      case SpvBuiltInSubgroupGeMask:
        v = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, LOWBITS(x), ci(j, U, 0xffffffffL)); break;
      case SpvBuiltInSubgroupGtMask:
        v = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, LOWBITS(x1), ci(j, U, 0xffffffffL)); break;
      case SpvBuiltInSubgroupLeMask: v = LOWBITS(x1); break;
      default: v = LOWBITS(x); break;
      }
      #undef LOWBITS
      v = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, v, ci(j, U, (long)full));
      assign(j, res_lv(j, inst, in->result, c), cast(j, v, T));
    }
    return;
  }
  gcc_jit_lvalue *lidp[3] = {NULL, NULL, NULL};
  bool need_lid = bi == SpvBuiltInGlobalInvocationId || bi == SpvBuiltInLocalInvocationId ||
                  bi == SpvBuiltInGlobalLinearId;
  if (need_lid) {
    gcc_jit_type *u32p = gcc_jit_type_get_pointer(j->t_u[2]);
    gcc_jit_rvalue *cap = R_(wfl(j, j->w_lid_cap));
    gcc_jit_rvalue *first = bin(j, GCC_JIT_BINARY_OP_MULT, U, sgid, ci(j, U, (long)j->S));
    for (int d = 0; d < 3; d++) {
      lidp[d] = local(j, u32p);
      gcc_jit_rvalue *o = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_MULT, U, cap, ci(j, U, d)), first);
      assign(j, lidp[d], gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(wfl(j, j->w_lid)), o), NULL));
    }
  }
  /* k->linear_x: the lanes hold consecutive x local ids and one y and z
   * (jit_launch_linear_x), so lane l's are lane 0's plus (l, 0, 0): one
   * scalar read per component instead of a lane array */
  gcc_jit_lvalue *lid0[3] = {NULL, NULL, NULL};
  if (need_lid && j->k->linear_x)
    for (int d = 0; d < 3; d++) {
      lid0[d] = local(j, U);
      assign(j, lid0[d], cast(j, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(lidp[d]), ci(j, j->t_i32, 0))), U));
    }
#define LID(d_) (lid0[d_] ? ((d_) == 0 ? bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(lid0[0]), cast(j, L(j), U)) : R_(lid0[d_])) \
                          : cast(j, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(lidp[d_]), L(j))), U))
  gcc_jit_lvalue *uni[3] = {NULL, NULL, NULL};   /* lane-invariant part of each component */
  /* the lane-invariant parts first, outside the lane loop (read once, and
   * the loop stays vectorizable: frame stores could alias jit_wgs) */
  for (uint32_t c = 0; c < n; c++) {
    gcc_jit_rvalue *v = NULL;
    gcc_jit_rvalue *gc = R_(arr_at(j, R_(wfl(j, j->w_group)), (int)c));
    switch (bi) {
    case SpvBuiltInGlobalInvocationId:
      v = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_MULT, U, gc, R_(arr_at(j, R_(wfl(j, j->w_local)), (int)c))),
              R_(arr_at(j, R_(wfl(j, j->w_offset)), (int)c)));
      break;
    case SpvBuiltInWorkgroupId: v = gc; break;
    case SpvBuiltInNumWorkgroups: v = R_(arr_at(j, R_(wfl(j, j->w_groups)), (int)c)); break;
    case SpvBuiltInWorkgroupSize: v = R_(arr_at(j, R_(wfl(j, j->w_wsize)), (int)c)); break;
    case SpvBuiltInEnqueuedWorkgroupSize: v = R_(arr_at(j, R_(wfl(j, j->w_local)), (int)c)); break;
    case SpvBuiltInGlobalSize: v = R_(arr_at(j, R_(wfl(j, j->w_global)), (int)c)); break;
    case SpvBuiltInGlobalOffset: v = R_(arr_at(j, R_(wfl(j, j->w_offset)), (int)c)); break;
    case SpvBuiltInSubgroupSize: v = cast(j, ctxf(j, j->c_n_lanes), U); break;
    case SpvBuiltInSubgroupMaxSize: v = ci(j, U, (long)j->S); break;
    case SpvBuiltInNumSubgroups: v = R_(wfl(j, j->w_n_sg)); break;
    case SpvBuiltInNumEnqueuedSubgroups: v = R_(wfl(j, j->w_enq_sg)); break;
    case SpvBuiltInSubgroupId: v = sgid; break;
    case SpvBuiltInWorkDim: v = R_(wfl(j, j->w_dim)); break;
    case SpvBuiltInGlobalLinearId: {
      gcc_jit_lvalue *gb[3];
      for (int d = 0; d < 3; d++) {
        gb[d] = local(j, U);
        assign(j, gb[d], bin(j, GCC_JIT_BINARY_OP_MULT, U, R_(arr_at(j, R_(wfl(j, j->w_group)), d)),
                             R_(arr_at(j, R_(wfl(j, j->w_local)), d))));
      }
      gcc_jit_lvalue *g0 = local(j, U), *g1 = local(j, U);
      assign(j, g0, R_(arr_at(j, R_(wfl(j, j->w_global)), 0)));
      assign(j, g1, R_(arr_at(j, R_(wfl(j, j->w_global)), 1)));
      fuse_open(j);
      gcc_jit_rvalue *x[3];
      for (int d = 0; d < 3; d++) x[d] = bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(gb[d]), LID(d));
      gcc_jit_rvalue *lin = bin(j, GCC_JIT_BINARY_OP_PLUS, U,
          bin(j, GCC_JIT_BINARY_OP_MULT, U, bin(j, GCC_JIT_BINARY_OP_PLUS, U,
              bin(j, GCC_JIT_BINARY_OP_MULT, U, x[2], R_(g1)), x[1]), R_(g0)), x[0]);
      assign(j, res_lv(j, inst, in->result, c), cast(j, lin, T));
      continue;
    }
    default: v = ci(j, U, 0); break;   /* LocalInvocationId, LocalInvocationIndex, SubgroupLocalInvocationId: per lane */
    }
    if (c < 3) { uni[c] = local(j, U); assign(j, uni[c], v); }
  }
  if (bi == SpvBuiltInGlobalLinearId) return;
  bool shd = shadowed(j, inst, in->result);   /* lane 0's value only (shadow_plan) */
  if (shd) shadow_def_begin(j);
  for (uint32_t c = 0; c < n; c++) {
    if (!shd) fuse_open(j);
    gcc_jit_rvalue *lv = c < 3 ? R_(uni[c]) : ci(j, U, 0);
    gcc_jit_rvalue *lane = cast(j, L(j), U);
    if (c < 3 && (bi == SpvBuiltInGlobalInvocationId || bi == SpvBuiltInLocalInvocationId))
      lv = bin(j, GCC_JIT_BINARY_OP_PLUS, U, lv, LID(c));
    else if (bi == SpvBuiltInLocalInvocationIndex)
      lv = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_MULT, U, sgid, ci(j, U, (long)j->S)), lane);
    else if (bi == SpvBuiltInSubgroupLocalInvocationId)
      lv = lane;
    assign(j, shd ? sh_lv(j, inst, in->result, c) : res_lv(j, inst, in->result, c), cast(j, lv, T));
  }
#undef LID
}

/* A select's condition decided from lanes 0 and S - 1: an integer compare
 * of two lane-affine operands (ld_uni_lane_stride) changes its answer at
 * most once across the lanes while neither operand wraps, so the two ends
 * agree exactly when every lane does.  From j->b: *c0 gets lane 0's
 * condition (0 or 1); returns the test "every lane has it" (false also when
 * an operand might wrap: the caller's per-lane path is right either way).
 * NULL: not such a condition. */
static gcc_jit_rvalue *cond_ends(J *j, uint32_t inst, uint32_t cid, gcc_jit_lvalue *c0) {
  const ld_module *m = j->m;
  if (getenv("SPIRV_SG_JIT_NO_CONDENDS") || cid >= m->bound || m->values[cid].kind != LD_V_RESULT) return NULL;
  const ld_insn *in = m->values[cid].u.insn;
  bool sgn = false, eq = false;
  switch (in->op) {
  case SpvOpIEqual: case SpvOpINotEqual: eq = true; break;
  case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpULessThan: case SpvOpULessThanEqual: break;
  case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual: case SpvOpSLessThan: case SpvOpSLessThanEqual:
    sgn = true; break;
  default: return NULL;
  }
  if (in->n_ops != 2) return NULL;
  const ld_type *at; uint32_t an;
  if (!lane_shape(m->values[in->ops[0]].type, &at, &an) || an != 1 || at->kind != LD_T_INT ||
      (at->width != 32 && at->width != 64))
    return NULL;
  int64_t st[2];
  if (!ld_uni_lane_stride(j->lanes, in->ops[0], &st[0]) || !ld_uni_lane_stride(j->lanes, in->ops[1], &st[1]))
    return NULL;
  uint32_t w = at->width;
  uint64_t wm = w == 64 ? ~0ull : (1ull << w) - 1;
  for (int q = 0; q < 2 && w < 64; q++)   /* strides are kept modulo 2^w: as signed w-bit numbers */
    if ((uint64_t)st[q] & (1ull << (w - 1))) st[q] = (int64_t)((uint64_t)st[q] | ~wm);
  gcc_jit_type *UT = scal(j, at), *ST = sscal(j, at);
  gcc_jit_rvalue *ok = gcc_jit_context_new_rvalue_from_int(j->cx, j->t_bool, 1);
  fuse_close(j);
  assign(j, j->lane, ci(j, j->t_i32, 0));
  if (eq) {
    /* the operands' difference is the same in every lane, modulo 2^w */
    if ((((uint64_t)st[0] - (uint64_t)st[1]) & wm) != 0) return NULL;
  } else {
    for (int q = 0; q < 2; q++) {
      if (!st[q]) continue;
      /* D = (S - 1) * |s|, below 2^31: lane 0's bound below fits every width */
      uint64_t as = st[q] < 0 ? (uint64_t)0 - (uint64_t)st[q] : (uint64_t)st[q];
      if (as >= (1ull << 31) / j->S) return NULL;
      uint64_t D = as * (j->S - 1);
      gcc_jit_rvalue *x0 = V(j, inst, in->ops[q], 0), *t;
      if (!sgn)
        t = st[q] > 0 ? cmp(j, GCC_JIT_COMPARISON_LE, cast(j, x0, UT), cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)(wm - D)), UT))
                      : cmp(j, GCC_JIT_COMPARISON_GE, cast(j, x0, UT), cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)D), UT));
      else {
        int64_t smax = (int64_t)(wm >> 1), smin = -smax - 1;
        t = st[q] > 0 ? cmp(j, GCC_JIT_COMPARISON_LE, cast(j, x0, ST), cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)(smax - (int64_t)D)), ST))
                      : cmp(j, GCC_JIT_COMPARISON_GE, cast(j, x0, ST), cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)(smin + (int64_t)D)), ST));
      }
      ok = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, ok, t);
    }
  }
  gcc_jit_type *B = j->t_u[0];
  assign(j, c0, cast(j, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, cid, 0), ci(j, scal(j, in->type), 0)), B));
  if (eq) return ok;
  assign(j, j->lane, ci(j, j->t_i32, (long)j->S - 1));
  gcc_jit_lvalue *cn = local(j, B);
  assign(j, cn, cast(j, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, cid, 0), ci(j, scal(j, in->type), 0)), B));
  assign(j, j->lane, ci(j, j->t_i32, 0));
  return bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, ok, cmp(j, GCC_JIT_COMPARISON_EQ, R_(c0), R_(cn)));
}

/* OpSelect of two integers or pointers with the same lane stride s (i >= 16 ?
 * i - 16 : i), in sg_kernel_full: when every lane's condition is the same,
 * the result is lane 0's pick plus l * s, one vector expression; otherwise
 * the per-lane blend.  GCC compiles the blend of such operands as a scalar
 * loop of branches, which the vector code after it reads back through the
 * stack.  A select recomputed where read (J.rm_on) keeps only the flag.
 * The condition's sameness: from its two end lanes (cond_ends) or a loop
 * over the lanes.  False: not such a select (nothing emitted). */
bool emit_select_uniform(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct, *bt; uint32_t n, bn;
  int64_t sx = 0, sy = 0;
  if (in->op != SpvOpSelect || !j->full || !j->lanes || j->one_lane || in->n_ops < 3 ||
      getenv("SPIRV_SG_JIT_NO_UNISEL"))
    return false;
  if (!lane_shape(in->type, &ct, &n) || n != 1 || (ct->kind != LD_T_INT && ct->kind != LD_T_POINTER) ||
      odd_width(ct) || !value_slot(j, inst, in->result))
    return false;
  if (!lane_shape(m->values[in->ops[0]].type, &bt, &bn) || bn != 1 || shadowed(j, inst, in->ops[0]))
    return false;
  if (!ld_uni_lane_stride(j->lanes, in->ops[1], &sx) || !ld_uni_lane_stride(j->lanes, in->ops[2], &sy) || sx != sy)
    return false;
  gcc_jit_type *T = scal(j, ct), *U = j->t_u[3], *B = j->t_u[0];
  gcc_jit_lvalue *any = local(j, B), *all = local(j, B), *b0 = local(j, U);
  bool rm = remat(j, inst, in->result);
  gcc_jit_rvalue *same = rm || j->sel_flag ? cond_ends(j, inst, in->ops[0], any) : NULL;
  if (!same) {
    fuse_close(j);
    assign(j, any, ci(j, B, 0));
    assign(j, all, ci(j, B, 1));
    jloop lp;
    loop_begin(j, &lp);
    gcc_jit_rvalue *cv = cast(j, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, in->ops[0], 0), ci(j, scal(j, bt), 0)), B);
    assign(j, any, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, B, R_(any), cv));
    assign(j, all, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, B, R_(all), cv));
    loop_end(j, &lp);
    same = cmp(j, GCC_JIT_COMPARISON_EQ, R_(any), R_(all));
  }
  if (j->sel_flag) {   /* kept for cond_stride (J.sel_flag) */
    gcc_jit_lvalue **f = &j->sel_flag[vidx(j, inst, in->result)];
    if (!*f) *f = local(j, j->t_bool);
    assign(j, *f, same);
    same = R_(*f);
    if (rm && j->sel_b0 && !getenv("SPIRV_SG_JIT_NO_SEL_B0")) {
      /* lane 0's pick, for the accesses under the flag (J.sel_b0): any is
       * lane 0's condition wherever the flag holds (not recomputed where
       * read: the uniform block below makes it, b0) */
      gcc_jit_lvalue **bp = &j->sel_b0[vidx(j, inst, in->result)];
      if (!*bp) *bp = local(j, U);
      gcc_jit_block *yes = nb(j), *join = nb(j);
      assign(j, j->lane, ci(j, j->t_i32, 0));
      assign(j, *bp, cast(j, V(j, inst, in->ops[2], 0), U));
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(any), ci(j, B, 0)), yes, join);
      j->b = yes;
      assign(j, *bp, cast(j, V(j, inst, in->ops[1], 0), U));
      gcc_jit_block_end_with_jump(j->b, NULL, join);
      j->b = join;
    }
  }
  if (rm) return true;   /* V() computes the lanes where they are read */
  jloop lp;
  gcc_jit_block *uni = nb(j), *mix = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, same, uni, mix);
  if (j->sel_flag && j->sel_b0 && !getenv("SPIRV_SG_JIT_NO_SEL_B0")) j->sel_b0[vidx(j, inst, in->result)] = b0;
  j->b = uni;
  assign(j, j->lane, ci(j, j->t_i32, 0));
  assign(j, b0, sel(j, cmp(j, GCC_JIT_COMPARISON_NE, R_(any), ci(j, B, 0)),
                    cast(j, V(j, inst, in->ops[1], 0), U), cast(j, V(j, inst, in->ops[2], 0), U), U));
  loop_begin(j, &lp);
  gcc_jit_rvalue *st = cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)sx), U);
  assign(j, res_lv(j, inst, in->result, 0),
         cast(j, bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(b0), bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), st)), T));
  loop_end(j, &lp);
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = mix;
  loop_begin(j, &lp);
  assign(j, res_lv(j, inst, in->result, 0), emit_elementwise(j, inst, in, 0));
  loop_end(j, &lp);
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  return true;
}
