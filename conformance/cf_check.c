/* cf_check.c - "spirv-sgconform check" (module mode) and "compare"
 * (device-dump mode).  docs/conformance.md describes both.
 *
 * check: static findings (cf_ana.c) on the loader IR, then, with a run
 * description, the kernel runs at several subgroup sizes: every UB
 * diagnostic is reported, every output byte that changes with the subgroup
 * size, and every difference between the interpreter and the JIT.
 * compare: one run at the device's subgroup size against raw buffer dumps.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cf.h"
#include "cf_check.h"
#include "cf_suite.h"
#include "spirv_sg.h"

#define MAX_SHOWN 8u

typedef struct msgs { int n_warn; } msgs;

void cf_error(const char *fmt, ...)
{
  char raw[2048], msg[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  sg_escape(msg, sizeof msg, raw);
  fprintf(stderr, "spirv-sgconform: %s\n", msg);
}

static void on_msg(void *user, sg_severity sev, const char *text)
{
  msgs *mm = user;
  if (sev == SG_SEV_ERROR)
    cf_error("%s", text);
  else if (sev == SG_SEV_WARNING && mm && mm->n_warn++ < 5)
    cf_error("warning: %s", text);
}

static bool ends_with(const char *s, const char *suf)
{
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

static int run_tool(char *const *argv)
{
  pid_t p = fork();
  if (p < 0)
    return -1;
  if (p == 0) {
    execvp(argv[0], argv);
    _exit(127);
  }
  int st;
  if (waitpid(p, &st, 0) < 0)
    return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* .cl input is compiled here with -debug-info-kind=limited so findings carry
 * source lines (the library compiles without debug info). */
static sg_result load_module(const cf_check_opts *o, const char *path, sg_module **out, msgs *mm)
{
  sg_load_options lo = {.validate = o->no_validate ? SG_VALIDATE_OFF : SG_VALIDATE_WARN, .opt_level = -1,
                        .message = on_msg, .message_user = mm, .max_module_bytes = o->max_module_bytes,
                        .max_instructions = o->max_instructions,
                        .max_validate_instructions = o->max_validate_insns};
  if (!ends_with(path, ".cl"))
    return sg_module_load_file(path, &lo, out);
  char dir[] = "/tmp/sgconform-cl.XXXXXX";
  if (!mkdtemp(dir))
    return sg_module_load_file(path, &lo, out);
  char bc[64], spv[64];
  snprintf(bc, sizeof bc, "%s/k.bc", dir);
  snprintf(spv, sizeof spv, "%s/k.spv", dir);
  char *abs = realpath(path, NULL);
  sg_result r = SG_ERROR_IO;
  if (!abs) {
    cf_error("%s: %s", path, strerror(errno));
    rmdir(dir);
    return SG_ERROR_IO;
  }
  char *const cc[] = {"clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL3.0",
                      "-finclude-default-header", "-no-opaque-pointers", "-cl-ext=+all",
                      "-emit-llvm-bc", "-O2", "-debug-info-kind=limited", "-dwarf-version=4",
                      "-o", bc, abs, NULL};
  char *const ls[] = {"llvm-spirv-15", "--spirv-ext=+all", bc, "-o", spv, NULL};
  int rc = run_tool(cc);
  if (rc == 0)
    rc = run_tool(ls);
  if (rc != 0) {
    /* no tools or a compile error: the library's own path says which */
    r = sg_module_load_file(path, &lo, out);
  } else {
    FILE *f = fopen(spv, "rb");
    uint8_t *buf = NULL;
    size_t n = 0;
    if (f && fseek(f, 0, SEEK_END) == 0) {
      long sz = ftell(f);
      if (sz > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)sz)) &&
          fread(buf, 1, (size_t)sz, f) == (size_t)sz)
        n = (size_t)sz;
    }
    if (f)
      fclose(f);
    r = n ? sg_module_load_memory(buf, n, path, &lo, out) : sg_module_load_file(path, &lo, out);
    free(buf);
  }
  unlink(bc);
  unlink(spv);
  rmdir(dir);
  free(abs);
  return r;
}

/* ------------------------------------------------------------- launches */

typedef struct launch_src {
  sg_module *m;
  sg_runfile *rf;
  const sg_kernel_info *k;
  const sg_arg *args;
  uint32_t n_args;
  size_t global[3], local[3];
  uint64_t step_limit;     /* --step-limit; 0 = the default */
  double time_limit;       /* --timeout, else the run file's; 0 = none */
  uint64_t max_private_memory;
} launch_src;

typedef struct run_res {
  bool ok;
  char err[512];
  sg_report *rep;
  uint8_t **bufs;     /* [n_args] copies of buffer args after the run (NULL for others) */
} run_res;

static void run_free(run_res *r, uint32_t n)
{
  sg_report_destroy(r->rep);
  if (r->bufs)
    for (uint32_t i = 0; i < n; ++i)
      free(r->bufs[i]);
  free(r->bufs);
  memset(r, 0, sizeof *r);
}

static void run_at(const launch_src *ls, uint32_t S, sg_backend be, uint32_t checks, run_res *r)
{
  memset(r, 0, sizeof *r);
  sg_arg *a = calloc(ls->n_args + 1, sizeof *a);
  r->bufs = calloc(ls->n_args + 1, sizeof *r->bufs);
  if (!a || !r->bufs) {
    snprintf(r->err, sizeof r->err, "out of memory");
    free(a);
    return;
  }
  for (uint32_t i = 0; i < ls->n_args; ++i) {
    a[i] = ls->args[i];
    if (a[i].kind == SG_ARG_BUFFER && a[i].data) {
      r->bufs[i] = malloc(a[i].size + 1);
      if (!r->bufs[i]) {
        snprintf(r->err, sizeof r->err, "out of memory");
        free(a);
        return;
      }
      memcpy(r->bufs[i], a[i].data, a[i].size);
      a[i].data = r->bufs[i];
    }
  }
  sg_run_desc d = {.kernel = ls->k->name, .work_dim = 3, .subgroup_size = S, .args = a,
                   .n_args = ls->n_args, .backend = be, .repeat = 1, .jit_opt_level = -1,
                   .ub = SG_UB_WARN, .checks = checks, .step_limit = ls->step_limit,
                   .time_limit = ls->time_limit, .max_private_memory = ls->max_private_memory};
  for (int i = 0; i < 3; ++i) {
    d.global_size[i] = ls->global[i];
    d.local_size[i] = ls->local[i];
  }
  sg_result res = sg_run(ls->m, &d, &r->rep, r->err, sizeof r->err);
  free(a);
  r->ok = res == SG_SUCCESS || res == SG_FAULTED;
  if (!r->ok && !r->err[0])
    snprintf(r->err, sizeof r->err, "%s", sg_result_name(res));
}

/* Element type of argument i for printing. */
static void arg_elem(const launch_src *ls, uint32_t i, sg_scalar *s, bool *hex)
{
  uint32_t no = 0;
  const sg_runfile_output *outs = ls->rf ? sg_runfile_outputs(ls->rf, &no) : NULL;
  *hex = false;
  *s = SG_S_UCHAR;
  for (uint32_t k = 0; k < no; ++k)
    if (outs[k].arg == i) {
      *s = outs[k].scalar;
      *hex = outs[k].hex;
      return;
    }
  if (i < ls->k->n_args && ls->k->args[i].scalar != SG_S_NONE && ls->k->args[i].scalar != SG_S_BOOL)
    *s = ls->k->args[i].scalar;
}

/* s escaped for the text report (sg_escape): names and messages come from
 * the module.  Four buffers in turn, for up to four uses in one printf. */
static const char *esc(const char *s)
{
  static char buf[4][1024];
  static unsigned k;
  char *b = buf[k++ % 4];
  sg_escape(b, sizeof buf[0], s ? s : "");
  return b;
}

static const char *arg_raw_name(const launch_src *ls, uint32_t i)
{
  return i < ls->k->n_args && ls->k->args[i].name ? ls->k->args[i].name : "?";
}

static const char *arg_name(const launch_src *ls, uint32_t i) { return esc(arg_raw_name(ls, i)); }

static bool is_output(const launch_src *ls, uint32_t i)
{
  return ls->args[i].kind == SG_ARG_BUFFER && ls->args[i].data &&
         !(i < ls->k->n_args && (ls->k->args[i].is_const || ls->k->args[i].is_constant_space));
}

static int open_launch(const cf_check_opts *o, const char *module_path, launch_src *ls, msgs *mm)
{
  char err[1024] = "";
  memset(ls, 0, sizeof *ls);
  ls->step_limit = o->step_limit;
  ls->time_limit = o->time_limit;
  ls->max_private_memory = o->max_private_memory;
  const char *rfpath = o->runfile;
  if (!rfpath && ends_with(o->file, ".sim"))
    rfpath = o->file;
  if (rfpath) {
    if (sg_runfile_open(rfpath, &ls->rf, err, sizeof err) != SG_SUCCESS) {
      cf_error("%s", err);
      return 2;
    }
    if (!module_path || module_path == rfpath)
      module_path = sg_runfile_module_path(ls->rf);
    if (!ls->time_limit)
      ls->time_limit = sg_runfile_timeout(ls->rf);
  }
  if (load_module(o, module_path, &ls->m, mm) != SG_SUCCESS)
    return 2;
  if (ls->rf) {
    if (sg_runfile_bind(ls->rf, ls->m, err, sizeof err) != SG_SUCCESS) {
      cf_error("%s", err);
      return 2;
    }
    ls->k = sg_module_find_kernel(ls->m, sg_runfile_kernel(ls->rf));
    ls->args = sg_runfile_args(ls->rf, &ls->n_args);
    sg_runfile_ndrange(ls->rf, ls->global, ls->local);
    if (!ls->k) {
      cf_error("%s: no kernel '%s'", module_path, sg_runfile_kernel(ls->rf));
      return 2;
    }
  }
  return 0;
}

static void close_launch(launch_src *ls)
{
  sg_runfile_destroy(ls->rf);
  sg_module_destroy(ls->m);
}

static uint32_t parse_sizes(const char *list, uint32_t *out, uint32_t max)
{
  static const uint32_t def[] = {1, 4, 8, 16, 32, 64, 12};
  uint32_t n = 0;
  if (!list) {
    for (; n < sizeof def / sizeof def[0] && n < max; ++n)
      out[n] = def[n];
    return n;
  }
  for (const char *p = list; *p && n < max;) {
    char *e;
    unsigned long v = strtoul(p, &e, 10);
    if (e == p)
      break;
    if (v >= 1 && v <= 128)
      out[n++] = (uint32_t)v;
    p = *e == ',' ? e + 1 : e;
  }
  return n;
}

/* Lane coordinates of element `el` of a buffer with n_elems elements when
 * it is indexed by the linear global id. */
static void coord(const launch_src *ls, uint32_t S, size_t n_elems, size_t el, char *buf, size_t size)
{
  size_t items = ls->global[0] * (ls->global[1] ? ls->global[1] : 1) * (ls->global[2] ? ls->global[2] : 1);
  if (n_elems != items || !ls->local[0]) {
    snprintf(buf, size, "element %zu", el);
    return;
  }
  size_t gx = ls->global[0], gy = ls->global[1] ? ls->global[1] : 1;
  size_t x = el % gx, y = (el / gx) % gy, z = el / (gx * gy);
  size_t lx = ls->local[0], ly = ls->local[1] ? ls->local[1] : 1, lz = ls->local[2] ? ls->local[2] : 1;
  size_t wx = x / lx, wy = y / ly, wz = z / lz;
  size_t lin = (x % lx) + (y % ly) * lx + (z % lz) * lx * ly;
  (void)lz;
  snprintf(buf, size, "element %zu = work-group (%zu,%zu,%zu) subgroup %zu lane %zu", el, wx, wy, wz,
           lin / S, lin % S);
}

/* ------------------------------------------------------------ check mode */

/* ------------------------------------------------------- check --json */

/* The JSON object of "check --json":
 *   {"mode": "check", "file": F, "static": [FINDING...],
 *    "dynamic": null | {"kernel", "global", "local", "sizes",
 *                       "findings": [DYN...], "backends_agree", "jit_fell_back"},
 *    "findings": N}
 * The text report is written to a discarded memory stream meanwhile. */
typedef struct json_out {
  FILE *f;            /* the JSON under construction (NULL without --json) */
  char *buf;
  size_t len;
  FILE *sink;         /* the discarded text report */
  char *sink_buf;
  size_t sink_len;
  bool first;         /* no item yet in the current list */
} json_out;

static void json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (; s && *s; ++s) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static bool json_open(json_out *j, FILE **txt)
{
  j->f = open_memstream(&j->buf, &j->len);
  j->sink = open_memstream(&j->sink_buf, &j->sink_len);
  if (!j->f || !j->sink) {
    if (j->f)
      fclose(j->f);
    if (j->sink)
      fclose(j->sink);
    free(j->buf);
    free(j->sink_buf);
    memset(j, 0, sizeof *j);
    return false;
  }
  *txt = j->sink;
  j->first = true;
  fputs("\"static\": [", j->f);
  return true;
}

static void json_item(json_out *j)
{
  if (!j->f)
    return;
  if (!j->first)
    fputs(", ", j->f);
  j->first = false;
}

static void json_close_list(json_out *j, const char *what)
{
  (void)what;
  if (!j->f)
    return;
  fputs("], \"dynamic\": {", j->f);
  j->first = true;
}

static void json_simple(json_out *j, const char *kind, uint32_t S, const char *backend, const char *text)
{
  if (!j->f)
    return;
  json_item(j);
  fprintf(j->f, "{\"kind\": \"%s\", \"size\": %u, \"backend\": \"%s\", \"text\": ", kind, S, backend);
  json_str(j->f, text);
  fputc('}', j->f);
}

/* dyn NULL: no run description ("dynamic": null); findings < 0: give up
 * (out of memory).  Prints the object and releases everything. */
static void json_finish(json_out *j, FILE **txt, const char *file, const char *dyn, int findings)
{
  if (!j->f)
    return;
  fclose(j->f);
  fclose(j->sink);
  free(j->sink_buf);
  *txt = stdout;
  if (findings >= 0 && j->buf) {
    /* the static list was closed with an opened dynamic object: undo it when
     * there is no dynamic part */
    const char *open = "\"dynamic\": {";
    char *d = strstr(j->buf, open);
    fputs("{\"mode\": \"check\", \"file\": ", stdout);
    json_str(stdout, file);
    fputs(", ", stdout);
    if (!dyn && d) {
      fwrite(j->buf, 1, (size_t)(d - j->buf), stdout);
      fputs("\"dynamic\": null", stdout);
    } else {
      fputs(j->buf, stdout);
      fputc('}', stdout);
    }
    printf(", \"findings\": %d}\n", findings);
  }
  free(j->buf);
  memset(j, 0, sizeof *j);
}

int cf_check_run(const cf_check_opts *o)
{
  msgs mm = {0};
  launch_src ls;
  int rc = open_launch(o, o->file, &ls, &mm);
  if (rc) {
    close_launch(&ls);
    return rc;
  }
  int findings = 0;
  /* --json: the text report goes nowhere, the same findings into one JSON
   * object (docs/conformance.md) */
  json_out j = {0};
  FILE *txt = stdout;
  if (o->json_out && !json_open(&j, &txt)) {
    cf_error("out of memory");
    close_launch(&ls);
    return 2;
  }
  /* static */
  cf_findings fs = {0};
  const ld_module *ir = sg_module_ir(ls.m);
  if (!cf_analyze(ir, &fs))
    cf_error("out of memory in the static analysis");
  fprintf(txt, "== static checks: %s\n", esc(sg_module_path(ls.m)));
  for (uint32_t i = 0; i < fs.n; ++i)
  {
    fprintf(txt, "%s: error: %s\n", esc(fs.v[i].where), esc(fs.v[i].text));
    if (!j.f)
      continue;
    json_item(&j);
    fputs("{\"where\": ", j.f);
    json_str(j.f, fs.v[i].where);
    fprintf(j.f, ", \"line\": %u, \"branch_line\": %u, \"uniformity\": %s, \"text\": ", fs.v[i].line,
            fs.v[i].branch_line, fs.v[i].uniformity ? "true" : "false");
    json_str(j.f, fs.v[i].text);
    fputc('}', j.f);
  }
  json_close_list(&j, "static");
  if (!fs.n)
    fprintf(txt, "no findings\n");
  findings += (int)fs.n;
  free(fs.v);
  if (!ls.rf) {
    fprintf(txt, "(no run description: dynamic checks skipped)\n");
    json_finish(&j, &txt, sg_module_path(ls.m), NULL, findings);
    close_launch(&ls);
    return findings ? 1 : 0;
  }
  /* dynamic */
  uint32_t sizes[32], n_sizes = parse_sizes(o->sizes, sizes, 32);
  uint32_t req = ls.k->reqd_subgroup_size ? ls.k->reqd_subgroup_size : sg_runfile_subgroup_size(ls.rf);
  bool required = o->required_size || ls.k->reqd_subgroup_size;
  if (ls.k->reqd_subgroup_size) {
    sizes[0] = req;
    n_sizes = 1;
  } else if (o->required_size && req) {
    sizes[0] = req;
    n_sizes = 1;
  }
  fprintf(txt, "== dynamic checks: kernel %s, global (%zu,%zu,%zu) local (%zu,%zu,%zu), subgroup sizes",
         esc(ls.k->name), ls.global[0], ls.global[1], ls.global[2], ls.local[0], ls.local[1], ls.local[2]);
  for (uint32_t i = 0; i < n_sizes; ++i)
    fprintf(txt, " %u", sizes[i]);
  fprintf(txt, "\n");
  if (j.f) {
    fprintf(j.f, "\"kernel\": ");
    json_str(j.f, ls.k->name);
    fprintf(j.f, ", \"global\": [%zu, %zu, %zu], \"local\": [%zu, %zu, %zu], \"sizes\": [", ls.global[0],
            ls.global[1], ls.global[2], ls.local[0], ls.local[1], ls.local[2]);
    for (uint32_t i = 0; i < n_sizes; ++i)
      fprintf(j.f, "%s%u", i ? ", " : "", sizes[i]);
    fputs("], \"findings\": [", j.f);
  }
  run_res *rr = calloc(n_sizes, sizeof *rr);
  if (!rr) {
    json_finish(&j, &txt, NULL, NULL, -1);
    close_launch(&ls);
    return 2;
  }
  uint32_t base = UINT32_MAX;
  char first_err[sizeof rr[0].err] = "";
  for (uint32_t i = 0; i < n_sizes; ++i) {
    run_at(&ls, sizes[i], SG_BACKEND_INTERP, o->checks, &rr[i]);
    if (!rr[i].ok) {
      if (!first_err[0])
        snprintf(first_err, sizeof first_err, "%s", rr[i].err);
      fprintf(txt, "S=%u: launch failed: %s\n", sizes[i], esc(rr[i].err));
      json_simple(&j, "launch_failed", sizes[i], "interp", rr[i].err);
      findings++;
      continue;
    }
    if (base == UINT32_MAX)
      base = i;
    for (uint32_t d = 0; d < rr[i].rep->n_diags; ++d) {
      const sg_diag *g = &rr[i].rep->diags[d];
      /* The formatted line starts with its class ("fault: " or "ub: "): a
       * detector's report ("fault: data race: ...") is shown as it is; the
       * others get the spelled-out class instead of both ("fault: fault: ..."). */
      const char *line = g->formatted ? g->formatted : g->message;
      if (g->n_accesses) {
        fprintf(txt, "S=%u: %s\n", sizes[i], esc(line));
      } else {
        const char *cls = g->is_ub ? "ub: " : "fault: ";
        if (!strncmp(line, cls, strlen(cls)))
          line += strlen(cls);
        fprintf(txt, "S=%u: %s: %s\n", sizes[i], g->is_ub ? "undefined behaviour" : "fault", esc(line));
      }
      json_simple(&j, g->is_ub ? "undefined_behaviour" : !g->n_accesses ? "fault"
                      : !strcmp(g->kind, "data race") ? "data_race"
                      : !strcmp(g->kind, "lockstep assumption") ? "lockstep" : "uninitialized",
                  sizes[i], "interp", g->formatted ? g->formatted : g->message);
      findings++;
    }
  }
  /* portability: outputs that change with the subgroup size */
  if (base != UINT32_MAX && !required) {
    for (uint32_t a = 0; a < ls.n_args; ++a) {
      if (!is_output(&ls, a))
        continue;
      sg_scalar sc;
      bool hex;
      arg_elem(&ls, a, &sc, &hex);
      size_t es = sg_scalar_size(sc) ? sg_scalar_size(sc) : 1, ne = ls.args[a].size / es;
      uint32_t shown = 0;
      size_t n_diff = 0;
      for (size_t el = 0; el < ne; ++el) {
        bool diff = false;
        for (uint32_t i = 0; i < n_sizes; ++i)
          if (rr[i].ok && memcmp(rr[i].bufs[a] + el * es, rr[base].bufs[a] + el * es, es) != 0)
            diff = true;
        if (!diff)
          continue;
        if (!n_diff++) {
          char lines[600];
          fprintf(txt, "portability: argument '%s' depends on the subgroup size", arg_name(&ls, a));
          lines[0] = 0;
          if (cf_store_lines(ir, a, lines, sizeof lines))
            fprintf(txt, " (stored at %s)", lines);
          fprintf(txt, ":\n");
          if (j.f) {
            json_item(&j);
            fputs("{\"kind\": \"portability\", \"argument\": ", j.f);
            json_str(j.f, arg_raw_name(&ls, a));
            fputs(", \"stored_at\": ", j.f);
            json_str(j.f, lines);
            fputs(", \"elements\": [", j.f);
          }
        }
        if (shown++ < MAX_SHOWN) {
          fprintf(txt, "  %s[%zu]:", arg_name(&ls, a), el);
          for (uint32_t i = 0; i < n_sizes; ++i) {
            char v[64] = "-";
            if (rr[i].ok)
              sg_format_value(v, sizeof v, sc, hex, rr[i].bufs[a] + el * es);
            fprintf(txt, " S=%u: %s%s", sizes[i], v, i + 1 < n_sizes ? "," : "");
          }
          fprintf(txt, "\n");
          if (j.f) {
            fprintf(j.f, "%s{\"index\": %zu, \"values\": {", shown > 1 ? ", " : "", el);
            for (uint32_t i = 0; i < n_sizes; ++i) {
              char v[64] = "-";
              if (rr[i].ok)
                sg_format_value(v, sizeof v, sc, hex, rr[i].bufs[a] + el * es);
              fprintf(j.f, "%s\"%u\": ", i ? ", " : "", sizes[i]);
              json_str(j.f, v);
            }
            fputs("}}", j.f);
          }
        }
      }
      if (n_diff > MAX_SHOWN)
        fprintf(txt, "  ... %zu more elements\n", n_diff - MAX_SHOWN);
      if (n_diff) {
        findings++;
        if (j.f)
          fprintf(j.f, "], \"n_elements\": %zu}", n_diff);
      }
    }
  }
  /* backends */
  uint32_t jit_same = 0, jit_fell = 0;
  for (uint32_t i = 0; i < n_sizes; ++i) {
    if (!rr[i].ok)
      continue;
    run_res jr;
    run_at(&ls, sizes[i], SG_BACKEND_JIT, 0, &jr);
    if (!jr.ok) {
      fprintf(txt, "S=%u: jit: launch failed: %s\n", sizes[i], esc(jr.err));
      json_simple(&j, "launch_failed", sizes[i], "jit", jr.err);
      findings++;
    } else if (!jr.rep->backend || strcmp(jr.rep->backend, "jit") != 0) {
      fprintf(txt, "S=%u: jit: fell back to the interpreter (%s): backend comparison skipped\n", sizes[i],
             jr.rep->fallback_reason ? jr.rep->fallback_reason : "no reason given");
      json_simple(&j, "jit_fell_back", sizes[i], "jit",
                  jr.rep->fallback_reason ? jr.rep->fallback_reason : "no reason given");
      jit_fell++;
    } else {
      bool same = true;
      for (uint32_t a = 0; a < ls.n_args; ++a) {
        if (!is_output(&ls, a) || memcmp(jr.bufs[a], rr[i].bufs[a], ls.args[a].size) == 0)
          continue;
        sg_scalar sc;
        bool hex;
        arg_elem(&ls, a, &sc, &hex);
        size_t es = sg_scalar_size(sc) ? sg_scalar_size(sc) : 1, ne = ls.args[a].size / es;
        uint32_t shown = 0;
        same = false;
        fprintf(txt, "S=%u: backends differ on argument '%s':\n", sizes[i], arg_name(&ls, a));
        if (j.f) {
          json_item(&j);
          fprintf(j.f, "{\"kind\": \"backends_differ\", \"size\": %u, \"argument\": ", sizes[i]);
          json_str(j.f, arg_raw_name(&ls, a));
          fputs(", \"elements\": [", j.f);
        }
        for (size_t el = 0; el < ne && shown < MAX_SHOWN; ++el)
          if (memcmp(jr.bufs[a] + el * es, rr[i].bufs[a] + el * es, es) != 0) {
            char v1[64], v2[64];
            sg_format_value(v1, sizeof v1, sc, hex, rr[i].bufs[a] + el * es);
            sg_format_value(v2, sizeof v2, sc, hex, jr.bufs[a] + el * es);
            fprintf(txt, "  %s[%zu]: interp %s, jit %s\n", arg_name(&ls, a), el, v1, v2);
            if (j.f) {
              fprintf(j.f, "%s{\"index\": %zu, \"interp\": ", shown ? ", " : "", el);
              json_str(j.f, v1);
              fputs(", \"jit\": ", j.f);
              json_str(j.f, v2);
              fputc('}', j.f);
            }
            shown++;
          }
        if (j.f)
          fputs("]}", j.f);
        findings++;
      }
      jit_same += same;
    }
    run_free(&jr, ls.n_args);
  }
  fprintf(txt, "backends: interp and jit agree at %u of %u sizes%s\n", jit_same, n_sizes,
         jit_fell ? " (the JIT fell back at some: see above)" : "");
  for (uint32_t i = 0; i < n_sizes; ++i)
    run_free(&rr[i], ls.n_args);
  free(rr);
  fprintf(txt, "%d finding%s\n", findings, findings == 1 ? "" : "s");
  if (j.f)
    fprintf(j.f, "], \"backends_agree\": %u, \"jit_fell_back\": %u", jit_same, jit_fell);
  json_finish(&j, &txt, sg_module_path(ls.m), "", findings);
  close_launch(&ls);
  /* no launch at any size: the run description is at fault (an NDRange
   * too large, an allocation past a limit), a clear error, not a finding */
  if (base == UINT32_MAX && first_err[0]) {
    cf_error("%s: the kernel cannot be launched at any subgroup size: %s", o->runfile ? o->runfile : o->file,
             first_err);
    return 2;
  }
  return findings ? 1 : 0;
}

/* ---------------------------------------------------------- compare mode */

static uint8_t *read_all(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0, len = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 4096;
      uint8_t *nb = realloc(buf, cap);
      if (!nb) { free(buf); fclose(f); return NULL; }
      buf = nb;
    }
    size_t r = fread(buf + len, 1, cap - len, f);
    len += r;
    if (r == 0)
      break;
  }
  fclose(f);
  *n = len;
  return buf;
}

int cf_compare_run(const cf_check_opts *o)
{
  msgs mm = {0};
  launch_src ls;
  /* a missing or mistyped folder is bad input (exit 2), not "0 buffers
     compared" as a finding */
  struct stat st;
  int bad = stat(o->device_dir, &st) != 0 ? errno : 0;
  if (bad || !S_ISDIR(st.st_mode)) {
    cf_error("--device-output %s: %s", o->device_dir, bad ? strerror(bad) : "not a directory");
    return 2;
  }
  int rc = open_launch(o, o->file, &ls, &mm);
  if (rc || !ls.rf) {
    if (!rc)
      cf_error("compare needs a run description");
    close_launch(&ls);
    return 2;
  }
  run_res r;
  run_at(&ls, o->device_sg, SG_BACKEND_INTERP, 0, &r);
  if (!r.ok) {
    cf_error("launch at S=%u failed: %s", o->device_sg, r.err);
    run_free(&r, ls.n_args);
    close_launch(&ls);
    return 2;
  }
  for (uint32_t d = 0; d < r.rep->n_diags; ++d)
    printf("note: our run reports: %s\n", esc(r.rep->diags[d].formatted ? r.rep->diags[d].formatted
                                                                        : r.rep->diags[d].message));
  uint32_t compared = 0, differing = 0;
  for (uint32_t a = 0; a < ls.n_args; ++a) {
    if (!is_output(&ls, a))
      continue;
    char p1[1200], p2[1200];
    snprintf(p1, sizeof p1, "%s/%s.bin", o->device_dir, arg_raw_name(&ls, a));
    snprintf(p2, sizeof p2, "%s/arg%u.bin", o->device_dir, a);
    size_t n = 0;
    const char *used = p1;
    uint8_t *dev = read_all(p1, &n);
    if (!dev) {
      dev = read_all(p2, &n);
      used = p2;
    }
    if (!dev) {
      printf("argument '%s': no dump (%s or %s): skipped\n", arg_name(&ls, a), p1, p2);
      continue;
    }
    compared++;
    sg_scalar sc;
    bool hex;
    arg_elem(&ls, a, &sc, &hex);
    size_t es = sg_scalar_size(sc) ? sg_scalar_size(sc) : 1, ne = ls.args[a].size / es;
    if (n != ls.args[a].size) {
      printf("argument '%s': %s has %zu bytes, the buffer %zu\n", arg_name(&ls, a), used, n,
             ls.args[a].size);
      differing++;
      free(dev);
      continue;
    }
    size_t n_diff = 0;
    for (size_t el = 0; el < ne; ++el) {
      if (memcmp(dev + el * es, r.bufs[a] + el * es, es) == 0)
        continue;
      if (!n_diff++)
        printf("argument '%s' (%s) differs:\n", arg_name(&ls, a), used);
      if (n_diff <= MAX_SHOWN) {
        char c[200], v1[64], v2[64];
        coord(&ls, r.rep->subgroup_size, ne, el, c, sizeof c);
        sg_format_value(v1, sizeof v1, sc, hex, r.bufs[a] + el * es);
        sg_format_value(v2, sizeof v2, sc, hex, dev + el * es);
        printf("  %s[%zu] (%s): expected %s, device %s\n", arg_name(&ls, a), el, c, v1, v2);
      }
    }
    if (n_diff > MAX_SHOWN)
      printf("  ... %zu more elements\n", n_diff - MAX_SHOWN);
    if (n_diff) {
      printf("  %zu of %zu elements differ\n", n_diff, ne);
      differing++;
    } else {
      printf("argument '%s': identical (%zu elements)\n", arg_name(&ls, a), ne);
    }
    free(dev);
  }
  if (!compared)
    cf_error("no dumps found in %s (expected NAME.bin or argN.bin per output argument)", o->device_dir);
  else
    printf("%u buffer%s compared, %u differ\n", compared, compared == 1 ? "" : "s", differing);
  run_free(&r, ls.n_args);
  close_launch(&ls);
  /* nothing to compare is an error in the input, as the folder check above */
  return !compared ? 2 : differing ? 1 : 0;
}
