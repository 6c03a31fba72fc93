/* ld_internal.h - the loader's builder, shared by ld_*.c.  Internal to loader/.
 *
 * One builder struct is passed first to every function (Mesa vtn_builder
 * style).  Loader failures unwind with longjmp to ld_module_load(), which is
 * the only setjmp; it never crosses the public API.
 */
#ifndef LD_INTERNAL_H
#define LD_INTERNAL_H

#include <setjmp.h>
#include "ld.h"

/* ---- arena: every IR object lives here; freed all at once ---- */
typedef struct ld_chunk ld_chunk;
typedef struct ld_arena {
  ld_chunk *head;
} ld_arena;

void *ld_arena_alloc(ld_arena *a, size_t size);           /* zeroed, 16-aligned, NULL on OOM */
void ld_arena_free(ld_arena *a);

/* The allocation behind an ld_module. */
typedef struct ld_module_impl {
  ld_module pub;
  ld_arena arena;
} ld_module_impl;

/* Per-id bookkeeping during the build. */
typedef struct ld_idinfo {
  uint32_t def;          /* index into b->insns of the defining instruction + 1, 0 if none */
  uint32_t fwd_ptr;      /* OpTypeForwardPointer seen */
} ld_idinfo;

typedef struct ld_b {
  ld_arena *arena;
  ld_module *m;
  const ld_options *opt;
  jmp_buf jb;
  ld_result res;
  const uint32_t *words;     /* arena copy, host order */
  size_t n_words;
  uint32_t bound;
  ld_value *values;          /* [bound] */
  ld_idinfo *info;           /* [bound] */
  spv_insn_ref *insns;       /* every instruction, file order */
  uint32_t n_insns;
  /* diagnostics context */
  const spv_insn_ref *cur;   /* instruction being decoded, or NULL */
  const ld_srcloc *cur_loc;
  /* types */
  ld_type **types;
  uint32_t n_types, cap_types;
  /* decorations */
  ld_decoration *decos;
  uint32_t n_decos;
  uint32_t *deco_head;       /* [bound]: 1 + first decoration index of the target, 0 none */
  uint32_t *deco_next;       /* [n_decos]: 1 + next index for the same target */
  uint32_t *arg_strings;     /* OpString ids starting "kernel_arg_type." */
  uint32_t n_arg_strings;
  /* lists */
  ld_variable **vars;
  uint32_t n_vars;
  uint32_t *spec_ids;
  uint32_t n_spec;
  uint64_t constant_bytes;   /* sum over the constants decoded so far */
} ld_b;

/* Fails the load: formats "<where>: <what>" with the current instruction. */
__attribute__((format(printf, 3, 4), noreturn))
void ld_fail(ld_b *b, ld_result res, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
void ld_msg(ld_b *b, ld_severity sev, const char *fmt, ...);

void *ld_alloc(ld_b *b, size_t count, size_t size);   /* overflow-checked, fails on OOM */
char *ld_strdup(ld_b *b, const char *s);

/* Id checks: the id must be < bound and defined with one of the kinds. */
const ld_value *ld_get(ld_b *b, uint32_t id, const char *what);
const ld_type *ld_get_type(ld_b *b, uint32_t id, const char *what);
const ld_value *ld_get_const(ld_b *b, uint32_t id, const char *what);

/* Decorations lookup (all decorations collected before types). */
const ld_decoration *ld_find_deco(ld_b *b, uint32_t target, int32_t member, SpvDecoration d);

/* ld_types.c */
void ld_decode_type(ld_b *b, const spv_insn_ref *in);
void ld_decode_constant(ld_b *b, const spv_insn_ref *in);
uint64_t ld_const_u64(const ld_value *v);   /* scalar integer value, zero-extended */

/* ld_cfg.c */
void ld_build_cfg(ld_b *b, ld_function *fn);

/* ld_text.c */
/* ld_valguard.c: true (why set) when the module has an operand shape that
 * crashes Debian 12's spirv-val (an OpenCL.std operand of the wrong kind);
 * the validator must not be called on it then. */
bool ld_valguard(const uint32_t *words, size_t n_words, uint32_t bound, char *why, size_t why_size);

void ld_sha256(const void *data, size_t len, const void *data2, size_t len2, uint8_t out[32]);

#endif
