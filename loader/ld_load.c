/* ld_load.c - bytes -> validated, decoded ld_module (one arena).
 *
 * Passes: header + instruction split -> module-level facts (capabilities,
 * names, decorations, entry points) -> global section (types, constants,
 * variables) -> functions (blocks, insns, operand checks) -> kernels ->
 * CFG -> call depth -> hash.  Every id a backend reads is checked here. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spirv/unified1/OpenCL.std.h>
#include "ld_internal.h"
#include "ld_spvtools.h"

/* ---------------------------------------------------------------- arena */

struct ld_chunk {
  ld_chunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
};

void *ld_arena_alloc(ld_arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  if (size == 0) size = 16;
  ld_chunk *c = a->head;
  if (!c || c->cap - c->used < size) {
    size_t cap = size > 65536 ? size : 65536;
    c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    c->cap = cap;
    c->used = 0;
    if (size > 65536 && a->head) {
      /* big block: keep the current chunk as head for small allocations */
      c->next = a->head->next;
      a->head->next = c;
      c->used = size;
      memset(c->data, 0, size);
      return c->data;
    }
    c->next = a->head;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += size;
  memset(p, 0, size);
  return p;
}

void ld_arena_free(ld_arena *a) {
  ld_chunk *c = a->head;
  while (c) {
    ld_chunk *n = c->next;
    free(c);
    c = n;
  }
  a->head = NULL;
}

/* ------------------------------------------------------------ diagnostics */

/* Every message is one non-empty line: a name, a file name or an echoed
 * token from the module may hold control bytes (fuzz_assemble found a
 * newline in one); they are escaped (\n, \xNN). */
static void emit(const ld_options *opt, ld_severity sev, const char *text) {
  if (!opt || !opt->message) return;
  char buf[2048];
  size_t o = 0;
  for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p && o + 5 < sizeof buf; p++) {
    if (*p == '\n') { buf[o++] = '\\'; buf[o++] = 'n'; }
    else if (*p < 0x20 || *p == 0x7f) o += (size_t)snprintf(buf + o, sizeof buf - o, "\\x%02x", *p);
    else buf[o++] = (char)*p;
  }
  buf[o] = 0;
  opt->message(opt->message_user, sev, o ? buf : "(empty message)");
}

static void vformat(ld_b *b, char *buf, size_t size, const char *fmt, va_list ap) {
  size_t len = 0;
  const ld_srcloc *loc = b->cur ? b->cur_loc : NULL;
  if (loc && loc->file)
    len += (size_t)snprintf(buf + len, size - len, "%s:%" PRIu32 ": ", loc->file, loc->line);
  else if (b->opt && b->opt->source_name)
    len += (size_t)snprintf(buf + len, size - len, "%s: ", b->opt->source_name);
  if (len < size && b->cur)
    len += (size_t)snprintf(buf + len, size - len, "word %" PRIu32 " (%s): ", b->cur->offset,
                            spv_opcode_name(b->cur->op));
  if (len < size) vsnprintf(buf + len, size - len, fmt, ap);
}

void ld_fail(ld_b *b, ld_result res, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vformat(b, buf, sizeof buf, fmt, ap);
  va_end(ap);
  emit(b->opt, LD_ERROR, buf);
  b->res = res;
  longjmp(b->jb, 1);
}

void ld_msg(ld_b *b, ld_severity sev, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vformat(b, buf, sizeof buf, fmt, ap);
  va_end(ap);
  emit(b->opt, sev, buf);
}

void *ld_alloc(ld_b *b, size_t count, size_t size) {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total) || total > ((size_t)1 << 40))
    ld_fail(b, LD_ERR_NOMEM, "allocation of %zu x %zu bytes is too large", count, size);
  void *p = ld_arena_alloc(b->arena, total);
  if (!p) ld_fail(b, LD_ERR_NOMEM, "out of memory (%zu bytes)", total);
  return p;
}

char *ld_strdup(ld_b *b, const char *s) {
  size_t n = strlen(s);
  char *p = ld_alloc(b, n + 1, 1);
  memcpy(p, s, n);
  return p;
}

static const char *kind_name(ld_value_kind k) {
  static const char *const names[] = {"undefined", "type", "constant", "undef", "variable",
                                      "function", "parameter", "label", "result",
                                      "extended instruction set", "string", "debug info"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

const ld_value *ld_get(ld_b *b, uint32_t id, const char *what) {
  if (id == 0 || id >= b->bound)
    ld_fail(b, LD_ERR_INVALID, "%s: id %" PRIu32 " is out of bounds (bound %" PRIu32 ")", what, id,
            b->bound);
  const ld_value *v = &b->values[id];
  if (v->kind == LD_V_NONE)
    ld_fail(b, LD_ERR_INVALID, "%s: id %%%" PRIu32 " is not defined (or used before its definition)",
            what, id);
  return v;
}

const ld_type *ld_get_type(ld_b *b, uint32_t id, const char *what) {
  const ld_value *v = ld_get(b, id, what);
  if (v->kind != LD_V_TYPE || !v->type)
    ld_fail(b, LD_ERR_INVALID, "%s: %s is a %s, not a type", what, ld_id_name(b->m, id),
            kind_name(v->kind));
  return v->type;
}

const ld_value *ld_get_const(ld_b *b, uint32_t id, const char *what) {
  const ld_value *v = ld_get(b, id, what);
  if (v->kind != LD_V_CONSTANT && v->kind != LD_V_UNDEF)
    ld_fail(b, LD_ERR_INVALID, "%s: %s is a %s, not a constant", what, ld_id_name(b->m, id),
            kind_name(v->kind));
  return v;
}

const ld_decoration *ld_find_deco(ld_b *b, uint32_t target, int32_t member, SpvDecoration d) {
  if (!b->deco_head || target >= b->bound) return NULL;
  for (uint32_t i = b->deco_head[target]; i; i = b->deco_next[i - 1]) {
    const ld_decoration *x = &b->decos[i - 1];
    if (x->member == member && x->decoration == d) return x;
  }
  return NULL;
}

/* --------------------------------------------------------------- layout */

void ld_addr_layout_for(uint32_t addr_bits, ld_addr_layout *out) {
  if (addr_bits == 32) {
    *out = (ld_addr_layout){24, (1ull << 24) - 1, 0x40, 0x70, 0x80, 0x100};
  } else {
    *out = (ld_addr_layout){48, (1ull << 48) - 1, 0x4000, 0x7000, 0x8000, 0x8080};
  }
}

/* ------------------------------------------------------------- helpers */

static const char *insn_string(ld_b *b, const spv_insn_ref *in, uint32_t first, uint32_t *out_used) {
  const char *s = NULL;
  uint32_t used = first < in->n_words ? spv_literal_string(in->words + first, in->n_words - first, &s) : 0;
  if (!used) ld_fail(b, LD_ERR_INVALID, "missing or unterminated literal string");
  if (out_used) *out_used = used;
  return s;
}

static void define(ld_b *b, uint32_t id, const spv_insn_ref *in) {
  if (id == 0 || id >= b->bound)
    ld_fail(b, LD_ERR_INVALID, "result id %" PRIu32 " is out of bounds (bound %" PRIu32 ")", id,
            b->bound);
  if (b->info[id].def)
    ld_fail(b, LD_ERR_INVALID, "id %%%" PRIu32 " is defined twice (first at word %" PRIu32 ")", id,
            b->insns[b->info[id].def - 1].offset);
  b->info[id].def = (uint32_t)(in - b->insns) + 1;
}

static bool is_terminator(SpvOp op) {
  switch (op) {
  case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
  case SpvOpReturnValue: case SpvOpKill: case SpvOpUnreachable: case SpvOpTerminateInvocation:
    return true;
  default:
    return false;
  }
}

static bool is_type_op(SpvOp op) {
  switch (op) {
  case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
  case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeImage: case SpvOpTypeSampler:
  case SpvOpTypeSampledImage: case SpvOpTypeArray: case SpvOpTypeRuntimeArray:
  case SpvOpTypeStruct: case SpvOpTypeOpaque: case SpvOpTypePointer: case SpvOpTypeFunction:
  case SpvOpTypeEvent: case SpvOpTypeDeviceEvent: case SpvOpTypeReserveId: case SpvOpTypeQueue:
  case SpvOpTypePipe: case SpvOpTypeForwardPointer: case SpvOpTypePipeStorage:
  case SpvOpTypeNamedBarrier:
    return true;
  default:
    return false;
  }
}

static bool is_const_op(SpvOp op) {
  switch (op) {
  case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstant:
  case SpvOpConstantComposite: case SpvOpConstantSampler: case SpvOpConstantNull:
  case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse: case SpvOpSpecConstant:
  case SpvOpSpecConstantComposite: case SpvOpSpecConstantOp: case SpvOpUndef:
  case SpvOpConstantPipeStorage:
    return true;
  default:
    return false;
  }
}

static ld_ext_set classify_set(const char *name) {
  if (strcmp(name, "OpenCL.std") == 0) return LD_EXT_OPENCL_STD;
  if (strcmp(name, "OpenCL.DebugInfo.100") == 0) return LD_EXT_OPENCL_DEBUGINFO_100;
  if (strncmp(name, "NonSemantic.", 12) == 0) return LD_EXT_NONSEMANTIC;
  return LD_EXT_UNKNOWN;
}

static bool is_debug_extinst(ld_b *b, const spv_insn_ref *in) {
  if (in->op != SpvOpExtInst || in->n_words < 5) return false;
  uint32_t set = in->words[3];
  if (set == 0 || set >= b->bound || b->values[set].kind != LD_V_EXT_SET) return false;
  ld_ext_set s = b->values[set].u.ext_set;
  return s == LD_EXT_OPENCL_DEBUGINFO_100 || s == LD_EXT_NONSEMANTIC;
}

/* ------------------------------------------------------ module-level pass */

typedef struct ep_rec {
  uint32_t fn, n_iface;
  const uint32_t *iface;
  const char *name;
  ld_kernel *k;
} ep_rec;

static void check_capability(ld_b *b, uint32_t cap) {
  switch (cap) {
  case SpvCapabilityShader: case SpvCapabilityGeometry: case SpvCapabilityTessellation:
  case SpvCapabilityMatrix:
    ld_fail(b, LD_ERR_UNSUPPORTED,
            "capability %s is not supported: only OpenCL kernels (Kernel execution model) run here",
            spv_capability_name(cap) ? spv_capability_name(cap) : "?");
  default:
    break;
  }
}

static void add_deco(ld_b *b, uint32_t target, int32_t member, const uint32_t *w, uint32_t n,
                     bool is_string) {
  ld_decoration *d = &b->decos[b->n_decos++];
  d->target = target;
  d->member = member;
  d->decoration = (SpvDecoration)w[0];
  d->n_literals = n - 1;
  d->literals = w + 1;
  if (is_string || w[0] == SpvDecorationLinkageAttributes || w[0] == SpvDecorationUserSemantic) {
    const char *s = NULL;
    if (n > 1 && spv_literal_string(w + 1, n - 1, &s)) d->string = s;
  }
}

/* ------------------------------------------------------------ functions */

typedef struct fn_ctx {
  ld_b *b;
  ld_function *fn;
  const spv_insn_ref *in;
  uint32_t first_op;    /* index of the first operand word */
} fn_ctx;

static void check_id_operand(ld_b *b, ld_function *fn, uint32_t id, const char *what) {
  const ld_value *v = ld_get(b, id, what);
  if ((v->kind == LD_V_PARAM || v->kind == LD_V_RESULT || v->kind == LD_V_LABEL) && v->owner != fn)
    ld_fail(b, LD_ERR_INVALID, "%s: %s belongs to another function", what, ld_id_name(b->m, id));
  if (v->kind == LD_V_EXT_SET || v->kind == LD_V_STRING)
    ld_fail(b, LD_ERR_INVALID, "%s: %s is a %s", what, ld_id_name(b->m, id), kind_name(v->kind));
}

/* The instructions that take block labels as operands. */
static bool takes_labels(SpvOp op) {
  return op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpPhi ||
         op == SpvOpSelectionMerge || op == SpvOpLoopMerge;
}

static void walk_cb(void *user, uint32_t wi, spv_operand_class cls) {
  fn_ctx *c = user;
  if (cls != SPV_OPND_ID) return;
  char what[32];
  snprintf(what, sizeof what, "operand %" PRIu32, wi - c->first_op + 1);
  check_id_operand(c->b, c->fn, c->in->words[wi], what);
  /* a label read as a value has no type for the backends to read it by
     (fuzz_run, session 19: a group reduction of a label) */
  uint32_t id = c->in->words[wi];
  if (id < c->b->bound && c->b->values[id].kind == LD_V_LABEL && !takes_labels(c->in->op))
    ld_fail(c->b, LD_ERR_INVALID, "%s: %s is a block label, not a value", what, ld_id_name(c->b->m, id));
}

/* ------------------------------------------- OpenCL.std operand types
 *
 * Validation is only a warning by default, so a module can reach the
 * backends with, say, s_max of two pointers.  Their handlers read each
 * operand component by component through its scalar type (interp/exec_ocl.c
 * ip_ocl_eval_lane, shared with jit/): a pointer, a struct or a vector of the
 * wrong length there reads out of bounds.  These checks are what those
 * handlers rely on, so a module that passes them cannot crash either
 * backend; they are a subset of what the OpenCL.std specification requires. */

static bool ocl_is_num(const ld_type *t) {
  return t && t->n_comp >= 1 && t->comp &&
         (t->comp->kind == LD_T_INT || t->comp->kind == LD_T_FLOAT);
}

static const ld_type *ocl_operand_type(ld_b *b, const ld_insn *insn, uint32_t i,
                                       const char *name) {
  if (2 + i >= insn->n_ops)
    ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: operand %" PRIu32 " is missing", name, i + 1);
  const ld_value *v = ld_get(b, insn->ops[2 + i], "extended instruction operand");
  if (!v->type)
    ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: operand %" PRIu32 " (%s) has no type", name, i + 1,
            ld_id_name(b->m, insn->ops[2 + i]));
  return v->type;
}

/* want: 'f' float, 'i' integer, 'n' int or float, 'p' pointer, 's' integer scalar */
static void ocl_want(ld_b *b, const ld_insn *insn, uint32_t i, char want, const char *name) {
  const ld_type *t = ocl_operand_type(b, insn, i, name);
  bool ok;
  const char *what;
  switch (want) {
  case 'p': ok = t->kind == LD_T_POINTER; what = "a pointer"; break;
  case 's': ok = t->kind == LD_T_INT; what = "an integer scalar"; break;
  case 'f': ok = ocl_is_num(t) && t->comp->kind == LD_T_FLOAT; what = "a float scalar or vector"; break;
  case 'i': ok = ocl_is_num(t) && t->comp->kind == LD_T_INT; what = "an integer scalar or vector"; break;
  default: ok = ocl_is_num(t); what = "an integer or float scalar or vector"; break;
  }
  if (!ok)
    ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: operand %" PRIu32 " (%s) must be %s", name, i + 1,
            ld_id_name(b->m, insn->ops[2 + i]), what);
}

/* a numeric operand must have the result's component count or be a scalar
   (broadcast), and, where the handler copies raw components, their size */
static void ocl_shape(ld_b *b, const ld_insn *insn, uint32_t i, bool same_size, const char *name) {
  const ld_type *t = ocl_operand_type(b, insn, i, name), *rt = insn->type;
  if (!ocl_is_num(t) || !ocl_is_num(rt)) return;
  if (t->n_comp != 1 && t->n_comp != rt->n_comp)
    ld_fail(b, LD_ERR_INVALID,
            "OpenCL.std %s: operand %" PRIu32 " has %" PRIu32 " components, the result %" PRIu32,
            name, i + 1, t->n_comp, rt->n_comp);
  if (same_size && t->comp->size != rt->comp->size)
    ld_fail(b, LD_ERR_INVALID,
            "OpenCL.std %s: operand %" PRIu32 " has %" PRIu32 "-byte components, the result %" PRIu32,
            name, i + 1, t->comp->size, rt->comp->size);
}

static void check_ocl_std_types(ld_b *b, const ld_insn *insn, const char *name) {
  uint32_t op = insn->ext_op, na = insn->n_ops - 2;
  const ld_type *rt = insn->type;
  switch (op) {
  case OpenCLstd_Fract: case OpenCLstd_Frexp: case OpenCLstd_Lgamma_r:
  case OpenCLstd_Modf: case OpenCLstd_Sincos:
    ocl_want(b, insn, 0, 'f', name); ocl_shape(b, insn, 0, false, name);
    ocl_want(b, insn, 1, 'p', name);
    break;
  case OpenCLstd_Remquo:
    ocl_want(b, insn, 0, 'f', name); ocl_shape(b, insn, 0, false, name);
    ocl_want(b, insn, 1, 'f', name); ocl_shape(b, insn, 1, false, name);
    ocl_want(b, insn, 2, 'p', name);
    break;
  case OpenCLstd_Vloadn: case OpenCLstd_Vload_half: case OpenCLstd_Vload_halfn:
  case OpenCLstd_Vloada_halfn:
    ocl_want(b, insn, 0, 's', name); ocl_want(b, insn, 1, 'p', name);
    break;
  case OpenCLstd_Vstoren: case OpenCLstd_Vstore_half: case OpenCLstd_Vstore_half_r:
  case OpenCLstd_Vstore_halfn: case OpenCLstd_Vstore_halfn_r: case OpenCLstd_Vstorea_halfn:
  case OpenCLstd_Vstorea_halfn_r:
    ocl_want(b, insn, 0, 'n', name); ocl_want(b, insn, 1, 's', name);
    ocl_want(b, insn, 2, 'p', name);
    break;
  case OpenCLstd_Printf:
    ocl_want(b, insn, 0, 'p', name);
    break;
  case OpenCLstd_Prefetch:
    ocl_want(b, insn, 0, 'p', name); ocl_want(b, insn, 1, 'n', name);
    break;
  default: {
    /* the value functions: numeric in, numeric out */
    if (!ocl_is_num(rt))
      ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: the result type must be an integer or float scalar or vector", name);
    bool fl = op <= OpenCLstd_Native_tan || (op >= OpenCLstd_FClamp && op <= OpenCLstd_Fast_normalize);
    bool in = (op >= OpenCLstd_SAbs && op <= OpenCLstd_UMul24) || (op >= OpenCLstd_UAbs && op <= OpenCLstd_UMad_hi);
    for (uint32_t i = 0; i < na; i++) {
      char want = 'n';
      if (fl) {
        bool int_arg = ((op == OpenCLstd_Ldexp || op == OpenCLstd_Pown || op == OpenCLstd_Rootn) && i == 1) ||
                       op == OpenCLstd_Nan;
        want = int_arg ? 'i' : op == OpenCLstd_Nextafter ? 'n' : 'f';
      } else if (in) {
        want = 'i';
      } else if (op == OpenCLstd_Select && i == 2) {
        want = 'i';
      }
      ocl_want(b, insn, i, want, name);
    }
    if (fl && op != OpenCLstd_Ilogb && rt->comp->kind != LD_T_FLOAT)
      ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: the result type must be float", name);
    if ((in || op == OpenCLstd_Ilogb) && rt->comp->kind != LD_T_INT)
      ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: the result type must be an integer", name);
    if (op == OpenCLstd_Length || op == OpenCLstd_Fast_length || op == OpenCLstd_Distance ||
        op == OpenCLstd_Fast_distance) {
      /* reductions: vector in, scalar out; both operands one length */
      if (na > 1 && ocl_operand_type(b, insn, 1, name)->n_comp != ocl_operand_type(b, insn, 0, name)->n_comp)
        ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: the operands differ in length", name);
    } else if (op == OpenCLstd_Shuffle || op == OpenCLstd_Shuffle2) {
      uint32_t m = op == OpenCLstd_Shuffle ? 1 : 2;
      for (uint32_t i = 0; i < m && i < na; i++) {
        if (ocl_operand_type(b, insn, i, name)->comp->size != rt->comp->size)
          ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: operand %" PRIu32 " has another component size than the result", name, i + 1);
      }
      if (m < na) ocl_shape(b, insn, m, false, name);
    } else {
      bool raw = op == OpenCLstd_Bitselect || op == OpenCLstd_Select;
      for (uint32_t i = 0; i < na; i++) ocl_shape(b, insn, i, raw && i < 2 + (op == OpenCLstd_Bitselect), name);
      if (op == OpenCLstd_Cross && (rt->n_comp < 3 || ocl_operand_type(b, insn, 0, name)->n_comp < 3 ||
                                    (na > 1 && ocl_operand_type(b, insn, 1, name)->n_comp < 3)))
        ld_fail(b, LD_ERR_INVALID, "OpenCL.std %s: the operands and the result must be 3- or 4-component vectors", name);
    }
    break;
  }
  }
}

static const ld_block *get_label(ld_b *b, ld_function *fn, uint32_t id, const char *what) {
  const ld_value *v = ld_get(b, id, what);
  if (v->kind != LD_V_LABEL || v->owner != fn)
    ld_fail(b, LD_ERR_INVALID, "%s: %s is not a block label of this function", what,
            ld_id_name(b->m, id));
  return v->u.block;
}

/* True for an id an instruction cannot read as a value: a type, label,
 * function, extended instruction set, string or debug-info result (fuzz_run,
 * session 19: a label as a group reduction's operand had no type, and the
 * interpreter's handler read its null type). */
static bool not_value(const ld_value *v) {
  return v->kind != LD_V_CONSTANT && v->kind != LD_V_UNDEF && v->kind != LD_V_VARIABLE &&
         v->kind != LD_V_PARAM && v->kind != LD_V_RESULT;
}

/* ------------------------------------------------ elementwise operand shapes
 *
 * Elementwise instructions walk the result's components and read the same
 * component of each operand, so the interpreter's handlers read an operand
 * with fewer or narrower components past its end, while the JIT broadcasts
 * a scalar (fuzz_diff: a vec2 OpFMul by a float scalar gave 0 on the
 * interpreter, 3 on the JIT).  The SPIR-V specification fixes each operand's
 * shape from the result's; these checks are the part the backends rely on.
 * An operand defined further down (blocks out of order) has no type yet and
 * is checked nowhere, as for OpPhi: the backends see it typed only at run
 * time, where validation has the last word. */
typedef enum { EW_ANY, EW_INT, EW_FLOAT, EW_BOOL } ew_kind;

static const ld_type *ew_operand(ld_b *b, const ld_insn *insn, uint32_t i, ew_kind kind,
                                 uint32_t n_comp, uint32_t width, const char *name) {
  const ld_value *v = ld_get(b, insn->ops[i], "operand");
  if (not_value(v))
    ld_fail(b, LD_ERR_INVALID, "%s: operand %" PRIu32 " (%s) is a %s, not a value", name, i + 1,
            ld_id_name(b->m, insn->ops[i]), kind_name(v->kind));
  const ld_type *t = v->type;
  if (!t) return NULL;
  const ld_type *c = t->comp;
  static const ld_type_kind want[] = {[EW_INT] = LD_T_INT, [EW_FLOAT] = LD_T_FLOAT, [EW_BOOL] = LD_T_BOOL};
  static const char *const kname[] = {[EW_ANY] = "scalar or vector", [EW_INT] = "integer",
                                      [EW_FLOAT] = "float", [EW_BOOL] = "boolean"};
  if (!c || t->n_comp == 0 || (kind != EW_ANY && c->kind != want[kind]))
    ld_fail(b, LD_ERR_INVALID, "%s: operand %" PRIu32 " (%s) is not a %s scalar or vector", name, i + 1,
            ld_id_name(b->m, insn->ops[i]), kname[kind]);
  if (n_comp && t->n_comp != n_comp)
    ld_fail(b, LD_ERR_INVALID, "%s: operand %" PRIu32 " (%s) has %" PRIu32 " component%s, the result %" PRIu32,
            name, i + 1, ld_id_name(b->m, insn->ops[i]), t->n_comp, t->n_comp == 1 ? "" : "s", n_comp);
  if (width && c->width != width)
    ld_fail(b, LD_ERR_INVALID, "%s: operand %" PRIu32 " (%s) has %" PRIu32 "-bit components, the result %" PRIu32 "-bit",
            name, i + 1, ld_id_name(b->m, insn->ops[i]), c->width, width);
  return t;
}

static void check_elementwise(ld_b *b, const ld_insn *insn, SpvOp op) {
  ew_kind kind = EW_ANY, rkind = EW_ANY;
  uint32_t arity = 2;
  bool same_width = true;   /* operand components as wide as the result's */
  switch (op) {
  case SpvOpSNegate: case SpvOpNot: case SpvOpBitReverse: arity = 1; /* fall through */
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv:
  case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
  case SpvOpBitwiseAnd:
    kind = rkind = EW_INT;
    break;
  case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: case SpvOpShiftLeftLogical:
    kind = rkind = EW_INT;
    break;
  case SpvOpFNegate: arity = 1; /* fall through */
  case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFRem: case SpvOpFMod:
    kind = rkind = EW_FLOAT;
    break;
  case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual:
  case SpvOpULessThan: case SpvOpULessThanEqual: case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual:
  case SpvOpSLessThan: case SpvOpSLessThanEqual:
    kind = EW_INT, rkind = EW_BOOL, same_width = false;
    break;
  case SpvOpIsNan: case SpvOpIsInf: case SpvOpIsFinite: case SpvOpIsNormal: case SpvOpSignBitSet:
    arity = 1; /* fall through */
  case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual:
  case SpvOpFOrdLessThan: case SpvOpFUnordLessThan: case SpvOpFOrdGreaterThan:
  case SpvOpFUnordGreaterThan: case SpvOpFOrdLessThanEqual: case SpvOpFUnordLessThanEqual:
  case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordGreaterThanEqual: case SpvOpLessOrGreater:
  case SpvOpOrdered: case SpvOpUnordered:
    kind = EW_FLOAT, rkind = EW_BOOL, same_width = false;
    break;
  case SpvOpLogicalNot: arity = 1; /* fall through */
  case SpvOpLogicalEqual: case SpvOpLogicalNotEqual: case SpvOpLogicalOr: case SpvOpLogicalAnd:
    kind = rkind = EW_BOOL;
    break;
  case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpQuantizeToF16:
  case SpvOpSatConvertSToU: case SpvOpSatConvertUToS: case SpvOpBitCount:
    arity = 1, kind = rkind = EW_ANY, same_width = false;
    break;
  case SpvOpVectorTimesScalar: case SpvOpSelect:
    break;   /* below */
  default:
    return;
  }
  const char *name = spv_opcode_name(op);
  const ld_type *rt = insn->type;
  if (op == SpvOpSelect) {
    /* the handler copies the result's size from the object it picks */
    if (insn->n_ops < 3) ld_fail(b, LD_ERR_INVALID, "%s: missing operands", name);
    for (uint32_t i = 1; i < 3; i++) {
      const ld_value *v = ld_get(b, insn->ops[i], "object");
      if (not_value(v) || (v->type && v->type != rt))
        ld_fail(b, LD_ERR_INVALID, "%s: object %s is not of the result type", name, ld_id_name(b->m, insn->ops[i]));
    }
    const ld_value *c = ld_get(b, insn->ops[0], "condition");
    if (not_value(c) || (c->type && (!c->type->comp || c->type->comp->kind != LD_T_BOOL ||
                                             (c->type->n_comp != 1 && c->type->n_comp != rt->n_comp))))
      ld_fail(b, LD_ERR_INVALID, "%s: the condition %s is not a boolean scalar or a boolean vector of the result's length",
              name, ld_id_name(b->m, insn->ops[0]));
    return;
  }
  if (!rt || !rt->comp || rt->n_comp == 0)
    ld_fail(b, LD_ERR_INVALID, "%s: the result type is not a scalar or vector", name);
  if (op == SpvOpVectorTimesScalar) {
    if (insn->n_ops < 2) ld_fail(b, LD_ERR_INVALID, "%s: missing operands", name);
    if (rt->comp->kind != LD_T_FLOAT)
      ld_fail(b, LD_ERR_INVALID, "%s: the result type is not a float vector", name);
    ew_operand(b, insn, 0, EW_FLOAT, rt->n_comp, rt->comp->width, name);
    ew_operand(b, insn, 1, EW_FLOAT, 1, rt->comp->width, name);
    return;
  }
  static const ld_type_kind rwant[] = {[EW_INT] = LD_T_INT, [EW_FLOAT] = LD_T_FLOAT, [EW_BOOL] = LD_T_BOOL};
  if (rkind != EW_ANY && rt->comp->kind != rwant[rkind])
    ld_fail(b, LD_ERR_INVALID, "%s: the result type is not a %s scalar or vector", name,
            rkind == EW_INT ? "integer" : rkind == EW_FLOAT ? "float" : "boolean");
  if (insn->n_ops < arity) ld_fail(b, LD_ERR_INVALID, "%s: missing operands", name);
  uint32_t w = same_width ? rt->comp->width : 0;
  const ld_type *t0 = ew_operand(b, insn, 0, kind, rt->n_comp, w, name);
  if (arity < 2) return;
  bool shift = op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic || op == SpvOpShiftLeftLogical;
  /* a shift amount may be of any width; comparisons need equal operands */
  uint32_t w1 = shift ? 0 : same_width ? w : t0 ? t0->comp->width : 0;
  ew_operand(b, insn, 1, kind, rt->n_comp, w1, name);
}

/* The component kind a group arithmetic instruction's result must have
 * (the SPIR-V rules spirv-val applies): float for the F forms, bool for the
 * logical ones, integer for the rest; LD_T_VOID for other opcodes.  The
 * backends pick their arithmetic by opcode (fuzz_diff: an OpGroupFAdd of a
 * uint made libgccjit exit on an internal compiler error). */
static ld_type_kind group_result_kind(SpvOp op) {
  switch (op) {
  case SpvOpGroupFAdd: case SpvOpGroupFMin: case SpvOpGroupFMax: case SpvOpGroupFMulKHR:
  case SpvOpGroupNonUniformFAdd: case SpvOpGroupNonUniformFMul: case SpvOpGroupNonUniformFMin:
  case SpvOpGroupNonUniformFMax:
    return LD_T_FLOAT;
  case SpvOpGroupLogicalAndKHR: case SpvOpGroupLogicalOrKHR: case SpvOpGroupLogicalXorKHR:
  case SpvOpGroupNonUniformLogicalAnd: case SpvOpGroupNonUniformLogicalOr: case SpvOpGroupNonUniformLogicalXor:
    return LD_T_BOOL;
  case SpvOpGroupIAdd: case SpvOpGroupUMin: case SpvOpGroupSMin: case SpvOpGroupUMax: case SpvOpGroupSMax:
  case SpvOpGroupIMulKHR: case SpvOpGroupBitwiseAndKHR: case SpvOpGroupBitwiseOrKHR: case SpvOpGroupBitwiseXorKHR:
  case SpvOpGroupNonUniformIAdd: case SpvOpGroupNonUniformIMul: case SpvOpGroupNonUniformSMin:
  case SpvOpGroupNonUniformUMin: case SpvOpGroupNonUniformSMax: case SpvOpGroupNonUniformUMax:
  case SpvOpGroupNonUniformBitwiseAnd: case SpvOpGroupNonUniformBitwiseOr: case SpvOpGroupNonUniformBitwiseXor:
    return LD_T_INT;
  default:
    return LD_T_VOID;
  }
}

static void check_insn(ld_b *b, ld_function *fn, ld_insn *insn, const spv_insn_ref *in) {
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  if (d && d->has_type) {
    if (!insn->type) ld_fail(b, LD_ERR_INVALID, "missing result type");
  }
  const uint32_t *ops = insn->ops;
  uint32_t n = insn->n_ops;
  ld_type_kind gk = group_result_kind(in->op);
  if (gk != LD_T_VOID) {
    const ld_type *rt = insn->type;
    const ld_type *ct = rt && rt->kind == LD_T_VECTOR ? rt->elem : rt;
    if (!ct || ct->kind != gk)
      ld_fail(b, LD_ERR_INVALID, "%s: the result type is not a scalar or vector of %s type", spv_opcode_name(in->op),
              gk == LD_T_FLOAT ? "floating-point" : gk == LD_T_BOOL ? "Boolean" : "integer");
  }
  switch (in->op) {
  case SpvOpBranch:
    if (n < 1) ld_fail(b, LD_ERR_INVALID, "missing target");
    get_label(b, fn, ops[0], "branch target");
    return;
  case SpvOpBranchConditional:
    if (n < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
    check_id_operand(b, fn, ops[0], "condition");
    get_label(b, fn, ops[1], "true target");
    get_label(b, fn, ops[2], "false target");
    return;
  case SpvOpSwitch: {
    if (n < 2) ld_fail(b, LD_ERR_INVALID, "missing operands");
    const ld_value *sel = ld_get(b, ops[0], "selector");
    check_id_operand(b, fn, ops[0], "selector");
    if (!sel->type || sel->type->kind != LD_T_INT)
      ld_fail(b, LD_ERR_INVALID, "selector %s is not an integer", ld_id_name(b->m, ops[0]));
    get_label(b, fn, ops[1], "default target");
    uint32_t lw = sel->type->width > 32 ? 2 : 1;
    if ((n - 2) % (lw + 1) != 0)
      ld_fail(b, LD_ERR_INVALID, "case list does not fit %" PRIu32 "-word literals", lw);
    for (uint32_t i = 2; i < n; i += lw + 1) get_label(b, fn, ops[i + lw], "case target");
    return;
  }
  case SpvOpPhi:
    if (n % 2) ld_fail(b, LD_ERR_INVALID, "OpPhi operands are not (value, parent) pairs");
    for (uint32_t i = 0; i < n; i += 2) {
      check_id_operand(b, fn, ops[i], "phi value");
      get_label(b, fn, ops[i + 1], "phi parent");
      /* the backends copy the result's size from each value (fuzz_run: a
         narrower value read past its register); a value defined further
         down has no type yet and is checked where it is defined */
      const ld_value *v = ld_get(b, ops[i], "phi value");
      if (v->type && insn->type && v->type != insn->type)
        ld_fail(b, LD_ERR_INVALID, "OpPhi: the value %s is not of the result type", ld_id_name(b->m, ops[i]));
    }
    return;
  case SpvOpFunctionCall: {
    if (n < 1) ld_fail(b, LD_ERR_INVALID, "missing callee");
    const ld_value *f = ld_get(b, ops[0], "callee");
    if (f->kind != LD_V_FUNCTION)
      ld_fail(b, LD_ERR_INVALID, "callee %s is not a function", ld_id_name(b->m, ops[0]));
    /* The callee may be defined further down (llvm-spirv puts the functions
     * it emulates intrinsics with, spirv.llvm_bswap_i32, after their
     * callers): its parameters are not built yet, its type is. */
    if (f->u.fn->type->n_members != n - 1)
      ld_fail(b, LD_ERR_INVALID, "call to %s passes %" PRIu32 " arguments, it takes %" PRIu32,
              ld_id_name(b->m, ops[0]), n - 1, f->u.fn->type->n_members);
    for (uint32_t i = 1; i < n; i++) {
      check_id_operand(b, fn, ops[i], "argument");
      /* the backends copy each argument into the parameter at the
         parameter's type (fuzz_diff: the type %bool passed for a uint made
         the interpreter read an unset register and the JIT fail to build);
         an argument defined further down has no type yet */
      const ld_value *v = ld_get(b, ops[i], "argument");
      const ld_type *pt = f->u.fn->type->members[i - 1];
      if (not_value(v))
        ld_fail(b, LD_ERR_INVALID, "call to %s: argument %" PRIu32 " (%s) is a %s, not a value",
                ld_id_name(b->m, ops[0]), i, ld_id_name(b->m, ops[i]), kind_name(v->kind));
      if (v->type && v->type != pt)
        ld_fail(b, LD_ERR_INVALID, "call to %s: argument %" PRIu32 " (%s) is not of the parameter's type",
                ld_id_name(b->m, ops[0]), i, ld_id_name(b->m, ops[i]));
    }
    return;
  }
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: {
    /* the base is an address both backends offset (fuzz_diff: a base
       without a type reached the JIT's access chain) */
    if (n < 1) ld_fail(b, LD_ERR_INVALID, "missing base");
    const ld_value *pv = ld_get(b, ops[0], "base");
    if (not_value(pv) || !pv->type || pv->type->kind != LD_T_POINTER)
      ld_fail(b, LD_ERR_INVALID, "%s: the base %s is not a pointer", spv_opcode_name(in->op),
              ld_id_name(b->m, ops[0]));
    break;
  }
  case SpvOpCompositeInsert: {
    /* the handler copies the composite (the result's size) and the object
       (its own size) into the result: both must be what the result holds */
    if (n < 2) ld_fail(b, LD_ERR_INVALID, "missing operands");
    const ld_value *ov = ld_get(b, ops[0], "object"), *cv = ld_get(b, ops[1], "composite");
    if (cv->type && cv->type != insn->type)
      ld_fail(b, LD_ERR_INVALID, "OpCompositeInsert: the composite %s is not of the result type",
              ld_id_name(b->m, ops[1]));
    const ld_type *t = insn->type;
    for (uint32_t i = 2; i < n && t; i++) {
      if (t->kind == LD_T_STRUCT) t = ops[i] < t->n_members ? t->members[ops[i]] : NULL;
      else if (t->kind == LD_T_ARRAY || t->kind == LD_T_VECTOR) t = ops[i] < t->count ? t->elem : NULL;
      else t = NULL;
    }
    if (n < 3 || !t)
      ld_fail(b, LD_ERR_INVALID, "OpCompositeInsert: the indices do not name a member of the result type");
    if (ov->type && ov->type != t)
      ld_fail(b, LD_ERR_INVALID, "OpCompositeInsert: the object %s is not of the member's type",
              ld_id_name(b->m, ops[0]));
    break;
  }
  case SpvOpGroupIAdd: case SpvOpGroupFAdd: case SpvOpGroupFMin: case SpvOpGroupUMin:
  case SpvOpGroupSMin: case SpvOpGroupFMax: case SpvOpGroupUMax: case SpvOpGroupSMax:
  case SpvOpGroupIMulKHR: case SpvOpGroupFMulKHR: case SpvOpGroupBitwiseAndKHR:
  case SpvOpGroupBitwiseOrKHR: case SpvOpGroupBitwiseXorKHR: case SpvOpGroupLogicalAndKHR:
  case SpvOpGroupLogicalOrKHR: case SpvOpGroupLogicalXorKHR: {
    /* X must be of the result type: the handlers combine X's bytes into the
       result's (fuzz_run: a wider result read past the work-group scratch) */
    if (n < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
    const ld_value *x = ld_get(b, ops[2], "X");
    if (not_value(x) || (x->type && x->type != insn->type))
      ld_fail(b, LD_ERR_INVALID, "%s: X (%s) is not of the result type", spv_opcode_name(in->op),
              ld_id_name(b->m, ops[2]));
    break;
  }
  case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleXorINTEL:
  case SpvOpSubgroupShuffleDownINTEL: case SpvOpSubgroupShuffleUpINTEL:
  case SpvOpGroupBroadcast: case SpvOpGroupNonUniformBroadcast: case SpvOpGroupNonUniformBroadcastFirst:
  case SpvOpGroupNonUniformShuffle: case SpvOpGroupNonUniformShuffleXor: case SpvOpGroupNonUniformShuffleUp:
  case SpvOpGroupNonUniformShuffleDown: case SpvOpGroupNonUniformQuadBroadcast: case SpvOpGroupNonUniformQuadSwap:
  case SpvOpGroupNonUniformRotateKHR: {
    /* the value moved between lanes is of the result type: the handlers
       gather the result's size from it (fuzz_run: Intel shuffle data
       narrower than its result read past the register file) */
    bool intel = in->op >= SpvOpSubgroupShuffleINTEL && in->op <= SpvOpSubgroupShuffleXorINTEL;
    uint32_t first = intel ? 0 : 1;
    uint32_t last = (in->op == SpvOpSubgroupShuffleDownINTEL || in->op == SpvOpSubgroupShuffleUpINTEL) ? 1 : first;
    if (n <= last) ld_fail(b, LD_ERR_INVALID, "missing operands");
    for (uint32_t i = first; i <= last; i++) {
      const ld_value *v = ld_get(b, ops[i], "value");
      if (not_value(v) || (v->type && v->type != insn->type))
        ld_fail(b, LD_ERR_INVALID, "%s: the value %s is not of the result type", spv_opcode_name(in->op),
                ld_id_name(b->m, ops[i]));
    }
    break;
  }
  case SpvOpVectorShuffle: {
    /* the handler reads both operands as vectors of the result's component */
    if (n < 2) ld_fail(b, LD_ERR_INVALID, "missing operands");
    const ld_type *rt = insn->type;
    if (!rt || rt->kind != LD_T_VECTOR)
      ld_fail(b, LD_ERR_INVALID, "OpVectorShuffle: the result type is not a vector");
    for (uint32_t i = 0; i < 2; i++) {
      const ld_value *v = ld_get(b, ops[i], "vector");
      if (not_value(v) || (v->type && (v->type->kind != LD_T_VECTOR || v->type->elem != rt->elem)))
        ld_fail(b, LD_ERR_INVALID, "OpVectorShuffle: operand %s is not a vector of the result's component type",
                ld_id_name(b->m, ops[i]));
    }
    break;
  }
  case SpvOpLoad: case SpvOpStore: {
    /* the backends read through the operand as an address: a type id or a
       non-pointer value there would be a null or garbage access */
    const uint32_t pi = 0;   /* OpLoad's pointer, OpStore's pointer */
    if (n <= pi) break;
    const ld_value *pv = ld_get(b, ops[pi], "pointer");
    if (not_value(pv) || (pv->type && pv->type->kind != LD_T_POINTER))
      ld_fail(b, LD_ERR_INVALID, "%s: the pointer operand %s is not a pointer", spv_opcode_name(in->op),
              ld_id_name(b->m, ops[pi]));
    /* the backends move the pointee's bytes: a loaded or stored value of
       another type would be read or written at the wrong size, and each
       backend at a different one (fuzz_diff: a ulong3 stored through a
       uint pointer wrote different bytes on the two backends).  A stored
       value defined further down has no type yet and is checked there. */
    const ld_type *pointee = pv->type ? pv->type->elem : NULL;
    if (pointee && in->op == SpvOpLoad && insn->type && insn->type != pointee)
      ld_fail(b, LD_ERR_INVALID, "OpLoad: the result type is not the type %s points to",
              ld_id_name(b->m, ops[pi]));
    if (pointee && in->op == SpvOpStore && n > 1) {
      const ld_value *ov = ld_get(b, ops[1], "object");
      if (not_value(ov) || (ov->type && ov->type != pointee))
        ld_fail(b, LD_ERR_INVALID, "OpStore: the object %s is not of the type %s points to",
                ld_id_name(b->m, ops[1]), ld_id_name(b->m, ops[pi]));
    }
    break;
  }
  case SpvOpExtInst: {
    if (n < 2) ld_fail(b, LD_ERR_INVALID, "missing operands");
    const ld_value *s = ld_get(b, ops[0], "extended instruction set");
    if (s->kind != LD_V_EXT_SET)
      ld_fail(b, LD_ERR_INVALID, "%s is not an extended instruction set", ld_id_name(b->m, ops[0]));
    insn->ext_set = s->u.ext_set;
    insn->ext_op = ops[1];
    if (s->u.ext_set == LD_EXT_OPENCL_STD && ops[1] == OpenCLstd_Printf) b->m->has_printf = true;
    if (s->u.ext_set == LD_EXT_OPENCL_STD) {
      const spv_opcode_desc *od = spv_opencl_std_info(ops[1]);
      if (!od) return;   /* unknown number: the backends name it */
      fn_ctx c = {b, fn, in, 5};
      if (!spv_walk_operands(in->words, in->n_words, 5, od->operands, od->n_operands, walk_cb, &c))
        ld_fail(b, LD_ERR_INVALID, "operands do not match OpenCL.std %s", od->name);
      check_ocl_std_types(b, insn, od->name);
    } else {
      for (uint32_t i = 2; i < n; i++) {
        const ld_value *v = ld_get(b, ops[i], "extended instruction operand");
        (void)v;
      }
    }
    return;
  }
  default:
    check_elementwise(b, insn, in->op);
    if (in->op >= SpvOpGroupNonUniformIAdd && in->op <= SpvOpGroupNonUniformLogicalXor && n >= 3) {
      const ld_value *x = ld_get(b, ops[2], "value");
      if (not_value(x) || (x->type && x->type != insn->type))
        ld_fail(b, LD_ERR_INVALID, "%s: Value (%s) is not of the result type", spv_opcode_name(in->op),
                ld_id_name(b->m, ops[2]));
    }
    break;
  }
  if (!d) return;   /* unknown opcode: the backends decide */
  fn_ctx c = {b, fn, in, 1};
  if (!spv_walk_operands(in->words, in->n_words, 1, d->operands, d->n_operands, walk_cb, &c))
    ld_fail(b, LD_ERR_INVALID, "operands do not match the grammar of %s", d->name);
}

/* ----------------------------------------- uses and their definitions
 *
 * A value must be defined on every path to its use (SSA dominance); the
 * backends would otherwise read whatever its register or lane array held
 * (fuzz_diff: mutated modules where the interpreter and the JIT then
 * computed different results).  Two checks on one operand walk, after
 * ld_build_cfg:
 * - in its own block, a value is used after the instruction that defines
 *   it (outside OpPhi), in every block;
 * - across blocks, in a block reachable from the entry, the defining block
 *   dominates the use (an OpPhi's value: the end of its parent block).
 *   Uses in unreachable blocks are not checked there (nothing runs them).
 * Blocks may come in any file order (llvm-spirv-15 emits some out of
 * dominance order). */
typedef struct { ld_b *b; const ld_function *fn; const spv_insn_ref *in; const ld_block *at; } use_ctx;

static void check_use(use_ctx *c, uint32_t id, const ld_block *at) {
  if (id >= c->b->m->bound) return;
  const ld_value *v = &c->b->values[id];
  if (v->kind != LD_V_RESULT || v->owner != c->fn || !v->u.insn || !v->u.insn->block) return;
  const ld_block *def = v->u.insn->block;
  if (def == c->at && c->in->op != SpvOpPhi) {
    if (v->u.insn->word_offset < c->in->offset) return;
    c->b->cur = c->in;
    ld_fail(c->b, LD_ERR_INVALID, "%s is used before its definition (word %" PRIu32 ") in block %s",
            ld_id_name(c->b->m, id), v->u.insn->word_offset, ld_id_name(c->b->m, c->at->label));
  }
  if (!at->reachable || ld_dominates(def, at)) return;
  c->b->cur = c->in;
  ld_fail(c->b, LD_ERR_INVALID, "%s is used in block %s, which its definition in block %s does not dominate",
          ld_id_name(c->b->m, id), ld_id_name(c->b->m, at->label), ld_id_name(c->b->m, def->label));
}

static void use_cb(void *u_, uint32_t wi, spv_operand_class cls) {
  use_ctx *c = u_;
  if (cls == SPV_OPND_ID) check_use(c, c->in->words[wi], c->at);
}

static void check_uses(ld_b *b, const ld_function *fn, uint32_t start, uint32_t end) {
  const ld_block *at = NULL;
  for (uint32_t i = start + 1; i < end; i++) {
    const spv_insn_ref *in = &b->insns[i];
    if (in->op == SpvOpLabel) {
      uint32_t id = in->n_words > 1 ? in->words[1] : 0;
      at = id < b->m->bound && b->values[id].kind == LD_V_LABEL ? b->values[id].u.block : NULL;
      continue;
    }
    if (!at || in->op == SpvOpNop || is_debug_extinst(b, in)) continue;
    use_ctx c = {b, fn, in, at};
    if (in->op == SpvOpPhi) {
      /* each value at the end of its parent block */
      for (uint32_t w = 3; w + 1 < in->n_words; w += 2) {
        uint32_t pid = in->words[w + 1];
        const ld_block *parent = pid < b->m->bound && b->values[pid].kind == LD_V_LABEL ? b->values[pid].u.block : NULL;
        if (parent && parent->reachable) check_use(&c, in->words[w], parent);
      }
      continue;
    }
    if (in->op == SpvOpExtInst) {
      /* the set and number are not values; every later operand may be */
      for (uint32_t w = 5; w < in->n_words; w++) use_cb(&c, w, SPV_OPND_ID);
      continue;
    }
    const spv_opcode_desc *d = spv_opcode_info(in->op);
    if (d) (void)spv_walk_operands(in->words, in->n_words, 1, d->operands, d->n_operands, use_cb, &c);
  }
  b->cur = NULL;
}

/* Builds one function: words [start, end] are OpFunction .. OpFunctionEnd. */
static void build_function(ld_b *b, ld_function *fn, uint32_t start, uint32_t end) {
  /* Pass 1: count blocks, params, insns per block; define labels/results. */
  uint32_t n_blocks = 0, n_params = 0, n_locals = 0, n_body = 0;
  for (uint32_t i = start + 1; i < end; i++) {
    const spv_insn_ref *in = &b->insns[i];
    if (in->op == SpvOpLabel) n_blocks++;
    else if (in->op == SpvOpFunctionParameter) n_params++;
    else if (in->op != SpvOpNop) n_body++;   /* OpNop: no IR (a module of them stays small) */
  }
  fn->n_params = n_params;
  uint32_t *params = ld_alloc(b, n_params + 1, sizeof *params);
  fn->params = params;
  if (fn->type->n_members != n_params)
    ld_fail(b, LD_ERR_INVALID, "function %s has %" PRIu32 " parameters, its type %" PRIu32,
            ld_id_name(b->m, fn->id), n_params, fn->type->n_members);
  ld_block *blocks = ld_alloc(b, n_blocks + 1, sizeof *blocks);
  ld_insn *all = ld_alloc(b, n_body + 1, sizeof *all);
  uint32_t *locals = ld_alloc(b, n_params + n_body + 1, sizeof *locals);
  fn->blocks = blocks;
  fn->n_blocks = n_blocks;
  fn->is_import = n_blocks == 0;
  fn->locals = locals;
  uint32_t bi = 0, pi = 0;
  for (uint32_t i = start + 1; i < end; i++) {
    const spv_insn_ref *in = &b->insns[i];
    b->cur = in;
    if (in->op == SpvOpFunctionParameter) {
      if (bi) ld_fail(b, LD_ERR_INVALID, "OpFunctionParameter after the first block");
      if (in->n_words < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
      ld_value *v = &b->values[in->words[2]];
      v->kind = LD_V_PARAM;
      v->type = ld_get_type(b, in->words[1], "parameter type");
      v->u.param_index = pi;
      v->owner = fn;
      params[pi++] = in->words[2];
      locals[n_locals++] = in->words[2];
    } else if (in->op == SpvOpLabel) {
      if (in->n_words < 2) ld_fail(b, LD_ERR_INVALID, "missing result id");
      ld_value *v = &b->values[in->words[1]];
      ld_block *blk = &blocks[bi];
      blk->label = in->words[1];
      blk->index = bi++;
      blk->fn = fn;
      v->kind = LD_V_LABEL;
      v->u.block = blk;
      v->owner = fn;
    } else {
      const spv_opcode_desc *d = spv_opcode_info(in->op);
      if (d && d->has_result) {
        uint32_t ri = d->has_type ? 2 : 1;
        if (in->n_words <= ri) ld_fail(b, LD_ERR_INVALID, "missing result id");
        ld_value *v = &b->values[in->words[ri]];
        if (is_debug_extinst(b, in)) {
          v->kind = LD_V_DEBUG;
        } else {
          v->kind = LD_V_RESULT;
          locals[n_locals++] = in->words[ri];
        }
        v->owner = fn;
        if (d->has_type) v->type = ld_get_type(b, in->words[1], "result type");
      }
    }
  }
  for (uint32_t i = 0; i < n_params; i++)
    if (b->values[params[i]].type != fn->type->members[i])
      ld_fail(b, LD_ERR_INVALID, "parameter %s does not match the function type",
              ld_id_name(b->m, params[i]));
  fn->n_locals = n_locals;

  /* Pass 2: fill blocks with insns. */
  ld_block *blk = NULL;
  bool terminated = true;
  uint32_t ni = 0;
  const ld_srcloc *loc = NULL;
  b->cur_loc = NULL;
  for (uint32_t i = start + 1; i < end; i++) {
    const spv_insn_ref *in = &b->insns[i];
    b->cur = in;
    b->cur_loc = loc;
    switch (in->op) {
    case SpvOpFunctionParameter:
      continue;
    case SpvOpLine: {
      if (in->n_words < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
      const ld_value *f = ld_get(b, in->words[1], "file");
      if (f->kind != LD_V_STRING) ld_fail(b, LD_ERR_INVALID, "OpLine file is not an OpString");
      ld_srcloc *l = ld_alloc(b, 1, sizeof *l);
      l->file = f->u.str;
      l->line = in->words[2];
      l->column = in->words[3];
      loc = l;
      continue;
    }
    case SpvOpNoLine:
      loc = NULL;
      continue;
    case SpvOpLabel:
      if (!terminated)
        ld_fail(b, LD_ERR_INVALID, "block %s does not end with a terminator",
                ld_id_name(b->m, blk->label));
      blk = (ld_block *)b->values[in->words[1]].u.block;
      blk->insns = all + ni;
      terminated = false;
      continue;
    default:
      break;
    }
    if (!blk || terminated)
      ld_fail(b, LD_ERR_INVALID, "instruction outside of a block");
    if (in->op == SpvOpSelectionMerge || in->op == SpvOpLoopMerge) {
      if (in->n_words < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
      blk->merge = get_label(b, fn, in->words[1], "merge block");
      if (in->op == SpvOpLoopMerge) {
        if (in->n_words < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
        blk->loop_continue = get_label(b, fn, in->words[2], "continue target");
      }
      continue;
    }
    if (is_debug_extinst(b, in) || in->op == SpvOpNop) {
      /* OpenCL.DebugInfo.100 / NonSemantic.*, OpNop: no execution meaning */
      continue;
    }
    if (in->op == SpvOpPhi && blk->n_phis != blk->n_insns)
      ld_fail(b, LD_ERR_INVALID, "OpPhi after a non-OpPhi instruction in block %s",
              ld_id_name(b->m, blk->label));
    ld_insn *insn = &all[ni++];
    const spv_opcode_desc *d = spv_opcode_info(in->op);
    uint32_t skip = 1;
    insn->op = in->op;
    if (d && d->has_type) {
      if (in->n_words < 2) ld_fail(b, LD_ERR_INVALID, "missing result type");
      insn->type = ld_get_type(b, in->words[1], "result type");
      skip++;
    }
    if (d && d->has_result) {
      if (in->n_words <= skip) ld_fail(b, LD_ERR_INVALID, "missing result id");
      insn->result = in->words[skip];
      skip++;
      ld_value *v = &b->values[insn->result];
      if (v->kind == LD_V_RESULT) v->u.insn = insn;
    }
    if (skip > in->n_words) skip = in->n_words;
    insn->ops = in->words + skip;
    insn->n_ops = in->n_words - skip;
    insn->word_offset = in->offset;
    insn->loc = loc;
    insn->block = blk;
    insn->index = blk->n_insns++;
    if (in->op == SpvOpPhi) blk->n_phis++;
    check_insn(b, fn, insn, in);
    if (is_terminator(in->op)) {
      terminated = true;
      loc = NULL;   /* an OpLine's scope ends with its block */
    }
  }
  if (blk && !terminated) {
    b->cur = &b->insns[end];
    ld_fail(b, LD_ERR_INVALID, "block %s does not end with a terminator", ld_id_name(b->m, blk->label));
  }
  b->cur_loc = NULL;
}

/* Call depth: DFS over the static call graph (0 = calls nothing). */
static uint32_t call_depth(ld_b *b, ld_function *fn, uint8_t *state, uint32_t *depth,
                           ld_function **fns, uint32_t nest) {
  uint32_t idx = fn->id;
  (void)fns;
  if (state[idx] == 2) return depth[idx];
  if (state[idx] == 1 || nest > 10000) return UINT32_MAX;
  state[idx] = 1;
  uint32_t d = 0;
  for (uint32_t bi = 0; bi < fn->n_blocks; bi++) {
    const ld_block *blk = &fn->blocks[bi];
    for (uint32_t i = 0; i < blk->n_insns; i++) {
      if (blk->insns[i].op != SpvOpFunctionCall) continue;
      ld_function *callee = (ld_function *)b->values[blk->insns[i].ops[0]].u.fn;
      uint32_t cd = call_depth(b, callee, state, depth, fns, nest + 1);
      if (cd == UINT32_MAX) d = UINT32_MAX;
      else if (d != UINT32_MAX && cd + 1 > d) d = cd + 1;
    }
  }
  state[idx] = 2;
  depth[idx] = d;
  fn->max_call_depth = d;
  return d;
}

/* ------------------------------------------------------------- kernels */

static const ld_function *pass_through_callee(ld_b *b, const ld_function *fn) {
  if (fn->n_blocks != 1) return NULL;
  const ld_block *blk = &fn->blocks[0];
  const ld_insn *call = NULL;
  for (uint32_t i = 0; i < blk->n_insns; i++) {
    const ld_insn *in = &blk->insns[i];
    if (in->op == SpvOpFunctionCall) {
      if (call) return NULL;
      call = in;
    } else if (in->op != SpvOpReturn && in->op != SpvOpReturnValue) {
      return NULL;
    }
  }
  if (!call) return NULL;
  const ld_function *callee = b->values[call->ops[0]].u.fn;
  if (callee->n_params != fn->n_params) return NULL;
  for (uint32_t i = 0; i < fn->n_params; i++)
    if (call->ops[1 + i] != fn->params[i]) return NULL;
  return callee;
}

static bool has_param_attr(ld_b *b, uint32_t id, uint32_t attr) {
  for (uint32_t i = b->deco_head[id]; i; i = b->deco_next[i - 1]) {
    const ld_decoration *d = &b->decos[i - 1];
    if (d->member == -1 && d->decoration == SpvDecorationFuncParamAttr &&
        d->n_literals >= 1 && d->literals[0] == attr)
      return true;
  }
  return false;
}

static void build_kernel_args(ld_b *b, ld_kernel *k) {
  const ld_function *fn = k->fn;
  const ld_function *callee = pass_through_callee(b, fn);
  k->n_args = fn->n_params;
  ld_kernel_arg *args = ld_alloc(b, fn->n_params + 1, sizeof *args);
  k->args = args;
  /* llvm-spirv with -cl-kernel-arg-info: OpString "kernel_arg_type.<k>.<t1>,<t2>," */
  const char *type_list = NULL;
  size_t plen = strlen("kernel_arg_type.") + strlen(k->name) + 1;
  for (uint32_t si = 0; si < b->n_arg_strings && !type_list; si++) {
    const ld_value *v = &b->values[b->arg_strings[si]];
    if (v->kind != LD_V_STRING || strncmp(v->u.str, "kernel_arg_type.", 16) != 0) continue;
    const char *rest = v->u.str + 16;
    size_t nl = strlen(k->name);
    if (strncmp(rest, k->name, nl) == 0 && rest[nl] == '.') type_list = v->u.str + plen;
  }
  for (uint32_t i = 0; i < fn->n_params; i++) {
    ld_kernel_arg *a = &args[i];
    uint32_t pid = fn->params[i];
    const ld_value *pv = &b->values[pid];
    const ld_type *t = pv->type;
    a->type = t;
    a->name = pv->name;
    uint32_t cid = callee ? callee->params[i] : 0;
    if (!a->name && callee) a->name = b->values[cid].name;
    if (!a->name) {
      char buf[24];
      snprintf(buf, sizeof buf, "arg%" PRIu32, i);
      a->name = ld_strdup(b, buf);
    }
    bool nowrite = has_param_attr(b, pid, SpvFunctionParameterAttributeNoWrite) ||
                   ld_find_deco(b, pid, -1, SpvDecorationNonWritable) ||
                   (cid && (has_param_attr(b, cid, SpvFunctionParameterAttributeNoWrite) ||
                            ld_find_deco(b, cid, -1, SpvDecorationNonWritable)));
    switch (t->kind) {
    case LD_T_POINTER:
      a->value_size = t->elem ? t->elem->size : 0;
      if (t->storage == SpvStorageClassWorkgroup) {
        a->kind = LD_ARG_LOCAL;
      } else if (t->storage == SpvStorageClassFunction) {
        /* struct passed by value (ByVal): the launch copies the bytes */
        a->kind = LD_ARG_VALUE;
      } else {
        a->kind = LD_ARG_BUFFER;
        a->is_const = nowrite || t->storage == SpvStorageClassUniformConstant;
      }
      break;
    case LD_T_IMAGE: case LD_T_SAMPLED_IMAGE:
      a->kind = LD_ARG_IMAGE;
      a->value_size = t->size;
      break;
    case LD_T_SAMPLER:
      a->kind = LD_ARG_SAMPLER;
      a->value_size = t->size;
      break;
    case LD_T_BOOL: case LD_T_INT: case LD_T_FLOAT: case LD_T_VECTOR: case LD_T_STRUCT:
    case LD_T_ARRAY:
      a->kind = LD_ARG_VALUE;
      a->value_size = t->size;
      break;
    default:
      a->kind = LD_ARG_OTHER;
      a->value_size = t->size;
      break;
    }
    if (type_list) {
      const char *e = strchr(type_list, ',');
      size_t len = e ? (size_t)(e - type_list) : strlen(type_list);
      char *s = ld_alloc(b, len + 1, 1);
      memcpy(s, type_list, len);
      a->type_name = s;
      type_list = e ? e + 1 : NULL;
      if (type_list && !*type_list) type_list = NULL;
    }
  }
}

static void apply_exec_mode(ld_b *b, ld_kernel *k, const spv_insn_ref *in) {
  const uint32_t *w = in->words;
  uint32_t n = in->n_words;
  uint32_t mode = w[2];
  bool is_id = in->op == SpvOpExecutionModeId;
  uint32_t lit[3] = {0, 0, 0};
  for (uint32_t i = 0; i < 3 && 3 + i < n; i++) {
    if (is_id) lit[i] = (uint32_t)ld_const_u64(ld_get_const(b, w[3 + i], "execution mode operand"));
    else lit[i] = w[3 + i];
  }
  switch (mode) {
  case SpvExecutionModeLocalSize:
  case SpvExecutionModeLocalSizeId:
    if (n < 6) ld_fail(b, LD_ERR_INVALID, "missing operands");
    memcpy(k->local_size, lit, sizeof lit);
    break;
  case SpvExecutionModeLocalSizeHint:
  case SpvExecutionModeLocalSizeHintId:
    if (n < 6) ld_fail(b, LD_ERR_INVALID, "missing operands");
    memcpy(k->local_size_hint, lit, sizeof lit);
    break;
  case SpvExecutionModeSubgroupSize:
    if (n < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
    k->subgroup_size = lit[0];
    break;
  case SpvExecutionModeSubgroupsPerWorkgroup:
  case SpvExecutionModeSubgroupsPerWorkgroupId:
    if (n < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
    k->subgroups_per_wg = lit[0];
    break;
  case SpvExecutionModeVecTypeHint:
    if (n < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
    k->vec_type_hint = lit[0];
    break;
  case SpvExecutionModeContractionOff:
    k->contraction_off = true;
    break;
  case SpvExecutionModeDenormPreserve:
    k->denorm_preserve = true;
    k->float_controls = true;
    break;
  case SpvExecutionModeDenormFlushToZero:
  case SpvExecutionModeSignedZeroInfNanPreserve:
  case SpvExecutionModeRoundingModeRTE:
  case SpvExecutionModeRoundingModeRTZ:
    k->float_controls = true;
    break;
  default:
    break;
  }
}

/* ------------------------------------------------------------------ load */

/* A copy of the module without its debug information (the OpExtInst of the
 * OpenCL.DebugInfo.100 / DebugInfo / NonSemantic.Shader.DebugInfo.100 sets
 * and their imports), for spirv-val; NULL when there is none.  Debian 12's
 * spirv-val checks OpenCL.DebugInfo.100 more strictly than llvm-spirv-15
 * writes it (DebugSource's Text as DebugInfoNone, a DebugTypePointer to a
 * DebugTypeQualifier), so every .cl compiled with -g would warn; the
 * validator is asked about the program, which is what runs. */
static uint32_t *without_debug_info(const uint32_t *w, size_t n, size_t *out_n) {
  uint32_t sets[8];
  unsigned n_sets = 0;
  for (size_t i = 5; i < n;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
    if (!wc || i + wc > n) return NULL;
    if (op == SpvOpExtInstImport && wc >= 3 && n_sets < 8) {
      const char *name = (const char *)&w[i + 2];
      size_t max = (wc - 2) * 4;
      if (memchr(name, 0, max) && (!strcmp(name, "OpenCL.DebugInfo.100") || !strcmp(name, "DebugInfo") ||
                                   !strcmp(name, "NonSemantic.Shader.DebugInfo.100")))
        sets[n_sets++] = w[i + 1];
    }
    i += wc;
  }
  if (!n_sets) return NULL;
  uint32_t *c = malloc(n * sizeof *c);
  if (!c) return NULL;
  memcpy(c, w, 5 * sizeof *c);
  size_t k = 5;
  for (size_t i = 5; i < n;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
    bool drop = false;
    for (unsigned s = 0; s < n_sets; s++)
      drop |= (op == SpvOpExtInstImport && w[i + 1] == sets[s]) || (op == SpvOpExtInst && wc >= 4 && w[i + 3] == sets[s]);
    if (!drop) {
      memcpy(&c[k], &w[i], wc * sizeof *c);
      k += wc;
    }
    i += wc;
  }
  *out_n = k;
  return c;
}

/* A built-in input variable must have its built-in's type in the OpenCL
 * environment: three size_t components for the ids and sizes, one size_t
 * for the linear ids, a 32-bit integer for the dimension count and the
 * subgroup values, four 32-bit words for the subgroup masks.  The runtime
 * fills each one's region by that type, so a variable of another type
 * (a fuzzed module decorated a uint3-of-ulong GlobalSize as WorkDim) would
 * be read differently by the two backends. */
static void check_builtin_type(ld_b *b, const ld_variable *var) {
  const ld_module *m = b->m;
  const ld_type *t = var->pointee;
  uint32_t want_n = 0, want_w = 0;   /* components (1: scalar), bits */
  switch ((SpvBuiltIn)var->builtin) {
  case SpvBuiltInGlobalInvocationId: case SpvBuiltInLocalInvocationId: case SpvBuiltInWorkgroupId:
  case SpvBuiltInNumWorkgroups: case SpvBuiltInWorkgroupSize: case SpvBuiltInEnqueuedWorkgroupSize:
  case SpvBuiltInGlobalSize: case SpvBuiltInGlobalOffset:
    want_n = 3; want_w = m->addr_bits; break;
  case SpvBuiltInGlobalLinearId: case SpvBuiltInLocalInvocationIndex:
    want_n = 1; want_w = m->addr_bits; break;
  case SpvBuiltInWorkDim: case SpvBuiltInSubgroupSize: case SpvBuiltInSubgroupMaxSize:
  case SpvBuiltInNumSubgroups: case SpvBuiltInNumEnqueuedSubgroups: case SpvBuiltInSubgroupId:
  case SpvBuiltInSubgroupLocalInvocationId:
    want_n = 1; want_w = 32; break;
  case SpvBuiltInSubgroupEqMask: case SpvBuiltInSubgroupGeMask: case SpvBuiltInSubgroupGtMask:
  case SpvBuiltInSubgroupLeMask: case SpvBuiltInSubgroupLtMask:
    want_n = 4; want_w = 32; break;
  default:
    return;
  }
  const ld_type *c = t && t->kind == LD_T_VECTOR ? t->elem : t;
  uint32_t n = t && t->kind == LD_T_VECTOR ? t->count : 1;
  if (!c || c->kind != LD_T_INT || c->width != want_w || n != want_n)
    ld_fail(b, LD_ERR_INVALID, "built-in variable %s (BuiltIn %s) must be %s%u-bit integer%s", ld_id_name(m, var->id),
            spv_builtin_name((SpvBuiltIn)var->builtin) ? spv_builtin_name((SpvBuiltIn)var->builtin) : "?",
            want_n > 1 ? (want_n == 3 ? "a vector of 3 " : "a vector of 4 ") : "a ", want_w, want_n > 1 ? "s" : "");
}

static ld_result load(ld_b *b, spv_binary *bin) {
  ld_module *m = b->m;
  const ld_options *opt = b->opt;
  m->version = bin->version;
  m->generator = bin->generator;
  m->bound = bin->bound;
  b->bound = bin->bound;
  if (bin->bound == 0 || bin->bound > 0x3fffff)
    ld_fail(b, LD_ERR_INVALID, "id bound %" PRIu32 " is not supported (must be 1..4194303)", bin->bound);
  if (bin->n_words < 5) ld_fail(b, LD_ERR_INVALID, "truncated header");

  /* Count (and so check) the instructions before validation, whose memory
   * grows with their number (about 170 bytes each for spirv-val). */
  char err[300];
  uint32_t off = 5, count = 0;
  spv_insn_ref ref;
  int r;
  uint64_t max_insns = opt && opt->max_insns ? opt->max_insns : LD_DEFAULT_MAX_INSNS;
  while ((r = spv_next_insn(bin, &off, &ref, err, sizeof err)) == 1) {
    if (++count > max_insns)
      ld_fail(b, LD_ERR_INVALID, "module has more than %" PRIu64 " instructions, the limit "
              "(raise it with --max-instructions)", max_insns);
  }
  if (r < 0) ld_fail(b, LD_ERR_INVALID, "%s", err);

  /* Validation first: later errors may be explained by it.  Only up to
   * max_validate_insns: spirv-val's memory (about 170 bytes an instruction,
   * 40 times a module of OpNop) would dwarf the loader's own. */
  uint64_t max_val = opt && opt->max_validate_insns ? opt->max_validate_insns : LD_DEFAULT_MAX_VALIDATE_INSNS;
  bool validate = !opt || opt->validate != LD_VALIDATE_OFF;
  if (validate && count > max_val) {
    if (opt && opt->validate == LD_VALIDATE_STRICT)
      ld_fail(b, LD_ERR_INVALID, "module of %" PRIu32 " instructions: more than %" PRIu64 " to validate with "
              "spirv-val, which --strict-validate requires (raise it with --max-validate-instructions)",
              count, max_val);
    ld_msg(b, LD_WARNING, "spirv-val skipped: %" PRIu32 " instructions, more than %" PRIu64 " (it needs about 170 "
           "bytes an instruction; raise it with --max-validate-instructions); the loader's own checks apply",
           count, max_val);
    validate = false;
  }
  char guard[300];
  if (validate && ld_valguard(bin->words, bin->n_words, bin->bound, guard, sizeof guard)) {
    if (opt && opt->validate == LD_VALIDATE_STRICT)
      ld_fail(b, LD_ERR_INVALID, "module does not validate: %s", guard);
    ld_msg(b, LD_WARNING, "spirv-val skipped: %s (SPIRV-Tools 2023.1 crashes on this shape); "
           "the loader's own checks apply", guard);
    validate = false;
  }
  if (validate) {
    char msg[700];
    size_t n_plain = 0;
    uint32_t *plain = without_debug_info(bin->words, bin->n_words, &n_plain);
    r = plain ? ld_tools_validate(plain, n_plain, bin->version, msg, sizeof msg)
                  : ld_tools_validate(bin->words, bin->n_words, bin->version, msg, sizeof msg);
    free(plain);
    if (r == 1 && opt && opt->validate == LD_VALIDATE_STRICT)
      ld_fail(b, LD_ERR_INVALID, "module does not validate (spirv-val): %s", msg);
    if (r == 1) ld_msg(b, LD_WARNING, "module does not validate (spirv-val): %s; running anyway", msg);
    if (r < 0) ld_msg(b, LD_WARNING, "validation skipped: %s", msg);
  }

  uint32_t *words = ld_alloc(b, bin->n_words, sizeof *words);
  memcpy(words, bin->words, bin->n_words * sizeof *words);
  /* the module keeps its own copy: the binary's goes now, before the IR
   * grows (peak memory of a large module) */
  free(bin->words);
  bin->words = NULL;
  b->words = words;
  b->n_words = bin->n_words;
  spv_binary view = *bin;
  view.words = words;

  /* Split into instructions (counted above). */
  b->insns = ld_alloc(b, count + 1, sizeof *b->insns);
  off = 5;
  while (spv_next_insn(&view, &off, &b->insns[b->n_insns], err, sizeof err) == 1) b->n_insns++;

  b->values = ld_alloc(b, b->bound, sizeof *b->values);
  b->info = ld_alloc(b, b->bound, sizeof *b->info);
  m->values = b->values;
  for (uint32_t i = 0; i < b->bound; i++) {
    b->values[i].builtin = -1;
    b->values[i].spec_id = -1;
    b->values[i].fp_contraction_allowed = true;
  }

  /* Module-level facts. */
  uint32_t n_caps = 0, n_exts = 0, n_decos = 0, n_eps = 0, n_type_insns = 0, n_spec = 0;
  uint32_t n_vars = 0, n_funcs = 0, n_strings = 0;
  bool have_mm = false;
  for (uint32_t i = 0; i < b->n_insns; i++) {
    const spv_insn_ref *in = &b->insns[i];
    b->cur = in;
    switch (in->op) {
    case SpvOpCapability: n_caps++; break;
    case SpvOpExtension: n_exts++; break;
    case SpvOpDecorate: case SpvOpMemberDecorate: case SpvOpDecorateId: case SpvOpDecorateString:
    case SpvOpMemberDecorateString:
      n_decos++;
      break;
    case SpvOpGroupDecorate: case SpvOpGroupMemberDecorate:
      break;
    case SpvOpEntryPoint: n_eps++; break;
    case SpvOpString: n_strings++; break;
    case SpvOpSpecConstant: case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse:
    case SpvOpSpecConstantComposite: case SpvOpSpecConstantOp:
      n_spec++;
      break;
    case SpvOpVariable: n_vars++; break;
    case SpvOpFunction: n_funcs++; break;
    default: break;
    }
    if (is_type_op(in->op)) n_type_insns++;
    /* result ids: defined at most once, inside the bound */
    const spv_opcode_desc *d = spv_opcode_info(in->op);
    if (d && d->has_result) {
      uint32_t ri = d->has_type ? 2 : 1;
      if (in->n_words <= ri) ld_fail(b, LD_ERR_INVALID, "missing result id");
      define(b, in->words[ri], in);
    }
  }
  if (n_decos > 0x3fffffff) ld_fail(b, LD_ERR_INVALID, "too many decorations");
  SpvCapability *caps = ld_alloc(b, n_caps + 1, sizeof *caps);
  const char **exts = ld_alloc(b, n_exts + 1, sizeof *exts);
  b->decos = ld_alloc(b, n_decos + 1, sizeof *b->decos);
  ep_rec *eps = ld_alloc(b, n_eps + 1, sizeof *eps);
  b->arg_strings = ld_alloc(b, n_strings + 1, sizeof *b->arg_strings);
  b->spec_ids = ld_alloc(b, n_spec + 1, sizeof *b->spec_ids);
  b->vars = ld_alloc(b, n_vars + 1, sizeof *b->vars);
  m->capabilities = caps;
  m->extensions = exts;
  m->addr_bits = 64;
  m->addressing = SpvAddressingModelPhysical64;
  uint32_t ne = 0;
  for (uint32_t i = 0; i < b->n_insns; i++) {
    const spv_insn_ref *in = &b->insns[i];
    const uint32_t *w = in->words;
    b->cur = in;
    switch (in->op) {
    case SpvOpCapability:
      if (in->n_words < 2) ld_fail(b, LD_ERR_INVALID, "missing operands");
      check_capability(b, w[1]);
      caps[m->n_capabilities++] = (SpvCapability)w[1];
      break;
    case SpvOpExtension:
      exts[m->n_extensions++] = insn_string(b, in, 1, NULL);
      break;
    case SpvOpExtInstImport: {
      const char *s = insn_string(b, in, 2, NULL);
      b->values[w[1]].kind = LD_V_EXT_SET;
      b->values[w[1]].u.ext_set = classify_set(s);
      break;
    }
    case SpvOpString:
      if (in->n_words < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
      b->values[w[1]].kind = LD_V_STRING;
      b->values[w[1]].u.str = insn_string(b, in, 2, NULL);
      if (strncmp(b->values[w[1]].u.str, "kernel_arg_type.", 16) == 0)
        b->arg_strings[b->n_arg_strings++] = w[1];
      break;
    case SpvOpMemoryModel:
      if (in->n_words < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
      have_mm = true;
      m->addressing = (SpvAddressingModel)w[1];
      m->memory_model = (SpvMemoryModel)w[2];
      if (w[1] == SpvAddressingModelPhysical32) m->addr_bits = 32;
      else m->addr_bits = 64;
      if (w[2] != SpvMemoryModelOpenCL)
        ld_fail(b, LD_ERR_UNSUPPORTED, "memory model %s is not supported: only OpenCL kernels run here",
                spv_enum_name("MemoryModel", w[2]) ? spv_enum_name("MemoryModel", w[2]) : "?");
      break;
    case SpvOpSource:
      if (in->n_words >= 3) {
        m->source_language = (SpvSourceLanguage)w[1];
        m->source_version = w[2];
      }
      break;
    case SpvOpName:
      if (in->n_words < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
      if (w[1] == 0 || w[1] >= b->bound) ld_fail(b, LD_ERR_INVALID, "target id %" PRIu32 " is out of bounds", w[1]);
      b->values[w[1]].name = insn_string(b, in, 2, NULL);
      break;
    case SpvOpMemberName:
      if (in->n_words < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
      insn_string(b, in, 3, NULL);
      break;
    case SpvOpDecorate: case SpvOpDecorateId: case SpvOpDecorateString:
      if (in->n_words < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
      if (w[1] == 0 || w[1] >= b->bound) ld_fail(b, LD_ERR_INVALID, "target id %" PRIu32 " is out of bounds", w[1]);
      add_deco(b, w[1], -1, w + 2, in->n_words - 2, in->op == SpvOpDecorateString);
      break;
    case SpvOpMemberDecorate: case SpvOpMemberDecorateString:
      if (in->n_words < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
      if (w[1] == 0 || w[1] >= b->bound) ld_fail(b, LD_ERR_INVALID, "target id %" PRIu32 " is out of bounds", w[1]);
      add_deco(b, w[1], (int32_t)(w[2] & 0x7fffffff), w + 3, in->n_words - 3,
               in->op == SpvOpMemberDecorateString);
      break;
    case SpvOpEntryPoint: {
      if (in->n_words < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
      if (w[1] != SpvExecutionModelKernel)
        ld_fail(b, LD_ERR_UNSUPPORTED,
                "execution model %s is not supported: only OpenCL kernels (Kernel execution model) run here",
                spv_enum_name("ExecutionModel", w[1]) ? spv_enum_name("ExecutionModel", w[1]) : "?");
      uint32_t used;
      eps[ne].fn = w[2];
      eps[ne].name = insn_string(b, in, 3, &used);
      eps[ne].iface = w + 3 + used;
      eps[ne].n_iface = in->n_words - 3 - used;
      ne++;
      break;
    }
    default:
      break;
    }
  }
  b->cur = NULL;
  if (!have_mm) ld_fail(b, LD_ERR_INVALID, "no OpMemoryModel");
  if (ne == 0) ld_fail(b, LD_ERR_INVALID, "no entry point: the module has no OpEntryPoint Kernel");
  ld_addr_layout_for(m->addr_bits, &m->layout);

  /* Decoration groups: OpGroupDecorate copies the group's decorations. */
  uint32_t base_decos = b->n_decos;
  uint64_t extra = 0;
  for (uint32_t i = 0; i < b->n_insns; i++) {
    const spv_insn_ref *in = &b->insns[i];
    if (in->op != SpvOpGroupDecorate && in->op != SpvOpGroupMemberDecorate) continue;
    if (in->n_words < 2) continue;
    uint64_t per = 0;
    for (uint32_t k = 0; k < base_decos; k++) per += b->decos[k].target == in->words[1];
    extra += per * in->n_words;
    if (extra > 0x3fffffff) {
      b->cur = in;
      ld_fail(b, LD_ERR_INVALID, "too many decorations");
    }
  }
  if (extra) {
    ld_decoration *nd = ld_alloc(b, base_decos + extra + 1, sizeof *nd);
    memcpy(nd, b->decos, base_decos * sizeof *nd);
    b->decos = nd;
    n_decos = base_decos + (uint32_t)extra;
  }
  for (uint32_t i = 0; i < b->n_insns && extra; i++) {
    const spv_insn_ref *in = &b->insns[i];
    if (in->op != SpvOpGroupDecorate && in->op != SpvOpGroupMemberDecorate) continue;
    b->cur = in;
    if (in->n_words < 2) ld_fail(b, LD_ERR_INVALID, "missing operands");
    uint32_t grp = in->words[1];
    uint32_t step = in->op == SpvOpGroupDecorate ? 1 : 2;
    for (uint32_t t = 2; t + step - 1 < in->n_words; t += step) {
      uint32_t target = in->words[t];
      if (target == 0 || target >= b->bound) ld_fail(b, LD_ERR_INVALID, "target id %" PRIu32 " is out of bounds", target);
      for (uint32_t k = 0; k < base_decos; k++) {
        if (b->decos[k].target != grp) continue;
        if (b->n_decos >= n_decos) break;
        ld_decoration *d = &b->decos[b->n_decos++];
        *d = b->decos[k];
        d->target = target;
        d->member = step == 2 ? (int32_t)(in->words[t + 1] & 0x7fffffff) : -1;
      }
    }
  }
  /* Per-target chains for ld_find_deco. */
  b->deco_head = ld_alloc(b, b->bound, sizeof *b->deco_head);
  b->deco_next = ld_alloc(b, b->n_decos + 1, sizeof *b->deco_next);
  for (uint32_t i = b->n_decos; i-- > 0;) {
    uint32_t t = b->decos[i].target;
    b->deco_next[i] = b->deco_head[t];
    b->deco_head[t] = i + 1;
  }
  b->cur = NULL;
  m->decorations = b->decos;
  m->n_decorations = b->n_decos;
  for (uint32_t i = 0; i < b->n_decos; i++) {
    const ld_decoration *d = &b->decos[i];
    if (d->member != -1) continue;
    ld_value *v = &b->values[d->target];
    switch (d->decoration) {
    case SpvDecorationBuiltIn: if (d->n_literals) v->builtin = (int32_t)d->literals[0]; break;
    case SpvDecorationAlignment: if (d->n_literals) v->alignment = d->literals[0]; break;
    case SpvDecorationSpecId: if (d->n_literals) v->spec_id = (int32_t)(d->literals[0] & 0x7fffffff); break;
    case SpvDecorationNoContraction: v->fp_contraction_allowed = false; break;
    default: break;
    }
    if (d->decoration == SpvDecorationLinkageAttributes && d->string && !v->name) v->name = d->string;
  }

  /* Global section: types, constants, variables, in order. */
  void ld_types_begin(ld_b *b, uint32_t n_type_insns);
  ld_types_begin(b, n_type_insns);
  uint32_t first_fn = b->n_insns;
  uint32_t n_global = 0, n_local = 0, n_input = 0;
  for (uint32_t i = 0; i < b->n_insns; i++) {
    const spv_insn_ref *in = &b->insns[i];
    b->cur = in;
    if (in->op == SpvOpFunction) { first_fn = i; break; }
    if (is_type_op(in->op)) {
      ld_decode_type(b, in);
    } else if (is_const_op(in->op)) {
      ld_decode_constant(b, in);
    } else if (in->op == SpvOpVariable) {
      if (in->n_words < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
      const ld_type *pt = ld_get_type(b, in->words[1], "variable type");
      if (pt->kind != LD_T_POINTER || !pt->elem)
        ld_fail(b, LD_ERR_INVALID, "variable type %s is not a pointer", ld_id_name(m, in->words[1]));
      SpvStorageClass sc = (SpvStorageClass)in->words[3];
      if (sc != pt->storage) ld_fail(b, LD_ERR_INVALID, "storage class does not match the pointer type");
      ld_variable *var = ld_alloc(b, 1, sizeof *var);
      uint32_t id = in->words[2];
      var->id = id;
      var->storage = sc;
      var->type = pt;
      var->pointee = pt->elem;
      var->builtin = b->values[id].builtin;
      var->index = b->n_vars;
      var->name = b->values[id].name;
      uint32_t region;
      switch (sc) {
      case SpvStorageClassUniformConstant: case SpvStorageClassCrossWorkgroup:
        var->class_ordinal = n_global++;
        region = 1 + var->class_ordinal;
        if (region >= m->layout.local_base) ld_fail(b, LD_ERR_UNSUPPORTED, "too many global variables");
        break;
      case SpvStorageClassWorkgroup:
        var->class_ordinal = n_local++;
        region = m->layout.local_base + var->class_ordinal;
        if (region >= m->layout.builtin_base) ld_fail(b, LD_ERR_UNSUPPORTED, "too many local variables");
        break;
      case SpvStorageClassInput:
        if (var->builtin >= 0) check_builtin_type(b, var);
        var->class_ordinal = n_input++;
        region = m->layout.builtin_base + var->class_ordinal;
        if (region >= m->layout.priv_base) ld_fail(b, LD_ERR_UNSUPPORTED, "too many input variables");
        break;
      default:
        ld_fail(b, LD_ERR_UNSUPPORTED, "module-scope variable %s in storage class %s is not supported",
                ld_id_name(m, id), spv_storage_class_name(sc) ? spv_storage_class_name(sc) : "?");
      }
      var->address = (uint64_t)region << m->layout.shift;
      if (in->n_words > 4) {
        const ld_value *iv = ld_get(b, in->words[4], "initializer");
        if (iv->kind == LD_V_CONSTANT || iv->kind == LD_V_UNDEF) {
          if (!iv->type || iv->type->size != var->pointee->size)
            ld_fail(b, LD_ERR_INVALID, "initializer type does not match the variable");
          var->init = iv->u.bytes;
        } else if (iv->kind == LD_V_VARIABLE && var->pointee->kind == LD_T_POINTER) {
          uint8_t *p = ld_alloc(b, 8, 1);
          uint64_t a = iv->u.var->address;
          for (int k = 0; k < 8; k++) p[k] = (uint8_t)(a >> (8 * k));
          var->init = p;
        } else {
          ld_fail(b, LD_ERR_INVALID, "initializer %s is not a constant", ld_id_name(m, in->words[4]));
        }
      }
      ld_value *v = &b->values[id];
      v->kind = LD_V_VARIABLE;
      v->type = pt;
      v->u.var = var;
      b->vars[b->n_vars++] = var;
    } else if (in->op == SpvOpExtInst) {
      if (in->n_words < 5) ld_fail(b, LD_ERR_INVALID, "missing operands");
      if (!is_debug_extinst(b, in))
        ld_fail(b, LD_ERR_INVALID, "extended instruction outside of a function");
      b->values[in->words[2]].kind = LD_V_DEBUG;
    } else if (in->op == SpvOpFunctionParameter || in->op == SpvOpLabel ||
               in->op == SpvOpFunctionEnd) {
      ld_fail(b, LD_ERR_INVALID, "instruction outside of a function");
    }
  }
  b->cur = NULL;
  m->n_global_vars = n_global;
  m->n_local_vars = n_local;
  m->n_input_vars = n_input;
  /* Forward pointers: patch the pointee now that every type exists. */
  for (uint32_t i = 0; i < b->n_types; i++) {
    ld_type *t = b->types[i];
    if (t->kind != LD_T_POINTER || t->elem) continue;
    uint32_t p = t->count;
    t->count = 0;
    if (p >= b->bound || b->values[p].kind != LD_V_TYPE)
      ld_fail(b, LD_ERR_INVALID, "pointer type %s points to undefined type %%%" PRIu32,
              ld_id_name(m, t->id), p);
    t->elem = b->values[p].type;
  }

  /* Functions: define them all first (calls may go forward). */
  ld_function **fns = ld_alloc(b, n_funcs + 1, sizeof *fns);
  uint32_t *fn_start = ld_alloc(b, n_funcs + 1, sizeof *fn_start);
  uint32_t *fn_end = ld_alloc(b, n_funcs + 1, sizeof *fn_end);
  uint32_t nf = 0;
  for (uint32_t i = first_fn; i < b->n_insns; i++) {
    const spv_insn_ref *in = &b->insns[i];
    b->cur = in;
    if (in->op != SpvOpFunction)
      ld_fail(b, LD_ERR_INVALID, "instruction outside of a function");
    if (in->n_words < 5) ld_fail(b, LD_ERR_INVALID, "missing operands");
    ld_function *fn = ld_alloc(b, 1, sizeof *fn);
    fn->id = in->words[2];
    fn->ret = ld_get_type(b, in->words[1], "return type");
    fn->type = ld_get_type(b, in->words[4], "function type");
    if (fn->type->kind != LD_T_FUNCTION) ld_fail(b, LD_ERR_INVALID, "%s is not a function type", ld_id_name(m, in->words[4]));
    if (fn->type->elem != fn->ret) ld_fail(b, LD_ERR_INVALID, "return type does not match the function type");
    fn->word_offset = in->offset;
    fn->name = b->values[fn->id].name;
    ld_value *v = &b->values[fn->id];
    v->kind = LD_V_FUNCTION;
    v->type = fn->type;
    v->u.fn = fn;
    uint32_t j = i + 1;
    while (j < b->n_insns && b->insns[j].op != SpvOpFunctionEnd) {
      if (b->insns[j].op == SpvOpFunction) {
        b->cur = &b->insns[j];
        ld_fail(b, LD_ERR_INVALID, "OpFunction inside a function (missing OpFunctionEnd)");
      }
      j++;
    }
    if (j == b->n_insns) ld_fail(b, LD_ERR_INVALID, "function %s has no OpFunctionEnd", ld_id_name(m, fn->id));
    fns[nf] = fn;
    fn_start[nf] = i;
    fn_end[nf] = j;
    nf++;
    i = j;
  }
  m->functions = (const ld_function *const *)fns;
  m->n_functions = nf;
  for (uint32_t f = 0; f < nf; f++) build_function(b, fns[f], fn_start[f], fn_end[f]);
  b->cur = NULL;
  for (uint32_t f = 0; f < nf; f++) ld_build_cfg(b, fns[f]);
  for (uint32_t f = 0; f < nf; f++) check_uses(b, fns[f], fn_start[f], fn_end[f]);
  {
    uint8_t *state = ld_alloc(b, b->bound, 1);
    uint32_t *depth = ld_alloc(b, b->bound, sizeof *depth);
    for (uint32_t f = 0; f < nf; f++) call_depth(b, fns[f], state, depth, fns, 0);
  }

  /* Kernels. */
  ld_kernel *ks = ld_alloc(b, ne, sizeof *ks);
  for (uint32_t i = 0; i < ne; i++) {
    ld_kernel *k = &ks[i];
    const ld_value *fv = ld_get(b, eps[i].fn, "entry point");
    if (fv->kind != LD_V_FUNCTION) ld_fail(b, LD_ERR_INVALID, "entry point %s is not a function", eps[i].name);
    if (fv->u.fn->is_import) ld_fail(b, LD_ERR_INVALID, "entry point %s has no body", eps[i].name);
    k->name = eps[i].name;
    k->fn = fv->u.fn;
    if (!k->fn->name) ((ld_function *)k->fn)->name = k->name;
    k->n_interface = eps[i].n_iface;
    k->interface = eps[i].iface;
    for (uint32_t j = 0; j < k->n_interface; j++) {
      const ld_value *iv = ld_get(b, k->interface[j], "interface");
      if (iv->kind != LD_V_VARIABLE) ld_fail(b, LD_ERR_INVALID, "interface %s is not a module variable", ld_id_name(m, k->interface[j]));
    }
    build_kernel_args(b, k);
    eps[i].k = k;
  }
  for (uint32_t i = 0; i < b->n_insns; i++) {
    const spv_insn_ref *in = &b->insns[i];
    if (in->op != SpvOpExecutionMode && in->op != SpvOpExecutionModeId) continue;
    b->cur = in;
    if (in->n_words < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
    bool found = false;
    for (uint32_t e = 0; e < ne; e++) {
      if (eps[e].fn != in->words[1]) continue;
      apply_exec_mode(b, eps[e].k, in);
      found = true;
    }
    if (!found) ld_fail(b, LD_ERR_INVALID, "execution mode for %s, which is not an entry point", ld_id_name(m, in->words[1]));
  }
  b->cur = NULL;
  m->kernels = ks;
  m->n_kernels = ne;
  m->types = (const ld_type *const *)b->types;
  m->n_types = b->n_types;
  m->variables = (const ld_variable *const *)b->vars;
  m->n_variables = b->n_vars;
  m->spec_constants = b->spec_ids;
  m->n_spec_constants = b->n_spec;

  /* An override naming no SpecId of the module is almost always a typo. */
  for (size_t i = 0; opt && i < opt->n_spec; i++) {
    bool found = false;
    for (uint32_t k = 0; k < b->n_spec && !found; k++)
      found = b->values[b->spec_ids[k]].spec_id == (int32_t)opt->spec[i].spec_id;
    if (!found) {
      char msg[160];
      snprintf(msg, sizeof msg, "specialization constant override %u: the module has no constant with SpecId %u",
               opt->spec[i].spec_id, opt->spec[i].spec_id);
      emit(opt, LD_WARNING, msg);
    }
  }

  /* Hash over the words and the spec overrides applied. */
  size_t n_ov = opt ? opt->n_spec : 0;
  uint8_t *ovb = ld_alloc(b, n_ov * 12 + 1, 1);
  for (size_t i = 0; i < n_ov; i++) {
    uint32_t sid = opt->spec[i].spec_id;
    uint64_t val = opt->spec[i].value;
    for (int k = 0; k < 4; k++) ovb[i * 12 + (size_t)k] = (uint8_t)(sid >> (8 * k));
    for (int k = 0; k < 8; k++) ovb[i * 12 + 4 + (size_t)k] = (uint8_t)(val >> (8 * k));
  }
  ld_sha256(words, b->n_words * 4, ovb, n_ov * 12, m->hash);
  return LD_OK;
}

ld_result ld_module_load_bytes(const void *bytes, size_t n_bytes, const ld_options *opt,
                               ld_module **out) {
  static const ld_options defaults = {0};
  if (!opt) opt = &defaults;
  if (out) *out = NULL;
  char err[300];
  uint64_t max_bytes = opt->max_bytes ? opt->max_bytes : LD_DEFAULT_MAX_BYTES;
  if (n_bytes > max_bytes) {
    char msg[400];
    snprintf(msg, sizeof msg, "%s%smodule of %zu bytes is larger than the limit of %" PRIu64
             " bytes (raise it with --max-module-size)", opt->source_name ? opt->source_name : "",
             opt->source_name ? ": " : "", n_bytes, max_bytes);
    emit(opt, LD_ERROR, msg);
    return LD_ERR_INVALID;
  }
  spv_binary bin;
  if (!spv_binary_from_bytes(bytes, n_bytes, &bin, err, sizeof err)) {
    char msg[400];
    if (opt->source_name) snprintf(msg, sizeof msg, "%s: %s", opt->source_name, err);
    else snprintf(msg, sizeof msg, "%s", err);
    emit(opt, LD_ERROR, msg);
    return LD_ERR_INVALID;
  }
  ld_module_impl *impl = calloc(1, sizeof *impl);
  if (!impl) {
    spv_binary_free(&bin);
    emit(opt, LD_ERROR, "out of memory");
    return LD_ERR_NOMEM;
  }
  ld_b *b = calloc(1, sizeof *b);
  if (!b) {
    free(impl);
    spv_binary_free(&bin);
    emit(opt, LD_ERROR, "out of memory");
    return LD_ERR_NOMEM;
  }
  b->arena = &impl->arena;
  b->m = &impl->pub;
  b->opt = opt;
  ld_result res;
  if (setjmp(b->jb) == 0) {
    res = load(b, &bin);
  } else {
    res = b->res;
  }
  spv_binary_free(&bin);
  free(b);
  if (res != LD_OK) {
    ld_arena_free(&impl->arena);
    free(impl);
    return res;
  }
  if (out) *out = &impl->pub;
  else ld_module_free(&impl->pub);
  return LD_OK;
}

ld_result ld_module_load(const uint32_t *words, size_t n_words, const ld_options *opt,
                         ld_module **out) {
  size_t n_bytes;
  if (__builtin_mul_overflow(n_words, 4, &n_bytes)) n_bytes = 0;
  return ld_module_load_bytes(words, n_bytes, opt, out);
}

void ld_module_free(ld_module *m) {
  if (!m) return;
  ld_module_impl *impl = (ld_module_impl *)m;
  ld_arena_free(&impl->arena);
  free(impl);
}
