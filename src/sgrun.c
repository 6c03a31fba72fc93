/* sgrun.c - spirv-sgrun: run one OpenCL SPIR-V kernel on the CPU.
 *
 * Interface (flags, exit codes, --json schema): notes/sgrun_contract.md.
 * Exit codes: 0 clean, 1 faults (or UB with --ub=error), 2 bad usage or
 * input, 3 unsupported, 4 a needed external tool is missing.
 */
#include "spirv_sg.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define PROG "spirv-sgrun"

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_USAGE = 2, EXIT_UNSUPPORTED = 3, EXIT_TOOL = 4 };

typedef struct arg_spec { char *target; char *spec; } arg_spec;
typedef struct print_spec { char *target; char *type; } print_spec;
typedef struct write_spec { char *target; char *path; } write_spec;

typedef struct opts {
  const char *file;
  const char *kernel;
  bool json, list_kernels, query, time;
  bool have_global, have_local, have_offset;
  uint32_t work_dim, local_dim;
  size_t global[3], local[3], offset[3];
  uint32_t sg_size;
  sg_backend backend;
  uint32_t threads, repeat;
  uint64_t jit_threshold;
  bool jit_wait;
  sg_ub_mode ub;
  bool stop_on_fault;
  uint64_t step_limit;
  double time_limit;
  sg_validate validate;
  sg_spec_value *spec;
  uint32_t n_spec;
  int opt_level;
  const char *cl_std;
  const char **defines;
  uint32_t n_defines;
  arg_spec *args;
  uint32_t n_args;
  print_spec *prints;
  uint32_t n_prints;
  write_spec *writes;
  uint32_t n_writes;
  uint64_t seed;
} opts;

static opts O;
static char first_error[1024];

/* ------------------------------------------------------------------ output */

static void json_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    switch (*p) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    default:
      if (*p < 0x20)
        fprintf(f, "\\u%04x", *p);
      else
        fputc(*p, f);
    }
  }
  fputc('"', f);
}

static void json_string_n(FILE *f, const char *s, size_t n)
{
  char *t = malloc(n + 1);
  if (!t) {
    json_string(f, "");
    return;
  }
  /* NUL bytes in printf output become U+0000-free text */
  for (size_t i = 0; i < n; i++)
    t[i] = s[i] ? s[i] : ' ';
  t[n] = 0;
  json_string(f, t);
  free(t);
}

static void json_double(FILE *f, double d, bool single)
{
  if (isnan(d))
    fputs("\"nan\"", f);
  else if (isinf(d))
    fputs(d < 0 ? "\"-inf\"" : "\"inf\"", f);
  else
    fprintf(f, single ? "%.9g" : "%.17g", d);
}

/* Fails before running: one error line (and the JSON error object). */
static int die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int die(int code, const char *fmt, ...)
{
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, PROG ": error: %s\n", msg);
  if (O.json) {
    fputs("{\"error\": ", stdout);
    json_string(stdout, msg);
    printf(", \"exit_code\": %d}\n", code);
  }
  return code;
}

static void on_message(void *user, sg_severity sev, const char *text)
{
  (void)user;
  if (sev == SG_SEV_ERROR) {
    if (!first_error[0])
      snprintf(first_error, sizeof first_error, "%s", text);
  } else if (sev == SG_SEV_WARNING) {
    fprintf(stderr, PROG ": warning: %s\n", text);
  } else {
    fprintf(stderr, "%s\n", text);
  }
}

static int exit_for(sg_result r)
{
  switch (r) {
  case SG_SUCCESS: return EXIT_OK;
  case SG_FAULTED: return EXIT_FAULT;
  case SG_ERROR_UNSUPPORTED: return EXIT_UNSUPPORTED;
  case SG_ERROR_TOOL_MISSING: return EXIT_TOOL;
  default: return EXIT_USAGE;
  }
}

static void stdout_write(void *user, const char *text, size_t len)
{
  (void)user;
  fwrite(text, 1, len, stdout);
}

/* -------------------------------------------------------------------- help */

static void usage(FILE *f)
{
  fputs(
"usage: " PROG " [options] FILE\n"
"\n"
"Runs one OpenCL kernel from FILE on the CPU with exact subgroup semantics.\n"
"FILE is a SPIR-V binary (.spv), SPIR-V assembly (.spvasm), OpenCL C (.cl,\n"
"compiled with clang-15 + llvm-spirv-15) or an Oclgrind run file (.sim, see\n"
"docs/runfile.md) that names the kernel file, NDRange and arguments.\n"
"\n"
"Kernel and NDRange:\n"
"  -k, --kernel NAME        kernel to run (default: the only one)\n"
"  --global X[,Y[,Z]]       global size (default 1; its length sets work_dim)\n"
"  --local X[,Y[,Z]]        work-group size (default: chosen)\n"
"  --offset X[,Y[,Z]]       global offset (default 0)\n"
"  --subgroup-size N        subgroup size 1..128 (default: the kernel's\n"
"                           required size, else 16; a conflict is an error)\n"
"\n"
"Arguments (in order, or NAME=/INDEX= to pick one; every argument needs one,\n"
"except buffers, which default to zeros of one element per work-item):\n"
"  --arg [NAME=]SPEC        SPEC is one of\n"
"      V[,V...]             a scalar or vector value (\"2.5\", \"1,2,3,4\");\n"
"                           for a buffer: these elements\n"
"      fill:V:COUNT         buffer of COUNT elements equal to V\n"
"      range:START:INC:COUNT  buffer START, START+INC, ... (COUNT elements)\n"
"      random:COUNT[:LO:HI] buffer of random elements in [LO,HI] (see --seed)\n"
"      zero:COUNT           buffer of COUNT zero elements\n"
"      file:PATH            raw little-endian bytes from PATH\n"
"      local:BYTES          a __local buffer of BYTES bytes\n"
"      null                 a null pointer\n"
"  --seed N                 seed for random: (default 1)\n"
"\n"
"Results:\n"
"  --print ARG[:TYPE]       print ARG after the run as a table (as\n"
"                           oclgrind-kernel does); TYPE overrides the element\n"
"                           type (char ... ulong, half, float, double)\n"
"                           (default without --print/--write: every writable buffer)\n"
"  --write ARG=FILE         write ARG's bytes (little-endian) to FILE\n"
"  --json                   one JSON object on stdout (printf text included)\n"
"\n"
"Execution:\n"
"  --backend interp|jit|auto  (default auto; jit falls back to the\n"
"                           interpreter with a reason; auto starts in the\n"
"                           interpreter and switches to the JIT at a\n"
"                           work-group boundary once the kernel is hot)\n"
"  --jit-threshold N        auto: start the background JIT compile after N\n"
"                           interpreted subgroup-instructions (default\n"
"                           2000000; env SPIRV_SG_JIT_THRESHOLD); kernels\n"
"                           compiled before start at once\n"
"  --jit-wait               auto: wait for that compile instead of\n"
"                           interpreting meanwhile (reproducible switch)\n"
"  -j N                     work-groups run on N threads\n"
"  --repeat N               launch N times (inputs restored each time)\n"
"  --time                   print load, compile and launch times (first,\n"
"                           best, median) on stderr\n"
"  --ub=warn|error|ignore   undefined behaviour in subgroup code (default warn)\n"
"  --stop-on-fault          stop at the first fault\n"
"  --step-limit N           instructions per subgroup before a fault\n"
"  --time-limit SECONDS     wall time for the launch before a fault\n"
"\n"
"Loading:\n"
"  --no-validate            skip spirv-val\n"
"  --strict-validate        spirv-val failure is an error (default: a warning)\n"
"  --spec ID=VALUE          set specialization constant SpecId ID\n"
"  -O0 -O1 -O2 -O3          optimization for .cl input (default -O2)\n"
"  --cl-std=CL1.2|CL2.0|CL3.0  OpenCL C version for .cl input (default CL3.0)\n"
"  -D NAME[=VALUE]          preprocessor definition for .cl input\n"
"\n"
"Information:\n"
"  --list-kernels           list kernels and their arguments\n"
"  --query                  print the clGetKernelSubGroupInfoKHR answers for\n"
"                           the --local size, without running\n"
"  -h, --help               this text\n"
"  --version                version\n"
"\n"
"Exit status: 0 ran cleanly (UB warnings allowed); 1 faults were reported (or\n"
"UB with --ub=error); 2 bad usage or input; 3 unsupported module;\n"
"4 clang-15/llvm-spirv-15 missing for .cl input.\n"
"\n"
"Examples:\n"
"  " PROG " examples/saxpy.sim\n"
"  " PROG " examples/subgroup_reduce.sim --json\n"
"  " PROG " k.cl --global 64 --local 32 --arg in=range:0:1:64 --arg out=zero:64 --print out\n"
"  " PROG " k.spv -k scale --global 1024 --arg 2.5 --arg x=file:x.bin --write x=out.bin\n"
"  " PROG " k.cl --query --local 64,2\n",
      f);
}

/* ------------------------------------------------------------ option parse */

static bool parse_u64(const char *s, uint64_t *out)
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

static bool parse_dims(const char *s, size_t out[3], uint32_t *dim)
{
  out[0] = out[1] = out[2] = 1;
  uint32_t n = 0;
  const char *p = s;
  while (n < 3) {
    char *end;
    if (*p < '0' || *p > '9')
      return false;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno || v == 0)
      return false;
    out[n++] = (size_t)v;
    if (*end == 0)
      break;
    if (*end != ',' && *end != 'x')
      return false;
    p = end + 1;
  }
  if (n == 3 && *p && strpbrk(p, ",x"))
    return false;
  *dim = n;
  return true;
}

static void *grow(void *p, uint32_t n, size_t elem)
{
  void *q = realloc(p, (size_t)(n + 1) * elem);
  if (!q) {
    fprintf(stderr, PROG ": error: out of memory\n");
    exit(EXIT_USAGE);
  }
  return q;
}

/* Returns -1 to continue, else an exit code. */
static int parse_options(int argc, char **argv)
{
  O.opt_level = -1;
  O.repeat = 1;
  O.seed = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
    char name[64];
    /* "--name=value" or "--name value" */
    if (a[0] == '-' && a[1] == '-' && strchr(a, '=')) {
      size_t n = (size_t)(strchr(a, '=') - a);
      snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), a);
      val = a + n + 1;
    } else {
      snprintf(name, sizeof name, "%s", a);
    }
#define NEED_VALUE()                                                                \
    do {                                                                            \
      if (!val) {                                                                   \
        if (i + 1 >= argc)                                                          \
          return die(EXIT_USAGE, "option %s needs a value (see --help)", name);     \
        val = argv[++i];                                                            \
      }                                                                             \
    } while (0)
#define IS(s) (!strcmp(name, s))
    if (IS("-h") || IS("--help")) {
      usage(stdout);
      return EXIT_OK;
    } else if (IS("--version")) {
      printf(PROG " " SG_VERSION_STRING "\n");
      return EXIT_OK;
    } else if (IS("-k") || IS("--kernel")) {
      NEED_VALUE();
      O.kernel = val;
    } else if (IS("--global") || IS("--local") || IS("--offset")) {
      NEED_VALUE();
      uint32_t d;
      size_t *dst = IS("--global") ? O.global : IS("--local") ? O.local : O.offset;
      if (IS("--offset")) {
        /* offsets may be 0 */
        char *end;
        const char *p = val;
        d = 0;
        dst[0] = dst[1] = dst[2] = 0;
        while (d < 3) {
          if (*p < '0' || *p > '9')
            return die(EXIT_USAGE, "invalid --offset '%s' (expected X[,Y[,Z]])", val);
          errno = 0;
          dst[d++] = (size_t)strtoull(p, &end, 10);
          if (errno)
            return die(EXIT_USAGE, "invalid --offset '%s'", val);
          if (!*end)
            break;
          if (*end != ',' || d == 3)
            return die(EXIT_USAGE, "invalid --offset '%s' (expected X[,Y[,Z]])", val);
          p = end + 1;
        }
        O.have_offset = true;
      } else if (!parse_dims(val, dst, &d)) {
        return die(EXIT_USAGE, "invalid %s '%s' (expected X[,Y[,Z]], each at least 1)", name, val);
      }
      if (IS("--global"))
        O.have_global = true, O.work_dim = d;
      if (IS("--local"))
        O.have_local = true, O.local_dim = d;
    } else if (IS("--subgroup-size")) {
      NEED_VALUE();
      uint64_t v;
      if (!parse_u64(val, &v) || v < 1 || v > 128)
        return die(EXIT_USAGE, "invalid --subgroup-size '%s' (1..128)", val);
      O.sg_size = (uint32_t)v;
    } else if (IS("--arg")) {
      NEED_VALUE();
      O.args = grow(O.args, O.n_args, sizeof *O.args);
      const char *eq = strchr(val, '=');
      arg_spec s = {NULL, NULL};
      size_t tl = eq ? (size_t)(eq - val) : 0;
      bool ident = tl && (strspn(val, "0123456789") == tl ||
                          (!(val[0] >= '0' && val[0] <= '9') &&
                           strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") == tl));
      if (ident) {
        s.target = strndup(val, (size_t)(eq - val));
        s.spec = strdup(eq + 1);
      } else {
        s.spec = strdup(val);
      }
      O.args[O.n_args++] = s;
    } else if (IS("--seed")) {
      NEED_VALUE();
      if (!parse_u64(val, &O.seed))
        return die(EXIT_USAGE, "invalid --seed '%s'", val);
    } else if (IS("--print")) {
      NEED_VALUE();
      O.prints = grow(O.prints, O.n_prints, sizeof *O.prints);
      const char *c = strrchr(val, ':');
      print_spec p = {c ? strndup(val, (size_t)(c - val)) : strdup(val), c ? strdup(c + 1) : NULL};
      O.prints[O.n_prints++] = p;
    } else if (IS("--write")) {
      NEED_VALUE();
      const char *eq = strchr(val, '=');
      if (!eq || eq == val || !eq[1])
        return die(EXIT_USAGE, "invalid --write '%s' (expected ARG=FILE)", val);
      O.writes = grow(O.writes, O.n_writes, sizeof *O.writes);
      write_spec w = {strndup(val, (size_t)(eq - val)), strdup(eq + 1)};
      O.writes[O.n_writes++] = w;
    } else if (IS("--json")) {
      O.json = true;
    } else if (IS("--backend")) {
      NEED_VALUE();
      if (!strcmp(val, "interp")) O.backend = SG_BACKEND_INTERP;
      else if (!strcmp(val, "jit")) O.backend = SG_BACKEND_JIT;
      else if (!strcmp(val, "auto")) O.backend = SG_BACKEND_AUTO;
      else return die(EXIT_USAGE, "invalid --backend '%s' (interp, jit or auto)", val);
    } else if (IS("-j") || !strncmp(a, "-j", 2)) {
      if (a[2])
        val = a + 2;
      NEED_VALUE();
      uint64_t v;
      if (!parse_u64(val, &v) || v < 1 || v > 1024)
        return die(EXIT_USAGE, "invalid -j '%s' (1..1024)", val);
      O.threads = (uint32_t)v;
    } else if (IS("--jit-threshold")) {
      NEED_VALUE();
      uint64_t v;
      if (!parse_u64(val, &v) || v < 1)
        return die(EXIT_USAGE, "invalid --jit-threshold '%s' (a count >= 1)", val);
      O.jit_threshold = v;
    } else if (IS("--jit-wait")) {
      O.jit_wait = true;
    } else if (IS("--repeat")) {
      NEED_VALUE();
      uint64_t v;
      if (!parse_u64(val, &v) || v < 1 || v > 1000000)
        return die(EXIT_USAGE, "invalid --repeat '%s' (1..1000000)", val);
      O.repeat = (uint32_t)v;
    } else if (IS("--time")) {
      O.time = true;
    } else if (IS("--ub")) {
      NEED_VALUE();
      if (!strcmp(val, "warn")) O.ub = SG_UB_WARN;
      else if (!strcmp(val, "error")) O.ub = SG_UB_ERROR;
      else if (!strcmp(val, "ignore")) O.ub = SG_UB_IGNORE;
      else return die(EXIT_USAGE, "invalid --ub '%s' (warn, error or ignore)", val);
    } else if (IS("--stop-on-fault")) {
      O.stop_on_fault = true;
    } else if (IS("--step-limit")) {
      NEED_VALUE();
      if (!parse_u64(val, &O.step_limit) || !O.step_limit)
        return die(EXIT_USAGE, "invalid --step-limit '%s'", val);
    } else if (IS("--time-limit")) {
      NEED_VALUE();
      char *end;
      errno = 0;
      O.time_limit = strtod(val, &end);
      if (*end || errno || !(O.time_limit > 0) || !isfinite(O.time_limit))
        return die(EXIT_USAGE, "invalid --time-limit '%s' (seconds > 0)", val);
    } else if (IS("--no-validate")) {
      O.validate = SG_VALIDATE_OFF;
    } else if (IS("--strict-validate")) {
      O.validate = SG_VALIDATE_STRICT;
    } else if (IS("--spec")) {
      NEED_VALUE();
      const char *eq = strchr(val, '=');
      uint64_t id, v = 0;
      char idbuf[32];
      snprintf(idbuf, sizeof idbuf, "%.*s", eq ? (int)(eq - val) : 0, val);
      if (!eq || !parse_u64(idbuf, &id) || id > UINT32_MAX)
        return die(EXIT_USAGE, "invalid --spec '%s' (expected ID=VALUE)", val);
      const char *vs = eq + 1;
      char *end;
      errno = 0;
      if (!strcasecmp(vs, "true")) v = 1;
      else if (!strcasecmp(vs, "false")) v = 0;
      else if (strpbrk(vs, ".eE") && !(vs[0] == '0' && (vs[1] == 'x' || vs[1] == 'X'))) {
        /* a float: its bits (float unless it needs double; the loader
         * truncates to the constant's width) */
        double d = strtod(vs, &end);
        if (*end || !*vs)
          return die(EXIT_USAGE, "invalid --spec value '%s'", vs);
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        v = b;
      } else if (vs[0] == '-') {
        long long s = strtoll(vs, &end, 0);
        if (*end || errno || end == vs)
          return die(EXIT_USAGE, "invalid --spec value '%s'", vs);
        v = (uint64_t)s;
      } else if (!parse_u64(vs, &v)) {
        return die(EXIT_USAGE, "invalid --spec value '%s'", vs);
      }
      O.spec = grow(O.spec, O.n_spec, sizeof *O.spec);
      O.spec[O.n_spec].spec_id = (uint32_t)id;
      O.spec[O.n_spec++].value = v;
    } else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") || !strcmp(a, "-O2") || !strcmp(a, "-O3")) {
      O.opt_level = a[2] - '0';
    } else if (IS("--cl-std")) {
      NEED_VALUE();
      if (strcmp(val, "CL1.2") && strcmp(val, "CL2.0") && strcmp(val, "CL3.0"))
        return die(EXIT_USAGE, "invalid --cl-std '%s' (CL1.2, CL2.0 or CL3.0)", val);
      O.cl_std = val;
    } else if (!strncmp(a, "-D", 2)) {
      const char *d = a[2] ? a + 2 : NULL;
      if (!d) {
        if (i + 1 >= argc)
          return die(EXIT_USAGE, "option -D needs NAME[=VALUE]");
        d = argv[++i];
      }
      if (!*d || *d == '=')
        return die(EXIT_USAGE, "invalid -D '%s'", d);
      O.defines = grow(O.defines, O.n_defines, sizeof *O.defines);
      O.defines[O.n_defines++] = d;
    } else if (IS("--list-kernels")) {
      O.list_kernels = true;
    } else if (IS("--query")) {
      O.query = true;
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
  if (!O.file)
    return die(EXIT_USAGE, "no input file (usage: " PROG " [options] FILE; see --help)");
  return -1;
}

/* ------------------------------------------------------- argument building */

typedef struct run_state {
  sg_module *m;
  const sg_kernel_info *k;
  sg_arg *args;
  uint8_t **owned;
  sg_runfile *rf;
} run_state;

static bool has_prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* Parses one element of scalar type s. */
static bool parse_elem(const char *t, sg_scalar s, void *out)
{
  char *end;
  errno = 0;
  size_t es = sg_scalar_size(s);
  if (s == SG_S_FLOAT || s == SG_S_DOUBLE || s == SG_S_HALF) {
    double d = strtod(t, &end);
    if (end == t || *end)
      return false;
    if (s == SG_S_DOUBLE) {
      memcpy(out, &d, 8);
    } else if (s == SG_S_FLOAT) {
      float f = (float)d;
      memcpy(out, &f, 4);
    } else {
      /* half: through float, round to nearest even */
      float f = (float)d;
      uint32_t x;
      memcpy(&x, &f, 4);
      uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, mm = x & 0x7fffffu;
      int32_t ee = (int32_t)e - 112;
      uint16_t h;
      if (e == 0xff) h = (uint16_t)(sign | 0x7c00u | (mm ? 0x200u : 0));
      else if (ee >= 31) h = (uint16_t)(sign | 0x7c00u);
      else if (ee <= 0) {
        if (ee < -10) h = (uint16_t)sign;
        else {
          mm |= 0x800000u;
          uint32_t sh = (uint32_t)(14 - ee), hv = mm >> sh, rem = mm & ((1u << sh) - 1), half = 1u << (sh - 1);
          if (rem > half || (rem == half && (hv & 1))) hv++;
          h = (uint16_t)(sign | hv);
        }
      } else {
        uint32_t hv = ((uint32_t)ee << 10) | (mm >> 13), rem = mm & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (hv & 1))) hv++;
        h = (uint16_t)(sign | hv);
      }
      memcpy(out, &h, 2);
    }
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

static uint64_t rng_state;
static uint64_t rng_next(void)
{
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

static int find_arg(const sg_kernel_info *k, const char *target)
{
  for (uint32_t i = 0; i < k->n_args; i++)
    if (k->args[i].name && !strcmp(k->args[i].name, target))
      return (int)i;
  uint64_t v;
  if (parse_u64(target, &v) && v < k->n_args)
    return (int)v;
  return -1;
}

static int build_arg(run_state *st, uint32_t i, const char *spec, size_t default_count)
{
  const sg_arg_info *a = &st->k->args[i];
  sg_arg *out = &st->args[i];
  const char *an = a->name ? a->name : "?";
  sg_scalar s = a->scalar == SG_S_NONE || a->scalar == SG_S_BOOL ? SG_S_UCHAR : a->scalar;
  size_t es = sg_scalar_size(s);
  if (a->kind == SG_ARG_OTHER)
    return die(EXIT_UNSUPPORTED, "argument %u (%s): type '%s' is not supported", i, an, a->type_name);
  if (a->kind == SG_ARG_SAMPLER) {
    uint64_t v = 0x10;
    if (spec && !parse_u64(spec, &v))
      return die(EXIT_USAGE, "argument %u (%s): a sampler takes its CLK_* bits as a number", i, an);
    out->kind = SG_ARG_SAMPLER;
    out->sampler = (uint32_t)v;
    return -1;
  }
  if (a->kind == SG_ARG_IMAGE)
    return die(EXIT_USAGE, "argument %u (%s): image arguments need a run file (docs/runfile.md)", i, an);
  if (!spec) {
    if (a->kind == SG_ARG_BUFFER)
      spec = NULL;
    else if (a->kind == SG_ARG_LOCAL)
      return die(EXIT_USAGE, "argument %u (%s, %s): needs a size: --arg %s=local:BYTES", i, an, a->type_name, an);
    else
      return die(EXIT_USAGE, "argument %u (%s, %s): needs a value: --arg %s=VALUE", i, an, a->type_name, an);
  }
  if (spec && !strcmp(spec, "null")) {
    if (a->kind != SG_ARG_BUFFER)
      return die(EXIT_USAGE, "argument %u (%s): 'null' is only for buffer arguments", i, an);
    out->kind = SG_ARG_NULL;
    return -1;
  }
  if (a->kind == SG_ARG_LOCAL) {
    uint64_t v;
    if (!has_prefix(spec, "local:") || !parse_u64(spec + 6, &v) || v > (1u << 30))
      return die(EXIT_USAGE, "argument %u (%s): a __local argument takes local:BYTES", i, an);
    out->kind = SG_ARG_LOCAL;
    out->size = (size_t)v;
    return -1;
  }
  size_t size = 0;
  uint8_t *data = NULL;
  if (spec && has_prefix(spec, "file:")) {
    FILE *f = fopen(spec + 5, "rb");
    if (!f)
      return die(EXIT_USAGE, "argument %u (%s): cannot read '%s': %s", i, an, spec + 5, strerror(errno));
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 0) {
      fclose(f);
      return die(EXIT_USAGE, "argument %u (%s): cannot read '%s'", i, an, spec + 5);
    }
    size = (size_t)n;
    data = calloc(size ? size : 1, 1);
    if (!data || fread(data, 1, size, f) != size) {
      fclose(f);
      free(data);
      return die(EXIT_USAGE, "argument %u (%s): cannot read '%s'", i, an, spec + 5);
    }
    fclose(f);
  } else if (a->kind == SG_ARG_VALUE) {
    if (a->scalar == SG_S_NONE)
      return die(EXIT_USAGE, "argument %u (%s, %s): give a struct argument as file:PATH", i, an, a->type_name);
    size = a->size;
    data = calloc(size ? size : 1, 1);
    char *copy = strdup(spec);
    if (!data || !copy) {
      free(data);
      free(copy);
      return die(EXIT_USAGE, "out of memory");
    }
    uint32_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save), n++) {
      if (n >= a->components || (n + 1) * es > size || !parse_elem(t, s, data + n * es)) {
        free(copy);
        free(data);
        return die(EXIT_USAGE, "argument %u (%s, %s): invalid value '%s' (expected %u %s value%s)",
                   i, an, a->type_name, spec, a->components, sg_scalar_name(s), a->components > 1 ? "s" : "");
      }
    }
    free(copy);
    if (n == 1 && a->components > 1)
      for (uint32_t c = 1; c < a->components && (c + 1) * es <= size; c++)
        memcpy(data + c * es, data, es);
    else if (n != a->components) {
      free(data);
      return die(EXIT_USAGE, "argument %u (%s, %s): %u value%s given, expected %u", i, an,
                 a->type_name, n, n == 1 ? "" : "s", a->components);
    }
  } else {
    /* a buffer: elements of the pointee's scalar type */
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
      return die(EXIT_USAGE, "out of memory");
    if (mode != 4 && rest) {
      char *save = NULL;
      for (char *t = strtok_r(copy + (rest - spec), ":", &save); t && np < 4; t = strtok_r(NULL, ":", &save))
        parts[np++] = t;
      const int need[] = {1, 2, 3, 1};
      const char *cnt = mode == 0 ? parts[0] : mode == 1 ? parts[1] : mode == 2 ? parts[2] : parts[0];
      if ((int)np < need[mode] || (mode == 3 && np != 1 && np != 3) || (mode != 3 && (int)np != need[mode]) ||
          !parse_u64(cnt, &count) || count > (1ull << 32)) {
        free(copy);
        return die(EXIT_USAGE, "argument %u (%s): invalid '%s' (see --help for zero:, fill:, range:, random:)", i, an, spec);
      }
    } else if (mode == 4) {
      count = 1;
      for (const char *p = spec; *p; p++)
        count += *p == ',';
    }
    size = (size_t)count * es;
    data = calloc(size ? size : 1, 1);
    if (!data) {
      free(copy);
      return die(EXIT_USAGE, "argument %u (%s): cannot allocate %zu bytes", i, an, size);
    }
    bool ok = true;
    if (mode == 1) {
      ok = parse_elem(parts[0], s, data);
      for (size_t e = 1; ok && e < count; e++)
        memcpy(data + e * es, data, es);
    } else if (mode == 2) {
      double start, inc;
      char *e1, *e2;
      start = strtod(parts[0], &e1);
      inc = strtod(parts[1], &e2);
      ok = !*e1 && !*e2 && e1 != parts[0] && e2 != parts[1];
      for (size_t e = 0; ok && e < count; e++) {
        double v = start + inc * (double)e;
        char buf[64];
        if (s == SG_S_FLOAT || s == SG_S_DOUBLE || s == SG_S_HALF)
          snprintf(buf, sizeof buf, "%.17g", v);
        else
          snprintf(buf, sizeof buf, "%.0f", v);
        ok = parse_elem(buf, s, data + e * es);
      }
    } else if (mode == 3) {
      rng_state = O.seed ? O.seed * 0x9E3779B97F4A7C15ull : 0x9E3779B97F4A7C15ull;
      for (uint32_t k = 0; k < i; k++)
        rng_next();
      bool is_float = s == SG_S_FLOAT || s == SG_S_DOUBLE || s == SG_S_HALF;
      double lo = 0, hi = is_float ? 1 : 100;
      if (np == 3) {
        char *e1, *e2;
        lo = strtod(parts[1], &e1);
        hi = strtod(parts[2], &e2);
        ok = !*e1 && !*e2 && lo <= hi;
      }
      for (size_t e = 0; ok && e < count; e++) {
        double u = (double)(rng_next() >> 11) / 9007199254740992.0;
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
      return die(EXIT_USAGE, "argument %u (%s, %s): invalid values in '%s'", i, an, a->type_name, spec);
    }
  }
  if (a->kind == SG_ARG_VALUE && size != a->size) {
    free(data);
    return die(EXIT_USAGE, "argument %u (%s, %s): %zu bytes given, the argument has %zu", i, an,
               a->type_name, size, a->size);
  }
  out->kind = a->kind == SG_ARG_VALUE ? SG_ARG_VALUE : SG_ARG_BUFFER;
  out->data = data;
  out->size = size;
  st->owned[i] = data;
  return -1;
}

/* ------------------------------------------------------------------ main */

typedef struct output {
  uint32_t arg;
  const char *name;
  sg_scalar scalar;
  uint32_t components;
  bool hex, dump;
  const char *write_path;
} output;

static void print_kernel(const sg_kernel_info *k)
{
  printf("%s(", k->name);
  for (uint32_t i = 0; i < k->n_args; i++)
    printf("%s%s%s%s %s", i ? ", " : "",
           k->args[i].kind == SG_ARG_LOCAL ? "__local " : k->args[i].is_constant_space ? "__constant " :
           k->args[i].kind == SG_ARG_BUFFER ? "__global " : "",
           k->args[i].is_const && k->args[i].kind == SG_ARG_BUFFER ? "const " : "",
           k->args[i].type_name ? k->args[i].type_name : "?", k->args[i].name ? k->args[i].name : "?");
  printf(")");
  if (k->reqd_local_size[0])
    printf(" reqd_work_group_size(%u,%u,%u)", k->reqd_local_size[0], k->reqd_local_size[1], k->reqd_local_size[2]);
  if (k->reqd_subgroup_size)
    printf(" reqd_sub_group_size(%u)", k->reqd_subgroup_size);
  printf("\n");
}

static int do_query(const sg_module *m, const sg_kernel_info *k)
{
  size_t local[3] = {O.local[0], O.local[1], O.local[2]};
  if (!O.have_local) {
    local[0] = k->reqd_local_size[0] ? k->reqd_local_size[0] : 64;
    local[1] = k->reqd_local_size[0] ? k->reqd_local_size[1] : 1;
    local[2] = k->reqd_local_size[0] ? k->reqd_local_size[2] : 1;
  }
  uint32_t dims = O.have_local ? O.local_dim : 3;
  size_t max_sg = 0, count = 0, max_num = 0, compile_num = 0, ls[3] = {0, 0, 0};
  int32_t r1 = sg_kernel_sub_group_info(m, k->name, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR,
                                        dims * sizeof(size_t), local, sizeof max_sg, &max_sg, NULL);
  int32_t r2 = sg_kernel_sub_group_info(m, k->name, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR,
                                        dims * sizeof(size_t), local, sizeof count, &count, NULL);
  int32_t r3 = sg_kernel_sub_group_info(m, k->name, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                        sizeof count, &count, sizeof ls, ls, NULL);
  int32_t r4 = sg_kernel_sub_group_info(m, k->name, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                        sizeof max_num, &max_num, NULL);
  int32_t r5 = sg_kernel_sub_group_info(m, k->name, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL,
                                        sizeof compile_num, &compile_num, NULL);
  if (r1 || r2 || r3 || r4 || r5)
    return die(EXIT_USAGE, "clGetKernelSubGroupInfoKHR query failed (%d %d %d %d %d)", r1, r2, r3, r4, r5);
  if (O.json) {
    printf("{\"file\": ");
    json_string(stdout, O.file);
    printf(", \"kernel\": ");
    json_string(stdout, k->name);
    printf(", \"local_size\": [%zu,%zu,%zu], \"max_sub_group_size_for_ndrange\": %zu, "
           "\"sub_group_count_for_ndrange\": %zu, \"local_size_for_sub_group_count\": [%zu,%zu,%zu], "
           "\"max_num_sub_groups\": %zu, \"compile_num_sub_groups\": %zu}\n",
           local[0], local[1], local[2], max_sg, count, ls[0], ls[1], ls[2], max_num, compile_num);
  } else {
    printf("kernel %s, local size (%zu,%zu,%zu):\n", k->name, local[0], local[1], local[2]);
    printf("  CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR = %zu\n", max_sg);
    printf("  CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR    = %zu\n", count);
    printf("  CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT(%zu) = (%zu,%zu,%zu)\n", count, ls[0], ls[1], ls[2]);
    printf("  CL_KERNEL_MAX_NUM_SUB_GROUPS                 = %zu\n", max_num);
    printf("  CL_KERNEL_COMPILE_NUM_SUB_GROUPS             = %zu\n", compile_num);
  }
  return EXIT_OK;
}

static void json_values(FILE *f, const uint8_t *data, size_t size, sg_scalar s)
{
  size_t es = sg_scalar_size(s);
  fputc('[', f);
  for (size_t i = 0; es && i + es <= size; i += es) {
    if (i)
      fputs(", ", f);
    const uint8_t *v = data + i;
    int8_t c; uint8_t uc; int16_t sh; uint16_t us; int32_t in; uint32_t ui; int64_t l; uint64_t ul;
    float fl; double d;
    switch (s) {
    case SG_S_CHAR: memcpy(&c, v, 1); fprintf(f, "%d", c); break;
    case SG_S_UCHAR: case SG_S_BOOL: memcpy(&uc, v, 1); fprintf(f, "%u", uc); break;
    case SG_S_SHORT: memcpy(&sh, v, 2); fprintf(f, "%d", sh); break;
    case SG_S_USHORT: memcpy(&us, v, 2); fprintf(f, "%u", us); break;
    case SG_S_INT: memcpy(&in, v, 4); fprintf(f, "%d", in); break;
    case SG_S_UINT: memcpy(&ui, v, 4); fprintf(f, "%u", ui); break;
    case SG_S_LONG: memcpy(&l, v, 8); fprintf(f, "%" PRId64, l); break;
    case SG_S_ULONG: memcpy(&ul, v, 8); fprintf(f, "%" PRIu64, ul); break;
    case SG_S_HALF: {
      char buf[64];
      /* reuse the dump formatter's half conversion via %g text */
      sg_format_value(buf, sizeof buf, SG_S_HALF, false, v);
      memcpy(&us, v, 2);
      if ((us & 0x7c00u) == 0x7c00u)
        fputs((us & 0x3ffu) ? "\"nan\"" : (us & 0x8000u) ? "\"-inf\"" : "\"inf\"", f);
      else {
        /* exact: halves are exactly representable as float */
        uint32_t e = (us >> 10) & 0x1fu, m = us & 0x3ffu;
        double val = e ? ldexp((double)(m | 0x400u), (int)e - 25) : ldexp((double)m, -24);
        json_double(f, (us & 0x8000u) ? -val : val, true);
      }
      break;
    }
    case SG_S_FLOAT: memcpy(&fl, v, 4); json_double(f, fl, true); break;
    case SG_S_DOUBLE: memcpy(&d, v, 8); json_double(f, d, false); break;
    default: fputs("null", f); break;
    }
  }
  fputc(']', f);
}

int main(int argc, char **argv)
{
  int rc = parse_options(argc, argv);
  if (rc >= 0)
    return rc;
  sg_runfile *rf = NULL;
  sg_module *m = NULL;
  sg_report *rep = NULL;
  run_state st = {0};
  output *outs = NULL;
  uint32_t n_outs = 0;
  char err[2048] = "";
  const char *module_path = O.file;
  size_t len = strlen(O.file);
  bool is_sim = len > 4 && !strcasecmp(O.file + len - 4, ".sim");

  if (is_sim) {
    sg_result r = sg_runfile_open(O.file, &rf, err, sizeof err);
    if (r != SG_SUCCESS) {
      rc = die(EXIT_USAGE, "%s", err);
      goto out;
    }
    module_path = sg_runfile_module_path(rf);
    if (O.n_args) {
      rc = die(EXIT_USAGE, "--arg cannot be used with a run file (its arguments come from %s)", O.file);
      goto out;
    }
  }

  sg_load_options lo = {
    .validate = O.validate, .spec = O.spec, .n_spec = O.n_spec, .opt_level = O.opt_level,
    .cl_std = O.cl_std, .defines = O.defines, .n_defines = O.n_defines,
    .message = on_message, .message_user = NULL,
  };
  double t0 = 0;
  {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t0 = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
  }
  sg_result lr = sg_module_load_file(module_path, &lo, &m);
  double load_ms;
  {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    load_ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6 - t0;
  }
  if (lr != SG_SUCCESS) {
    rc = die(exit_for(lr), "%s", first_error[0] ? first_error : sg_result_name(lr));
    goto out;
  }

  if (O.list_kernels) {
    for (uint32_t i = 0; i < sg_module_kernel_count(m); i++)
      print_kernel(sg_module_kernel(m, i));
    rc = EXIT_OK;
    goto out;
  }

  /* the kernel */
  const char *kname = O.kernel ? O.kernel : rf ? sg_runfile_kernel(rf) : NULL;
  if (O.kernel && rf && strcmp(O.kernel, sg_runfile_kernel(rf))) {
    rc = die(EXIT_USAGE, "-k %s conflicts with kernel '%s' named in %s", O.kernel, sg_runfile_kernel(rf), O.file);
    goto out;
  }
  if (!kname) {
    uint32_t n = sg_module_kernel_count(m);
    if (n == 1) {
      kname = sg_module_kernel(m, 0)->name;
    } else {
      char list[1024] = "";
      size_t used = 0;
      for (uint32_t i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", sg_module_kernel(m, i)->name);
      rc = n ? die(EXIT_USAGE, "%s has %u kernels, pick one with -k: %s", module_path, n, list)
             : die(EXIT_USAGE, "%s has no kernels", module_path);
      goto out;
    }
  }
  st.m = m;
  st.k = sg_module_find_kernel(m, kname);
  if (!st.k) {
    char list[1024] = "";
    size_t used = 0;
    for (uint32_t i = 0; i < sg_module_kernel_count(m) && used < sizeof list; i++)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", sg_module_kernel(m, i)->name);
    rc = die(EXIT_USAGE, "no kernel named '%s' in %s (kernels: %s)", kname, module_path, list[0] ? list : "none");
    goto out;
  }
  const sg_kernel_info *k = st.k;

  /* subgroup size: the module's required size wins */
  uint32_t sg_size = O.sg_size ? O.sg_size : rf ? sg_runfile_subgroup_size(rf) : 0;
  if (sg_size && k->reqd_subgroup_size && sg_size != k->reqd_subgroup_size) {
    rc = die(EXIT_USAGE, "kernel '%s' requires subgroup size %u (intel_reqd_sub_group_size); "
             "subgroup size %u conflicts", k->name, k->reqd_subgroup_size, sg_size);
    goto out;
  }

  if (O.query) {
    rc = do_query(m, k);
    goto out;
  }

  /* NDRange */
  sg_run_desc d;
  memset(&d, 0, sizeof d);
  d.kernel = k->name;
  d.work_dim = O.have_global ? O.work_dim : O.have_local ? O.local_dim : 1;
  for (int i = 0; i < 3; i++) {
    d.global_size[i] = O.have_global ? O.global[i] : 1;
    d.local_size[i] = O.have_local ? O.local[i] : 0;
    d.global_offset[i] = O.have_offset ? O.offset[i] : 0;
  }
  if (rf) {
    size_t g[3], l[3];
    sg_runfile_ndrange(rf, g, l);
    d.work_dim = 3;   /* as Oclgrind: run files launch 3-D */
    for (int i = 0; i < 3; i++) {
      if (!O.have_global)
        d.global_size[i] = g[i];
      if (!O.have_local)
        d.local_size[i] = l[i];
    }
  } else if (O.have_local && !O.have_global) {
    for (int i = 0; i < 3; i++)
      d.global_size[i] = O.local[i];
  }
  d.subgroup_size = sg_size;

  /* arguments */
  uint32_t n_args = k->n_args;
  st.args = calloc(n_args ? n_args : 1, sizeof *st.args);
  st.owned = calloc(n_args ? n_args : 1, sizeof *st.owned);
  outs = calloc((size_t)n_args + O.n_prints + O.n_writes + 1, sizeof *outs);
  if (!st.args || !st.owned || !outs) {
    rc = die(EXIT_USAGE, "out of memory");
    goto out;
  }
  if (rf) {
    sg_result r = sg_runfile_bind(rf, m, err, sizeof err);
    if (r != SG_SUCCESS) {
      rc = die(exit_for(r), "%s", err);
      goto out;
    }
    uint32_t n;
    const sg_arg *ra = sg_runfile_args(rf, &n);
    memcpy(st.args, ra, n * sizeof *ra);
    const sg_runfile_output *ro = sg_runfile_outputs(rf, &n);
    for (uint32_t i = 0; i < n; i++) {
      output o = {ro[i].arg, ro[i].name, ro[i].scalar, ro[i].components, ro[i].hex, ro[i].dump,
                  ro[i].write_path};
      outs[n_outs++] = o;
    }
  } else {
    const char **specs = calloc(n_args ? n_args : 1, sizeof *specs);
    if (!specs) {
      rc = die(EXIT_USAGE, "out of memory");
      goto out;
    }
    uint32_t next = 0;
    for (uint32_t i = 0; i < O.n_args; i++) {
      int idx;
      if (O.args[i].target) {
        idx = find_arg(k, O.args[i].target);
        if (idx < 0) {
          free(specs);
          rc = die(EXIT_USAGE, "--arg %s=...: kernel '%s' has no argument '%s'", O.args[i].target, k->name, O.args[i].target);
          goto out;
        }
      } else {
        while (next < n_args && specs[next])
          next++;
        if (next >= n_args) {
          free(specs);
          rc = die(EXIT_USAGE, "too many --arg values: kernel '%s' has %u argument%s", k->name, n_args, n_args == 1 ? "" : "s");
          goto out;
        }
        idx = (int)next;
      }
      if (specs[idx]) {
        free(specs);
        rc = die(EXIT_USAGE, "argument %d (%s) given twice", idx, k->args[idx].name);
        goto out;
      }
      specs[idx] = O.args[i].spec;
    }
    size_t items = 1;
    for (uint32_t i = 0; i < d.work_dim; i++)
      items *= d.global_size[i];
    for (uint32_t i = 0; i < n_args; i++) {
      rc = build_arg(&st, i, specs[i], items);
      if (rc >= 0) {
        free(specs);
        goto out;
      }
    }
    free(specs);
  }
  /* --print / --write (also with run files) */
  for (uint32_t i = 0; i < O.n_prints + O.n_writes; i++) {
    bool is_print = i < O.n_prints;
    const char *target = is_print ? O.prints[i].target : O.writes[i - O.n_prints].target;
    int idx = find_arg(k, target);
    if (idx < 0) {
      rc = die(EXIT_USAGE, "%s %s: kernel '%s' has no argument '%s'", is_print ? "--print" : "--write",
               target, k->name, target);
      goto out;
    }
    const sg_arg_info *a = &k->args[idx];
    if (st.args[idx].kind != SG_ARG_BUFFER && st.args[idx].kind != SG_ARG_VALUE && st.args[idx].kind != SG_ARG_IMAGE) {
      rc = die(EXIT_USAGE, "%s %s: argument %d has no data to show", is_print ? "--print" : "--write", target, idx);
      goto out;
    }
    output o = {(uint32_t)idx, a->name ? a->name : target,
                a->scalar == SG_S_NONE || a->scalar == SG_S_BOOL ? SG_S_UCHAR : a->scalar,
                a->components, false, is_print, is_print ? NULL : O.writes[i - O.n_prints].path};
    if (is_print && O.prints[i].type) {
      const char *tn = O.prints[i].type;
      bool hex = false;
      if (!strncmp(tn, "hex", 3) && (tn[3] == 0 || tn[3] == ',')) {
        hex = true;
        tn = tn[3] ? tn + 4 : "";
      }
      size_t tl = strcspn(tn, "0123456789");
      sg_scalar s = *tn ? sg_scalar_from_name(tn, tl) : o.scalar;
      if (s == SG_S_NONE || s == SG_S_BOOL) {
        rc = die(EXIT_USAGE, "--print %s:%s: unknown type (char, uchar, short, ushort, int, uint, long, ulong, half, float, double)",
                 target, O.prints[i].type);
        goto out;
      }
      o.scalar = s;
      o.hex = hex;
      o.components = tn[tl] ? (uint32_t)strtoul(tn + tl, NULL, 10) : 1;
      if (!o.components)
        o.components = 1;
    }
    outs[n_outs++] = o;
  }
  if (!rf && !O.n_prints && !O.n_writes) {
    for (uint32_t i = 0; i < n_args; i++)
      if (st.args[i].kind == SG_ARG_BUFFER && !k->args[i].is_const && !k->args[i].is_constant_space) {
        const sg_arg_info *a = &k->args[i];
        output o = {i, a->name ? a->name : "?",
                    a->scalar == SG_S_NONE || a->scalar == SG_S_BOOL ? SG_S_UCHAR : a->scalar,
                    a->components, false, true, NULL};
        outs[n_outs++] = o;
      }
  }

  d.args = st.args;
  d.n_args = n_args;
  d.backend = O.backend;
  d.threads = O.threads;
  d.ub = O.ub;
  d.stop_on_fault = O.stop_on_fault;
  d.step_limit = O.step_limit;
  d.time_limit = O.time_limit;
  d.repeat = O.repeat;
  d.jit_threshold = O.jit_threshold;
  if (!d.jit_threshold) {
    const char *e = getenv("SPIRV_SG_JIT_THRESHOLD");
    uint64_t v;
    if (e && *e && parse_u64(e, &v) && v >= 1)
      d.jit_threshold = v;
  }
  d.jit_wait = O.jit_wait;
  d.jit_opt_level = O.opt_level;
  d.printf_out = O.json ? NULL : stdout_write;
  d.message = on_message;
  first_error[0] = 0;
  sg_result r = sg_run(m, &d, &rep, err, sizeof err);
  fflush(stdout);
  if (r != SG_SUCCESS && r != SG_FAULTED) {
    rc = die(exit_for(r), "%s", err[0] ? err : first_error[0] ? first_error : sg_result_name(r));
    goto out;
  }
  rep->load_ms = load_ms;

  /* diagnostics on stderr, then a summary */
  for (uint32_t i = 0; i < rep->n_diags; i++)
    fprintf(stderr, "%s\n", rep->diags[i].formatted);
  if (rep->n_faults || rep->n_ub)
    fprintf(stderr, PROG ": kernel '%s': %" PRIu64 " fault%s, %" PRIu64 " undefined-behaviour report%s%s%s\n",
            k->name, rep->n_faults, rep->n_faults == 1 ? "" : "s", rep->n_ub, rep->n_ub == 1 ? "" : "s",
            rep->n_diags >= 1000 ? " (the first 1000 shown)" : "",
            rep->stopped ? "; the launch was stopped" : "");
  rc = r == SG_FAULTED ? EXIT_FAULT : EXIT_OK;

  /* outputs */
  for (uint32_t i = 0; i < n_outs; i++) {
    const output *o = &outs[i];
    const sg_arg *a = &st.args[o->arg];
    if (o->write_path) {
      FILE *f = fopen(o->write_path, "wb");
      if (!f || (a->size && fwrite(a->data, 1, a->size, f) != a->size) || fclose(f) != 0) {
        int e = errno;
        fprintf(stderr, PROG ": error: cannot write '%s': %s\n", o->write_path, strerror(e));
        rc = rc ? rc : EXIT_USAGE;
      }
    }
    if (o->dump && !O.json) {
      char *text = sg_format_dump(o->name, o->scalar, o->hex, a->data, a->size);
      if (text) {
        fputs(text, stdout);
        free(text);
      }
    }
  }

  if (O.time)
    fprintf(stderr, PROG ": time: load %.3f ms, compile %.3f ms, launch first %.3f ms, best %.3f ms, "
            "median %.3f ms (%u launch%s, %s)\n", rep->load_ms, rep->compile_ms, rep->first_ms,
            rep->best_ms, rep->median_ms, O.repeat, O.repeat == 1 ? "" : "es", rep->backend);

  if (O.json) {
    FILE *f = stdout;
    fputs("{\"file\": ", f);
    json_string(f, O.file);
    fputs(", \"kernel\": ", f);
    json_string(f, k->name);
    fputs(", \"backend\": ", f);
    json_string(f, rep->backend);
    if (rep->fallback_reason) {
      fputs(", \"fallback_reason\": ", f);
      json_string(f, rep->fallback_reason);
    }
    fprintf(f, ", \"work_groups\": {\"interp\": %" PRIu64 ", \"jit\": %" PRIu64 "}",
            rep->wg_interp, rep->wg_jit);
    fprintf(f, ", \"subgroup_size\": %u, \"work_dim\": %u", rep->subgroup_size, d.work_dim);
    fprintf(f, ", \"global_size\": [%zu,%zu,%zu]", d.global_size[0], d.global_size[1], d.global_size[2]);
    fprintf(f, ", \"local_size\": [%zu,%zu,%zu]", rep->local_size[0], rep->local_size[1], rep->local_size[2]);
    fprintf(f, ", \"global_offset\": [%zu,%zu,%zu]", d.global_offset[0], d.global_offset[1], d.global_offset[2]);
    fprintf(f, ", \"status\": \"%s\"", r == SG_FAULTED ? "faulted" : "ok");
    fputs(", \"outputs\": [", f);
    bool first = true;
    for (uint32_t i = 0; i < n_outs; i++) {
      const output *o = &outs[i];
      const sg_arg *a = &st.args[o->arg];
      if (!o->dump)
        continue;
      fputs(first ? "" : ", ", f);
      first = false;
      fprintf(f, "{\"arg\": %u, \"name\": ", o->arg);
      json_string(f, o->name);
      fputs(", \"type\": ", f);
      json_string(f, sg_scalar_name(o->scalar));
      fprintf(f, ", \"components\": %u, \"size\": %zu, \"values\": ", o->components, a->size);
      json_values(f, a->data, a->size, o->scalar);
      fputs("}", f);
    }
    fputs("], \"printf\": ", f);
    json_string_n(f, rep->printf_text, rep->printf_len);
    fputs(", \"diagnostics\": [", f);
    for (uint32_t i = 0; i < rep->n_diags; i++) {
      const sg_diag *g = &rep->diags[i];
      fputs(i ? ", {\"kind\": " : "{\"kind\": ", f);
      json_string(f, g->kind);
      fprintf(f, ", \"class\": \"%s\", \"group\": [%u,%u,%u], \"subgroup\": %u, \"lanes\": [",
              g->is_ub ? "ub" : "fault", g->group[0], g->group[1], g->group[2], g->subgroup);
      bool fl = true;
      for (uint32_t l = 0; l < 128; l++)
        if ((g->lanes[l >> 6] >> (l & 63)) & 1) {
          fprintf(f, fl ? "%u" : ",%u", l);
          fl = false;
        }
      fputs("], \"instruction\": ", f);
      if (g->instruction)
        json_string(f, g->instruction);
      else
        fputs("null", f);
      fprintf(f, ", \"word\": %u, \"location\": ", g->word);
      if (g->location)
        json_string(f, g->location);
      else
        fputs("null", f);
      fputs(", \"message\": ", f);
      json_string(f, g->message);
      fputs("}", f);
    }
    fprintf(f, "], \"faults\": %" PRIu64 ", \"ub\": %" PRIu64, rep->n_faults, rep->n_ub);
    fprintf(f, ", \"stats\": {\"insns\": %" PRIu64 ", \"lane_insns\": %" PRIu64 "}", rep->insns, rep->lane_insns);
    fputs(", \"times_ms\": {\"load\": ", f);
    json_double(f, rep->load_ms, false);
    fputs(", \"compile\": ", f);
    json_double(f, rep->compile_ms, false);
    fputs(", \"first\": ", f);
    json_double(f, rep->first_ms, false);
    fputs(", \"best\": ", f);
    json_double(f, rep->best_ms, false);
    fputs(", \"median\": ", f);
    json_double(f, rep->median_ms, false);
    fputs("}}\n", f);
  }

out:
  fflush(stdout);
  sg_report_destroy(rep);
  if (st.owned) {
    for (uint32_t i = 0; st.k && i < st.k->n_args; i++)
      free(st.owned[i]);
  }
  free(st.owned);
  free(st.args);
  free(outs);
  sg_runfile_destroy(rf);
  sg_module_destroy(m);
  for (uint32_t i = 0; i < O.n_args; i++) {
    free(O.args[i].target);
    free(O.args[i].spec);
  }
  free(O.args);
  for (uint32_t i = 0; i < O.n_prints; i++) {
    free(O.prints[i].target);
    free(O.prints[i].type);
  }
  free(O.prints);
  for (uint32_t i = 0; i < O.n_writes; i++) {
    free(O.writes[i].target);
    free(O.writes[i].path);
  }
  free(O.writes);
  free(O.spec);
  free(O.defines);
  return rc;
}
