/* ld_valguard.c - shapes that crash the validator, found before it runs.
 *
 * Debian 12's SPIRV-Tools (2023.1) asks for the bit width of an OpenCL.std
 * instruction's operands before it checks that they are numbers: a pointer,
 * a struct or a type where a float or integer belongs dereferences a null
 * definition inside spirv-val (SIGSEGV; spirv-val on the command line
 * crashes the same way).  The module is invalid either way, so the loader
 * scans the OpenCL.std instructions first and, on such an operand, does not
 * call the validator at all: its own checks (check_ocl_std_types in
 * ld_load.c) then reject the instruction with their message.
 *
 * The scan needs only the types of values: one pass over the words, two
 * arrays of the id bound.  It accepts everything valid OpenCL.std code
 * contains; only the operand shapes SPIR-V's extended instruction set
 * specification rules out are reported. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.h>
#include "ld_internal.h"

enum { K_NONE, K_NUM, K_PTR, K_VOID, K_OTHER };

/* Which operand of an OpenCL.std instruction (0 = first after the
 * instruction number) is a pointer; -1 none; -2 every operand from the
 * first is free-form (printf). */
static int ptr_operand(uint32_t op) {
  switch (op) {
  case OpenCLstd_Fract: case OpenCLstd_Frexp: case OpenCLstd_Lgamma_r:
  case OpenCLstd_Modf: case OpenCLstd_Sincos:
  case OpenCLstd_Vloadn: case OpenCLstd_Vload_half: case OpenCLstd_Vload_halfn:
  case OpenCLstd_Vloada_halfn:
    return 1;
  case OpenCLstd_Remquo:
  case OpenCLstd_Vstoren: case OpenCLstd_Vstore_half: case OpenCLstd_Vstore_half_r:
  case OpenCLstd_Vstore_halfn: case OpenCLstd_Vstore_halfn_r: case OpenCLstd_Vstorea_halfn:
  case OpenCLstd_Vstorea_halfn_r:
    return 2;
  case OpenCLstd_Prefetch:
    return 0;
  case OpenCLstd_Printf:
    return -2;
  default:
    return -1;
  }
}

typedef struct {
  const uint8_t *kind;     /* per type id: K_* */
  const uint32_t *type;    /* per value id: its type id (0: none) */
  const uint8_t *defined;  /* per id: defined by some instruction */
  uint32_t bound;
  const uint32_t *w;
  int ptr_at;              /* ptr_operand() of the instruction */
  uint32_t first;          /* word index of operand 0 */
  uint32_t bad_word;       /* first offending word index, 0 if none */
} guard_walk;

static uint8_t kind_of_value(const guard_walk *g, uint32_t id) {
  if (id == 0 || id >= g->bound || !g->type[id]) return K_NONE;
  uint32_t t = g->type[id];
  return t < g->bound ? g->kind[t] : K_NONE;
}

static void walk_cb(void *user, uint32_t wi, spv_operand_class cls) {
  guard_walk *g = user;
  if (cls != SPV_OPND_ID || g->bad_word) return;
  int at = (int)(wi - g->first);
  if (g->ptr_at == -2) return;
  uint32_t id = g->w[wi];
  if (id >= g->bound || !g->defined[id]) return;   /* spirv-val reports it */
  uint8_t k = kind_of_value(g, g->w[wi]);
  bool ok = at == g->ptr_at ? true : k == K_NUM;
  if (!ok) g->bad_word = wi;
}

static const char *kind_name(uint8_t k) {
  switch (k) {
  case K_NUM: return "a number";
  case K_PTR: return "a pointer";
  case K_VOID: return "void";
  case K_OTHER: return "a composite or opaque value";
  default: return "not a value";
  }
}

/* Pass 1: the kind of every type, the type of every value, and which ids
 * are defined at all (an undefined id is spirv-val's to report). */
static void collect(const uint32_t *w, size_t n, uint32_t bound, uint8_t *kind, uint32_t *type,
                    uint8_t *defined, uint32_t *std_sets, unsigned *n_sets) {
  for (size_t i = 5; i < n;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
    if (!wc || i + wc > n) break;
    const uint32_t *in = &w[i];
    const spv_opcode_desc *d = spv_opcode_info(op);
    if (d && d->has_result) {
      uint32_t r = d->has_type ? (wc >= 3 ? in[2] : 0) : (wc >= 2 ? in[1] : 0);
      if (r && r < bound) {
        defined[r] = 1;
        if (d->has_type) type[r] = in[1];
      }
    }
    switch (op) {
    case SpvOpExtInstImport:
      if (wc >= 3 && in[1] < bound && *n_sets < 8) {
        const char *name = (const char *)&in[2];
        if (memchr(name, 0, (wc - 2) * 4) && !strcmp(name, "OpenCL.std")) std_sets[(*n_sets)++] = in[1];
      }
      break;
    case SpvOpTypeInt: case SpvOpTypeFloat: case SpvOpTypeBool:
      if (wc >= 2 && in[1] < bound) kind[in[1]] = K_NUM;
      break;
    case SpvOpTypeVector:
      if (wc >= 3 && in[1] < bound)
        kind[in[1]] = in[2] < bound && kind[in[2]] == K_NUM ? K_NUM : K_OTHER;
      break;
    case SpvOpTypePointer:
      if (wc >= 2 && in[1] < bound) kind[in[1]] = K_PTR;
      break;
    case SpvOpTypeVoid:
      if (wc >= 2 && in[1] < bound) kind[in[1]] = K_VOID;
      break;
    default:
      if (d && !d->has_type && d->has_result && wc >= 2 && in[1] < bound && !kind[in[1]] &&
          !strncmp(d->name, "OpType", 6))
        kind[in[1]] = K_OTHER;
      break;
    }
    i += wc;
  }
}

bool ld_valguard(const uint32_t *w, size_t n, uint32_t bound, char *why, size_t why_size) {
  if (bound == 0 || n < 5) return false;
  uint8_t *kind = calloc(bound, 1), *defined = calloc(bound, 1);
  uint32_t *type = calloc(bound, sizeof *type);
  uint32_t std_sets[8];
  unsigned n_sets = 0;
  bool hit = false;
  if (!kind || !type || !defined) goto done;
  collect(w, n, bound, kind, type, defined, std_sets, &n_sets);
  for (size_t i = 5; i < n && n_sets && !hit;) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xffff;
    if (!wc || i + wc > n) break;
    const uint32_t *in = &w[i];
    i += wc;
    if (op != SpvOpExtInst || wc < 5) continue;
    bool std = false;
    for (unsigned s = 0; s < n_sets; s++) std |= in[3] == std_sets[s];
    if (!std) continue;
    const spv_opcode_desc *od = spv_opencl_std_info(in[4]);
    if (!od) continue;   /* an unknown number: spirv-val reports it */
    uint8_t rk = in[1] < bound ? kind[in[1]] : K_NONE;
    if (rk != K_NUM && rk != K_VOID && rk != K_PTR) {
      if (in[1] >= bound || !defined[in[1]]) continue;
      snprintf(why, why_size, "OpExtInst OpenCL.std %s (%%%u): the result type is %s", od->name,
               (unsigned)in[2], rk == K_NONE ? "not a type" : kind_name(rk));
      hit = true;
      break;
    }
    guard_walk g = {kind, type, defined, bound, in, ptr_operand(in[4]), 5, 0};
    if (!spv_walk_operands(in, wc, 5, od->operands, od->n_operands, walk_cb, &g)) continue;
    if (g.bad_word) {
      snprintf(why, why_size, "OpExtInst OpenCL.std %s (%%%u): operand %u (%%%u) is %s", od->name,
               (unsigned)in[2], (unsigned)(g.bad_word - 4), (unsigned)in[g.bad_word],
               kind_name(kind_of_value(&g, in[g.bad_word])));
      hit = true;
    }
  }
done:
  free(kind);
  free(type);
  free(defined);
  return hit;
}
