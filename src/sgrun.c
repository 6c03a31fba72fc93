/* sgrun.c - spirv-sgrun: run one OpenCL SPIR-V kernel on the CPU.
 *
 * Interface (flags, exit codes, --json schema): notes/sgrun_contract.md.
 * Exit codes: 0 clean, 1 faults (or UB with --ub=error), 2 bad usage or
 * input, 3 unsupported, 4 a needed external tool is missing.
 */
#include "sgrun_exec.h"
#include "spirv_sg.h"
#include "sg_internal.h"

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
#include <unistd.h>

#define PROG "spirv-sgrun"

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_USAGE = 2, EXIT_UNSUPPORTED = 3, EXIT_TOOL = 4 };

typedef struct print_spec { char *target; char *type; } print_spec;
typedef struct write_spec { char *target; char *path; } write_spec;

typedef struct opts {
  const char *file;
  sg_run_opts run;             /* the options spirv-sgdb shares (runopts.c) */
  bool json, list_kernels, query, time;
  sg_backend backend;
  uint32_t threads, repeat;
  uint64_t jit_threshold;
  bool jit_wait;
  bool stop_on_fault;
  print_spec *prints;
  uint32_t n_prints;
  write_spec *writes;
  uint32_t n_writes;
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
  char raw[2048], msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  sg_escape(msg, sizeof msg, raw);
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
  } else {
    char msg[2048];
    sg_escape(msg, sizeof msg, text);
    fprintf(stderr, sev == SG_SEV_WARNING ? PROG ": warning: %s\n" : "%s\n", msg);
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

/* The progress line (sg_run_desc.progress): shown once a launch has run 2 s,
 * rewritten in place, at most 5 times a second. */
typedef struct progress {
  double t0;
  bool shown;
  double last;
} progress;

static void on_progress(void *user, uint64_t done, uint64_t total)
{
  progress *p = user;
  double now = sg_now_ms(), el = (now - p->t0) / 1000;
  if (el < 2 || (p->shown && now - p->last < 200) || !done)
    return;
  double rate = done / el, left = (double)(total - done) / rate;
  char eta[48];
  if (left < 120)
    snprintf(eta, sizeof eta, "%.0f s", left);
  else if (left < 7200)
    snprintf(eta, sizeof eta, "%.0f min", left / 60);
  else if (left < 86400 * 365.0)
    snprintf(eta, sizeof eta, "%.1f h", left / 3600);
  else
    snprintf(eta, sizeof eta, "%.1f years", left / (86400 * 365.0));
  fprintf(stderr, "\r\033[K" PROG ": work-group %" PRIu64 " of %" PRIu64 " (%.1f%%), %.0f/s, "
          "about %s left (--timeout stops it)", done, total, 100.0 * done / total, rate, eta);
  fflush(stderr);
  p->shown = true;
  p->last = now;
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
"  --global X[,Y[,Z]]       global size (default: the --local size, else 1;\n"
"                           its length sets work_dim)\n"
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
"      image:TOKENS         an image: run-file image tokens, comma-separated,\n"
"                           e.g. image:width=64,height=32,order=RGBA,\n"
"                           format=UNORM_INT8,file=in.rgba (docs/runfile.md)\n"
"  --seed N                 seed for random: (default 1)\n"
"\n"
"Results:\n"
"  --print ARG[:TYPE]       print ARG after the run as a table (as\n"
"                           oclgrind-kernel does); TYPE overrides the element\n"
"                           type (char ... ulong, half, float, double, with a\n"
"                           vector width: float4); hex or hex,TYPE: in hex\n"
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
"  --jit-asm FILE           write the JIT's assembly of the kernel to FILE\n"
"                           (compiles afresh; env SPIRV_SG_JIT_ASM)\n"
"  -j N                     work-groups run on N threads (default: every core for the\n"
"                           JIT and auto, 1 for --backend interp)\n"
"  --repeat N               launch N times (inputs restored each time)\n"
"  --time                   print load, compile and launch times (first,\n"
"                           best, median) on stderr\n"
"  --ub=warn|error|ignore   undefined behaviour in subgroup code (default warn)\n"
"  --stop-on-fault          stop at the first fault\n"
"\n"
"Detectors (interpreter only; reports are faults, exit status 1):\n"
"  --data-races             unordered conflicting accesses of two work-items\n"
"                           to global or local memory (as oclgrind-kernel)\n"
"  --lockstep               lanes of one subgroup communicating through memory\n"
"                           with no sub_group_barrier or subgroup collective\n"
"                           between the write and the read\n"
"  --uninitialized          uninitialized private/local memory (and buffers\n"
"                           marked noinit in a run file) deciding a branch,\n"
"                           forming an address or stored to global memory\n"
"  --check-all              all three\n"
"\n"
"Limits:\n"
"  --step-limit N           instructions per subgroup before a fault (default\n"
"                           134217728 = 2^27, about 10 s on the interpreter;\n"
"                           the JIT counts branches)\n"
"  --timeout SECONDS        wall time for the launch before a fault (default\n"
"                           none; run files: #sg: timeout=SECONDS); also\n"
"                           --time-limit.  A run longer than 2 s shows its\n"
"                           progress on stderr when stderr is a terminal\n"
"  --max-private-memory BYTES  private memory of the work-items run at once\n"
"                           (a work-group's, times the threads; default\n"
"                           4294967296 = 4 GiB; 1 GiB per work-item is fixed)\n"
"\n"
"Loading:\n"
"  --no-validate            skip spirv-val\n"
"  --strict-validate        spirv-val failure is an error (default: a warning)\n"
"  --max-module-size BYTES  largest module accepted (default 67108864 = 64 MiB;\n"
"                           docs/limits.md)\n"
"  --max-instructions N     most instructions in a module (default 4194304)\n"
"  --max-validate-instructions N  spirv-val only up to N instructions (default\n"
"                           1048576; beyond, a warning and the loader's checks)\n"
"  --spec ID=VALUE          set specialization constant SpecId ID\n"
"  -O0 -O1 -O2 -O3          optimization for .cl input (default -O2)\n"
"  --cl-std=CL1.2|CL2.0|CL3.0  OpenCL C version for .cl input (default CL3.0)\n"
"  -D NAME[=VALUE]          preprocessor definition for .cl input\n"
"  --link FILE              link FILE (.cl or .spv) with the kernel's module\n"
"                           (spirv-link: Import/Export linkage); repeatable\n"
"  --build-options OPTIONS  OpenCL build options for .cl input, as\n"
"                           oclgrind-kernel takes them: -cl-std=, -D, -I DIR,\n"
"                           -cl-opt-disable, -cl-mad-enable and the other\n"
"                           -cl-* compiler flags, -w, -Werror\n"
"\n"
"oclgrind-kernel options also taken: --num-threads N (= -j N); ignored (no\n"
"device model here): --compute-units, --constant-mem-size, --global-mem-size,\n"
"--local-mem-size, --max-wgsize, --max-errors, --pch-dir (each with a value),\n"
"--disable-pch, --uniform-writes.\n"
"\n"
"Information:\n"
"  --list-kernels           list kernels and their arguments\n"
"  --query                  print the clGetKernelSubGroupInfoKHR answers for\n"
"                           the --local size (default: the required size,\n"
"                           else 64) and the subgroup size S the launch would\n"
"                           use (--subgroup-size), without running; the max\n"
"                           subgroup size is S for any local size\n"
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
  sg_run_opts_init(&O.run, -1);
  O.repeat = 1;
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
    } else if (IS("-j") || !strncmp(a, "-j", 2) || IS("--num-threads")) {
      if (a[1] == 'j' && a[2])
        val = a + 2;
      NEED_VALUE();
      uint64_t v;
      if (!sg_parse_u64(val, &v) || v < 1 || v > 1024)
        return die(EXIT_USAGE, "invalid -j '%s' (1..1024)", val);
      O.threads = (uint32_t)v;
    } else if (IS("--jit-threshold")) {
      NEED_VALUE();
      uint64_t v;
      if (!sg_parse_u64(val, &v) || v < 1)
        return die(EXIT_USAGE, "invalid --jit-threshold '%s' (a count >= 1)", val);
      O.jit_threshold = v;
    } else if (IS("--jit-wait")) {
      O.jit_wait = true;
    } else if (IS("--jit-asm")) {
      NEED_VALUE();
      if (!*val)
        return die(EXIT_USAGE, "--jit-asm needs a file name");
      setenv("SPIRV_SG_JIT_ASM", val, 1);
    } else if (IS("--repeat")) {
      NEED_VALUE();
      uint64_t v;
      if (!sg_parse_u64(val, &v) || v < 1 || v > 1000000)
        return die(EXIT_USAGE, "invalid --repeat '%s' (1..1000000)", val);
      O.repeat = (uint32_t)v;
    } else if (IS("--time")) {
      O.time = true;
    } else if (IS("--stop-on-fault")) {
      O.stop_on_fault = true;
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
  if (O.run.checks && O.backend == SG_BACKEND_JIT)
    return die(EXIT_USAGE, "--data-races, --lockstep and --uninitialized run on the interpreter "
               "only: use --backend interp or auto (auto then runs the interpreter)");
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

/* sg_size: the launch's subgroup size (0 = the kernel's required one, else 16) */
static int do_query(const sg_module *m, const sg_kernel_info *k, uint32_t sg_size)
{
  const sg_run_opts *o = &O.run;
  size_t local[3] = {o->local[0], o->local[1], o->local[2]};
  if (!o->have_local) {
    local[0] = k->reqd_local_size[0] ? k->reqd_local_size[0] : 64;
    local[1] = k->reqd_local_size[0] ? k->reqd_local_size[1] : 1;
    local[2] = k->reqd_local_size[0] ? k->reqd_local_size[2] : 1;
  }
  uint32_t dims = o->have_local ? o->local_dim : 3;
  size_t max_sg = 0, count = 0, max_num = 0, compile_num = 0, ls[3] = {0, 0, 0};
#define QUERY(param, in_size, in, out_size, out) \
  sg_kernel_sub_group_info_for(m, k->name, sg_size, param, in_size, in, out_size, out, NULL)
  int32_t r1 = QUERY(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, dims * sizeof(size_t), local,
                     sizeof max_sg, &max_sg);
  int32_t r2 = QUERY(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, dims * sizeof(size_t), local,
                     sizeof count, &count);
  int32_t r3 = QUERY(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count, &count, sizeof ls, ls);
  int32_t r4 = QUERY(CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof max_num, &max_num);
  int32_t r5 = QUERY(CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, sizeof compile_num, &compile_num);
#undef QUERY
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
  int at = sgrun_exec_index(argc, argv);
  if (at)
    return sgrun_exec(argc, argv, at);
  const char **links = NULL;
  uint32_t n_links = sgrun_take_links(&argc, argv, &links);
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
    if (O.run.n_args) {
      rc = die(EXIT_USAGE, "--arg cannot be used with a run file (its arguments come from %s)", O.file);
      goto out;
    }
  }

  sg_load_options lo = {.message = on_message, .message_user = NULL};
  sg_run_opts_load(&O.run, &lo);
  double t0 = 0;
  {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t0 = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
  }
  sg_result lr = n_links ? sgrun_load_linked(module_path, links, n_links, &lo, &m)
                         : sg_module_load_file(module_path, &lo, &m);
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
  const char *kname = O.run.kernel ? O.run.kernel : rf ? sg_runfile_kernel(rf) : NULL;
  if (O.run.kernel && rf && strcmp(O.run.kernel, sg_runfile_kernel(rf))) {
    rc = die(EXIT_USAGE, "-k %s conflicts with kernel '%s' named in %s", O.run.kernel, sg_runfile_kernel(rf), O.file);
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

  /* NDRange and subgroup size (the module's required size wins) */
  sg_run_desc d;
  memset(&d, 0, sizeof d);
  d.kernel = k->name;
  sg_result nr = sg_run_opts_ndrange(&O.run, k, rf, &d, err, sizeof err);
  if (nr != SG_SUCCESS) {
    rc = die(exit_for(nr), "%s", err);
    goto out;
  }

  if (O.query) {
    rc = do_query(m, k, d.subgroup_size);
    goto out;
  }

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
    size_t items = 1;
    for (uint32_t i = 0; i < d.work_dim; i++)
      items *= d.global_size[i];
    sg_result ar = sg_run_opts_args(&O.run, k, items, st.args, st.owned, err, sizeof err);
    if (ar != SG_SUCCESS) {
      rc = die(exit_for(ar), "%s", err);
      goto out;
    }
  }
  /* --print / --write (also with run files) */
  for (uint32_t i = 0; i < O.n_prints + O.n_writes; i++) {
    bool is_print = i < O.n_prints;
    const char *target = is_print ? O.prints[i].target : O.writes[i - O.n_prints].target;
    int idx = sg_find_arg(k, target);
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
      o.components = 1;
      if (tn[tl]) {
        /* an OpenCL vector width and nothing after it ("float99" was read as float) */
        char *end;
        unsigned long w = strtoul(tn + tl, &end, 10);
        if (*end || (w != 2 && w != 3 && w != 4 && w != 8 && w != 16)) {
          rc = die(EXIT_USAGE, "--print %s:%s: invalid vector width '%s' (2, 3, 4, 8 or 16)", target,
                   O.prints[i].type, tn + tl);
          goto out;
        }
        o.components = (uint32_t)w;
      }
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
  d.ub = O.run.ub;
  d.checks = O.run.checks;
  d.stop_on_fault = O.stop_on_fault;
  d.step_limit = O.run.step_limit;
  d.max_private_memory = O.run.max_private_memory;
  d.time_limit = O.run.time_limit > 0 ? O.run.time_limit : sg_runfile_timeout(rf);
  d.repeat = O.repeat;
  /* progress on a terminal only: scripts and CI logs get no \r lines */
  progress pg = {sg_now_ms(), false, 0};
  if (isatty(STDERR_FILENO) && !getenv("SPIRV_SG_NO_PROGRESS")) {
    d.progress = on_progress;
    d.progress_user = &pg;
  }
  d.jit_threshold = O.jit_threshold;
  if (!d.jit_threshold) {
    const char *e = getenv("SPIRV_SG_JIT_THRESHOLD");
    uint64_t v;
    if (e && *e && sg_parse_u64(e, &v) && v >= 1)
      d.jit_threshold = v;
  }
  d.jit_wait = O.jit_wait;
  d.jit_opt_level = -1;   /* -O is the level for .cl input, not the JIT's */
  d.printf_out = O.json ? NULL : stdout_write;
  d.message = on_message;
  first_error[0] = 0;
  sg_result r = sg_run(m, &d, &rep, err, sizeof err);
  if (pg.shown)
    fputs("\r\033[K", stderr);   /* the progress line goes away */
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
      /* streamed: a dump of any size is printed, a failed write is an error */
      errno = 0;
      if (sg_write_dump(stdout, o->name, o->scalar, o->hex, a->data, a->size) != 0 ||
          fflush(stdout) != 0) {
        fprintf(stderr, PROG ": error: cannot print '%s' on standard output: %s\n", o->name,
                strerror(errno ? errno : EIO));
        rc = EXIT_USAGE;
        break;
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
              g->is_ub ? "ub" : g->n_accesses ? "check" : "fault", g->group[0], g->group[1], g->group[2], g->subgroup);
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
      if (g->n_accesses) {
        fputs(", \"accesses\": [", f);
        for (uint32_t k = 0; k < g->n_accesses && k < 2; k++) {
          const sg_diag_access *a = &g->accesses[k];
          fputs(k ? ", {\"access\": " : "{\"access\": ", f);
          json_string(f, a->access ? a->access : "access");
          fprintf(f, ", \"group\": [%u,%u,%u], \"local_id\": [%u,%u,%u], \"subgroup\": %u, \"lane\": %u, "
                  "\"instruction\": ", a->group[0], a->group[1], a->group[2], a->local_id[0],
                  a->local_id[1], a->local_id[2], a->subgroup, a->lane);
          if (a->instruction)
            json_string(f, a->instruction);
          else
            fputs("null", f);
          fprintf(f, ", \"word\": %u, \"location\": ", a->word);
          if (a->location)
            json_string(f, a->location);
          else
            fputs("null", f);
          fputs("}", f);
        }
        fputs("]", f);
      }
      fputs("}", f);
    }
    fprintf(f, "], \"faults\": %" PRIu64 ", \"ub\": %" PRIu64, rep->n_faults, rep->n_ub);
    fprintf(f, ", \"stats\": {\"insns\": %" PRIu64 ", \"lane_insns\": %" PRIu64 "}", rep->insns, rep->lane_insns);
    if (rep->wg_jit || rep->jit_from_cache || rep->jit_ir_statements)
      fprintf(f, ", \"jit\": {\"from_cache\": %s, \"ir_statements\": %u, \"interp_insns\": %u, \"convergent\": %s, "
              "\"masked_loops\": %u, \"wide_fields\": %u}",
              rep->jit_from_cache ? "true" : "false", rep->jit_ir_statements, rep->jit_interp_insns,
              rep->jit_convergent ? "true" : "false", rep->jit_masked_loops, rep->jit_wide_fields);
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
  /* output that could not be written is not a success (stdout on a full disk) */
  if ((fflush(stdout) != 0 || ferror(stdout)) && rc != EXIT_USAGE) {
    fprintf(stderr, PROG ": error: cannot write standard output: %s\n", strerror(errno ? errno : EIO));
    rc = EXIT_USAGE;
  }
  free(links);
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
  sg_run_opts_free(&O.run);
  return rc;
}
