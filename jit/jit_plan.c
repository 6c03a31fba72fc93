/* jit_plan.c - the plan stage: what compiles (native_ok, generic_ok),
 * segments and inlined instances (plan_inst), image and sampler handles,
 * private-memory offsets, the convergence test and the frame layout of the
 * value slots.  See jit.c for the design. */
#include <stdlib.h>
#include <string.h>
#include "spv.h"
#include "jit_plan.h"
#include <spirv/unified1/OpenCL.std.h>

/* Shape of a lane value: component type and count; false if not a lane value. */
/* Integer lane types of 1, 2, 4, 8 bytes standing for aggregates' units
 * (jit_blob_unit) and for events (opaque 8-byte values, as in the
 * interpreter's ip_value_size). */
static const ld_type blob_units[4] = {
  {.kind = LD_T_INT, .size = 1, .align = 1, .width = 8, .n_comp = 1},
  {.kind = LD_T_INT, .size = 2, .align = 2, .width = 16, .n_comp = 1},
  {.kind = LD_T_INT, .size = 4, .align = 4, .width = 32, .n_comp = 1},
  {.kind = LD_T_INT, .size = 8, .align = 8, .width = 64, .n_comp = 1}};

bool lane_shape(const ld_type *t, const ld_type **comp, uint32_t *n) {
  *comp = t;   /* defined even when t is not a lane value */
  *n = 1;
  if (!t) return false;
  switch (t->kind) {
  case LD_T_STRUCT: case LD_T_ARRAY: {
    uint32_t u = jit_blob_unit(t);
    if (!u) return false;
    *comp = &blob_units[u == 8 ? 3 : u == 4 ? 2 : u == 2 ? 1 : 0];
    *n = t->size / u;
    return true;
  }
  case LD_T_EVENT:
    *comp = &blob_units[3]; return true;
  case LD_T_BOOL: case LD_T_INT: case LD_T_POINTER:
    *comp = t; *n = 1; return true;
  case LD_T_FLOAT:
    if (t->width != 16 && t->width != 32 && t->width != 64) return false;
    *comp = t; *n = 1; return true;
  case LD_T_VECTOR:
    if (!t->elem || t->elem->kind == LD_T_VECTOR || t->count == 0 || t->count > 16) return false;
    if (t->elem->kind == LD_T_FLOAT && t->elem->width != 16 && t->elem->width != 32 && t->elem->width != 64) return false;
    *comp = t->elem; *n = t->count; return true;
  default:
    return false;
  }
}

static int32_t new_seg(jit_kernel *k, uint32_t inst, const ld_block *b, uint32_t first) {
  if (k->n_seg == k->cap_seg) {
    uint32_t nc = k->cap_seg ? k->cap_seg * 2 : 64;
    jit_seg *ns = realloc(k->seg, nc * sizeof *ns);
    if (!ns) return -1;
    k->seg = ns;
    k->cap_seg = nc;
  }
  jit_seg *s = &k->seg[k->n_seg];
  memset(s, 0, sizeof *s);
  s->inst = inst;
  s->blk = b;
  s->first = first;
  s->n_succ = -1;
  s->rpc = -1;
  return (int32_t)k->n_seg++;
}

bool is_wg_barrier(const ld_module *m, const ld_insn *in) {
  if (in->op != SpvOpControlBarrier || in->n_ops < 1) return false;
  const ld_value *v = &m->values[in->ops[0]];
  if (v->kind != LD_V_CONSTANT) return true;
  uint32_t scope;
  memcpy(&scope, v->u.bytes, 4);
  return scope != SpvScopeSubgroup;
}

static bool builtin_supported(int32_t b) {
  switch (b) {
  case SpvBuiltInGlobalInvocationId: case SpvBuiltInLocalInvocationId:
  case SpvBuiltInWorkgroupId: case SpvBuiltInNumWorkgroups: case SpvBuiltInWorkgroupSize:
  case SpvBuiltInEnqueuedWorkgroupSize: case SpvBuiltInGlobalSize: case SpvBuiltInGlobalOffset:
  case SpvBuiltInGlobalLinearId: case SpvBuiltInLocalInvocationIndex:
  case SpvBuiltInSubgroupSize: case SpvBuiltInSubgroupMaxSize: case SpvBuiltInNumSubgroups:
  case SpvBuiltInNumEnqueuedSubgroups: case SpvBuiltInSubgroupId:
  case SpvBuiltInSubgroupLocalInvocationId: case SpvBuiltInWorkDim:
  case SpvBuiltInSubgroupEqMask: case SpvBuiltInSubgroupGeMask: case SpvBuiltInSubgroupGtMask:
  case SpvBuiltInSubgroupLeMask: case SpvBuiltInSubgroupLtMask:
    return true;
  default:
    return false;
  }
}

/* Operations the lowering compiles inline (the plan checks operand shapes
 * loosely; the code generator rejects the rest).  Everything else that the
 * interpreter executes per instruction goes through rt_interp (generic_ok). */
static bool native_ok_(const ld_module *m, const ld_insn *in, plan_err *e);
/* True if the result carries a decoration that changes a conversion's
 * semantics (FPRoundingMode, SaturatedConversion): such instructions run the
 * interpreter's handler, which implements both exactly. */
static bool has_conversion_decoration(const ld_module *m, uint32_t id) {
  if (!id) return false;
  for (uint32_t i = 0; i < m->n_decorations; i++) {
    const ld_decoration *d = &m->decorations[i];
    if (d->target == id && d->member < 0 &&
        (d->decoration == SpvDecorationFPRoundingMode || d->decoration == SpvDecorationSaturatedConversion))
      return true;
  }
  return false;
}

/* A conversion's decorations, as interp/exec_arith.c reads them: *mode the
 * FPRoundingMode (0 RTE, 1 RTZ, 2 RTP, 3 RTN; -1 none or another value,
 * which the interpreter ignores), *sat SaturatedConversion. */
void conv_decorations(const ld_module *m, uint32_t id, int *mode, bool *sat) {
  bool seen = false;
  *mode = -1;
  *sat = false;
  for (uint32_t i = 0; id && i < m->n_decorations; i++) {
    const ld_decoration *d = &m->decorations[i];
    if (d->target != id || d->member >= 0) continue;
    if (d->decoration == SpvDecorationSaturatedConversion) *sat = true;
    if (d->decoration == SpvDecorationFPRoundingMode && !seen) {   /* the first one, as find_decoration */
      uint32_t v = d->n_literals ? d->literals[0] : 0;
      *mode = v <= 3 ? (int)v : -1;
      seen = true;
    }
  }
}

/* The libm function of an OpenCL.std float built-in that the interpreter
 * computes with exactly that function (interp/exec_ocl.c: fmath's U and B;
 * the half_ and native_ forms are the full-precision function there), as
 * its float name ("expf"; the double one drops the f) and its operand
 * count; NULL: none.  lgamma is not here: it writes signgam, a global. */
const char *ocl_libm(uint32_t op, int *n) {
  static const struct { uint16_t op; uint8_t n; const char *name; } T_[] = {
    {OpenCLstd_Acos, 1, "acosf"}, {OpenCLstd_Acosh, 1, "acoshf"}, {OpenCLstd_Asin, 1, "asinf"},
    {OpenCLstd_Asinh, 1, "asinhf"}, {OpenCLstd_Atan, 1, "atanf"}, {OpenCLstd_Atan2, 2, "atan2f"},
    {OpenCLstd_Atanh, 1, "atanhf"}, {OpenCLstd_Cbrt, 1, "cbrtf"}, {OpenCLstd_Cos, 1, "cosf"},
    {OpenCLstd_Half_cos, 1, "cosf"}, {OpenCLstd_Native_cos, 1, "cosf"}, {OpenCLstd_Cosh, 1, "coshf"},
    {OpenCLstd_Erfc, 1, "erfcf"}, {OpenCLstd_Erf, 1, "erff"}, {OpenCLstd_Exp, 1, "expf"},
    {OpenCLstd_Half_exp, 1, "expf"}, {OpenCLstd_Native_exp, 1, "expf"}, {OpenCLstd_Exp2, 1, "exp2f"},
    {OpenCLstd_Half_exp2, 1, "exp2f"}, {OpenCLstd_Native_exp2, 1, "exp2f"}, {OpenCLstd_Exp10, 1, "exp10f"},
    {OpenCLstd_Half_exp10, 1, "exp10f"}, {OpenCLstd_Native_exp10, 1, "exp10f"}, {OpenCLstd_Expm1, 1, "expm1f"},
    {OpenCLstd_Fdim, 2, "fdimf"},
    {OpenCLstd_Fmod, 2, "fmodf"}, {OpenCLstd_Hypot, 2, "hypotf"}, {OpenCLstd_Log, 1, "logf"},
    {OpenCLstd_Half_log, 1, "logf"}, {OpenCLstd_Native_log, 1, "logf"}, {OpenCLstd_Log2, 1, "log2f"},
    {OpenCLstd_Half_log2, 1, "log2f"}, {OpenCLstd_Native_log2, 1, "log2f"}, {OpenCLstd_Log10, 1, "log10f"},
    {OpenCLstd_Half_log10, 1, "log10f"}, {OpenCLstd_Native_log10, 1, "log10f"}, {OpenCLstd_Log1p, 1, "log1pf"},
    {OpenCLstd_Logb, 1, "logbf"}, {OpenCLstd_Pow, 2, "powf"}, {OpenCLstd_Remainder, 2, "remainderf"},
    {OpenCLstd_Round, 1, "roundf"}, {OpenCLstd_Sin, 1, "sinf"}, {OpenCLstd_Half_sin, 1, "sinf"},
    {OpenCLstd_Native_sin, 1, "sinf"}, {OpenCLstd_Sinh, 1, "sinhf"}, {OpenCLstd_Tan, 1, "tanf"},
    {OpenCLstd_Half_tan, 1, "tanf"}, {OpenCLstd_Native_tan, 1, "tanf"}, {OpenCLstd_Tanh, 1, "tanhf"},
    {OpenCLstd_Tgamma, 1, "tgammaf"},
  };
  for (size_t q = 0; q < sizeof T_ / sizeof *T_; q++)
    if (T_[q].op == op) { *n = T_[q].n; return T_[q].name; }
  return NULL;
}

/* The OpenCL.std instructions emit_ocl_std compiles: float (32, 64 bits)
 * fabs, sqrt, floor, ceil, trunc, rint, fma, copysign, fmin, fmax, min, max,
 * clamp; integer (8 to 64 bits) s/u min, max, clamp, abs, popcount, mul24,
 * mad24, and mul_hi of 32 bits; the float functions of ocl_libm (calls).
 * Every operand of the result's component type (scalar operands of vector
 * results: clamp's bounds) and no half. */
static bool ocl_std_native(const ld_module *m, const ld_insn *in) {
  const ld_type *rt; uint32_t rn;
  if (in->ext_set != LD_EXT_OPENCL_STD || !lane_shape(in->type, &rt, &rn) || in->n_ops < 3) return false;
  uint32_t na = in->n_ops - 2, want;
  bool fl = rt->kind == LD_T_FLOAT && (rt->width == 32 || rt->width == 64);
  bool it = rt->kind == LD_T_INT && (rt->width == 8 || rt->width == 16 || rt->width == 32 || rt->width == 64);
  switch (in->ext_op) {
  case OpenCLstd_Shuffle: case OpenCLstd_Shuffle2: {
    /* inputs of the result's component type (2 to 16 components), the
     * mask integers of 8 to 64 bits, one per result component (emit_ocl_std) */
    bool two = in->ext_op == OpenCLstd_Shuffle2;
    const ld_type *t0, *t1, *tk; uint32_t n0, n1, nk;
    uint32_t mk = in->ops[two ? 4 : 3];
    if ((!fl && !it) || na != (two ? 3u : 2u) || in->ops[2] >= m->bound || mk >= m->bound ||
        !lane_shape(m->values[in->ops[2]].type, &t0, &n0) || !lane_shape(m->values[mk].type, &tk, &nk) ||
        t0 != rt || nk != rn || rn < 2 || tk->kind != LD_T_INT ||
        (tk->width != 8 && tk->width != 16 && tk->width != 32 && tk->width != 64))
      return false;
    if (two && (in->ops[3] >= m->bound || !lane_shape(m->values[in->ops[3]].type, &t1, &n1) || t1 != rt || n1 != n0))
      return false;
    return n0 >= 2;
  }
  case OpenCLstd_Select: {
    /* a, b of the result's type; k integers of 8 to 64 bits, one per
     * component (emit_ocl_std) */
    const ld_type *t0, *t1, *tk; uint32_t n0, n1, nk;
    if ((!fl && !it) || na != 3 || in->ops[2] >= m->bound || in->ops[3] >= m->bound || in->ops[4] >= m->bound ||
        !lane_shape(m->values[in->ops[2]].type, &t0, &n0) || !lane_shape(m->values[in->ops[3]].type, &t1, &n1) ||
        !lane_shape(m->values[in->ops[4]].type, &tk, &nk))
      return false;
    return t0 == rt && t1 == rt && n0 == rn && n1 == rn && nk == rn && tk->kind == LD_T_INT &&
           (tk->width == 8 || tk->width == 16 || tk->width == 32 || tk->width == 64);
  }
  case OpenCLstd_Length: case OpenCLstd_Fast_length: case OpenCLstd_Distance: case OpenCLstd_Fast_distance:
  case OpenCLstd_Normalize: case OpenCLstd_Fast_normalize: case OpenCLstd_Cross: {
    /* float or double operands of 1 to 4 components (cross: 3 or 4), of the
     * result's shape for normalize and cross, scalar results otherwise
     * (emit_geometric) */
    bool two = in->ext_op != OpenCLstd_Length && in->ext_op != OpenCLstd_Fast_length &&
               in->ext_op != OpenCLstd_Normalize && in->ext_op != OpenCLstd_Fast_normalize;
    const ld_type *t0, *t1; uint32_t n0, n1;
    if (!fl || na != (two ? 2u : 1u) || in->ops[2] >= m->bound || !lane_shape(m->values[in->ops[2]].type, &t0, &n0) ||
        t0 != rt || n0 > 4)
      return false;
    if (two && (in->ops[3] >= m->bound || !lane_shape(m->values[in->ops[3]].type, &t1, &n1) || t1 != rt || n1 != n0))
      return false;
    bool vec_res = in->ext_op == OpenCLstd_Normalize || in->ext_op == OpenCLstd_Fast_normalize ||
                   in->ext_op == OpenCLstd_Cross;
    if (vec_res ? rn != n0 : rn != 1) return false;
    return in->ext_op != OpenCLstd_Cross || n0 == 3 || n0 == 4;
  }
  case OpenCLstd_Fabs: case OpenCLstd_Sqrt: case OpenCLstd_Floor: case OpenCLstd_Ceil: case OpenCLstd_Trunc:
  case OpenCLstd_Rint:
    if (!fl) return false;
    want = 1; break;
  case OpenCLstd_Copysign: case OpenCLstd_Fmin: case OpenCLstd_Fmax: case OpenCLstd_FMin_common:
  case OpenCLstd_FMax_common:
    if (!fl) return false;
    want = 2; break;
  case OpenCLstd_Fma: case OpenCLstd_FClamp: if (!fl) return false; want = 3; break;
  case OpenCLstd_Bitselect: if (!fl && !it) return false; want = 3; break;
  case OpenCLstd_SAbs: case OpenCLstd_UAbs: case OpenCLstd_Popcount: if (!it) return false; want = 1; break;
  case OpenCLstd_SMax: case OpenCLstd_SMin: case OpenCLstd_UMax: case OpenCLstd_UMin: case OpenCLstd_UMul24:
  case OpenCLstd_SMul24:
    if (!it) return false;
    want = 2; break;
  case OpenCLstd_UMul_hi: case OpenCLstd_SMul_hi: if (!it || rt->width != 32) return false; want = 2; break;
  case OpenCLstd_SClamp: case OpenCLstd_UClamp: case OpenCLstd_UMad24: case OpenCLstd_SMad24:
    if (!it) return false;
    want = 3; break;
  default: {
    int n;
    if (!fl || !ocl_libm(in->ext_op, &n) || in->ext_op >= 128) return false;   /* a libm call (emit_ocl_std) */
    want = (uint32_t)n;
    break;
  }
  }
  if (na != want) return false;
  for (uint32_t k = 0; k < na; k++) {
    const ld_type *t; uint32_t n;
    if (in->ops[2 + k] >= m->bound || !lane_shape(m->values[in->ops[2 + k]].type, &t, &n) || t != rt ||
        (n != rn && n != 1))
      return false;
  }
  return true;
}

bool native_ok(const ld_module *m, const ld_insn *in) {
  char buf[8];
  plan_err e = {buf, sizeof buf, false};
  if (has_conversion_decoration(m, in->result)) {
    /* float to integer in any rounding mode (always saturating), integer
     * to integer saturating; emit_elementwise applies them */
    int mode; bool sat;
    conv_decorations(m, in->result, &mode, &sat);
    bool fi = in->op == SpvOpConvertFToS || in->op == SpvOpConvertFToU;
    bool ii = (in->op == SpvOpSConvert || in->op == SpvOpUConvert) && mode < 0;
    if (!fi && !ii) return false;
    if (ii && (!in->type || !in->type->comp || in->type->comp->kind != LD_T_INT ||
               (in->type->comp->width != 8 && in->type->comp->width != 16 && in->type->comp->width != 32 &&
                in->type->comp->width != 64)))
      return false;
  }
  switch (in->op) {   /* pure data movement: fine on half containers */
  case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpCompositeConstruct:
    /* members of an aggregate: the interpreter's handler */
    if (jit_blob_unit(in->type) || (in->n_ops > 0 && jit_blob_unit(m->values[in->ops[0]].type)) ||
        (in->op == SpvOpCompositeInsert && in->n_ops > 1 && jit_blob_unit(m->values[in->ops[1]].type)))
      return false;
    break;
  case SpvOpLoad: case SpvOpStore: case SpvOpPhi: case SpvOpSelect: case SpvOpCopyObject:
  case SpvOpVectorShuffle:
    break;
  case SpvOpBitcast: {
    const ld_type *at, *rt; uint32_t an, rn;
    if (!lane_shape(in->type, &rt, &rn) || !lane_shape(m->values[in->ops[0]].type, &at, &an)) return false;
    if (an != rn) {
      /* as_int2(long) and the like: integers and floats (not half) of 8
       * to 64 bits, no 3-component vector, the same bytes
       * (emit_elementwise) */
      bool ok = true;
      const ld_type *t[2] = {at, rt};
      for (int q = 0; q < 2; q++)
        ok = ok && (t[q]->kind == LD_T_INT || (t[q]->kind == LD_T_FLOAT && t[q]->width != 16)) &&
             (t[q]->width == 8 || t[q]->width == 16 || t[q]->width == 32 || t[q]->width == 64);
      if (!ok || an == 3 || rn == 3 || an * at->width != rn * rt->width) return false;
    }
    break;
  }
  default:
    if (is_half(in->type)) return false;
    for (uint32_t i = 0; i < in->n_ops && i < 4; i++)
      if (in->ops[i] < m->bound && is_half(m->values[in->ops[i]].type) &&
          m->values[in->ops[i]].kind != LD_V_TYPE) return false;
  }
  if (in->n_ops > 0 && in->ops[0] < m->bound) {
    const ld_type *at = m->values[in->ops[0]].type;
    if (at && at->kind == LD_T_INT && at->width != 8 && at->width != 16 && at->width != 32 && at->width != 64 &&
        in->op != SpvOpUConvert && in->op != SpvOpIEqual && in->op != SpvOpINotEqual &&
        in->op != SpvOpCopyObject && in->op != SpvOpBitwiseAnd && in->op != SpvOpBitwiseOr &&
        in->op != SpvOpBitwiseXor && in->op != SpvOpULessThan && in->op != SpvOpUGreaterThan &&
        in->op != SpvOpSwitch && in->op != SpvOpPhi && in->op != SpvOpStore && in->op != SpvOpSelect &&
        in->op != SpvOpLoad)
      return false;
  }
  return native_ok_(m, in, &e);
}

/* Group-scope operations the generic path must not take (rendezvous). */
bool wg_scoped(const ld_module *m, const ld_insn *in) {
  bool grp = (in->op >= SpvOpGroupAsyncCopy && in->op <= SpvOpGroupSMax && in->op != SpvOpGroupWaitEvents) ||
             (in->op >= SpvOpGroupNonUniformElect && in->op <= SpvOpGroupNonUniformQuadSwap) ||
             in->op == SpvOpGroupNonUniformRotateKHR;
  if (!grp || in->n_ops < 1) return false;
  bool ok = true;
  uint32_t scope = const_u32(m, in->ops[0], &ok);
  return !ok || scope != SpvScopeSubgroup;
}

static bool generic_ok(const ld_module *m, const ld_insn *in, const ld_function *kernel_fn, plan_err *e) {
  switch (in->op) {
  case SpvOpVariable: case SpvOpFunctionCall: case SpvOpPhi: case SpvOpControlBarrier:
  case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
  case SpvOpReturnValue: case SpvOpKill: case SpvOpUnreachable: case SpvOpLabel:
    return failf(e, "%s: %s not compiled yet", ld_insn_where(m, in), opname(in->op));
  default: break;
  }
  const ld_type *c; uint32_t n;
  if (in->result && in->type && in->type->kind != LD_T_VOID && !lane_shape(in->type, &c, &n))
    return failf(e, "%s: result of unsupported type (kind %d)", ld_insn_where(m, in), (int)in->type->kind);
  uint32_t first = in->op == SpvOpExtInst ? 2 : 0;
  for (uint32_t i = first; i < in->n_ops; i++) {
    uint32_t id = in->ops[i];
    if (id >= m->bound) continue;
    const ld_value *v = &m->values[id];
    if (v->kind != LD_V_RESULT && v->kind != LD_V_PARAM) continue;
    if (v->owner == NULL) continue;
    if (v->kind == LD_V_RESULT && v->u.insn->op == SpvOpVariable) continue;
    /* an image or sampler kernel argument: the handler reads it from the
     * packed arguments (jit_run.c: xfer) */
    (void)kernel_fn;   /* inlined functions' handle parameters are resolved at the call (plan_inst) */
    if (is_handle(v->type))
      continue;   /* a parameter, or a load planning resolves (plan_handle_load) */
    if (!v->type || !lane_shape(v->type, &c, &n))
      return failf(e, "%s: operand of unsupported type (kind %d)", ld_insn_where(m, in),
                   v->type ? (int)v->type->kind : -1);
  }
  return true;
}

static bool op_supported(const ld_module *m, const ld_insn *in, const ld_function *kernel_fn, plan_err *e) {
  if (native_ok(m, in)) return true;
  return generic_ok(m, in, kernel_fn, e);
}

static bool native_ok_(const ld_module *m, const ld_insn *in, plan_err *e) {
  switch (in->op) {
  case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
  case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpMemoryBarrier: case SpvOpControlBarrier:
  case SpvOpPhi: case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch:
  case SpvOpReturn: case SpvOpReturnValue: case SpvOpFunctionCall: case SpvOpUnreachable:
  case SpvOpLoad: case SpvOpStore: case SpvOpVariable:
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpSNegate: case SpvOpNot:
  case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFNegate:
  case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
  case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
  case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual:
  case SpvOpULessThan: case SpvOpULessThanEqual: case SpvOpSGreaterThan:
  case SpvOpSGreaterThanEqual: case SpvOpSLessThan: case SpvOpSLessThanEqual:
  case SpvOpFOrdEqual: case SpvOpFOrdNotEqual: case SpvOpFOrdLessThan: case SpvOpFOrdGreaterThan:
  case SpvOpFOrdLessThanEqual: case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordEqual:
  case SpvOpFUnordNotEqual: case SpvOpFUnordLessThan: case SpvOpFUnordGreaterThan:
  case SpvOpFUnordLessThanEqual: case SpvOpFUnordGreaterThanEqual:
  case SpvOpIsNan: case SpvOpIsInf: case SpvOpIsFinite: case SpvOpIsNormal: case SpvOpSignBitSet:
  case SpvOpOrdered: case SpvOpUnordered: case SpvOpLessOrGreater:
  case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot: case SpvOpLogicalEqual:
  case SpvOpLogicalNotEqual: case SpvOpSelect:
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpConvertUToF:
  case SpvOpConvertSToF: case SpvOpBitcast: case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
  case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr: case SpvOpPtrEqual: case SpvOpPtrNotEqual:
  case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpCompositeConstruct:
  case SpvOpVectorShuffle: case SpvOpCopyObject:
    return true;
  case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: {
    /* integers of 8 to 64 bits, the operands of the result's shape (jit_emit.c:
     * idiv_check sends a lane's fault to the handler) */
    const ld_type *rt, *t0, *t1; uint32_t rn, n0, n1;
    return lane_shape(in->type, &rt, &rn) && in->n_ops == 2 && in->ops[0] < m->bound && in->ops[1] < m->bound &&
           lane_shape(m->values[in->ops[0]].type, &t0, &n0) && lane_shape(m->values[in->ops[1]].type, &t1, &n1) &&
           rt->kind == LD_T_INT && t0 == rt && t1 == rt && n0 == rn && n1 == rn && rn <= 16 &&
           (rt->width == 8 || rt->width == 16 || rt->width == 32 || rt->width == 64);
  }
  case SpvOpDot: {   /* float or double vectors (emit_elementwise) */
    const ld_type *rt, *t0, *t1; uint32_t rn, n0, n1;
    return lane_shape(in->type, &rt, &rn) && rn == 1 && rt->kind == LD_T_FLOAT && (rt->width == 32 || rt->width == 64) &&
           in->n_ops == 2 && in->ops[0] < m->bound && in->ops[1] < m->bound &&
           lane_shape(m->values[in->ops[0]].type, &t0, &n0) && lane_shape(m->values[in->ops[1]].type, &t1, &n1) &&
           t0 == rt && t1 == rt && n0 == n1 && n0 >= 2 && n0 <= 16;
  }
  case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic: {
    /* vectors of 8- to 64-bit integers, floats or doubles; any integer index */
    bool ins = in->op == SpvOpVectorInsertDynamic;
    const ld_type *vt = in->n_ops >= 2 && in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
    uint32_t ix = in->n_ops >= 2 ? in->ops[ins ? 2 : 1] : 0;
    const ld_type *it = ix && ix < m->bound ? m->values[ix].type : NULL;
    const ld_type *ct = vt && vt->kind == LD_T_VECTOR ? vt->comp : NULL;
    if (!ct || !it || it->kind != LD_T_INT || in->n_ops != (ins ? 3u : 2u) || vt->count < 2 || vt->count > 16 ||
        (ct->kind != LD_T_INT && ct->kind != LD_T_FLOAT) || is_half(ct) ||
        (ct->width != 8 && ct->width != 16 && ct->width != 32 && ct->width != 64))
      return false;
    if (ins && (in->ops[1] >= m->bound || m->values[in->ops[1]].type != ct || in->type != vt)) return false;
    return ins || in->type == ct;
  }
  case SpvOpAny: case SpvOpAll: {   /* a bool vector (emit_elementwise) */
    const ld_type *t0; uint32_t n0;
    return in->n_ops == 1 && in->ops[0] < m->bound && lane_shape(m->values[in->ops[0]].type, &t0, &n0) &&
           t0->kind == LD_T_BOOL && n0 >= 1 && n0 <= 16;
  }
  case SpvOpGenericCastToPtrExplicit:   /* to_global, to_local, to_private (emit_elementwise) */
    return in->n_ops == 2 && (in->ops[1] == SpvStorageClassCrossWorkgroup || in->ops[1] == SpvStorageClassWorkgroup ||
                              in->ops[1] == SpvStorageClassFunction);
  case SpvOpSatConvertSToU: case SpvOpSatConvertUToS: {   /* integers of 8 to 64 bits (emit_elementwise) */
    const ld_type *rt, *at; uint32_t rn, an;
    return lane_shape(in->type, &rt, &rn) && in->n_ops == 1 && in->ops[0] < m->bound &&
           lane_shape(m->values[in->ops[0]].type, &at, &an) && rn == an && at->kind == LD_T_INT && rt->kind == LD_T_INT &&
           (at->width == 8 || at->width == 16 || at->width == 32 || at->width == 64) &&
           (rt->width == 8 || rt->width == 16 || rt->width == 32 || rt->width == 64);
  }
  case SpvOpBitCount: {   /* an integer of 8 to 64 bits (emit_elementwise: popcount) */
    const ld_type *rt, *at; uint32_t rn, an;
    return lane_shape(in->type, &rt, &rn) && in->n_ops == 1 && in->ops[0] < m->bound &&
           lane_shape(m->values[in->ops[0]].type, &at, &an) && rn == an && at->kind == LD_T_INT && rt->kind == LD_T_INT &&
           (at->width == 8 || at->width == 16 || at->width == 32 || at->width == 64);
  }
  case SpvOpConvertFToU: case SpvOpConvertFToS: {
    /* float or double to an integer of 8, 16, 32 or 64 bits, rounding
     * toward zero and saturating (emit_elementwise); half and odd widths:
     * the interpreter's handler */
    const ld_type *rt, *at; uint32_t rn, an;
    if (!lane_shape(in->type, &rt, &rn) || in->n_ops < 1 || in->ops[0] >= m->bound ||
        !lane_shape(m->values[in->ops[0]].type, &at, &an) || rn != an || rt->kind != LD_T_INT ||
        (rt->width != 8 && rt->width != 16 && rt->width != 32 && rt->width != 64) || at->kind != LD_T_FLOAT ||
        (at->width != 32 && at->width != 64))
      return false;
    return true;
  }
  case SpvOpGroupIAdd: case SpvOpGroupFAdd: case SpvOpGroupFMin: case SpvOpGroupUMin:
  case SpvOpGroupSMin: case SpvOpGroupFMax: case SpvOpGroupUMax: case SpvOpGroupSMax:
  case SpvOpGroupNonUniformIAdd: case SpvOpGroupNonUniformFAdd: case SpvOpGroupNonUniformIMul:
  case SpvOpGroupNonUniformFMul: case SpvOpGroupNonUniformSMin: case SpvOpGroupNonUniformUMin:
  case SpvOpGroupNonUniformFMin: case SpvOpGroupNonUniformSMax: case SpvOpGroupNonUniformUMax:
  case SpvOpGroupNonUniformFMax: case SpvOpGroupNonUniformBitwiseAnd:
  case SpvOpGroupNonUniformBitwiseOr: case SpvOpGroupNonUniformBitwiseXor:
  case SpvOpGroupNonUniformLogicalAnd: case SpvOpGroupNonUniformLogicalOr:
  case SpvOpGroupNonUniformLogicalXor: {
    bool ok = true;
    uint32_t scope = const_u32(m, in->ops[0], &ok);
    if (!ok || scope != SpvScopeSubgroup)
      return failf(e, "%s: group operation not at Subgroup scope", ld_insn_where(m, in));
    uint32_t gop = in->ops[1];
    /* ClusteredReduce of a non-uniform operation (jit_emit_subgroup.c:
     * emit_group_fold; a cluster size that is not a constant power of two
     * up to the subgroup size runs the handler, which reports it) */
    bool clustered = gop == SpvGroupOperationClusteredReduce && in->op >= SpvOpGroupNonUniformIAdd;
    if (gop != SpvGroupOperationReduce && gop != SpvGroupOperationInclusiveScan &&
        gop != SpvGroupOperationExclusiveScan && !clustered)
      return failf(e, "%s: group operation %u not compiled yet", ld_insn_where(m, in), gop);
    const ld_type *c; uint32_t n;
    if (!lane_shape(in->type, &c, &n) || n != 1)
      return failf(e, "%s: vector group operation not compiled yet", ld_insn_where(m, in));
    return true;
  }
  case SpvOpExtInst:
    if (in->ext_set == LD_EXT_OPENCL_DEBUGINFO_100 || in->ext_set == LD_EXT_NONSEMANTIC) return true;
    if (ocl_std_native(m, in)) return true;
    if (in->ext_set == LD_EXT_OPENCL_STD && in->ext_op == OpenCLstd_Mad && in->n_ops == 5 &&
        in->type && !is_half(in->type) &&
        (in->type->kind == LD_T_FLOAT || (in->type->kind == LD_T_VECTOR && in->type->elem->kind == LD_T_FLOAT)))
      return true;
    return failf(e, "%s: OpExtInst %u not compiled yet", ld_insn_where(m, in), in->ext_op);
  default:
    return failf(e, "%s: %s not compiled yet", ld_insn_where(m, in), opname(in->op));
  }
}

uint32_t add_insn_index(jit_kernel *k, const ld_insn *in) {
  if (k->n_insns == k->cap_insns) {
    uint32_t nc = k->cap_insns ? k->cap_insns * 2 : 256;
    const ld_insn **ni = realloc(k->insns, nc * sizeof *ni);
    if (!ni) return 0;
    k->insns = ni;
    uint32_t *nn = realloc(k->insn_inst, nc * sizeof *nn);
    if (!nn) return 0;
    k->insn_inst = nn;
    k->cap_insns = nc;
  }
  k->insns[k->n_insns] = in;
  k->insn_inst[k->n_insns] = 0;
  return k->n_insns++;
}

/* The kernel argument behind handle value id of instance inst, or -1. */
static int32_t handle_arg(const jit_kernel *k, uint32_t inst, uint32_t id) {
  const ld_value *v = &k->m->values[id];
  if (v->kind != LD_V_PARAM && v->kind != LD_V_RESULT) return -1;
  if (inst == 0 && v->kind == LD_V_PARAM) {
    const ld_function *kf = k->k->fn;
    for (uint32_t a = 0; a < kf->n_params; a++) if (kf->params[a] == id) return (int32_t)a;
    return -1;
  }
  for (uint32_t q = 0; q < k->n_handles; q++)
    if (k->handles[q].inst == inst && k->handles[q].id == id) return (int32_t)k->handles[q].arg;
  return -1;
}

/* A call's image and sampler arguments: each must be a kernel argument
 * (possibly passed down through callers); recorded for the callee instance. */
static bool plan_handles(jit_kernel *k, uint32_t caller, const ld_insn *call, const ld_function *callee,
                         uint32_t callee_inst, plan_err *e) {
  for (uint32_t a = 0; a < callee->n_params && a + 1 < call->n_ops; a++) {
    if (!is_handle(k->m->values[callee->params[a]].type)) continue;
    int32_t arg = handle_arg(k, caller, call->ops[1 + a]);
    if (arg < 0) return failf(e, "%s: image or sampler argument that is not a kernel argument", ld_insn_where(k->m, call));
    if (k->n_handles >= 64) return failf(e, "more than 64 image or sampler parameters");
    k->handles[k->n_handles].inst = callee_inst;
    k->handles[k->n_handles].id = callee->params[a];
    k->handles[k->n_handles].arg = (uint32_t)arg;
    k->n_handles++;
  }
  return true;
}

/* True if id is one of in's id operands (literal operands do not count). */
typedef struct { const uint32_t *ops; uint32_t id; bool hit; } use_q;
static void use_cb(void *u_, uint32_t w, spv_operand_class cls) {
  use_q *u = u_;
  if (cls == SPV_OPND_ID && u->ops[w] == u->id) u->hit = true;
}
static bool insn_uses(const ld_insn *in, uint32_t id) {
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  if (!d) {   /* unknown opcode: any matching word counts */
    for (uint32_t q = 0; q < in->n_ops; q++) if (in->ops[q] == id) return true;
    return false;
  }
  uint16_t skip = (uint16_t)(d->has_type + d->has_result);
  use_q u = {in->ops, id, false};
  if (!spv_walk_operands(in->ops, in->n_ops, 0, d->operands + skip, (uint16_t)(d->n_operands - skip), use_cb, &u))
    for (uint32_t q = 0; q < in->n_ops; q++) if (in->ops[q] == id) return true;
  return u.hit;
}

/* An image or sampler loaded from a Function variable (clang -O0 keeps
 * handle arguments in such variables): resolved to the kernel argument when
 * the variable is only stored to and loaded from, every store storing the
 * same resolvable handle.  The loads and stores then emit nothing. */
static bool plan_handle_load(jit_kernel *k, uint32_t inst, const ld_function *fn, const ld_insn *load,
                             plan_err *e) {
  const ld_module *m = k->m;
  uint32_t var = load->ops[0];
  const ld_value *vv = &m->values[var];
  int32_t arg = -1;
  bool ok = vv->kind == LD_V_RESULT && vv->u.insn->op == SpvOpVariable;
  for (uint32_t b = 0; ok && b < fn->n_blocks; b++)
    for (uint32_t i = 0; ok && i < fn->blocks[b].n_insns; i++) {
      const ld_insn *in = &fn->blocks[b].insns[i];
      if (in->op == SpvOpLoad && in->ops[0] == var) continue;
      if (in->op == SpvOpStore && in->ops[0] == var && in->n_ops >= 2) {
        int32_t a = handle_arg(k, inst, in->ops[1]);
        if (a < 0 || (arg >= 0 && a != arg)) ok = false;
        arg = a;
        continue;
      }
      if (in->op == SpvOpLifetimeStart || in->op == SpvOpLifetimeStop) continue;
      if (insn_uses(in, var)) ok = false;
    }
  if (!ok || arg < 0)
    return failf(e, "%s: image or sampler loaded from a variable that does not hold one kernel argument",
                 ld_insn_where(m, load));
  if (k->n_handles >= 64) return failf(e, "more than 64 image or sampler parameters");
  k->handles[k->n_handles].inst = inst;
  k->handles[k->n_handles].id = load->result;
  k->handles[k->n_handles].arg = (uint32_t)arg;
  k->n_handles++;
  return true;
}

/* A load or store of an image or sampler (plan_handle_load). */
bool handle_ldst(const ld_module *m, const ld_insn *in) {
  if (in->op == SpvOpLoad) return is_handle(in->type);
  if (in->op == SpvOpStore && in->n_ops >= 2 && in->ops[1] < m->bound) return is_handle(m->values[in->ops[1]].type);
  return false;
}

int32_t plan_inst(jit_kernel *k, const ld_function *fn, uint32_t parent, int32_t cont,
                  plan_err *e) {
  const ld_module *m = k->m;
  if (fn->is_import || fn->n_blocks == 0)
    return failf(e, "call to imported function %s", fn->name ? fn->name : "?"), -1;
  if (fn->max_call_depth == UINT32_MAX)
    return failf(e, "recursive function %s", fn->name ? fn->name : "?"), -1;
  if (k->n_inst >= JIT_MAX_INST) return failf(e, "more than %u inlined calls", JIT_MAX_INST), -1;
  uint32_t ii = k->n_inst++;
  jit_inst *I = &k->inst[ii];
  I->fn = fn;
  I->parent = parent;
  I->cont = cont;
  I->block_seg = calloc(fn->n_blocks, sizeof(int32_t));
  I->term_seg = calloc(fn->n_blocks, sizeof(int32_t));
  if (!I->block_seg || !I->term_seg) return failf(e, "out of memory"), -1;
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    I->block_seg[b] = I->term_seg[b] = -1;
    if (!fn->blocks[b].reachable && b != 0) continue;
    I->block_seg[b] = new_seg(k, ii, &fn->blocks[b], 0);
  }
  /* Private memory: this instance's Function variables. */
  uint64_t priv = (k->priv_bytes + 15) & ~(uint64_t)15;
  k->inst[ii].priv_off = priv;
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    const ld_block *blk = &fn->blocks[b];
    if (k->inst[ii].block_seg[b] < 0) continue;
    int32_t cur = k->inst[ii].block_seg[b];
    for (uint32_t i = 0; i < blk->n_insns; i++) {
      const ld_insn *in = &blk->insns[i];
      if (!op_supported(m, in, k->k->fn, e)) return -1;
      if (in->op == SpvOpVariable) {
        if (in->n_ops > 1) return failf(e, "%s: OpVariable with initializer", ld_insn_where(m, in)), -1;
        const ld_type *pt = in->type && in->type->elem ? in->type->elem : NULL;
        if (!pt || !pt->size) return failf(e, "%s: OpVariable of unsized type", ld_insn_where(m, in)), -1;
        uint32_t al = pt->align ? pt->align : 1;
        priv = (priv + al - 1) / al * al + pt->size;
      }
      if (in->op == SpvOpLoad && is_handle(in->type) && !plan_handle_load(k, ii, fn, in, e)) return -1;
      if (in->op == SpvOpLoad) {
        const ld_value *pv = &m->values[in->ops[0]];
        if (pv->kind == LD_V_VARIABLE && pv->u.var->storage == SpvStorageClassInput) {
          const ld_variable *var = pv->u.var;
          if (!builtin_supported(var->builtin))
            return failf(e, "%s: built-in %d not compiled yet", ld_insn_where(m, in), var->builtin), -1;
          const ld_type *c; uint32_t n;
          if (!lane_shape(var->pointee, &c, &n) || n > 4) return failf(e, "built-in of odd type"), -1;
        }
      }
      if (in->op == SpvOpFunctionCall) {
        int32_t next = new_seg(k, ii, blk, i + 1);
        const ld_value *cv = &m->values[in->ops[0]];
        if (cv->kind != LD_V_FUNCTION) return failf(e, "call of a non-function"), -1;
        if (!plan_handles(k, ii, in, cv->u.fn, k->n_inst, e)) return -1;
        k->priv_bytes = priv;
        if (plan_inst(k, cv->u.fn, ii, next, e) < 0) return -1;
        priv = k->priv_bytes;
        cur = next;
      } else if (is_wg_barrier(m, in) || wg_scoped(m, in)) {
        /* a work-group rendezvous: the subgroup suspends here and resumes at
         * the next segment (a collective's results are fetched there) */
        int32_t next = new_seg(k, ii, blk, i + 1);
        k->seg[cur].n_succ = 1;
        k->seg[cur].succ[0] = next;
        k->seg[next].after_wgc = true;
        cur = next;
      }
    }
    k->inst[ii].term_seg[b] = cur;
    jit_seg *s = &k->seg[cur];
    if (blk->n_succs > 64) return failf(e, "switch with more than 64 targets"), -1;
    s->n_succ = (int32_t)blk->n_succs;
    for (uint32_t q = 0; q < blk->n_succs; q++) {
      int32_t t = k->inst[ii].block_seg[blk->succs[q]->index];
      if (t < 0) return failf(e, "branch to an unreachable block"), -1;
      s->succ[q] = t;
    }
    s->rpc = blk->reconverge ? k->inst[ii].block_seg[blk->reconverge->index] : cont;
  }
  k->priv_bytes = priv;
  return (int32_t)ii;
}
bool enum_slots(jit_kernel *k, slot_cb cb, void *u, plan_err *e) {
  const ld_module *m = k->m;
  for (uint32_t ii = 0; ii < k->n_inst; ii++) {
    const ld_function *fn = k->inst[ii].fn;
    if (ii > 0)
      for (uint32_t p = 0; p < fn->n_params; p++)
        if (!is_handle(m->values[fn->params[p]].type)) cb(u, ii, fn->params[p], false, m->values[fn->params[p]].type);
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      if (k->inst[ii].block_seg[b] < 0) continue;
      const ld_block *blk = &fn->blocks[b];
      for (uint32_t i = 0; i < blk->n_insns; i++) {
        const ld_insn *in = &blk->insns[i];
        if (!in->result || !in->type || in->op == SpvOpVariable) continue;
        if (in->op == SpvOpExtInst &&
            (in->ext_set == LD_EXT_OPENCL_DEBUGINFO_100 || in->ext_set == LD_EXT_NONSEMANTIC)) continue;
        if (in->type->kind == LD_T_VOID) continue;
        if (in->op == SpvOpLoad && is_handle(in->type)) continue;   /* plan_handle_load */
        const ld_type *ct; uint32_t n;
        if (!lane_shape(in->type, &ct, &n))
          return failf(e, "%s: value of unsupported type (kind %d)", ld_insn_where(m, in), (int)in->type->kind);
        cb(u, ii, in->result, false, in->type);
        bool grp_ref = (in->op >= SpvOpGroupFMin && in->op <= SpvOpGroupSMax) ||
                       (in->op >= SpvOpGroupNonUniformIMul && in->op <= SpvOpGroupNonUniformLogicalXor &&
                        in->op != SpvOpGroupNonUniformFAdd);
        if ((in->op == SpvOpPhi && blk->n_phis > 1) || grp_ref) cb(u, ii, in->result, true, in->type);
      }
    }
  }
  return true;
}
void layout_cb(void *u_, uint32_t inst, uint32_t id, bool tmp, const ld_type *t) {
  layout_u *u = u_;
  const ld_type *ct; uint32_t n;
  lane_shape(t, &ct, &n);
  uint32_t cb = comp_bytes(u->k, ct);
  u->off = (u->off + cb - 1) / cb * cb;
  if (!tmp && u->k->slot_off) u->k->slot_off[(size_t)inst * u->k->m->bound + id] = (uint32_t)u->off;
  u->off += (uint64_t)cb * n * u->k->S;
}

/* An empty block (only an OpBranch, and line information) that the head
 * blk alone enters and that goes on to blk's reconvergence point: clang's
 * split critical edge (`if (i < n) ...` before a barrier), or a jump-threaded
 * arm that only feeds phis.  The lanes that skip the then-block pass through
 * it with nothing to run, so they go straight to the reconvergence point,
 * whose phis take the bridge's operands for lanes that come from the head
 * (emit_phis). */
static bool ifc_bridge(const ld_block *blk, const ld_block *E) {
  const ld_block *R = blk->reconverge;
  if (E == blk || E == R || E->n_phis || E->n_preds != 1 || E->preds[0] != blk || E->n_succs != 1 ||
      E->succs[0] != R || getenv("SPIRV_SG_JIT_NO_IFC_BRIDGE"))
    return false;
  for (uint32_t i = 0; i + 1 < E->n_insns; i++)
    if (E->insns[i].op != SpvOpLine && E->insns[i].op != SpvOpNoLine && E->insns[i].op != SpvOpNop) return false;
  return E->insns[E->n_insns - 1].op == SpvOpBranch;
}

/* No call, barrier or work-group collective in blk: it stays one segment
 * and runs inside the compiled code (if-converted arms, masked regions). */
static bool plain_block(const jit_kernel *k, const ld_block *blk) {
  for (uint32_t i = 0; i < blk->n_insns; i++) {
    const ld_insn *in = &blk->insns[i];
    if (in->op == SpvOpFunctionCall || in->op == SpvOpControlBarrier || wg_scoped(k->m, in)) return false;
  }
  return true;
}

/* One arm of an if-converted head blk: entered only from blk, no phis, no
 * call, barrier or work-group collective (one segment), and an OpBranch
 * straight to blk's reconvergence point R. */
static bool ifc_arm(const jit_kernel *k, const ld_block *blk, const ld_block *T, const ld_block *R) {
  if (T == blk || T == R || T->n_preds != 1 || T->preds[0] != blk || T->n_phis) return false;
  if (T->n_succs != 1 || T->succs[0] != R || T->insns[T->n_insns - 1].op != SpvOpBranch) return false;
  return plain_block(k, T);
}

/* If-conversion: the then-block T of head blk when blk ends with a two-way
 * branch, T is an arm (ifc_arm) and the other target is blk's
 * reconvergence point, an empty bridge block on the way there (*bridge) or
 * an arm of its own, the else-block (*els), which runs after T under the
 * other lanes; NULL otherwise.  *which: T's successor index in the
 * terminator. */
static const ld_block *ifc_then_block(const jit_kernel *k, const ld_block *blk, uint8_t *which,
                                      const ld_block **bridge, const ld_block **els) {
  const ld_insn *t = &blk->insns[blk->n_insns - 1];
  *bridge = *els = NULL;
  if (t->op != SpvOpBranchConditional || blk->n_succs != 2 || !blk->reconverge) return NULL;
  for (uint8_t q = 0; q < 2; q++) {
    const ld_block *T = blk->succs[q], *M = blk->succs[1 - q], *R = blk->reconverge;
    if (!ifc_arm(k, blk, T, R)) continue;
    if (M != R) {
      if (ifc_bridge(blk, M)) *bridge = M;
      else if (ifc_arm(k, blk, M, R) && !getenv("SPIRV_SG_JIT_NO_IFC_ELSE")) *els = M;
      else continue;
    }
    /* terminator order: the successor index of T in the branch */
    *which = t->ops[1] == T->label ? 0 : 1;
    return T;
  }
  return NULL;
}

/* An instruction of a masked loop's exit chain: arithmetic that reads
 * and writes only its own lane and records nothing (no integer division,
 * whose diagnostics group the lanes that run it together). */
static bool chain_insn_ok(const ld_insn *in) {
  switch (in->op) {
  case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpPhi: case SpvOpCopyObject:
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFNegate:
  case SpvOpSNegate: case SpvOpNot: case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
  case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
  case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpULessThan:
  case SpvOpULessThanEqual: case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual: case SpvOpSLessThan:
  case SpvOpSLessThanEqual: case SpvOpFOrdEqual: case SpvOpFOrdNotEqual: case SpvOpFOrdLessThan:
  case SpvOpFOrdGreaterThan: case SpvOpFOrdLessThanEqual: case SpvOpFOrdGreaterThanEqual: case SpvOpSelect:
  case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot: case SpvOpUConvert: case SpvOpSConvert:
  case SpvOpConvertUToF: case SpvOpConvertSToF: case SpvOpFConvert: case SpvOpBitcast:
    break;
  default:
    return false;
  }
  const ld_type *ct; uint32_t n;
  return !in->result || (in->type && lane_shape(in->type, &ct, &n));
}

/* A varying branch of region R's block blk that if-conversion takes
 * (ifc_then_block) with its arms and reconvergence point inside R: it
 * runs under the lanes its branch splits from the region's. */
static bool inner_ifc(const jit_kernel *k, const uint8_t *R, const ld_block *blk) {
  uint8_t which;
  const ld_block *E = NULL, *F = NULL;
  const ld_block *T = ifc_then_block(k, blk, &which, &E, &F);
  const ld_block *O = E ? E : F;
  return T && R[T->index] && (!O || R[O->index]) && blk->reconverge && R[blk->reconverge->index] &&
         !getenv("SPIRV_SG_JIT_NO_MLOOP_IFC");
}
/* The blocks of a candidate region, B (one byte per block of instance
 * ii's function): each one segment, no call, barrier or work-group
 * collective, ending in OpBranch or OpBranchConditional; a region found
 * before (nested) lies in B whole, its exit block in B or X.  A varying
 * branch of B's own blocks must leave for T (the region's exit) and
 * reconverge there, or be if-converted inside (inner_ifc, within Bi: the
 * loop's blocks, or B); the branches of nested regions and their guards are
 * theirs. */
static bool region_blocks_ok(const jit_kernel *k, const ld_uniformity *u, uint32_t ii, const uint8_t *B,
                             const uint8_t *Bi, const ld_block *T, const ld_block *X) {
  const jit_inst *I = &k->inst[ii];
  const ld_function *fn = I->fn;
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    if (!B[b]) continue;
    const ld_block *blk = &fn->blocks[b];
    int32_t s = I->block_seg[b];
    if (s < 0 || s != I->term_seg[b] || !blk->n_insns || !blk->reachable || !plain_block(k, blk)) return false;
    SpvOp t = blk->insns[blk->n_insns - 1].op;
    if (t != SpvOpBranch && t != SpvOpBranchConditional) return false;
    uint8_t r = ml_top(k, k->seg[s].mloop);
    if (r) {   /* a nested region: whole in B, its exit in B or X */
      int32_t rx = k->mloops[r - 1].x;
      if (!B[k->seg[rx].blk->index] && k->seg[rx].blk != X) return false;
      for (uint32_t q = 0; q < k->n_seg; q++)
        if (k->seg[q].inst == ii && ml_in(k, r, (int32_t)q) && !B[k->seg[q].blk->index]) return false;
      continue;
    }
    if (k->seg[s].ifc == IFC_MGUARD || !ld_uni_branch_varies(u, blk)) continue;
    if (Bi[b] && inner_ifc(k, Bi, blk)) continue;
    if (!Bi[b] || blk->n_succs != 2 || blk->reconverge != T || (blk->succs[0] != T && blk->succs[1] != T)) return false;
  }
  return true;
}
/* Makes B region number n (its own blocks; nested regions get it as
 * parent) entered at E, left for X (XE: the loop's exit, see plan_mloops). */
static void region_add(jit_kernel *k, uint32_t ii, const uint8_t *B, const ld_block *E, const ld_block *X,
                       const ld_block *XE, const int32_t *guards, uint32_t n_guard, bool gdiv) {
  const jit_inst *I = &k->inst[ii];
  uint32_t n = k->n_mloops++;
  k->mloops[n].h = I->block_seg[E->index];
  k->mloops[n].x = I->block_seg[X->index];
  k->mloops[n].xe = I->block_seg[XE->index];
  k->mloops[n].parent = 0;
  k->mloops[n].gdiv = gdiv;
  for (uint32_t b = 0; b < I->fn->n_blocks; b++) {
    if (!B[b]) continue;
    jit_seg *sg = &k->seg[I->block_seg[b]];
    uint8_t r = ml_top(k, sg->mloop);
    if (!r) sg->mloop = (uint8_t)(n + 1);
    else if (r != n + 1) k->mloops[r - 1].parent = (uint8_t)(n + 1);
  }
  for (uint32_t g = 0; g < n_guard; g++) {
    jit_seg *gs = &k->seg[guards[g]];
    gs->ifc = IFC_MGUARD;
    gs->ifc_then = gs->succ[0] == k->mloops[n].h ? 0 : 1;
  }
}

/* Masked loops (jit_kernel.mloops).  A natural loop of instance ii (its
 * header H, not the function's first block, and the blocks that reach one
 * of H's back edges without passing H) whose branches vary: each varying
 * branch leaves the loop, every edge out of it goes to one block X, which is
 * the reconvergence point of each varying branch, and its blocks are one
 * segment each (no call, barrier or work-group collective) ending in
 * OpBranch or OpBranchConditional.  The interpreter's stack runs such a loop
 * as one entry whose lanes drop out as they leave, every trip in lockstep,
 * the leavers waiting at X: the compiled loop runs under the word of the
 * lanes still in it (J.cur_tw) and the top entry holds the same word.  At
 * most 64 lanes.  Regions nest: inner loops are taken first (by size), and
 * a region found earlier may lie whole inside a later one, whose lanes it
 * then splits (jit_kernel.mloops[].parent).  SPIRV_SG_JIT_NO_MLOOP=1: none
 * (the kernel is not convergent then); SPIRV_SG_JIT_NO_MLOOP_NEST=1: no
 * region inside another. */
/* The natural loop of header H into B (one byte per block, cleared
 * first): H and the blocks that reach one of its back edges without
 * passing H.  Returns its block count, 0 when H heads no loop. */
static uint32_t natural_loop(const ld_block *H, uint32_t nb, uint8_t *B, const ld_block **stk) {
  uint32_t sp = 0, n = 1;
  bool back = false;
  memset(B, 0, nb);
  B[H->index] = 1;
  for (uint32_t p = 0; p < H->n_preds; p++) {
    const ld_block *P = H->preds[p];
    if (!P->reachable || !ld_dominates(H, P)) continue;
    back = true;   /* a back edge (P == H: a loop of one block) */
    if (!B[P->index]) { B[P->index] = 1; stk[sp++] = P; n++; }
  }
  if (!back) return 0;
  while (sp) {
    const ld_block *x = stk[--sp];
    for (uint32_t p = 0; p < x->n_preds; p++) {
      const ld_block *P = x->preds[p];
      if (P->reachable && !B[P->index]) { B[P->index] = 1; stk[sp++] = P; n++; }
    }
  }
  return n;
}
static uint32_t plan_loops_pass(jit_kernel *k, const ld_uniformity *u, uint32_t ii, uint8_t *B,
                                const ld_block **stk) {
  const jit_inst *I = &k->inst[ii];
  const ld_function *fn = I->fn;
  uint32_t nb = fn->n_blocks, added = 0;
  bool nest = !getenv("SPIRV_SG_JIT_NO_MLOOP_NEST");
  /* the loop headers, smallest loop first (an inner loop before its outer) */
  uint32_t *hs = malloc(nb * sizeof *hs), *sz = calloc(nb, sizeof *sz), nh = 0;
  if (!hs || !sz) { free(hs); free(sz); return 0; }
  for (uint32_t h = 1; h < nb; h++) {
    const ld_block *H = &fn->blocks[h];
    if (!H->reachable || I->block_seg[h] < 0 || k->seg[I->block_seg[h]].mloop) continue;
    if ((sz[h] = natural_loop(H, nb, B, stk))) hs[nh++] = h;
  }
  for (uint32_t a = 1; a < nh; a++)   /* insertion sort by loop size */
    for (uint32_t c = a; c > 0 && sz[hs[c]] < sz[hs[c - 1]]; c--) { uint32_t t = hs[c]; hs[c] = hs[c - 1]; hs[c - 1] = t; }
  for (uint32_t hi = 0; hi < nh && k->n_mloops < JIT_MAX_MLOOP; hi++) {
    uint32_t h = hs[hi];
    const ld_block *H = &fn->blocks[h];
    if (k->seg[I->block_seg[h]].mloop) continue;
    natural_loop(H, nb, B, stk);
    /* X: the one block every edge out of the loop goes to; the loop's own
     * branches vary somewhere */
    bool ok = true, varies = false;
    const ld_block *X = NULL;
    for (uint32_t b = 0; ok && b < nb; b++) {
      if (!B[b]) continue;
      const ld_block *blk = &fn->blocks[b];
      int32_t s = I->block_seg[b];
      if (s < 0) { ok = false; break; }
      if (k->seg[s].mloop && !nest) ok = false;
      for (uint32_t q = 0; ok && q < blk->n_succs; q++) {
        const ld_block *S = blk->succs[q];
        if (B[S->index]) continue;
        if (X && X != S) ok = false;
        X = S;
      }
      varies = varies || (ld_uni_branch_varies(u, blk) && !k->seg[s].mloop);
    }
    if (!ok || !varies || !X || I->block_seg[X->index] < 0) continue;
    /* the loop's exit target XE may begin a chain of blocks that only the
     * loop's lanes reach, one after the other, of plain arithmetic (no
     * memory access, no diagnostic): part of the region, run under the
     * lanes that entered it once every lane has left the loop; X is then
     * the block after the chain */
    const ld_block *XE = X;
    uint8_t *L = malloc(nb);   /* the loop's own blocks */
    if (!L) break;
    memcpy(L, B, nb);
    for (;;) {
      bool only = X->n_preds > 0 && X->n_succs == 1 && X->index != 0 && I->block_seg[X->index] >= 0 &&
                  I->block_seg[X->index] == I->term_seg[X->index] && !k->seg[I->block_seg[X->index]].mloop &&
                  X->insns[X->n_insns - 1].op == SpvOpBranch && (X == XE || !X->n_phis) && !B[X->succs[0]->index];
      for (uint32_t p = 0; only && p < X->n_preds; p++)
        if (X->preds[p]->reachable && !B[X->preds[p]->index]) only = false;
      for (uint32_t i = 0; only && i + 1 < X->n_insns; i++) only = chain_insn_ok(&X->insns[i]);
      if (!only || getenv("SPIRV_SG_JIT_NO_MLOOP_CHAIN")) break;
      B[X->index] = 1;
      X = X->succs[0];
    }
    /* each varying branch leaves the loop for XE, where it reconverges */
    ok = region_blocks_ok(k, u, ii, B, L, XE, X);
    free(L);
    if (!ok) continue;
    /* the entry E: H, or the first block of the chain of blocks with one
     * predecessor and one successor that leads to it (a preheader) */
    const ld_block *E = H;
    for (;;) {
      const ld_block *P = NULL;
      uint32_t n_out = 0;
      for (uint32_t p = 0; p < E->n_preds; p++)
        if (E->preds[p]->reachable && !B[E->preds[p]->index]) { P = E->preds[p]; n_out++; }
      if (n_out != 1 || P->n_succs != 1 || P->n_preds != 1 || P->index == 0 || I->block_seg[P->index] < 0 ||
          I->block_seg[P->index] != I->term_seg[P->index] || k->seg[I->block_seg[P->index]].mloop ||
          k->seg[I->block_seg[P->index]].ifc || P->insns[P->n_insns - 1].op != SpvOpBranch || !plain_block(k, P))
        break;
      B[P->index] = 1;
      E = P;
    }
    /* the edges into E: a uniform branch (every lane here enters), or a
     * varying one between E and X that reconverges at X (a guard: the lanes
     * taking E enter, the others wait at X); a guard where only some lanes
     * run must lie in the region this one nests in (mloops_ok) */
    int32_t guards[8];
    uint32_t n_guard = 0;
    bool gdiv = false;
    for (uint32_t p = 0; ok && p < E->n_preds; p++) {
      const ld_block *P = E->preds[p];
      if (!P->reachable || B[P->index]) continue;
      int32_t ts = I->term_seg[P->index];
      if (ts < 0) { ok = false; break; }
      if (!ld_uni_branch_varies(u, P)) continue;
      if (P->n_succs != 2 || P->reconverge != X || (P->succs[0] != X && P->succs[1] != X) ||
          (ld_uni_block_divergent(u, P, NULL) && !nest) || k->seg[ts].ifc || n_guard == 8 ||
          P->insns[P->n_insns - 1].op != SpvOpBranchConditional)
        ok = false;
      else {
        gdiv = gdiv || ld_uni_block_divergent(u, P, NULL);
        guards[n_guard++] = ts;
      }
    }
    if (!ok) continue;
    region_add(k, ii, B, E, X, XE, guards, n_guard, gdiv);
    added++;
  }
  free(hs);
  free(sz);
  return added;
}
/* Regions without a loop of their own (or with one): a varying branch
 * of guard P between its reconvergence point X and a block E that only P
 * enters; the region is every block reached from E before X, whose
 * varying branches all go to X and reconverge there (an early-exit
 * staircase, a loop clang unrolled whole; a then-part of several blocks).
 * A then-part of one block is left to if-conversion. */
static uint32_t plan_guards_pass(jit_kernel *k, const ld_uniformity *u, uint32_t ii, uint8_t *B,
                                 const ld_block **stk) {
  const jit_inst *I = &k->inst[ii];
  const ld_function *fn = I->fn;
  uint32_t nb = fn->n_blocks, added = 0;
  bool nest = !getenv("SPIRV_SG_JIT_NO_MLOOP_NEST");
  if (getenv("SPIRV_SG_JIT_NO_MREGION")) return 0;
  for (uint32_t pb = 0; pb < nb && k->n_mloops < JIT_MAX_MLOOP; pb++) {
    const ld_block *P = &fn->blocks[pb];
    int32_t ps = I->term_seg[pb];
    if (!P->reachable || ps < 0 || I->block_seg[pb] < 0 || k->seg[ps].mloop || k->seg[ps].ifc ||
        !ld_uni_branch_varies(u, P) || ld_uni_block_divergent(u, P, NULL) || P->n_succs != 2 || !P->reconverge ||
        P->insns[P->n_insns - 1].op != SpvOpBranchConditional)
      continue;
    const ld_block *X = P->reconverge, *E = P->succs[0] == X ? P->succs[1] : P->succs[1] == X ? P->succs[0] : NULL;
    if (!E || E == X || E->index == 0 || E->n_preds != 1 || I->block_seg[X->index] < 0 || I->block_seg[E->index] < 0 ||
        k->seg[I->block_seg[E->index]].mloop)
      continue;
    memset(B, 0, nb);
    uint32_t sp = 0, nblk = 0;
    bool ok = true;
    B[E->index] = 1;
    stk[sp++] = E;
    while (ok && sp) {
      const ld_block *b = stk[--sp];
      nblk++;
      if (b->index == 0 || I->block_seg[b->index] < 0 || (k->seg[I->block_seg[b->index]].mloop && !nest)) { ok = false; break; }
      for (uint32_t q = 0; ok && q < b->n_succs; q++) {
        const ld_block *S = b->succs[q];
        if (S == X || B[S->index]) continue;
        if (S == P) { ok = false; break; }
        B[S->index] = 1;
        stk[sp++] = S;
      }
    }
    /* one way in: every block's predecessors in the region, E's only P */
    for (uint32_t b = 0; ok && b < nb; b++) {
      if (!B[b]) continue;
      const ld_block *blk = &fn->blocks[b];
      for (uint32_t p = 0; ok && p < blk->n_preds; p++)
        if (blk->preds[p]->reachable && !B[blk->preds[p]->index] && !(blk == E && blk->preds[p] == P)) ok = false;
    }
    ok = ok && region_blocks_ok(k, u, ii, B, B, X, X);
    if (!ok || (nblk == 1 && E->insns[E->n_insns - 1].op == SpvOpBranch)) continue;
    int32_t g = ps;
    region_add(k, ii, B, E, X, X, &g, 1, false);
    added++;
  }
  return added;
}
static void plan_mloops(jit_kernel *k, const ld_uniformity *u, uint32_t ii) {
  const ld_function *fn = k->inst[ii].fn;
  uint32_t nb = fn->n_blocks;
  if (k->S > 64 || nb < 2 || getenv("SPIRV_SG_JIT_NO_MLOOP")) return;
  uint8_t *B = calloc(nb, 1);
  const ld_block **stk = malloc(nb * sizeof *stk);
  /* loops, then guarded regions, again while either finds more: a region
   * found in one round may be what lets an enclosing one qualify */
  for (int round = 0; B && stk && round < 4; round++)
    if (!plan_loops_pass(k, u, ii, B, stk) + !plan_guards_pass(k, u, ii, B, stk) == 2) break;
  free(B);
  free(stk);
}

/* After if-conversion, for every region: its exit block lies in no region
 * (nested: in its parent, or is its parent's exit too) and heads none; the
 * edges into its header come from outside every region (nested: from its
 * parent) and from no if-converted or bridge block (their lanes are the
 * arm's, not the head's); a guard where only some lanes run lies in the
 * parent. */
static bool mloops_ok(const jit_kernel *k) {
  for (uint32_t l = 0; l < k->n_mloops; l++) {
    uint8_t par = k->mloops[l].parent;
    int32_t x = k->mloops[l].x;
    for (uint32_t q = 0; q < k->n_mloops; q++)
      if (k->mloops[q].h == x) return false;
    if (!par && k->seg[x].mloop) return false;
    if (par && !ml_in(k, par, x) && x != k->mloops[par - 1].x) return false;
    const jit_seg *h = &k->seg[k->mloops[l].h];
    const jit_inst *I = &k->inst[h->inst];
    for (uint32_t p = 0; p < h->blk->n_preds; p++) {
      int32_t ts = I->term_seg[h->blk->preds[p]->index];
      if (ts < 0 || ml_in(k, (uint8_t)(l + 1), ts)) continue;
      if (k->seg[ts].ifc != IFC_NONE && k->seg[ts].ifc != IFC_HEAD && k->seg[ts].ifc != IFC_MGUARD) return false;
      if (!par && k->seg[ts].mloop) return false;
      if (par && !ml_in(k, par, ts)) return false;
      if (k->seg[ts].ifc == IFC_MGUARD && k->mloops[l].gdiv && !par) return false;
    }
  }
  return true;
}

/* Convergent kernels: no reachable block of any instance is divergent and no
 * branch varies (the loader's uniformity analysis, with loads through
 * private pointers varying), except for if-then shapes (ifc_then_block)
 * whose then-block runs predicated (jit_seg.ifc).  Their lanes never split
 * otherwise, so the code needs no SIMT stack work: branches follow lane 0,
 * calls and returns are jumps.  SPIRV_SG_JIT_CONV=0 turns it off (for
 * comparisons); SPIRV_SG_JIT_CONV=force turns it on for every kernel without
 * calls to the interpreter's branch helper, to test the divergence check
 * (tests/jit_conv). */
bool plan_convergent(jit_kernel *k) {
  const char *env = getenv("SPIRV_SG_JIT_CONV");
  if (env && !strcmp(env, "0")) return false;
  if (env && !strcmp(env, "force")) return true;
  ld_uniformity *u = ld_uniformity_compute(k->m, LD_UNI_PRIVATE_VARIES);
  if (!u) return false;
  bool ok = true;
  k->n_mloops = 0;
  for (uint32_t ii = 0; ok && ii < k->n_inst; ii++) {
    const jit_inst *I = &k->inst[ii];
    const ld_function *fn = I->fn;
    plan_mloops(k, u, ii);
    /* heads first: their then-blocks may be divergent */
    for (uint32_t b = 0; ok && b < fn->n_blocks; b++) {
      const ld_block *blk = &fn->blocks[b];
      if (I->block_seg[b] < 0 || !ld_uni_branch_varies(u, blk) || k->seg[I->term_seg[b]].ifc == IFC_MGUARD) continue;
      uint8_t ml = k->seg[I->term_seg[b]].mloop;
      if (ml) {   /* a masked region's exit, or a then-block inside it (inner_ifc) */
        int32_t xs = k->mloops[ml - 1].xe, x = k->mloops[ml - 1].x;
        bool exit = false;
        for (uint32_t q = 0; q < blk->n_succs; q++) {
          int32_t sq = I->block_seg[blk->succs[q]->index];
          if (sq == xs || sq == x) exit = true;
        }
        if (exit) continue;
      }
      uint8_t which = 0;
      const ld_block *E = NULL, *F = NULL;
      const ld_block *T = ifc_then_block(k, blk, &which, &E, &F);
      const ld_block *O = E ? E : F;   /* the other arm's block, if any */
      if (!T || (ld_uni_block_divergent(u, blk, NULL) && !ml) || I->block_seg[T->index] < 0 ||
          I->block_seg[T->index] != I->term_seg[T->index] ||
          (O && (I->block_seg[O->index] < 0 || I->block_seg[O->index] != I->term_seg[O->index]))) { ok = false; break; }
      k->seg[I->term_seg[b]].ifc = IFC_HEAD;
      k->seg[I->term_seg[b]].ifc_then = which;
      k->seg[I->block_seg[T->index]].ifc = IFC_THEN;
      if (O) k->seg[I->block_seg[O->index]].ifc = E ? IFC_BRIDGE : IFC_ELSE;
    }
    for (uint32_t b = 0; ok && b < fn->n_blocks; b++) {
      if (I->block_seg[b] < 0) continue;
      const ld_block *blk = &fn->blocks[b];
      uint8_t f = k->seg[I->block_seg[b]].ifc;
      if (ld_uni_block_divergent(u, blk, NULL) && f != IFC_THEN && f != IFC_ELSE && f != IFC_BRIDGE &&
          !k->seg[I->block_seg[b]].mloop)
        ok = false;
      if (ld_uni_branch_varies(u, blk) && k->seg[I->term_seg[b]].ifc != IFC_HEAD &&
          k->seg[I->term_seg[b]].ifc != IFC_MGUARD && !k->seg[I->term_seg[b]].mloop)
        ok = false;
    }
  }
  ld_uniformity_free(u);
  ok = ok && mloops_ok(k);
  if (!ok) {
    for (uint32_t s = 0; s < k->n_seg; s++) k->seg[s].ifc = k->seg[s].mloop = 0;
    k->n_mloops = 0;
  }
  return ok;
}

/* Function variable offsets (per instance, the plan's order) and frame
 * offsets of every value field (the gccjit struct has the same C layout). */
bool plan_offsets(jit_kernel *k, plan_err *e) {
  size_t nslots = (size_t)k->n_inst * k->m->bound;
  k->privoff = calloc(nslots ? nslots : 1, sizeof *k->privoff);
  k->slot_off = malloc((nslots ? nslots : 1) * sizeof *k->slot_off);
  if (!k->privoff || !k->slot_off) return failf(e, "out of memory");
  memset(k->slot_off, 0xff, nslots * sizeof *k->slot_off);
  for (uint32_t ii = 0; ii < k->n_inst; ii++) {
    uint64_t priv = k->inst[ii].priv_off;
    const ld_function *fn = k->inst[ii].fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      if (k->inst[ii].block_seg[b] < 0) continue;
      for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
        const ld_insn *in = &fn->blocks[b].insns[i];
        if (in->op != SpvOpVariable) continue;
        const ld_type *pt = in->type->elem;
        uint32_t al = pt->align ? pt->align : 1;
        priv = (priv + al - 1) / al * al;
        k->privoff[(size_t)ii * k->m->bound + in->result] = priv;
        priv += pt->size;
        if (priv > k->inst[ii].priv_end) k->inst[ii].priv_end = priv;
      }
    }
  }
  return true;
}

/* Depth-first search for a back edge: state 1 on the path, 2 done. */
static bool has_cycle(const ld_block *b, uint8_t *state) {
  state[b->index] = 1;
  for (uint32_t q = 0; q < b->n_succs; q++) {
    const ld_block *t = b->succs[q];
    if (state[t->index] == 1) return true;
    if (state[t->index] == 0 && has_cycle(t, state)) return true;
  }
  state[b->index] = 2;
  return false;
}

bool plan_acyclic(const jit_kernel *k) {
  for (uint32_t ii = 0; ii < k->n_inst; ii++) {
    const ld_function *fn = k->inst[ii].fn;
    if (!fn->n_blocks) continue;
    /* deep CFGs: the recursion is bounded by the block count; keep it
     * modest (a kernel of more blocks keeps its step counting) */
    if (fn->n_blocks > 4096) return false;
    uint8_t *state = calloc(fn->n_blocks, 1);
    if (!state) return false;
    bool cyc = has_cycle(&fn->blocks[0], state);
    free(state);
    if (cyc) return false;
  }
  return true;
}

/* ---------------------------------------------------- deferred atomics
 *
 * (jit_kernel.defer)  The values derived from a kernel argument: its
 * parameter, access chains and pointer bitcasts of derived values, and the
 * parameters of inlined callees it is passed to.  The argument qualifies
 * when every use of a derived value is one of those or the pointer of an
 * OpAtomicIAdd, ISub, IIncrement or IDecrement of one integer width whose
 * result nothing uses; any other use (a load, store, other atomic, a
 * comparison or conversion, a phi or select) disqualifies it.  Only 64-bit
 * addressing (the region of a pointer is its top bits). */
static bool defer_atomic_op(SpvOp op) {
  return op == SpvOpAtomicIAdd || op == SpvOpAtomicISub || op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement;
}
bool id_used(const ld_function *fn, uint32_t id) {
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
      const ld_insn *u = &fn->blocks[b].insns[i];
      for (uint32_t q = 0; q < u->n_ops; q++)
        if (u->ops[q] == id) return true;
    }
  return false;
}
/* The instance inlined for call `in` of instance ii, or -1. */
static int32_t callee_inst(const jit_kernel *k, uint32_t ii, const ld_insn *in) {
  for (uint32_t cc = ii + 1; cc < k->n_inst; cc++) {
    const jit_inst *I = &k->inst[cc];
    if (I->parent != ii || I->cont < 0) continue;
    const jit_seg *cs = &k->seg[I->cont];
    if (cs->first > 0 && &cs->blk->insns[cs->first - 1] == in) return (int32_t)cc;
  }
  return -1;
}
void plan_defer(jit_kernel *k) {
  const ld_module *m = k->m;
  const ld_function *kf = k->k->fn;
  size_t nv = (size_t)k->n_inst * m->bound;
  if (m->addr_bits != 64 || getenv("SPIRV_SG_JIT_NO_DEFER")) return;
  uint8_t *mark = calloc(nv + 1, 1);
  uint32_t *work = malloc((nv + 1) * sizeof *work);
  if (!mark || !work) { free(mark); free(work); return; }
  for (uint32_t a = 0; a < kf->n_params && k->n_defer < JIT_MAX_DEFER; a++) {
    uint32_t pid = kf->params[a];
    const ld_type *pt = m->values[pid].type;
    if (!pt || pt->kind != LD_T_POINTER || pt->storage != SpvStorageClassCrossWorkgroup) continue;
    memset(mark, 0, nv + 1);
    size_t n = 0;
    mark[pid] = 1;
    work[n++] = pid;   /* (instance 0, id): index inst * bound + id */
    bool ok = true;
    uint32_t width = 0, n_atomics = 0;
    while (ok && n) {
      uint32_t w = work[--n];
      uint32_t ii = w / m->bound, id = w % m->bound;
      const ld_function *fn = k->inst[ii].fn;
      for (uint32_t b = 0; ok && b < fn->n_blocks; b++)
        for (uint32_t i = 0; ok && i < fn->blocks[b].n_insns; i++) {
          const ld_insn *u = &fn->blocks[b].insns[i];
          for (uint32_t q = 0; ok && q < u->n_ops; q++) {
            if (u->ops[q] != id) continue;
            uint32_t add = 0, add_inst = ii;
            switch (u->op) {
            case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
            case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast:
              if (q != 0 || !u->result || !u->type || u->type->kind != LD_T_POINTER) { ok = false; break; }
              add = u->result;
              break;
            case SpvOpFunctionCall: {
              int32_t cc = q >= 1 ? callee_inst(k, ii, u) : -1;
              if (cc < 0 || q - 1 >= k->inst[cc].fn->n_params) { ok = false; break; }
              add = k->inst[cc].fn->params[q - 1];
              add_inst = (uint32_t)cc;
              break;
            }
            case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpLine:
              break;
            default:
              if (!defer_atomic_op(u->op) || q != 0 || !u->type || u->type->kind != LD_T_INT ||
                  (u->type->width != 32 && u->type->width != 64) || (width && width != u->type->width) ||
                  id_used(fn, u->result)) {
                ok = false;
                break;
              }
              width = u->type->width;
              n_atomics++;
              break;
            }
            if (ok && add) {
              size_t x = (size_t)add_inst * m->bound + add;
              if (!mark[x]) { mark[x] = 1; work[n++] = (uint32_t)x; }
            }
          }
        }
    }
    if (!ok || !n_atomics) continue;
    if (!k->defer_of && !(k->defer_of = calloc(nv + 1, 1))) break;
    uint32_t slot = k->n_defer++;
    k->defer[slot].arg = a;
    k->defer[slot].width = width / 8;
    for (size_t x = 0; x < nv; x++)
      if (mark[x]) k->defer_of[x] = (uint8_t)(slot + 1);
  }
  free(mark);
  free(work);
}

/* Whether some subgroup of the kernel may wait at a work-group barrier or
 * collective (a suspension: its values then live in the heap frame). */
bool plan_may_suspend(const jit_kernel *k) {
  for (uint32_t s = 0; s < k->n_seg; s++) {
    const jit_seg *sg = &k->seg[s];
    for (uint32_t i = sg->first; i < sg->blk->n_insns; i++) {
      const ld_insn *in = &sg->blk->insns[i];
      if ((in->op == SpvOpControlBarrier && is_wg_barrier(k->m, in)) || wg_scoped(k->m, in)) return true;
    }
  }
  return false;
}
