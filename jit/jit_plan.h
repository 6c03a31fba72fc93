/* jit_plan.h - the plan stage (jit_plan.c) as the compile driver (jit.c) and
 * the code generator (jit_emit*.c) use it: errors, value shapes, the checks
 * of what compiles, segments and instances, frame layout.  Not public. */
#ifndef JIT_PLAN_H
#define JIT_PLAN_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "jit_internal.h"

typedef struct plan_err { char *buf; size_t size; bool failed; } plan_err;

static inline bool failf(plan_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline bool failf(plan_err *e, const char *fmt, ...) {
  if (e->failed) return false;
  e->failed = true;
  va_list ap;
  va_start(ap, fmt);
  if (e->size) vsnprintf(e->buf, e->size, fmt, ap);
  va_end(ap);
  return false;
}

static inline const char *opname(SpvOp op) {
  static __thread char b[32];
  snprintf(b, sizeof b, "opcode %u", (unsigned)op);
  return b;
}

static inline uint32_t comp_bytes(const jit_kernel *k, const ld_type *c) {
  if (c->kind == LD_T_POINTER) return k->m->addr_bits / 8;
  if (c->kind == LD_T_BOOL) return 1;
  uint32_t w = c->width;
  return w <= 8 ? 1 : w <= 16 ? 2 : w <= 32 ? 4 : 8;
}

static inline uint32_t const_u32(const ld_module *m, uint32_t id, bool *ok) {
  const ld_value *v = &m->values[id];
  if (v->kind != LD_V_CONSTANT || !v->type || v->type->kind != LD_T_INT) { *ok = false; return 0; }
  uint64_t x = 0;
  memcpy(&x, v->u.bytes, v->type->size < 8 ? v->type->size : 8);
  return (uint32_t)x;
}

static inline bool is_half(const ld_type *t) {
  if (t && t->kind == LD_T_VECTOR) t = t->elem;
  return t && t->kind == LD_T_FLOAT && t->width == 16;
}

/* One instruction executed by the interpreter's own handler (rt_interp). */
static inline bool is_handle(const ld_type *t) { return t && (t->kind == LD_T_IMAGE || t->kind == LD_T_SAMPLER); }

/* Slots: enumerates every (instance, id) needing a field, in a fixed order. */
/* Slots: enum_slots calls cb for every (instance, id) needing a frame field,
 * in a fixed order; layout_cb (with a layout_u) assigns their offsets. */
typedef void (*slot_cb)(void *u, uint32_t inst, uint32_t id, bool phitmp, const ld_type *t);
typedef struct layout_u { jit_kernel *k; uint64_t off; } layout_u;

/* jit_plan.c */
bool lane_shape(const ld_type *t, const ld_type **comp, uint32_t *n);
bool is_wg_barrier(const ld_module *m, const ld_insn *in);
bool wg_scoped(const ld_module *m, const ld_insn *in);
const char *ocl_libm(uint32_t op, int *n);
bool plan_may_suspend(const jit_kernel *k);
bool native_ok(const ld_module *m, const ld_insn *in);
void conv_decorations(const ld_module *m, uint32_t id, int *mode, bool *sat);
bool handle_ldst(const ld_module *m, const ld_insn *in);
uint32_t add_insn_index(jit_kernel *k, const ld_insn *in);
int32_t plan_inst(jit_kernel *k, const ld_function *fn, uint32_t parent, int32_t cont,
                  plan_err *e);
bool plan_offsets(jit_kernel *k, plan_err *e);
bool plan_convergent(jit_kernel *k);
void plan_defer(jit_kernel *k);
/* True if some instruction of fn has id among its operands (literals
 * included: a false "used" only costs a store). */
bool id_used(const ld_function *fn, uint32_t id);
/* True if no function of the kernel's instances has a cycle in its CFG: a
 * convergent kernel then runs each segment at most once per subgroup. */
bool plan_acyclic(const jit_kernel *k);
bool enum_slots(jit_kernel *k, slot_cb cb, void *u, plan_err *e);
void layout_cb(void *u_, uint32_t inst, uint32_t id, bool tmp, const ld_type *t);

#endif
