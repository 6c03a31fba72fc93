/* dbg.h - the debugger engine's value pieces, shared by its files (internal
 * to src/; the public face is the sg_dbg_* API of spirv_sg.h).
 *
 *   dbg_format.c  type names and value formatting (print, x, watchpoints)
 *   dbg_expr.c    expressions: parsing and per-lane evaluation (print,
 *                 display, breakpoint conditions, watchpoints)
 *   the rest      the session and the front-ends: see dbg_session.h
 *
 * Everything works on the loader IR (ld.h) for the module's types and names
 * and on the stepping API of spirv_sg.h for the running state.
 */
#ifndef DBG_H
#define DBG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spirv_sg.h"
#include "ld.h"

/* ------------------------------------------------------------ formatting */

const char *dbg_base_name(const char *path);
/* A short name for a SPIR-V type: uint, float, v4float, _ptr_CrossWorkgroup_uint. */
void dbg_type_name(const ld_type *t, char *buf, size_t n);
/* Appends printf-style text to buf[n] at *used (never overflows). */
void dbg_put(char *buf, size_t n, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
uint64_t dbg_rd_uint(const uint8_t *p, uint32_t size);
/* A value of type t in memory or a register (avail bytes at p); pointers are
 * described through sg when not NULL. */
void dbg_format_value(const ld_type *t, const uint8_t *p, size_t avail, const sg_sg *sg,
                      char *buf, size_t n, size_t *used, int depth);
/* "1,3,5-7" or "none". */
void dbg_mask_str(const uint64_t m[2], uint32_t n_lanes, char *buf, size_t n);
static inline bool dbg_lane_in(const uint64_t m[2], uint32_t l)
{
  return l < 128 && ((m[l >> 6] >> (l & 63)) & 1);
}

/* ------------------------------------------------------------ expressions */

/* Where an expression is evaluated: one lane of one subgroup, with the
 * work-item geometry for the builtins (gid, lid, group, lane, sg and the
 * OpenCL get_*_id() names). */
struct sg_dbg;
typedef struct dbg_ctx {
  struct sg_dbg *sess;     /* the session (frames: dbg_frame_fn) */
  const ld_module *ir;
  const sg_sg *sg;
  uint32_t lane;
  uint32_t work_dim;
  uint32_t group[3];
  size_t local_size[3], global_size[3], global_offset[3], num_groups[3];
  uint32_t n_subgroups, sg_size;
} dbg_ctx;

typedef enum { DV_INT, DV_FLOAT, DV_BOOL, DV_PTR, DV_OBJ } dbg_vkind;

/* One lane's value.  DV_OBJ is an object in memory (array, struct, vector
 * or a scalar not yet loaded) at addr; any value with lv set also names
 * the memory it came from (what a watchpoint watches). */
typedef struct dbg_val {
  dbg_vkind k;
  uint32_t width;          /* INT, FLOAT: bits */
  bool sgn;                /* INT: signed (the default; casts pick) */
  uint64_t u;              /* INT (truncated to width), BOOL, PTR address */
  double f;                /* FLOAT */
  const ld_type *t;        /* the SPIR-V type when it has one (OBJ: always) */
  const ld_type *pointee;  /* PTR: what it points to (NULL: bytes) */
  bool lv;                 /* it lives in memory at addr */
  uint64_t addr;
  uint32_t size;           /* bytes of the object at addr */
} dbg_val;

/* Evaluates expr in one lane.  false with one line in err (a syntax error
 * names the column). */
bool dbg_eval(const char *expr, const dbg_ctx *c, dbg_val *out, char *err, size_t n);
/* Formats a value (loading objects from memory through c->sg). */
void dbg_val_format(const dbg_val *v, const dbg_ctx *c, char *buf, size_t n);
/* A value's type as the expression language names it: int, uint, float, ... */
void dbg_val_type(const dbg_val *v, char *buf, size_t n);
/* Is the value non-zero (conditions)?  false with err for an object. */
bool dbg_val_truth(const dbg_val *v, bool *out, char *err, size_t n);
/* Is the whole text one name (%12, %name, name.with.dots)? */
bool dbg_is_plain_name(const char *s);
/* Resolves %N / %name / name to an id, preferring ids owned by fn. */
uint32_t dbg_resolve_id(const ld_module *ir, const char *s, const ld_function *fn);
/* Frame depth whose function owns id (0 for module-level ids), UINT32_MAX
 * when that function is not on the stack. */
uint32_t dbg_depth_for(struct sg_dbg *S, const ld_module *ir, const sg_sg *sg, uint32_t id);

/* The function of frame depth of sg (dbg_cmd.c). */
const ld_function *dbg_frame_fn(struct sg_dbg *S, const sg_sg *sg, uint32_t depth);

#endif
