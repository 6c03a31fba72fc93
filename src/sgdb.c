/* sgdb.c - spirv-sgdb: an interactive debugger with per-lane stepping.
 *
 * Drives the reference interpreter one subgroup-instruction at a time through
 * the stepping API of spirv_sg.h (sg_launch_*, sg_wg_*, sg_sg_*).  Commands
 * come from stdin (a terminal or a pipe) or from -x SCRIPT; see docs/sgdb.md.
 *
 * Read-only views of the module (types, names, source lines, disassembly) use
 * the loader IR that sg_module_ir() hands out to in-tree tools (loader/ld.h).
 * Everything that runs goes through spirv_sg.h: the diagnostic a step
 * raised arrives through sg_run_desc.on_diag, pointers are described by
 * sg_sg_describe_addr(), barrier waits come from sg_sg_blocked(), and .cl
 * input is compiled with line information by sg_load_options.debug_info.
 *
 * This file is the terminal front-end: options, the commands, the launch
 * and the command loop.  The engine it drives is split by concern (the
 * map is at the top of dbg_session.h):
 *   dbg_session.c  the session state S, instruction index, names, source
 *   dbg_break.c    breakpoints: locations, conditions, when one stops
 *   dbg_watch.c    watchpoints: 'watch' and how one fires (watch_before
 *                  for reads, watch_after for writes, called by step_one)
 *   dbg_run.c      step_one, scheduling, the fast-forward (run_group_fast,
 *                  run_range_fast), check_stop, continue
 *   dbg_replay.c   reverse-step/next/continue: replay_to replays the log
 *   dbg_ckpt.c     checkpoints (forked copies) that the replays start from
 *   dbg_expr.c     expressions; dbg_format.c: values and types
 *   sgdb_dap.c     the DAP front-end, over "the session for sgdb_dap.c" below
 */
#include "spirv_sg.h"
#include "sg_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbg.h"
#include "dbg_session.h"
#include "ld.h"
#include "spv.h"

#define PROG "spirv-sgdb"

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_USAGE = 2, EXIT_UNSUPPORTED = 3, EXIT_TOOL = 4 };

/* ------------------------------------------------------------------ options */

static struct {
  const char *file, *script;
  bool batch, no_debug_info, dap;
  sg_run_opts run;             /* the options spirv-sgrun shares (runopts.c) */
} O;

static char first_error[1024];

/* -x scripts (see script_out_write) */
typedef struct sticky {
  uint64_t n_errors;   /* error lines of script commands */
  unsigned long first_error_line;
  bool diagnosed;      /* the kernel raised a diagnostic (a stop on it) */
} sticky;
static sticky sticky_local, *sticky_ = &sticky_local;

static struct {
  FILE *real;          /* stdout while the filter is in place */
  FILE *script;
  const char *name;
  off_t cmd_off;       /* where the running command's line starts */
  bool at_bol;
} X = {.at_bol = true};

static int die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int die(int code, const char *fmt, ...)
{
  /* the message quotes user input: escaped (sg_escape), as spirv-sgrun's */
  char raw[2048], msg[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  sg_escape(msg, sizeof msg, raw);
  fprintf(stderr, PROG ": error: %s\n", msg);
  return code;
}

static void on_message(void *user, sg_severity sev, const char *text)
{
  (void)user;
  if (sev == SG_SEV_ERROR) {
    if (!first_error[0])
      snprintf(first_error, sizeof first_error, "%s", text);
  } else {
    char msg[4096];
    sg_escape(msg, sizeof msg, text);
    fprintf(stderr, sev == SG_SEV_WARNING ? PROG ": warning: %s\n" : "%s\n", msg);
  }
}

static void usage(FILE *f)
{
  fputs(
"usage: " PROG " [options] FILE\n"
"\n"
"Debugs one OpenCL kernel on the reference interpreter, one subgroup\n"
"instruction at a time.  FILE is a run file (.sim) or a .cl/.spv/.spvasm with\n"
"--global/--local/--arg as for spirv-sgrun.  Commands are read from stdin\n"
"(prompt '(sgdb) '); type 'help' for the list.  See docs/sgdb.md.\n"
"\n"
"  -x FILE                  run the commands in FILE first; a failed\n"
"                           command's error line starts FILE:LINE:\n"
"  --batch                  exit after the -x script (do not read stdin)\n"
"  --dap                    speak the Debug Adapter Protocol on stdin/stdout\n"
"                           (for editors; the kernel comes from 'launch':\n"
"                           program and args, see docs/sgdb.md)\n"
"\n"
"Kernel, NDRange and arguments (as spirv-sgrun; see its --help):\n"
"  -k, --kernel NAME        kernel (default: the only one)\n"
"  --global X[,Y[,Z]]       global size (default: the local size, else 1)\n"
"  --local X[,Y[,Z]]        work-group size (default: chosen)\n"
"  --offset X[,Y[,Z]]       global offset (default 0)\n"
"  --subgroup-size N        1..128 (default: the kernel's required size,\n"
"                           else 16; a conflict is an error)\n"
"  --arg [NAME=|INDEX=]SPEC V[,V...] | fill:V:COUNT | range:START:INC:COUNT |\n"
"                           random:COUNT[:LO:HI] | zero:COUNT | file:PATH |\n"
"                           local:BYTES | null  (buffers default to zeros)\n"
"  --seed N                 seed for random: (default 1)\n"
"  --ub=warn|error|ignore   undefined behaviour in subgroup code (default warn)\n"
"  --step-limit N           instructions per subgroup before a fault (default\n"
"                           134217728 = 2^27)\n"
"  --timeout SECONDS        wall time from the kernel's start before a fault\n"
"                           (needs --batch: prompt time would count)\n"
"  --max-private-memory BYTES  private memory of a work-group (default 4 GiB)\n"
"  --data-races --lockstep --uninitialized --check-all\n"
"                           detectors (as spirv-sgrun): a report stops the run\n"
"\n"
"Loading:\n"
"  --no-validate  --strict-validate  --spec ID=VALUE\n"
"  --max-module-size BYTES  --max-instructions N  --max-validate-instructions N\n"
"                           (docs/limits.md)\n"
"  -O0..-O3 (default -O0 for .cl)  --cl-std=CL1.2|CL2.0|CL3.0  -D NAME[=VALUE]\n"
"  --build-options OPTIONS (oclgrind-kernel's: -cl-std=, -D, -I DIR, -cl-*)\n"
"  --no-debug-info          compile .cl without debug information (no\n"
"                           source lines)\n"
"  -h, --help  --version\n"
"\n"
"Exit status: 2 when the session cannot start (bad usage or input), 3 when\n"
"the kernel uses what spirv-sg does not run.  With --batch, at the end: 2 when\n"
"a command of the script failed, else 1 when the kernel raised a diagnostic\n"
"(a fault, undefined behaviour, a step or time limit) and the session stopped\n"
"on it, else 0.  Without --batch, 0 once the session ends.\n",
      f);
}

static int parse_options(int argc, char **argv)
{
  sg_run_opts_init(&O.run, 0);   /* .cl input: -O0 unless told */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char err[512];
    int taken = sg_run_opts_parse(&O.run, argc, argv, &i, err, sizeof err);
    if (taken < 0)
      return die(EXIT_USAGE, "%s", err);
    if (taken)
      continue;
    const char *val;
    char name[64];
    sg_opt_split(a, name, sizeof name, &val);
#define NEED_VALUE()                                                              \
    do {                                                                          \
      if (!(val = sg_opt_value(argc, argv, &i, val)))                             \
        return die(EXIT_USAGE, "option %s needs a value (see --help)", name);     \
    } while (0)
#define IS(s) (!strcmp(name, s))
    if (IS("-h") || IS("--help")) {
      usage(stdout);
      return EXIT_OK;
    } else if (IS("--version")) {
      printf(PROG " " SG_VERSION_STRING "\n");
      return EXIT_OK;
    } else if (IS("-x")) {
      NEED_VALUE();
      O.script = val;
    } else if (IS("--batch")) {
      O.batch = true;
    } else if (IS("--dap")) {
      O.dap = true;
    } else if (IS("--no-debug-info")) {
      O.no_debug_info = true;
    } else if (a[0] == '-' && a[1]) {
      return die(EXIT_USAGE, "unknown option '%s' (see --help)", a);
    } else {
      if (O.file)
        return die(EXIT_USAGE, "more than one input file ('%s' and '%s')", O.file, a);
      O.file = a;
    }
#undef IS
#undef NEED_VALUE
  }
  if (!O.file && !O.dap)
    return die(EXIT_USAGE, "no input file (usage: " PROG " [options] FILE; see --help)");
  if (O.run.time_limit > 0 && !O.batch)
    return die(EXIT_USAGE, "--timeout needs --batch (it counts wall time from the kernel's start, "
               "time at the prompt included)");
  return -1;
}

/* ------------------------------------------------------------------ files */

static bool has_ext(const char *p, const char *e)
{
  size_t n = strlen(p), m = strlen(e);
  return n > m && !strcasecmp(p + n - m, e);
}


/* ------------------------------------------------------------ display */

static void print_expr(const char *text, int64_t lane);

static void show_insn_line(const ld_insn *in, bool marker)
{
  char b[1024];
  format_insn(in, b, sizeof b);
  printf("%s %s\n", marker ? "=>" : "  ", b);
}

void show_stop(const char *why)
{
  if (why)
    printf("%s\n", why);
  wgslot *w = cur_slot();
  sg_sg *sg = cur_sg();
  if (!w || !sg) {
    printf("No current subgroup.\n");
    return;
  }
  if (sg_sg_done(sg)) {
    printf("[work-group (%u,%u,%u) subgroup %u] finished\n", w->group[0], w->group[1], w->group[2], S.cur_sg);
    return;
  }
  uint64_t m[2];
  sg_sg_active(sg, m);
  char ms[512], ls[256];
  dbg_mask_str(m, sg_sg_lane_count(sg), ms, sizeof ms);
  const ld_insn *in = sg_insn(sg);
  const char *fn = sg_sg_frame_function(sg, 0);
  printf("[work-group (%u,%u,%u) subgroup %u, lanes %s] %s at %s%s\n", w->group[0], w->group[1],
         w->group[2], S.cur_sg, ms, fn ? fn : "?", loc_str(in, ls, sizeof ls),
         at_barrier(w, S.cur_sg) ? " (waiting at a barrier)" : "");
  const char *src = source_line(in);
  if (src)
    printf("%u\t%s\n", in->loc->line, src);
  if (in)
    show_insn_line(in, true);
  S.list_at = in;
  S.list_line = 0;
  if (S.focus_lane >= 0)
    printf("[focus: lane %" PRId64 "%s]\n", S.focus_lane, dbg_lane_in(m, (uint32_t)S.focus_lane) ? "" : ", inactive here");
  for (uint32_t i = 0; i < S.n_displays; i++) {
    printf("%u: ", i + 1);
    print_expr(S.displays[i], S.focus_lane >= 0 ? S.focus_lane : -1);
  }
}

/* ------------------------------------------------------------ commands */

bool need_sg(void)
{
  if (S.finished) {
    printf("The kernel has finished; 'restart' runs it again.\n");
    return false;
  }
  if (!ensure_current()) {
    kernel_finished();
    return false;
  }
  return true;
}

static bool parse_uint(const char *s, uint64_t *out) { return sg_parse_u64(s, out); }

static void cmd_step(int argc, char **argv)
{
  uint64_t n = 1;
  if (argc > 1 && (!parse_uint(argv[1], &n) || n == 0 || n > 100000000)) {
    printf("error: step: bad count '%s'\n", argv[1]);
    return;
  }
  if (!need_sg())
    return;
  interrupted = 0;
  for (uint64_t k = 0; k < n && !interrupted; k++) {
    uint32_t me = S.cur_sg;
    if (!step_current(false))
      return;
    if (k + 1 < n && check_stop(me))
      return;
    if (k + 1 == n && S.watch_hit >= 0 && check_stop(me))
      return;
  }
  show_stop(NULL);
}

static void cmd_next(bool finish)
{
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  const ld_insn *start = sg_insn(sg);
  uint32_t d0 = sg_sg_depth(sg);
  if (finish && d0 <= 1) {
    printf("error: finish: the outermost frame has no caller\n");
    return;
  }
  if (!finish && (!start || !start->loc)) {
    if (!step_current(false))
      return;
    show_stop(NULL);
    return;
  }
  interrupted = 0;
  for (uint64_t guard = 0; guard < 100000000 && !interrupted; guard++) {
    if (!step_current(true))
      return;
    sg = cur_sg();
    uint32_t d = sg_sg_depth(sg);
    const ld_insn *in = sg_insn(sg);
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
  show_stop(NULL);
}

/* break|tbreak LOCATION [workgroup X [Y [Z]]] [lane L] [if EXPR] */
static void cmd_break(int argc, char **argv, bool temp)
{
  if (argc < 2) {
    printf("error: usage: %s LINE | FILE:LINE | %%id | OpName | FUNCTION | diverge | converge "
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
      join_args(a + 1, argc, argv, cond, sizeof cond);
      if (!cond[0]) {
        printf("error: 'if' needs an expression\n");
        return;
      }
      if (!check_expr(cond))
        return;
      break;
    } else if (!strcmp(argv[a], "workgroup") || !strcmp(argv[a], "wg")) {
      has_wg = true;
      int k = 0;
      while (a + 1 < argc && k < 3 && sg_parse_u64(argv[a + 1], &v)) {
        if (v >= S.groups[k]) {
          printf("error: work-group id %s out of range (the NDRange has %zu x %zu x %zu work-groups)\n",
                 argv[a + 1], S.groups[0], S.groups[1], S.groups[2]);
          return;
        }
        wg[k++] = (uint32_t)v;
        a++;
      }
      if (!k) {
        printf("error: workgroup needs X [Y [Z]]\n");
        return;
      }
    } else if (!strcmp(argv[a], "lane") && a + 1 < argc && sg_parse_u64(argv[a + 1], &v)) {
      if (v >= S.sg_size) {
        printf("error: lane %s does not exist (subgroups have %u lanes)\n", argv[a + 1], S.sg_size);
        return;
      }
      lane = (int64_t)v;
      a++;
    } else {
      printf("error: %s: unexpected '%s' (expected 'workgroup X Y Z', 'lane L' or 'if EXPR')\n", argv[0], argv[a]);
      return;
    }
  }
  int num = add_bp(argv[1]);
  if (num < 0)
    return;
  bp *b = &S.bps[S.n_bps - 1];
  b->temp = temp;
  b->has_wg = has_wg;
  memcpy(b->wg, wg, sizeof wg);
  b->lane = lane;
  if (cond[0])
    b->cond = strdup(cond);
  if (temp || has_wg || lane >= 0 || cond[0]) {
    printf("  %s%s", temp ? "temporary" : "", temp && (has_wg || lane >= 0 || cond[0]) ? ", " : "");
    if (has_wg)
      printf("only in work-group (%u,%u,%u)%s", wg[0], wg[1], wg[2], lane >= 0 || cond[0] ? ", " : "");
    if (lane >= 0)
      printf("only in lane %" PRId64 "%s", lane, cond[0] ? ", " : "");
    if (cond[0])
      printf("only where %s", cond);
    printf("\n");
  }
}

static void cmd_condition(int argc, char **argv)
{
  bp *b = argc >= 2 ? find_bp(argv[1]) : NULL;
  if (!b) {
    printf("error: usage: condition N [EXPR] (N a breakpoint number)\n");
    return;
  }
  free(b->cond);
  b->cond = NULL;
  if (argc == 2) {
    printf("Breakpoint %d is now unconditional.\n", b->num);
    return;
  }
  char cond[1024];
  join_args(2, argc, argv, cond, sizeof cond);
  if (!check_expr(cond))
    return;
  b->cond = strdup(cond);
  printf("Breakpoint %d stops only where %s\n", b->num, cond);
}

static void cmd_ignore(int argc, char **argv)
{
  bp *b = argc == 3 ? find_bp(argv[1]) : NULL;
  uint64_t n;
  if (!b || !sg_parse_u64(argv[2], &n)) {
    printf("error: usage: ignore N COUNT (N a breakpoint number)\n");
    return;
  }
  b->ignore = n;
  printf("Will ignore the next %" PRIu64 " crossing%s of breakpoint %d.\n", n, n == 1 ? "" : "s", b->num);
}

static void delete_wp_index(uint32_t i)
{
  watch_free(&S.wps[i]);
  memmove(&S.wps[i], &S.wps[i + 1], (S.n_wps - i - 1) * sizeof *S.wps);
  S.n_wps--;
}

static void cmd_delete(int argc, char **argv)
{
  if (argc < 2) {
    while (S.n_bps)
      delete_bp_index(S.n_bps - 1);
    while (S.n_wps)
      delete_wp_index(S.n_wps - 1);
    printf("Deleted all breakpoints and watchpoints.\n");
    return;
  }
  for (int a = 1; a < argc; a++) {
    uint64_t n;
    bool found = false;
    if (sg_parse_u64(argv[a], &n)) {
      for (uint32_t i = 0; i < S.n_bps && !found; i++)
        if ((uint64_t)S.bps[i].num == n) {
          delete_bp_index(i);
          found = true;
          printf("Deleted breakpoint %" PRIu64 ".\n", n);
        }
      for (uint32_t i = 0; i < S.n_wps && !found; i++)
        if ((uint64_t)S.wps[i].num == n) {
          delete_wp_index(i);
          found = true;
          printf("Deleted watchpoint %" PRIu64 ".\n", n);
        }
    }
    if (!found)
      printf("error: delete: no breakpoint number '%s'\n", argv[a]);
  }
}

const ld_function *dbg_frame_fn(const sg_sg *sg, uint32_t depth)
{
  const ld_insn *in = frame_insn(sg, depth);
  return in ? in->block->fn : NULL;
}

static uint32_t resolve_id(const char *s, const ld_function *fn) { return dbg_resolve_id(S.ir, s, fn); }
static uint32_t depth_for(const sg_sg *sg, uint32_t id) { return dbg_depth_for(S.ir, sg, id); }

static bool parse_lane_sel(int argc, char **argv, int at, uint32_t n_lanes, int64_t *lane)
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
      printf("error: lane %" PRIu64 " does not exist (the subgroup has %u lanes)\n", v, n_lanes);
      return false;
    }
    *lane = (int64_t)v;
    return true;
  }
  printf("error: expected 'lane L' or 'all'\n");
  return false;
}

static void json_str(const char *s)
{
  putchar('"');
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      printf("\\%c", ch);
    else if (ch < 0x20)
      printf("\\u%04x", ch);
    else
      putchar(ch);
  }
  putchar('"');
}

/* Joins argv[from..to) with spaces: the text of an expression. */
void join_args(int from, int to, char **argv, char *buf, size_t n)
{
  size_t used = 0;
  buf[0] = 0;
  for (int i = from; i < to; i++)
    dbg_put(buf, n, &used, "%s%s", i > from ? " " : "", argv[i]);
}

/* print EXPR [lane L|all]: the expression in every lane (or one). */
static void print_expr(const char *text, int64_t lane)
{
  sg_sg *sg = cur_sg();
  wgslot *w = cur_slot();
  uint32_t nl = sg_sg_lane_count(sg);
  uint64_t m[2];
  sg_sg_active(sg, m);
  char tn[96] = "";
  bool first = true;
  if (S.json) {
    printf("{\"expr\": ");
    json_str(text);
    printf(", \"workgroup\": [%u, %u, %u], \"subgroup\": %u, \"lanes\": [", w->group[0], w->group[1],
           w->group[2], S.cur_sg);
  }
  uint32_t errors = 0;
  char first_err[256] = "";
  static char lines[128][600];
  for (uint32_t l = 0; l < nl && l < 128; l++) {
    lines[l][0] = 0;
    if (lane >= 0 && (uint32_t)lane != l)
      continue;
    dbg_ctx c;
    make_ctx(&c, w, sg, l);
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
    if (S.json) {
      printf("%s{\"lane\": %u, \"active\": %s, \"%s\": ", first ? "" : ", ", l, dbg_lane_in(m, l) ? "true" : "false",
             ok ? "value" : "error");
      json_str(ok ? out : err);
      printf("}");
    } else {
      snprintf(lines[l], sizeof lines[l], "  lane %2u: %s%s", l, out, dbg_lane_in(m, l) ? "" : "   (inactive)");
    }
    first = false;
  }
  if (S.json) {
    printf("], \"type\": ");
    json_str(tn);
    printf("}\n");
    return;
  }
  uint32_t shown = lane >= 0 ? 1 : nl;
  if (errors == shown && shown) {
    printf("error: %s\n", first_err);   /* an error in every lane: once */
    return;
  }
  printf("%s (%s):\n", text, tn[0] ? tn : "?");
  for (uint32_t l = 0; l < nl && l < 128; l++)
    if (lines[l][0])
      printf("%s\n", lines[l]);
}

/* Splits "EXPR [lane L|all]" at its end. */
bool split_lane_sel(int *argc, char **argv, uint32_t nl, int64_t *lane)
{
  *lane = -2;
  if (*argc >= 3 && !strcmp(argv[*argc - 1], "all")) {
    *lane = -1;
    (*argc)--;
  } else if (*argc >= 4 && !strcmp(argv[*argc - 2], "lane") && isdigit((unsigned char)argv[*argc - 1][0])) {
    uint64_t v;
    if (!sg_parse_u64(argv[*argc - 1], &v) || v >= nl) {
      printf("error: lane %s does not exist (the subgroup has %u lanes)\n", argv[*argc - 1], nl);
      return false;
    }
    *lane = (int64_t)v;
    *argc -= 2;
  }
  if (*lane == -2 && S.focus_lane >= 0 && (uint32_t)S.focus_lane < nl)
    *lane = S.focus_lane;
  return true;
}

static void cmd_print_old(int argc, char **argv);

static void cmd_print(int argc, char **argv)
{
  if (argc >= 2 && !strcmp(argv[1], "--json")) {
    S.json = true;
    argv[1] = argv[0];
    argc--;
    argv++;
  }
  if (argc < 2) {
    printf("error: print needs an expression (e.g. 'print %%23', 'print in[gid] * 2', 'print sum lane 3')\n");
    return;
  }
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  if (sg_sg_done(sg)) {
    printf("error: subgroup %u has finished; its values are gone\n", S.cur_sg);
    return;
  }
  bool builtin_name = false;
  static const char *const bn[] = {"gid", "lid", "group", "lane", "sg", "true", "false"};
  for (size_t i = 0; i < sizeof bn / sizeof bn[0]; i++)
    builtin_name |= !strcmp(argv[1], bn[i]);
  int n = argc;
  int64_t lane;
  if (!split_lane_sel(&n, argv, sg_sg_lane_count(sg), &lane))
    return;
  if (n == 2 && dbg_is_plain_name(argv[1]) && !builtin_name && !S.json &&
      resolve_id(argv[1], dbg_frame_fn(sg, 0))) {
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
    cmd_print_old(ac, av);
    return;
  }
  char text[1024];
  join_args(1, n, argv, text, sizeof text);
  print_expr(text, lane < 0 ? -1 : lane);
}

static void cmd_print_old(int argc, char **argv)
{
  if (argc < 2) {
    printf("error: print needs %%id or NAME (e.g. 'print %%23', 'print sum lane 3')\n");
    return;
  }
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  if (sg_sg_done(sg)) {
    printf("error: subgroup %u has finished; its values are gone\n", S.cur_sg);
    return;
  }
  const ld_insn *fi = frame_insn(sg, 0);
  uint32_t id = resolve_id(argv[1], fi ? fi->block->fn : NULL);
  if (!id) {
    printf("error: no value named '%s'\n", argv[1]);
    return;
  }
  uint32_t nl = sg_sg_lane_count(sg);
  int64_t lane;
  if (!parse_lane_sel(argc, argv, 2, nl, &lane))
    return;
  const ld_value *val = &S.ir->values[id];
  if (val->kind != LD_V_CONSTANT && val->kind != LD_V_UNDEF && val->kind != LD_V_VARIABLE &&
      val->kind != LD_V_PARAM && val->kind != LD_V_RESULT) {
    printf("error: %s is not a value (a type, label, function, string or debug id)\n", argv[1]);
    return;
  }
  uint32_t depth = depth_for(sg, id);
  if (depth == UINT32_MAX) {
    printf("error: %s belongs to function %s, which is not on the call stack\n", argv[1],
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
  printf("%%%u%s%s%s (%s)%s%s:\n", id, val->name ? " '" : "", val->name ? val->name : "", val->name ? "'" : "",
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
      printf("  all lanes: %s\n", out);
    else
      printf("  lane %2u: %s%s\n", l, out, lane_active(m, l) ? "" : "   (inactive)");
  }
}

static void cmd_lanes(void)
{
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  uint64_t m[2];
  sg_sg_active(sg, m);
  uint32_t nl = sg_sg_lane_count(sg);
  char ms[512];
  dbg_mask_str(m, nl, ms, sizeof ms);
  uint32_t cnt = 0;
  char bits[129];
  for (uint32_t l = 0; l < nl && l < 128; l++) {
    bits[l] = lane_active(m, l) ? '1' : '0';
    cnt += lane_active(m, l);
  }
  bits[nl < 128 ? nl : 128] = 0;
  printf("active lanes: %s (%u of %u)\n", ms, cnt, nl);
  printf("mask (lane 0 first): %s\n", bits);
  printf("local ids:");
  for (uint32_t l = 0; l < nl; l++)
    if (lane_active(m, l))
      printf(" %u", sg_sg_lane_local_linear(sg, l));
  printf("\n");
}

static void cmd_where(bool json)
{
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  uint32_t n = sg_sg_depth(sg);
  if (!n && !json) {
    printf("No stack (the subgroup has finished).\n");
    return;
  }
  if (json)
    printf("{\"frames\": [");
  for (uint32_t d = 0; d < n; d++) {
    const ld_insn *in = frame_insn(sg, d);
    const char *fn = sg_sg_frame_function(sg, d);
    char ls[256], ib[1024] = "";
    if (in)
      format_insn(in, ib, sizeof ib);
    if (json) {
      printf("%s{\"level\": %u, \"function\": ", d ? ", " : "", d);
      json_str(fn ? fn : "?");
      printf(", \"file\": ");
      json_str(in && in->loc && in->loc->file ? in->loc->file : "");
      printf(", \"line\": %u, \"instruction\": ", in && in->loc ? in->loc->line : 0);
      json_str(ib);
      printf("}");
    } else {
      printf("#%u  %s at %s: %s\n", d, fn ? fn : "?", loc_str(in, ls, sizeof ls), ib);
    }
  }
  if (json)
    printf("]}\n");
}

static void disas_fn(const ld_function *fn, const ld_insn *cur, const ld_insn *from, uint32_t count)
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
        const char *ln = id_namer(NULL, bl->label);
        if (ln)
          printf("      %%%s = OpLabel\n", ln);
        else
          printf("      %%%u = OpLabel\n", bl->label);
      }
      char b2[1024];
      format_insn(in, b2, sizeof b2);
      printf("%s %5u  %s\n", in == cur ? "=>" : "  ", in->word_offset, b2);
      shown++;
    }
  }
}

static void cmd_disassemble(int argc, char **argv)
{
  const ld_function *fn = NULL;
  const ld_insn *cur = NULL;
  if (argc > 1) {
    fn = find_function(argv[1]);
    if (!fn) {
      printf("error: no function named '%s'\n", argv[1]);
      return;
    }
  }
  if (!fn) {
    if (!need_sg())
      return;
    cur = sg_insn(cur_sg());
    if (!cur) {
      printf("error: the subgroup has finished\n");
      return;
    }
    fn = cur->block->fn;
  } else if (!S.finished && S.cur >= 0) {
    const ld_insn *c = sg_insn(cur_sg());
    if (c && c->block->fn == fn)
      cur = c;
  }
  printf("; function %s (%%%u)\n", fn->name ? fn->name : "?", fn->id);
  disas_fn(fn, cur, NULL, 0);
}

static void cmd_list(int argc, char **argv)
{
  const ld_insn *at = S.list_at;
  (void)argv;
  if (argc > 1) {
    printf("error: list takes no arguments (it lists around the current position)\n");
    return;
  }
  if (!at) {
    if (!S.finished && S.cur >= 0)
      at = sg_insn(cur_sg());
    if (!at) {
      const ld_kernel *k = ld_find_kernel(S.ir, S.k->name);
      if (k && k->fn && k->fn->n_blocks)
        at = &k->fn->blocks[0].insns[0];
    }
    if (!at) {
      printf("error: nothing to list\n");
      return;
    }
  }
  srcfile *f = at->loc && at->loc->file ? source_for(at->loc->file) : NULL;
  if (f) {
    uint32_t center = S.list_line ? S.list_line + 5 : at->loc->line;
    uint32_t first = center > 5 ? center - 5 : 1;
    if (first > f->n_lines) {
      printf("Line %u is past the end of %s (%u lines).\n", first, dbg_base_name(at->loc->file), f->n_lines);
      return;
    }
    for (uint32_t l = first; l < first + 10 && l <= f->n_lines; l++)
      printf("%s%u\t%s\n", l == at->loc->line && !S.list_line ? "=>" : "  ", l, f->lines[l - 1]);
    S.list_line = first + 9 - 5 + 1;
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
  printf("(no source for this location; disassembly)\n");
  disas_fn(fn, sg_insn(cur_sg()), from, 11);
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

/* x/N[fmt|type] ADDR|%ptr|NAME [lane L] */
static void cmd_x(int argc, char **argv)
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
        printf("error: x: count must be 1..4096\n");
        return;
      }
      spec = end;
    }
    if (*spec) {
      if (!spec[1]) {
        s = fmt_scalar(*spec);
        hex = *spec == 'x' || *spec == 'b' || *spec == 'h';
      } else {
        s = sg_scalar_from_name(spec, strlen(spec));
      }
      if (s == SG_S_NONE || s == SG_S_BOOL) {
        printf("error: x: unknown format '%s' (d u x f c b h l g, or a type: int float ...)\n", spec);
        return;
      }
    }
  } else if (*spec) {
    printf("error: unknown command '%s' (try 'help')\n", argv[0]);
    return;
  }
  if (argc < 2) {
    printf("error: x needs an address or a pointer value: x/4d %%ptr [lane L]\n");
    return;
  }
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  uint32_t nl = sg_sg_lane_count(sg);
  int64_t lane;
  if (!parse_lane_sel(argc, argv, 2, nl, &lane))
    return;
  if (lane == -1) {
    printf("error: x reads memory of one lane: use 'lane L'\n");
    return;
  }
  uint64_t m[2];
  sg_sg_active(sg, m);
  if (lane < 0 && S.focus_lane >= 0 && (uint32_t)S.focus_lane < nl)
    lane = S.focus_lane;
  if (lane < 0) {
    lane = 0;
    for (uint32_t l = 0; l < nl; l++)
      if (lane_active(m, l)) { lane = l; break; }
  }
  uint64_t addr;
  const ld_type *pointee = NULL;
  if (!sg_parse_u64(argv[1], &addr)) {
    const ld_insn *fi = frame_insn(sg, 0);
    uint32_t id = resolve_id(argv[1], fi ? fi->block->fn : NULL);
    if (!id) {
      printf("error: x: '%s' is neither an address nor a value name\n", argv[1]);
      return;
    }
    const ld_type *t = S.ir->values[id].type;
    if (!t || t->kind != LD_T_POINTER) {
      printf("error: x: %s is not a pointer\n", argv[1]);
      return;
    }
    uint32_t depth = depth_for(sg, id);
    uint8_t b[128] = {0};
    if (depth == UINT32_MAX || !sg_sg_read(sg, depth, (uint32_t)lane, id, b)) {
      printf("error: x: %s has no value in lane %" PRId64 " yet\n", argv[1], lane);
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
  printf("0x%" PRIx64 " (%s), lane %" PRId64 ", %" PRIu64 " x %s:\n", addr, d, lane, count, sg_scalar_name(s));
  for (uint64_t i = 0; i < count; i++) {
    uint8_t e[8];
    if (!sg_sg_read_memory(sg, (uint32_t)lane, addr + i * es, e, es)) {
      printf("%s<cannot read 0x%" PRIx64 ": outside the allocation>\n", i % 8 ? "\n" : "", addr + i * es);
      return;
    }
    char v[64];
    sg_format_value(v, sizeof v, s, hex, e);
    if (i % 8 == 0)
      printf("  +%-5" PRIu64 ":", i * es);
    printf(" %s", v);
    if (i % 8 == 7 || i + 1 == count)
      printf("\n");
  }
}

static void cmd_info_subgroups(void)
{
  if (!need_sg())
    return;
  wgslot *w = cur_slot();
  printf("work-group (%u,%u,%u): %u subgroup%s of up to %u lanes\n", w->group[0], w->group[1], w->group[2],
         w->n_sgs, w->n_sgs == 1 ? "" : "s", S.sg_size);
  for (uint32_t i = 0; i < w->n_sgs; i++) {
    sg_sg *sg = sg_wg_subgroup(w->wg, i);
    const char *state = sg_sg_done(sg) ? "done" : at_barrier(w, i) ? "at barrier" : "running";
    const ld_insn *in = sg_insn(sg);
    char ls[256] = "", ib[1024] = "", ms[512] = "";
    uint64_t m[2];
    sg_sg_active(sg, m);
    dbg_mask_str(m, sg_sg_lane_count(sg), ms, sizeof ms);
    if (in) {
      format_insn(in, ib, sizeof ib);
      loc_str(in, ls, sizeof ls);
    }
    printf("%c %u  %-10s lanes %-12s %s%s%s\n", i == S.cur_sg ? '*' : ' ', i, state,
           sg_sg_done(sg) ? "-" : ms, ls, in ? "  " : "", ib);
  }
}

static void cmd_info_args(void)
{
  for (uint32_t i = 0; i < S.k->n_args; i++) {
    const sg_arg_info *a = &S.k->args[i];
    const sg_arg *v = &S.args[i];
    printf("  %u %s %s = ", i, a->type_name ? a->type_name : "?", a->name ? a->name : "?");
    switch (v->kind) {
    case SG_ARG_BUFFER: {
      printf("buffer of %zu bytes", v->size);
      sg_scalar s = a->scalar == SG_S_NONE || a->scalar == SG_S_BOOL ? SG_S_UCHAR : a->scalar;
      size_t es = sg_scalar_size(s);
      printf(" {");
      for (size_t e = 0; es && e < 8 && (e + 1) * es <= v->size; e++) {
        char b[64];
        sg_format_value(b, sizeof b, s, false, (const uint8_t *)v->data + e * es);
        printf("%s%s", e ? ", " : "", b);
      }
      printf("%s}\n", v->size > 8 * es ? ", ..." : "");
      break;
    }
    case SG_ARG_NULL: printf("NULL\n"); break;
    case SG_ARG_LOCAL: printf("__local, %zu bytes\n", v->size); break;
    case SG_ARG_VALUE: {
      sg_scalar s = a->scalar;
      size_t es = sg_scalar_size(s);
      if (!es) {
        printf("%zu bytes\n", v->size);
        break;
      }
      for (size_t e = 0; (e + 1) * es <= v->size && e < 16; e++) {
        char b[64];
        sg_format_value(b, sizeof b, s, false, (const uint8_t *)v->data + e * es);
        printf("%s%s", e ? ", " : "", b);
      }
      printf("\n");
      break;
    }
    case SG_ARG_IMAGE: printf("image\n"); break;
    case SG_ARG_SAMPLER: printf("sampler 0x%x\n", v->sampler); break;
    default: printf("?\n");
    }
  }
}

static void cmd_info_breakpoints(void)
{
  if (!S.n_bps && !S.n_wps) {
    printf("No breakpoints or watchpoints.\n");
    return;
  }
  printf("Num  Where                          Hits\n");
  for (uint32_t i = 0; i < S.n_bps; i++) {
    const bp *b = &S.bps[i];
    printf("%-4d %-30s %" PRIu64 "%s\n", b->num, b->spec, b->hits, b->temp ? "  (temporary)" : "");
    if (b->has_wg)
      printf("       only in work-group (%u,%u,%u)\n", b->wg[0], b->wg[1], b->wg[2]);
    if (b->lane >= 0)
      printf("       only in lane %" PRId64 "\n", b->lane);
    if (b->cond)
      printf("       stop only where %s\n", b->cond);
    if (b->ignore)
      printf("       will ignore the next %" PRIu64 " hits\n", b->ignore);
  }
  for (uint32_t i = 0; i < S.n_wps; i++) {
    const watch *w = &S.wps[i];
    char where[64];
    snprintf(where, sizeof where, "%s %s", w->kind == WP_WRITE ? "watch" : w->kind == WP_READ ? "rwatch" : "awatch",
             w->expr);
    printf("%-4d %-30s %" PRIu64 "\n", w->num, where, w->hits);
  }
}

static void cmd_info_workgroups(void)
{
  printf("NDRange: %zu x %zu x %zu work-groups, subgroup size %u\n", S.groups[0], S.groups[1], S.groups[2], S.sg_size);
  uint64_t done = 0, fresh = 0;
  for (uint64_t i = 0; i < S.n_groups; i++)
    done += S.wg_status[i] == 2, fresh += S.wg_status[i] == 0;
  printf("finished %" PRIu64 ", not started %" PRIu64 ", in progress %u\n", done, fresh, S.n_slots);
  for (uint32_t i = 0; i < S.n_slots; i++)
    printf("%c (%u,%u,%u)\n", (int)i == S.cur ? '*' : ' ', S.slots[i].group[0], S.slots[i].group[1],
           S.slots[i].group[2]);
}

static void cmd_workgroup(int argc, char **argv)
{
  if (argc < 2 || argc > 4) {
    printf("error: usage: workgroup X [Y [Z]]\n");
    return;
  }
  uint32_t g[3] = {0, 0, 0};
  for (int i = 1; i < argc; i++) {
    uint64_t v;
    if (!sg_parse_u64(argv[i], &v) || v >= S.groups[i - 1]) {
      printf("error: work-group id '%s' out of range (the NDRange has %zu x %zu x %zu work-groups)\n",
             argv[i], S.groups[0], S.groups[1], S.groups[2]);
      return;
    }
    g[i - 1] = (uint32_t)v;
  }
  uint64_t lin = ((uint64_t)g[2] * S.groups[1] + g[1]) * S.groups[0] + g[0];
  if (S.wg_status[lin] == 2) {
    printf("error: work-group (%u,%u,%u) has already finished\n", g[0], g[1], g[2]);
    return;
  }
  int idx = -1;
  for (uint32_t i = 0; i < S.n_slots; i++)
    if (S.slots[i].linear == lin)
      idx = (int)i;
  /* work-groups before it that were begun but never stepped (the launch
   * begins the first one) go back to not begun: they can run at full speed */
  for (uint32_t s = 0; s < S.n_slots && idx < 0;) {
    uint64_t sl = S.slots[s].linear;
    bool stepped = false;
    for (uint64_t e = 0; e < S.n_log && !stepped; e++)
      stepped = S.log[e].kind == RL_STEP && S.log[e].lin == sl;
    if (sl < lin && !stepped) {
      for (uint64_t e = 0; e < S.n_log; e++)
        if (S.log[e].kind == RL_BEGIN && S.log[e].lin == sl) {
          memmove(&S.log[e], &S.log[e + 1], (S.n_log - e - 1) * sizeof *S.log);
          S.n_log--;
          ckpt_truncate(0);   /* the history before them changed */
          break;
        }
      sg_wg_end(S.slots[s].wg);
      free(S.slots[s].st);
      S.wg_status[sl] = 0;
      S.slots[s] = S.slots[--S.n_slots];
      S.cur = -1;
      continue;
    }
    s++;
  }
  const watch *gw = watch_global();
  if (idx < 0 && lin > 0 && S.wg_status[lin - 1] == 0 && gw) {
    /* a watchpoint on global memory would not see the writes of work-groups
     * run at full speed: they run in the interpreter instead, and the run
     * stops on the way if the watchpoint (or a breakpoint) fires */
    uint64_t before = 0;
    for (uint64_t i = 0; i < lin; i++)
      before += S.wg_status[i] == 0;
    printf("[watchpoint %d watches global memory: the %" PRIu64 " earlier work-group%s run in the interpreter, "
           "not at full speed]\n", gw->num, before, before == 1 ? "" : "s");
    S.until_on = true;
    S.until_lin = lin;
    cmd_continue();
    bool reached = !S.until_on;
    S.until_on = false;
    if (!reached || S.cur < 0)
      return;   /* it stopped on the way (and said why) */
    idx = S.cur;
  } else if (idx < 0 && lin > 0 && S.wg_status[lin - 1] == 0) {
    /* the work-groups before it run first, at full speed: global memory is
     * then what the kernel left there when X starts */
    double t0 = sg_now_ms();
    uint64_t ran = 0;
    bool native = false;
    for (uint64_t i = 0; i < lin;) {
      if (S.wg_status[i] != 0) {
        i++;
        continue;
      }
      uint64_t e = i;
      while (e < lin && S.wg_status[e] == 0)
        e++;
      if (!run_range_fast(i, e - i, &native))
        return;
      ran += e - i;
      i = e;
    }
    printf("[ran %" PRIu64 " earlier work-group%s at full speed (%s) in %.0f ms]\n", ran, ran == 1 ? "" : "s",
           native ? "native code from the JIT" : "interpreter", sg_now_ms() - t0);
  }
  if (idx < 0)
    idx = begin_group(lin);
  if (idx < 0)
    return;
  S.cur = idx;
  S.cur_sg = 0;
  S.finished = false;
  show_stop(NULL);
}

static void cmd_subgroup(int argc, char **argv)
{
  if (argc != 2) {
    printf("error: usage: subgroup N\n");
    return;
  }
  if (!need_sg())
    return;
  uint64_t v;
  wgslot *w = cur_slot();
  if (!sg_parse_u64(argv[1], &v) || v >= w->n_sgs) {
    printf("error: subgroup '%s' out of range (the work-group has %u subgroups)\n", argv[1], w->n_sgs);
    return;
  }
  S.cur_sg = (uint32_t)v;
  show_stop(NULL);
}


static void cmd_restart(void)
{
  ckpt_truncate(0);   /* a new history */
  stop_launch();
  for (uint32_t i = 0; i < S.k->n_args; i++)
    if (S.pristine[i] && S.args[i].data)
      memcpy(S.args[i].data, S.pristine[i], S.args[i].size);
  if (start_launch() == 0) {
    printf("Restarted.\n");
    show_stop(NULL);
  }
}

static void cmd_lane(int argc, char **argv)
{
  if (argc == 1) {
    if (S.focus_lane < 0)
      printf("No lane focus: commands show every lane.\n");
    else
      printf("Focus on lane %" PRId64 ".\n", S.focus_lane);
    return;
  }
  if (argc == 2 && (!strcmp(argv[1], "all") || !strcmp(argv[1], "off"))) {
    S.focus_lane = -1;
    printf("No lane focus: commands show every lane.\n");
    return;
  }
  uint64_t v;
  uint32_t nl = S.sg_size;
  if (!S.finished && S.cur >= 0 && cur_sg())
    nl = sg_sg_lane_count(cur_sg());
  if (argc != 2 || !sg_parse_u64(argv[1], &v) || v >= nl) {
    printf("error: usage: lane L (0..%u) | lane all\n", nl ? nl - 1 : 0);
    return;
  }
  S.focus_lane = (int64_t)v;
  printf("Focus on lane %" PRIu64 ": print, x and watch use it (print ... all: every lane).\n", v);
}

/* The SIMT stack of the focused subgroup's innermost frame, top first. */
typedef struct reconv_entry { uint64_t m[2]; uint32_t pc, rpc; bool meet; } reconv_entry;

static uint32_t read_reconv(sg_sg *sg, reconv_entry *e, uint32_t max)
{
  uint32_t n = sg_sg_reconv(sg, 0, e[0].m, &e[0].pc, &e[0].rpc);
  if (n > max)
    n = max;
  for (uint32_t k = 1; k < n; k++)
    sg_sg_reconv(sg, k, e[k].m, &e[k].pc, &e[k].rpc);
  /* an entry whose next block is where the entry above it reconverges is
   * the meeting point of a branch, not a path still to run */
  for (uint32_t k = 0; k < n; k++) {
    const ld_insn *pi = e[k].pc ? insn_at_word(e[k].pc) : NULL;
    e[k].meet = k > 0 && pi && e[k - 1].rpc && pi->block->label == e[k - 1].rpc;
  }
  return n;
}

static void block_name(uint32_t label, char *buf, size_t n)
{
  const char *ln = label ? id_namer(NULL, label) : NULL;
  if (!label)
    snprintf(buf, n, "the function's exit");
  else if (ln)
    snprintf(buf, n, "%%%s", ln);
  else
    snprintf(buf, n, "%%%u", label);
}

static void cmd_info_lanes(bool json)
{
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  wgslot *w = cur_slot();
  uint32_t nl = sg_sg_lane_count(sg);
  uint64_t m[2];
  sg_sg_active(sg, m);
  const ld_insn *in = sg_insn(sg);
  char here[256];
  loc_str(in, here, sizeof here);
  /* where the inactive lanes wait: the SIMT stack entry that holds them */
  reconv_entry re[64];
  uint32_t ne = read_reconv(sg, re, 64);
  if (json)
    printf("{\"workgroup\": [%u, %u, %u], \"subgroup\": %u, \"lanes\": [", w->group[0], w->group[1], w->group[2],
           S.cur_sg);
  else
    printf("  Lane  Active  Global id        Local id        Where\n");
  for (uint32_t l = 0; l < nl; l++) {
    dbg_ctx c;
    make_ctx(&c, w, sg, l);
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
          const ld_insn *pi = re[e].pc ? insn_at_word(re[e].pc) : NULL;
          char ls[256], bn[128];
          loc_str(pi, ls, sizeof ls);
          block_name(pi ? pi->block->label : 0, bn, sizeof bn);
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
      printf("%s{\"lane\": %u, \"active\": %s, \"global_id\": [%zu, %zu, %zu], \"local_id\": [%zu, %zu, %zu], "
             "\"where\": ", l ? ", " : "", l, act ? "true" : "false", g[0], g[1], g[2], li[0], li[1], li[2]);
      json_str(where);
      printf("}");
    } else {
      char gs[64], lsb[64];
      snprintf(gs, sizeof gs, "(%zu,%zu,%zu)", g[0], g[1], g[2]);
      snprintf(lsb, sizeof lsb, "(%zu,%zu,%zu)", li[0], li[1], li[2]);
      printf("%c %4u  %-6s  %-15s  %-14s  %s\n", (int64_t)l == S.focus_lane ? '*' : ' ', l, act ? "yes" : "no", gs,
             lsb, where);
    }
  }
  if (json)
    printf("]}\n");
}

static void cmd_info_divergence(void)
{
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  uint32_t nl = sg_sg_lane_count(sg);
  reconv_entry re[64];
  uint32_t ne = read_reconv(sg, re, 64);
  if (ne <= 1) {
    printf("No divergence: the lanes of subgroup %u that still run all run the same path.\n", S.cur_sg);
    return;
  }
  printf("Subgroup %u (innermost frame), top first:\n", S.cur_sg);
  uint64_t above[2] = {0, 0};
  for (uint32_t e = 0; e < ne; e++) {
    char ms[512], ls[256] = "?", bn[128], rb[128], ws[512];
    dbg_mask_str(re[e].m, nl, ms, sizeof ms);
    const ld_insn *pi = re[e].pc ? insn_at_word(re[e].pc) : NULL;
    loc_str(pi, ls, sizeof ls);
    block_name(pi ? pi->block->label : 0, bn, sizeof bn);
    block_name(re[e].rpc, rb, sizeof rb);
    if (e == 0) {
      printf("  #0 running: lanes %s at %s; they reconverge at %s\n", ms, ls, rb);
    } else if (re[e].meet) {
      uint64_t waiting[2] = {re[e].m[0] & ~above[0], re[e].m[1] & ~above[1]};
      dbg_mask_str(waiting, nl, ws, sizeof ws);
      printf("  #%u reconvergence point %s (%s): lanes %s meet there%s%s%s\n", e, ls, bn, ms,
             waiting[0] | waiting[1] ? "; lanes " : "", waiting[0] | waiting[1] ? ws : "",
             waiting[0] | waiting[1] ? " already wait" : "");
    } else {
      printf("  #%u pending path: lanes %s will run %s (%s), then reconverge at %s\n", e, ms, ls, bn, rb);
    }
    above[0] |= re[e].m[0];
    above[1] |= re[e].m[1];
  }
}

static void cmd_display(int argc, char **argv)
{
  if (argc == 1) {
    for (uint32_t i = 0; i < S.n_displays; i++) {
      printf("%u: ", i + 1);
      print_expr(S.displays[i], S.focus_lane >= 0 ? S.focus_lane : -1);
    }
    return;
  }
  char text[1024];
  join_args(1, argc, argv, text, sizeof text);
  if (!check_expr(text))
    return;
  char **nd = realloc(S.displays, (S.n_displays + 1) * sizeof *nd);
  if (!nd)
    return;
  S.displays = nd;
  S.displays[S.n_displays++] = strdup(text);
  if (!S.finished && S.cur >= 0 && cur_sg() && !sg_sg_done(cur_sg())) {
    printf("%u: ", S.n_displays);
    print_expr(text, S.focus_lane >= 0 ? S.focus_lane : -1);
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
  {"x", "", "/N[d|u|x|f|c|b|h|l|g|TYPE] ADDR|%ptr [lane L]", "examine memory"},
  {"disassemble", "disas", "[FUNCTION]", "disassemble the current function"},
  {"restart", "", "", "start the kernel again with the original inputs"},
  {"help", "h", "", "this list"},
  {"quit", "q", "", "exit"},
};

static void cmd_help(void)
{
  printf("Commands (aliases in brackets):\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    char head[96];
    snprintf(head, sizeof head, "%s%s%s%s %s", commands[i].name, commands[i].alias[0] ? " (" : "",
             commands[i].alias, commands[i].alias[0] ? ")" : "", commands[i].args);
    printf("  %-44s %s\n", head, commands[i].help);
  }
}

static void execute(char *line)
{
  char *argv[64];
  int argc = 0;
  char *save = NULL;
  S.json = false;
  for (char *t = strtok_r(line, " \t\r\n", &save); t && argc < 64; t = strtok_r(NULL, " \t\r\n", &save))
    argv[argc++] = t;
  if (!argc || argv[0][0] == '#')
    return;
  const char *c = argv[0];
#define CMD(a, b) (!strcmp(c, a) || (b[0] && !strcmp(c, b)))
  if (CMD("run", "r") || CMD("continue", "c")) cmd_continue();
  else if (CMD("step", "s") || !strcmp(c, "stepi") || !strcmp(c, "si")) cmd_step(argc, argv);
  else if (CMD("next", "n")) cmd_next(false);
  else if (CMD("finish", "fin")) cmd_next(true);
  else if (CMD("break", "b")) cmd_break(argc, argv, false);
  else if (CMD("tbreak", "tb")) cmd_break(argc, argv, true);
  else if (!strcmp(c, "condition")) cmd_condition(argc, argv);
  else if (!strcmp(c, "ignore")) cmd_ignore(argc, argv);
  else if (!strcmp(c, "watch")) cmd_watch(argc, argv, WP_WRITE);
  else if (!strcmp(c, "rwatch")) cmd_watch(argc, argv, WP_READ);
  else if (!strcmp(c, "awatch")) cmd_watch(argc, argv, WP_ACCESS);
  else if (!strcmp(c, "lane")) cmd_lane(argc, argv);
  else if (!strcmp(c, "display")) cmd_display(argc, argv);
  else if (CMD("reverse-step", "rs") || !strcmp(c, "reverse-stepi") || !strcmp(c, "rsi")) cmd_reverse_step(argc, argv, false);
  else if (CMD("reverse-next", "rn")) cmd_reverse_step(argc, argv, true);
  else if (CMD("reverse-continue", "rc")) cmd_reverse_continue();
  else if (CMD("delete", "d")) cmd_delete(argc, argv);
  else if (CMD("info", "i")) {
    const char *w = argc > 1 ? argv[1] : "";
    bool json = argc == 3 && !strcmp(argv[2], "--json");
    if (argc == 3 && json && !strcmp(w, "lanes")) cmd_info_lanes(true);
    else if (argc != 2) printf("error: usage: info breakpoints|watchpoints|subgroups|lanes|divergence|args|workgroups\n");
    else if (!strcmp(w, "lanes")) cmd_info_lanes(false);
    else if (!strncmp(w, "divergence", strlen(w)) && strlen(w) >= 3) cmd_info_divergence();
    else if (!strncmp(w, "watchpoints", strlen(w)) && strlen(w) >= 2) cmd_info_breakpoints();
    else if (!strcmp(w, "display")) cmd_display(1, argv);
    else if (!strncmp(w, "breakpoints", strlen(w)) || !strcmp(w, "b")) cmd_info_breakpoints();
    else if (!strncmp(w, "subgroups", strlen(w)) || !strcmp(w, "sg")) cmd_info_subgroups();
    else if (!strncmp(w, "args", strlen(w))) cmd_info_args();
    else if (!strncmp(w, "workgroups", strlen(w)) || !strcmp(w, "wg")) cmd_info_workgroups();
    else printf("error: info %s: unknown (breakpoints, watchpoints, subgroups, lanes, divergence, args, workgroups)\n", w);
  } else if (CMD("workgroup", "wg")) cmd_workgroup(argc, argv);
  else if (CMD("subgroup", "sg")) cmd_subgroup(argc, argv);
  else if (CMD("print", "p")) cmd_print(argc, argv);
  else if (!strcmp(c, "lanes")) cmd_lanes();
  else if (CMD("where", "bt") || !strcmp(c, "backtrace")) cmd_where(argc > 1 && !strcmp(argv[1], "--json"));
  else if (CMD("list", "l")) cmd_list(argc, argv);
  else if (c[0] == 'x' && (c[1] == 0 || c[1] == '/')) cmd_x(argc, argv);
  else if (CMD("disassemble", "disas")) cmd_disassemble(argc, argv);
  else if (!strcmp(c, "restart")) cmd_restart();
  else if (CMD("help", "h")) cmd_help();
  else if (CMD("quit", "q")) S.quit = true;
  else printf("error: unknown command '%s' (try 'help')\n", c);
#undef CMD
}

/* ------------------------------------------------------------ launch */

static void stdout_write(void *user, const char *text, size_t len)
{
  (void)user;
  if (S.replaying)
    return;   /* printed when it first ran */
  if (X.real) {   /* a -x script runs: the kernel's output is not filtered */
    fflush(stdout);
    fwrite(text, 1, len, X.real);
    return;
  }
  fwrite(text, 1, len, stdout);
}

int start_launch(void)
{
  char err[1024] = "";
  sg_result r = sg_launch_create(S.m, &S.d, &S.l, err, sizeof err);
  if (r != SG_SUCCESS) {
    fprintf(stderr, PROG ": error: %s\n", err[0] ? err : sg_result_name(r));
    return r == SG_ERROR_UNSUPPORTED ? EXIT_UNSUPPORTED : EXIT_USAGE;
  }
  sg_launch_groups(S.l, S.groups, &S.sg_size);
  S.n_groups = (uint64_t)S.groups[0] * S.groups[1] * S.groups[2];
  if (S.n_groups > (1u << 26)) {
    fprintf(stderr, PROG ": error: %" PRIu64 " work-groups are too many to debug\n", S.n_groups);
    return EXIT_USAGE;
  }
  free(S.wg_status);
  S.wg_status = calloc(S.n_groups ? S.n_groups : 1, 1);
  S.cur = -1;
  S.cur_sg = 0;
  S.finished = false;
  S.n_faults = 0;
  S.list_at = NULL;
  if (!S.replaying) {
    S.n_log = 0;
    S.t = 0;
  }
  if (!S.wg_status || (!S.replaying && !ensure_current()))
    return EXIT_USAGE;
  return 0;
}

void stop_launch(void)
{
  while (S.n_slots)
    end_slot((int)S.n_slots - 1);
  sg_launch_destroy(S.l);
  S.l = NULL;
}

static int setup(void)
{
  const char *module_path = O.file;
  char err[2048] = "";
  bool is_sim = has_ext(O.file, ".sim");
  if (is_sim) {
    if (sg_runfile_open(O.file, &S.rf, err, sizeof err) != SG_SUCCESS)
      return die(EXIT_USAGE, "%s", err);
    module_path = sg_runfile_module_path(S.rf);
    if (O.run.n_args)
      return die(EXIT_USAGE, "--arg cannot be used with a run file (its arguments come from %s)", O.file);
  }
  sg_load_options lo = {.message = on_message, .debug_info = !O.no_debug_info};
  sg_run_opts_load(&O.run, &lo);
  sg_result lr = sg_module_load_file(module_path, &lo, &S.m);
  if (lr != SG_SUCCESS)
    return die(lr == SG_ERROR_UNSUPPORTED ? EXIT_UNSUPPORTED : lr == SG_ERROR_TOOL_MISSING ? EXIT_TOOL : EXIT_USAGE,
               "%s", first_error[0] ? first_error : sg_result_name(lr));
  S.ir = sg_module_ir(S.m);
  const char *kname = O.run.kernel ? O.run.kernel : S.rf ? sg_runfile_kernel(S.rf) : NULL;
  if (!kname) {
    if (sg_module_kernel_count(S.m) != 1)
      return die(EXIT_USAGE, "%s has %u kernels, pick one with -k", module_path, sg_module_kernel_count(S.m));
    kname = sg_module_kernel(S.m, 0)->name;
  }
  S.k = sg_module_find_kernel(S.m, kname);
  if (!S.k)
    return die(EXIT_USAGE, "no kernel named '%s' in %s", kname, module_path);
  index_insns();
  if (!S.by_word)
    return die(EXIT_USAGE, "out of memory");

  sg_run_desc *d = &S.d;
  d->kernel = S.k->name;
  d->backend = SG_BACKEND_INTERP;
  d->ub = O.run.ub;
  d->checks = O.run.checks;   /* detector reports stop like faults */
  d->step_limit = O.run.step_limit;
  d->max_private_memory = O.run.max_private_memory;
  d->time_limit = O.run.time_limit;
  d->printf_out = stdout_write;
  d->message = on_message;
  d->on_diag = on_diag;
  d->jit_opt_level = -1;   /* the fast-forward's native code: the JIT's default level */
  sg_result r = sg_run_opts_ndrange(&O.run, S.k, S.rf, d, err, sizeof err);
  if (r != SG_SUCCESS)
    return die(EXIT_USAGE, "%s", err);
  uint32_t n = S.k->n_args;
  S.args = calloc(n + 1, sizeof *S.args);
  S.owned = calloc(n + 1, sizeof *S.owned);
  S.pristine = calloc(n + 1, sizeof *S.pristine);
  if (!S.args || !S.owned || !S.pristine)
    return die(EXIT_USAGE, "out of memory");
  if (S.rf) {
    if (sg_runfile_bind(S.rf, S.m, err, sizeof err) != SG_SUCCESS)
      return die(EXIT_USAGE, "%s", err);
    uint32_t na;
    const sg_arg *ra = sg_runfile_args(S.rf, &na);
    memcpy(S.args, ra, (na < n ? na : n) * sizeof *ra);
  } else {
    size_t items = 1;
    for (uint32_t i = 0; i < d->work_dim; i++)
      items *= d->global_size[i];
    r = sg_run_opts_args(&O.run, S.k, items, S.args, S.owned, err, sizeof err);
    if (r != SG_SUCCESS)
      return die(r == SG_ERROR_UNSUPPORTED ? EXIT_UNSUPPORTED : EXIT_USAGE, "%s", err);
  }
  for (uint32_t i = 0; i < n; i++)
    if (S.args[i].kind == SG_ARG_BUFFER && S.args[i].data && S.args[i].size) {
      S.pristine[i] = malloc(S.args[i].size);
      if (S.pristine[i])
        memcpy(S.pristine[i], S.args[i].data, S.args[i].size);
    }
  d->args = S.args;
  d->n_args = n;
  return start_launch();
}

static void cleanup(void)
{
  stop_launch();
  if (S.k)
    for (uint32_t i = 0; i < S.k->n_args; i++) {
      if (S.owned) free(S.owned[i]);
      if (S.pristine) free(S.pristine[i]);
    }
  free(S.owned);
  free(S.pristine);
  free(S.args);
  while (S.n_bps)
    delete_bp_index(S.n_bps - 1);
  free(S.bps);
  while (S.n_wps)
    delete_wp_index(S.n_wps - 1);
  free(S.wps);
  for (uint32_t i = 0; i < S.n_displays; i++)
    free(S.displays[i]);
  free(S.displays);
  replay_free();
  for (uint32_t i = 0; i < S.n_src; i++) {
    free(S.src[i].path);
    free(S.src[i].text);
    free(S.src[i].lines);
  }
  free(S.src);
  free(S.by_word);
  free(S.wg_status);
  free(S.slots);
  sg_runfile_destroy(S.rf);
  sg_module_destroy(S.m);
  sg_run_opts_free(&O.run);
}

/* ------------------------------------------------------------ -x scripts
 *
 * A command's error in a -x script names the script and its line
 * ("run.x:3: error: ..."), as a compiler's would.  The commands print
 * "error: ..." at the start of a line of stdout (70-odd places), so while
 * a script runs stdout goes through a filter that puts SCRIPT:LINE in
 * front of such a line and counts it; the kernel's printf output goes to
 * the real stdout, unfiltered.  The line is found from the script's file
 * offset, not counted as lines are read: after a checkpoint takes the
 * session over (dbg_ckpt.c) the offset, shared by every process, is right
 * and a counter in this process would not be.  For the same reason what
 * --batch's exit status depends on (an error, a diagnostic) is kept on a
 * shared page. */

static unsigned long script_line(void)
{
  FILE *f = fopen(X.name, "rb");
  unsigned long line = 1;
  if (!f)
    return 0;
  for (off_t i = 0; i < X.cmd_off; i++) {
    int ch = getc(f);
    if (ch == EOF)
      break;
    line += ch == '\n';
  }
  fclose(f);
  return line;
}

static ssize_t script_out_write(void *cookie, const char *buf, size_t size)
{
  (void)cookie;
  for (size_t i = 0; i < size;) {
    if (X.at_bol && size - i >= 7 && !memcmp(buf + i, "error: ", 7)) {
      char esc[1024];
      sg_escape(esc, sizeof esc, X.name);
      unsigned long line = script_line();
      fprintf(X.real, "%s:%lu: ", esc, line);
      if (!sticky_->n_errors++)
        sticky_->first_error_line = line;
    }
    const char *nl = memchr(buf + i, '\n', size - i);
    size_t n = nl ? (size_t)(nl - (buf + i)) + 1 : size - i;
    if (fwrite(buf + i, 1, n, X.real) != n)
      return i ? (ssize_t)i : -1;
    X.at_bol = nl != NULL;
    i += n;
  }
  fflush(X.real);
  return (ssize_t)size;
}

/* Reads commands from f until EOF or quit. */
static char *loop_line;
static size_t loop_cap;

static void command_loop(FILE *f, bool interactive, bool echo)
{
  /* a checkpoint that takes the session over comes back here (dbg_ckpt.c);
   * every process must see the same position in the input: unbuffered */
  jmp_buf jb;
  if (ckpt_enabled())
    setvbuf(f, NULL, _IONBF, 0);
  if (setjmp(jb))
    fflush(stdout);
  ckpt_loop = &jb;
  while (!S.quit) {
    char *line;
    if (interactive) {
      fputs("(sgdb) ", stdout);
      fflush(stdout);
    }
    if (f == X.script)
      X.cmd_off = ftello(f);
    ssize_t n = getline(&loop_line, &loop_cap, f);
    line = loop_line;
    if (n < 0) {
      if (interactive)
        fputs("\n", stdout);
      break;
    }
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = 0;
    if (echo && line[strspn(line, " \t")] != '#') {
      char esc[4096];   /* a script's bytes, escaped (sg_escape) */
      sg_escape(esc, sizeof esc, line);
      printf("(sgdb) %s\n", esc);
    }
    if (strlen(line) != (size_t)n) {
      printf("error: the command contains a NUL byte\n");
      continue;
    }
    size_t bad = strcspn(line, "\x01\x02\x03\x04\x05\x06\x07\x08\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12"
                                "\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f");
    if (bad < (size_t)n) {
      printf("error: the command contains the control byte \\x%02x at column %zu\n",
             (unsigned char)line[bad], bad + 1);
      continue;
    }
    execute(line);
    fflush(stdout);
    if (S.n_faults)
      sticky_->diagnosed = true;
  }
  ckpt_loop = NULL;
  free(loop_line);
  loop_line = NULL;
  loop_cap = 0;
}

/* ------------------------------------------------------------ the session for sgdb_dap.c */

int sgdb_open(int argc, char **argv)
{
  memset(&O, 0, sizeof O);
  int rc = parse_options(argc, argv);
  if (rc >= 0)
    return rc ? rc : EXIT_USAGE;
  if (!O.file)
    return die(EXIT_USAGE, "no program to debug");
  S.focus_lane = -1;
  S.watch_hit = -1;
  rc = setup();
  if (rc != 0) {
    fprintf(stderr, PROG ": %s\n", first_error[0] ? first_error : "cannot start the kernel");
    return rc;
  }
  printf("spirv-sgdb: kernel %s, %zu x %zu x %zu work-groups, subgroup size %u.\n", S.k->name, S.groups[0],
         S.groups[1], S.groups[2], S.sg_size);
  return 0;
}

void sgdb_exec(const char *line)
{
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", line);
  execute(buf);
  fflush(stdout);
}

bool sgdb_finished(void) { return S.finished || S.cur < 0; }
int64_t sgdb_focus_lane(void) { return S.focus_lane; }
void sgdb_set_focus_lane(int64_t l) { S.focus_lane = l; }

uint32_t sgdb_lane_count(void)
{
  sg_sg *sg = S.finished || S.cur < 0 ? NULL : cur_sg();
  return sg ? sg_sg_lane_count(sg) : 0;
}

/* The source-level names of frame `depth`'s function: its parameters and
 * its named private variables (at -O0, clang's locals), for the DAP
 * variables pane. */
uint32_t sgdb_locals(uint32_t depth, const char **names, uint32_t max)
{
  sg_sg *sg = S.finished || S.cur < 0 ? NULL : cur_sg();
  const ld_function *fn = sg ? dbg_frame_fn(sg, depth) : NULL;
  uint32_t n = 0;
  if (!fn)
    return 0;
  for (uint32_t i = 1; i < S.ir->bound && n < max; i++) {
    const ld_value *v = &S.ir->values[i];
    if (v->owner != fn || !v->name || !*v->name || strchr(v->name, '.'))
      continue;
    bool var = v->kind == LD_V_RESULT && v->u.insn && v->u.insn->op == SpvOpVariable;
    if (v->kind == LD_V_PARAM || var)
      names[n++] = v->name;
  }
  return n;
}

void sgdb_close(void) { cleanup(); }

int sgdb_dap_main(void);

int main(int argc, char **argv)
{
  int rc = parse_options(argc, argv);
  if (rc >= 0)
    return rc;
  if (O.dap) {
    sg_run_opts_free(&O.run);
    return sgdb_dap_main();
  }
  signal(SIGINT, on_sigint);
  setvbuf(stdout, NULL, _IOLBF, 0);
  S.focus_lane = -1;
  S.watch_hit = -1;
  rc = setup();
  if (rc != 0) {
    cleanup();
    return rc;
  }
  printf("spirv-sgdb: kernel %s, %zu x %zu x %zu work-groups, subgroup size %u. Type 'help' for commands.\n",
         S.k->name, S.groups[0], S.groups[1], S.groups[2], S.sg_size);
  sticky *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (sh != MAP_FAILED)
    sticky_ = sh;   /* zeroed; else the process's own copy (no checkpoints share it) */
  ckpt_enable();
  if (O.script) {
    FILE *f = fopen(O.script, "r");
    if (!f) {
      rc = die(EXIT_USAGE, "cannot read script '%s': %s", O.script, strerror(errno));
      cleanup();
      return rc;
    }
    cookie_io_functions_t io = {.write = script_out_write};
    FILE *filter = fopencookie(NULL, "w", io);
    X.script = f;
    X.name = O.script;
    if (filter) {
      setvbuf(filter, NULL, _IOLBF, 0);
      fflush(stdout);
      X.real = stdout;
      stdout = filter;
    }
    command_loop(f, false, true);
    if (filter) {
      fflush(filter);
      stdout = X.real;
      X.real = NULL;
      fclose(filter);
    }
    X.script = NULL;
    fclose(f);
  }
  if (!O.batch && !S.quit)
    command_loop(stdin, isatty(0) != 0, isatty(0) == 0);
  /* --batch: 2 when a script command failed (its result cannot be trusted),
   * else 1 when the kernel raised a diagnostic (a fault, undefined behaviour,
   * a step or time limit) and the session stopped on it, else 0 */
  int code = EXIT_OK;
  if (O.batch)
    code = sticky_->n_errors ? EXIT_USAGE : sticky_->diagnosed || S.n_faults ? EXIT_FAULT : EXIT_OK;
  if (O.batch && sticky_->n_errors) {
    char esc[1024];
    sg_escape(esc, sizeof esc, O.script);
    fflush(stdout);
    fprintf(stderr, PROG ": error: %" PRIu64 " command%s of the script failed, the first at %s:%lu\n",
            sticky_->n_errors, sticky_->n_errors == 1 ? "" : "s", esc, sticky_->first_error_line);
  }
  cleanup();
  ckpt_shutdown(code);
  if (sh != MAP_FAILED)
    munmap(sh, sizeof *sh);
  return code;
}
