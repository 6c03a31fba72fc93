/* sgconform.c - spirv-sgconform: the offline conformance checker.
 *
 *   spirv-sgconform suite [options]        generated matrix, verified per lane
 *   spirv-sgconform check FILE [RUNFILE]   static + dynamic checks of a kernel
 *   spirv-sgconform compare FILE RUNFILE --device-output DIR --subgroup-size S
 *
 * Exit codes: 0 clean, 1 failures / findings, 2 bad usage or input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cf_suite.h"
#include "spirv_sg.h"
#include "sg_internal.h"

static void usage(FILE *f)
{
  fputs("usage: spirv-sgconform suite [--full] [--op LIST] [--type LIST] [--size LIST]\n"
        "                             [--backend interp|jit|all] [--shard K/N] [--case NAME]\n"
        "                             [--json] [--no-progress] [--max-failures N] [--work-dir DIR]\n"
        "                             [--plant-wrong OP] [--break-op OPCODE] [--count]\n"
        "                             [--jit-opt N] [-j N | --jobs N]\n"
        "                             [--results DIR] [--baseline FILE] [--flakes FILE] [--retries N]\n"
        "       spirv-sgconform merge DIR [--quiet]\n"
        "       spirv-sgconform check FILE [RUNFILE] [--sizes LIST] [--required-size] [--json]\n"
        "                             [--data-races] [--lockstep] [--uninitialized] [--check-all]\n"
        "       spirv-sgconform compare FILE RUNFILE --device-output DIR --subgroup-size S\n"
        "suite, check and compare also take spirv-sgrun's limits (docs/limits.md): --step-limit N\n"
        "(suite default 2^24), --timeout SECONDS (per launch; else the run file's #sg: timeout=),\n"
        "--max-module-size BYTES, --max-instructions N, --max-validate-instructions N,\n"
        "--no-validate, --max-private-memory BYTES\n"
        "(FILE may be the run file itself: FILE.sim names the kernel file)\n"
        "LIST is comma-separated; --op takes operation names (reduce_add), family names\n"
        "(khr, query, ext_types, vote, ballot, arith, shuffle, shuffle_rel, clustered,\n"
        "rotate, intel, intel_block, intel_spv, intel_image_block,\n"
        "sg_barrier) or OpenCL C spellings.\n"
        "-j N, --jobs N: run the cases on N worker processes (default 1; 0 or 'auto' = the\n"
        "number of online CPUs); the output is the same as with -j 1 apart from timings.\n"
        "--jit-opt N: the JIT's compile level (0-3; default: the JIT's own, -O2).\n"
        "--results DIR: also write this shard's result file and JUnit XML into DIR\n"
        "(shard-K-of-N.result / .xml, each renamed into place); `merge DIR` combines them:\n"
        "totals, failures, missing or failed shards and the command to rerun those\n"
        "(exit 0 only when all N shards are there and passed).  A failed case is run\n"
        "again --retries times (default 1): passing then makes it a flake, reported\n"
        "but neither passed nor failed.  --baseline FILE: case names expected to fail\n"
        "(one a line); --flakes FILE: known flaky cases (two more retries).\n"
        "--count prints the number of cases, kernel files, modules, kernels and\n"
        "(module, size) / (kernel, size) pairs the selection needs.  See docs/conformance.md.\n", f);
}

static const char *need(int argc, char **argv, int *i)
{
  if (*i + 1 >= argc) {
    cf_error("%s needs a value", argv[*i]);
    return NULL;
  }
  return argv[++*i];
}

/* spirv-sgrun's limit flags (docs/limits.md), parsed by spirv-sgrun's own
 * option parser (src/runopts.c), so names, forms and messages are one:
 * 1 taken, 0 not one of them, -1 malformed (reported). */
static int limit_option(int argc, char **argv, int *i, cf_check_opts *o)
{
  static const char *const limits[] = {"--step-limit", "--timeout", "--time-limit", "--max-private-memory",
                                       "--max-module-size", "--max-instructions",
                                       "--max-validate-instructions", "--no-validate"};
  char name[64];
  const char *val;
  sg_opt_split(argv[*i], name, sizeof name, &val);
  size_t k = 0;
  while (k < sizeof limits / sizeof limits[0] && strcmp(name, limits[k]))
    k++;
  if (k == sizeof limits / sizeof limits[0])
    return 0;
  sg_run_opts r;
  char err[512];
  sg_run_opts_init(&r, 0);
  int taken = sg_run_opts_parse(&r, argc, argv, i, err, sizeof err);
  if (taken < 0) {
    cf_error("%s", err);
    sg_run_opts_free(&r);
    return -1;
  }
  /* only the one option given is set in r */
  if (r.step_limit) o->step_limit = r.step_limit;
  if (r.time_limit > 0) o->time_limit = r.time_limit;
  if (r.max_private_memory) o->max_private_memory = r.max_private_memory;
  if (r.max_module_bytes) o->max_module_bytes = r.max_module_bytes;
  if (r.max_instructions) o->max_instructions = r.max_instructions;
  if (r.max_validate_instructions) o->max_validate_insns = r.max_validate_instructions;
  if (r.validate == SG_VALIDATE_OFF) o->no_validate = true;
  sg_run_opts_free(&r);
  return 1;
}

/* Appends a shell-quoted word to buf (the rerun line of a merge must paste
 * back into a shell exactly). */
static void add_word(char *buf, size_t size, const char *w)
{
  size_t l = strlen(buf);
  bool plain = *w != 0;
  for (const char *p = w; *p; ++p)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,=:+@%", *p))
      plain = false;
  if (l && l + 1 < size)
    buf[l++] = ' ';
  if (plain) {
    snprintf(buf + l, size - l, "%s", w);
    return;
  }
  if (l + 1 < size)
    buf[l++] = '\'';
  for (const char *p = w; *p && l + 5 < size; ++p) {
    if (*p == '\'') {
      memcpy(buf + l, "'\\''", 4);
      l += 4;
    } else {
      buf[l++] = *p;
    }
  }
  if (l + 1 < size)
    buf[l++] = '\'';
  buf[l < size ? l : size - 1] = 0;
}

static int main_suite(int argc, char **argv)
{
  static char wd[512], rerun[4096];
  cf_suite_opts o = {.argv0 = "spirv-sgconform", .max_failures = 20, .progress = isatty(2), .jit_opt = -1,
                     .retries = 1, .rerun_args = rerun};
  /* the options that choose what runs, for the rerun line of `merge` (not
   * --shard, --results, -j, output and work-directory options) */
  for (int i = 2; i < argc; ++i) {
    static const char *const skip1[] = {"--json", "--progress", "--no-progress", "--count"};
    static const char *const skip2[] = {"--shard", "--results", "-j", "--jobs", "--work-dir", "--max-failures"};
    const char *a = argv[i];
    bool skip = false;
    for (size_t k = 0; k < sizeof skip1 / sizeof *skip1; ++k)
      skip = skip || strcmp(a, skip1[k]) == 0;
    for (size_t k = 0; k < sizeof skip2 / sizeof *skip2; ++k)
      if (strcmp(a, skip2[k]) == 0) {
        skip = true;
        ++i;
      }
    if (strncmp(a, "-j", 2) == 0 || strncmp(a, "--jobs=", 7) == 0)
      skip = true;
    if (!skip)
      add_word(rerun, sizeof rerun, a);
  }
  snprintf(wd, sizeof wd, "%s/sgconform-%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
  o.work_dir = wd;
  cf_check_opts limits = {0};   /* the limit flags, shared with check (limit_option) */
  int lim;
  for (int i = 2; i < argc; ++i) {
    const char *a = argv[i], *v;
#define OPTV(name, field) else if (strcmp(a, name) == 0) { if (!(v = need(argc, argv, &i))) return 2; o.field = v; }
    if (strcmp(a, "--full") == 0) o.full = true;
    else if (strcmp(a, "--count") == 0) o.count_only = true;
    else if (strcmp(a, "--json") == 0) o.json_out = true;
    else if (strcmp(a, "--progress") == 0) o.progress = true;
    else if (strcmp(a, "--no-progress") == 0) o.progress = false;
    OPTV("--op", op) OPTV("--type", type) OPTV("--size", size) OPTV("--case", case_name)
    OPTV("--work-dir", work_dir) OPTV("--plant-wrong", plant_wrong) OPTV("--plant-flaky", plant_flaky)
    OPTV("--results", results_dir) OPTV("--baseline", baseline) OPTV("--flakes", flakes)
    else if ((lim = limit_option(argc, argv, &i, &limits)) != 0) {
      if (lim < 0) return 2;
    } else if (strcmp(a, "--backend") == 0) {
      if (!(v = need(argc, argv, &i))) return 2;
      if (strcmp(v, "all") == 0) { o.jit = true; }
      else if (strcmp(v, "jit") == 0) { o.jit = true; o.backend = "jit"; }
      else if (strcmp(v, "interp") == 0) { o.backend = "interp"; }
      else { cf_error("unknown backend '%s' (interp, jit, all)", v); return 2; }
    } else if (strcmp(a, "--shard") == 0) {
      if (!(v = need(argc, argv, &i))) return 2;
      if (sscanf(v, "%u/%u", &o.shard_k, &o.shard_n) != 2 || o.shard_n == 0 || o.shard_k == 0 ||
          o.shard_k > o.shard_n) {
        cf_error("--shard wants K/N with 1 <= K <= N, got '%s'", v);
        return 2;
      }
    } else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0 || strncmp(a, "-j", 2) == 0 ||
               strncmp(a, "--jobs=", 7) == 0) {
      if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) {
        if (!(v = need(argc, argv, &i))) return 2;
      } else {
        v = a[1] == 'j' ? a + 2 : a + 7;
      }
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (strcmp(v, "auto") == 0) {
        n = 0;
      } else if (!*v || *end || v[0] == '-' || n > 1024) {
        cf_error("-j wants a number of jobs from 0 to 1024 or 'auto', got '%s'", v);
        return 2;
      }
      if (n == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (unsigned long)c : 1;
        if (n > 1024) n = 1024;
      }
      o.jobs = (uint32_t)n;
    } else if (strcmp(a, "--retries") == 0) {
      if (!(v = need(argc, argv, &i))) return 2;
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (!*v || *end || v[0] == '-' || n > 100) {
        cf_error("--retries wants a number from 0 to 100, got '%s'", v);
        return 2;
      }
      o.retries = (uint32_t)n;
    } else if (strcmp(a, "--max-failures") == 0) {
      if (!(v = need(argc, argv, &i))) return 2;
      char *end;
      errno = 0;
      unsigned long n = strtoul(v, &end, 10);
      if (!*v || *end || errno || v[0] == '-' || n > UINT32_MAX) {
        cf_error("--max-failures wants a number from 0 to 4294967295, got '%s'", v);
        return 2;
      }
      o.max_failures = (uint32_t)n;
    } else if (strcmp(a, "--jit-opt") == 0) {
      if (!(v = need(argc, argv, &i))) return 2;
      if (strlen(v) != 1 || v[0] < '0' || v[0] > '3') {
        cf_error("--jit-opt wants a compile level 0, 1, 2 or 3, got '%s'", v);
        return 2;
      }
      o.jit_opt = v[0] - '0';
    } else if (strcmp(a, "--break-op") == 0) {
      if (!(v = need(argc, argv, &i))) return 2;
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (*end || n == 0) {
        cf_error("--break-op wants an opcode number (e.g. 6 for OpGroupIAdd... see spirv.h), got '%s'", v);
        return 2;
      }
      o.break_op = (uint32_t)n;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else {
      cf_error("unknown suite option '%s'", a);
      return 2;
    }
#undef OPTV
  }
  o.max_module_bytes = limits.max_module_bytes;
  o.max_instructions = limits.max_instructions;
  o.max_validate_insns = limits.max_validate_insns;
  o.step_limit = limits.step_limit;
  o.time_limit = limits.time_limit;
  o.no_validate = limits.no_validate;
  o.max_private_memory = limits.max_private_memory;
  if (o.case_name) {
    /* the case name says which backend */
    o.jit = strstr(o.case_name, ".jit") != NULL;
  }
  if (o.shard_n == 0)
    o.shard_n = 1, o.shard_k = 1;
  return cf_suite_run(&o);
}

static int main_check(int argc, char **argv, bool compare)
{
  cf_check_opts o = {.sizes = NULL, .max_lanes = 8};
  for (int i = 2; i < argc; ++i) {
    const char *a = argv[i], *v;
    int lim = limit_option(argc, argv, &i, &o);
    if (lim < 0) return 2;
    if (lim) continue;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { usage(stdout); return 0; }
    else if (strcmp(a, "--json") == 0) o.json_out = true;
    else if (strcmp(a, "--required-size") == 0) o.required_size = true;
    else if (!compare && strcmp(a, "--data-races") == 0) o.checks |= SG_CHECK_DATA_RACES;
    else if (!compare && strcmp(a, "--lockstep") == 0) o.checks |= SG_CHECK_LOCKSTEP;
    else if (!compare && strcmp(a, "--uninitialized") == 0) o.checks |= SG_CHECK_UNINITIALIZED;
    else if (!compare && strcmp(a, "--check-all") == 0) o.checks |= SG_CHECK_ALL;
    else if (strcmp(a, "--sizes") == 0) {
      if (!(v = need(argc, argv, &i))) return 2;
      /* each a subgroup size: garbage used to leave no size to run, and
         "0 findings" (exit 0) with nothing checked */
      unsigned n = 0;
      for (const char *p = v;; ++n) {
        char *e;
        errno = 0;
        unsigned long s = strtoul(p, &e, 10);
        if (e == p || *p == '-' || *p == '+' || errno || s < 1 || s > 128 || (*e && *e != ',') || n >= 32) {
          cf_error("invalid --sizes '%s' (up to 32 subgroup sizes 1..128, comma-separated)", v);
          return 2;
        }
        if (!*e) break;
        p = e + 1;
      }
      o.sizes = v;
    }
    else if (strcmp(a, "--device-output") == 0) { if (!(v = need(argc, argv, &i))) return 2; o.device_dir = v; }
    else if (strcmp(a, "--subgroup-size") == 0) {
      if (!(v = need(argc, argv, &i))) return 2;
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (!*v || *end || v[0] == '-' || n < 1 || n > 128) {
        cf_error("invalid --subgroup-size '%s' (1..128)", v);
        return 2;
      }
      o.device_sg = (uint32_t)n;
    } else if (a[0] == '-' && a[1]) {
      cf_error("unknown %s option '%s'", compare ? "compare" : "check", a);
      return 2;
    } else if (!o.file) o.file = a;
    else if (!o.runfile) o.runfile = a;
    else { cf_error("unexpected argument '%s'", a); return 2; }
  }
  if (!o.file) {
    usage(stderr);
    return 2;
  }
  if (compare) {
    size_t fl = strlen(o.file);
    bool sim = fl > 4 && strcmp(o.file + fl - 4, ".sim") == 0;
    if ((!o.runfile && !sim) || !o.device_dir || !o.device_sg) {
      cf_error("compare needs FILE RUNFILE (or FILE.sim) --device-output DIR --subgroup-size S");
      return 2;
    }
    return cf_compare_run(&o);
  }
  return cf_check_run(&o);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "suite") == 0)
    return main_suite(argc, argv);
  if (strcmp(argv[1], "check") == 0)
    return main_check(argc, argv, false);
  if (strcmp(argv[1], "merge") == 0) {
    const char *dir = NULL;
    bool quiet = false;
    for (int i = 2; i < argc; ++i) {
      if (strcmp(argv[i], "--quiet") == 0) quiet = true;
      else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) { usage(stdout); return 0; }
      else if (argv[i][0] == '-' || dir) {
        cf_error("merge takes one results directory (and --quiet), got '%s'", argv[i]);
        return 2;
      } else dir = argv[i];
    }
    if (!dir) {
      cf_error("merge needs the results directory (suite --results DIR)");
      return 2;
    }
    return cf_merge_run("spirv-sgconform", dir, quiet);
  }
  if (strcmp(argv[1], "compare") == 0)
    return main_check(argc, argv, true);
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("spirv-sgconform %s\n", SG_VERSION_STRING);
    return 0;
  }
  cf_error("unknown mode '%s' (suite, merge, check, compare)", argv[1]);
  return 2;
}
