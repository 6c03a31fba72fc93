/* dbg_replay.c - spirv-sgdb's going backwards: the replay log (dbg_log_add),
 * replaying it from a state (dbg_replay_log_from: the launch's start in
 * dbg_replay_to, or a checkpoint, dbg_ckpt.c), reverse-step/next/continue.
 */
#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg_session.h"
#include "spv.h"

void dbg_log_add(dbg_session *S, uint8_t kind, uint64_t lin, uint32_t sg)
{
  if (S->replaying)
    return;
  if (kind == RL_STEP) {
    S->t++;
    if (S->n_log && S->log[S->n_log - 1].kind == RL_STEP && S->log[S->n_log - 1].lin == lin &&
        S->log[S->n_log - 1].sg == sg) {
      S->log[S->n_log - 1].count++;
      return;
    }
  }
  if (S->n_log == S->cap_log) {
    uint64_t nc = S->cap_log ? S->cap_log * 2 : 256;
    rlog *nl = realloc(S->log, nc * sizeof *nl);
    if (!nl)
      return;
    S->log = nl;
    S->cap_log = nc;
  }
  S->log[S->n_log++] = (rlog){kind, sg, lin, kind == RL_STEP ? 1 : 0};
}

/* ------------------------------------------------------------ replay */


/* What a replay pass collects: S->rp (rpass, dbg_session.h). */

static void rp_note(dbg_session *S, const wgslot *w, uint32_t i)
{
  sg_sg *sg = sg_wg_subgroup(w->wg, i);
  if (S->rp.track && w->linear == S->rp.lin && i == S->rp.sg && !sg_sg_done(sg)) {
    if (S->rp.n == S->rp.cap) {
      uint64_t nc = S->rp.cap ? S->rp.cap * 2 : 1024;
      rpoint *np = realloc(S->rp.pts, nc * sizeof *np);
      if (!np)
        return;
      S->rp.pts = np;
      S->rp.cap = nc;
    }
    const ld_insn *in = dbg_sg_insn(S, sg);
    S->rp.pts[S->rp.n++] = (rpoint){S->t, in && in->loc ? in->loc->line : 0, sg_sg_depth(sg), in};
  }
  if (S->rp.want_stops && !sg_sg_done(sg)) {
    const ld_insn *in = dbg_sg_insn(S, sg);
    for (uint32_t b = 0; b < S->n_bps; b++) {
      const bp *p = &S->bps[b];
      uint64_t cand[2], lanes[2];
      if (p->kind == BP_DIVERGE || p->kind == BP_CONVERGE) {
        if (!(p->kind == BP_DIVERGE ? S->ev_diverge : S->ev_converge))
          continue;
        memcpy(cand, S->ev_after, sizeof cand);
      } else {
        if (!in || !dbg_bp_match(p, in, w->st[i].prev))
          continue;
        sg_sg_active(sg, cand);
      }
      if (p->has_wg && memcmp(p->wg, w->group, sizeof p->wg))
        continue;
      dbg_cond_lanes(S, p, w, sg, cand, lanes, NULL, 0);
      if (lanes[0] | lanes[1]) {
        S->rp.last_stop = S->t;
        S->rp.last_stop_lin = w->linear;
        S->rp.last_stop_sg = i;
      }
    }
    for (uint32_t k = 0; k < S->n_wps; k++) {
      watch *wp = &S->wps[k];
      uint8_t *now = wp->was;   /* scratch here: a hit in replay shows nothing */
      if (!dbg_watch_sees(wp, w, i) || !sg_sg_read_memory(sg, wp->is_private ? wp->lane : 0, wp->addr, now, wp->size))
        continue;
      if (!wp->primed) {
        /* first sight in this replay: the value before this step is the
         * pristine one for a buffer, unknown otherwise */
        memcpy(wp->old, now, wp->size);
        wp->primed = true;
        continue;
      }
      if (memcmp(now, wp->old, wp->size)) {
        memcpy(wp->old, now, wp->size);
        if (wp->kind != WP_READ) {
          S->rp.last_stop = S->t;
          S->rp.last_stop_lin = w->linear;
          S->rp.last_stop_sg = i;
        }
      }
    }
  }
}

static int slot_of(dbg_session *S, uint64_t lin)
{
  for (uint32_t i = 0; i < S->n_slots; i++)
    if (S->slots[i].linear == lin)
      return (int)i;
  return -1;
}

/* Replays log[e0..] (the first entry from its off0-th step on) from the
 * current state up to point `target`, without output; the log becomes that
 * prefix.  The watchpoints' remembered values are refreshed on the way. */
bool dbg_replay_log_from(dbg_session *S, rlog *log, uint64_t n_log, uint64_t e0, uint64_t off0, uint64_t target)
{
  bool ok = true;
  S->replaying = true;   /* from here: nothing is logged or printed */
  uint64_t e;
  for (e = e0; ok && e < n_log; e++) {
    rlog *r = &log[e];
    uint64_t skip = e == e0 ? off0 : 0;
    if (S->t >= target && r->kind == RL_STEP) {
      if (skip)
        e++;   /* the entry the checkpoint stopped in: keep its first steps */
      break;
    }
    if (r->kind == RL_BEGIN) {
      int idx = dbg_begin_group(S, r->lin);
      if (idx < 0) { ok = false; break; }
      S->cur = idx;
      S->cur_sg = 0;
      if (S->rp.track && r->lin == S->rp.lin)
      {
        S->rp.saw_begin = true;   /* the points start at the subgroup's first */
        rp_note(S, &S->slots[idx], S->rp.sg);
      }
    } else if (r->kind == RL_END) {
      int idx = slot_of(S, r->lin);
      if (idx >= 0)
        dbg_end_slot(S, idx);
    } else if (r->kind == RL_RUNWG) {
      dbg_run_group_fast(S, r->lin);
    } else if (r->kind == RL_RANGE) {
      dbg_run_range_fast(S, r->lin, r->count, NULL);
    } else {
      int idx = slot_of(S, r->lin);
      if (idx < 0) { ok = false; break; }
      S->cur = idx;
      S->cur_sg = r->sg;
      uint64_t todo = r->count - (skip < r->count ? skip : r->count);
      if (S->t + todo > target)
        todo = target - S->t;
      uint64_t k = 0;
      if (!S->rp.track && !S->rp.want_stops && todo > 1) {
        /* nothing to look at on the way: the bare interpreter step (the
         * last one goes through dbg_step_one, which remembers the instruction
         * it executed for the breakpoints' "entered the line" test) */
        sg_sg *sg = sg_wg_subgroup(S->slots[idx].wg, r->sg);
        for (; k + 1 < todo; k++) {
          if (sg_sg_step(sg) == SG_STEP_FAULT)
            S->n_faults++;
          S->t++;
        }
      }
      for (; k < todo; k++) {
        st_kind sk = dbg_step_one(S, r->sg);
        S->t++;
        if ((S->rp.track || S->rp.want_stops) && sk != ST_BLOCKED)
          rp_note(S, &S->slots[idx], r->sg);
      }
      if (todo + skip < r->count) {
        e++;
        break;
      }
    }
  }
  S->replaying = false;
  /* the replayed prefix becomes the history */
  uint64_t keep = e;
  if (keep && keep <= n_log && log[keep - 1].kind == RL_STEP) {
    uint64_t before = 0;
    for (uint64_t k = 0; k + 1 < keep; k++)
      before += log[k].kind == RL_STEP ? log[k].count : 0;
    log[keep - 1].count = S->t - before;
  }
  free(S->log);
  S->log = log;
  S->n_log = keep;
  S->cap_log = n_log;
  S->finished = false;
  for (uint32_t k = 0; k < S->n_wps && S->cur >= 0; k++) {
    watch *wp = &S->wps[k];
    wgslot *w = dbg_cur_slot(S);
    sg_sg *sg = dbg_cur_sg(S);
    if (w && sg && dbg_watch_sees(wp, w, S->cur_sg))
      sg_sg_read_memory(sg, wp->is_private ? wp->lane : 0, wp->addr, wp->old, wp->size);
  }
  return ok;
}

/* Starts the launch again and replays the log up to point `target` (steps
 * since the launch began). */
bool dbg_replay_to(dbg_session *S, uint64_t target)
{
  rlog *log = S->log;
  uint64_t n_log = S->n_log;
  S->log = NULL;
  S->n_log = S->cap_log = 0;
  S->replaying = true;   /* from here: nothing is logged or printed */
  dbg_stop_launch(S);
  for (uint32_t i = 0; i < S->k->n_args; i++)
    if (S->pristine[i] && S->args[i].data)
      memcpy(S->args[i].data, S->pristine[i], S->args[i].size);
  S->replaying = true;
  for (uint32_t k = 0; k < S->n_wps; k++)
    S->wps[k].primed = false;
  bool ok = dbg_start_launch(S) == 0;
  S->t = 0;
  if (!ok) {
    S->replaying = false;
    S->log = log;
    S->n_log = 0;
    S->cap_log = n_log;
    return false;
  }
  ok = dbg_replay_log_from(S, log, n_log, 0, 0, target);
  dbg_ckpt_truncate(S, target);
  return ok;
}

static bool focus_on(dbg_session *S, uint64_t lin, uint32_t sg)
{
  int idx = slot_of(S, lin);
  if (idx < 0)
    return false;
  S->cur = idx;
  S->cur_sg = sg;
  return true;
}

/* reverse-step [N]: back N instructions of the focused subgroup. */
void dbg_cmd_reverse_step(dbg_session *S, int argc, char **argv, bool by_line)
{
  uint64_t n = 1;
  if (!by_line && argc > 1 && (!sg_parse_u64(argv[1], &n) || !n)) {
    dbg_printf(S, "error: reverse-step: bad count '%s'\n", argv[1]);
    return;
  }
  if (S->finished || S->cur < 0) {
    dbg_printf(S, "error: the kernel has finished or not started; there is no subgroup to step back\n");
    return;
  }
  wgslot *w = dbg_cur_slot(S);
  uint64_t lin = w->linear;
  uint32_t me = S->cur_sg;
  double t0 = sg_now_ms();
  uint64_t target;
  if (!by_line) {
    /* the point before the N-th last step of this subgroup, from the log */
    uint64_t cum = S->t, left = n;
    target = UINT64_MAX;
    for (uint64_t e = S->n_log; e-- > 0;) {
      rlog *r = &S->log[e];
      if (r->kind != RL_STEP)
        continue;
      cum -= r->count;
      if (r->lin == lin && r->sg == me) {
        if (r->count >= left) {
          target = cum + r->count - left;
          break;
        }
        left -= r->count;
      }
    }
    if (target == UINT64_MAX) {
      dbg_printf(S, "error: subgroup %u has not executed %" PRIu64 " instruction%s yet\n", me, n, n == 1 ? "" : "s");
      return;
    }
  } else {
    /* the start of the line before: found in the positions this subgroup
     * went through, collected by replaying from the latest checkpoint that
     * has them (dbg_ckpt.c), else from the launch's start */
    sg_sg *sg = dbg_cur_sg(S);
    const ld_insn *in0 = dbg_sg_insn(S, sg);
    uint32_t d0 = sg_sg_depth(sg), l0 = in0 && in0->loc ? in0->loc->line : 0;
    dbg_line_search ls = {0, l0, d0, 0, 0};
    uint64_t upto = dbg_ckpt_line_back(S, S->t, lin, me, &ls, t0);   /* returns when no checkpoint can */
    dbg_reverse_next_from_start(S, upto, lin, me, &ls, t0);
    return;
  }
  dbg_reverse_to(S, target, lin, me, t0);
}

/* Starts tracking the positions of subgroup sg of work-group lin for a
 * replay pass from the current state (the position now is the first when
 * the work-group exists already). */
void dbg_track_begin(dbg_session *S, uint64_t lin, uint32_t sg)
{
  S->rp.track = true;
  S->rp.lin = lin;
  S->rp.sg = sg;
  S->rp.n = 0;
  S->rp.saw_begin = false;
  int idx = slot_of(S, lin);
  if (idx >= 0 && sg < S->slots[idx].n_sgs)
    rp_note(S, &S->slots[idx], sg);
}

/* reverse-next's target from the tracked positions (S->rp.pts, ending at
 * the current point, or at the next checkpoint's point when that one found
 * no answer): the first point of the last run of another line at depth
 * depth0 or shallower before the current line (line0, depth0).  ls->phase
 * says where the later points left the search: 0 still in the current
 * line, 1 in the run of line1 at depth1.  complete: the points start at the
 * subgroup's first; without it an answer that could lie before the first
 * point is none (false), and ls says where the search stands. */
bool dbg_line_target(dbg_session *S, dbg_line_search *ls, bool complete, uint64_t *target)
{
  const rpoint *p = S->rp.pts;
  int64_t k = (int64_t)S->rp.n - 1;
  if (ls->phase == 0) {
    while (k >= 0 && (p[k].depth > ls->depth0 || (p[k].depth == ls->depth0 && p[k].line == ls->line0)))
      k--;
    if (k < 0) {
      *target = S->rp.n ? p[0].t : 0;
      return complete;
    }
    ls->phase = 1;
    ls->line1 = p[k].line;
    ls->depth1 = p[k].depth;
  }
  while (k > 0 && (p[k - 1].depth > ls->depth1 || (p[k - 1].depth == ls->depth1 && p[k - 1].line == ls->line1)))
    k--;
  *target = k >= 0 ? p[k].t : 0;
  return k > 0 || complete;
}

/* reverse-next by replaying from the launch's start up to `upto` (the
 * first checkpoint's point when the checkpoints found no answer, with the
 * search where they left it in ls; else the current point), then to the
 * target. */
void dbg_reverse_next_from_start(dbg_session *S, uint64_t upto, uint64_t lin, uint32_t sg,
                                 const dbg_line_search *ls0, double t0)
{
  dbg_line_search ls = *ls0;
  S->rp.track = true;
  S->rp.lin = lin;
  S->rp.sg = sg;
  S->rp.n = 0;
  S->rp.saw_begin = false;
  dbg_replay_to(S, upto);
  S->rp.track = false;
  uint64_t target;
  dbg_line_target(S, &ls, true, &target);
  dbg_reverse_to(S, target, lin, sg, t0);
}

/* Goes back to point target (through a checkpoint when one can) and shows
 * the stop of subgroup sg of work-group lin. */
void dbg_reverse_to(dbg_session *S, uint64_t target, uint64_t lin, uint32_t sg, double t0)
{
  char msg[160];
  snprintf(msg, sizeof msg, "[back to step %" PRIu64 " of the launch; replayed in %%.0f ms]", target);
  dbg_ckpt_resume(S, target, lin, sg, msg, t0);   /* returns when no checkpoint can */
  dbg_replay_to(S, target);
  dbg_replay_show(S, lin, sg, msg, t0);
}

/* After going back: the focus on subgroup sg of work-group lin, and the
 * stop, with msg's %.0f the milliseconds since t0. */
void dbg_replay_show(dbg_session *S, uint64_t lin, uint32_t sg, const char *msg, double t0)
{
  focus_on(S, lin, sg);
  char buf[200];
  snprintf(buf, sizeof buf, msg, sg_now_ms() - t0);
  dbg_show_stop(S, buf);
}

void dbg_cmd_reverse_continue(dbg_session *S)
{
  if (S->cur < 0 && !S->finished) {
    dbg_printf(S, "error: nothing has run yet\n");
    return;
  }
  double t0 = sg_now_ms();
  uint64_t now = S->t;
  /* a stop at the current point does not count: look before it, first
   * after the latest checkpoint, then after the one before, ... (each in
   * the checkpoint's process: returns only when no checkpoint can) */
  dbg_ckpt_scan_back(S, now ? now - 1 : 0, t0);
  dbg_reverse_continue_scan(S, now ? now - 1 : 0, t0);
}

/* Where the last breakpoint or watchpoint stop in the steps since `from`
 * (this state) up to `end` is; false when there is none.  The log after
 * `end` goes. */
bool dbg_replay_scan(dbg_session *S, rlog *log, uint64_t n_log, uint64_t e0, uint64_t off0, uint64_t end, uint64_t *stop,
                 uint64_t *lin, uint32_t *sg)
{
  /* the watched bytes now: a change at the first step counts */
  for (uint32_t k = 0; k < S->n_wps; k++) {
    watch *wp = &S->wps[k];
    int idx = wp->is_private || wp->is_local ? slot_of(S, wp->lin) : S->cur >= 0 ? S->cur : S->n_slots ? 0 : -1;
    sg_sg *s = idx >= 0 ? sg_wg_subgroup(S->slots[idx].wg, wp->is_private ? wp->sg : 0) : NULL;
    wp->primed = s && sg_sg_read_memory(s, wp->is_private ? wp->lane : 0, wp->addr, wp->old, wp->size);
  }
  S->rp.want_stops = true;
  S->rp.last_stop = UINT64_MAX;
  S->replay_events = true;
  dbg_replay_log_from(S, log, n_log, e0, off0, end);
  S->rp.want_stops = false;
  S->replay_events = false;
  *stop = S->rp.last_stop;
  *lin = S->rp.last_stop_lin;
  *sg = S->rp.last_stop_sg;
  return S->rp.last_stop != UINT64_MAX;
}

/* reverse-continue from the launch's start: the last stop up to `end`. */
void dbg_reverse_continue_scan(dbg_session *S, uint64_t end, double t0)
{
  S->rp.want_stops = true;
  S->rp.last_stop = UINT64_MAX;
  S->replay_events = true;
  dbg_replay_to(S, end);
  S->rp.want_stops = false;
  S->replay_events = false;
  uint64_t target = S->rp.last_stop;
  if (target == UINT64_MAX) {
    dbg_replay_to(S, 0);
    dbg_printf(S, "No breakpoint or watchpoint stop before this point: back at the start of the launch.\n");
    S->cur = S->n_slots ? 0 : -1;
    S->cur_sg = 0;
    dbg_show_stop(S, NULL);
    return;
  }
  uint64_t lin = S->rp.last_stop_lin;
  uint32_t sgi = S->rp.last_stop_sg;
  char msg[160];
  snprintf(msg, sizeof msg, "[back to step %" PRIu64 " of the launch, the last stop before; replayed in %%.0f ms]",
           target);
  dbg_ckpt_resume(S, target, lin, sgi, msg, t0);   /* returns when no checkpoint can */
  dbg_replay_to(S, target);
  dbg_replay_show(S, lin, sgi, msg, t0);
}

/* Frees the replay log and what replay passes collected. */
void dbg_replay_free(dbg_session *S)
{
  free(S->log);
  S->log = NULL;
  S->n_log = S->cap_log = 0;
  free(S->rp.pts);
  S->rp.pts = NULL;
  S->rp.n = S->rp.cap = 0;
}
