/* icd_program.c - programs (from IL, binaries and OpenCL C source), kernels,
 * kernel arguments, the kernel queries and clEnqueueNDRangeKernel, over the
 * public API (spirv_sg.h): sg_compile_cl, sg_module_load_memory, sg_run. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "icd.h"

#define SET_ERR(e) do { if (errcode_ret) *errcode_ret = (e); } while (0)

static void retain(int *refs) { __atomic_add_fetch(refs, 1, __ATOMIC_ACQ_REL); }
static bool release(int *refs) { return __atomic_sub_fetch(refs, 1, __ATOMIC_ACQ_REL) == 0; }

/* ---------------------------------------------------------------- programs */

static cl_program new_program(cl_context c)
{
  cl_program p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->dispatch = &icd_dispatch;
  p->magic = ICD_MAGIC_PROGRAM;
  p->refs = 1;
  p->ctx = c;
  p->status = CL_BUILD_NONE;
  p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  retain(&c->refs);
  return p;
}

static bool is_spirv(const void *b, size_t n)
{
  uint32_t w;
  if (n < 20 || n % 4)
    return false;
  memcpy(&w, b, 4);
  return w == 0x07230203u;
}

static cl_program CL_API_CALL icd_CreateProgramWithSource(cl_context c, cl_uint count, const char **strings,
                                                          const size_t *lengths, cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  if (count == 0 || !strings) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) {
      SET_ERR(CL_INVALID_VALUE);
      return NULL;
    }
    total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  }
  cl_program p = new_program(c);
  char *src = p ? malloc(total + 1) : NULL;
  if (!src) {
    free(p);
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  size_t k = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t l = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(src + k, strings[i], l);
    k += l;
  }
  src[k] = 0;
  p->source = src;
  SET_ERR(CL_SUCCESS);
  return p;
}

static cl_program program_from_spirv(cl_context c, const void *il, size_t n, bool binary, cl_int bad,
                                     cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  if (!il || n == 0) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  if (!is_spirv(il, n)) {
    SET_ERR(bad);
    return NULL;
  }
  cl_program p = new_program(c);
  if (p)
    p->il = malloc(n);
  if (!p || !p->il) {
    free(p);
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  memcpy(p->il, il, n);
  p->il_size = n;
  p->from_binary = binary;
  p->binary_type = binary ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE;
  SET_ERR(CL_SUCCESS);
  return p;
}

static cl_program CL_API_CALL icd_CreateProgramWithIL(cl_context c, const void *il, size_t n, cl_int *errcode_ret)
{
  return program_from_spirv(c, il, n, false, CL_INVALID_VALUE, errcode_ret);
}

/* Binaries are SPIR-V modules (what CL_PROGRAM_BINARIES hands out). */
static cl_program CL_API_CALL icd_CreateProgramWithBinary(cl_context c, cl_uint n_dev, const cl_device_id *devs,
                                                          const size_t *lengths, const unsigned char **bins,
                                                          cl_int *binary_status, cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  if (!devs || n_dev != 1 || !lengths || !bins) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  if (devs[0] != &icd_device) {
    SET_ERR(CL_INVALID_DEVICE);
    return NULL;
  }
  if (!lengths[0] || !bins[0]) {
    if (binary_status)
      binary_status[0] = CL_INVALID_VALUE;
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  cl_int e;
  cl_program p = program_from_spirv(c, bins[0], lengths[0], true, CL_INVALID_BINARY, &e);
  if (binary_status)
    binary_status[0] = e;
  SET_ERR(e);
  return p;
}

static cl_int CL_API_CALL icd_RetainProgram(cl_program p)
{
  if (!ICD_VALID(p, ICD_MAGIC_PROGRAM))
    return CL_INVALID_PROGRAM;
  retain(&p->refs);
  return CL_SUCCESS;
}

static void clear_build(cl_program p)
{
  sg_module_destroy(p->mod);
  p->mod = NULL;
  free(p->log);
  p->log = NULL;
  p->log_len = p->log_cap = 0;
  free(p->options);
  p->options = NULL;
}

static cl_int CL_API_CALL icd_ReleaseProgram(cl_program p)
{
  if (!ICD_VALID(p, ICD_MAGIC_PROGRAM))
    return CL_INVALID_PROGRAM;
  if (release(&p->refs)) {
    cl_context c = p->ctx;
    clear_build(p);
    free(p->source);
    free(p->il);
    free(p->spec);
    p->magic = 0;
    free(p);
    icd_dispatch.clReleaseContext(c);
  }
  return CL_SUCCESS;
}

static void log_append(cl_program p, const char *s)
{
  size_t n = strlen(s);
  if (p->log_len + n + 2 > p->log_cap) {
    size_t cap = (p->log_len + n + 2) * 2;
    char *l = realloc(p->log, cap);
    if (!l)
      return;
    p->log = l;
    p->log_cap = cap;
  }
  memcpy(p->log + p->log_len, s, n);
  p->log_len += n;
  p->log[p->log_len++] = '\n';
  p->log[p->log_len] = 0;
}

static void build_message(void *user, sg_severity sev, const char *text)
{
  cl_program p = user;
  if (sev == SG_SEV_NOTE) {
    log_append(p, text);
    return;
  }
  char buf[2048];
  snprintf(buf, sizeof buf, "spirv-sg: %s: %s", sev == SG_SEV_ERROR ? "error" : "warning", text);
  log_append(p, buf);
}

/* Build options -> load options.  clang -cc1 takes the OpenCL options
 * (-cl-fast-relaxed-math, -cl-mad-enable ...), -D, -I, -w and -Werror as
 * they are; -cl-std picks the language; -cl-opt-disable is -O0; -g asks for
 * debug information; options for the host side only are accepted and
 * dropped.  Anything else is CL_INVALID_BUILD_OPTIONS. */
typedef struct build_opts {
  char *buf;                 /* the tokens, NUL-separated */
  const char **defines;
  uint32_t n_defines;
  const char **args;
  uint32_t n_args;
  const char *cl_std;
  int opt_level;
  bool debug;
  bool uniform;
} build_opts;

static void free_opts(build_opts *o)
{
  free(o->buf);
  free(o->defines);
  free(o->args);
}

static cl_int parse_options(const char *s, build_opts *o)
{
  memset(o, 0, sizeof *o);
  o->opt_level = -1;
  size_t n = s ? strlen(s) : 0;
  o->buf = malloc(n + 1);
  o->defines = calloc(n / 2 + 1, sizeof *o->defines);
  o->args = calloc(n + 1, sizeof *o->args);
  if (!o->buf || !o->defines || !o->args)
    return CL_OUT_OF_HOST_MEMORY;
  /* split on blanks; "..." quotes a token with blanks in it */
  const char *tok[512];
  size_t nt = 0, k = 0;
  for (size_t i = 0; i < n;) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
      i++;
    if (i >= n)
      break;
    if (nt == 512)
      return CL_INVALID_BUILD_OPTIONS;
    tok[nt++] = o->buf + k;
    bool q = false;
    while (i < n && (q || (s[i] != ' ' && s[i] != '\t' && s[i] != '\n'))) {
      if (s[i] == '"')
        q = !q;
      else
        o->buf[k++] = s[i];
      i++;
    }
    o->buf[k++] = 0;
  }
  static const char *const pass[] = {
    "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
    "-cl-fast-relaxed-math", "-w", "-Werror",
  };
  static const char *const drop[] = {
    "-cl-kernel-arg-info", "-cl-no-subgroup-ifp", "-create-library", "-enable-link-options",
    "-cl-strict-aliasing", "-cl-denorms-are-zero",
  };
  for (size_t i = 0; i < nt; i++) {
    const char *t = tok[i];
    bool done = false;
    for (size_t j = 0; j < sizeof pass / sizeof pass[0] && !done; j++)
      if (!strcmp(t, pass[j])) {
        o->args[o->n_args++] = t;
        done = true;
      }
    for (size_t j = 0; j < sizeof drop / sizeof drop[0] && !done; j++)
      done = !strcmp(t, drop[j]);
    if (done)
      continue;
    if (!strncmp(t, "-D", 2) || !strncmp(t, "-I", 2)) {
      const char *v = t + 2;
      if (!*v) {
        if (i + 1 >= nt)
          return CL_INVALID_BUILD_OPTIONS;
        v = tok[++i];
      }
      if (t[1] == 'D')
        o->defines[o->n_defines++] = v;
      else {
        o->args[o->n_args++] = "-I";
        o->args[o->n_args++] = v;
      }
    } else if (!strncmp(t, "-cl-std=", 8)) {
      const char *v = t + 8;
      if (strcmp(v, "CL1.0") && strcmp(v, "CL1.1") && strcmp(v, "CL1.2") && strcmp(v, "CL2.0") &&
          strcmp(v, "CL3.0"))
        return CL_INVALID_BUILD_OPTIONS;
      o->cl_std = v;
      if (!strncmp(v, "CL1.", 4))
        o->uniform = true;
    } else if (!strcmp(t, "-cl-uniform-work-group-size")) {
      o->uniform = true;
    } else if (!strcmp(t, "-cl-opt-disable")) {
      o->opt_level = 0;
    } else if (t[0] == '-' && t[1] == 'O' && t[2] >= '0' && t[2] <= '3' && !t[3]) {
      o->opt_level = t[2] - '0';
    } else if (!strcmp(t, "-g")) {
      o->debug = true;
    } else {
      return CL_INVALID_BUILD_OPTIONS;
    }
  }
  return CL_SUCCESS;
}

/* Compiles p->source to SPIR-V (p->il); the compiler's messages go to the
 * build log. */
static cl_int compile_source(cl_program p, const build_opts *o)
{
  const char *tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir)
    tmpdir = "/tmp";
  char path[4096];
  snprintf(path, sizeof path, "%s/sgicd.XXXXXX.cl", tmpdir);
  int fd = mkstemps(path, 3);
  if (fd < 0) {
    log_append(p, "spirv-sg: error: cannot create a temporary file for the source");
    return CL_BUILD_PROGRAM_FAILURE;
  }
  size_t n = strlen(p->source);
  bool ok = write(fd, p->source, n) == (ssize_t)n;
  close(fd);
  cl_int r = CL_SUCCESS;
  if (!ok) {
    log_append(p, "spirv-sg: error: cannot write the source to a temporary file");
    r = CL_BUILD_PROGRAM_FAILURE;
    goto out;
  }
  sg_load_options lo = {0};
  lo.opt_level = o->opt_level;
  lo.cl_std = o->cl_std;
  lo.defines = o->defines;
  lo.n_defines = o->n_defines;
  lo.clang_args = o->args;
  lo.n_clang_args = o->n_args;
  lo.debug_info = o->debug;
  lo.message = build_message;
  lo.message_user = p;
  void *bytes = NULL;
  size_t nb = 0;
  sg_result sr = sg_compile_cl(path, &lo, &bytes, &nb);
  if (sr != SG_SUCCESS) {
    r = sr == SG_ERROR_TOOL_MISSING ? CL_COMPILER_NOT_AVAILABLE : CL_BUILD_PROGRAM_FAILURE;
    goto out;
  }
  free(p->il);
  p->il = bytes;
  p->il_size = nb;
out:
  unlink(path);
  return r;
}

static cl_int load_program(cl_program p)
{
  sg_load_options lo = {0};
  lo.opt_level = -1;
  lo.spec = p->spec;
  lo.n_spec = p->n_spec;
  lo.message = build_message;
  lo.message_user = p;
  sg_result sr = sg_module_load_memory(p->il, p->il_size, "program", &lo, &p->mod);
  return sr == SG_SUCCESS ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
}

static cl_int check_devices(cl_program p, cl_uint n, const cl_device_id *devs,
                            void (CL_CALLBACK *fn)(cl_program, void *), void *user)
{
  if (!ICD_VALID(p, ICD_MAGIC_PROGRAM))
    return CL_INVALID_PROGRAM;
  if ((n > 0) != (devs != NULL) || (!fn && user))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++)
    if (devs[i] != &icd_device)
      return CL_INVALID_DEVICE;
  if (p->n_kernels > 0)
    return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_BuildProgram(cl_program p, cl_uint n, const cl_device_id *devs, const char *options,
                                           void (CL_CALLBACK *fn)(cl_program, void *), void *user)
{
  cl_int err = check_devices(p, n, devs, fn, user);
  if (err != CL_SUCCESS)
    return err;
  build_opts o;
  err = parse_options(options, &o);
  if (err != CL_SUCCESS) {
    free_opts(&o);
    return err;
  }
  pthread_mutex_lock(&icd_lock);
  clear_build(p);
  p->options = strdup(options ? options : "");
  p->uniform_wg = o.uniform;
  p->status = CL_BUILD_IN_PROGRESS;
  if (p->source)
    err = compile_source(p, &o);
  if (err == CL_SUCCESS)
    err = load_program(p);
  p->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (err == CL_SUCCESS)
    p->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  if (!p->log)
    log_append(p, "");
  pthread_mutex_unlock(&icd_lock);
  free_opts(&o);
  if (fn)
    fn(p, user);
  return err;
}

static cl_int CL_API_CALL icd_SetProgramSpecializationConstant(cl_program p, cl_uint id, size_t size,
                                                               const void *value)
{
  if (!ICD_VALID(p, ICD_MAGIC_PROGRAM))
    return CL_INVALID_PROGRAM;
  if (!p->il || p->source)
    return CL_INVALID_PROGRAM;
  if (!value || (size != 1 && size != 2 && size != 4 && size != 8))
    return CL_INVALID_VALUE;
  uint64_t v = 0;
  memcpy(&v, value, size);  /* little-endian: the low bytes */
  for (uint32_t i = 0; i < p->n_spec; i++)
    if (p->spec[i].spec_id == id) {
      p->spec[i].value = v;
      return CL_SUCCESS;
    }
  sg_spec_value *s = realloc(p->spec, (p->n_spec + 1) * sizeof *s);
  if (!s)
    return CL_OUT_OF_HOST_MEMORY;
  p->spec = s;
  s[p->n_spec++] = (sg_spec_value){id, v};
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_UnloadCompiler(void) { return CL_SUCCESS; }

static cl_int CL_API_CALL icd_UnloadPlatformCompiler(cl_platform_id pl)
{
  return pl == &icd_platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

static char *kernel_names(const sg_module *m)
{
  size_t n = 1;
  uint32_t k = sg_module_kernel_count(m);
  for (uint32_t i = 0; i < k; i++)
    n += strlen(sg_module_kernel(m, i)->name) + 1;
  char *s = calloc(n, 1);
  if (!s)
    return NULL;
  for (uint32_t i = 0; i < k; i++) {
    if (i)
      strcat(s, ";");
    strcat(s, sg_module_kernel(m, i)->name);
  }
  return s;
}

static cl_int CL_API_CALL icd_GetProgramInfo(cl_program p, cl_program_info param, size_t size, void *value,
                                             size_t *size_ret)
{
  if (!ICD_VALID(p, ICD_MAGIC_PROGRAM))
    return CL_INVALID_PROGRAM;
  switch (param) {
  case CL_PROGRAM_REFERENCE_COUNT: ICD_PUT(cl_uint, p->refs);
  case CL_PROGRAM_CONTEXT: ICD_PUT(cl_context, p->ctx);
  case CL_PROGRAM_NUM_DEVICES: ICD_PUT(cl_uint, 1);
  case CL_PROGRAM_DEVICES: ICD_PUT(cl_device_id, &icd_device);
  case CL_PROGRAM_SOURCE: ICD_PUT_STR(p->source ? p->source : "");
  case CL_PROGRAM_IL:
    if (p->source || p->from_binary)
      return icd_put(size, value, size_ret, NULL, 0);
    return icd_put(size, value, size_ret, p->il, p->il_size);
  case CL_PROGRAM_BINARY_SIZES: ICD_PUT(size_t, p->binary_type != CL_PROGRAM_BINARY_TYPE_NONE ? p->il_size : 0);
  case CL_PROGRAM_BINARIES:
    if (value) {
      if (size < sizeof(unsigned char *))
        return CL_INVALID_VALUE;
      unsigned char *dst = *(unsigned char **)value;
      if (dst && p->binary_type != CL_PROGRAM_BINARY_TYPE_NONE)
        memcpy(dst, p->il, p->il_size);
    }
    if (size_ret)
      *size_ret = sizeof(unsigned char *);
    return CL_SUCCESS;
  case CL_PROGRAM_NUM_KERNELS:
    if (!p->mod)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    ICD_PUT(size_t, sg_module_kernel_count(p->mod));
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!p->mod)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    char *s = kernel_names(p->mod);
    if (!s)
      return CL_OUT_OF_HOST_MEMORY;
    cl_int e = icd_put(size, value, size_ret, s, strlen(s) + 1);
    free(s);
    return e;
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT: case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    ICD_PUT(cl_bool, CL_FALSE);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL icd_GetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info param,
                                                  size_t size, void *value, size_t *size_ret)
{
  if (!ICD_VALID(p, ICD_MAGIC_PROGRAM))
    return CL_INVALID_PROGRAM;
  if (d != &icd_device)
    return CL_INVALID_DEVICE;
  switch (param) {
  case CL_PROGRAM_BUILD_STATUS: ICD_PUT(cl_build_status, p->status);
  case CL_PROGRAM_BUILD_OPTIONS: ICD_PUT_STR(p->options ? p->options : "");
  case CL_PROGRAM_BUILD_LOG: ICD_PUT_STR(p->log ? p->log : "");
  case CL_PROGRAM_BINARY_TYPE: ICD_PUT(cl_program_binary_type, p->binary_type);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: ICD_PUT(size_t, 0);
  default: return CL_INVALID_VALUE;
  }
}

/* ------------------------------------------------ separate compilation */

/* A scratch folder under $TMPDIR (removed by rm_scratch). */
static bool make_scratch(char *dir, size_t n)
{
  const char *tmpdir = getenv("TMPDIR");
  snprintf(dir, n, "%s/sgicd.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  return mkdtemp(dir) != NULL;
}

static void rm_scratch(const char *dir, char **files, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (files[i]) {
      unlink(files[i]);
      free(files[i]);
    }
  rmdir(dir);
}

static bool write_file(const char *path, const void *b, size_t n)
{
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(b, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* clCompileProgram: OpenCL C to a SPIR-V object (kept in p->il, binary type
 * COMPILED_OBJECT); the embedded headers are written under their include
 * names into a scratch folder that -I names.  An IL program is an object
 * already. */
static cl_int CL_API_CALL icd_CompileProgram(cl_program p, cl_uint n, const cl_device_id *devs, const char *options,
                                             cl_uint n_headers, const cl_program *headers, const char **names,
                                             void (CL_CALLBACK *fn)(cl_program, void *), void *user)
{
  cl_int err = check_devices(p, n, devs, fn, user);
  if (err != CL_SUCCESS)
    return err;
  if ((n_headers == 0) != (headers == NULL) || (n_headers == 0) != (names == NULL))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n_headers; i++)
    if (!ICD_VALID(headers[i], ICD_MAGIC_PROGRAM) || !headers[i]->source || !names[i])
      return CL_INVALID_PROGRAM;
  build_opts o;
  err = parse_options(options, &o);
  if (err != CL_SUCCESS) {
    free_opts(&o);
    return err;
  }
  char dir[4096] = "";
  char **files = calloc(n_headers + 1, sizeof *files);
  const char **args = realloc(o.args, (o.n_args + 3) * sizeof *args);
  if (args)
    o.args = args;
  if (!files || !args) {
    free(files);
    free_opts(&o);
    return CL_OUT_OF_HOST_MEMORY;
  }
  pthread_mutex_lock(&icd_lock);
  clear_build(p);
  p->options = strdup(options ? options : "");
  p->uniform_wg = o.uniform;
  if (n_headers && make_scratch(dir, sizeof dir)) {
    for (cl_uint i = 0; i < n_headers && err == CL_SUCCESS; i++) {
      size_t l = strlen(dir) + strlen(names[i]) + 2;
      files[i] = malloc(l);
      if (!files[i] || strchr(names[i], '/')) {
        log_append(p, "spirv-sg: error: header include names must be plain file names");
        err = CL_COMPILE_PROGRAM_FAILURE;
        break;
      }
      snprintf(files[i], l, "%s/%s", dir, names[i]);
      if (!write_file(files[i], headers[i]->source, strlen(headers[i]->source)))
        err = CL_COMPILE_PROGRAM_FAILURE;
    }
    o.args[o.n_args++] = "-I";
    o.args[o.n_args++] = dir;
  }
  if (err == CL_SUCCESS && p->source)
    err = compile_source(p, &o) == CL_SUCCESS ? CL_SUCCESS : CL_COMPILE_PROGRAM_FAILURE;
  if (err == CL_SUCCESS && !p->il)
    err = CL_INVALID_OPERATION;
  p->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  p->binary_type = err == CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
  if (!p->log)
    log_append(p, "");
  pthread_mutex_unlock(&icd_lock);
  if (dir[0])
    rm_scratch(dir, files, n_headers);
  free(files);
  free_opts(&o);
  if (fn)
    fn(p, user);
  return err;
}

/* clLinkProgram: the SPIR-V of every input (compiled objects, libraries, IL
 * programs) through sg_link_spirv (spirv-link), which resolves Import/Export
 * linkage; then loaded as an executable, or kept as a library with
 * -create-library. */
static cl_program CL_API_CALL icd_LinkProgram(cl_context c, cl_uint n_dev, const cl_device_id *devs,
                                              const char *options, cl_uint n_in, const cl_program *in,
                                              void (CL_CALLBACK *fn)(cl_program, void *), void *user,
                                              cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  if ((n_dev > 0) != (devs != NULL) || n_in == 0 || !in || (!fn && user)) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < n_dev; i++)
    if (devs[i] != &icd_device) {
      SET_ERR(CL_INVALID_DEVICE);
      return NULL;
    }
  for (cl_uint i = 0; i < n_in; i++) {
    if (!ICD_VALID(in[i], ICD_MAGIC_PROGRAM)) {
      SET_ERR(CL_INVALID_PROGRAM);
      return NULL;
    }
    if (!in[i]->il || (in[i]->source && in[i]->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                       in[i]->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY)) {
      SET_ERR(CL_INVALID_OPERATION);
      return NULL;
    }
  }
  bool library = options && strstr(options, "-create-library");
  if (options && *options) {
    /* only -create-library and -enable-link-options are link options */
    char *copy = strdup(options);
    for (char *t = copy ? strtok(copy, " \t\n") : NULL; t; t = strtok(NULL, " \t\n"))
      if (strcmp(t, "-create-library") && strcmp(t, "-enable-link-options") && strncmp(t, "-cl-", 4)) {
        free(copy);
        SET_ERR(CL_INVALID_LINKER_OPTIONS);
        return NULL;
      }
    free(copy);
  }
  cl_program p = new_program(c);
  const void **mods = calloc(n_in, sizeof *mods);
  size_t *sizes = calloc(n_in, sizeof *sizes);
  if (!p || !mods || !sizes) {
    free(mods);
    free(sizes);
    if (p)
      icd_ReleaseProgram(p);
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  p->options = strdup(options ? options : "");
  for (cl_uint i = 0; i < n_in; i++) {
    mods[i] = in[i]->il;
    sizes[i] = in[i]->il_size;
  }
  sg_load_options lo = {0};
  lo.opt_level = -1;
  lo.message = build_message;
  lo.message_user = p;
  void *linked = NULL;
  size_t nl = 0;
  sg_result sr = sg_link_spirv(mods, sizes, n_in, library, &lo, &linked, &nl);
  free(mods);
  free(sizes);
  cl_int err = sr == SG_SUCCESS ? CL_SUCCESS : sr == SG_ERROR_NOMEM ? CL_OUT_OF_HOST_MEMORY
                                                                     : CL_LINK_PROGRAM_FAILURE;
  if (err == CL_SUCCESS) {
    p->il = linked;
    p->il_size = nl;
    if (!library)
      err = load_program(p) == CL_SUCCESS ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
  }
  p->from_binary = true;  /* no CL_PROGRAM_IL: it was linked, not given */
  p->status = err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  p->binary_type = err != CL_SUCCESS ? CL_PROGRAM_BINARY_TYPE_NONE
                   : library         ? CL_PROGRAM_BINARY_TYPE_LIBRARY
                                     : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  if (!p->log)
    log_append(p, "");
  if (fn)
    fn(p, user);
  /* a failed link still returns the program, for its log (the spec) */
  SET_ERR(err);
  return p;
}

/* ----------------------------------------------------------------- kernels */

static cl_kernel new_kernel(cl_program p, const sg_kernel_info *info)
{
  cl_kernel k = calloc(1, sizeof *k);
  if (!k)
    return NULL;
  k->args = calloc(info->n_args + 1, sizeof *k->args);
  if (!k->args) {
    free(k);
    return NULL;
  }
  k->dispatch = &icd_dispatch;
  k->magic = ICD_MAGIC_KERNEL;
  k->refs = 1;
  k->prog = p;
  k->info = info;
  retain(&p->refs);
  __atomic_add_fetch(&p->n_kernels, 1, __ATOMIC_ACQ_REL);
  return k;
}

static cl_kernel CL_API_CALL icd_CreateKernel(cl_program p, const char *name, cl_int *errcode_ret)
{
  if (!ICD_VALID(p, ICD_MAGIC_PROGRAM)) {
    SET_ERR(CL_INVALID_PROGRAM);
    return NULL;
  }
  if (!p->mod) {
    SET_ERR(CL_INVALID_PROGRAM_EXECUTABLE);
    return NULL;
  }
  if (!name) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  const sg_kernel_info *info = sg_module_find_kernel(p->mod, name);
  if (!info) {
    SET_ERR(CL_INVALID_KERNEL_NAME);
    return NULL;
  }
  cl_kernel k = new_kernel(p, info);
  SET_ERR(k ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return k;
}

static cl_int CL_API_CALL icd_CreateKernelsInProgram(cl_program p, cl_uint n, cl_kernel *out, cl_uint *n_out)
{
  if (!ICD_VALID(p, ICD_MAGIC_PROGRAM))
    return CL_INVALID_PROGRAM;
  if (!p->mod)
    return CL_INVALID_PROGRAM_EXECUTABLE;
  uint32_t k = sg_module_kernel_count(p->mod);
  if (out && n < k)
    return CL_INVALID_VALUE;
  if (out)
    for (uint32_t i = 0; i < k; i++)
      if (!(out[i] = new_kernel(p, sg_module_kernel(p->mod, i))))
        return CL_OUT_OF_HOST_MEMORY;
  if (n_out)
    *n_out = k;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_RetainKernel(cl_kernel k)
{
  if (!ICD_VALID(k, ICD_MAGIC_KERNEL))
    return CL_INVALID_KERNEL;
  retain(&k->refs);
  return CL_SUCCESS;
}

static void free_args(icd_arg *a, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    free(a[i].value);
  free(a);
}

static cl_int CL_API_CALL icd_ReleaseKernel(cl_kernel k)
{
  if (!ICD_VALID(k, ICD_MAGIC_KERNEL))
    return CL_INVALID_KERNEL;
  if (release(&k->refs)) {
    cl_program p = k->prog;
    free_args(k->args, k->info->n_args);
    k->magic = 0;
    free(k);
    __atomic_sub_fetch(&p->n_kernels, 1, __ATOMIC_ACQ_REL);
    icd_ReleaseProgram(p);
  }
  return CL_SUCCESS;
}

static cl_kernel CL_API_CALL icd_CloneKernel(cl_kernel src, cl_int *errcode_ret)
{
  if (!ICD_VALID(src, ICD_MAGIC_KERNEL)) {
    SET_ERR(CL_INVALID_KERNEL);
    return NULL;
  }
  cl_kernel k = new_kernel(src->prog, src->info);
  if (!k) {
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  for (uint32_t i = 0; i < src->info->n_args; i++) {
    k->args[i] = src->args[i];
    if (src->args[i].value) {
      k->args[i].value = malloc(src->args[i].size);
      if (!k->args[i].value) {
        icd_ReleaseKernel(k);
        SET_ERR(CL_OUT_OF_HOST_MEMORY);
        return NULL;
      }
      memcpy(k->args[i].value, src->args[i].value, src->args[i].size);
    }
  }
  SET_ERR(CL_SUCCESS);
  return k;
}

static cl_int CL_API_CALL icd_SetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
  if (!ICD_VALID(k, ICD_MAGIC_KERNEL))
    return CL_INVALID_KERNEL;
  if (index >= k->info->n_args)
    return CL_INVALID_ARG_INDEX;
  const sg_arg_info *ai = &k->info->args[index];
  icd_arg a = {0};
  a.kind = ai->kind;
  switch (ai->kind) {
  case SG_ARG_BUFFER:
    if (size != sizeof(cl_mem))
      return CL_INVALID_ARG_SIZE;
    a.mem = value ? *(const cl_mem *)value : NULL;
    if (a.mem && (!ICD_VALID(a.mem, ICD_MAGIC_MEM) || a.mem->type != CL_MEM_OBJECT_BUFFER))
      return CL_INVALID_MEM_OBJECT;
    if (a.mem && a.mem->ctx != k->prog->ctx)
      return CL_INVALID_MEM_OBJECT;
    break;
  case SG_ARG_LOCAL:
    if (value)
      return CL_INVALID_ARG_VALUE;
    if (size == 0)
      return CL_INVALID_ARG_SIZE;
    a.size = size;
    break;
  case SG_ARG_VALUE:
    if (size != ai->size)
      return CL_INVALID_ARG_SIZE;
    if (!value)
      return CL_INVALID_ARG_VALUE;
    a.value = malloc(size);
    if (!a.value)
      return CL_OUT_OF_HOST_MEMORY;
    memcpy(a.value, value, size);
    a.size = size;
    break;
  case SG_ARG_IMAGE: {
    cl_int e = icd_image_kernel_arg(ai->image_type, size, value, k->prog->ctx, &a.mem);
    if (e != CL_SUCCESS)
      return e;
    break;
  }
  case SG_ARG_SAMPLER:
    return size != sizeof(cl_sampler) ? CL_INVALID_ARG_SIZE : CL_INVALID_SAMPLER;
  default:
    return CL_INVALID_ARG_VALUE;
  }
  a.set = true;
  pthread_mutex_lock(&icd_lock);
  free(k->args[index].value);
  k->args[index] = a;
  pthread_mutex_unlock(&icd_lock);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetKernelInfo(cl_kernel k, cl_kernel_info param, size_t size, void *value,
                                            size_t *size_ret)
{
  if (!ICD_VALID(k, ICD_MAGIC_KERNEL))
    return CL_INVALID_KERNEL;
  switch (param) {
  case CL_KERNEL_FUNCTION_NAME: ICD_PUT_STR(k->info->name);
  case CL_KERNEL_NUM_ARGS: ICD_PUT(cl_uint, k->info->n_args);
  case CL_KERNEL_REFERENCE_COUNT: ICD_PUT(cl_uint, k->refs);
  case CL_KERNEL_CONTEXT: ICD_PUT(cl_context, k->prog->ctx);
  case CL_KERNEL_PROGRAM: ICD_PUT(cl_program, k->prog);
  case CL_KERNEL_ATTRIBUTES: {
    char buf[256] = "";
    const sg_kernel_info *i = k->info;
    if (i->reqd_local_size[0])
      snprintf(buf, sizeof buf, "reqd_work_group_size(%u,%u,%u)", i->reqd_local_size[0], i->reqd_local_size[1],
               i->reqd_local_size[2]);
    if (i->reqd_subgroup_size)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%sintel_reqd_sub_group_size(%u)", buf[0] ? " " : "",
               i->reqd_subgroup_size);
    ICD_PUT_STR(buf);
  }
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL icd_GetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info param, size_t size,
                                               void *value, size_t *size_ret)
{
  if (!ICD_VALID(k, ICD_MAGIC_KERNEL))
    return CL_INVALID_KERNEL;
  if (index >= k->info->n_args)
    return CL_INVALID_ARG_INDEX;
  const sg_arg_info *a = &k->info->args[index];
  switch (param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    ICD_PUT(cl_kernel_arg_address_qualifier,
            a->kind == SG_ARG_LOCAL ? CL_KERNEL_ARG_ADDRESS_LOCAL
            : a->kind == SG_ARG_BUFFER ? (a->is_constant_space ? CL_KERNEL_ARG_ADDRESS_CONSTANT
                                                               : CL_KERNEL_ARG_ADDRESS_GLOBAL)
                                       : CL_KERNEL_ARG_ADDRESS_PRIVATE);
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    ICD_PUT(cl_kernel_arg_access_qualifier, a->kind == SG_ARG_IMAGE ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                                    : CL_KERNEL_ARG_ACCESS_NONE);
  case CL_KERNEL_ARG_TYPE_NAME: ICD_PUT_STR(a->type_name ? a->type_name : "");
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    ICD_PUT(cl_kernel_arg_type_qualifier, a->is_const || a->is_constant_space ? CL_KERNEL_ARG_TYPE_CONST
                                                                              : CL_KERNEL_ARG_TYPE_NONE);
  case CL_KERNEL_ARG_NAME:
    if (!a->name || !a->name[0])
      return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    ICD_PUT_STR(a->name);
  default: return CL_INVALID_VALUE;
  }
}

static uint32_t launch_sg_size(cl_kernel k)
{
  if (k->info->reqd_subgroup_size)
    return k->info->reqd_subgroup_size;
  uint32_t s = icd_getenv()->subgroup_size;
  return s ? s : SG_DEFAULT_SUBGROUP_SIZE;
}

static cl_int CL_API_CALL icd_GetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info param,
                                                     size_t size, void *value, size_t *size_ret)
{
  if (!ICD_VALID(k, ICD_MAGIC_KERNEL))
    return CL_INVALID_KERNEL;
  if (d && d != &icd_device)
    return CL_INVALID_DEVICE;
  switch (param) {
  case CL_KERNEL_WORK_GROUP_SIZE: ICD_PUT(size_t, SG_DEVICE_MAX_WORK_GROUP_SIZE);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t s[3] = {k->info->reqd_local_size[0], k->info->reqd_local_size[1], k->info->reqd_local_size[2]};
    return icd_put(size, value, size_ret, s, sizeof s);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE: {
    cl_ulong n = 0;
    for (uint32_t i = 0; i < k->info->n_args; i++)
      if (k->args[i].set && k->args[i].kind == SG_ARG_LOCAL)
        n += k->args[i].size;
    ICD_PUT(cl_ulong, n);
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: ICD_PUT(size_t, launch_sg_size(k));
  case CL_KERNEL_PRIVATE_MEM_SIZE: ICD_PUT(cl_ulong, 0);
  case CL_KERNEL_GLOBAL_WORK_SIZE: return CL_INVALID_VALUE;  /* custom devices and built-in kernels only */
  case CL_KERNEL_SPILL_MEM_SIZE_INTEL: ICD_PUT(cl_ulong, 0);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL icd_GetKernelSubGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_sub_group_info param,
                                                    size_t in_size, const void *in, size_t size, void *value,
                                                    size_t *size_ret)
{
  if (!ICD_VALID(k, ICD_MAGIC_KERNEL))
    return CL_INVALID_KERNEL;
  if (d && d != &icd_device)
    return CL_INVALID_DEVICE;
  if (param == CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL)
    ICD_PUT(size_t, k->info->reqd_subgroup_size);
  return sg_kernel_sub_group_info_for(k->prog->mod, k->info->name, icd_getenv()->subgroup_size, param, in_size,
                                      in, size, value, size_ret);
}

/* ---------------------------------------------------------------- NDRange */

static void print_diag(void *user, const sg_diag *d)
{
  (void)user;
  fprintf(stderr, "%s\n", d->formatted);
}

/* A launch as an icd_submit payload: the kernel (retained) and a snapshot
 * of its arguments, by-value bytes copied. */
typedef struct ndrange_cmd {
  cl_kernel k;
  sg_run_desc d;
  sg_arg *args;
  unsigned char *values;
} ndrange_cmd;

static cl_int run_nothing(void *p)
{
  (void)p;
  return CL_SUCCESS;
}

static cl_int run_ndrange(void *p)
{
  ndrange_cmd *c = p;
  cl_kernel k = c->k;
  sg_report *rep = NULL;
  char msg[1024] = "";
  pthread_mutex_lock(&icd_lock);
  sg_result r = sg_run(k->prog->mod, &c->d, &rep, msg, sizeof msg);
  pthread_mutex_unlock(&icd_lock);
  if (r != SG_SUCCESS && r != SG_FAULTED) {
    fprintf(stderr, "spirv-sg: kernel '%s': %s\n", k->info->name, msg);
    return r == SG_ERROR_NOMEM ? CL_OUT_OF_HOST_MEMORY
           : r == SG_ERROR_LAUNCH ? CL_INVALID_WORK_GROUP_SIZE
                                  : CL_OUT_OF_RESOURCES;
  }
  if (rep->printf_len) {
    fwrite(rep->printf_text, 1, rep->printf_len, stdout);
    fflush(stdout);
  }
  /* Faults and UB are reported, not returned: the program goes on as it
   * would on a device (Oclgrind's manner). */
  if (rep->n_faults || rep->n_ub)
    fprintf(stderr, "spirv-sg: kernel '%s': %" PRIu64 " fault%s, %" PRIu64 " undefined-behaviour report%s%s\n",
            k->info->name, rep->n_faults, rep->n_faults == 1 ? "" : "s", rep->n_ub, rep->n_ub == 1 ? "" : "s",
            rep->stopped ? " (stopped at the first)" : "");
  sg_report_destroy(rep);
  return CL_SUCCESS;
}

static void release_ndrange(void *p)
{
  ndrange_cmd *c = p;
  free(c->args);
  free(c->values);
  icd_ReleaseKernel(c->k);
}

static cl_int CL_API_CALL icd_EnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
                                                   const size_t *global, const size_t *local, cl_uint nw,
                                                   const cl_event *wl, cl_event *ev)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!ICD_VALID(k, ICD_MAGIC_KERNEL))
    return CL_INVALID_KERNEL;
  if (k->prog->ctx != q->ctx)
    return CL_INVALID_CONTEXT;
  for (uint32_t i = 0; i < k->info->n_args; i++)
    if (!k->args[i].set)
      return CL_INVALID_KERNEL_ARGS;
  if (dim < 1 || dim > 3)
    return CL_INVALID_WORK_DIMENSION;
  if (!global)
    return CL_INVALID_VALUE;
  size_t g[3] = {1, 1, 1}, l[3] = {0, 0, 0}, o[3] = {0, 0, 0};
  bool empty = false;
  for (cl_uint i = 0; i < dim; i++) {
    g[i] = global[i];
    empty |= g[i] == 0;
    if (offset) {
      o[i] = offset[i];
      if (g[i] + o[i] < g[i])
        return CL_INVALID_GLOBAL_OFFSET;
    }
  }
  const uint32_t *reqd = k->info->reqd_local_size;
  if (local) {
    size_t prod = 1;
    for (cl_uint i = 0; i < dim; i++) {
      l[i] = local[i];
      if (l[i] == 0)
        return CL_INVALID_WORK_GROUP_SIZE;
      if (l[i] > SG_DEVICE_MAX_WORK_GROUP_SIZE)
        return CL_INVALID_WORK_ITEM_SIZE;
      prod *= l[i];
    }
    if (prod > SG_DEVICE_MAX_WORK_GROUP_SIZE)
      return CL_INVALID_WORK_GROUP_SIZE;
    if (reqd[0])
      for (cl_uint i = 0; i < 3; i++)
        if ((i < dim ? l[i] : 1) != (reqd[i] ? reqd[i] : 1))
          return CL_INVALID_WORK_GROUP_SIZE;
    if (k->prog->uniform_wg)
      for (cl_uint i = 0; i < dim; i++)
        if (g[i] % l[i])
          return CL_INVALID_WORK_GROUP_SIZE;
  } else if (reqd[0]) {
    for (cl_uint i = 0; i < dim; i++)
      l[i] = reqd[i];
  }
  cl_int err = icd_check_wait_list(q, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (empty)
    return icd_submit(q, CL_COMMAND_NDRANGE_KERNEL, nw, wl, ev, CL_FALSE, run_nothing, NULL, 0, NULL, NULL, 0);

  /* A snapshot of the arguments: the launch may be deferred (icd.c) and the
   * program may set new ones meanwhile. */
  uint32_t n = k->info->n_args;
  size_t nvalues = 0;
  for (uint32_t i = 0; i < n; i++)
    if (k->args[i].kind == SG_ARG_VALUE)
      nvalues += k->args[i].size;
  ndrange_cmd c = {0};
  c.args = calloc(n + 1, sizeof *c.args);
  c.values = malloc(nvalues + 1);
  cl_mem *mems = calloc(n + 1, sizeof *mems);
  unsigned n_mems = 0;
  if (!c.args || !c.values || !mems) {
    free(c.args);
    free(c.values);
    free(mems);
    return CL_OUT_OF_HOST_MEMORY;
  }
  nvalues = 0;
  for (uint32_t i = 0; i < n; i++) {
    const icd_arg *a = &k->args[i];
    if ((a->kind == SG_ARG_BUFFER || a->kind == SG_ARG_IMAGE) && a->mem && !ICD_VALID(a->mem, ICD_MAGIC_MEM)) {
      free(c.args);
      free(c.values);
      free(mems);
      return CL_INVALID_KERNEL_ARGS;  /* released since clSetKernelArg */
    }
    if (a->kind == SG_ARG_BUFFER) {
      c.args[i].kind = a->mem ? SG_ARG_BUFFER : SG_ARG_NULL;
      c.args[i].data = a->mem ? a->mem->data : NULL;
      c.args[i].size = a->mem ? a->mem->size : 0;
      if (a->mem)
        mems[n_mems++] = a->mem;
    } else if (a->kind == SG_ARG_IMAGE) {
      icd_image_launch_arg(a->mem, &c.args[i]);
      mems[n_mems++] = a->mem;
    } else if (a->kind == SG_ARG_VALUE) {
      c.args[i].kind = a->kind;
      c.args[i].data = c.values + nvalues;
      c.args[i].size = a->size;
      memcpy(c.values + nvalues, a->value, a->size);
      nvalues += a->size;
    } else {
      c.args[i].kind = a->kind;
      c.args[i].size = a->size;
    }
  }
  const icd_env *env = icd_getenv();
  sg_run_desc *d = &c.d;
  d->kernel = k->info->name;
  d->work_dim = dim;
  memcpy(d->global_size, g, sizeof g);
  memcpy(d->local_size, l, sizeof l);
  memcpy(d->global_offset, o, sizeof o);
  d->subgroup_size = k->info->reqd_subgroup_size ? 0 : env->subgroup_size;
  d->args = c.args;
  d->n_args = n;
  d->backend = env->backend;
  d->threads = env->threads;
  d->ub = env->ub;
  d->stop_on_fault = env->stop_on_fault;
  d->repeat = 1;
  d->jit_opt_level = -1;
  /* printf output goes where an OpenCL device's goes: the host's stdout */
  d->on_diag = print_diag;
  c.k = k;
  icd_RetainKernel(k);
  err = icd_submit(q, CL_COMMAND_NDRANGE_KERNEL, nw, wl, ev, CL_FALSE, run_ndrange, &c, sizeof c, release_ndrange,
                   mems, n_mems);
  free(mems);
  return err;
}

static cl_int CL_API_CALL icd_EnqueueTask(cl_command_queue q, cl_kernel k, cl_uint nw, const cl_event *wl,
                                          cl_event *ev)
{
  size_t one = 1;
  return icd_EnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, nw, wl, ev);
}

void icd_program_fill(struct _cl_icd_dispatch *d);
void icd_program_fill(struct _cl_icd_dispatch *d)
{
#define SET(name) d->cl##name = icd_##name
  SET(CreateProgramWithSource); SET(CreateProgramWithIL); SET(CreateProgramWithBinary);
  SET(RetainProgram); SET(ReleaseProgram); SET(BuildProgram); SET(SetProgramSpecializationConstant);
  SET(UnloadCompiler); SET(UnloadPlatformCompiler); SET(GetProgramInfo); SET(GetProgramBuildInfo);
  SET(CreateKernel); SET(CreateKernelsInProgram); SET(RetainKernel); SET(ReleaseKernel); SET(CloneKernel);
  SET(SetKernelArg); SET(GetKernelInfo); SET(GetKernelArgInfo); SET(GetKernelWorkGroupInfo);
  SET(GetKernelSubGroupInfo); SET(CompileProgram); SET(LinkProgram);
  d->clGetKernelSubGroupInfoKHR = icd_GetKernelSubGroupInfo;
  SET(EnqueueNDRangeKernel); SET(EnqueueTask);
#undef SET
}
