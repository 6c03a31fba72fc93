/* dbg_break.c - spirv-sgdb's breakpoints: parsing a location (dbg_add_bp),
 * matching an instruction (dbg_bp_match), conditions per lane (dbg_cond_lanes) and
 * whether one stops a step (dbg_bp_stops).
 */
#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg_session.h"
#include "spv.h"

/* ---------------------------------------------------------- breakpoints */

const ld_function *dbg_find_function(dbg_session *S, const char *name)
{
  for (uint32_t i = 0; i < S->ir->n_functions; i++) {
    const ld_function *f = S->ir->functions[i];
    if (f->name && !strcmp(f->name, name) && f->n_blocks)
      return f;
  }
  return NULL;
}

static bool file_matches(const char *want, const char *have)
{
  if (!want)
    return true;
  if (!have)
    return false;
  size_t a = strlen(want), b = strlen(have);
  if (!strcmp(want, have) || !strcmp(dbg_base_name(have), want))
    return true;
  return b > a && !strcmp(have + b - a, want) && have[b - a - 1] == '/';
}

static bool same_line(const ld_insn *a, const ld_insn *b)
{
  return a && b && a->loc && b->loc && a->loc->line == b->loc->line &&
         a->block->fn == b->block->fn && !strcmp(a->loc->file, b->loc->file);
}

/* Does breakpoint b trigger on reaching `in` after executing `prev`? */
bool dbg_bp_match(const bp *b, const ld_insn *in, const ld_insn *prev)
{
  switch (b->kind) {
  case BP_LINE:
    return in->loc && in->loc->line == b->line && file_matches(b->file, in->loc->file) &&
           !same_line(in, prev);
  case BP_ID: return in->result == b->id;
  case BP_LABEL: return in->block->label == b->id && (!prev || prev->block != in->block);
  case BP_OP: return (uint32_t)in->op == b->opcode;
  case BP_FUNC: return in->block->fn == b->fn && in->block->index == 0 && (!prev || prev->block->fn != b->fn);
  }
  return false;
}

static uint32_t bp_count_sites(dbg_session *S, const bp *b)
{
  uint32_t n = 0;
  for (uint32_t i = 0; i < S->n_insns; i++) {
    const ld_insn *in = S->by_word[i];
    const ld_insn *pv = in->index ? &in->block->insns[in->index - 1] : NULL;
    if (b->kind == BP_LINE ? (in->loc && in->loc->line == b->line && file_matches(b->file, in->loc->file) && !same_line(in, pv))
                           : dbg_bp_match(b, in, pv))
      n++;
  }
  return n;
}

/* Lanes of `cand` where breakpoint b's condition holds (all of cand without
 * one).  A lane where it cannot be evaluated counts as false; err gets the
 * first such error. */
void dbg_cond_lanes(dbg_session *S, const bp *b, const wgslot *w, const sg_sg *sg, const uint64_t cand[2], uint64_t out[2],
                       char *err, size_t n)
{
  out[0] = out[1] = 0;
  uint32_t nl = sg_sg_lane_count(sg);
  for (uint32_t l = 0; l < nl; l++) {
    if (!dbg_lane_in(cand, l) || (b->lane >= 0 && (uint32_t)b->lane != l))
      continue;
    bool yes = true;
    if (b->cond) {
      dbg_ctx c;
      dbg_make_ctx(S, &c, w, sg, l);
      dbg_val v;
      char e[256];
      if (!dbg_eval(b->cond, &c, &v, e, sizeof e) || !dbg_val_truth(&v, &yes, e, sizeof e)) {
        if (err && !err[0])
          snprintf(err, n, "lane %u: %s", l, e);
        yes = false;
      }
    }
    if (yes)
      out[l >> 6] |= (uint64_t)1 << (l & 63);
  }
}

/* Does breakpoint b stop subgroup i now (its location was reached, or its
 * event happened)?  lanes: where it holds. */
bool dbg_bp_stops(dbg_session *S, bp *b, const wgslot *w, uint32_t i, const ld_insn *in, uint64_t lanes[2], char *err, size_t n)
{
  if (b->has_wg && memcmp(b->wg, w->group, sizeof b->wg))
    return false;
  sg_sg *sg = sg_wg_subgroup(w->wg, i);
  uint64_t cand[2];
  if (b->kind == BP_DIVERGE || b->kind == BP_CONVERGE) {
    if (!(b->kind == BP_DIVERGE ? S->ev_diverge : S->ev_converge))
      return false;
    memcpy(cand, S->ev_after, sizeof cand);
  } else {
    if (!in || !dbg_bp_match(b, in, w->st[i].prev))
      return false;
    sg_sg_active(sg, cand);
  }
  dbg_cond_lanes(S, b, w, sg, cand, lanes, err, n);
  if (!(lanes[0] | lanes[1]))
    return false;
  b->hits++;
  if (b->ignore) {
    b->ignore--;
    return false;
  }
  return true;
}

static bool has_lines(dbg_session *S)
{
  for (uint32_t i = 0; i < S->n_insns; i++)
    if (S->by_word[i]->loc)
      return true;
  return false;
}

int dbg_add_bp(dbg_session *S, const char *spec)
{
  bp b;
  memset(&b, 0, sizeof b);
  const char *colon = strrchr(spec, ':');
  uint64_t v;
  b.lane = -1;
  if (!strcmp(spec, "diverge") || !strcmp(spec, "converge")) {
    b.kind = spec[0] == 'd' ? BP_DIVERGE : BP_CONVERGE;
  } else if (sg_parse_u64(spec, &v) && v && v <= UINT32_MAX) {
    b.kind = BP_LINE;
    b.line = (uint32_t)v;
  } else if (colon && colon != spec && sg_parse_u64(colon + 1, &v) && v && v <= UINT32_MAX) {
    b.kind = BP_LINE;
    b.line = (uint32_t)v;
    b.file = strndup(spec, (size_t)(colon - spec));
  } else if (spec[0] == '%') {
    uint32_t id = 0;
    if (sg_parse_u64(spec + 1, &v) && v < S->ir->bound) {
      id = (uint32_t)v;
    } else {
      for (uint32_t i = 1; i < S->ir->bound && !id; i++)
        if (S->ir->values[i].name && !strcmp(S->ir->values[i].name, spec + 1) &&
            (S->ir->values[i].kind == LD_V_RESULT || S->ir->values[i].kind == LD_V_LABEL ||
             S->ir->values[i].kind == LD_V_FUNCTION))
          id = i;
    }
    const ld_value *val = id ? &S->ir->values[id] : NULL;
    if (!val || (val->kind != LD_V_RESULT && val->kind != LD_V_LABEL && val->kind != LD_V_FUNCTION)) {
      dbg_printf(S, "error: break %s: not an instruction result, label or function of the module\n", spec);
      return -1;
    }
    if (val->kind == LD_V_FUNCTION) {
      b.kind = BP_FUNC;
      b.fn = val->u.fn;
      if (!b.fn || !b.fn->n_blocks) {
        dbg_printf(S, "error: break %s: the function has no body\n", spec);
        return -1;
      }
    } else {
      b.kind = val->kind == LD_V_LABEL ? BP_LABEL : BP_ID;
      b.id = id;
    }
  } else if (!strncmp(spec, "Op", 2)) {
    uint32_t op = UINT32_MAX;
    for (uint32_t o = 0; o < 7000 && op == UINT32_MAX; o++) {
      const spv_opcode_desc *d = spv_opcode_info(o);
      if (d && !strcmp(d->name, spec))
        op = o;
    }
    if (op == UINT32_MAX) {
      const char *s = strstr(spec, "INTEL") || strstr(spec, "KHR") ? NULL : NULL;
      (void)s;
      for (uint32_t o = 4400; o < 6500 && op == UINT32_MAX; o++) {
        const spv_opcode_desc *d = spv_opcode_info(o);
        if (d && !strcmp(d->name, spec))
          op = o;
      }
    }
    if (op == UINT32_MAX) {
      dbg_printf(S, "error: break %s: unknown opcode name\n", spec);
      return -1;
    }
    b.kind = BP_OP;
    b.opcode = op;
  } else {
    b.fn = dbg_find_function(S, spec);
    if (!b.fn) {
      dbg_printf(S, "error: break %s: no such line, %%id, opcode or function (try 'break LINE', "
             "'break FILE:LINE', 'break %%12', 'break OpGroupIAdd', 'break KERNEL')\n", spec);
      return -1;
    }
    b.kind = BP_FUNC;
  }
  uint32_t sites = b.kind == BP_DIVERGE || b.kind == BP_CONVERGE ? 1 : bp_count_sites(S, &b);
  if (!sites) {
    if (b.kind == BP_LINE)
      dbg_printf(S, "error: break %s: no instruction has source line %u%s\n", spec, b.line,
             has_lines(S) ? "" : " (the module has no line information)");
    else
      dbg_printf(S, "error: break %s: no instruction matches\n", spec);
    free(b.file);
    return -1;
  }
  b.num = ++S->next_bp;
  b.spec = strdup(spec);
  bp *nb = realloc(S->bps, (S->n_bps + 1) * sizeof *nb);
  if (!nb || !b.spec) {
    free(b.spec);
    free(b.file);
    dbg_printf(S, "error: out of memory\n");
    return -1;
  }
  S->bps = nb;
  S->bps[S->n_bps++] = b;
  if (b.kind == BP_DIVERGE || b.kind == BP_CONVERGE)
    dbg_printf(S, "Breakpoint %d: stop where a subgroup's active lanes %s\n", b.num,
           b.kind == BP_DIVERGE ? "split at a branch" : "join again");
  else
    dbg_printf(S, "Breakpoint %d at %s (%u location%s)\n", b.num, spec, sites, sites == 1 ? "" : "s");
  return b.num;
}

bp *dbg_find_bp(dbg_session *S, const char *num)
{
  uint64_t n;
  if (sg_parse_u64(num, &n))
    for (uint32_t i = 0; i < S->n_bps; i++)
      if ((uint64_t)S->bps[i].num == n)
        return &S->bps[i];
  return NULL;
}

void dbg_delete_bp_index(dbg_session *S, uint32_t i)
{
  free(S->bps[i].file);
  free(S->bps[i].spec);
  free(S->bps[i].cond);
  memmove(&S->bps[i], &S->bps[i + 1], (S->n_bps - i - 1) * sizeof *S->bps);
  S->n_bps--;
}

/* Checks that expr parses (evaluating it in the current lane when there is
 * one: a name that does not exist anywhere is refused). */
bool dbg_check_expr(dbg_session *S, const char *expr)
{
  dbg_ctx c;
  dbg_val v;
  char err[256];
  if (S->finished || S->cur < 0 || !dbg_cur_sg(S) || sg_sg_done(dbg_cur_sg(S)))
    return true;
  dbg_make_ctx(S, &c, dbg_cur_slot(S), dbg_cur_sg(S), 0);
  if (dbg_eval(expr, &c, &v, err, sizeof err))
    return true;
  if (strstr(err, "column") || strstr(err, "unknown function") || strstr(err, "ends too early") ||
      (strstr(err, "no value named") && !dbg_resolve_id(S->ir, strchr(err, '\'') ? strchr(err, '\'') + 1 : "", NULL))) {
    dbg_printf(S, "error: %s\n", err);
    return false;
  }
  return true;
}

