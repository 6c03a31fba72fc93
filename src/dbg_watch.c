/* dbg_watch.c - spirv-sgdb's watchpoints: setting one (dbg_cmd_watch) and how
 * one fires (dbg_watch_before for reads, dbg_watch_after for writes; dbg_step_one calls
 * both).
 */
#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg_session.h"
#include "spv.h"

/* ------------------------------------------------------------ watchpoints
 *
 * A write watchpoint compares its bytes after every step of every subgroup
 * that can see them; the step that changed them stops the run, and the
 * lanes that wrote are the active lanes of that instruction whose pointer
 * operand pointed into the watched bytes.  Read and access watchpoints look
 * at the pointer operand of loads (and atomics) before the step. */

/* The pointer operand of an instruction that reads or writes memory. */
static uint32_t mem_operand(const ld_insn *in, bool *reads, bool *writes)
{
  *reads = *writes = false;
  if (!in || !in->n_ops)
    return 0;
  switch (in->op) {
  case SpvOpLoad: *reads = true; return in->ops[0];
  case SpvOpStore: *writes = true; return in->ops[0];
  case SpvOpAtomicLoad: *reads = true; return in->ops[0];
  case SpvOpAtomicStore: *writes = true; return in->ops[0];
  case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement:
  case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin:
  case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd:
  case SpvOpAtomicOr: case SpvOpAtomicXor: case SpvOpAtomicFAddEXT: case SpvOpAtomicFMinEXT:
  case SpvOpAtomicFMaxEXT:
    *reads = *writes = true;
    return in->ops[0];
  default: return 0;
  }
}

/* Lanes of mask whose pointer operand `ptr` (an id) points into wp. */
static void lanes_touching(dbg_session *S, const sg_sg *sg, uint32_t ptr, const uint64_t mask[2], const watch *wp,
                           uint64_t out[2])
{
  out[0] = out[1] = 0;
  uint32_t nl = sg_sg_lane_count(sg);
  for (uint32_t l = 0; l < nl; l++) {
    if (!dbg_lane_in(mask, l))
      continue;
    uint8_t b[128] = {0};
    if (!sg_sg_read(sg, 0, l, ptr, b))
      continue;
    uint64_t a = dbg_rd_uint(b, 8);
    if (wp->is_private && l != wp->lane)
      continue;
    const ld_type *pt = S->ir->values[ptr].type;
    uint32_t sz = pt && pt->kind == LD_T_POINTER && pt->elem ? pt->elem->size : 1;
    if (a < wp->addr + wp->size && a + sz > wp->addr)
      out[l >> 6] |= (uint64_t)1 << (l & 63);
  }
}

bool dbg_watch_sees(const watch *wp, const wgslot *w, uint32_t i)
{
  if (wp->is_private)
    return w->linear == wp->lin && i == wp->sg;
  return !wp->is_local || w->linear == wp->lin;
}

void dbg_watch_before(dbg_session *S, const wgslot *w, uint32_t i, const sg_sg *sg, const ld_insn *in, const uint64_t mb[2])
{
  S->watch_hit = -1;
  bool rd, wr;
  uint32_t ptr = mem_operand(in, &rd, &wr);
  if (!ptr || !rd)
    return;
  for (uint32_t k = 0; k < S->n_wps; k++) {
    watch *wp = &S->wps[k];
    if (wp->kind == WP_WRITE || !dbg_watch_sees(wp, w, i))
      continue;
    uint64_t lanes[2];
    lanes_touching(S, sg, ptr, mb, wp, lanes);
    if (lanes[0] | lanes[1]) {
      S->watch_hit = (int)k;
      memcpy(S->watch_lanes, lanes, sizeof lanes);
      S->watch_insn = in;
      memcpy(wp->was, wp->old, wp->size);
      return;
    }
  }
}

void dbg_watch_after(dbg_session *S, const wgslot *w, uint32_t i, const sg_sg *sg, const ld_insn *in, const uint64_t mb[2])
{
  for (uint32_t k = 0; k < S->n_wps; k++) {
    watch *wp = &S->wps[k];
    if (!dbg_watch_sees(wp, w, i))
      continue;
    /* the bytes now go to `was`; when they differ, old and was swap */
    if (!sg_sg_read_memory(sg, wp->is_private ? wp->lane : 0, wp->addr, wp->was, wp->size))
      continue;
    if (!memcmp(wp->was, wp->old, wp->size))
      continue;
    uint8_t *now = wp->was;
    wp->was = wp->old;
    wp->old = now;
    if (wp->kind == WP_READ)
      continue;
    S->watch_hit = (int)k;
    S->watch_insn = in;
    bool rd, wr;
    uint32_t ptr = mem_operand(in, &rd, &wr);
    S->watch_lanes[0] = S->watch_lanes[1] = 0;
    if (ptr && wr)
      lanes_touching(S, sg, ptr, mb, wp, S->watch_lanes);
    if (!(S->watch_lanes[0] | S->watch_lanes[1]))
      memcpy(S->watch_lanes, mb, sizeof S->watch_lanes);
    return;
  }
}

/* watch|rwatch|awatch EXPR [lane L]: EXPR must name memory (a variable,
 * in[3], *p, p->1); it is evaluated once, in lane L (default: the focused
 * lane, else the first active one), and its address is watched. */
void dbg_cmd_watch(dbg_session *S, int argc, char **argv, int kind)
{
  if (argc < 2) {
    dbg_printf(S, "error: usage: %s EXPR [lane L] (EXPR names memory: out[0], x, *p)\n", argv[0]);
    return;
  }
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  wgslot *w = dbg_cur_slot(S);
  if (sg_sg_done(sg)) {
    dbg_printf(S, "error: subgroup %u has finished; pick a running one to evaluate in\n", S->cur_sg);
    return;
  }
  int n = argc;
  int64_t lane;
  if (!dbg_split_lane_sel(S, &n, argv, sg_sg_lane_count(sg), &lane))
    return;
  if (lane < 0) {
    uint64_t m[2];
    sg_sg_active(sg, m);
    lane = 0;
    for (uint32_t l = 0; l < sg_sg_lane_count(sg); l++)
      if (dbg_lane_in(m, l)) { lane = l; break; }
  }
  char text[1024], full[1024];
  dbg_join_args(1, n, argv, text, sizeof text);
  snprintf(full, sizeof full, "%s", text);
  /* EXPR@N: N elements from EXPR on (gdb's artificial array) */
  uint64_t count = 1;
  char *at = strrchr(text, '@');
  if (at) {
    if (!sg_parse_u64(at + 1, &count) || !count || count > WATCH_MAX_BYTES) {
      dbg_printf(S, "error: watch %s: after '@' comes a count of elements (1..%u)\n", full, WATCH_MAX_BYTES);
      return;
    }
    *at = 0;
  }
  dbg_ctx c;
  dbg_make_ctx(S, &c, w, sg, (uint32_t)lane);
  dbg_val v;
  char err[256];
  if (!dbg_eval(text, &c, &v, err, sizeof err)) {
    dbg_printf(S, "error: %s\n", err);
    return;
  }
  uint32_t size = v.t ? v.t->size * count : 0;
  if (!v.lv || !v.t || !size) {
    dbg_printf(S, "error: %s does not name memory (watch a variable, an element like out[0], *p, a local array, "
           "or out[0]@8 for 8 elements)\n", text);
    return;
  }
  if (v.t->size > WATCH_MAX_BYTES || size > WATCH_MAX_BYTES) {
    dbg_printf(S, "error: %s is %" PRIu64 " bytes; a watchpoint watches at most %u\n", full,
           (uint64_t)v.t->size * count, WATCH_MAX_BYTES);
    return;
  }
  watch wp;
  memset(&wp, 0, sizeof wp);
  wp.old = calloc(1, size);
  wp.was = calloc(1, size);
  wp.expr = strdup(full);
  if (!wp.old || !wp.was || !wp.expr) {
    dbg_watch_free(&wp);
    dbg_printf(S, "error: out of memory\n");
    return;
  }
  wp.num = ++S->next_bp;
  wp.kind = kind;
  wp.addr = v.addr;
  wp.size = size;
  wp.count = count;
  wp.t = v.t;
  wp.lin = w->linear;
  wp.sg = S->cur_sg;
  wp.lane = (uint32_t)lane;
  char d[256] = "";
  sg_sg_describe_addr(sg, v.addr, d, sizeof d);
  wp.is_private = !strncmp(d, "private", 7);
  wp.is_local = !strncmp(d, "local", 5);
  sg_sg_read_memory(sg, (uint32_t)lane, wp.addr, wp.old, wp.size);
  watch *nw = realloc(S->wps, (S->n_wps + 1) * sizeof *nw);
  if (!nw) {
    dbg_watch_free(&wp);
    dbg_printf(S, "error: out of memory\n");
    return;
  }
  S->wps = nw;
  S->wps[S->n_wps++] = wp;
  char val[2048] = "";
  dbg_watch_format(&wp, wp.old, sg, val, sizeof val);
  dbg_printf(S, "%s %d: %s (%u bytes at %s), now %s\n",
         kind == WP_WRITE ? "Watchpoint" : kind == WP_READ ? "Read watchpoint" : "Access watchpoint", wp.num, full,
         wp.size, d, val);
  if (wp.is_private)
    dbg_printf(S, "  private memory of lane %u of subgroup %u\n", wp.lane, wp.sg);
}

void dbg_watch_free(watch *wp)
{
  free(wp->expr);
  free(wp->old);
  free(wp->was);
  wp->expr = NULL;
  wp->old = wp->was = NULL;
}

/* The element type of an array (the unit a change is reported in), else
 * NULL. */
static const ld_type *watch_elem(const watch *wp)
{
  if (wp->count > 1)
    return wp->t;
  if (wp->t && wp->t->kind == LD_T_ARRAY && wp->t->elem && wp->t->elem->size)
    return wp->t->elem;
  return NULL;
}

/* The watched bytes as a value: one object, or {e0, e1, ...} for EXPR@N. */
void dbg_watch_format(const watch *wp, const uint8_t *bytes, const sg_sg *sg, char *buf, size_t n)
{
  size_t used = 0;
  buf[0] = 0;
  if (wp->count <= 1) {
    dbg_format_value(wp->t, bytes, wp->size, sg, buf, n, &used, 0);
    return;
  }
  dbg_put(buf, n, &used, "{");
  for (uint32_t i = 0; i < wp->count; i++) {
    if (i)
      dbg_put(buf, n, &used, ", ");
    dbg_format_value(wp->t, bytes + (size_t)i * wp->t->size, wp->t->size, sg, buf, n, &used, 1);
  }
  dbg_put(buf, n, &used, "}");
}

/* Which elements of a watched array changed at the last hit ("changed:
 * element 3" or "elements 2-5, 9"): false for a scalar or struct. */
bool dbg_watch_changed(const watch *wp, char *buf, size_t n)
{
  const ld_type *e = watch_elem(wp);
  if (!e)
    return false;
  uint32_t ne = wp->size / e->size, shown = 0, changed = 0;
  size_t used = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < ne; i++)
    changed += memcmp(wp->was + (size_t)i * e->size, wp->old + (size_t)i * e->size, e->size) != 0;
  dbg_put(buf, n, &used, "changed: element%s ", changed == 1 ? "" : "s");
  for (uint32_t i = 0; i < ne; i++) {
    if (!memcmp(wp->was + (size_t)i * e->size, wp->old + (size_t)i * e->size, e->size))
      continue;
    uint32_t j = i;
    while (j + 1 < ne && memcmp(wp->was + (size_t)(j + 1) * e->size, wp->old + (size_t)(j + 1) * e->size, e->size))
      j++;
    if (shown++ == 8) {
      dbg_put(buf, n, &used, ", ...");
      break;
    }
    if (j > i)
      dbg_put(buf, n, &used, "%s%u-%u", shown > 1 ? ", " : "", i, j);
    else
      dbg_put(buf, n, &used, "%s%u", shown > 1 ? ", " : "", i);
    i = j;
  }
  return changed > 0;
}

/* A watchpoint that a work-group not yet begun can trigger (it watches
 * global memory): the fast-forward must not run past it unseen.  NULL when
 * none. */
const watch *dbg_watch_global(dbg_session *S)
{
  for (uint32_t k = 0; k < S->n_wps; k++)
    if (!S->wps[k].is_private && !S->wps[k].is_local)
      return &S->wps[k];
  return NULL;
}
