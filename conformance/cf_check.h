/* cf_check.h - the static analysis of "spirv-sgconform check" (cf_ana.c). */
#ifndef CF_CHECK_H
#define CF_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include "ld.h"

typedef struct cf_finding {
  char where[160];      /* "k.cl:12" or "word N" */
  uint32_t line;        /* source line, 0 if unknown */
  uint32_t branch_line; /* uniformity findings: the varying branch's line */
  bool uniformity;
  char text[512];
} cf_finding;

typedef struct cf_findings {
  cf_finding *v;
  uint32_t n, cap;
} cf_findings;

/* Appends the static findings for every function of m.  False on OOM. */
bool cf_analyze(const ld_module *m, cf_findings *out);

/* Source positions of the stores into kernel argument `arg` (through a
 * pointer rooted at parameter number `arg` of any function: llvm-spirv's
 * entry wrappers pass the arguments on in order), comma-separated into buf.
 * Returns how many. */
uint32_t cf_store_lines(const ld_module *m, uint32_t arg, char *buf, size_t size);

#endif
