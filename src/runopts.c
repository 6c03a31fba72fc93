/* runopts.c - the run options spirv-sgrun and spirv-sgdb share (sg_internal.h):
 * kernel, NDRange, subgroup size, --arg SPECs, UB mode, step limit and the
 * loading flags, and building kernel arguments from --arg SPECs. */
#include "sg_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool sg_parse_u64(const char *s, uint64_t *out)
{
  if (!s || !*s || *s == '-' || *s == '+')
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (*end || errno)
    return false;
  *out = v;
  return true;
}

/* "X[,Y[,Z]]" (or X x Y x Z); each at least 1 unless zero_ok (offsets). */
static bool parse_dims(const char *s, size_t out[3], uint32_t *dim, bool zero_ok)
{
  out[0] = out[1] = out[2] = zero_ok ? 0 : 1;
  uint32_t n = 0;
  const char *p = s;
  for (;;) {
    char *end;
    if (*p < '0' || *p > '9' || n == 3)
      return false;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno || (v == 0 && !zero_ok))
      return false;
    out[n++] = (size_t)v;
    if (!*end)
      break;
    if (*end != ',' && *end != 'x')
      return false;
    p = end + 1;
  }
  *dim = n;
  return true;
}

static bool push(void **p, uint32_t n, size_t elem)
{
  void *q = realloc(*p, (size_t)(n + 1) * elem);
  if (!q)
    return false;
  *p = q;
  return true;
}

/* --spec VALUE: true/false, a float (its float bits; the loader truncates to
 * the constant's width), a negative or an unsigned integer. */
static bool parse_spec_value(const char *vs, uint64_t *out)
{
  char *end;
  errno = 0;
  if (!strcasecmp(vs, "true")) {
    *out = 1;
  } else if (!strcasecmp(vs, "false")) {
    *out = 0;
  } else if (strpbrk(vs, ".eE") && !(vs[0] == '0' && (vs[1] == 'x' || vs[1] == 'X'))) {
    double d = strtod(vs, &end);
    if (*end || !*vs)
      return false;
    float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, 4);
    *out = b;
  } else if (vs[0] == '-') {
    long long s = strtoll(vs, &end, 0);
    if (*end || errno || end == vs)
      return false;
    *out = (uint64_t)s;
  } else if (!sg_parse_u64(vs, out)) {
    return false;
  }
  return true;
}

void sg_opt_split(const char *arg, char *name, size_t n, const char **out_val)
{
  const char *eq = arg[0] == '-' && arg[1] == '-' ? strchr(arg, '=') : NULL;
  size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
  snprintf(name, n, "%.*s", (int)(len < n - 1 ? len : n - 1), arg);
  *out_val = eq ? eq + 1 : NULL;
}

const char *sg_opt_value(int argc, char **argv, int *i, const char *val)
{
  if (val)
    return val;
  if (*i + 1 >= argc)
    return NULL;
  return argv[++*i];
}

/* oclgrind-kernel's --build-options OPTIONS (the OpenCL build options of
 * clBuildProgram): -cl-std=, -D, -cl-opt-disable and -O map to our own
 * options; the other OpenCL C compiler flags clang-15 -cc1 takes pass
 * through (-I DIR too); anything else is an error. */
static int parse_build_options(sg_run_opts *o, const char *s, char *err, size_t err_size)
{
  static const char *const pass[] = {
    "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-uniform-work-group-size",
    "-cl-no-subgroup-ifp", "-w", "-Werror"};
  char *buf = strdup(s);
  if (!buf || !push((void **)&o->build_bufs, o->n_build_bufs, sizeof *o->build_bufs)) {
    free(buf);
    snprintf(err, err_size, "out of memory");
    return -1;
  }
  o->build_bufs[o->n_build_bufs++] = buf;
  char *save = NULL;
  for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
    const char *v = NULL;
    bool clang = false;
    if (!strncmp(t, "-cl-std=", 8)) {
      v = t + 8;
      if (!strcmp(v, "CL1.0") || !strcmp(v, "CL1.1"))
        v = "CL1.2";   /* clang-15 compiles them as 1.2 would; our oldest */
      if (strcmp(v, "CL1.2") && strcmp(v, "CL2.0") && strcmp(v, "CL3.0")) {
        snprintf(err, err_size, "--build-options: unsupported %s (CL1.2, CL2.0 or CL3.0)", t);
        return -1;
      }
      o->cl_std = v;
      continue;
    }
    if (!strcmp(t, "-cl-opt-disable")) {
      o->opt_level = 0;
      continue;
    }
    if (t[0] == '-' && t[1] == 'O' && t[2] >= '0' && t[2] <= '3' && !t[3]) {
      o->opt_level = t[2] - '0';
      continue;
    }
    if (!strcmp(t, "-D") || !strcmp(t, "-I")) {
      char *n = strtok_r(NULL, " \t\n", &save);
      if (!n) {
        snprintf(err, err_size, "--build-options: %s needs a value", t);
        return -1;
      }
      if (t[1] == 'D') {
        v = n;
      } else {
        if (!push((void **)&o->clang_args, o->n_clang_args, sizeof *o->clang_args))
          goto nomem;
        o->clang_args[o->n_clang_args++] = t;
        t = n;
        clang = true;
      }
    } else if (!strncmp(t, "-D", 2)) {
      v = t + 2;
    } else if (!strncmp(t, "-I", 2)) {
      clang = true;
    } else {
      for (unsigned k = 0; k < sizeof pass / sizeof pass[0] && !clang; k++)
        clang = !strcmp(t, pass[k]);
      if (!clang && !strcmp(t, "-cl-kernel-arg-info"))
        continue;   /* argument info is always kept */
      if (!clang) {
        snprintf(err, err_size, "--build-options: unsupported option '%s'", t);
        return -1;
      }
    }
    if (v) {
      if (!*v || *v == '=') {
        snprintf(err, err_size, "--build-options: invalid -D '%s'", v);
        return -1;
      }
      if (!push((void **)&o->defines, o->n_defines, sizeof *o->defines))
        goto nomem;
      o->defines[o->n_defines++] = v;
    } else if (clang) {
      if (!push((void **)&o->clang_args, o->n_clang_args, sizeof *o->clang_args))
        goto nomem;
      o->clang_args[o->n_clang_args++] = t;
    }
  }
  return 1;
nomem:
  snprintf(err, err_size, "out of memory");
  return -1;
}

void sg_run_opts_init(sg_run_opts *o, int default_opt_level)
{
  memset(o, 0, sizeof *o);
  o->opt_level = default_opt_level;
  o->seed = 1;
}

void sg_run_opts_free(sg_run_opts *o)
{
  for (uint32_t i = 0; i < o->n_args; i++) {
    free(o->args[i].target);
    free(o->args[i].spec);
  }
  free(o->args);
  free(o->spec);
  free(o->defines);
  free(o->clang_args);
  for (uint32_t i = 0; i < o->n_build_bufs; i++)
    free(o->build_bufs[i]);
  free(o->build_bufs);
  memset(o, 0, sizeof *o);
}

int sg_run_opts_parse(sg_run_opts *o, int argc, char **argv, int *pi, char *err, size_t err_size)
{
  int i = *pi;
  const char *a = argv[i];
  const char *val;
  char name[64];
  sg_opt_split(a, name, sizeof name, &val);
#define FAIL(...) do { snprintf(err, err_size, __VA_ARGS__); return -1; } while (0)
#define NEED_VALUE()                                                  \
  do {                                                                \
    if (!(val = sg_opt_value(argc, argv, &i, val)))                   \
      FAIL("option %s needs a value (see --help)", name);             \
  } while (0)
#define IS(s) (!strcmp(name, s))
  if (IS("-k") || IS("--kernel")) {
    NEED_VALUE();
    o->kernel = val;
  } else if (IS("--global") || IS("--local") || IS("--offset")) {
    NEED_VALUE();
    uint32_t d;
    bool off = IS("--offset");
    size_t *dst = IS("--global") ? o->global : IS("--local") ? o->local : o->offset;
    if (!parse_dims(val, dst, &d, off))
      FAIL(off ? "invalid %s '%s' (expected X[,Y[,Z]])"
               : "invalid %s '%s' (expected X[,Y[,Z]], each at least 1)", name, val);
    if (IS("--global"))
      o->have_global = true, o->work_dim = d;
    else if (IS("--local"))
      o->have_local = true, o->local_dim = d;
    else
      o->have_offset = true;
  } else if (IS("--subgroup-size")) {
    NEED_VALUE();
    uint64_t v;
    if (!sg_parse_u64(val, &v) || v < 1 || v > 128)
      FAIL("invalid --subgroup-size '%s' (1..128)", val);
    o->sg_size = (uint32_t)v;
  } else if (IS("--arg")) {
    NEED_VALUE();
    if (!push((void **)&o->args, o->n_args, sizeof *o->args))
      FAIL("out of memory");
    /* "NAME=SPEC" or "INDEX=SPEC"; anything else is a positional SPEC */
    const char *eq = strchr(val, '=');
    size_t tl = eq ? (size_t)(eq - val) : 0;
    bool target = tl && (strspn(val, "0123456789") == tl ||
                         (!(val[0] >= '0' && val[0] <= '9') &&
                          strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") == tl));
    sg_arg_spec s = {target ? strndup(val, tl) : NULL, strdup(target ? eq + 1 : val)};
    if (!s.spec || (target && !s.target)) {
      free(s.target);
      free(s.spec);
      FAIL("out of memory");
    }
    o->args[o->n_args++] = s;
  } else if (IS("--seed")) {
    NEED_VALUE();
    if (!sg_parse_u64(val, &o->seed))
      FAIL("invalid --seed '%s'", val);
  } else if (IS("--ub")) {
    NEED_VALUE();
    if (!strcmp(val, "warn")) o->ub = SG_UB_WARN;
    else if (!strcmp(val, "error")) o->ub = SG_UB_ERROR;
    else if (!strcmp(val, "ignore")) o->ub = SG_UB_IGNORE;
    else FAIL("invalid --ub '%s' (warn, error or ignore)", val);
  } else if (IS("--data-races")) {
    o->checks |= SG_CHECK_DATA_RACES;
  } else if (IS("--lockstep")) {
    o->checks |= SG_CHECK_LOCKSTEP;
  } else if (IS("--uninitialized")) {
    o->checks |= SG_CHECK_UNINITIALIZED;
  } else if (IS("--check-all")) {
    o->checks |= SG_CHECK_ALL;
  } else if (IS("--step-limit")) {
    NEED_VALUE();
    if (!sg_parse_u64(val, &o->step_limit) || !o->step_limit)
      FAIL("invalid --step-limit '%s'", val);
  } else if (IS("--timeout") || IS("--time-limit")) {
    NEED_VALUE();
    char *end;
    errno = 0;
    o->time_limit = strtod(val, &end);
    if (!*val || *end || errno || !(o->time_limit > 0) || !isfinite(o->time_limit))
      FAIL("invalid %s '%s' (seconds > 0)", name, val);
  } else if (IS("--max-private-memory")) {
    NEED_VALUE();
    if (!sg_parse_u64(val, &o->max_private_memory) || !o->max_private_memory)
      FAIL("invalid --max-private-memory '%s' (bytes > 0)", val);
  } else if (IS("--max-module-size")) {
    NEED_VALUE();
    if (!sg_parse_u64(val, &o->max_module_bytes) || !o->max_module_bytes)
      FAIL("invalid --max-module-size '%s' (bytes > 0)", val);
  } else if (IS("--max-instructions")) {
    NEED_VALUE();
    if (!sg_parse_u64(val, &o->max_instructions) || !o->max_instructions)
      FAIL("invalid --max-instructions '%s' (a count > 0)", val);
  } else if (IS("--max-validate-instructions")) {
    NEED_VALUE();
    if (!sg_parse_u64(val, &o->max_validate_instructions) || !o->max_validate_instructions)
      FAIL("invalid --max-validate-instructions '%s' (a count > 0)", val);
  } else if (IS("--no-validate")) {
    o->validate = SG_VALIDATE_OFF;
  } else if (IS("--strict-validate")) {
    o->validate = SG_VALIDATE_STRICT;
  } else if (IS("--spec")) {
    NEED_VALUE();
    const char *eq = strchr(val, '=');
    uint64_t id, v = 0;
    char idbuf[32];
    snprintf(idbuf, sizeof idbuf, "%.*s", eq ? (int)(eq - val) : 0, val);
    if (!eq || !sg_parse_u64(idbuf, &id) || id > UINT32_MAX)
      FAIL("invalid --spec '%s' (expected ID=VALUE)", val);
    if (!parse_spec_value(eq + 1, &v))
      FAIL("invalid --spec value '%s'", eq + 1);
    if (!push((void **)&o->spec, o->n_spec, sizeof *o->spec))
      FAIL("out of memory");
    o->spec[o->n_spec].spec_id = (uint32_t)id;
    o->spec[o->n_spec++].value = v;
  } else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") || !strcmp(a, "-O2") || !strcmp(a, "-O3")) {
    o->opt_level = a[2] - '0';
  } else if (IS("--cl-std")) {
    NEED_VALUE();
    if (strcmp(val, "CL1.2") && strcmp(val, "CL2.0") && strcmp(val, "CL3.0"))
      FAIL("invalid --cl-std '%s' (CL1.2, CL2.0 or CL3.0)", val);
    o->cl_std = val;
  } else if (IS("--build-options")) {
    NEED_VALUE();
    if (parse_build_options(o, val, err, err_size) < 0)
      return -1;
  } else if (IS("--disable-pch") || IS("--uniform-writes")) {
    /* oclgrind-kernel options with nothing to do here: no precompiled
     * headers; no race detector to make quieter */
  } else if (IS("--pch-dir") || IS("--compute-units") || IS("--constant-mem-size") ||
             IS("--global-mem-size") || IS("--local-mem-size") || IS("--max-wgsize") ||
             IS("--max-errors")) {
    /* oclgrind-kernel device limits and message limits: taken and ignored
     * (this tool models no device limits; every record is kept, up to 1000) */
    NEED_VALUE();
  } else if (!strncmp(a, "-D", 2)) {
    const char *d = a[2] ? a + 2 : NULL;
    if (!d) {
      if (i + 1 >= argc)
        FAIL("option -D needs NAME[=VALUE]");
      d = argv[++i];
    }
    if (!*d || *d == '=')
      FAIL("invalid -D '%s'", d);
    if (!push((void **)&o->defines, o->n_defines, sizeof *o->defines))
      FAIL("out of memory");
    o->defines[o->n_defines++] = d;
  } else {
    return 0;
  }
#undef IS
#undef NEED_VALUE
#undef FAIL
  *pi = i;
  return 1;
}

void sg_run_opts_load(const sg_run_opts *o, sg_load_options *lo)
{
  lo->validate = o->validate;
  lo->spec = o->spec;
  lo->n_spec = o->n_spec;
  lo->opt_level = o->opt_level;
  lo->cl_std = o->cl_std;
  lo->defines = o->defines;
  lo->n_defines = o->n_defines;
  lo->max_module_bytes = o->max_module_bytes;
  lo->max_instructions = o->max_instructions;
  lo->max_validate_instructions = o->max_validate_instructions;
  if (o->checks)
    lo->line_info = true;   /* detector reports name source lines */
  lo->clang_args = o->clang_args;
  lo->n_clang_args = o->n_clang_args;
}

sg_result sg_run_opts_ndrange(const sg_run_opts *o, const sg_kernel_info *k, const sg_runfile *rf,
                              sg_run_desc *d, char *err, size_t err_size)
{
  /* the module's required subgroup size wins; another one is an error */
  uint32_t sg_size = o->sg_size ? o->sg_size : rf ? sg_runfile_subgroup_size(rf) : 0;
  if (sg_size && k->reqd_subgroup_size && sg_size != k->reqd_subgroup_size) {
    snprintf(err, err_size, "kernel '%s' requires subgroup size %u (intel_reqd_sub_group_size); "
             "subgroup size %u conflicts", k->name, k->reqd_subgroup_size, sg_size);
    return SG_ERROR_INVALID_ARGUMENT;
  }
  d->subgroup_size = sg_size;
  d->work_dim = o->have_global ? o->work_dim : o->have_local ? o->local_dim : 1;
  for (int i = 0; i < 3; i++) {
    d->global_size[i] = o->have_global ? o->global[i] : o->have_local ? o->local[i] : 1;
    d->local_size[i] = o->have_local ? o->local[i] : 0;
    d->global_offset[i] = o->have_offset ? o->offset[i] : 0;
  }
  if (rf) {
    size_t g[3], l[3];
    sg_runfile_ndrange(rf, g, l);
    d->work_dim = 3;   /* as Oclgrind: run files launch 3-D */
    for (int i = 0; i < 3; i++) {
      if (!o->have_global)
        d->global_size[i] = g[i];
      if (!o->have_local)
        d->local_size[i] = l[i];
    }
  }
  return SG_SUCCESS;
}

int sg_find_arg(const sg_kernel_info *k, const char *target)
{
  for (uint32_t i = 0; i < k->n_args; i++)
    if (k->args[i].name && !strcmp(k->args[i].name, target))
      return (int)i;
  uint64_t v;
  if (sg_parse_u64(target, &v) && v < k->n_args)
    return (int)v;
  return -1;
}

/* ------------------------------------------------------- building arguments */

static bool has_prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* One element of scalar type s. */
static bool parse_elem(const char *t, sg_scalar s, void *out)
{
  char *end;
  errno = 0;
  size_t es = sg_scalar_size(s);
  if (s == SG_S_FLOAT || s == SG_S_DOUBLE || s == SG_S_HALF) {
    double d = strtod(t, &end);
    if (end == t || *end)
      return false;
    sg_store_float(s, d, out);
    return true;
  }
  uint64_t bits;
  if (t[0] == '-') {
    long long v = strtoll(t, &end, 0);
    if (end == t || *end || errno)
      return false;
    if (es < 8 && (v < -(1ll << (es * 8 - 1))))
      return false;
    bits = (uint64_t)v;
  } else {
    unsigned long long v = strtoull(t, &end, 0);
    if (end == t || *end || errno)
      return false;
    if (es < 8 && v >> (es * 8))
      return false;
    bits = v;
  }
  memcpy(out, &bits, es);
  return true;
}

/* xorshift64*: random: values, reproducible per (seed, argument index) */
static uint64_t rng_next(uint64_t *state)
{
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

/* The message quotes the SPEC, which may hold any byte: escaped, one line. */
#define ARG_FAIL(code, ...) do { arg_fail_text(err, err_size, __VA_ARGS__); return (code); } while (0)
static void arg_fail_text(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void arg_fail_text(char *err, size_t err_size, const char *fmt, ...)
{
  char raw[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  sg_escape(err, err_size, raw);
}

/* A by-value argument from "V[,V...]" (one value fills every component). */
static sg_result build_value(const sg_arg_info *a, uint32_t i, const char *spec, sg_scalar s,
                             uint8_t **out_data, size_t *out_size, char *err, size_t err_size)
{
  const char *an = a->name ? a->name : "?";
  size_t es = sg_scalar_size(s);
  if (a->scalar == SG_S_NONE)
    ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s, %s): give a struct argument as file:PATH",
             i, an, a->type_name);
  size_t size = a->size;
  uint8_t *data = calloc(size ? size : 1, 1);
  char *copy = strdup(spec);
  if (!data || !copy) {
    free(data);
    free(copy);
    ARG_FAIL(SG_ERROR_NOMEM, "out of memory");
  }
  uint32_t n = 0;
  char *save = NULL;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save), n++) {
    if (n >= a->components || (n + 1) * es > size || !parse_elem(t, s, data + n * es)) {
      free(copy);
      free(data);
      ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s, %s): invalid value '%s' (expected %u %s value%s)",
               i, an, a->type_name, spec, a->components, sg_scalar_name(s), a->components > 1 ? "s" : "");
    }
  }
  free(copy);
  if (n == 1 && a->components > 1) {
    for (uint32_t c = 1; c < a->components && (c + 1) * es <= size; c++)
      memcpy(data + c * es, data, es);
  } else if (n != a->components) {
    free(data);
    ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s, %s): %u value%s given, expected %u", i, an,
             a->type_name, n, n == 1 ? "" : "s", a->components);
  }
  *out_data = data;
  *out_size = size;
  return SG_SUCCESS;
}

/* A buffer from zero:/fill:/range:/random:/a list (NULL: zeros). */
static sg_result build_buffer(const sg_arg_info *a, uint32_t i, const char *spec, sg_scalar s,
                              size_t default_count, uint64_t seed, uint8_t **out_data,
                              size_t *out_size, char *err, size_t err_size)
{
  const char *an = a->name ? a->name : "?";
  size_t es = sg_scalar_size(s);
  uint64_t count = default_count;
  const char *rest = NULL;
  int mode = 0;   /* 0 zero, 1 fill, 2 range, 3 random, 4 list */
  if (!spec) mode = 0;
  else if (has_prefix(spec, "zero:")) { mode = 0; rest = spec + 5; }
  else if (has_prefix(spec, "fill:")) { mode = 1; rest = spec + 5; }
  else if (has_prefix(spec, "range:")) { mode = 2; rest = spec + 6; }
  else if (has_prefix(spec, "random:")) { mode = 3; rest = spec + 7; }
  else mode = 4;
  char *parts[4] = {0};
  char *copy = strdup(spec ? spec : "");
  uint32_t np = 0;
  if (!copy)
    ARG_FAIL(SG_ERROR_NOMEM, "out of memory");
  if (mode != 4 && rest) {
    char *save = NULL;
    for (char *t = strtok_r(copy + (rest - spec), ":", &save); t && np < 4; t = strtok_r(NULL, ":", &save))
      parts[np++] = t;
    const int need[] = {1, 2, 3, 1};
    const char *cnt = mode == 0 ? parts[0] : mode == 1 ? parts[1] : mode == 2 ? parts[2] : parts[0];
    if ((int)np < need[mode] || (mode == 3 && np != 1 && np != 3) || (mode != 3 && (int)np != need[mode]) ||
        !sg_parse_u64(cnt, &count) || count > (1ull << 32)) {
      free(copy);
      ARG_FAIL(SG_ERROR_INVALID_ARGUMENT,
               "argument %u (%s): invalid '%s' (see --help for zero:, fill:, range:, random:)", i, an, spec);
    }
  } else if (mode == 4) {
    count = 1;
    for (const char *p = spec; *p; p++)
      count += *p == ',';
  }
  size_t size = (size_t)count * es;
  uint8_t *data = sg_alloc_buffer(size);   /* huge pages for big buffers */
  if (!data) {
    free(copy);
    ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s): cannot allocate %zu bytes", i, an, size);
  }
  bool ok = true;
  bool is_float = s == SG_S_FLOAT || s == SG_S_DOUBLE || s == SG_S_HALF;
  if (mode == 1) {
    /* the value is checked even for fill:V:0, whose buffer has no element */
    uint8_t one[16];
    ok = es <= sizeof one && parse_elem(parts[0], s, one);
    for (size_t e = 0; ok && e < count; e++)
      memcpy(data + e * es, one, es);
  } else if (mode == 2) {
    char *e1, *e2;
    double start = strtod(parts[0], &e1), inc = strtod(parts[1], &e2);
    ok = !*e1 && !*e2 && e1 != parts[0] && e2 != parts[1];
    for (size_t e = 0; ok && e < count; e++) {
      double v = start + inc * (double)e;
      char buf[64];
      snprintf(buf, sizeof buf, is_float ? "%.17g" : "%.0f", v);
      ok = parse_elem(buf, s, data + e * es);
    }
  } else if (mode == 3) {
    uint64_t state = seed ? seed * 0x9E3779B97F4A7C15ull : 0x9E3779B97F4A7C15ull;
    for (uint32_t k = 0; k < i; k++)
      rng_next(&state);
    double lo = 0, hi = is_float ? 1 : 100;
    if (np == 3) {
      char *e1, *e2;
      lo = strtod(parts[1], &e1);
      hi = strtod(parts[2], &e2);
      ok = !*e1 && !*e2 && lo <= hi;
    }
    for (size_t e = 0; ok && e < count; e++) {
      double u = (double)(rng_next(&state) >> 11) / 9007199254740992.0;
      char buf[64];
      if (is_float)
        snprintf(buf, sizeof buf, "%.17g", lo + (hi - lo) * u);
      else
        snprintf(buf, sizeof buf, "%.0f", floor(lo + (hi - lo + 1) * u) > hi ? hi : floor(lo + (hi - lo + 1) * u));
      ok = parse_elem(buf, s, data + e * es);
    }
  } else if (mode == 4) {
    char *save = NULL;
    size_t e = 0;
    for (char *t = strtok_r(copy, ",", &save); ok && t; t = strtok_r(NULL, ",", &save), e++)
      ok = e < count && parse_elem(t, s, data + e * es);
  }
  free(copy);
  if (!ok) {
    free(data);
    ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s, %s): invalid values in '%s'", i, an,
             a->type_name, spec);
  }
  *out_data = data;
  *out_size = size;
  return SG_SUCCESS;
}

/* Raw bytes of a file:PATH argument. */
static sg_result build_file(const sg_arg_info *a, uint32_t i, const char *path, uint8_t **out_data,
                            size_t *out_size, char *err, size_t err_size)
{
  const char *an = a->name ? a->name : "?";
  size_t n = 0;
  uint8_t *data = sg_read_file(path, &n);
  if (!data)
    ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s): cannot read '%s': %s", i, an, path,
             sg_read_errstr(errno));
  *out_data = data;
  *out_size = n;
  return SG_SUCCESS;
}

sg_result sg_build_arg(const sg_arg_info *a, uint32_t i, const char *spec, size_t default_count,
                       uint64_t seed, sg_arg *out, uint8_t **owned, char *err, size_t err_size)
{
  const char *an = a->name ? a->name : "?";
  sg_scalar s = a->scalar == SG_S_NONE || a->scalar == SG_S_BOOL ? SG_S_UCHAR : a->scalar;
  *owned = NULL;
  if (a->kind == SG_ARG_OTHER)
    ARG_FAIL(SG_ERROR_UNSUPPORTED, "argument %u (%s): type '%s' is not supported", i, an, a->type_name);
  if (a->kind == SG_ARG_SAMPLER) {
    uint64_t v = 0x10;
    if (spec && !sg_parse_u64(spec, &v))
      ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s): a sampler takes its CLK_* bits as a number", i, an);
    out->kind = SG_ARG_SAMPLER;
    out->sampler = (uint32_t)v;
    return SG_SUCCESS;
  }
  if (a->kind == SG_ARG_IMAGE) {
    if (!spec || strncmp(spec, "image:", 6))
      ARG_FAIL(SG_ERROR_INVALID_ARGUMENT,
               "argument %u (%s): an image needs --arg %s=image:width=W,height=H[,order=RGBA,format=UNORM_INT8,file=F|fill=V]"
               " (tokens as in run files, docs/runfile.md)", i, an, an);
    sg_result r = sg_image_arg_from_tokens(a, i, spec + 6, out, owned, err, err_size);
    if (r != SG_SUCCESS) {
      /* the run-file parser quotes the tokens, which may hold any byte */
      char raw[1024];
      snprintf(raw, sizeof raw, "%s", err);
      sg_escape(err, err_size, raw);
    }
    return r;
  }
  if (!spec && a->kind == SG_ARG_LOCAL)
    ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s, %s): needs a size: --arg %s=local:BYTES", i, an,
             a->type_name, an);
  if (!spec && a->kind != SG_ARG_BUFFER)
    ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s, %s): needs a value: --arg %s=VALUE", i, an,
             a->type_name, an);
  if (spec && !strcmp(spec, "null")) {
    if (a->kind != SG_ARG_BUFFER)
      ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s): 'null' is only for buffer arguments", i, an);
    out->kind = SG_ARG_NULL;
    return SG_SUCCESS;
  }
  if (a->kind == SG_ARG_LOCAL) {
    uint64_t v;
    if (!has_prefix(spec, "local:") || !sg_parse_u64(spec + 6, &v))
      ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s): a __local argument takes local:BYTES", i, an);
    if (v > SG_MAX_LOCAL_BYTES)
      ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s): local:%llu is more than the limit of "
               "%llu bytes (1 GiB) of __local memory", i, an, (unsigned long long)v,
               (unsigned long long)SG_MAX_LOCAL_BYTES);
    out->kind = SG_ARG_LOCAL;
    out->size = (size_t)v;
    return SG_SUCCESS;
  }
  size_t size = 0;
  uint8_t *data = NULL;
  sg_result r;
  if (spec && has_prefix(spec, "file:"))
    r = build_file(a, i, spec + 5, &data, &size, err, err_size);
  else if (a->kind == SG_ARG_VALUE)
    r = build_value(a, i, spec, s, &data, &size, err, err_size);
  else
    r = build_buffer(a, i, spec, s, default_count, seed, &data, &size, err, err_size);
  if (r != SG_SUCCESS)
    return r;
  if (a->kind == SG_ARG_VALUE && size != a->size) {
    free(data);
    ARG_FAIL(SG_ERROR_INVALID_ARGUMENT, "argument %u (%s, %s): %zu bytes given, the argument has %zu", i, an,
             a->type_name, size, a->size);
  }
  out->kind = a->kind == SG_ARG_VALUE ? SG_ARG_VALUE : SG_ARG_BUFFER;
  out->data = data;
  out->size = size;
  *owned = data;
  return SG_SUCCESS;
}

sg_result sg_run_opts_args(const sg_run_opts *o, const sg_kernel_info *k, size_t default_count,
                           sg_arg *args, uint8_t **owned, char *err, size_t err_size)
{
  uint32_t n = k->n_args;
  const char **specs = calloc(n ? n : 1, sizeof *specs);
  sg_result r = SG_SUCCESS;
  if (!specs)
    ARG_FAIL(SG_ERROR_NOMEM, "out of memory");
  /* NAME=/INDEX= pick an argument; the others fill the first free ones */
  uint32_t next = 0;
  for (uint32_t i = 0; i < o->n_args && r == SG_SUCCESS; i++) {
    int idx;
    if (o->args[i].target) {
      idx = sg_find_arg(k, o->args[i].target);
      if (idx < 0) {
        snprintf(err, err_size, "--arg %s=...: kernel '%s' has no argument '%s'", o->args[i].target,
                 k->name, o->args[i].target);
        r = SG_ERROR_INVALID_ARGUMENT;
        break;
      }
    } else {
      while (next < n && specs[next])
        next++;
      if (next >= n) {
        snprintf(err, err_size, "too many --arg values: kernel '%s' has %u argument%s", k->name, n,
                 n == 1 ? "" : "s");
        r = SG_ERROR_INVALID_ARGUMENT;
        break;
      }
      idx = (int)next;
    }
    if (specs[idx]) {
      snprintf(err, err_size, "argument %d (%s) given twice", idx, k->args[idx].name ? k->args[idx].name : "?");
      r = SG_ERROR_INVALID_ARGUMENT;
      break;
    }
    specs[idx] = o->args[i].spec;
  }
  for (uint32_t i = 0; i < n && r == SG_SUCCESS; i++)
    r = sg_build_arg(&k->args[i], i, specs[i], default_count, o->seed, &args[i], &owned[i], err, err_size);
  free(specs);
  return r;
}
