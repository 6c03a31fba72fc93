/* dbg_run.c - spirv-sgdb's running: one step (dbg_step_one, with its
 * divergence events), the scheduling of subgroups and work-groups, the
 * fast-forward (dbg_run_group_fast, dbg_run_range_fast), and the stop after a step
 * (dbg_check_stop, dbg_cmd_continue, dbg_step_current).
 */
#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg_session.h"
#include "spv.h"

/* Prints the runfile dumps after the kernel finished. */
static void print_dumps(dbg_session *S)
{
  if (!S->rf)
    return;
  uint32_t n;
  const sg_runfile_output *ro = sg_runfile_outputs(S->rf, &n);
  for (uint32_t i = 0; i < n; i++) {
    if (!ro[i].dump || ro[i].arg >= S->k->n_args || !S->args[ro[i].arg].data)
      continue;
    char *t = sg_format_dump(ro[i].name, ro[i].scalar, ro[i].hex, S->args[ro[i].arg].data,
                             S->args[ro[i].arg].size);
    if (t) {
      dbg_puts(S, t);
      free(t);
    }
  }
}

/* Work-groups [first, first+count), none begun, to their end at full speed:
 * natively through the JIT when the kernel compiles, else the interpreter
 * without per-instruction stops.  *native: which. */
bool dbg_run_range_fast(dbg_session *S, uint64_t first, uint64_t count, bool *native)
{
  char err[512] = "";
  bool nat = false;
  sg_result r = sg_launch_run_groups(S->l, first, count, true, &nat, err, sizeof err);
  if (native)
    *native = nat;
  if (r != SG_SUCCESS) {
    if (!S->replaying)
      dbg_printf(S, "error: running work-groups %" PRIu64 "..%" PRIu64 ": %s\n", first, first + count - 1,
             err[0] ? err : sg_result_name(r));
    return false;
  }
  for (uint64_t i = first; i < first + count; i++)
    S->wg_status[i] = 2;
  if (!S->replaying) {
    dbg_log_add(S, RL_RANGE, first, 0);
    S->log[S->n_log - 1].count = count;
  }
  return true;
}

void dbg_end_slot(dbg_session *S, int idx)
{
  wgslot *w = &S->slots[idx];
  dbg_log_add(S, RL_END, w->linear, 0);
  sg_wg_end(w->wg);
  free(w->st);
  S->wg_status[w->linear] = 2;
  S->slots[idx] = S->slots[--S->n_slots];
  if (S->cur == idx)
    S->cur = -1;
  else if (S->cur == (int)S->n_slots)
    S->cur = idx;
}

int dbg_begin_group(dbg_session *S, uint64_t lin)
{
  uint32_t g[3];
  g[0] = (uint32_t)(lin % S->groups[0]);
  g[1] = (uint32_t)(lin / S->groups[0] % S->groups[1]);
  g[2] = (uint32_t)(lin / S->groups[0] / S->groups[1]);
  char err[256] = "";
  sg_wg *wg = sg_wg_begin(S->l, g, err, sizeof err);
  if (!wg) {
    dbg_printf(S, "error: %s\n", err[0] ? err : "cannot start the work-group");
    return -1;
  }
  wgslot *ns = realloc(S->slots, (S->n_slots + 1) * sizeof *ns);
  if (!ns) {
    sg_wg_end(wg);
    return -1;
  }
  S->slots = ns;
  wgslot *w = &S->slots[S->n_slots];
  w->linear = lin;
  memcpy(w->group, g, sizeof g);
  w->wg = wg;
  w->n_sgs = sg_wg_subgroup_count(wg);
  w->st = calloc(w->n_sgs ? w->n_sgs : 1, sizeof *w->st);
  S->wg_status[lin] = 1;
  dbg_log_add(S, RL_BEGIN, lin, 0);
  return (int)S->n_slots++;
}

/* Runs work-group lin to its end at the interpreter's full speed (no
 * per-instruction stops): the fast-forward of 'workgroup X' and of
 * breakpoints that only later work-groups can hit. */
bool dbg_run_group_fast(dbg_session *S, uint64_t lin)
{
  uint32_t g[3];
  g[0] = (uint32_t)(lin % S->groups[0]);
  g[1] = (uint32_t)(lin / S->groups[0] % S->groups[1]);
  g[2] = (uint32_t)(lin / S->groups[0] / S->groups[1]);
  char err[256] = "";
  sg_wg *wg = sg_wg_begin(S->l, g, err, sizeof err);
  if (!wg) {
    if (!S->replaying)
      dbg_printf(S, "error: %s\n", err[0] ? err : "cannot start the work-group");
    return false;
  }
  sg_wg_run(wg);
  sg_wg_end(wg);
  S->wg_status[lin] = 2;
  dbg_log_add(S, RL_RUNWG, lin, 0);
  return true;
}

/* Can work-group lin run at full speed, because nothing can stop in it?
 * Only when every breakpoint names another work-group, and no watchpoint
 * or divergence breakpoint is set. */
static bool can_skip_group(dbg_session *S, uint64_t lin)
{
  if (!S->n_bps || S->n_wps)
    return false;
  for (uint32_t b = 0; b < S->n_bps; b++) {
    const bp *p = &S->bps[b];
    if (!p->has_wg)
      return false;
    uint64_t pl = ((uint64_t)p->wg[2] * S->groups[1] + p->wg[1]) * S->groups[0] + p->wg[0];
    if (pl == lin)
      return false;
  }
  return true;
}

/* Makes sure there is a current work-group; false when the kernel is done. */
bool dbg_ensure_current(dbg_session *S)
{
  if (S->cur >= 0)
    return true;
  if (S->n_slots) {
    S->cur = 0;
    S->cur_sg = 0;
    return true;
  }
  for (uint64_t i = 0; i < S->n_groups; i++)
    if (S->wg_status[i] == 0) {
      if (!S->replaying && can_skip_group(S, i)) {
        if (dbg_run_group_fast(S, i))
          dbg_printf(S, "[work-group (%u,%u,%u) ran at full speed: no breakpoint can stop in it]\n",
                 (uint32_t)(i % S->groups[0]), (uint32_t)(i / S->groups[0] % S->groups[1]),
                 (uint32_t)(i / S->groups[0] / S->groups[1]));
        continue;
      }
      int idx = dbg_begin_group(S, i);
      if (idx < 0)
        return false;
      S->cur = idx;
      S->cur_sg = 0;
      return true;
    }
  return false;
}

void dbg_kernel_finished(dbg_session *S)
{
  if (S->finished)
    return;
  S->finished = true;
  dbg_printf(S, "[kernel finished: %" PRIu64 " diagnostic%s]\n", S->n_faults, S->n_faults == 1 ? "" : "s");
  print_dumps(S);
}

/* The diagnostic the last step raised (sg_run_desc.on_diag; user is the
 * session). */
void dbg_on_diag(void *user, const sg_diag *d)
{
  dbg_session *S = user;
  S->last_diag.seq++;
  snprintf(S->last_diag.text, sizeof S->last_diag.text, "%s", d->formatted);
  memcpy(S->last_diag.lanes, d->lanes, sizeof S->last_diag.lanes);
}

static void print_fault(dbg_session *S)
{
  if (S->last_diag.seq == S->last_diag.before) {
    dbg_printf(S, "diagnostic raised (record not available)\n");
    return;
  }
  dbg_printf(S, "%s\n", S->last_diag.text);
  /* the report's lanes get the focus (the first of them) */
  for (uint32_t l = 0; l < 128; l++)
    if (dbg_lane_in(S->last_diag.lanes, l)) {
      S->focus_lane = l;
      break;
    }
  wgslot *w = dbg_cur_slot(S);
  const ld_insn *at = w ? w->st[S->cur_sg].prev : NULL;
  if (at) {
    char ib[1024], ls[256];
    dbg_format_insn(S, at, ib, sizeof ib);
    dbg_printf(S, "  raised by: %s  (%s)\n", ib, dbg_loc_str(at, ls, sizeof ls));
  }
}

/* Steps subgroup i of the current work-group once, updating our state. */
st_kind dbg_step_one(dbg_session *S, uint32_t i)
{
  if (!S->replaying)
    dbg_ckpt_maybe(S);   /* a checkpoint when one is due (dbg_ckpt.c): before the step */
  wgslot *w = dbg_cur_slot(S);
  sg_sg *sg = sg_wg_subgroup(w->wg, i);
  if (!sg || sg_sg_done(sg))
    return ST_SG_DONE;
  const ld_insn *before = dbg_sg_insn(S, sg);
  S->last_diag.before = S->last_diag.seq;
  uint64_t mb[2], ma[2];
  sg_sg_active(sg, mb);
  if (!S->replaying)
    S->watch_hit = -1;
  uint32_t depth_before = sg_sg_depth(sg);
  if (!S->replaying && S->n_wps)
    dbg_watch_before(S, w, i, sg, before, mb);
  sg_step r = sg_sg_step(sg);
  dbg_log_add(S, RL_STEP, w->linear, i);
  if (r == SG_STEP_BLOCKED)
    return ST_BLOCKED;
  w->st[i].prev = before;
  if (!S->replaying || S->replay_events) {
    sg_sg_active(sg, ma);
    S->ev_diverge = S->ev_converge = false;
    bool sub = (ma[0] & ~mb[0]) == 0 && (ma[1] & ~mb[1]) == 0 && (ma[0] != mb[0] || ma[1] != mb[1]);
    bool sup = (mb[0] & ~ma[0]) == 0 && (mb[1] & ~ma[1]) == 0 && (ma[0] != mb[0] || ma[1] != mb[1]);
    if (before && sg_sg_depth(sg) == depth_before && !sg_sg_done(sg)) {
      S->ev_diverge = sub && (ma[0] | ma[1]) && (before->op == SpvOpBranchConditional || before->op == SpvOpSwitch);
      S->ev_converge = sup && (mb[0] | mb[1]);
    }
    memcpy(S->ev_before, mb, sizeof mb);
    memcpy(S->ev_after, ma, sizeof ma);
    if (S->n_wps && !S->replaying)
      dbg_watch_after(S, w, i, sg, before, mb);
  }
  /* a step or time limit stops the launch with a fault record: shown as a
   * fault, so that its message (and the flag that raises it) is printed */
  if (r == SG_STEP_FAULT || (r == SG_STEP_STOPPED && S->last_diag.seq != S->last_diag.before)) {
    S->n_faults++;
    return ST_FAULT;
  }
  if (r == SG_STEP_STOPPED)
    return ST_STOPPED;
  if (r == SG_STEP_DONE || sg_sg_done(sg))
    return ST_SG_DONE;
  return ST_OK;
}

/* Subgroup i of w waits at a work-group barrier. */
bool dbg_at_barrier(const wgslot *w, uint32_t i)
{
  return sg_sg_blocked(sg_wg_subgroup(w->wg, i));
}

static bool wg_all_done(const wgslot *w)
{
  for (uint32_t i = 0; i < w->n_sgs; i++)
    if (!sg_sg_done(sg_wg_subgroup(w->wg, i)))
      return false;
  return true;
}

/* Picks a subgroup of the current work-group to run: `prefer` if it can run,
 * else the next one that is not waiting; if all wait, one of the waiting
 * ones (which releases the barrier).  UINT32_MAX when all are done. */
static uint32_t pick_sg(dbg_session *S, uint32_t prefer, bool avoid_prefer)
{
  wgslot *w = dbg_cur_slot(S);
  uint32_t n = w->n_sgs;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = (prefer + k) % n;
    if (avoid_prefer && i == prefer)
      continue;
    if (!sg_sg_done(sg_wg_subgroup(w->wg, i)) && !dbg_at_barrier(w, i))
      return i;
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = (prefer + k) % n;
    if (!sg_sg_done(sg_wg_subgroup(w->wg, i)))
      return i;
  }
  return UINT32_MAX;
}

/* After a step of subgroup i: should the run stop?  Prints why and returns
 * true.  Watchpoints first (they describe the step just done), then the
 * breakpoints at the new position. */
bool dbg_check_stop(dbg_session *S, uint32_t i)
{
  wgslot *w = dbg_cur_slot(S);
  if (!w)
    return false;
  if (S->watch_hit >= 0) {
    watch *wp = &S->wps[S->watch_hit];
    S->watch_hit = -1;
    wp->hits++;
    sg_sg *sg = sg_wg_subgroup(w->wg, i);
    char ov[2048] = "", nv[2048] = "", ms[512], ls[256], ib[1024] = "", ch[128] = "";
    dbg_watch_format(wp, wp->was, sg, ov, sizeof ov);
    dbg_watch_format(wp, wp->old, sg, nv, sizeof nv);
    dbg_mask_str(S->watch_lanes, sg_sg_lane_count(sg), ms, sizeof ms);
    if (S->watch_insn)
      dbg_format_insn(S, S->watch_insn, ib, sizeof ib);
    const char *what = wp->kind == WP_WRITE ? "Watchpoint" : wp->kind == WP_READ ? "Read watchpoint" : "Access watchpoint";
    dbg_printf(S, "\n%s %d: %s\n", what, wp->num, wp->expr);
    if (memcmp(wp->was, wp->old, wp->size)) {
      dbg_printf(S, "Old value = %s\nNew value = %s\n", ov, nv);
      if (dbg_watch_changed(wp, ch, sizeof ch))
        dbg_printf(S, "%s\n", ch);
      dbg_printf(S, "written by lanes %s of work-group (%u,%u,%u) subgroup %u at %s\n", ms, w->group[0], w->group[1],
             w->group[2], i, dbg_loc_str(S->watch_insn, ls, sizeof ls));
    } else {
      dbg_printf(S, "Value = %s\n", nv);
      dbg_printf(S, "read by lanes %s of work-group (%u,%u,%u) subgroup %u at %s\n", ms, w->group[0], w->group[1],
             w->group[2], i, dbg_loc_str(S->watch_insn, ls, sizeof ls));
    }
    if (ib[0])
      dbg_printf(S, "  by: %s\n", ib);
    S->cur_sg = i;
    dbg_show_stop(S, NULL);
    return true;
  }
  sg_sg *sg = sg_wg_subgroup(w->wg, i);
  const ld_insn *in = dbg_sg_insn(S, sg);
  /* every breakpoint that stops here is named (a line breakpoint and
   * 'break diverge' after the same branch, say), the first one first */
  char all[8192] = "";
  size_t used = 0;
  int temps[64];
  uint32_t n_temps = 0;
  for (uint32_t b = 0; b < S->n_bps; b++) {
    uint64_t lanes[2];
    char err[300] = "";
    bp *p = &S->bps[b];
    if (!dbg_bp_stops(S, p, w, i, in, lanes, err, sizeof err)) {
      if (!used && err[0] && p->cond && !(lanes[0] | lanes[1]) && !strstr(err, "no value yet")) {
        S->cur_sg = i;
        dbg_printf(S, "Error in the condition of breakpoint %d (%s): %s\n", p->num, p->cond, err);
        dbg_show_stop(S, NULL);
        return true;
      }
      continue;
    }
    char msg[4096], ms[512];
    uint32_t nl = sg_sg_lane_count(sg);
    dbg_mask_str(lanes, nl, ms, sizeof ms);
    S->cur_sg = i;
    if (p->kind == BP_DIVERGE) {
      char bs[512], ws[512];
      uint64_t waiting[2] = {S->ev_before[0] & ~S->ev_after[0], S->ev_before[1] & ~S->ev_after[1]};
      dbg_mask_str(S->ev_before, nl, bs, sizeof bs);
      dbg_mask_str(waiting, nl, ws, sizeof ws);
      const ld_insn *br = w->st[i].prev;
      char ls[256];
      char gs[512];
      dbg_mask_str(S->ev_after, nl, gs, sizeof gs);
      snprintf(msg, sizeof msg, "Breakpoint %d, divergence at %s: lanes %s split; lanes %s go on, lanes %s wait%s%s",
               p->num, dbg_loc_str(br, ls, sizeof ls), bs, gs, ws, p->cond || p->lane >= 0 ? "; it holds in lanes " : "",
               p->cond || p->lane >= 0 ? ms : "");
    } else if (p->kind == BP_CONVERGE) {
      char bs[512];
      dbg_mask_str(S->ev_before, nl, bs, sizeof bs);
      snprintf(msg, sizeof msg, "Breakpoint %d, reconvergence: lanes %s rejoin, lanes %s run together",
               p->num, bs, ms);
    } else if (p->cond || p->lane >= 0) {
      snprintf(msg, sizeof msg, "Breakpoint %d, %s%s%s, in lanes %s", p->num, p->spec, p->cond ? " if " : "",
               p->cond ? p->cond : "", ms);
      for (uint32_t l = 0; l < nl; l++)
        if (dbg_lane_in(lanes, l)) {
          if (!used)
            S->focus_lane = l;
          break;
        }
    } else {
      snprintf(msg, sizeof msg, "Breakpoint %d, %s", p->num, p->spec);
    }
    dbg_put(all, sizeof all, &used, "%s%s", used ? "\n" : "", msg);
    if (p->temp && n_temps < sizeof temps / sizeof temps[0])
      temps[n_temps++] = p->num;
  }
  if (!used)
    return false;
  dbg_show_stop(S, all);
  for (uint32_t k = 0; k < n_temps; k++)
    for (uint32_t b = 0; b < S->n_bps; b++)
      if (S->bps[b].num == temps[k]) {
        dbg_delete_bp_index(S, b);
        dbg_printf(S, "Temporary breakpoint %d deleted.\n", temps[k]);
        break;
      }
  return true;
}

/* Runs until a breakpoint, a diagnostic, or the end of the kernel. */
void dbg_cmd_continue(dbg_session *S)
{
  if (S->finished) {
    dbg_printf(S, "The kernel has finished; 'restart' runs it again.\n");
    return;
  }
  S->interrupted = 0;
  uint32_t last_all_blocked = 0;
  for (;;) {
    if (S->interrupted) {
      dbg_show_stop(S, "Interrupted.");
      return;
    }
    if (!dbg_ensure_current(S)) {
      dbg_kernel_finished(S);
      return;
    }
    wgslot *w = dbg_cur_slot(S);
    if (S->until_on && w->linear == S->until_lin) {
      S->until_on = false;   /* reached: the caller focuses on it */
      return;
    }
    uint32_t i = pick_sg(S, S->cur_sg, false);
    if (i == UINT32_MAX) {
      if (!S->until_on)
        dbg_printf(S, "[work-group (%u,%u,%u) finished]\n", w->group[0], w->group[1], w->group[2]);
      dbg_end_slot(S, S->cur);
      continue;
    }
    S->cur_sg = i;
    st_kind r = dbg_step_one(S, i);
    if (r == ST_BLOCKED) {
      bool all = true;
      for (uint32_t j = 0; j < w->n_sgs; j++)
        if (!sg_sg_done(sg_wg_subgroup(w->wg, j)) && !dbg_at_barrier(w, j))
          all = false;
      if (all && ++last_all_blocked > 2 * w->n_sgs + 2) {
        dbg_printf(S, "error: every subgroup of the work-group waits and none can be released\n");
        return;
      }
      /* try the next one */
      S->cur_sg = (i + 1) % w->n_sgs;
      continue;
    }
    last_all_blocked = 0;
    if (r == ST_FAULT) {
      print_fault(S);
      dbg_show_stop(S, "Stopped on the diagnostic above.");
      return;
    }
    if (r == ST_STOPPED) {
      dbg_show_stop(S, "The launch was stopped.");
      return;
    }
    if (r == ST_SG_DONE) {
      if (S->watch_hit >= 0 && dbg_check_stop(S, i))
        return;
      continue;
    }
    if (dbg_check_stop(S, i))
      return;
  }
}

/* One instruction of the current subgroup; runs the others while it waits
 * at a barrier.  Returns false if nothing could be stepped. */
bool dbg_step_current(dbg_session *S, bool quiet)
{
  if (!dbg_ensure_current(S)) {
    dbg_kernel_finished(S);
    return false;
  }
  wgslot *w = dbg_cur_slot(S);
  sg_sg *sg = dbg_cur_sg(S);
  if (!sg || sg_sg_done(sg)) {
    dbg_printf(S, "Subgroup %u has finished; pick another with 'subgroup N' or 'continue'.\n", S->cur_sg);
    return false;
  }
  uint32_t me = S->cur_sg;
  st_kind r = dbg_step_one(S, me);
  if (r == ST_BLOCKED) {
    /* everyone else already waits (or is done): the next step releases */
    uint32_t waiting = 0, unfinished = 0;
    for (uint32_t j = 0; j < w->n_sgs; j++)
      if (!sg_sg_done(sg_wg_subgroup(w->wg, j))) {
        unfinished++;
        waiting += dbg_at_barrier(w, j);
      }
    if (waiting == unfinished)
      r = dbg_step_one(S, me);
    if (r == ST_BLOCKED) {
      (void)quiet;
      dbg_printf(S, "[subgroup %u waits at a work-group barrier: %u of %u subgroups arrived; "
             "'continue' or step the others ('subgroup N')]\n", me, waiting, unfinished);
      dbg_show_stop(S, NULL);
      return false;
    }
  }
  if (r == ST_FAULT) {
    print_fault(S);
    dbg_show_stop(S, "Stopped on the diagnostic above.");
    return false;
  }
  if (r == ST_SG_DONE) {
    dbg_printf(S, "[subgroup %u finished]\n", me);
    if (wg_all_done(w)) {
      dbg_printf(S, "[work-group (%u,%u,%u) finished]\n", w->group[0], w->group[1], w->group[2]);
      dbg_end_slot(S, S->cur);
      if (!dbg_ensure_current(S))
        dbg_kernel_finished(S);
      else
        dbg_show_stop(S, NULL);
    }
    return false;
  }
  return r == ST_OK;
}

