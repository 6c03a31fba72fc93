/* sgdb_dap.c - spirv-sgdb --dap: the Debug Adapter Protocol front-end.
 *
 * Editors (VS Code, and any DAP client) talk to the debugger through
 * Content-Length framed JSON messages on stdin/stdout.  This file is a thin
 * layer over the engine of libspirv-sg (the sg_dbg_* API of spirv_sg.h): it
 * turns each request into the engine's own commands (sg_dbg_command:
 * "break FILE:LINE if EXPR", "next", "where --json", "print
 * --json EXPR lane L", ...) and their output into responses and events, so
 * the terminal and the editor share one engine and one formatter.
 *
 * Lanes are threads: thread id L+1 is lane L of the focused subgroup, named
 * by its lane and global id.  Everything the engine prints goes to the
 * client as "output" events (category console): the session's output sink
 * collects it in memory, and stdout carries only the protocol.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <unistd.h>

#include "spirv_sg.h"

int sgdb_dap_main(void);

static sg_dbg *D;            /* the session, once launched */

/* ------------------------------------------------------------ JSON (just enough) */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jkind;
typedef struct jv {
  jkind k;
  double num;
  bool b;
  char *str;                 /* J_STR */
  struct jv *items;          /* J_ARR, J_OBJ values */
  char **keys;               /* J_OBJ */
  size_t n;
} jv;

static void jfree(jv *v)
{
  if (!v)
    return;
  free(v->str);
  for (size_t i = 0; i < v->n; i++) {
    jfree(&v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  memset(v, 0, sizeof *v);
}

static const char *jws(const char *p)
{
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
    p++;
  return p;
}

static const char *jparse(const char *p, jv *out, int depth);

static const char *jstring(const char *p, char **out)
{
  /* p at the opening quote */
  size_t cap = 16, n = 0;
  char *s = malloc(cap);
  if (!s)
    return NULL;
  for (p++; *p && *p != '"'; p++) {
    char c = *p;
    if (c == '\\') {
      p++;
      switch (*p) {
      case 'n': c = '\n'; break;
      case 't': c = '\t'; break;
      case 'r': c = '\r'; break;
      case 'b': c = '\b'; break;
      case 'f': c = '\f'; break;
      case 'u': {
        unsigned v = 0;
        for (int i = 1; i <= 4; i++) {
          if (!isxdigit((unsigned char)p[i])) { free(s); return NULL; }
          v = v * 16 + (unsigned)(isdigit((unsigned char)p[i]) ? p[i] - '0' : (tolower((unsigned char)p[i]) - 'a' + 10));
        }
        p += 4;
        c = v < 0x80 ? (char)v : '?';
        break;
      }
      case 0: free(s); return NULL;
      default: c = *p;
      }
    }
    if (n + 2 > cap) {
      cap *= 2;
      char *ns = realloc(s, cap);
      if (!ns) { free(s); return NULL; }
      s = ns;
    }
    s[n++] = c;
  }
  if (*p != '"') {
    free(s);
    return NULL;
  }
  s[n] = 0;
  *out = s;
  return p + 1;
}

static bool jpush(jv *v, char *key, jv *item)
{
  jv *ni = realloc(v->items, (v->n + 1) * sizeof *ni);
  if (!ni)
    return false;
  v->items = ni;
  if (v->k == J_OBJ) {
    char **nk = realloc(v->keys, (v->n + 1) * sizeof *nk);
    if (!nk)
      return false;
    v->keys = nk;
    v->keys[v->n] = key;
  }
  v->items[v->n++] = *item;
  return true;
}

static const char *jparse(const char *p, jv *out, int depth)
{
  memset(out, 0, sizeof *out);
  if (depth > 64)
    return NULL;
  p = jws(p);
  if (*p == '{' || *p == '[') {
    bool obj = *p == '{';
    out->k = obj ? J_OBJ : J_ARR;
    p = jws(p + 1);
    if (*p == (obj ? '}' : ']'))
      return p + 1;
    for (;;) {
      char *key = NULL;
      if (obj) {
        p = jws(p);
        if (*p != '"' || !(p = jstring(p, &key)))
          return NULL;
        p = jws(p);
        if (*p != ':') { free(key); return NULL; }
        p++;
      }
      jv item;
      p = jparse(p, &item, depth + 1);
      if (!p || !jpush(out, key, &item)) {
        free(key);
        jfree(&item);
        return NULL;
      }
      p = jws(p);
      if (*p == ',') { p++; continue; }
      if (*p == (obj ? '}' : ']'))
        return p + 1;
      return NULL;
    }
  }
  if (*p == '"') {
    out->k = J_STR;
    return jstring(p, &out->str);
  }
  if (!strncmp(p, "true", 4)) { out->k = J_BOOL; out->b = true; return p + 4; }
  if (!strncmp(p, "false", 5)) { out->k = J_BOOL; return p + 5; }
  if (!strncmp(p, "null", 4)) { out->k = J_NULL; return p + 4; }
  char *end;
  out->num = strtod(p, &end);
  if (end == p)
    return NULL;
  out->k = J_NUM;
  return end;
}

static const jv *jget(const jv *o, const char *key)
{
  if (!o || o->k != J_OBJ)
    return NULL;
  for (size_t i = 0; i < o->n; i++)
    if (!strcmp(o->keys[i], key))
      return &o->items[i];
  return NULL;
}

static const char *jstr(const jv *o, const char *key)
{
  const jv *v = jget(o, key);
  return v && v->k == J_STR ? v->str : NULL;
}

static double jnum(const jv *o, const char *key, double dflt)
{
  const jv *v = jget(o, key);
  return v && v->k == J_NUM ? v->num : dflt;
}

/* ------------------------------------------------------------ output */

static FILE *proto;          /* stdout: the protocol only */
static int seq = 1;

typedef struct sbuf { char *s; size_t n, cap; } sbuf;
static sbuf captured;        /* what the engine said since take_output */

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
  va_list ap;
  for (;;) {
    size_t room = b->cap - b->n;
    va_start(ap, fmt);
    int w = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? room : 0, fmt, ap);
    va_end(ap);
    if (w < 0)
      return;
    if (b->s && (size_t)w < room) {
      b->n += (size_t)w;
      return;
    }
    size_t nc = (b->cap + (size_t)w + 64) * 2;
    char *ns = realloc(b->s, nc);
    if (!ns)
      return;
    b->s = ns;
    b->cap = nc;
  }
}

static void sb_str(sbuf *b, const char *s)
{
  sb_add(b, "\"");
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      sb_add(b, "\\%c", c);
    else if (c == '\n')
      sb_add(b, "\\n");
    else if (c < 0x20)
      sb_add(b, "\\u%04x", c);
    else
      sb_add(b, "%c", c);
  }
  sb_add(b, "\"");
}

static void send_raw(const char *json)
{
  fprintf(proto, "Content-Length: %zu\r\n\r\n%s", strlen(json), json);
  fflush(proto);
}

static void send_response(const jv *req, bool ok, const char *message, const char *body)
{
  sbuf b = {0};
  sb_add(&b, "{\"seq\": %d, \"type\": \"response\", \"request_seq\": %d, \"success\": %s, \"command\": ", seq++,
         (int)jnum(req, "seq", 0), ok ? "true" : "false");
  sb_str(&b, jstr(req, "command"));
  if (message) {
    sb_add(&b, ", \"message\": ");
    sb_str(&b, message);
  }
  if (body)
    sb_add(&b, ", \"body\": %s", body);
  sb_add(&b, "}");
  send_raw(b.s);
  free(b.s);
}

static void send_event(const char *event, const char *body)
{
  sbuf b = {0};
  sb_add(&b, "{\"seq\": %d, \"type\": \"event\", \"event\": \"%s\"", seq++, event);
  if (body)
    sb_add(&b, ", \"body\": %s", body);
  sb_add(&b, "}");
  send_raw(b.s);
  free(b.s);
}

static void send_output(const char *text)
{
  if (!text || !*text)
    return;
  sbuf b = {0};
  sb_add(&b, "{\"category\": \"console\", \"output\": ");
  sb_str(&b, text);
  sb_add(&b, "}");
  send_event("output", b.s);
  free(b.s);
}

/* The session's output sink: kept until take_output. */
static void capture_sink(void *user, const char *text, size_t len)
{
  (void)user;
  sb_add(&captured, "%.*s", (int)len, text);
}

/* What the engine said since the last call (caller frees). */
static char *take_output(void)
{
  char *t = captured.s ? captured.s : strdup("");
  captured.s = NULL;
  captured.n = captured.cap = 0;
  return t ? t : calloc(1, 1);
}

/* Runs one engine command; returns what it printed (caller frees). */
static char *run_cmd(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *run_cmd(const char *fmt, ...)
{
  char line[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  free(take_output());
  sg_dbg_command(D, line);
  return take_output();
}

/* ------------------------------------------------------------ the adapter */

static struct {
  bool launched, configured, stop_on_entry;
  int64_t thread_lane;       /* the lane the last stackTrace asked about */
  char **bp_files;           /* setBreakpoints: per source, the engine's numbers */
  int **bp_nums;
  int *bp_counts;
  int n_files;
} A;

/* The thread (lane) a stop is reported on: the focused lane, else the first
 * active one (from 'info lanes --json'). */
static int stop_thread(void)
{
  if (sg_dbg_focus_lane(D) >= 0)
    return (int)sg_dbg_focus_lane(D) + 1;
  char *t = run_cmd("info lanes --json");
  const char *a = strstr(t, "\"active\": true");
  int lane = 0;
  if (a) {
    const char *l = a;
    while (l > t && strncmp(l, "{\"lane\": ", 9))
      l--;
    lane = atoi(l + 9);
  }
  free(t);
  return lane + 1;
}

/* After a run command: a stopped event, or terminated when the kernel ended. */
static void after_run(const char *text, const char *default_reason)
{
  send_output(text);
  if (sg_dbg_finished(D)) {
    send_event("exited", "{\"exitCode\": 0}");
    send_event("terminated", NULL);
    return;
  }
  const char *reason = default_reason;
  if (strstr(text, "Breakpoint "))
    reason = "breakpoint";
  else if (strstr(text, "atchpoint "))
    reason = "data breakpoint";
  else if (strstr(text, "Stopped on the diagnostic"))
    reason = "exception";
  char body[300];
  snprintf(body, sizeof body, "{\"reason\": \"%s\", \"threadId\": %d, \"allThreadsStopped\": true}", reason,
           stop_thread());
  send_event("stopped", body);
}

static void do_launch(const jv *req)
{
  const jv *args = jget(req, "arguments");
  const char *program = jstr(args, "program");
  if (!program) {
    send_response(req, false, "launch needs \"program\": a .cl, .spv, .spvasm or .sim file", NULL);
    return;
  }
  const jv *extra = jget(args, "args");
  size_t n = extra && extra->k == J_ARR ? extra->n : 0;
  char **argv = calloc(n + 3, sizeof *argv);
  if (!argv) {
    send_response(req, false, "out of memory", NULL);
    return;
  }
  int argc = 0;
  argv[argc++] = (char *)"spirv-sgdb";
  argv[argc++] = (char *)program;
  for (size_t i = 0; i < n; i++)
    if (extra->items[i].k == J_STR)
      argv[argc++] = extra->items[i].str;
  const jv *soe = jget(args, "stopOnEntry");
  A.stop_on_entry = soe && soe->k == J_BOOL && soe->b;
  free(take_output());
  char err[2048];
  sg_dbg_config cfg = {.argc = argc, .argv = argv, .output = capture_sink};
  sg_result r = sg_dbg_create(&cfg, &D, err, sizeof err);
  free(argv);
  if (r != SG_SUCCESS) {
    char m[2200];
    fprintf(stderr, "spirv-sgdb: error: %s\n", err);
    snprintf(m, sizeof m, "cannot start the kernel: %s", err);
    send_response(req, false, m, NULL);
    free(take_output());
    return;
  }
  char banner[512];
  sg_dbg_describe(D, banner, sizeof banner);
  sb_add(&captured, "spirv-sgdb: %s\n", banner);
  char *t = take_output();
  A.launched = true;
  send_response(req, true, NULL, NULL);
  send_output(t);
  free(t);
}

static void do_set_breakpoints(const jv *req)
{
  const jv *args = jget(req, "arguments");
  const char *path = jstr(jget(args, "source"), "path");
  const jv *bps = jget(args, "breakpoints");
  if (!path || !A.launched) {
    send_response(req, false, !path ? "setBreakpoints needs source.path" : "launch first", NULL);
    return;
  }
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  /* forget this file's earlier breakpoints */
  int f;
  for (f = 0; f < A.n_files; f++)
    if (!strcmp(A.bp_files[f], path))
      break;
  if (f == A.n_files) {
    A.bp_files = realloc(A.bp_files, (size_t)(A.n_files + 1) * sizeof *A.bp_files);
    A.bp_nums = realloc(A.bp_nums, (size_t)(A.n_files + 1) * sizeof *A.bp_nums);
    A.bp_counts = realloc(A.bp_counts, (size_t)(A.n_files + 1) * sizeof *A.bp_counts);
    if (!A.bp_files || !A.bp_nums || !A.bp_counts) {
      send_response(req, false, "out of memory", NULL);
      return;
    }
    A.bp_files[f] = strdup(path);
    A.bp_nums[f] = NULL;
    A.bp_counts[f] = 0;
    A.n_files++;
  }
  for (int i = 0; i < A.bp_counts[f]; i++)
    if (A.bp_nums[f][i] > 0)
      free(run_cmd("delete %d", A.bp_nums[f][i]));
  size_t n = bps && bps->k == J_ARR ? bps->n : 0;
  free(A.bp_nums[f]);
  A.bp_nums[f] = calloc(n + 1, sizeof **A.bp_nums);
  A.bp_counts[f] = (int)n;
  sbuf b = {0};
  sb_add(&b, "{\"breakpoints\": [");
  for (size_t i = 0; i < n; i++) {
    const jv *bp = &bps->items[i];
    int line = (int)jnum(bp, "line", 0);
    const char *cond = jstr(bp, "condition");
    char *t = cond && *cond ? run_cmd("break %s:%d if %s", base, line, cond) : run_cmd("break %s:%d", base, line);
    int num = 0;
    const char *p = strstr(t, "Breakpoint ");
    if (p && !strncmp(t, "Breakpoint ", 11))
      num = atoi(p + 11);
    A.bp_nums[f][i] = num;
    sb_add(&b, "%s{\"verified\": %s, \"line\": %d", i ? ", " : "", num ? "true" : "false", line);
    if (num)
      sb_add(&b, ", \"id\": %d", num);
    else {
      char *nl = strchr(t, '\n');
      if (nl)
        *nl = 0;
      sb_add(&b, ", \"message\": ");
      sb_str(&b, t);
    }
    sb_add(&b, "}");
    free(t);
  }
  sb_add(&b, "]}");
  send_response(req, true, NULL, b.s);
  free(b.s);
}

static void do_threads(const jv *req)
{
  sbuf b = {0};
  sb_add(&b, "{\"threads\": [");
  char *t = sg_dbg_finished(D) ? strdup("") : run_cmd("info lanes --json");
  const char *p = t;
  bool first = true;
  while ((p = strstr(p, "{\"lane\": "))) {
    int lane = atoi(p + 9);
    const char *g = strstr(p, "\"global_id\": [");
    unsigned long gx = 0, gy = 0, gz = 0;
    if (g)
      sscanf(g + 14, "%lu, %lu, %lu", &gx, &gy, &gz);
    const char *act = strstr(p, "\"active\": ");
    bool active = act && !strncmp(act + 10, "true", 4);
    char name[128];
    snprintf(name, sizeof name, "lane %d (global id %lu,%lu,%lu)%s", lane, gx, gy, gz, active ? "" : " inactive");
    sb_add(&b, "%s{\"id\": %d, \"name\": ", first ? "" : ", ", lane + 1);
    sb_str(&b, name);
    sb_add(&b, "}");
    first = false;
    p += 9;
  }
  if (first)
    sb_add(&b, "{\"id\": 1, \"name\": \"lane 0\"}");
  free(t);
  sb_add(&b, "]}");
  send_response(req, true, NULL, b.s);
  free(b.s);
}

static void do_stack_trace(const jv *req)
{
  const jv *args = jget(req, "arguments");
  A.thread_lane = (int64_t)jnum(args, "threadId", 1) - 1;
  char *t = sg_dbg_finished(D) ? strdup("") : run_cmd("where --json");
  sbuf b = {0};
  sb_add(&b, "{\"stackFrames\": [");
  const char *p = t;
  int n = 0;
  while ((p = strstr(p, "{\"level\": "))) {
    int level = atoi(p + 10);
    char fn[256] = "?", file[1024] = "";
    int line = 0;
    const char *q = strstr(p, "\"function\": \"");
    if (q)
      sscanf(q + 13, "%255[^\"]", fn);
    q = strstr(p, "\"file\": \"");
    if (q)
      sscanf(q + 9, "%1023[^\"]", file);
    q = strstr(p, "\"line\": ");
    if (q)
      line = atoi(q + 8);
    if (line || !n) {
      sb_add(&b, "%s{\"id\": %d, \"name\": ", n ? ", " : "", level);
      sb_str(&b, fn);
      sb_add(&b, ", \"line\": %d, \"column\": 1", line);
      if (file[0]) {
        const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
        sb_add(&b, ", \"source\": {\"name\": ");
        sb_str(&b, base);
        sb_add(&b, ", \"path\": ");
        sb_str(&b, file);
        sb_add(&b, "}");
      }
      sb_add(&b, "}");
      n++;
    }
    p += 10;
  }
  free(t);
  sb_add(&b, "], \"totalFrames\": %d}", n);
  send_response(req, true, NULL, b.s);
  free(b.s);
}

/* variablesReference: 1000 + frame for a frame's locals, 1 for the lane's
 * work-item ids. */
static void do_scopes(const jv *req)
{
  int frame = (int)jnum(jget(req, "arguments"), "frameId", 0);
  char body[300];
  snprintf(body, sizeof body,
           "{\"scopes\": [{\"name\": \"Locals\", \"variablesReference\": %d, \"expensive\": false}, "
           "{\"name\": \"Work-item\", \"variablesReference\": 1, \"expensive\": false}]}",
           1000 + frame);
  send_response(req, true, NULL, body);
}

/* The value of expr in lane A.thread_lane, through 'print --json'. */
static bool eval_lane(const char *expr, char *val, size_t vn, char *type, size_t tn)
{
  int64_t lane = A.thread_lane >= 0 && (uint32_t)A.thread_lane < sg_dbg_lane_count(D) ? A.thread_lane : 0;
  char *t = run_cmd("print --json %s lane %" PRId64, expr, lane);
  bool ok = false;
  const char *v = strstr(t, "\"value\": \"");
  const char *e = strstr(t, "\"error\": \"");
  const char *src = v ? v + 10 : e ? e + 10 : NULL;
  if (!src && !strncmp(t, "error: ", 7))
    src = t + 7;
  size_t k = 0;
  for (; src && *src && *src != '"' && *src != '\n' && k + 1 < vn; src++) {
    if (*src == '\\' && src[1])
      src++;
    val[k++] = *src;
  }
  val[k] = 0;
  ok = v != NULL;
  type[0] = 0;
  const char *ty = strstr(t, "\"type\": \"");
  if (ty)
    sscanf(ty + 9, "%63[^\"]", type);
  (void)tn;
  free(t);
  return ok;
}

static void do_variables(const jv *req)
{
  int ref = (int)jnum(jget(req, "arguments"), "variablesReference", 0);
  sbuf b = {0};
  sb_add(&b, "{\"variables\": [");
  const char *names[128];
  uint32_t n = 0;
  static const char *const ids[] = {"get_global_id(0)", "get_local_id(0)", "get_group_id(0)",
                                    "get_sub_group_local_id()", "get_sub_group_id()"};
  if (ref == 1) {
    for (uint32_t i = 0; i < 5; i++)
      names[n++] = ids[i];
  } else if (ref >= 1000 && !sg_dbg_finished(D)) {
    n = sg_dbg_locals(D, (uint32_t)(ref - 1000), names, 128);
  }
  for (uint32_t i = 0; i < n; i++) {
    char val[512], type[64];
    if (!eval_lane(names[i], val, sizeof val, type, sizeof type) && !val[0])
      snprintf(val, sizeof val, "<unavailable>");
    sb_add(&b, "%s{\"name\": ", i ? ", " : "");
    sb_str(&b, names[i]);
    sb_add(&b, ", \"value\": ");
    sb_str(&b, val);
    sb_add(&b, ", \"type\": ");
    sb_str(&b, type);
    sb_add(&b, ", \"variablesReference\": 0}");
  }
  sb_add(&b, "]}");
  send_response(req, true, NULL, b.s);
  free(b.s);
}

static void do_evaluate(const jv *req)
{
  const char *expr = jstr(jget(req, "arguments"), "expression");
  if (!expr || sg_dbg_finished(D)) {
    send_response(req, false, !expr ? "evaluate needs an expression" : "the kernel has finished", NULL);
    return;
  }
  const char *ctx = jstr(jget(req, "arguments"), "context");
  if (ctx && !strcmp(ctx, "repl") && strncmp(expr, "print ", 6) && strncmp(expr, "p ", 2)) {
    /* the debug console: any debugger command */
    char *t = run_cmd("%s", expr);
    sbuf b = {0};
    sb_add(&b, "{\"result\": ");
    sb_str(&b, t);
    sb_add(&b, ", \"variablesReference\": 0}");
    send_response(req, true, NULL, b.s);
    free(b.s);
    free(t);
    if (sg_dbg_finished(D)) {
      send_event("exited", "{\"exitCode\": 0}");
      send_event("terminated", NULL);
    }
    return;
  }
  char val[512], type[64];
  bool ok = eval_lane(expr, val, sizeof val, type, sizeof type);
  if (!ok) {
    send_response(req, false, val[0] ? val : "cannot evaluate", NULL);
    return;
  }
  sbuf b = {0};
  sb_add(&b, "{\"result\": ");
  sb_str(&b, val);
  sb_add(&b, ", \"type\": ");
  sb_str(&b, type);
  sb_add(&b, ", \"variablesReference\": 0}");
  send_response(req, true, NULL, b.s);
  free(b.s);
}

static void run_and_report(const jv *req, const char *cmd, const char *reason)
{
  if (!A.launched) {
    send_response(req, false, "launch first", NULL);
    return;
  }
  send_response(req, true, NULL, NULL);
  if (sg_dbg_finished(D)) {
    send_event("terminated", NULL);
    return;
  }
  int64_t keep = sg_dbg_focus_lane(D);
  char *t = run_cmd("%s", cmd);
  (void)keep;
  after_run(t, reason);
  free(t);
}

/* Reads one Content-Length framed message; NULL at the end of input. */
static char *read_message(void)
{
  char line[256];
  long len = -1;
  for (;;) {
    if (!fgets(line, sizeof line, stdin))
      return NULL;
    if (!strcmp(line, "\r\n") || !strcmp(line, "\n"))
      break;
    if (!strncasecmp(line, "Content-Length:", 15))
      len = strtol(line + 15, NULL, 10);
  }
  if (len < 0 || len > (64 << 20))
    return NULL;
  char *buf = malloc((size_t)len + 1);
  if (!buf)
    return NULL;
  if (fread(buf, 1, (size_t)len, stdin) != (size_t)len) {
    free(buf);
    return NULL;
  }
  buf[len] = 0;
  return buf;
}

int sgdb_dap_main(void)
{
  proto = stdout;   /* the engine writes to its sink, never here */
  A.thread_lane = 0;
  int rc = 0;
  bool done = false;
  while (!done) {
    char *msg = read_message();
    if (!msg)
      break;
    jv req;
    if (!jparse(msg, &req, 0) || req.k != J_OBJ) {
      fprintf(stderr, "spirv-sgdb: DAP: a message that is not a JSON object was ignored\n");
      jfree(&req);
      free(msg);
      continue;
    }
    const char *cmd = jstr(&req, "command");
    if (!cmd) {
      jfree(&req);
      free(msg);
      continue;
    }
    if (!strcmp(cmd, "initialize")) {
      send_response(&req, true, NULL,
                    "{\"supportsConfigurationDoneRequest\": true, \"supportsConditionalBreakpoints\": true, "
                    "\"supportsStepBack\": true, \"supportsEvaluateForHovers\": true}");
      send_event("initialized", NULL);
    } else if (!strcmp(cmd, "launch")) {
      do_launch(&req);
    } else if (!strcmp(cmd, "setBreakpoints")) {
      do_set_breakpoints(&req);
    } else if (!strcmp(cmd, "setExceptionBreakpoints") || !strcmp(cmd, "setFunctionBreakpoints")) {
      send_response(&req, true, NULL, "{\"breakpoints\": []}");
    } else if (!strcmp(cmd, "configurationDone")) {
      send_response(&req, true, NULL, NULL);
      if (A.launched && !A.configured) {
        A.configured = true;
        if (A.stop_on_entry) {
          char body[200];
          snprintf(body, sizeof body, "{\"reason\": \"entry\", \"threadId\": 1, \"allThreadsStopped\": true}");
          send_event("stopped", body);
        } else {
          char *t = run_cmd("continue");
          after_run(t, "breakpoint");
          free(t);
        }
      }
    } else if (!strcmp(cmd, "threads")) {
      do_threads(&req);
    } else if (!strcmp(cmd, "stackTrace")) {
      do_stack_trace(&req);
    } else if (!strcmp(cmd, "scopes")) {
      do_scopes(&req);
    } else if (!strcmp(cmd, "variables")) {
      do_variables(&req);
    } else if (!strcmp(cmd, "evaluate")) {
      do_evaluate(&req);
    } else if (!strcmp(cmd, "continue")) {
      run_and_report(&req, "continue", "breakpoint");
    } else if (!strcmp(cmd, "next")) {
      run_and_report(&req, "next", "step");
    } else if (!strcmp(cmd, "stepIn")) {
      run_and_report(&req, "step", "step");
    } else if (!strcmp(cmd, "stepOut")) {
      run_and_report(&req, "finish", "step");
    } else if (!strcmp(cmd, "stepBack")) {
      run_and_report(&req, "reverse-next", "step");
    } else if (!strcmp(cmd, "reverseContinue")) {
      run_and_report(&req, "reverse-continue", "breakpoint");
    } else if (!strcmp(cmd, "pause")) {
      send_response(&req, true, NULL, NULL);
    } else if (!strcmp(cmd, "disconnect") || !strcmp(cmd, "terminate")) {
      send_response(&req, true, NULL, NULL);
      done = true;
    } else {
      char m[200];
      snprintf(m, sizeof m, "spirv-sgdb does not support the '%s' request", cmd);
      send_response(&req, false, m, NULL);
    }
    jfree(&req);
    free(msg);
  }
  sg_dbg_destroy(D);
  D = NULL;
  for (int f = 0; f < A.n_files; f++) {
    free(A.bp_files[f]);
    free(A.bp_nums[f]);
  }
  free(A.bp_files);
  free(A.bp_nums);
  free(A.bp_counts);
  free(take_output());
  fflush(proto);
  return rc;
}
