/* api.c - spirv_sg.h: loading modules (binary, text, OpenCL C), kernel
 * introspection, the subgroup queries, running (interpreter or JIT) and the
 * stepping wrappers. */
#include "spirv_sg.h"
#include "sg_internal.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ld.h"
#include "ip.h"
#include "ip_core.h"   /* sg_sg_describe_addr, sg_sg_blocked: see there */
#include "jit.h"
#include "backend.h"

/* ------------------------------------------------------------ small things */

const char *sg_result_name(sg_result r)
{
  switch (r) {
  case SG_SUCCESS: return "success";
  case SG_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case SG_ERROR_IO: return "i/o error";
  case SG_ERROR_INVALID_MODULE: return "invalid module";
  case SG_ERROR_UNSUPPORTED: return "unsupported";
  case SG_ERROR_COMPILE: return "compilation failed";
  case SG_ERROR_TOOL_MISSING: return "external tool missing";
  case SG_ERROR_NO_KERNEL: return "no such kernel";
  case SG_ERROR_LAUNCH: return "bad launch";
  case SG_ERROR_NOMEM: return "out of memory";
  case SG_ERROR_RUNFILE: return "bad run file";
  case SG_FAULTED: return "faulted";
  }
  return "unknown result";
}

static const struct { const char *name; size_t size; } scalar_tab[] = {
  [SG_S_NONE] = {"none", 0},     [SG_S_CHAR] = {"char", 1},   [SG_S_UCHAR] = {"uchar", 1},
  [SG_S_SHORT] = {"short", 2},   [SG_S_USHORT] = {"ushort", 2}, [SG_S_INT] = {"int", 4},
  [SG_S_UINT] = {"uint", 4},     [SG_S_LONG] = {"long", 8},   [SG_S_ULONG] = {"ulong", 8},
  [SG_S_HALF] = {"half", 2},     [SG_S_FLOAT] = {"float", 4}, [SG_S_DOUBLE] = {"double", 8},
  [SG_S_BOOL] = {"bool", 1},
};

const char *sg_scalar_name(sg_scalar s)
{
  return (unsigned)s <= SG_S_BOOL ? scalar_tab[s].name : "none";
}

size_t sg_scalar_size(sg_scalar s)
{
  return (unsigned)s <= SG_S_BOOL ? scalar_tab[s].size : 0;
}

sg_scalar sg_scalar_from_name(const char *name, size_t len)
{
  for (unsigned i = SG_S_CHAR; i <= SG_S_BOOL; i++)
    if (strlen(scalar_tab[i].name) == len && !memcmp(scalar_tab[i].name, name, len))
      return (sg_scalar)i;
  if (len == 13 && !memcmp(name, "unsigned char", 13)) return SG_S_UCHAR;
  if (len == 14 && !memcmp(name, "unsigned short", 14)) return SG_S_USHORT;
  if (len == 12 && !memcmp(name, "unsigned int", 12)) return SG_S_UINT;
  if (len == 13 && !memcmp(name, "unsigned long", 13)) return SG_S_ULONG;
  return SG_S_NONE;
}

/* "uint4 *" / "const float*" -> scalar and vector width. */
bool sg_parse_type_name(const char *tn, sg_scalar *out_s, uint32_t *out_n)
{
  if (!tn)
    return false;
  while (*tn == ' ')
    tn++;
  if (!strncmp(tn, "const ", 6))
    tn += 6;
  size_t n = 0;
  while ((tn[n] >= 'a' && tn[n] <= 'z') || tn[n] == '_')
    n++;
  sg_scalar s = sg_scalar_from_name(tn, n);
  if (s == SG_S_NONE)
    return false;
  uint32_t comps = 1;
  if (tn[n] >= '0' && tn[n] <= '9') {
    comps = (uint32_t)strtoul(tn + n, NULL, 10);
    if (comps != 2 && comps != 3 && comps != 4 && comps != 8 && comps != 16)
      return false;
  }
  *out_s = s;
  *out_n = comps;
  return true;
}

double sg_now_ms(void)
{
  /* SPIRV_SG_TIME_CPU=1: process CPU time instead of wall time, for
   * comparing timings on a shared, busy machine (bench/README.md) */
  static int cpu = -1;
  if (cpu < 0) {
    const char *e = getenv("SPIRV_SG_TIME_CPU");
    cpu = e && *e == '1';
  }
  struct timespec ts;
  clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void sg_emit(sg_message_fn fn, void *user, sg_severity sev, const char *fmt, ...)
{
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (fn)
    fn(user, sev, buf);
}

void *sg_alloc_buffer(size_t size)
{
  const size_t huge = (size_t)2 << 20;
  if (size < 2 * huge || getenv("SPIRV_SG_NO_HUGEPAGES")) {
    void *p = aligned_alloc(128, size ? (size + 127) & ~(size_t)127 : 128);
    if (p)
      memset(p, 0, size);
    return p;
  }
  if (size > SIZE_MAX - huge)
    return NULL;
  size_t rounded = (size + huge - 1) & ~(huge - 1);
  void *p = NULL;
  if (posix_memalign(&p, huge, rounded))
    return NULL;
#ifdef MADV_HUGEPAGE
  (void)madvise(p, rounded, MADV_HUGEPAGE);   /* advice only: 4 KiB pages otherwise */
#endif
  memset(p, 0, size);
  return p;
}

void sg_escape(char *dst, size_t size, const char *src)
{
  size_t j = 0;
  if (!size)
    return;
  const unsigned char *s = (const unsigned char *)src;
  for (size_t i = 0; s[i] && j + 5 < size; i++) {
    unsigned char c = s[i];
    size_t u = 0;
    if (c >= 0xc2 && c <= 0xf4 && !(c == 0xc2 && s[i + 1] < 0xa0)) {   /* C1 controls: escaped */
      u = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      for (size_t k = 1; k < u; k++)
        if ((s[i + k] & 0xc0) != 0x80)
          u = 0;
    }
    if (u) {
      if (j + u + 1 > size)
        break;
      memcpy(dst + j, s + i, u);
      j += u;
      i += u - 1;
    } else if ((c < 0x20 && c != '\t') || c >= 0x7f) {
      j += (size_t)snprintf(dst + j, size - j, "\\x%02x", c);
    } else {
      dst[j++] = (char)c;
    }
  }
  dst[j] = 0;
}

const char *sg_read_errstr(int e)
{
  if (e == EFBIG)
    return "larger than the limit of 268435456 bytes (256 MiB) for a pipe or device "
           "(a regular file has no such limit)";
  return strerror(e);
}

void *sg_read_file(const char *path, size_t *out_n)
{
  return sg_read_file_max(path, SIZE_MAX / 2, out_n);
}

/* Reads a whole file of at most max bytes; NULL with errno set (EFBIG past
 * max, checked before reading a regular file). */
void *sg_read_file_max(const char *path, size_t max, size_t *out_n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  /* A regular file is read whole; anything else (a pipe, /dev/stdin, a
   * device such as /dev/zero) may deliver at most SG_MAX_STREAM_BYTES, so a
   * run file naming /dev/zero fails with EFBIG instead of eating memory. */
  struct stat st;
  if (fstat(fileno(f), &st) != 0) {
    int e = errno;
    fclose(f);
    errno = e;
    return NULL;
  }
  if (S_ISDIR(st.st_mode)) {
    fclose(f);
    errno = EISDIR;
    return NULL;
  }
  size_t limit = S_ISREG(st.st_mode) ? SIZE_MAX / 2 : SG_MAX_STREAM_BYTES;
  if (max < limit)
    limit = max;
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > (uint64_t)limit) {
    fclose(f);
    errno = EFBIG;
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  if (!buf) {
    fclose(f);
    errno = ENOMEM;
    return NULL;
  }
  for (;;) {
    if (n >= limit && n == cap) {
      /* one byte past the limit decides: exactly limit bytes is fine */
      int c = fgetc(f);
      if (c == EOF)
        break;
      free(buf);
      fclose(f);
      errno = EFBIG;
      return NULL;
    }
    if (n == cap) {
      if (cap >= limit) {
        free(buf);
        fclose(f);
        errno = EFBIG;
        return NULL;
      }
      size_t ncap = cap * 2 > limit ? limit : cap * 2;
      char *nb = realloc(buf, ncap + 1);
      if (!nb) {
        free(buf);
        fclose(f);
        errno = ENOMEM;
        return NULL;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) {
        int e = errno ? errno : EIO;
        free(buf);
        fclose(f);
        errno = e;
        return NULL;
      }
      break;
    }
  }
  fclose(f);
  buf[n] = 0;
  *out_n = n;
  return buf;
}

/* ------------------------------------------------------------------ modules */

struct sg_module {
  ld_module *ir;
  char *path;
  uint32_t n_kernels;
  sg_kernel_info *kernels;
  sg_arg_info *args;      /* all kernels' args, one allocation */
  char *strings;          /* derived type names */
};

typedef struct load_ctx {
  sg_message_fn fn;
  void *user;
  bool errored;
} load_ctx;

static void ld_message_cb(void *user, ld_severity sev, const char *text)
{
  load_ctx *c = user;
  if (!c->fn)
    return;
  if (sev == LD_ERROR) {
    c->errored = true;
    c->fn(c->user, SG_SEV_ERROR, text);
  } else if (sev == LD_WARNING) {
    c->fn(c->user, SG_SEV_WARNING, text);
  } else {
    char buf[1100];
    snprintf(buf, sizeof buf, "note: %s", text);
    c->fn(c->user, SG_SEV_NOTE, buf);
  }
}

static sg_scalar scalar_of_ldtype(const ld_type *t)
{
  if (!t)
    return SG_S_NONE;
  switch (t->kind) {
  case LD_T_BOOL: return SG_S_BOOL;
  case LD_T_INT:
    switch (t->size) {
    case 1: return SG_S_CHAR;
    case 2: return SG_S_SHORT;
    case 4: return SG_S_INT;
    case 8: return SG_S_LONG;
    default: return SG_S_NONE;
    }
  case LD_T_FLOAT:
    return t->width == 16 ? SG_S_HALF : t->width == 32 ? SG_S_FLOAT : SG_S_DOUBLE;
  default:
    return SG_S_NONE;
  }
}

static sg_result build_kernel_info(sg_module *m)
{
  const ld_module *ir = m->ir;
  uint32_t total = 0;
  for (uint32_t k = 0; k < ir->n_kernels; k++)
    total += ir->kernels[k].n_args;
  m->n_kernels = ir->n_kernels;
  m->kernels = calloc(ir->n_kernels ? ir->n_kernels : 1, sizeof *m->kernels);
  m->args = calloc(total ? total : 1, sizeof *m->args);
  m->strings = calloc(total ? total : 1, 48);
  if (!m->kernels || !m->args || !m->strings)
    return SG_ERROR_NOMEM;
  uint32_t ai = 0;
  for (uint32_t k = 0; k < ir->n_kernels; k++) {
    const ld_kernel *lk = &ir->kernels[k];
    sg_kernel_info *ki = &m->kernels[k];
    ki->name = lk->name;
    ki->n_args = lk->n_args;
    ki->args = &m->args[ai];
    memcpy(ki->reqd_local_size, lk->local_size, sizeof ki->reqd_local_size);
    ki->reqd_subgroup_size = lk->subgroup_size;
    ki->subgroups_per_wg = lk->subgroups_per_wg;
    for (uint32_t i = 0; i < lk->n_args; i++, ai++) {
      const ld_kernel_arg *la = &lk->args[i];
      sg_arg_info *a = &m->args[ai];
      a->name = la->name;
      a->is_const = la->is_const;
      a->size = la->value_size;
      switch (la->kind) {
      case LD_ARG_BUFFER: a->kind = SG_ARG_BUFFER; break;
      case LD_ARG_LOCAL: a->kind = SG_ARG_LOCAL; break;
      case LD_ARG_VALUE: a->kind = SG_ARG_VALUE; break;
      case LD_ARG_IMAGE: a->kind = SG_ARG_IMAGE; break;
      case LD_ARG_SAMPLER: a->kind = SG_ARG_SAMPLER; break;
      default: a->kind = SG_ARG_OTHER; break;
      }
      const ld_type *t = la->type;
      if (t && t->kind == LD_T_POINTER) {
        a->is_constant_space = t->storage == SpvStorageClassUniformConstant;
        t = t->elem;
      }
      if (t && t->kind == LD_T_SAMPLED_IMAGE)
        t = t->elem;
      if (t && t->kind == LD_T_IMAGE) {
        switch (t->dim) {
        case SpvDim1D: a->image_type = t->arrayed ? CL_MEM_OBJECT_IMAGE1D_ARRAY : CL_MEM_OBJECT_IMAGE1D; break;
        case SpvDim3D: a->image_type = CL_MEM_OBJECT_IMAGE3D; break;
        case SpvDimBuffer: a->image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER; break;
        default: a->image_type = t->arrayed ? CL_MEM_OBJECT_IMAGE2D_ARRAY : CL_MEM_OBJECT_IMAGE2D; break;
        }
      }
      a->components = 1;
      if (!sg_parse_type_name(la->type_name, &a->scalar, &a->components)) {
        a->scalar = scalar_of_ldtype(t ? t->comp : NULL);
        a->components = t && t->kind == LD_T_VECTOR ? t->count : 1;
      }
      if (la->type_name) {
        a->type_name = la->type_name;
      } else {
        char *s = m->strings + (size_t)ai * 48;
        const char *base = a->kind == SG_ARG_IMAGE ? "image" : a->kind == SG_ARG_SAMPLER ? "sampler_t"
                         : a->scalar == SG_S_NONE ? (a->kind == SG_ARG_VALUE ? "struct" : "void")
                         : sg_scalar_name(a->scalar);
        if (a->components > 1)
          snprintf(s, 48, "%s%u%s", base, a->components,
                   a->kind == SG_ARG_BUFFER || a->kind == SG_ARG_LOCAL ? "*" : "");
        else
          snprintf(s, 48, "%s%s", base, a->kind == SG_ARG_BUFFER || a->kind == SG_ARG_LOCAL ? "*" : "");
        a->type_name = s;
      }
    }
  }
  return SG_SUCCESS;
}

static sg_result map_ld_result(ld_result r)
{
  switch (r) {
  case LD_OK: return SG_SUCCESS;
  case LD_ERR_UNSUPPORTED: return SG_ERROR_UNSUPPORTED;
  case LD_ERR_NOMEM: return SG_ERROR_NOMEM;
  default: return SG_ERROR_INVALID_MODULE;
  }
}

static sg_result finish_module(ld_module *ir, const char *name, load_ctx *c, sg_module **out)
{
  sg_module *m = calloc(1, sizeof *m);
  if (!m) {
    ld_module_free(ir);
    sg_emit(c->fn, c->user, SG_SEV_ERROR, "out of memory");
    return SG_ERROR_NOMEM;
  }
  m->ir = ir;
  m->path = strdup(name ? name : "<memory>");
  sg_result r = m->path ? build_kernel_info(m) : SG_ERROR_NOMEM;
  if (r != SG_SUCCESS) {
    sg_module_destroy(m);
    sg_emit(c->fn, c->user, SG_SEV_ERROR, "out of memory");
    return r;
  }
  *out = m;
  return SG_SUCCESS;
}

static void fill_ld_options(ld_options *lo, const sg_load_options *opt, const char *name,
                            load_ctx *c, ld_spec_override **spec_out)
{
  memset(lo, 0, sizeof *lo);
  lo->validate = opt->validate == SG_VALIDATE_STRICT ? LD_VALIDATE_STRICT
               : opt->validate == SG_VALIDATE_OFF ? LD_VALIDATE_OFF : LD_VALIDATE_WARN;
  lo->message = ld_message_cb;
  lo->message_user = c;
  lo->source_name = name;
  lo->max_bytes = opt->max_module_bytes;
  lo->max_insns = opt->max_instructions;
  lo->max_validate_insns = opt->max_validate_instructions;
  *spec_out = NULL;
  if (opt->n_spec) {
    ld_spec_override *s = calloc(opt->n_spec, sizeof *s);
    if (s) {
      for (uint32_t i = 0; i < opt->n_spec; i++) {
        s[i].spec_id = opt->spec[i].spec_id;
        s[i].value = opt->spec[i].value;
      }
      lo->spec = s;
      lo->n_spec = opt->n_spec;
      *spec_out = s;
    }
  }
}

static bool is_spirv_magic(const void *bytes, size_t n)
{
  if (n < 4)
    return false;
  uint32_t w;
  memcpy(&w, bytes, 4);
  return w == SpvMagicNumber || w == __builtin_bswap32(SpvMagicNumber);
}

static bool looks_like_spvasm(const char *s, size_t n)
{
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
    i++;
  if (i >= n)
    return false;
  return s[i] == ';' || (i + 1 < n && s[i] == 'O' && s[i + 1] == 'p') || s[i] == '%';
}

static bool has_ext(const char *path, const char *ext)
{
  size_t n = strlen(path), e = strlen(ext);
  return n > e && !strcasecmp(path + n - e, ext);
}

sg_result sg_module_load_memory(const void *bytes, size_t n, const char *name,
                                const sg_load_options *opt, sg_module **out)
{
  static const sg_load_options defaults = {.opt_level = -1};
  if (!out)
    return SG_ERROR_INVALID_ARGUMENT;
  *out = NULL;
  if (!opt)
    opt = &defaults;
  load_ctx c = {opt->message, opt->message_user, false};
  const char *nm = name ? name : "<memory>";
  if (!bytes || n == 0) {
    sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: empty input", nm);
    return SG_ERROR_INVALID_MODULE;
  }
  ld_options lo;
  ld_spec_override *spec;
  fill_ld_options(&lo, opt, nm, &c, &spec);
  ld_module *ir = NULL;
  ld_result lr;
  if (is_spirv_magic(bytes, n)) {
    lr = ld_module_load_bytes(bytes, n, &lo, &ir);
  } else if ((name && has_ext(name, ".spvasm")) || looks_like_spvasm(bytes, n)) {
    size_t nw = 0;
    uint32_t *words = ld_assemble_named(bytes, n, nm, &nw, ld_message_cb, &c);
    if (!words) {
      free(spec);
      if (!c.errored)
        sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: cannot assemble SPIR-V text", nm);
      return SG_ERROR_INVALID_MODULE;
    }
    lr = ld_module_load(words, nw, &lo, &ir);
    free(words);
  } else {
    free(spec);
    uint32_t w = 0;
    memcpy(&w, bytes, n < 4 ? n : 4);
    if (n < 4)
      sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: not a SPIR-V module (only %zu bytes)", nm, n);
    else
      sg_emit(c.fn, c.user, SG_SEV_ERROR,
              "%s: not a SPIR-V module (bad magic number 0x%08x, expected 0x07230203) "
              "and not SPIR-V assembly", nm, w);
    return SG_ERROR_INVALID_MODULE;
  }
  free(spec);
  if (lr != LD_OK || !ir) {
    if (!c.errored)
      sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: cannot load the module", nm);
    ld_module_free(ir);
    return lr == LD_OK ? SG_ERROR_INVALID_MODULE : map_ld_result(lr);
  }
  return finish_module(ir, nm, &c, out);
}

/* ---- OpenCL C: clang-15 -cc1 ... then llvm-spirv-15, as tests/compile_cl.sh */

static char *find_in_path(const char *prog)
{
  const char *path = getenv("PATH");
  if (!path || !*path)
    path = "/usr/local/bin:/usr/bin:/bin";
  const char *p = path;
  while (*p) {
    const char *e = strchr(p, ':');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char buf[4096];
    if (len == 0)
      snprintf(buf, sizeof buf, "./%s", prog);
    else
      snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, prog);
    if (access(buf, X_OK) == 0)
      return strdup(buf);
    if (!e)
      break;
    p = e + 1;
  }
  return NULL;
}

/* Runs argv, passing every line it prints through as SG_SEV_NOTE messages,
 * or, with hold (run_tool_), writing them there for the caller to show or
 * drop.  Returns the exit status, or -1 when it could not run. */
static int run_tool_(char *const argv[], load_ctx *c, FILE *hold);
static int run_tool(char *const argv[], load_ctx *c)
{
  return run_tool_(argv, c, NULL);
}
static void tool_line(load_ctx *c, FILE *hold, const char *line)
{
  if (hold)
    fprintf(hold, "%s\n", line);
  else if (c->fn)
    c->fn(c->user, SG_SEV_NOTE, line);
}
static int run_tool_(char *const argv[], load_ctx *c, FILE *hold)
{
  int fds[2];
  if (pipe(fds) != 0)
    return -1;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
      dup2(devnull, 0);
    execv(argv[0], argv);
    _exit(127);
  }
  close(fds[1]);
  char line[2048];
  size_t ln = 0;
  char buf[4096];
  ssize_t got;
  while ((got = read(fds[0], buf, sizeof buf)) != 0) {
    if (got < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (ssize_t i = 0; i < got; i++) {
      if (buf[i] == '\n' || ln == sizeof line - 1) {
        line[ln] = 0;
        tool_line(c, hold, line);
        ln = 0;
        if (buf[i] == '\n')
          continue;
      }
      line[ln++] = buf[i];
    }
  }
  if (ln) {
    line[ln] = 0;
    tool_line(c, hold, line);
  }
  close(fds[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      return -1;
  if (WIFEXITED(st))
    return WEXITSTATUS(st);
  return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* llvm-spirv-15 writes absent optional operands (DebugSource's Text,
 * DebugFunction's Declaration) as a DebugInfoNone, which spirv-val rejects,
 * so every module compiled with line information drew a validation warning.
 * Such an operand is dropped (the instruction shrinks by one word).  Returns
 * the new size in bytes. */
static size_t drop_debug_source_none(void *bytes, size_t n)
{
  uint32_t *w = bytes;
  size_t nw = n / 4, i = 5;
  if (nw < 5 || w[0] != 0x07230203u)
    return n;
  uint32_t set = 0, bound = w[3];
  uint8_t *none = bound < (1u << 22) ? calloc(bound ? bound : 1, 1) : NULL;
  if (!none)
    return n;
  while (i < nw) {
    uint32_t wc = w[i] >> 16, op = w[i] & 0xffffu;
    if (wc == 0 || i + wc > nw)
      break;
    if (op == SpvOpExtInstImport && wc >= 3 &&
        !strncmp((const char *)&w[i + 2], "OpenCL.DebugInfo.100", (wc - 2) * 4))
      set = w[i + 1];
    if (op == SpvOpExtInst && wc >= 5 && set && w[i + 3] == set) {
      if (w[i + 4] == 0 && w[i + 2] < bound)   /* DebugInfoNone */
        none[w[i + 2]] = 1;
      /* optional last operands: DebugSource's Text, DebugFunction's Declaration */
      bool opt_last = (w[i + 4] == 35 && wc == 7) || (w[i + 4] == 20 && wc == 16);
      if (opt_last && w[i + wc - 1] < bound && none[w[i + wc - 1]]) {
        w[i] = ((wc - 1) << 16) | SpvOpExtInst;
        memmove(&w[i + wc - 1], &w[i + wc], (nw - (i + wc)) * 4);
        nw--;
        wc--;
      }
    }
    i += wc;
  }
  free(none);
  return nw * 4 + n % 4;
}

/* LLVM IR text to f, each line `%x = freeze T v` (with an optional
 * `, !dbg ...`) as `%x = select i1 true, T v, T v`: v itself, in an
 * instruction llvm-spirv-15 translates.  False when a freeze line is not of
 * that shape. */
static bool unfreeze_text(const char *text, size_t n, FILE *f)
{
  for (const char *p = text, *end = text + n; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    int len = (int)(nl ? nl - p : end - p);
    const char *fz = len > 12 ? strstr(p, " = freeze ") : NULL;
    if (fz && fz < p + len) {
      const char *rest = fz + 10, *le = p + len, *suf = le;
      for (const char *q = rest; q + 2 < le; q++)
        if (q[0] == ',' && q[1] == ' ' && q[2] == '!') { suf = q; break; }
      const char *sp = suf;   /* the operand: after the last space */
      while (sp > rest && sp[-1] != ' ')
        sp--;
      if (sp <= rest + 1)
        return false;
      int tl = (int)(sp - 1 - rest), vl = (int)(suf - sp);
      fprintf(f, "%.*s = select i1 true, %.*s %.*s, %.*s %.*s%.*s\n", (int)(fz - p), p, tl, rest, vl, sp, tl, rest,
              vl, sp, (int)(le - suf), suf);
    } else {
      fprintf(f, "%.*s\n", len, p);
    }
    p += len + 1;
  }
  return true;
}

/* clang's argv (-emit-llvm-bc, -o bc) run again to LLVM IR text, its
 * freezes replaced (unfreeze_text), and back to bitcode at bc with no
 * optimization.  Returns 0 on success, as run_tool. */
/* A new empty file $TMPDIR/sgcl.XXXXXX.ext (/tmp without TMPDIR), its
 * path in buf; false when it cannot be made. */
static bool temp_file(char *buf, size_t sz, const char *ext)
{
  const char *tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir)
    tmpdir = "/tmp";
  snprintf(buf, sz, "%s/sgcl.XXXXXX.%s", tmpdir, ext);
  int fd = mkstemps(buf, (int)strlen(ext) + 1);
  if (fd < 0)
    return false;
  close(fd);
  return true;
}

static int unfreeze(char **argv, const char *bc, load_ctx *c)
{
  char ll[4096];
  if (!temp_file(ll, sizeof ll, "ll"))
    return -1;
  size_t na = 0;
  while (argv[na])
    na++;
  char **a = calloc(na + 1, sizeof *a);
  int st = -1;
  const char *triple = "spir64-unknown-unknown";
  if (!a)
    goto done;
  for (size_t i = 0; i < na; i++) {
    a[i] = argv[i];
    if (!strcmp(argv[i], "-emit-llvm-bc"))
      a[i] = "-emit-llvm";
    if (i > 0 && !strcmp(argv[i - 1], "-o"))
      a[i] = ll;
    if (i > 0 && !strcmp(argv[i - 1], "-triple"))
      triple = argv[i];
  }
  st = run_tool(a, c);
  if (st != 0)
    goto done;
  size_t n = 0;
  char *text = sg_read_file(ll, &n);
  FILE *f = text ? fopen(ll, "wb") : NULL;
  bool ok = f && unfreeze_text(text, n, f);
  if (f && fclose(f) != 0)
    ok = false;
  free(text);
  if (!ok) {
    st = -1;
    goto done;
  }
  char *b[] = {argv[0], "-cc1", "-triple", (char *)triple, "-no-opaque-pointers", "-x", "ir", "-emit-llvm-bc",
               "-disable-llvm-passes", "-o", (char *)bc, ll, NULL};
  st = run_tool(b, c);
done:
  free(a);
  unlink(ll);
  return st;
}

static sg_result compile_cl(const char *path, const sg_load_options *opt, load_ctx *c,
                            void **out_bytes, size_t *out_n)
{
  char *clang = find_in_path("clang-15");
  char *llvm_spirv = find_in_path("llvm-spirv-15");
  if (!clang || !llvm_spirv) {
    free(clang);
    free(llvm_spirv);
    sg_emit(c->fn, c->user, SG_SEV_ERROR,
            "compiling .cl input needs clang-15 and llvm-spirv-15 "
            "(apt-get install clang-15 llvm-spirv-15)");
    return SG_ERROR_TOOL_MISSING;
  }
  char bc[4096], spv[4096];
  bool have_bc = temp_file(bc, sizeof bc, "bc");
  bool have_spv = have_bc && temp_file(spv, sizeof spv, "spv");
  sg_result r = SG_SUCCESS;
  if (!have_spv) {
    sg_emit(c->fn, c->user, SG_SEV_ERROR, "cannot create a temporary file %s: %s",
            have_bc ? spv : bc, strerror(errno));
    r = SG_ERROR_IO;
    goto out;
  }

  char optbuf[8], stdbuf[32];
  snprintf(optbuf, sizeof optbuf, "-O%d", opt->opt_level < 0 ? 2 : opt->opt_level > 3 ? 3 : opt->opt_level);
  snprintf(stdbuf, sizeof stdbuf, "-cl-std=%s", opt->cl_std ? opt->cl_std : "CL3.0");
  size_t na = 18 + 2 * (size_t)opt->n_defines + opt->n_clang_args;
  char **argv = calloc(na, sizeof *argv);
  char **defs = calloc(opt->n_defines + 1, sizeof *defs);
  if (!argv || !defs) {
    free(argv);
    free(defs);
    r = SG_ERROR_NOMEM;
    goto out;
  }
  size_t k = 0;
  argv[k++] = clang;
  argv[k++] = "-cc1";
  argv[k++] = "-triple";
  argv[k++] = "spir64-unknown-unknown";
  argv[k++] = stdbuf;
  argv[k++] = "-finclude-default-header";
  argv[k++] = "-no-opaque-pointers";
  argv[k++] = "-cl-ext=+all";
  argv[k++] = "-emit-llvm-bc";
  argv[k++] = optbuf;
  if (opt->debug_info || opt->line_info) {
    argv[k++] = opt->debug_info ? "-debug-info-kind=limited" : "-debug-info-kind=line-tables-only";
    argv[k++] = "-dwarf-version=4";
  }
  for (uint32_t i = 0; i < opt->n_defines; i++) {
    size_t l = strlen(opt->defines[i]) + 3;
    defs[i] = malloc(l);
    if (defs[i]) {
      snprintf(defs[i], l, "-D%s", opt->defines[i]);
      argv[k++] = defs[i];
    }
  }
  for (uint32_t i = 0; i < opt->n_clang_args; i++)
    argv[k++] = (char *)opt->clang_args[i];
  /* with debug info, an absolute source path: the debugger opens the file
   * named in the DebugSource whatever its working folder */
  char *abs = opt->debug_info || opt->line_info ? realpath(path, NULL) : NULL;
  argv[k++] = "-o";
  argv[k++] = bc;
  argv[k++] = abs ? abs : (char *)path;
  argv[k] = NULL;
  int st = run_tool(argv, c);
  if (st != 0) {
    sg_emit(c->fn, c->user, SG_SEV_ERROR, st < 0 ? "%s: cannot run clang-15" :
            "%s: OpenCL C compilation failed (clang-15, see the messages above)", path);
    r = SG_ERROR_COMPILE;
    goto out_argv;
  }
  /* As compile_cl.sh, plus the kernel_arg_type OpString, so argument types
   * keep their OpenCL C spelling (uint* vs int*) for run files. */
  char *argv2[8];
  k = 0;
  argv2[k++] = llvm_spirv;
  argv2[k++] = "--spirv-ext=+all";
  argv2[k++] = "--preserve-ocl-kernel-arg-type-metadata-through-string";
  if (opt->debug_info || opt->line_info)
    argv2[k++] = "--spirv-debug-info-version=ocl-100";
  argv2[k++] = bc;
  argv2[k++] = "-o";
  argv2[k++] = spv;
  argv2[k] = NULL;
  /* its messages held until the freeze case is ruled out */
  char *held = NULL;
  size_t held_n = 0;
  FILE *hold = open_memstream(&held, &held_n);
  st = run_tool_(argv2, c, hold);
  if (hold)
    fclose(hold);
  if (st > 0 && held && strstr(held, "freeze") && !getenv("SPIRV_SG_KEEP_FREEZE")) {
    /* llvm-spirv-15 cannot translate LLVM's freeze, which clang -O1 and up
     * make (x / y next to x % y, among others): the module again as LLVM
     * IR text, each freeze replaced by its operand (as later llvm-spirv
     * releases translate it), back to bitcode without optimization */
    st = unfreeze(argv, bc, c);
    if (st == 0)
      st = run_tool(argv2, c);
    if (st == 0)
      sg_emit(c->fn, c->user, SG_SEV_WARNING, "%s: llvm-spirv-15 cannot translate LLVM's freeze instruction "
              "(clang makes it at -O1 and above, from x / y next to x %% y among others): each freeze "
              "became its operand, as later llvm-spirv releases translate it", path);
  } else {
    for (char *p = held, *e; p && *p; p = e + 1) {
      if (!(e = strchr(p, '\n')))
        break;
      *e = 0;
      if (c->fn)
        c->fn(c->user, SG_SEV_NOTE, p);
    }
  }
  free(held);
  if (st != 0) {
    sg_emit(c->fn, c->user, SG_SEV_ERROR, "%s: llvm-spirv-15 failed to translate to SPIR-V", path);
    r = SG_ERROR_COMPILE;
    goto out_argv;
  }
  *out_bytes = sg_read_file(spv, out_n);
  if (*out_bytes && (opt->debug_info || opt->line_info))
    *out_n = drop_debug_source_none(*out_bytes, *out_n);
  if (!*out_bytes) {
    sg_emit(c->fn, c->user, SG_SEV_ERROR, "%s: cannot read the compiled SPIR-V: %s", path,
            strerror(errno));
    r = SG_ERROR_IO;
  }
out_argv:
  free(abs);
  for (uint32_t i = 0; i < opt->n_defines; i++)
    free(defs[i]);
  free(defs);
  free(argv);
out:
  if (have_bc)
    unlink(bc);
  if (have_spv)
    unlink(spv);
  free(clang);
  free(llvm_spirv);
  return r;
}

/* spirv-link appends the modules' functions in input order, so a kernel
 * may call a function defined after it; the loader wants callees first.
 * Reorders the function definitions in place: each after the functions it
 * calls (depth first; recursion is refused by the loader anyway).  Returns
 * false when the module is not what this expects (then it is left as is). */
typedef struct fn_span { size_t start, end; uint32_t id; bool done, busy; } fn_span;

static void emit_fn(const uint32_t *w, fn_span *f, size_t nf, size_t i, uint32_t *out, size_t *k)
{
  if (f[i].done || f[i].busy)
    return;
  f[i].busy = true;
  for (size_t p = f[i].start; p < f[i].end;) {
    uint32_t len = w[p] >> 16, op = w[p] & 0xffff;
    if (op == 57 /* OpFunctionCall */ && len >= 4)
      for (size_t j = 0; j < nf; j++)
        if (f[j].id == w[p + 3])
          emit_fn(w, f, nf, j, out, k);
    p += len ? len : 1;
  }
  memcpy(out + *k, w + f[i].start, (f[i].end - f[i].start) * 4);
  *k += f[i].end - f[i].start;
  f[i].done = true;
}

static bool order_functions(uint32_t *w, size_t n)
{
  if (n < 5)
    return false;
  size_t first = 0, nf = 0;
  fn_span *f = NULL;
  for (size_t p = 5; p < n;) {
    uint32_t len = w[p] >> 16, op = w[p] & 0xffff;
    if (len == 0 || p + len > n) {
      free(f);
      return false;
    }
    if (op == 54 /* OpFunction */) {
      if (!first)
        first = p;
      fn_span *g = realloc(f, (nf + 1) * sizeof *f);
      if (!g) {
        free(f);
        return false;
      }
      f = g;
      f[nf] = (fn_span){p, n, len > 2 ? w[p + 2] : 0, false, false};
      nf++;
    } else if (op == 56 /* OpFunctionEnd */ && nf) {
      f[nf - 1].end = p + len;
    }
    p += len;
  }
  uint32_t *out = nf ? malloc((n - first) * 4) : NULL;
  if (!out) {
    free(f);
    return false;
  }
  size_t k = 0;
  for (size_t i = 0; i < nf; i++)
    emit_fn(w, f, nf, i, out, &k);
  bool ok = k == n - first;
  if (ok)
    memcpy(w + first, out, k * 4);
  free(out);
  free(f);
  return ok;
}


static bool write_bytes(const char *path, const void *b, size_t n)
{
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(b, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

sg_result sg_link_spirv(const void *const *modules, const size_t *sizes, uint32_t n, bool library,
                        const sg_load_options *opt, void **out_spirv, size_t *out_n)
{
  static const sg_load_options defaults = {.opt_level = -1};
  if (!out_spirv || !out_n || !modules || !sizes || n == 0)
    return SG_ERROR_INVALID_ARGUMENT;
  *out_spirv = NULL;
  *out_n = 0;
  if (!opt)
    opt = &defaults;
  load_ctx c = {opt->message, opt->message_user, false};
  uint32_t version = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!modules[i] || !is_spirv_magic(modules[i], sizes[i]) || sizes[i] < 20 || sizes[i] % 4) {
      sg_emit(c.fn, c.user, SG_SEV_ERROR, "link input %u is not a SPIR-V binary", i + 1);
      return SG_ERROR_INVALID_MODULE;
    }
    uint32_t v;
    memcpy(&v, (const unsigned char *)modules[i] + 4, 4);
    version = v > version ? v : version;
  }
  char *linker = find_in_path("spirv-link");
  if (!linker) {
    sg_emit(c.fn, c.user, SG_SEV_ERROR, "linking needs spirv-link (apt-get install spirv-tools)");
    return SG_ERROR_TOOL_MISSING;
  }
  const char *tmpdir = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/sglink.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  char **files = calloc(n + 1, sizeof *files);
  char **argv = calloc(n + 6, sizeof *argv);
  sg_result r = SG_SUCCESS;
  if (!files || !argv || !mkdtemp(dir)) {
    free(files);
    free(argv);
    free(linker);
    return SG_ERROR_NOMEM;
  }
  size_t l = strlen(dir) + 32;
  size_t k = 0;
  argv[k++] = linker;
  argv[k++] = "-o";
  argv[k++] = files[n] = malloc(l);
  if (library)
    argv[k++] = "--create-library";
  if (!files[n])
    r = SG_ERROR_NOMEM;
  else
    snprintf(files[n], l, "%s/linked.spv", dir);
  for (uint32_t i = 0; i < n && r == SG_SUCCESS; i++) {
    files[i] = malloc(l);
    unsigned char *copy = malloc(sizes[i]);
    if (!files[i] || !copy) {
      free(copy);
      r = SG_ERROR_NOMEM;
      break;
    }
    snprintf(files[i], l, "%s/in%u.spv", dir, i);
    memcpy(copy, modules[i], sizes[i]);
    memcpy(copy + 4, &version, 4);
    if (!write_bytes(files[i], copy, sizes[i]))
      r = SG_ERROR_IO;
    free(copy);
    argv[k++] = files[i];
  }
  argv[k] = NULL;
  if (r == SG_SUCCESS) {
    int st = run_tool(argv, &c);
    if (st != 0) {
      sg_emit(c.fn, c.user, SG_SEV_ERROR, st < 0 ? "cannot run spirv-link" : "spirv-link failed (see the messages above)");
      r = SG_ERROR_INVALID_MODULE;
    }
  }
  if (r == SG_SUCCESS) {
    *out_spirv = sg_read_file(files[n], out_n);
    if (!*out_spirv)
      r = SG_ERROR_IO;
    else if (!library)
      order_functions(*out_spirv, *out_n / 4);
  }
  for (uint32_t i = 0; i <= n; i++)
    if (files[i]) {
      unlink(files[i]);
      free(files[i]);
    }
  rmdir(dir);
  free(files);
  free(argv);
  free(linker);
  return r;
}

sg_result sg_compile_cl(const char *path, const sg_load_options *opt, void **out_spirv,
                        size_t *out_n)
{
  static const sg_load_options defaults = {.opt_level = -1};
  if (!path || !out_spirv || !out_n)
    return SG_ERROR_INVALID_ARGUMENT;
  *out_spirv = NULL;
  *out_n = 0;
  if (!opt)
    opt = &defaults;
  load_ctx c = {opt->message, opt->message_user, false};
  return compile_cl(path, opt, &c, out_spirv, out_n);
}

sg_result sg_module_load_file(const char *path, const sg_load_options *opt, sg_module **out)
{
  static const sg_load_options defaults = {.opt_level = -1};
  if (!out)
    return SG_ERROR_INVALID_ARGUMENT;
  *out = NULL;
  if (!opt)
    opt = &defaults;
  load_ctx c = {opt->message, opt->message_user, false};
  if (!path) {
    sg_emit(c.fn, c.user, SG_SEV_ERROR, "no input file");
    return SG_ERROR_INVALID_ARGUMENT;
  }
  struct stat st;
  if (stat(path, &st) != 0) {
    sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: %s", path, strerror(errno));
    return SG_ERROR_IO;
  }
  if (S_ISDIR(st.st_mode)) {
    sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: is a directory", path);
    return SG_ERROR_IO;
  }
  size_t n = 0;
  void *bytes = NULL;
  sg_result r;
  if (has_ext(path, ".cl")) {
    if (access(path, R_OK) != 0) {
      sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: %s", path, strerror(errno));
      return SG_ERROR_IO;
    }
    r = compile_cl(path, opt, &c, &bytes, &n);
    if (r != SG_SUCCESS)
      return r;
  } else {
    uint64_t max = opt->max_module_bytes ? opt->max_module_bytes : LD_DEFAULT_MAX_BYTES;
    /* A regular file is mapped, not read: no second copy of a large module
     * in anonymous memory (the loader copies the words it keeps). */
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
      if ((uint64_t)st.st_size > max) {
        sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: %lld bytes, larger than the limit of %llu bytes for a "
                "module (raise it with --max-module-size)", path, (long long)st.st_size, (unsigned long long)max);
        return SG_ERROR_IO;
      }
      int fd = open(path, O_RDONLY | O_CLOEXEC);
      void *map = fd < 0 ? MAP_FAILED : mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      int e = errno;
      if (fd >= 0)
        close(fd);
      if (map != MAP_FAILED) {
        r = sg_module_load_memory(map, (size_t)st.st_size, path, opt, out);
        munmap(map, (size_t)st.st_size);
        return r;
      }
      if (fd < 0) {
        sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: %s", path, strerror(e));
        return SG_ERROR_IO;
      }
      /* not mappable: read it below */
    }
    bytes = sg_read_file_max(path, max > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)max, &n);
    if (!bytes) {
      if (errno == EFBIG)
        sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: larger than the limit of %llu bytes for a "
                "module (raise it with --max-module-size)", path, (unsigned long long)max);
      else
        sg_emit(c.fn, c.user, SG_SEV_ERROR, "%s: %s", path, strerror(errno));
      return SG_ERROR_IO;
    }
  }
  r = sg_module_load_memory(bytes, n, path, opt, out);
  free(bytes);
  return r;
}

void sg_module_destroy(sg_module *m)
{
  if (!m)
    return;
  ld_module_free(m->ir);
  free(m->path);
  free(m->kernels);
  free(m->args);
  free(m->strings);
  free(m);
}

const char *sg_module_path(const sg_module *m) { return m ? m->path : NULL; }
const void *sg_module_ir(const sg_module *m) { return m ? m->ir : NULL; }
uint32_t sg_module_kernel_count(const sg_module *m) { return m ? m->n_kernels : 0; }

const sg_kernel_info *sg_module_kernel(const sg_module *m, uint32_t i)
{
  return m && i < m->n_kernels ? &m->kernels[i] : NULL;
}

const sg_kernel_info *sg_module_find_kernel(const sg_module *m, const char *name)
{
  if (!m || !name)
    return NULL;
  for (uint32_t i = 0; i < m->n_kernels; i++)
    if (m->kernels[i].name && !strcmp(m->kernels[i].name, name))
      return &m->kernels[i];
  return NULL;
}

/* --------------------------------------------- clGetKernelSubGroupInfoKHR */

static int32_t put_size_t(size_t v, size_t param_value_size, void *param_value,
                          size_t *ret)
{
  if (param_value && param_value_size < sizeof(size_t))
    return CL_INVALID_VALUE;
  if (param_value)
    memcpy(param_value, &v, sizeof v);
  if (ret)
    *ret = sizeof(size_t);
  return CL_SUCCESS;
}

int32_t sg_kernel_sub_group_info(const sg_module *m, const char *kernel_name,
                                 uint32_t param_name, size_t input_value_size,
                                 const void *input_value, size_t param_value_size,
                                 void *param_value, size_t *param_value_size_ret)
{
  return sg_kernel_sub_group_info_for(m, kernel_name, 0, param_name, input_value_size,
                                      input_value, param_value_size, param_value,
                                      param_value_size_ret);
}

int32_t sg_kernel_sub_group_info_for(const sg_module *m, const char *kernel_name,
                                     uint32_t subgroup_size, uint32_t param_name,
                                     size_t input_value_size, const void *input_value,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret)
{
  const sg_kernel_info *k = sg_module_find_kernel(m, kernel_name);
  if (!k)
    return CL_INVALID_KERNEL;
  /* S as sg_run picks it: the required size, else the launch's, else 16 */
  size_t S = k->reqd_subgroup_size ? k->reqd_subgroup_size
           : subgroup_size ? subgroup_size : IP_DEFAULT_SUBGROUP_SIZE;
  size_t local[3] = {1, 1, 1};
  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR: {
    /* "The number of dimensions in the ND-range will be inferred from the
     * value specified for input_value_size." */
    if (!input_value || input_value_size == 0 || input_value_size % sizeof(size_t) ||
        input_value_size > 3 * sizeof(size_t))
      return CL_INVALID_VALUE;
    memcpy(local, input_value, input_value_size);
    size_t total = 1;
    for (int i = 0; i < 3; i++) {
      if (local[i] == 0)
        return CL_INVALID_VALUE;
      if (total > SIZE_MAX / local[i])
        return CL_INVALID_VALUE;
      total *= local[i];
    }
    /* the maximum is S whatever the local size: get_max_sub_group_size()
     * inside the kernel (docs/semantics.md, SubgroupMaxSize) */
    size_t v = param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR ? S : (total + S - 1) / S;
    return put_size_t(v, param_value_size, param_value, param_value_size_ret);
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    /* Input: the sub-group count (size_t); output: a local size of
     * param_value_size / sizeof(size_t) dimensions, all zero when no
     * local size gives exactly that many sub-groups. */
    if (!input_value || input_value_size != sizeof(size_t))
      return CL_INVALID_VALUE;
    size_t count;
    memcpy(&count, input_value, sizeof count);
    size_t dims = param_value_size / sizeof(size_t);
    if (param_value && (param_value_size % sizeof(size_t) || dims < 1 || dims > 3))
      return CL_INVALID_VALUE;
    size_t out[3] = {0, 0, 0};
    if (count > 0 && count <= SG_DEVICE_MAX_WORK_GROUP_SIZE / S) {
      out[0] = count * S;
      out[1] = out[2] = 1;
    }
    if (param_value)
      memcpy(param_value, out, dims * sizeof(size_t));
    if (param_value_size_ret)
      *param_value_size_ret = param_value ? dims * sizeof(size_t) : 3 * sizeof(size_t);
    return CL_SUCCESS;
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    return put_size_t((SG_DEVICE_MAX_WORK_GROUP_SIZE + S - 1) / S, param_value_size,
                      param_value, param_value_size_ret);
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    return put_size_t(k->subgroups_per_wg, param_value_size, param_value,
                      param_value_size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

/* ------------------------------------------------------------------ running */

struct diag_text {
  char kind[64], insn[64], loc[300], msg[512], formatted[1280];
  char acc_insn[2][64], acc_loc[2][300];
};

typedef struct report_impl {
  sg_report pub;           /* first: sg_report* <-> report_impl* */
  sg_diag *diags;
  struct diag_text *texts;
  char *printf_buf;
  size_t printf_len, printf_cap;
  bool capture;
  sg_write_fn fwd;
  void *fwd_user;
  char *fallback;
} report_impl;

static void printf_sink(void *user, const char *text, size_t len)
{
  report_impl *r = user;
  if (!r->capture)
    return;
  if (r->fwd)
    r->fwd(r->fwd_user, text, len);
  if (r->printf_len + len + 1 > r->printf_cap) {
    size_t cap = r->printf_cap ? r->printf_cap : 256;
    while (cap < r->printf_len + len + 1)
      cap *= 2;
    char *nb = realloc(r->printf_buf, cap);
    if (!nb)
      return;
    r->printf_buf = nb;
    r->printf_cap = cap;
  }
  memcpy(r->printf_buf + r->printf_len, text, len);
  r->printf_len += len;
  r->printf_buf[r->printf_len] = 0;
}

void sg_report_destroy(sg_report *pub)
{
  if (!pub)
    return;
  report_impl *r = (report_impl *)pub;
  free(r->diags);
  free(r->texts);
  free(r->printf_buf);
  free(r->fallback);
  free(r);
}

static bool to_ip_args(const sg_run_desc *d, ip_arg **out, char *err, size_t err_size)
{
  *out = NULL;
  if (d->n_args == 0)
    return true;
  ip_arg *a = calloc(d->n_args, sizeof *a);
  if (!a) {
    snprintf(err, err_size, "out of memory");
    return false;
  }
  for (uint32_t i = 0; i < d->n_args; i++) {
    const sg_arg *s = &d->args[i];
    switch (s->kind) {
    case SG_ARG_BUFFER: a[i].kind = IP_ARG_BUFFER; break;
    case SG_ARG_NULL: a[i].kind = IP_ARG_NULL; break;
    case SG_ARG_LOCAL: a[i].kind = IP_ARG_LOCAL; break;
    case SG_ARG_VALUE: a[i].kind = IP_ARG_VALUE; break;
    case SG_ARG_IMAGE: a[i].kind = IP_ARG_IMAGE; break;
    case SG_ARG_SAMPLER: a[i].kind = IP_ARG_SAMPLER; break;
    default:
      snprintf(err, err_size, "argument %u: unsupported argument kind", i);
      free(a);
      return false;
    }
    a[i].data = s->data;
    a[i].size = s->size;
    a[i].sampler = s->sampler;
    a[i].noinit = s->noinit;
    a[i].access = s->access == SG_ACCESS_READ_ONLY ? IP_ACCESS_READ_ONLY
                : s->access == SG_ACCESS_WRITE_ONLY ? IP_ACCESS_WRITE_ONLY : IP_ACCESS_READ_WRITE;
    a[i].image.image_type = s->image.image_type;
    a[i].image.channel_order = s->image.channel_order;
    a[i].image.channel_type = s->image.channel_type;
    a[i].image.width = s->image.width;
    a[i].image.height = s->image.height;
    a[i].image.depth = s->image.depth;
    a[i].image.array_size = s->image.array_size;
    a[i].image.row_pitch = s->image.row_pitch;
    a[i].image.slice_pitch = s->image.slice_pitch;
  }
  *out = a;
  return true;
}

/* Threads of a launch: -j N, else every core for the JIT (and auto), one
 * for the interpreter (the debugging default). */
static uint32_t run_threads_of(const sg_run_desc *d)
{
  if (d->threads || d->backend == SG_BACKEND_INTERP)
    return d->threads > 1 ? d->threads : 1;
  long nc = sysconf(_SC_NPROCESSORS_ONLN);
  return nc > 1 ? (uint32_t)(nc < 256 ? nc : 256) : 1;
}

_Static_assert((unsigned)SG_CHECK_DATA_RACES == (unsigned)IP_DETECT_RACES &&
               (unsigned)SG_CHECK_LOCKSTEP == (unsigned)IP_DETECT_LOCKSTEP &&
               (unsigned)SG_CHECK_UNINITIALIZED == (unsigned)IP_DETECT_UNINIT, "detector bits are passed as they are");

static void fill_ip_desc(const sg_run_desc *d, ip_launch_desc *ipd, const ip_arg *args)
{
  memset(ipd, 0, sizeof *ipd);
  ipd->kernel = d->kernel;
  ipd->work_dim = d->work_dim;
  for (int i = 0; i < 3; i++) {
    ipd->global_size[i] = d->global_size[i];
    ipd->local_size[i] = d->local_size[i];
    ipd->global_offset[i] = d->global_offset[i];
  }
  ipd->subgroup_size = d->subgroup_size;
  ipd->args = args;
  ipd->n_args = d->n_args;
  ipd->threads = run_threads_of(d);
  ipd->ub = d->ub == SG_UB_ERROR ? IP_UB_ERROR : d->ub == SG_UB_IGNORE ? IP_UB_IGNORE : IP_UB_WARN;
  ipd->stop_on_fault = d->stop_on_fault;
  ipd->step_limit = d->step_limit;
  ipd->time_limit = d->time_limit;
  ipd->checks = d->checks;   /* SG_CHECK_* == IP_DETECT_* */
  ipd->max_private_total = d->max_private_memory;
}

static sg_result map_ip_result(ip_result r)
{
  switch (r) {
  case IP_OK: return SG_SUCCESS;
  case IP_FAULTED: return SG_FAULTED;
  case IP_ERR_KERNEL: return SG_ERROR_NO_KERNEL;
  case IP_ERR_UNSUPPORTED: return SG_ERROR_UNSUPPORTED;
  case IP_ERR_NOMEM: return SG_ERROR_NOMEM;
  default: return SG_ERROR_LAUNCH;
  }
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* o's strings point into t. */
static void convert_diag(const ld_module *m, const ip_diag *d, sg_diag *o, struct diag_text *t)
{
  memset(o, 0, sizeof *o);
  snprintf(t->kind, sizeof t->kind, "%s", ip_diag_kind_name(d->kind));
  o->kind = t->kind;
  o->is_ub = ip_diag_is_ub(d->kind);
  memcpy(o->group, d->group, sizeof o->group);
  o->subgroup = d->subgroup;
  o->lanes[0] = d->lanes.w[0];
  o->lanes[1] = d->lanes.w[1];
  if (d->insn) {
    snprintf(t->insn, sizeof t->insn, "%s", spv_opcode_name(d->insn->op));
    o->instruction = t->insn;
    o->word = d->insn->word_offset;
    if (d->insn->loc && d->insn->loc->file) {
      snprintf(t->loc, sizeof t->loc, "%s:%u", d->insn->loc->file, d->insn->loc->line);
      o->location = t->loc;
    }
  }
  snprintf(t->msg, sizeof t->msg, "%s", d->message);
  o->message = t->msg;
  ip_diag_format(m, d, t->formatted, sizeof t->formatted);
  o->formatted = t->formatted;
  o->n_accesses = d->n_access;
  for (uint32_t i = 0; i < d->n_access && i < 2; i++) {
    const ip_diag_access *a = &d->access[i];
    sg_diag_access *oa = &o->accesses[i];
    oa->access = a->what;
    memcpy(oa->group, a->group, sizeof oa->group);
    memcpy(oa->local_id, a->local_id, sizeof oa->local_id);
    oa->subgroup = a->subgroup;
    oa->lane = a->lane;
    if (a->insn) {
      snprintf(t->acc_insn[i], sizeof t->acc_insn[i], "%s", spv_opcode_name(a->insn->op));
      oa->instruction = t->acc_insn[i];
      oa->word = a->insn->word_offset;
      if (a->insn->loc && a->insn->loc->file) {
        snprintf(t->acc_loc[i], sizeof t->acc_loc[i], "%s:%u", a->insn->loc->file, a->insn->loc->line);
        oa->location = t->acc_loc[i];
      }
    }
  }
}

/* ip_launch_desc.on_diag -> sg_run_desc.on_diag */
typedef struct diag_fwd {
  const ld_module *m;
  sg_diag_fn fn;
  void *user;
} diag_fwd;

static void diag_forward(void *user, const ip_diag *d)
{
  diag_fwd *f = user;
  struct diag_text t;
  sg_diag o;
  convert_diag(f->m, d, &o, &t);
  f->fn(f->user, &o);
}

static void convert_report(report_impl *r, const ld_module *m, const ip_report *ir)
{
  sg_report *p = &r->pub;
  p->n_faults = ir->n_faults;
  p->n_ub = ir->n_ub;
  p->insns = ir->insns;
  p->lane_insns = ir->lane_insns;
  p->stopped = ir->stopped;
  p->subgroup_size = ir->subgroup_size;
  for (int i = 0; i < 3; i++)
    p->local_size[i] = ir->local_size[i];
  if (!ir->n_diags)
    return;
  r->diags = calloc(ir->n_diags, sizeof *r->diags);
  r->texts = calloc(ir->n_diags, sizeof *r->texts);
  if (!r->diags || !r->texts)
    return;
  for (uint32_t i = 0; i < ir->n_diags; i++)
    convert_diag(m, &ir->diags[i], &r->diags[i], &r->texts[i]);
  p->n_diags = ir->n_diags;
  p->diags = r->diags;
}

/* The common start of sg_run and sg_launch_create: err may be NULL (then
 * the scratch buffer takes the message).  False, with the message, when
 * !args_ok (a NULL argument). */
static bool start_call(const char *fn, bool args_ok, char **err, size_t *err_size,
                       char *scratch, size_t scratch_size)
{
  if (!*err || !*err_size) {
    *err = scratch;
    *err_size = scratch_size;
  }
  (*err)[0] = 0;
  if (!args_ok)
    snprintf(*err, *err_size, "%s: NULL argument", fn);
  return args_ok;
}

sg_result sg_run(const sg_module *m, const sg_run_desc *d, sg_report **out,
                 char *err, size_t err_size)
{
  char dummy[8];
  if (!start_call("sg_run", out && m && d, &err, &err_size, dummy, sizeof dummy))
    return SG_ERROR_INVALID_ARGUMENT;
  *out = NULL;
  const ld_kernel *k = d->kernel ? ld_find_kernel(m->ir, d->kernel) : NULL;
  if (!k) {
    snprintf(err, err_size, "no kernel named '%s' in %s", d->kernel ? d->kernel : "(null)",
             m->path);
    sg_emit(d->message, d->message_user, SG_SEV_ERROR, "%s", err);
    return SG_ERROR_NO_KERNEL;
  }
  /* detectors are plugins of the interpreter (interp/ip_check.h) */
  sg_backend backend = d->checks ? SG_BACKEND_INTERP : d->backend;
  if (d->checks && d->backend == SG_BACKEND_JIT) {
    snprintf(err, err_size, "the detectors (--data-races, --lockstep, --uninitialized) run on "
             "the interpreter only: use --backend interp or auto");
    sg_emit(d->message, d->message_user, SG_SEV_ERROR, "%s", err);
    return SG_ERROR_INVALID_ARGUMENT;
  }
  report_impl *r = calloc(1, sizeof *r);
  ip_arg *args = NULL;
  uint8_t **saved = NULL;
  sg_jit_job job;
  bool job_used = false;
  double *times = NULL;
  sg_result res = SG_SUCCESS;
  if (!r) {
    snprintf(err, err_size, "out of memory");
    return SG_ERROR_NOMEM;
  }
  if (!to_ip_args(d, &args, err, err_size)) {
    res = SG_ERROR_LAUNCH;
    goto fail;
  }
  uint32_t repeat = d->repeat ? d->repeat : 1;
  times = calloc(repeat, sizeof *times);
  if (!times) {
    res = SG_ERROR_NOMEM;
    snprintf(err, err_size, "out of memory");
    goto fail;
  }
  if (repeat > 1 && d->n_args) {
    /* Every launch sees the same inputs: keep the initial bytes. */
    saved = calloc(d->n_args, sizeof *saved);
    if (!saved) {
      res = SG_ERROR_NOMEM;
      goto fail;
    }
    for (uint32_t i = 0; i < d->n_args; i++)
      if ((d->args[i].kind == SG_ARG_BUFFER || d->args[i].kind == SG_ARG_IMAGE) &&
          d->args[i].data && d->args[i].size) {
        saved[i] = malloc(d->args[i].size);
        if (!saved[i]) {
          res = SG_ERROR_NOMEM;
          snprintf(err, err_size, "out of memory");
          goto fail;
        }
        memcpy(saved[i], d->args[i].data, d->args[i].size);
      }
  }

  /* Backend choice (docs/semantics.md, "Backend selection"):
   *   interp  the interpreter only;
   *   jit     compile first, run everything native; if the compile fails,
   *           the interpreter, with one warning and the reason recorded;
   *   auto    the interpreter first; once the kernel is hot (jit_threshold
   *           subgroup-instructions, or compiled before on this machine) the
   *           compile runs on a background thread while the interpreter goes
   *           on, and the launch switches to native code at a work-group
   *           boundary.  --repeat launches reuse the compiled kernel. */
  uint32_t S = d->subgroup_size ? d->subgroup_size : k->subgroup_size ? k->subgroup_size
                                                                      : IP_DEFAULT_SUBGROUP_SIZE;
  if (k->subgroup_size)
    S = k->subgroup_size;
  sg_jit_job_init(&job, m->ir, d->kernel, S, d->jit_opt_level);
  job_used = true;
  /* The JIT reads buffers in place; only the interpreter checks reads of
   * write-only ones. */
  for (uint32_t i = 0; i < d->n_args; i++)
    if (d->args[i].kind == SG_ARG_BUFFER && d->args[i].access == SG_ACCESS_WRITE_ONLY)
      job.refuse = "a write-only (wo) buffer: interpreter only";
  uint64_t threshold = d->jit_threshold ? d->jit_threshold : SG_JIT_DEFAULT_THRESHOLD;
  uint32_t nt = run_threads_of(d);
  bool fallback_noted = false;
  /* the compile starts once the first launch knows its shape (full_only) */
  bool start_sync = backend == SG_BACKEND_JIT;
  bool start_async = backend == SG_BACKEND_AUTO && sg_jit_seen(&job);
  uint64_t hot = 0;   /* interpreter subgroup-instructions of earlier launches */

  r->fwd = d->printf_out;
  r->fwd_user = d->printf_user;
  diag_fwd fwd = {m->ir, d->on_diag, d->diag_user};
  for (uint32_t it = 0; it < repeat; it++) {
    if (it > 0 && saved)
      for (uint32_t i = 0; i < d->n_args; i++)
        if (saved[i])
          memcpy(d->args[i].data, saved[i], d->args[i].size);
    ip_launch_desc ipd;
    fill_ip_desc(d, &ipd, args);
    r->capture = it == 0;
    ipd.out = printf_sink;
    ipd.out_user = r;
    if (d->on_diag && it == 0) {
      ipd.on_diag = diag_forward;
      ipd.diag_user = &fwd;
    }
    ip_launch *l = NULL;
    ip_result ir = ip_launch_create(m->ir, &ipd, &l, err, err_size);
    if (ir != IP_OK || !l) {
      res = map_ip_result(ir);
      if (res == SG_SUCCESS || res == SG_FAULTED)
        res = SG_ERROR_LAUNCH;
      if (!err[0])
        snprintf(err, err_size, "cannot launch kernel '%s'", d->kernel);
      sg_emit(d->message, d->message_user, SG_SEV_ERROR, "%s", err);
      goto fail;
    }
    if (it == 0) {
      /* every launch of this call has this shape: a convergent kernel
       * whose subgroups are all whole compiles only that variant */
      job.opt.full_only = jit_launch_full(ip_launch_ndrange(l));
      job.opt.linear_x = jit_launch_linear_x(ip_launch_ndrange(l));
      job.opt.step_limit = ip_launch_step_limit(l);
      if (start_sync) {
        sg_jit_job_start(&job, false);
      } else if (start_async) {
        sg_jit_job_start(&job, true);
        if (d->jit_wait)
          sg_jit_job_wait(&job);
      }
    }
    double t0 = sg_now_ms();
    ip_launch_reset(l);
    uint64_t total = ip_launch_group_count(l), pos = 0, step = nt, pchunk = nt;
    while (pos < total) {
      if (sg_jit_job_ready(&job) && !job.k && !fallback_noted) {
        fallback_noted = true;
        r->fallback = strdup(job.err);
        r->pub.fallback_reason = r->fallback;
        if (backend == SG_BACKEND_JIT)
          sg_emit(d->message, d->message_user, SG_SEV_WARNING,
                  "JIT unavailable for kernel '%s', falling back to the interpreter: %s",
                  d->kernel, r->fallback ? r->fallback : "");
      }
      bool interp_only = backend == SG_BACKEND_INTERP || (sg_jit_job_ready(&job) && !job.k);
      if (interp_only || sg_jit_job_ready(&job)) {
        /* the rest on one backend; with a progress callback in chunks that
         * take about 0.2 s each, reported between them */
        uint64_t n = d->progress ? (pchunk < total - pos ? pchunk : total - pos) : total - pos;
        double c0 = sg_now_ms();
        if (interp_only) {
          ir = ip_launch_run_range(l, pos, n);
          r->pub.wg_interp += n;
        } else {
          /* fewer threads when their private memory would not fit */
          uint32_t mt = ip_launch_max_threads(l);
          ir = sg_jit_run_range(job.k, l, nt < mt ? nt : mt, pos, n, d->threads == 0);
          r->pub.wg_jit += n;
        }
        pos += n;
        if (!d->progress || pos >= total || ir < 0 || ip_launch_report(l)->stopped)
          break;
        d->progress(d->progress_user, pos, total);
        double dt = sg_now_ms() - c0;
        if (dt < 100 && pchunk < ((uint64_t)1 << 40))
          pchunk *= 2;
        else if (dt > 400 && pchunk > nt)
          pchunk /= 2;
        continue;
      }
      /* auto, no native code yet: a few work-groups in the interpreter,
       * growing chunks so the switch stays close to the compile's end */
      if (!job.started && hot + ip_launch_report(l)->insns >= threshold) {
        sg_jit_job_start(&job, true);
        if (d->jit_wait)
          sg_jit_job_wait(&job);
        continue;
      }
      uint64_t n = total - pos < step ? total - pos : step;
      ir = ip_launch_run_range(l, pos, n);
      r->pub.wg_interp += n;
      pos += n;
      if (ir < 0 || ip_launch_report(l)->stopped)
        break;
      if (d->progress && pos < total)
        d->progress(d->progress_user, pos, total);
      if (step < 64 * (uint64_t)nt)
        step *= 2;
    }
    hot += ip_launch_report(l)->insns;
    times[it] = sg_now_ms() - t0;
    if (it == 0) {
      const ip_report *rep = ip_launch_report(l);
      if (rep)
        convert_report(r, m->ir, rep);
      res = map_ip_result(ir);
      if (res == SG_SUCCESS && rep && (rep->n_faults || (d->ub == SG_UB_ERROR && rep->n_ub)))
        res = SG_FAULTED;
      if (res != SG_SUCCESS && res != SG_FAULTED) {
        snprintf(err, err_size, "kernel '%s' could not run: %s", d->kernel,
                 r->pub.n_diags ? r->pub.diags[0].formatted : sg_result_name(res));
        sg_emit(d->message, d->message_user, SG_SEV_ERROR, "%s", err);
        ip_launch_free(l);
        goto fail;
      }
    }
    ip_launch_free(l);
  }
  sg_jit_job_wait(&job);   /* a compile still under way: the module must outlive it */
  if (job.started) {
    r->pub.compile_ms = job.ms;
    if (job.k) {
      r->pub.jit_from_cache = job.stats.from_cache;
      r->pub.jit_ir_statements = job.stats.ir_statements;
      r->pub.jit_interp_insns = job.stats.interp_insns;
      r->pub.jit_convergent = job.stats.convergent;
      r->pub.jit_masked_loops = job.stats.masked_loops;
      r->pub.jit_wide_fields = job.stats.wide_fields;
    }
    if (!job.k && !fallback_noted) {
      r->fallback = strdup(job.err);
      r->pub.fallback_reason = r->fallback;
    }
  }
  r->pub.backend = r->pub.wg_jit ? (r->pub.wg_interp ? "mixed" : "jit") : "interp";
  r->pub.status = res;
  r->pub.printf_text = r->printf_buf ? r->printf_buf : "";
  r->pub.printf_len = r->printf_len;
  r->pub.first_ms = times[0];
  qsort(times, repeat, sizeof *times, cmp_double);
  r->pub.best_ms = times[0];
  r->pub.median_ms = repeat % 2 ? times[repeat / 2] : (times[repeat / 2 - 1] + times[repeat / 2]) / 2;
  *out = &r->pub;
  r = NULL;
fail:
  if (saved) {
    for (uint32_t i = 0; i < d->n_args; i++)
      free(saved[i]);
    free(saved);
  }
  if (job_used)
    sg_jit_job_fini(&job);
  free(times);
  free(args);
  sg_report_destroy(r ? &r->pub : NULL);
  return res;
}

/* ------------------------------------------------------------------ stepping */

struct sg_launch {
  const sg_module *m;
  ip_launch *l;
  ip_arg *args;
  diag_fwd fwd;
  char *kernel;              /* for the fast-forward's JIT compile */
  int jit_opt_level;
  uint32_t threads;
};

sg_result sg_launch_create(const sg_module *m, const sg_run_desc *d, sg_launch **out,
                           char *err, size_t err_size)
{
  char dummy[8];
  if (!start_call("sg_launch_create", out && m && d, &err, &err_size, dummy, sizeof dummy))
    return SG_ERROR_INVALID_ARGUMENT;
  *out = NULL;
  sg_launch *sl = calloc(1, sizeof *sl);
  if (!sl) {
    snprintf(err, err_size, "out of memory");
    return SG_ERROR_NOMEM;
  }
  sl->m = m;
  if (!to_ip_args(d, &sl->args, err, err_size)) {
    free(sl);
    return SG_ERROR_LAUNCH;
  }
  ip_launch_desc ipd;
  fill_ip_desc(d, &ipd, sl->args);
  ipd.out = (ip_write_fn)d->printf_out;
  ipd.out_user = d->printf_user;
  if (d->on_diag) {
    sl->fwd = (diag_fwd){m->ir, d->on_diag, d->diag_user};
    ipd.on_diag = diag_forward;
    ipd.diag_user = &sl->fwd;
  }
  ip_result r = ip_launch_create(m->ir, &ipd, &sl->l, err, err_size);
  if (r != IP_OK || !sl->l) {
    free(sl->args);
    free(sl);
    sg_result s = map_ip_result(r);
    return s == SG_SUCCESS || s == SG_FAULTED ? SG_ERROR_LAUNCH : s;
  }
  sl->kernel = d->kernel ? strdup(d->kernel) : NULL;
  sl->jit_opt_level = d->jit_opt_level;
  sl->threads = d->threads;
  *out = sl;
  return SG_SUCCESS;
}

/* The debugger's fast-forward (sg_internal.h): work-groups [first,
 * first+count), none begun yet, run to their end at full speed - natively
 * when jit and the kernel compiles, else in the interpreter without
 * per-instruction stops - as one range of the launch. */
sg_result sg_launch_run_groups(sg_launch *sl, uint64_t first, uint64_t count, bool jit, bool *used_jit,
                               char *err, size_t err_size)
{
  if (used_jit)
    *used_jit = false;
  if (!sl || !count)
    return SG_SUCCESS;
  if (err && err_size)
    err[0] = 0;
  uint32_t S = ip_launch_ndrange(sl->l)->sg_size;
  ip_result ir = IP_OK;
  bool done = false;
  if (jit && sl->kernel) {
    sg_jit_job job;
    sg_jit_job_init(&job, sl->m->ir, sl->kernel, S, sl->jit_opt_level);
    job.opt.full_only = jit_launch_full(ip_launch_ndrange(sl->l));
    job.opt.linear_x = jit_launch_linear_x(ip_launch_ndrange(sl->l));
    job.opt.step_limit = ip_launch_step_limit(sl->l);
    sg_jit_job_start(&job, false);
    if (job.k) {
      uint32_t mt = ip_launch_max_threads(sl->l);
      ir = sg_jit_run_range(job.k, sl->l, sl->threads > mt ? mt : sl->threads > 1 ? sl->threads : 1, first, count,
                            false);
      done = true;
      if (used_jit)
        *used_jit = true;
    } else if (err && err_size) {
      snprintf(err, err_size, "%s", job.err);
    }
    sg_jit_job_fini(&job);
  }
  if (!done)
    ir = ip_launch_run_range(sl->l, first, count);
  sg_result r = map_ip_result(ir);
  return r == SG_FAULTED ? SG_SUCCESS : r;
}

void sg_launch_destroy(sg_launch *l)
{
  if (!l)
    return;
  ip_launch_free(l->l);
  free(l->args);
  free(l->kernel);
  free(l);
}

sg_result sg_launch_run(sg_launch *l)
{
  return l ? map_ip_result(ip_launch_run(l->l)) : SG_ERROR_INVALID_ARGUMENT;
}

void sg_launch_groups(const sg_launch *l, size_t out_groups[3], uint32_t *out_sg_size)
{
  const ip_ndrange *nd = ip_launch_ndrange(l->l);
  for (int i = 0; i < 3; i++)
    out_groups[i] = nd->groups[i];
  if (out_sg_size)
    *out_sg_size = nd->sg_size;
}

uint32_t sg_launch_diag_count(const sg_launch *l)
{
  const ip_report *r = l ? ip_launch_report(l->l) : NULL;
  return r ? r->n_diags : 0;
}

bool sg_launch_diag_format(const sg_launch *l, uint32_t i, char *buf, size_t size)
{
  const ip_report *r = l ? ip_launch_report(l->l) : NULL;
  if (!r || i >= r->n_diags)
    return false;
  ip_diag_format(l->m->ir, &r->diags[i], buf, size);
  return true;
}

static sg_step map_step(ip_step s) { return (sg_step)s; }

sg_wg *sg_wg_begin(sg_launch *l, const uint32_t group[3], char *err, size_t err_size)
{
  return (sg_wg *)ip_wg_begin(l->l, group, err, err_size);
}
void sg_wg_end(sg_wg *wg) { if (wg) ip_wg_end((ip_wg *)wg); }
uint32_t sg_wg_subgroup_count(const sg_wg *wg) { return ip_wg_subgroup_count((const ip_wg *)wg); }
sg_sg *sg_wg_subgroup(sg_wg *wg, uint32_t i) { return (sg_sg *)ip_wg_subgroup((ip_wg *)wg, i); }
sg_step sg_wg_step(sg_wg *wg) { return map_step(ip_wg_step((ip_wg *)wg)); }
sg_step sg_wg_run(sg_wg *wg) { return map_step(ip_wg_run((ip_wg *)wg)); }
sg_step sg_sg_step(sg_sg *sg) { return map_step(ip_sg_step((ip_sg *)sg)); }
uint32_t sg_sg_id(const sg_sg *sg) { return ip_sg_id((const ip_sg *)sg); }
uint32_t sg_sg_lane_count(const sg_sg *sg) { return ip_sg_lane_count((const ip_sg *)sg); }
bool sg_sg_done(const sg_sg *sg) { return ip_sg_done((const ip_sg *)sg); }
uint32_t sg_sg_depth(const sg_sg *sg) { return ip_sg_depth((const ip_sg *)sg); }

void sg_sg_active(const sg_sg *sg, uint64_t out_mask[2])
{
  ip_mask m = ip_sg_active((const ip_sg *)sg);
  out_mask[0] = m.w[0];
  out_mask[1] = m.w[1];
}

static bool insn_info(const ld_insn *in, sg_insn_info *out)
{
  if (!in)
    return false;
  memset(out, 0, sizeof *out);
  out->opcode = in->op;
  out->name = spv_opcode_name(in->op);
  out->result_id = in->result;
  out->word = in->word_offset;
  if (in->loc) {
    out->file = in->loc->file;
    out->line = in->loc->line;
    out->column = in->loc->column;
  }
  return true;
}

bool sg_sg_current(const sg_sg *sg, sg_insn_info *out)
{
  return insn_info(ip_sg_current((const ip_sg *)sg), out);
}

const char *sg_sg_frame_function(const sg_sg *sg, uint32_t depth)
{
  const ld_function *f = ip_sg_frame_function((const ip_sg *)sg, depth);
  return f ? (f->name ? f->name : "<anonymous>") : NULL;
}

bool sg_sg_frame_insn(const sg_sg *sg, uint32_t depth, sg_insn_info *out)
{
  return insn_info(ip_sg_frame_insn((const ip_sg *)sg, depth), out);
}

uint32_t sg_sg_read(const sg_sg *sg, uint32_t depth, uint32_t lane, uint32_t id, void *out)
{
  return ip_sg_read((const ip_sg *)sg, depth, lane, id, out);
}

uint32_t sg_sg_lane_local_linear(const sg_sg *sg, uint32_t lane)
{
  return ip_sg_lane_local_linear((const ip_sg *)sg, lane);
}

bool sg_sg_read_memory(const sg_sg *sg, uint32_t lane, uint64_t addr, void *out, size_t n)
{
  return ip_sg_read_memory((const ip_sg *)sg, lane, addr, out, n);
}

/* The two queries below read the interpreter's machine state (ip_core.h),
 * which ip.h does not expose; this file is their one user outside interp/. */
void sg_sg_describe_addr(const sg_sg *sg, uint64_t addr, char *buf, size_t n)
{
  if (!buf || !n)
    return;
  buf[0] = 0;
  if (sg)
    ip_describe_addr((const ip_sg *)sg, addr, buf, n);
}

/* The SIMT reconvergence stack of the innermost frame, top first (the
 * debugger's 'info divergence'); sg_internal.h. */
uint32_t sg_sg_reconv(const sg_sg *sgp, uint32_t i, uint64_t mask[2], uint32_t *pc_word, uint32_t *rpc_label)
{
  const ip_sg *sg = (const ip_sg *)sgp;
  if (!sg || sg->done || !sg->n_frames)
    return 0;
  const ip_frame *f = &sg->frames[sg->n_frames - 1];
  if (i < f->depth) {
    const ip_simt *t = &f->stack[f->depth - 1 - i];
    mask[0] = t->mask.w[0];
    mask[1] = t->mask.w[1];
    *pc_word = 0;
    if (t->pc_block && t->pc_index < f->fn->block_n_ops[t->pc_block->index])
      *pc_word = f->fn->block_ops[t->pc_block->index][t->pc_index].insn->word_offset;
    *rpc_label = t->rpc ? t->rpc->label : 0;
  }
  return f->depth;
}

bool sg_sg_blocked(const sg_sg *sg)
{
  if (!sg)
    return false;
  ip_sg *s = (ip_sg *)sg;
  return !s->done && ip_sgx_of(s)->arrived;
}
