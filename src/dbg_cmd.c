/* dbg_cmd.c - the debugger engine's commands and its public face: the
 * command table and what each command does, the launch, the command loop,
 * and the sg_dbg_* functions of spirv_sg.h that the terminal front-end
 * (sgdb.c), the DAP server (sgdb_dap.c) and embedding programs call.
 *
 * Read-only views of the module (types, names, source lines, disassembly)
 * use the loader IR that sg_module_ir() hands out to in-tree code
 * (loader/ld.h).  Everything that runs goes through spirv_sg.h: the
 * diagnostic a step raised arrives through sg_run_desc.on_diag, pointers
 * are described by sg_sg_describe_addr(), barrier waits come from
 * sg_sg_blocked(), and .cl input is compiled with line information by
 * sg_load_options.debug_info.  The rest of the engine is split by concern
 * (the map is at the top of dbg_session.h).
 */
#include "spirv_sg.h"
#include "sg_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "dbg.h"
#include "dbg_session.h"
#include "ld.h"
#include "spv.h"

static bool has_ext(const char *p, const char *e)
{
  size_t n = strlen(p), m = strlen(e);
  return n > m && !strcasecmp(p + n - m, e);
}


/* ------------------------------------------------------------ display */

static void print_expr(dbg_session *S, const char *text, int64_t lane);

static void show_insn_line(dbg_session *S, const ld_insn *in, bool marker)
{
  char b[1024];
  dbg_format_insn(S, in, b, sizeof b);
  dbg_printf(S, "%s %s\n", marker ? "=>" : "  ", b);
}

void dbg_show_stop(dbg_session *S, const char *why)
{
  if (why)
    dbg_printf(S, "%s\n", why);
  wgslot *w = dbg_cur_slot(S);
  sg_sg *sg = dbg_cur_sg(S);
  if (!w || !sg) {
    dbg_printf(S, "No current subgroup.\n");
    return;
  }
  if (sg_sg_done(sg)) {
    dbg_printf(S, "[work-group (%u,%u,%u) subgroup %u] finished\n", w->group[0], w->group[1], w->group[2], S->cur_sg);
    return;
  }
  uint64_t m[2];
  sg_sg_active(sg, m);
  char ms[512], ls[256];
  dbg_mask_str(m, sg_sg_lane_count(sg), ms, sizeof ms);
  const ld_insn *in = dbg_sg_insn(S, sg);
  const char *fn = sg_sg_frame_function(sg, 0);
  dbg_printf(S, "[work-group (%u,%u,%u) subgroup %u, lanes %s] %s at %s%s\n", w->group[0], w->group[1],
         w->group[2], S->cur_sg, ms, fn ? fn : "?", dbg_loc_str(in, ls, sizeof ls),
         dbg_at_barrier(w, S->cur_sg) ? " (waiting at a barrier)" : "");
  const char *src = dbg_source_line(S, in);
  if (src)
    dbg_printf(S, "%u\t%s\n", in->loc->line, src);
  if (in)
    show_insn_line(S, in, true);
  S->list_at = in;
  S->list_line = 0;
  if (S->focus_lane >= 0)
    dbg_printf(S, "[focus: lane %" PRId64 "%s]\n", S->focus_lane, dbg_lane_in(m, (uint32_t)S->focus_lane) ? "" : ", inactive here");
  for (uint32_t i = 0; i < S->n_displays; i++) {
    dbg_printf(S, "%u: ", i + 1);
    print_expr(S, S->displays[i], S->focus_lane >= 0 ? S->focus_lane : -1);
  }
}

/* ------------------------------------------------------------ commands */

bool dbg_need_sg(dbg_session *S)
{
  if (S->finished) {
    dbg_printf(S, "The kernel has finished; 'restart' runs it again.\n");
    return false;
  }
  if (!dbg_ensure_current(S)) {
    dbg_kernel_finished(S);
    return false;
  }
  return true;
}

static bool parse_uint(const char *s, uint64_t *out) { return sg_parse_u64(s, out); }

static void cmd_step(dbg_session *S, int argc, char **argv)
{
  uint64_t n = 1;
  if (argc > 1 && (!parse_uint(argv[1], &n) || n == 0 || n > 100000000)) {
    dbg_printf(S, "error: step: bad count '%s'\n", argv[1]);
    return;
  }
  if (!dbg_need_sg(S))
    return;
  S->interrupted = 0;
  for (uint64_t k = 0; k < n && !S->interrupted; k++) {
    uint32_t me = S->cur_sg;
    if (!dbg_step_current(S, false))
      return;
    if (k + 1 < n && dbg_check_stop(S, me))
      return;
    if (k + 1 == n && S->watch_hit >= 0 && dbg_check_stop(S, me))
      return;
  }
  dbg_show_stop(S, NULL);
}

static void cmd_next(dbg_session *S, bool finish)
{
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  const ld_insn *start = dbg_sg_insn(S, sg);
  uint32_t d0 = sg_sg_depth(sg);
  if (finish && d0 <= 1) {
    dbg_printf(S, "error: finish: the outermost frame has no caller\n");
    return;
  }
  if (!finish && (!start || !start->loc)) {
    if (!dbg_step_current(S, false))
      return;
    dbg_show_stop(S, NULL);
    return;
  }
  S->interrupted = 0;
  for (uint64_t guard = 0; guard < 100000000 && !S->interrupted; guard++) {
    if (!dbg_step_current(S, true))
      return;
    sg = dbg_cur_sg(S);
    uint32_t d = sg_sg_depth(sg);
    const ld_insn *in = dbg_sg_insn(S, sg);
    if (finish) {
      if (d < d0)
        break;
      continue;
    }
    if (d > d0)
      continue;           /* inside a call: step over it */
    if (d < d0 || !in || !in->loc)
      break;
    if (in->loc->line != start->loc->line && in->loc->line != 0)
      break;
  }
  dbg_show_stop(S, NULL);
}

/* break|tbreak LOCATION [workgroup X [Y [Z]]] [lane L] [if EXPR] */
static void cmd_break(dbg_session *S, int argc, char **argv, bool temp)
{
  if (argc < 2) {
    dbg_printf(S, "error: usage: %s LINE | FILE:LINE | %%id | OpName | FUNCTION | diverge | converge "
           "[workgroup X [Y [Z]]] [lane L] [if EXPR]\n", argv[0]);
    return;
  }
  bool has_wg = false;
  uint32_t wg[3] = {0, 0, 0};
  int64_t lane = -1;
  char cond[1024] = "";
  for (int a = 2; a < argc; a++) {
    uint64_t v;
    if (!strcmp(argv[a], "if")) {
      dbg_join_args(a + 1, argc, argv, cond, sizeof cond);
      if (!cond[0]) {
        dbg_printf(S, "error: 'if' needs an expression\n");
        return;
      }
      if (!dbg_check_expr(S, cond))
        return;
      break;
    } else if (!strcmp(argv[a], "workgroup") || !strcmp(argv[a], "wg")) {
      has_wg = true;
      int k = 0;
      while (a + 1 < argc && k < 3 && sg_parse_u64(argv[a + 1], &v)) {
        if (v >= S->groups[k]) {
          dbg_printf(S, "error: work-group id %s out of range (the NDRange has %zu x %zu x %zu work-groups)\n",
                 argv[a + 1], S->groups[0], S->groups[1], S->groups[2]);
          return;
        }
        wg[k++] = (uint32_t)v;
        a++;
      }
      if (!k) {
        dbg_printf(S, "error: workgroup needs X [Y [Z]]\n");
        return;
      }
    } else if (!strcmp(argv[a], "lane") && a + 1 < argc && sg_parse_u64(argv[a + 1], &v)) {
      if (v >= S->sg_size) {
        dbg_printf(S, "error: lane %s does not exist (subgroups have %u lanes)\n", argv[a + 1], S->sg_size);
        return;
      }
      lane = (int64_t)v;
      a++;
    } else {
      dbg_printf(S, "error: %s: unexpected '%s' (expected 'workgroup X Y Z', 'lane L' or 'if EXPR')\n", argv[0], argv[a]);
      return;
    }
  }
  int num = dbg_add_bp(S, argv[1]);
  if (num < 0)
    return;
  bp *b = &S->bps[S->n_bps - 1];
  b->temp = temp;
  b->has_wg = has_wg;
  memcpy(b->wg, wg, sizeof wg);
  b->lane = lane;
  if (cond[0])
    b->cond = strdup(cond);
  if (temp || has_wg || lane >= 0 || cond[0]) {
    dbg_printf(S, "  %s%s", temp ? "temporary" : "", temp && (has_wg || lane >= 0 || cond[0]) ? ", " : "");
    if (has_wg)
      dbg_printf(S, "only in work-group (%u,%u,%u)%s", wg[0], wg[1], wg[2], lane >= 0 || cond[0] ? ", " : "");
    if (lane >= 0)
      dbg_printf(S, "only in lane %" PRId64 "%s", lane, cond[0] ? ", " : "");
    if (cond[0])
      dbg_printf(S, "only where %s", cond);
    dbg_printf(S, "\n");
  }
}

static void cmd_condition(dbg_session *S, int argc, char **argv)
{
  bp *b = argc >= 2 ? dbg_find_bp(S, argv[1]) : NULL;
  if (!b) {
    dbg_printf(S, "error: usage: condition N [EXPR] (N a breakpoint number)\n");
    return;
  }
  free(b->cond);
  b->cond = NULL;
  if (argc == 2) {
    dbg_printf(S, "Breakpoint %d is now unconditional.\n", b->num);
    return;
  }
  char cond[1024];
  dbg_join_args(2, argc, argv, cond, sizeof cond);
  if (!dbg_check_expr(S, cond))
    return;
  b->cond = strdup(cond);
  dbg_printf(S, "Breakpoint %d stops only where %s\n", b->num, cond);
}

static void cmd_ignore(dbg_session *S, int argc, char **argv)
{
  bp *b = argc == 3 ? dbg_find_bp(S, argv[1]) : NULL;
  uint64_t n;
  if (!b || !sg_parse_u64(argv[2], &n)) {
    dbg_printf(S, "error: usage: ignore N COUNT (N a breakpoint number)\n");
    return;
  }
  b->ignore = n;
  dbg_printf(S, "Will ignore the next %" PRIu64 " crossing%s of breakpoint %d.\n", n, n == 1 ? "" : "s", b->num);
}

static void delete_wp_index(dbg_session *S, uint32_t i)
{
  dbg_watch_free(&S->wps[i]);
  memmove(&S->wps[i], &S->wps[i + 1], (S->n_wps - i - 1) * sizeof *S->wps);
  S->n_wps--;
}

static void cmd_delete(dbg_session *S, int argc, char **argv)
{
  if (argc < 2) {
    while (S->n_bps)
      dbg_delete_bp_index(S, S->n_bps - 1);
    while (S->n_wps)
      delete_wp_index(S, S->n_wps - 1);
    dbg_printf(S, "Deleted all breakpoints and watchpoints.\n");
    return;
  }
  for (int a = 1; a < argc; a++) {
    uint64_t n;
    bool found = false;
    if (sg_parse_u64(argv[a], &n)) {
      for (uint32_t i = 0; i < S->n_bps && !found; i++)
        if ((uint64_t)S->bps[i].num == n) {
          dbg_delete_bp_index(S, i);
          found = true;
          dbg_printf(S, "Deleted breakpoint %" PRIu64 ".\n", n);
        }
      for (uint32_t i = 0; i < S->n_wps && !found; i++)
        if ((uint64_t)S->wps[i].num == n) {
          delete_wp_index(S, i);
          found = true;
          dbg_printf(S, "Deleted watchpoint %" PRIu64 ".\n", n);
        }
    }
    if (!found)
      dbg_printf(S, "error: delete: no breakpoint number '%s'\n", argv[a]);
  }
}

const ld_function *dbg_frame_fn(dbg_session *S, const sg_sg *sg, uint32_t depth)
{
  const ld_insn *in = dbg_frame_insn(S, sg, depth);
  return in ? in->block->fn : NULL;
}

static uint32_t resolve_id(dbg_session *S, const char *s, const ld_function *fn) { return dbg_resolve_id(S->ir, s, fn); }
static uint32_t depth_for(dbg_session *S, const sg_sg *sg, uint32_t id) { return dbg_depth_for(S, S->ir, sg, id); }

static bool parse_lane_sel(dbg_session *S, int argc, char **argv, int at, uint32_t n_lanes, int64_t *lane)
{
  *lane = -2;   /* default */
  if (argc <= at)
    return true;
  if (!strcmp(argv[at], "all") && argc == at + 1) {
    *lane = -1;
    return true;
  }
  uint64_t v;
  if (!strcmp(argv[at], "lane") && argc == at + 2 && sg_parse_u64(argv[at + 1], &v)) {
    if (v >= n_lanes) {
      dbg_printf(S, "error: lane %" PRIu64 " does not exist (the subgroup has %u lanes)\n", v, n_lanes);
      return false;
    }
    *lane = (int64_t)v;
    return true;
  }
  dbg_printf(S, "error: expected 'lane L' or 'all'\n");
  return false;
}

static void json_str(dbg_session *S, const char *s)
{
  dbg_putc(S, '"');
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      dbg_printf(S, "\\%c", ch);
    else if (ch < 0x20)
      dbg_printf(S, "\\u%04x", ch);
    else
      dbg_putc(S, ch);
  }
  dbg_putc(S, '"');
}

/* Joins argv[from..to) with spaces: the text of an expression. */
void dbg_join_args(int from, int to, char **argv, char *buf, size_t n)
{
  size_t used = 0;
  buf[0] = 0;
  for (int i = from; i < to; i++)
    dbg_put(buf, n, &used, "%s%s", i > from ? " " : "", argv[i]);
}

/* print EXPR [lane L|all]: the expression in every lane (or one). */
static void print_expr(dbg_session *S, const char *text, int64_t lane)
{
  sg_sg *sg = dbg_cur_sg(S);
  wgslot *w = dbg_cur_slot(S);
  uint32_t nl = sg_sg_lane_count(sg);
  uint64_t m[2];
  sg_sg_active(sg, m);
  char tn[96] = "";
  bool first = true;
  if (S->json) {
    dbg_printf(S, "{\"expr\": ");
    json_str(S, text);
    dbg_printf(S, ", \"workgroup\": [%u, %u, %u], \"subgroup\": %u, \"lanes\": [", w->group[0], w->group[1],
           w->group[2], S->cur_sg);
  }
  uint32_t errors = 0;
  char first_err[256] = "";
  static char lines[128][600];
  for (uint32_t l = 0; l < nl && l < 128; l++) {
    lines[l][0] = 0;
    if (lane >= 0 && (uint32_t)lane != l)
      continue;
    dbg_ctx c;
    dbg_make_ctx(S, &c, w, sg, l);
    dbg_val v;
    char out[512], err[256];
    bool ok = dbg_eval(text, &c, &v, err, sizeof err);
    if (ok) {
      dbg_val_format(&v, &c, out, sizeof out);
      if (!tn[0])
        dbg_val_type(&v, tn, sizeof tn);
    } else {
      errors++;
      if (!first_err[0])
        snprintf(first_err, sizeof first_err, "%s", err);
      snprintf(out, sizeof out, "<%s>", err);
    }
    if (S->json) {
      dbg_printf(S, "%s{\"lane\": %u, \"active\": %s, \"%s\": ", first ? "" : ", ", l, dbg_lane_in(m, l) ? "true" : "false",
             ok ? "value" : "error");
      json_str(S, ok ? out : err);
      dbg_printf(S, "}");
    } else {
      snprintf(lines[l], sizeof lines[l], "  lane %2u: %s%s", l, out, dbg_lane_in(m, l) ? "" : "   (inactive)");
    }
    first = false;
  }
  if (S->json) {
    dbg_printf(S, "], \"type\": ");
    json_str(S, tn);
    dbg_printf(S, "}\n");
    return;
  }
  uint32_t shown = lane >= 0 ? 1 : nl;
  if (errors == shown && shown) {
    dbg_printf(S, "error: %s\n", first_err);   /* an error in every lane: once */
    return;
  }
  dbg_printf(S, "%s (%s):\n", text, tn[0] ? tn : "?");
  for (uint32_t l = 0; l < nl && l < 128; l++)
    if (lines[l][0])
      dbg_printf(S, "%s\n", lines[l]);
}

/* Splits "EXPR [lane L|all]" at its end. */
bool dbg_split_lane_sel(dbg_session *S, int *argc, char **argv, uint32_t nl, int64_t *lane)
{
  *lane = -2;
  if (*argc >= 3 && !strcmp(argv[*argc - 1], "all")) {
    *lane = -1;
    (*argc)--;
  } else if (*argc >= 4 && !strcmp(argv[*argc - 2], "lane") && isdigit((unsigned char)argv[*argc - 1][0])) {
    uint64_t v;
    if (!sg_parse_u64(argv[*argc - 1], &v) || v >= nl) {
      dbg_printf(S, "error: lane %s does not exist (the subgroup has %u lanes)\n", argv[*argc - 1], nl);
      return false;
    }
    *lane = (int64_t)v;
    *argc -= 2;
  }
  if (*lane == -2 && S->focus_lane >= 0 && (uint32_t)S->focus_lane < nl)
    *lane = S->focus_lane;
  return true;
}

static void cmd_print_old(dbg_session *S, int argc, char **argv);

static void cmd_print(dbg_session *S, int argc, char **argv)
{
  if (argc >= 2 && !strcmp(argv[1], "--json")) {
    S->json = true;
    argv[1] = argv[0];
    argc--;
    argv++;
  }
  if (argc < 2) {
    dbg_printf(S, "error: print needs an expression (e.g. 'print %%23', 'print in[gid] * 2', 'print sum lane 3')\n");
    return;
  }
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  if (sg_sg_done(sg)) {
    dbg_printf(S, "error: subgroup %u has finished; its values are gone\n", S->cur_sg);
    return;
  }
  bool builtin_name = false;
  static const char *const bn[] = {"gid", "lid", "group", "lane", "sg", "true", "false"};
  for (size_t i = 0; i < sizeof bn / sizeof bn[0]; i++)
    builtin_name |= !strcmp(argv[1], bn[i]);
  int n = argc;
  int64_t lane;
  if (!dbg_split_lane_sel(S, &n, argv, sg_sg_lane_count(sg), &lane))
    return;
  if (n == 2 && dbg_is_plain_name(argv[1]) && !builtin_name && !S->json &&
      resolve_id(S, argv[1], dbg_frame_fn(S, sg, 0))) {
    /* a whole named value: the long-standing form (composites, constants once) */
    char *av[4] = {argv[0], argv[1], NULL, NULL};
    char lb[32];
    int ac = 2;
    if (lane == -1) {
      av[ac++] = (char *)"all";
    } else if (lane >= 0) {
      snprintf(lb, sizeof lb, "%" PRId64, lane);
      av[ac++] = (char *)"lane";
      av[ac++] = lb;
    }
    cmd_print_old(S, ac, av);
    return;
  }
  char text[1024];
  dbg_join_args(1, n, argv, text, sizeof text);
  print_expr(S, text, lane < 0 ? -1 : lane);
}

static void cmd_print_old(dbg_session *S, int argc, char **argv)
{
  if (argc < 2) {
    dbg_printf(S, "error: print needs %%id or NAME (e.g. 'print %%23', 'print sum lane 3')\n");
    return;
  }
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  if (sg_sg_done(sg)) {
    dbg_printf(S, "error: subgroup %u has finished; its values are gone\n", S->cur_sg);
    return;
  }
  const ld_insn *fi = dbg_frame_insn(S, sg, 0);
  uint32_t id = resolve_id(S, argv[1], fi ? fi->block->fn : NULL);
  if (!id) {
    dbg_printf(S, "error: no value named '%s'\n", argv[1]);
    return;
  }
  uint32_t nl = sg_sg_lane_count(sg);
  int64_t lane;
  if (!parse_lane_sel(S, argc, argv, 2, nl, &lane))
    return;
  const ld_value *val = &S->ir->values[id];
  if (val->kind != LD_V_CONSTANT && val->kind != LD_V_UNDEF && val->kind != LD_V_VARIABLE &&
      val->kind != LD_V_PARAM && val->kind != LD_V_RESULT) {
    dbg_printf(S, "error: %s is not a value (a type, label, function, string or debug id)\n", argv[1]);
    return;
  }
  uint32_t depth = depth_for(S, sg, id);
  if (depth == UINT32_MAX) {
    dbg_printf(S, "error: %s belongs to function %s, which is not on the call stack\n", argv[1],
           val->owner && val->owner->name ? val->owner->name : "?");
    return;
  }
  const ld_type *t = val->type;
  bool deref = val->kind == LD_V_RESULT && val->u.insn && val->u.insn->op == SpvOpVariable &&
               t && t->kind == LD_T_POINTER && t->elem && t->elem->size && t->elem->size <= 4096;
  char tn[96];
  dbg_type_name(deref ? t->elem : t, tn, sizeof tn);
  uint64_t m[2];
  sg_sg_active(sg, m);
  bool uniform = val->kind == LD_V_CONSTANT || val->kind == LD_V_UNDEF || val->kind == LD_V_VARIABLE;
  dbg_printf(S, "%%%u%s%s%s (%s)%s%s:\n", id, val->name ? " '" : "", val->name ? val->name : "", val->name ? "'" : "",
         tn, deref ? ", variable: value in memory" : "", uniform ? ", same in every lane" : "");
  uint8_t buf[4096 + 16];
  for (uint32_t l = 0; l < nl; l++) {
    if (lane >= 0 && (uint32_t)lane != l)
      continue;
    if (uniform && lane < 0 && l > 0)
      break;
    memset(buf, 0, sizeof buf);
    uint32_t sz = sg_sg_read(sg, depth, l, id, buf);
    char out[2048];
    size_t used = 0;
    out[0] = 0;
    if (!sz) {
      dbg_put(out, sizeof out, &used, "<not defined yet>");
    } else if (deref) {
      uint64_t addr = dbg_rd_uint(buf, sz);
      uint8_t mem[4096];
      if (sg_sg_read_memory(sg, l, addr, mem, t->elem->size))
        dbg_format_value(t->elem, mem, sizeof mem, sg, out, sizeof out, &used, 0);
      else
        dbg_put(out, sizeof out, &used, "<unreadable memory at 0x%" PRIx64 ">", addr);
    } else {
      dbg_format_value(t, buf, sz, sg, out, sizeof out, &used, 0);
    }
    if (uniform && lane < 0)
      dbg_printf(S, "  all lanes: %s\n", out);
    else
      dbg_printf(S, "  lane %2u: %s%s\n", l, out, dbg_lane_active(m, l) ? "" : "   (inactive)");
  }
}

static void cmd_lanes(dbg_session *S)
{
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  uint64_t m[2];
  sg_sg_active(sg, m);
  uint32_t nl = sg_sg_lane_count(sg);
  char ms[512];
  dbg_mask_str(m, nl, ms, sizeof ms);
  uint32_t cnt = 0;
  char bits[129];
  for (uint32_t l = 0; l < nl && l < 128; l++) {
    bits[l] = dbg_lane_active(m, l) ? '1' : '0';
    cnt += dbg_lane_active(m, l);
  }
  bits[nl < 128 ? nl : 128] = 0;
  dbg_printf(S, "active lanes: %s (%u of %u)\n", ms, cnt, nl);
  dbg_printf(S, "mask (lane 0 first): %s\n", bits);
  dbg_printf(S, "local ids:");
  for (uint32_t l = 0; l < nl; l++)
    if (dbg_lane_active(m, l))
      dbg_printf(S, " %u", sg_sg_lane_local_linear(sg, l));
  dbg_printf(S, "\n");
}

static void cmd_where(dbg_session *S, bool json)
{
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  uint32_t n = sg_sg_depth(sg);
  if (!n && !json) {
    dbg_printf(S, "No stack (the subgroup has finished).\n");
    return;
  }
  if (json)
    dbg_printf(S, "{\"frames\": [");
  for (uint32_t d = 0; d < n; d++) {
    const ld_insn *in = dbg_frame_insn(S, sg, d);
    const char *fn = sg_sg_frame_function(sg, d);
    char ls[256], ib[1024] = "";
    if (in)
      dbg_format_insn(S, in, ib, sizeof ib);
    if (json) {
      dbg_printf(S, "%s{\"level\": %u, \"function\": ", d ? ", " : "", d);
      json_str(S, fn ? fn : "?");
      dbg_printf(S, ", \"file\": ");
      json_str(S, in && in->loc && in->loc->file ? in->loc->file : "");
      dbg_printf(S, ", \"line\": %u, \"instruction\": ", in && in->loc ? in->loc->line : 0);
      json_str(S, ib);
      dbg_printf(S, "}");
    } else {
      dbg_printf(S, "#%u  %s at %s: %s\n", d, fn ? fn : "?", dbg_loc_str(in, ls, sizeof ls), ib);
    }
  }
  if (json)
    dbg_printf(S, "]}\n");
}

static void disas_fn(dbg_session *S, const ld_function *fn, const ld_insn *cur, const ld_insn *from, uint32_t count)
{
  uint32_t shown = 0;
  bool started = from == NULL;
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    const ld_block *bl = &fn->blocks[b];
    for (uint32_t i = 0; i < bl->n_insns; i++) {
      const ld_insn *in = &bl->insns[i];
      if (!started && in == from)
        started = true;
      if (!started)
        continue;
      if (count && shown >= count)
        return;
      if (i == 0) {
        const char *ln = dbg_id_namer(S, bl->label);
        if (ln)
          dbg_printf(S, "      %%%s = OpLabel\n", ln);
        else
          dbg_printf(S, "      %%%u = OpLabel\n", bl->label);
      }
      char b2[1024];
      dbg_format_insn(S, in, b2, sizeof b2);
      dbg_printf(S, "%s %5u  %s\n", in == cur ? "=>" : "  ", in->word_offset, b2);
      shown++;
    }
  }
}

static void cmd_disassemble(dbg_session *S, int argc, char **argv)
{
  const ld_function *fn = NULL;
  const ld_insn *cur = NULL;
  if (argc > 1) {
    fn = dbg_find_function(S, argv[1]);
    if (!fn) {
      dbg_printf(S, "error: no function named '%s'\n", argv[1]);
      return;
    }
  }
  if (!fn) {
    if (!dbg_need_sg(S))
      return;
    cur = dbg_sg_insn(S, dbg_cur_sg(S));
    if (!cur) {
      dbg_printf(S, "error: the subgroup has finished\n");
      return;
    }
    fn = cur->block->fn;
  } else if (!S->finished && S->cur >= 0) {
    const ld_insn *c = dbg_sg_insn(S, dbg_cur_sg(S));
    if (c && c->block->fn == fn)
      cur = c;
  }
  dbg_printf(S, "; function %s (%%%u)\n", fn->name ? fn->name : "?", fn->id);
  disas_fn(S, fn, cur, NULL, 0);
}

static void cmd_list(dbg_session *S, int argc, char **argv)
{
  const ld_insn *at = S->list_at;
  (void)argv;
  if (argc > 1) {
    dbg_printf(S, "error: list takes no arguments (it lists around the current position)\n");
    return;
  }
  if (!at) {
    if (!S->finished && S->cur >= 0)
      at = dbg_sg_insn(S, dbg_cur_sg(S));
    if (!at) {
      const ld_kernel *k = ld_find_kernel(S->ir, S->k->name);
      if (k && k->fn && k->fn->n_blocks)
        at = &k->fn->blocks[0].insns[0];
    }
    if (!at) {
      dbg_printf(S, "error: nothing to list\n");
      return;
    }
  }
  srcfile *f = at->loc && at->loc->file ? dbg_source_for(S, at->loc->file) : NULL;
  if (f) {
    uint32_t center = S->list_line ? S->list_line + 5 : at->loc->line;
    uint32_t first = center > 5 ? center - 5 : 1;
    if (first > f->n_lines) {
      dbg_printf(S, "Line %u is past the end of %s (%u lines).\n", first, dbg_base_name(at->loc->file), f->n_lines);
      return;
    }
    for (uint32_t l = first; l < first + 10 && l <= f->n_lines; l++)
      dbg_printf(S, "%s%u\t%s\n", l == at->loc->line && !S->list_line ? "=>" : "  ", l, f->lines[l - 1]);
    S->list_line = first + 9 - 5 + 1;
    return;
  }
  /* no source: the disassembly around the instruction */
  const ld_function *fn = at->block->fn;
  const ld_insn *from = at;
  uint32_t back = 5;
  const ld_block *bl = at->block;
  uint32_t idx = at->index;
  while (back--) {
    if (idx)
      idx--;
    else if (bl->index)
      bl = &fn->blocks[bl->index - 1], idx = bl->n_insns - 1;
    else
      break;
    from = &bl->insns[idx];
  }
  dbg_printf(S, "(no source for this location; disassembly)\n");
  disas_fn(S, fn, dbg_sg_insn(S, dbg_cur_sg(S)), from, 11);
}

static sg_scalar fmt_scalar(char c)
{
  switch (c) {
  case 'd': return SG_S_INT;
  case 'u': return SG_S_UINT;
  case 'x': return SG_S_UINT;
  case 'f': return SG_S_FLOAT;
  case 'c': return SG_S_CHAR;
  case 'b': return SG_S_UCHAR;
  case 'h': return SG_S_USHORT;
  case 'l': return SG_S_LONG;
  case 'g': return SG_S_DOUBLE;
  default: return SG_S_NONE;
  }
}

/* gdb's format and unit size together (x/4dw, x/2xg): d u x f then b h w
 * g (1, 2, 4, 8 bytes); SG_S_NONE when spec is not such a pair. */
static sg_scalar fmt_unit(const char *spec, bool *hex)
{
  static const char units[] = "bhwg";
  const char *u = spec[0] && spec[1] && !spec[2] ? strchr(units, spec[1]) : NULL;
  if (!u || !strchr("duxf", spec[0]))
    return SG_S_NONE;
  int k = (int)(u - units);
  static const sg_scalar sgn[] = {SG_S_CHAR, SG_S_SHORT, SG_S_INT, SG_S_LONG};
  static const sg_scalar uns[] = {SG_S_UCHAR, SG_S_USHORT, SG_S_UINT, SG_S_ULONG};
  *hex = spec[0] == 'x';
  if (spec[0] == 'f')
    return k == 2 ? SG_S_FLOAT : k == 3 ? SG_S_DOUBLE : SG_S_NONE;
  return spec[0] == 'd' ? sgn[k] : uns[k];
}

/* x/N[fmt|fmt+unit|type] ADDR|%ptr|NAME [lane L] */
static void cmd_x(dbg_session *S, int argc, char **argv)
{
  const char *spec = argv[0] + 1;   /* after 'x' */
  uint64_t count = 1;
  sg_scalar s = SG_S_NONE;
  bool hex = false;
  if (*spec == '/') {
    spec++;
    char *end;
    if (*spec >= '0' && *spec <= '9') {
      errno = 0;
      count = strtoull(spec, &end, 10);
      if (errno || !count || count > 4096) {
        dbg_printf(S, "error: x: count must be 1..4096\n");
        return;
      }
      spec = end;
    }
    if (*spec) {
      if (!spec[1]) {
        s = fmt_scalar(*spec);
        hex = *spec == 'x' || *spec == 'b' || *spec == 'h';
      } else {
        s = fmt_unit(spec, &hex);
        if (s == SG_S_NONE)
          s = sg_scalar_from_name(spec, strlen(spec));
      }
      if (s == SG_S_NONE || s == SG_S_BOOL) {
        dbg_printf(S, "error: x: unknown format '%s' (d u x f c b h l g, one of d u x f with a size b h w g "
                   "as in gdb, or a type: int float ...)\n", spec);
        return;
      }
    }
  } else if (*spec) {
    dbg_printf(S, "error: unknown command '%s' (try 'help')\n", argv[0]);
    return;
  }
  if (argc < 2) {
    dbg_printf(S, "error: x needs an address or a pointer value: x/4d %%ptr [lane L]\n");
    return;
  }
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  uint32_t nl = sg_sg_lane_count(sg);
  int64_t lane;
  if (!parse_lane_sel(S, argc, argv, 2, nl, &lane))
    return;
  if (lane == -1) {
    dbg_printf(S, "error: x reads memory of one lane: use 'lane L'\n");
    return;
  }
  uint64_t m[2];
  sg_sg_active(sg, m);
  if (lane < 0 && S->focus_lane >= 0 && (uint32_t)S->focus_lane < nl)
    lane = S->focus_lane;
  if (lane < 0) {
    lane = 0;
    for (uint32_t l = 0; l < nl; l++)
      if (dbg_lane_active(m, l)) { lane = l; break; }
  }
  uint64_t addr;
  const ld_type *pointee = NULL;
  if (!sg_parse_u64(argv[1], &addr)) {
    const ld_insn *fi = dbg_frame_insn(S, sg, 0);
    uint32_t id = resolve_id(S, argv[1], fi ? fi->block->fn : NULL);
    if (!id) {
      dbg_printf(S, "error: x: '%s' is neither an address nor a value name\n", argv[1]);
      return;
    }
    const ld_type *t = S->ir->values[id].type;
    if (!t || t->kind != LD_T_POINTER) {
      dbg_printf(S, "error: x: %s is not a pointer\n", argv[1]);
      return;
    }
    uint32_t depth = depth_for(S, sg, id);
    uint8_t b[128] = {0};
    if (depth == UINT32_MAX || !sg_sg_read(sg, depth, (uint32_t)lane, id, b)) {
      dbg_printf(S, "error: x: %s has no value in lane %" PRId64 " yet\n", argv[1], lane);
      return;
    }
    addr = dbg_rd_uint(b, t->size);
    pointee = t->elem;
  }
  if (s == SG_S_NONE) {
    const ld_type *c = pointee && pointee->comp ? pointee->comp : NULL;
    if (c && c->kind == LD_T_FLOAT)
      s = c->width == 16 ? SG_S_HALF : c->width == 64 ? SG_S_DOUBLE : SG_S_FLOAT;
    else if (c && c->kind == LD_T_INT)
      s = c->width == 8 ? SG_S_UCHAR : c->width == 16 ? SG_S_USHORT : c->width == 64 ? SG_S_ULONG : SG_S_UINT;
    else
      s = SG_S_UINT, hex = true;
  }
  size_t es = sg_scalar_size(s);
  char d[256];
  sg_sg_describe_addr(sg, addr, d, sizeof d);
  dbg_printf(S, "0x%" PRIx64 " (%s), lane %" PRId64 ", %" PRIu64 " x %s:\n", addr, d, lane, count, sg_scalar_name(s));
  for (uint64_t i = 0; i < count; i++) {
    uint8_t e[8];
    if (!sg_sg_read_memory(sg, (uint32_t)lane, addr + i * es, e, es)) {
      dbg_printf(S, "%s<cannot read 0x%" PRIx64 ": outside the allocation>\n", i % 8 ? "\n" : "", addr + i * es);
      return;
    }
    char v[64];
    sg_format_value(v, sizeof v, s, hex, e);
    if (i % 8 == 0)
      dbg_printf(S, "  +%-5" PRIu64 ":", i * es);
    dbg_printf(S, " %s", v);
    if (i % 8 == 7 || i + 1 == count)
      dbg_printf(S, "\n");
  }
}

static void cmd_info_subgroups(dbg_session *S)
{
  if (!dbg_need_sg(S))
    return;
  wgslot *w = dbg_cur_slot(S);
  dbg_printf(S, "work-group (%u,%u,%u): %u subgroup%s of up to %u lanes\n", w->group[0], w->group[1], w->group[2],
         w->n_sgs, w->n_sgs == 1 ? "" : "s", S->sg_size);
  for (uint32_t i = 0; i < w->n_sgs; i++) {
    sg_sg *sg = sg_wg_subgroup(w->wg, i);
    const char *state = sg_sg_done(sg) ? "done" : dbg_at_barrier(w, i) ? "at barrier" : "running";
    const ld_insn *in = dbg_sg_insn(S, sg);
    char ls[256] = "", ib[1024] = "", ms[512] = "";
    uint64_t m[2];
    sg_sg_active(sg, m);
    dbg_mask_str(m, sg_sg_lane_count(sg), ms, sizeof ms);
    if (in) {
      dbg_format_insn(S, in, ib, sizeof ib);
      dbg_loc_str(in, ls, sizeof ls);
    }
    dbg_printf(S, "%c %u  %-10s lanes %-12s %s%s%s\n", i == S->cur_sg ? '*' : ' ', i, state,
           sg_sg_done(sg) ? "-" : ms, ls, in ? "  " : "", ib);
  }
}

static void cmd_info_args(dbg_session *S)
{
  for (uint32_t i = 0; i < S->k->n_args; i++) {
    const sg_arg_info *a = &S->k->args[i];
    const sg_arg *v = &S->args[i];
    dbg_printf(S, "  %u %s %s = ", i, a->type_name ? a->type_name : "?", a->name ? a->name : "?");
    switch (v->kind) {
    case SG_ARG_BUFFER: {
      dbg_printf(S, "buffer of %zu bytes", v->size);
      sg_scalar s = a->scalar == SG_S_NONE || a->scalar == SG_S_BOOL ? SG_S_UCHAR : a->scalar;
      size_t es = sg_scalar_size(s);
      dbg_printf(S, " {");
      for (size_t e = 0; es && e < 8 && (e + 1) * es <= v->size; e++) {
        char b[64];
        sg_format_value(b, sizeof b, s, false, (const uint8_t *)v->data + e * es);
        dbg_printf(S, "%s%s", e ? ", " : "", b);
      }
      dbg_printf(S, "%s}\n", v->size > 8 * es ? ", ..." : "");
      break;
    }
    case SG_ARG_NULL: dbg_printf(S, "NULL\n"); break;
    case SG_ARG_LOCAL: dbg_printf(S, "__local, %zu bytes\n", v->size); break;
    case SG_ARG_VALUE: {
      sg_scalar s = a->scalar;
      size_t es = sg_scalar_size(s);
      if (!es) {
        dbg_printf(S, "%zu bytes\n", v->size);
        break;
      }
      for (size_t e = 0; (e + 1) * es <= v->size && e < 16; e++) {
        char b[64];
        sg_format_value(b, sizeof b, s, false, (const uint8_t *)v->data + e * es);
        dbg_printf(S, "%s%s", e ? ", " : "", b);
      }
      dbg_printf(S, "\n");
      break;
    }
    case SG_ARG_IMAGE: dbg_printf(S, "image\n"); break;
    case SG_ARG_SAMPLER: dbg_printf(S, "sampler 0x%x\n", v->sampler); break;
    default: dbg_printf(S, "?\n");
    }
  }
}

static void cmd_info_breakpoints(dbg_session *S)
{
  if (!S->n_bps && !S->n_wps) {
    dbg_printf(S, "No breakpoints or watchpoints.\n");
    return;
  }
  dbg_printf(S, "Num  Where                          Hits\n");
  for (uint32_t i = 0; i < S->n_bps; i++) {
    const bp *b = &S->bps[i];
    dbg_printf(S, "%-4d %-30s %" PRIu64 "%s\n", b->num, b->spec, b->hits, b->temp ? "  (temporary)" : "");
    if (b->has_wg)
      dbg_printf(S, "       only in work-group (%u,%u,%u)\n", b->wg[0], b->wg[1], b->wg[2]);
    if (b->lane >= 0)
      dbg_printf(S, "       only in lane %" PRId64 "\n", b->lane);
    if (b->cond)
      dbg_printf(S, "       stop only where %s\n", b->cond);
    if (b->ignore)
      dbg_printf(S, "       will ignore the next %" PRIu64 " hits\n", b->ignore);
  }
  for (uint32_t i = 0; i < S->n_wps; i++) {
    const watch *w = &S->wps[i];
    char where[64];
    snprintf(where, sizeof where, "%s %s", w->kind == WP_WRITE ? "watch" : w->kind == WP_READ ? "rwatch" : "awatch",
             w->expr);
    dbg_printf(S, "%-4d %-30s %" PRIu64 "\n", w->num, where, w->hits);
  }
}

static void cmd_info_workgroups(dbg_session *S)
{
  dbg_printf(S, "NDRange: %zu x %zu x %zu work-groups, subgroup size %u\n", S->groups[0], S->groups[1], S->groups[2], S->sg_size);
  uint64_t done = 0, fresh = 0;
  for (uint64_t i = 0; i < S->n_groups; i++)
    done += S->wg_status[i] == 2, fresh += S->wg_status[i] == 0;
  dbg_printf(S, "finished %" PRIu64 ", not started %" PRIu64 ", in progress %u\n", done, fresh, S->n_slots);
  for (uint32_t i = 0; i < S->n_slots; i++)
    dbg_printf(S, "%c (%u,%u,%u)\n", (int)i == S->cur ? '*' : ' ', S->slots[i].group[0], S->slots[i].group[1],
           S->slots[i].group[2]);
}

static void cmd_workgroup(dbg_session *S, int argc, char **argv)
{
  if (argc < 2 || argc > 4) {
    dbg_printf(S, "error: usage: workgroup X [Y [Z]]\n");
    return;
  }
  uint32_t g[3] = {0, 0, 0};
  for (int i = 1; i < argc; i++) {
    uint64_t v;
    if (!sg_parse_u64(argv[i], &v) || v >= S->groups[i - 1]) {
      dbg_printf(S, "error: work-group id '%s' out of range (the NDRange has %zu x %zu x %zu work-groups)\n",
             argv[i], S->groups[0], S->groups[1], S->groups[2]);
      return;
    }
    g[i - 1] = (uint32_t)v;
  }
  uint64_t lin = ((uint64_t)g[2] * S->groups[1] + g[1]) * S->groups[0] + g[0];
  if (S->wg_status[lin] == 2) {
    dbg_printf(S, "error: work-group (%u,%u,%u) has already finished\n", g[0], g[1], g[2]);
    return;
  }
  int idx = -1;
  for (uint32_t i = 0; i < S->n_slots; i++)
    if (S->slots[i].linear == lin)
      idx = (int)i;
  /* work-groups before it that were begun but never stepped (the launch
   * begins the first one) go back to not begun: they can run at full speed */
  for (uint32_t s = 0; s < S->n_slots && idx < 0;) {
    uint64_t sl = S->slots[s].linear;
    bool stepped = false;
    for (uint64_t e = 0; e < S->n_log && !stepped; e++)
      stepped = S->log[e].kind == RL_STEP && S->log[e].lin == sl;
    if (sl < lin && !stepped) {
      for (uint64_t e = 0; e < S->n_log; e++)
        if (S->log[e].kind == RL_BEGIN && S->log[e].lin == sl) {
          memmove(&S->log[e], &S->log[e + 1], (S->n_log - e - 1) * sizeof *S->log);
          S->n_log--;
          dbg_ckpt_truncate(S, 0);   /* the history before them changed */
          break;
        }
      sg_wg_end(S->slots[s].wg);
      free(S->slots[s].st);
      S->wg_status[sl] = 0;
      S->slots[s] = S->slots[--S->n_slots];
      S->cur = -1;
      continue;
    }
    s++;
  }
  const watch *gw = dbg_watch_global(S);
  if (idx < 0 && lin > 0 && S->wg_status[lin - 1] == 0 && gw) {
    /* a watchpoint on global memory would not see the writes of work-groups
     * run at full speed: they run in the interpreter instead, and the run
     * stops on the way if the watchpoint (or a breakpoint) fires */
    uint64_t before = 0;
    for (uint64_t i = 0; i < lin; i++)
      before += S->wg_status[i] == 0;
    dbg_printf(S, "[watchpoint %d watches global memory: the %" PRIu64 " earlier work-group%s run in the interpreter, "
           "not at full speed]\n", gw->num, before, before == 1 ? "" : "s");
    S->until_on = true;
    S->until_lin = lin;
    dbg_cmd_continue(S);
    bool reached = !S->until_on;
    S->until_on = false;
    if (!reached || S->cur < 0)
      return;   /* it stopped on the way (and said why) */
    idx = S->cur;
  } else if (idx < 0 && lin > 0 && S->wg_status[lin - 1] == 0) {
    /* the work-groups before it run first, at full speed: global memory is
     * then what the kernel left there when X starts */
    double t0 = sg_now_ms();
    uint64_t ran = 0;
    bool native = false;
    for (uint64_t i = 0; i < lin;) {
      if (S->wg_status[i] != 0) {
        i++;
        continue;
      }
      uint64_t e = i;
      while (e < lin && S->wg_status[e] == 0)
        e++;
      if (!dbg_run_range_fast(S, i, e - i, &native))
        return;
      ran += e - i;
      i = e;
    }
    dbg_printf(S, "[ran %" PRIu64 " earlier work-group%s at full speed (%s) in %.0f ms]\n", ran, ran == 1 ? "" : "s",
           native ? "native code from the JIT" : "interpreter", sg_now_ms() - t0);
  }
  if (idx < 0)
    idx = dbg_begin_group(S, lin);
  if (idx < 0)
    return;
  S->cur = idx;
  S->cur_sg = 0;
  S->finished = false;
  dbg_show_stop(S, NULL);
}

static void cmd_subgroup(dbg_session *S, int argc, char **argv)
{
  if (argc != 2) {
    dbg_printf(S, "error: usage: subgroup N\n");
    return;
  }
  if (!dbg_need_sg(S))
    return;
  uint64_t v;
  wgslot *w = dbg_cur_slot(S);
  if (!sg_parse_u64(argv[1], &v) || v >= w->n_sgs) {
    dbg_printf(S, "error: subgroup '%s' out of range (the work-group has %u subgroups)\n", argv[1], w->n_sgs);
    return;
  }
  S->cur_sg = (uint32_t)v;
  dbg_show_stop(S, NULL);
}


static void cmd_restart(dbg_session *S)
{
  dbg_ckpt_truncate(S, 0);   /* a new history */
  dbg_stop_launch(S);
  for (uint32_t i = 0; i < S->k->n_args; i++)
    if (S->pristine[i] && S->args[i].data)
      memcpy(S->args[i].data, S->pristine[i], S->args[i].size);
  if (dbg_start_launch(S) == SG_SUCCESS) {
    /* the watched bytes are the restarted launch's now (a watchpoint
     * must not report the buffers going back to their first contents as
     * a write by the first instruction) */
    wgslot *w = dbg_cur_slot(S);
    sg_sg *sg = dbg_cur_sg(S);
    for (uint32_t k = 0; k < S->n_wps && w && sg; k++) {
      watch *wp = &S->wps[k];
      if (dbg_watch_sees(wp, w, S->cur_sg))
        sg_sg_read_memory(sg, wp->is_private ? wp->lane : 0, wp->addr, wp->old, wp->size);
    }
    dbg_printf(S, "Restarted.\n");
    dbg_show_stop(S, NULL);
  } else {
    dbg_printf(S, "error: %s\n", S->launch_error);
  }
}

static void cmd_lane(dbg_session *S, int argc, char **argv)
{
  if (argc == 1) {
    if (S->focus_lane < 0)
      dbg_printf(S, "No lane focus: commands show every lane.\n");
    else
      dbg_printf(S, "Focus on lane %" PRId64 ".\n", S->focus_lane);
    return;
  }
  if (argc == 2 && (!strcmp(argv[1], "all") || !strcmp(argv[1], "off"))) {
    S->focus_lane = -1;
    dbg_printf(S, "No lane focus: commands show every lane.\n");
    return;
  }
  uint64_t v;
  uint32_t nl = S->sg_size;
  if (!S->finished && S->cur >= 0 && dbg_cur_sg(S))
    nl = sg_sg_lane_count(dbg_cur_sg(S));
  if (argc != 2 || !sg_parse_u64(argv[1], &v) || v >= nl) {
    dbg_printf(S, "error: usage: lane L (0..%u) | lane all\n", nl ? nl - 1 : 0);
    return;
  }
  S->focus_lane = (int64_t)v;
  dbg_printf(S, "Focus on lane %" PRIu64 ": print, x and watch use it (print ... all: every lane).\n", v);
}

/* The SIMT stack of the focused subgroup's innermost frame, top first. */
typedef struct reconv_entry { uint64_t m[2]; uint32_t pc, rpc; bool meet; } reconv_entry;

static uint32_t read_reconv(dbg_session *S, sg_sg *sg, reconv_entry *e, uint32_t max)
{
  uint32_t n = sg_sg_reconv(sg, 0, e[0].m, &e[0].pc, &e[0].rpc);
  if (n > max)
    n = max;
  for (uint32_t k = 1; k < n; k++)
    sg_sg_reconv(sg, k, e[k].m, &e[k].pc, &e[k].rpc);
  /* an entry whose next block is where the entry above it reconverges is
   * the meeting point of a branch, not a path still to run */
  for (uint32_t k = 0; k < n; k++) {
    const ld_insn *pi = e[k].pc ? dbg_insn_at_word(S, e[k].pc) : NULL;
    e[k].meet = k > 0 && pi && e[k - 1].rpc && pi->block->label == e[k - 1].rpc;
  }
  return n;
}

static void block_name(dbg_session *S, uint32_t label, char *buf, size_t n)
{
  const char *ln = label ? dbg_id_namer(S, label) : NULL;
  if (!label)
    snprintf(buf, n, "the function's exit");
  else if (ln)
    snprintf(buf, n, "%%%s", ln);
  else
    snprintf(buf, n, "%%%u", label);
}

static void cmd_info_lanes(dbg_session *S, bool json)
{
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  wgslot *w = dbg_cur_slot(S);
  uint32_t nl = sg_sg_lane_count(sg);
  uint64_t m[2];
  sg_sg_active(sg, m);
  const ld_insn *in = dbg_sg_insn(S, sg);
  char here[256];
  dbg_loc_str(in, here, sizeof here);
  /* where the inactive lanes wait: the SIMT stack entry that holds them */
  reconv_entry re[64];
  uint32_t ne = read_reconv(S, sg, re, 64);
  if (json)
    dbg_printf(S, "{\"workgroup\": [%u, %u, %u], \"subgroup\": %u, \"lanes\": [", w->group[0], w->group[1], w->group[2],
           S->cur_sg);
  else
    dbg_printf(S, "  Lane  Active  Global id        Local id        Where\n");
  for (uint32_t l = 0; l < nl; l++) {
    dbg_ctx c;
    dbg_make_ctx(S, &c, w, sg, l);
    size_t g[3], li[3];
    uint32_t lin = sg_sg_lane_local_linear(sg, l);
    li[0] = lin % c.local_size[0];
    li[1] = lin / c.local_size[0] % c.local_size[1];
    li[2] = lin / (c.local_size[0] * c.local_size[1]);
    for (int d = 0; d < 3; d++)
      g[d] = c.group[d] * c.local_size[d] + li[d] + c.global_offset[d];
    bool act = dbg_lane_in(m, l);
    char where[700];
    if (sg_sg_done(sg))
      snprintf(where, sizeof where, "finished");
    else if (act)
      snprintf(where, sizeof where, "%s", here);
    else {
      snprintf(where, sizeof where, "not in the current path");
      for (uint32_t e = 1; e < ne; e++)
        if (dbg_lane_in(re[e].m, l)) {
          const ld_insn *pi = re[e].pc ? dbg_insn_at_word(S, re[e].pc) : NULL;
          char ls[256], bn[128];
          dbg_loc_str(pi, ls, sizeof ls);
          block_name(S, pi ? pi->block->label : 0, bn, sizeof bn);
          if (re[e].meet)
            snprintf(where, sizeof where, "waits at %s (%s) to reconverge", ls, bn);
          else
            snprintf(where, sizeof where, "waits to run %s (%s, the other side of the branch)", ls, bn);
          break;
        }
      if (!strcmp(where, "not in the current path") && l < nl)
        snprintf(where, sizeof where, "returned or exited");
    }
    if (json) {
      dbg_printf(S, "%s{\"lane\": %u, \"active\": %s, \"global_id\": [%zu, %zu, %zu], \"local_id\": [%zu, %zu, %zu], "
             "\"where\": ", l ? ", " : "", l, act ? "true" : "false", g[0], g[1], g[2], li[0], li[1], li[2]);
      json_str(S, where);
      dbg_printf(S, "}");
    } else {
      char gs[64], lsb[64];
      snprintf(gs, sizeof gs, "(%zu,%zu,%zu)", g[0], g[1], g[2]);
      snprintf(lsb, sizeof lsb, "(%zu,%zu,%zu)", li[0], li[1], li[2]);
      dbg_printf(S, "%c %4u  %-6s  %-15s  %-14s  %s\n", (int64_t)l == S->focus_lane ? '*' : ' ', l, act ? "yes" : "no", gs,
             lsb, where);
    }
  }
  if (json)
    dbg_printf(S, "]}\n");
}

static void cmd_info_divergence(dbg_session *S)
{
  if (!dbg_need_sg(S))
    return;
  sg_sg *sg = dbg_cur_sg(S);
  uint32_t nl = sg_sg_lane_count(sg);
  reconv_entry re[64];
  uint32_t ne = read_reconv(S, sg, re, 64);
  if (ne <= 1) {
    dbg_printf(S, "No divergence: the lanes of subgroup %u that still run all run the same path.\n", S->cur_sg);
    return;
  }
  dbg_printf(S, "Subgroup %u (innermost frame), top first:\n", S->cur_sg);
  uint64_t above[2] = {0, 0};
  for (uint32_t e = 0; e < ne; e++) {
    char ms[512], ls[256] = "?", bn[128], rb[128], ws[512];
    dbg_mask_str(re[e].m, nl, ms, sizeof ms);
    const ld_insn *pi = re[e].pc ? dbg_insn_at_word(S, re[e].pc) : NULL;
    dbg_loc_str(pi, ls, sizeof ls);
    block_name(S, pi ? pi->block->label : 0, bn, sizeof bn);
    block_name(S, re[e].rpc, rb, sizeof rb);
    if (e == 0) {
      dbg_printf(S, "  #0 running: lanes %s at %s; they reconverge at %s\n", ms, ls, rb);
    } else if (re[e].meet) {
      uint64_t waiting[2] = {re[e].m[0] & ~above[0], re[e].m[1] & ~above[1]};
      dbg_mask_str(waiting, nl, ws, sizeof ws);
      dbg_printf(S, "  #%u reconvergence point %s (%s): lanes %s meet there%s%s%s\n", e, ls, bn, ms,
             waiting[0] | waiting[1] ? "; lanes " : "", waiting[0] | waiting[1] ? ws : "",
             waiting[0] | waiting[1] ? " already wait" : "");
    } else {
      dbg_printf(S, "  #%u pending path: lanes %s will run %s (%s), then reconverge at %s\n", e, ms, ls, bn, rb);
    }
    above[0] |= re[e].m[0];
    above[1] |= re[e].m[1];
  }
}

static void cmd_display(dbg_session *S, int argc, char **argv)
{
  if (argc == 1) {
    for (uint32_t i = 0; i < S->n_displays; i++) {
      dbg_printf(S, "%u: ", i + 1);
      print_expr(S, S->displays[i], S->focus_lane >= 0 ? S->focus_lane : -1);
    }
    return;
  }
  char text[1024];
  dbg_join_args(1, argc, argv, text, sizeof text);
  if (!dbg_check_expr(S, text))
    return;
  char **nd = realloc(S->displays, (S->n_displays + 1) * sizeof *nd);
  if (!nd)
    return;
  S->displays = nd;
  S->displays[S->n_displays++] = strdup(text);
  if (!S->finished && S->cur >= 0 && dbg_cur_sg(S) && !sg_sg_done(dbg_cur_sg(S))) {
    dbg_printf(S, "%u: ", S->n_displays);
    print_expr(S, text, S->focus_lane >= 0 ? S->focus_lane : -1);
  }
}

static const struct { const char *name, *alias, *args, *help; } commands[] = {
  {"run", "r", "", "run to the next breakpoint, diagnostic or the end"},
  {"continue", "c", "", "same as run"},
  {"step", "s", "[N]", "execute N instructions of the current subgroup"},
  {"next", "n", "", "step to the next source line (over calls); like step without line info"},
  {"finish", "fin", "", "run the current subgroup until the current function returns"},
  {"break", "b", "LOC [workgroup X Y Z] [lane L] [if EXPR]", "LOC: LINE|FILE:LINE|%id|OpName|FUNCTION|diverge|converge"},
  {"tbreak", "tb", "LOC ...", "a breakpoint deleted when it stops"},
  {"condition", "", "N [EXPR]", "stop at breakpoint N only for lanes where EXPR holds"},
  {"ignore", "", "N COUNT", "pass over the next COUNT hits of breakpoint N"},
  {"watch", "", "EXPR[@N] [lane L]", "stop after an instruction changes the memory EXPR names (N elements; 4096 bytes at most)"},
  {"rwatch", "", "EXPR [lane L]", "stop before an instruction reads it (awatch: reads or writes)"},
  {"delete", "d", "[N...]", "delete breakpoints and watchpoints (all without N)"},
  {"info", "i", "breakpoints|subgroups|lanes|divergence|args|workgroups", "show state (info lanes --json)"},
  {"lane", "", "L|all", "focus on lane L (print, x, watch use it)"},
  {"display", "", "[EXPR]", "print EXPR at every stop"},
  {"reverse-step", "rs", "[N]", "go back N instructions of the current subgroup (replay)"},
  {"reverse-next", "rn", "", "go back to the start of the previous source line"},
  {"reverse-continue", "rc", "", "go back to the previous breakpoint or watchpoint stop"},
  {"workgroup", "wg", "X [Y [Z]]", "focus on a work-group (starts it if needed)"},
  {"subgroup", "sg", "N", "focus on subgroup N of the current work-group"},
  {"print", "p", "[--json] EXPR [lane L|all]", "value per lane: in[gid], x*2, p->1, (float)n, get_global_id(0)"},
  {"lanes", "", "", "active lanes of the current subgroup"},
  {"where", "bt", "[--json]", "call stack (also 'backtrace')"},
  {"list", "l", "", "source around the current line (or disassembly)"},
  {"x", "", "/N[d|u|x|f|c|b|h|l|g|dw|xg..|TYPE] ADDR|%ptr [lane L]", "examine memory"},
  {"disassemble", "disas", "[FUNCTION]", "disassemble the current function"},
  {"restart", "", "", "start the kernel again with the original inputs"},
  {"help", "h", "", "this list"},
  {"quit", "q", "", "exit"},
};

static void cmd_help(dbg_session *S)
{
  dbg_printf(S, "Commands (aliases in brackets):\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    char head[96];
    snprintf(head, sizeof head, "%s%s%s%s %s", commands[i].name, commands[i].alias[0] ? " (" : "",
             commands[i].alias, commands[i].alias[0] ? ")" : "", commands[i].args);
    dbg_printf(S, "  %-44s %s\n", head, commands[i].help);
  }
}

static void execute(dbg_session *S, char *line)
{
  char *argv[64];
  int argc = 0;
  char *save = NULL;
  S->json = false;
  for (char *t = strtok_r(line, " \t\r\n", &save); t && argc < 64; t = strtok_r(NULL, " \t\r\n", &save))
    argv[argc++] = t;
  if (!argc || argv[0][0] == '#')
    return;
  const char *c = argv[0];
#define CMD(a, b) (!strcmp(c, a) || (b[0] && !strcmp(c, b)))
  if (CMD("run", "r") || CMD("continue", "c")) dbg_cmd_continue(S);
  else if (CMD("step", "s") || !strcmp(c, "stepi") || !strcmp(c, "si")) cmd_step(S, argc, argv);
  else if (CMD("next", "n")) cmd_next(S, false);
  else if (CMD("finish", "fin")) cmd_next(S, true);
  else if (CMD("break", "b")) cmd_break(S, argc, argv, false);
  else if (CMD("tbreak", "tb")) cmd_break(S, argc, argv, true);
  else if (!strcmp(c, "condition")) cmd_condition(S, argc, argv);
  else if (!strcmp(c, "ignore")) cmd_ignore(S, argc, argv);
  else if (!strcmp(c, "watch")) dbg_cmd_watch(S, argc, argv, WP_WRITE);
  else if (!strcmp(c, "rwatch")) dbg_cmd_watch(S, argc, argv, WP_READ);
  else if (!strcmp(c, "awatch")) dbg_cmd_watch(S, argc, argv, WP_ACCESS);
  else if (!strcmp(c, "lane")) cmd_lane(S, argc, argv);
  else if (!strcmp(c, "display")) cmd_display(S, argc, argv);
  else if (CMD("reverse-step", "rs") || !strcmp(c, "reverse-stepi") || !strcmp(c, "rsi")) dbg_cmd_reverse_step(S, argc, argv, false);
  else if (CMD("reverse-next", "rn")) dbg_cmd_reverse_step(S, argc, argv, true);
  else if (CMD("reverse-continue", "rc")) dbg_cmd_reverse_continue(S);
  else if (CMD("delete", "d")) cmd_delete(S, argc, argv);
  else if (CMD("info", "i")) {
    const char *w = argc > 1 ? argv[1] : "";
    bool json = argc == 3 && !strcmp(argv[2], "--json");
    if (argc == 3 && json && !strcmp(w, "lanes")) cmd_info_lanes(S, true);
    else if (argc != 2) dbg_printf(S, "error: usage: info breakpoints|watchpoints|subgroups|lanes|divergence|args|workgroups\n");
    else if (!strcmp(w, "lanes")) cmd_info_lanes(S, false);
    else if (!strncmp(w, "divergence", strlen(w)) && strlen(w) >= 3) cmd_info_divergence(S);
    else if (!strncmp(w, "watchpoints", strlen(w)) && strlen(w) >= 2) cmd_info_breakpoints(S);
    else if (!strcmp(w, "display")) cmd_display(S, 1, argv);
    else if (!strncmp(w, "breakpoints", strlen(w)) || !strcmp(w, "b")) cmd_info_breakpoints(S);
    else if (!strncmp(w, "subgroups", strlen(w)) || !strcmp(w, "sg")) cmd_info_subgroups(S);
    else if (!strncmp(w, "args", strlen(w))) cmd_info_args(S);
    else if (!strncmp(w, "workgroups", strlen(w)) || !strcmp(w, "wg")) cmd_info_workgroups(S);
    else dbg_printf(S, "error: info %s: unknown (breakpoints, watchpoints, subgroups, lanes, divergence, args, workgroups)\n", w);
  } else if (CMD("workgroup", "wg")) cmd_workgroup(S, argc, argv);
  else if (CMD("subgroup", "sg")) cmd_subgroup(S, argc, argv);
  else if (CMD("print", "p")) cmd_print(S, argc, argv);
  else if (!strcmp(c, "lanes")) cmd_lanes(S);
  else if (CMD("where", "bt") || !strcmp(c, "backtrace")) cmd_where(S, argc > 1 && !strcmp(argv[1], "--json"));
  else if (CMD("list", "l")) cmd_list(S, argc, argv);
  else if (c[0] == 'x' && (c[1] == 0 || c[1] == '/')) cmd_x(S, argc, argv);
  else if (CMD("disassemble", "disas")) cmd_disassemble(S, argc, argv);
  else if (!strcmp(c, "restart")) cmd_restart(S);
  else if (CMD("help", "h")) cmd_help(S);
  else if (CMD("quit", "q")) S->quit = true;
  else dbg_printf(S, "error: unknown command '%s' (try 'help')\n", c);
#undef CMD
}

/* ------------------------------------------------------------ launch */

/* The kernel's printf (sg_run_desc.printf_out; user is the session). */
static void kernel_printf(void *user, const char *text, size_t len)
{
  dbg_session *S = user;
  if (S->replaying)
    return;   /* printed when it first ran */
  if (S->kout)
    S->kout(S->kout_user, text, len);
  else
    S->out(S->out_user, text, len);
}

static void on_message(void *user, sg_severity sev, const char *text)
{
  dbg_session *S = user;
  if (sev == SG_SEV_ERROR) {
    if (!S->first_error[0])
      snprintf(S->first_error, sizeof S->first_error, "%s", text);
  } else if (S->message) {
    S->message(S->message_user, sev, text);
  } else {
    char msg[4096];
    sg_escape(msg, sizeof msg, text);
    dbg_printf(S, sev == SG_SEV_WARNING ? "warning: %s\n" : "%s\n", msg);
  }
}

/* An error for sg_dbg_create: the message quotes user input, escaped
 * (sg_escape) as spirv-sgrun's. */
static sg_result fail(char *err, size_t n, sg_result r, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static sg_result fail(char *err, size_t n, sg_result r, const char *fmt, ...)
{
  char raw[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  if (err && n)
    sg_escape(err, n, raw);
  return r == SG_SUCCESS ? SG_ERROR_INVALID_ARGUMENT : r;
}

/* Starts the launch; an error is in S->launch_error. */
sg_result dbg_start_launch(dbg_session *S)
{
  char err[1024] = "";
  sg_result r = sg_launch_create(S->m, &S->d, &S->l, err, sizeof err);
  if (r != SG_SUCCESS) {
    snprintf(S->launch_error, sizeof S->launch_error, "%s", err[0] ? err : sg_result_name(r));
    return r == SG_ERROR_UNSUPPORTED ? r : SG_ERROR_LAUNCH;
  }
  sg_launch_groups(S->l, S->groups, &S->sg_size);
  S->n_groups = (uint64_t)S->groups[0] * S->groups[1] * S->groups[2];
  if (S->n_groups > (1u << 26)) {
    snprintf(S->launch_error, sizeof S->launch_error, "%" PRIu64 " work-groups are too many to debug", S->n_groups);
    return SG_ERROR_LAUNCH;
  }
  free(S->wg_status);
  S->wg_status = calloc(S->n_groups ? S->n_groups : 1, 1);
  S->cur = -1;
  S->cur_sg = 0;
  S->finished = false;
  S->n_faults = 0;
  S->list_at = NULL;
  if (!S->replaying) {
    S->n_log = 0;
    S->t = 0;
  }
  if (!S->wg_status) {
    snprintf(S->launch_error, sizeof S->launch_error, "out of memory");
    return SG_ERROR_NOMEM;
  }
  if (!S->replaying && !dbg_ensure_current(S)) {
    snprintf(S->launch_error, sizeof S->launch_error, "the kernel could not start");
    return SG_ERROR_LAUNCH;
  }
  return SG_SUCCESS;
}

void dbg_stop_launch(dbg_session *S)
{
  while (S->n_slots)
    dbg_end_slot(S, (int)S->n_slots - 1);
  sg_launch_destroy(S->l);
  S->l = NULL;
}

/* The kernel options of spirv-sgdb's command line (its front-end keeps -x,
 * --batch and --dap for itself). */
static sg_result parse_options(dbg_session *S, int argc, char **argv, char *err, size_t n)
{
  sg_run_opts_init(&S->opts.run, 0);   /* .cl input: -O0 unless told */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char e[512];
    int taken = sg_run_opts_parse(&S->opts.run, argc, argv, &i, e, sizeof e);
    if (taken < 0)
      return fail(err, n, SG_ERROR_INVALID_ARGUMENT, "%s", e);
    if (taken)
      continue;
    if (!strcmp(a, "--no-debug-info")) {
      S->opts.no_debug_info = true;
    } else if (a[0] == '-' && a[1]) {
      return fail(err, n, SG_ERROR_INVALID_ARGUMENT, "unknown option '%s' (see --help)", a);
    } else {
      if (S->opts.file)
        return fail(err, n, SG_ERROR_INVALID_ARGUMENT, "more than one input file ('%s' and '%s')", S->opts.file, a);
      S->opts.file = a;
    }
  }
  if (!S->opts.file)
    return fail(err, n, SG_ERROR_INVALID_ARGUMENT, "no input file (usage: spirv-sgdb [options] FILE; see --help)");
  if (S->opts.run.time_limit > 0 && !S->opts.batch)
    return fail(err, n, SG_ERROR_INVALID_ARGUMENT,
                "--timeout needs --batch (it counts wall time from the kernel's start, "
                "time at the prompt included)");
  return SG_SUCCESS;
}

static sg_result setup(dbg_session *S, char *out_err, size_t out_n)
{
  const char *module_path = S->opts.file;
  char err[2048] = "";
  bool is_sim = has_ext(S->opts.file, ".sim");
  if (is_sim) {
    if (sg_runfile_open(S->opts.file, &S->rf, err, sizeof err) != SG_SUCCESS)
      return fail(out_err, out_n, SG_ERROR_INVALID_ARGUMENT, "%s", err);
    module_path = sg_runfile_module_path(S->rf);
    if (S->opts.run.n_args)
      return fail(out_err, out_n, SG_ERROR_INVALID_ARGUMENT, "--arg cannot be used with a run file (its arguments come from %s)", S->opts.file);
  }
  sg_load_options lo = {.message = on_message, .message_user = S, .debug_info = !S->opts.no_debug_info};
  sg_run_opts_load(&S->opts.run, &lo);
  sg_result lr = sg_module_load_file(module_path, &lo, &S->m);
  if (lr != SG_SUCCESS)
    return fail(out_err, out_n, lr, "%s", S->first_error[0] ? S->first_error : sg_result_name(lr));
  S->ir = sg_module_ir(S->m);
  const char *kname = S->opts.run.kernel ? S->opts.run.kernel : S->rf ? sg_runfile_kernel(S->rf) : NULL;
  if (!kname) {
    if (sg_module_kernel_count(S->m) != 1)
      return fail(out_err, out_n, SG_ERROR_INVALID_ARGUMENT, "%s has %u kernels, pick one with -k", module_path, sg_module_kernel_count(S->m));
    kname = sg_module_kernel(S->m, 0)->name;
  }
  S->k = sg_module_find_kernel(S->m, kname);
  if (!S->k)
    return fail(out_err, out_n, SG_ERROR_INVALID_ARGUMENT, "no kernel named '%s' in %s", kname, module_path);
  dbg_index_insns(S);
  if (!S->by_word)
    return fail(out_err, out_n, SG_ERROR_INVALID_ARGUMENT, "out of memory");

  sg_run_desc *d = &S->d;
  d->kernel = S->k->name;
  d->backend = SG_BACKEND_INTERP;
  d->ub = S->opts.run.ub;
  d->checks = S->opts.run.checks;   /* detector reports stop like faults */
  d->step_limit = S->opts.run.step_limit;
  d->max_private_memory = S->opts.run.max_private_memory;
  d->time_limit = S->opts.run.time_limit;
  d->printf_out = kernel_printf;
  d->printf_user = S;
  d->message = on_message;
  d->message_user = S;
  d->on_diag = dbg_on_diag;
  d->diag_user = S;
  d->jit_opt_level = -1;   /* the fast-forward's native code: the JIT's default level */
  sg_result r = sg_run_opts_ndrange(&S->opts.run, S->k, S->rf, d, err, sizeof err);
  if (r != SG_SUCCESS)
    return fail(out_err, out_n, SG_ERROR_INVALID_ARGUMENT, "%s", err);
  uint32_t n = S->k->n_args;
  S->args = calloc(n + 1, sizeof *S->args);
  S->owned = calloc(n + 1, sizeof *S->owned);
  S->pristine = calloc(n + 1, sizeof *S->pristine);
  if (!S->args || !S->owned || !S->pristine)
    return fail(out_err, out_n, SG_ERROR_INVALID_ARGUMENT, "out of memory");
  if (S->rf) {
    if (sg_runfile_bind(S->rf, S->m, err, sizeof err) != SG_SUCCESS)
      return fail(out_err, out_n, SG_ERROR_INVALID_ARGUMENT, "%s", err);
    uint32_t na;
    const sg_arg *ra = sg_runfile_args(S->rf, &na);
    memcpy(S->args, ra, (na < n ? na : n) * sizeof *ra);
  } else {
    size_t items = 1;
    for (uint32_t i = 0; i < d->work_dim; i++)
      items *= d->global_size[i];
    r = sg_run_opts_args(&S->opts.run, S->k, items, S->args, S->owned, err, sizeof err);
    if (r != SG_SUCCESS)
      return fail(out_err, out_n, r, "%s", err);
  }
  for (uint32_t i = 0; i < n; i++)
    if (S->args[i].kind == SG_ARG_BUFFER && S->args[i].data && S->args[i].size) {
      S->pristine[i] = malloc(S->args[i].size);
      if (S->pristine[i])
        memcpy(S->pristine[i], S->args[i].data, S->args[i].size);
    }
  d->args = S->args;
  d->n_args = n;
  sg_result lr2 = dbg_start_launch(S);
  if (lr2 != SG_SUCCESS)
    return fail(out_err, out_n, lr2, "%s", S->launch_error);
  return SG_SUCCESS;
}

static void cleanup(dbg_session *S)
{
  dbg_stop_launch(S);
  if (S->k)
    for (uint32_t i = 0; i < S->k->n_args; i++) {
      if (S->owned) free(S->owned[i]);
      if (S->pristine) free(S->pristine[i]);
    }
  free(S->owned);
  free(S->pristine);
  free(S->args);
  while (S->n_bps)
    dbg_delete_bp_index(S, S->n_bps - 1);
  free(S->bps);
  while (S->n_wps)
    delete_wp_index(S, S->n_wps - 1);
  free(S->wps);
  for (uint32_t i = 0; i < S->n_displays; i++)
    free(S->displays[i]);
  free(S->displays);
  dbg_replay_free(S);
  for (uint32_t i = 0; i < S->n_src; i++) {
    free(S->src[i].path);
    free(S->src[i].text);
    free(S->src[i].lines);
  }
  free(S->src);
  free(S->by_word);
  free(S->wg_status);
  free(S->slots);
  sg_runfile_destroy(S->rf);
  sg_module_destroy(S->m);
  sg_run_opts_free(&S->opts.run);
  free(S->loop_line);
}

/* ------------------------------------------------------------ command loop */

/* Refuses a line with a NUL or control byte (what a person cannot have
 * meant); false after saying so. */
static bool clean_line(dbg_session *S, const char *line, size_t n)
{
  if (strlen(line) != n) {
    dbg_printf(S, "error: the command contains a NUL byte\n");
    return false;
  }
  size_t bad = strcspn(line, "\x01\x02\x03\x04\x05\x06\x07\x08\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12"
                              "\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f");
  if (bad < n) {
    dbg_printf(S, "error: the command contains the control byte \\x%02x at column %zu\n",
               (unsigned char)line[bad], bad + 1);
    return false;
  }
  return true;
}

void sg_dbg_command_loop(sg_dbg *S, FILE *f, bool prompt, bool echo)
{
  /* a checkpoint that takes the session over comes back here (dbg_ckpt.c);
   * every process must see the same position in the input: unbuffered */
  jmp_buf jb;
  if (dbg_ckpt_enabled())
    setvbuf(f, NULL, _IONBF, 0);
  if (setjmp(jb))
    fflush(stdout);
  dbg_ckpt_set_loop(&jb);
  while (!S->quit) {
    if (prompt)
      dbg_puts(S, "(sgdb) ");
    ssize_t n = getline(&S->loop_line, &S->loop_cap, f);
    char *line = S->loop_line;
    if (n < 0) {
      if (prompt)
        dbg_puts(S, "\n");
      break;
    }
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = 0;
    if (echo && line[strspn(line, " \t")] != '#') {
      char esc[4096];   /* a script's bytes, escaped (sg_escape) */
      sg_escape(esc, sizeof esc, line);
      dbg_printf(S, "(sgdb) %s\n", esc);
    }
    if (!clean_line(S, line, (size_t)n))
      continue;
    execute(S, line);
  }
  dbg_ckpt_set_loop(NULL);
}

/* ------------------------------------------------------------ the public API */

static void stdout_sink(void *user, const char *text, size_t len)
{
  (void)user;
  fwrite(text, 1, len, stdout);
  fflush(stdout);   /* prompts have no newline; checkpoints fork */
}

sg_result sg_dbg_create(const sg_dbg_config *c, sg_dbg **out, char *err, size_t err_size)
{
  if (err && err_size)
    err[0] = 0;
  if (!out || !c)
    return fail(err, err_size, SG_ERROR_INVALID_ARGUMENT, "sg_dbg_create: no configuration or no out pointer");
  *out = NULL;
  dbg_session *S = calloc(1, sizeof *S);
  if (!S)
    return fail(err, err_size, SG_ERROR_NOMEM, "out of memory");
  S->out = c->output ? c->output : stdout_sink;
  S->out_user = c->output ? c->output_user : NULL;
  S->kout = c->kernel_output;
  S->kout_user = c->kernel_output_user;
  S->message = c->message;
  S->message_user = c->message_user;
  S->opts.batch = c->batch;
  S->focus_lane = -1;
  S->watch_hit = -1;
  S->cur = -1;
  sg_result r = parse_options(S, c->argc, c->argv, err, err_size);
  if (r == SG_SUCCESS) {
    r = setup(S, err, err_size);
    if (r != SG_SUCCESS && S->first_error[0] && err && !strstr(err, S->first_error))
      snprintf(err, err_size, "%s", S->first_error);
  }
  if (r != SG_SUCCESS) {
    cleanup(S);
    free(S);
    return r;
  }
  *out = S;
  return SG_SUCCESS;
}

void sg_dbg_destroy(sg_dbg *S)
{
  if (!S)
    return;
  cleanup(S);
  bool ck = dbg_ckpt_enabled();
  int code = S->exit_status;
  free(S);
  if (ck)
    dbg_ckpt_shutdown(code);
}

void sg_dbg_set_exit_status(sg_dbg *S, int code)
{
  S->exit_status = code;
}

uint64_t sg_dbg_diagnostics(const sg_dbg *S)
{
  return S->n_faults;
}

void sg_dbg_describe(const sg_dbg *S, char *buf, size_t n)
{
  snprintf(buf, n, "kernel %s, %zu x %zu x %zu work-groups, subgroup size %u.", S->k->name, S->groups[0],
           S->groups[1], S->groups[2], S->sg_size);
}

void sg_dbg_command(sg_dbg *S, const char *line)
{
  char buf[4096];
  size_t n = strlen(line);
  if (n >= sizeof buf) {
    dbg_printf(S, "error: the command is longer than %zu bytes\n", sizeof buf - 1);
    return;
  }
  memcpy(buf, line, n + 1);
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
    buf[--n] = 0;
  if (clean_line(S, buf, n))
    execute(S, buf);
}

bool sg_dbg_enable_checkpoints(sg_dbg *S) { return dbg_ckpt_enable(S); }
void sg_dbg_interrupt(sg_dbg *S) { S->interrupted = 1; }
bool sg_dbg_quit_requested(const sg_dbg *S) { return S->quit; }
bool sg_dbg_finished(const sg_dbg *S) { return S->finished || S->cur < 0; }
int64_t sg_dbg_focus_lane(const sg_dbg *S) { return S->focus_lane; }
void sg_dbg_set_focus_lane(sg_dbg *S, int64_t l) { S->focus_lane = l; }
uint64_t sg_dbg_position(const sg_dbg *S) { return S->t; }

uint32_t sg_dbg_lane_count(const sg_dbg *S)
{
  sg_sg *sg = sg_dbg_finished(S) ? NULL : dbg_cur_sg((sg_dbg *)S);
  return sg ? sg_sg_lane_count(sg) : 0;
}

bool sg_dbg_eval(sg_dbg *S, const char *expr, uint32_t lane, char *buf, size_t n)
{
  if (sg_dbg_finished(S)) {
    snprintf(buf, n, "the kernel has finished or not started");
    return false;
  }
  sg_sg *sg = dbg_cur_sg(S);
  if (lane >= sg_sg_lane_count(sg)) {
    snprintf(buf, n, "lane %u: the subgroup has %u lanes", lane, sg_sg_lane_count(sg));
    return false;
  }
  dbg_ctx c;
  dbg_make_ctx(S, &c, dbg_cur_slot(S), sg, lane);
  dbg_val v;
  if (!dbg_eval(expr, &c, &v, buf, n))
    return false;
  dbg_val_format(&v, &c, buf, n);
  return true;
}

/* The source-level names of frame `depth`'s function: its parameters and
 * its named private variables (at -O0, clang's locals), for the DAP
 * variables pane. */
uint32_t sg_dbg_locals(const sg_dbg *cs, uint32_t depth, const char **names, uint32_t max)
{
  sg_dbg *S = (sg_dbg *)cs;
  sg_sg *sg = sg_dbg_finished(S) ? NULL : dbg_cur_sg(S);
  const ld_function *fn = sg ? dbg_frame_fn(S, sg, depth) : NULL;
  uint32_t n = 0;
  if (!fn)
    return 0;
  for (uint32_t i = 1; i < S->ir->bound && n < max; i++) {
    const ld_value *v = &S->ir->values[i];
    if (v->owner != fn || !v->name || !*v->name || strchr(v->name, '.'))
      continue;
    bool var = v->kind == LD_V_RESULT && v->u.insn && v->u.insn->op == SpvOpVariable;
    if (v->kind == LD_V_PARAM || var)
      names[n++] = v->name;
  }
  return n;
}
