/* sg_internal.h - helpers shared by src/ files (not public). */
#ifndef SG_INTERNAL_H
#define SG_INTERNAL_H

#include "spirv_sg.h"

/* The debugger's view of a subgroup's SIMT reconvergence stack (innermost
 * frame): returns the number of entries; entry i (0 = the top, the lanes
 * running now) gets its lanes, the word offset of its next instruction (0
 * at a block end) and the label of its reconvergence block (0: the
 * function's exit). */
uint32_t sg_sg_reconv(const sg_sg *sg, uint32_t i, uint64_t mask[2], uint32_t *pc_word, uint32_t *rpc_label);
/* The debugger's fast-forward: runs work-groups [first, first+count) of a
 * stepping launch (none of them begun) to their end at full speed, natively
 * when jit and the kernel compiles (*used_jit), else in the interpreter
 * without per-instruction stops.  err: why the JIT was not used. */
sg_result sg_launch_run_groups(sg_launch *l, uint64_t first, uint64_t count, bool jit, bool *used_jit,
                               char *err, size_t err_size);
bool sg_parse_type_name(const char *tn, sg_scalar *out_s, uint32_t *out_n);
double sg_now_ms(void);
void sg_emit(sg_message_fn fn, void *user, sg_severity sev, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));
/* Whole file, NUL-terminated (not counted); NULL with errno set. */
/* Reads a whole file (NUL-terminated); NULL with errno set on failure.  A
 * non-regular file (pipe, device) may deliver at most this many bytes. */
#define SG_MAX_STREAM_BYTES ((size_t)256 << 20)
/* __local memory of a work-group: the backends' IP_MAX_LOCAL_BYTES (interp/ip.h) */
#define SG_MAX_LOCAL_BYTES ((uint64_t)1 << 30)
void *sg_read_file(const char *path, size_t *out_n);
void *sg_read_file_max(const char *path, size_t max, size_t *out_n);
/* strerror(e) for sg_read_file's errno, naming the limit for EFBIG. */
const char *sg_read_errstr(int e);
/* float -> half bits, round to nearest even (runfile.c). */
uint16_t sg_float_to_half(float f);
/* d as a half, float or double (s) into out, rounded to nearest even. */
void sg_store_float(sg_scalar s, double d, void *out);

/* ---- run options shared by the tools (runopts.c) ----
 * spirv-sgrun and spirv-sgdb parse these the same way: -k, --global,
 * --local, --offset, --subgroup-size, --arg, --seed, --ub, --step-limit,
 * --timeout, --max-module-size, --max-instructions,
 * --no-validate, --strict-validate, --spec, -O0..-O3, --cl-std, -D. */

/* Command-line options are "--name=value", "--name value" or a flag.
 * sg_opt_split: name gets "--name" (the whole argument when there is no
 * '='), *out_val the text after '=' or NULL.  sg_opt_value: val when not
 * NULL, else the next argument (advancing *i), NULL when there is none. */
void sg_opt_split(const char *arg, char *name, size_t n, const char **out_val);
const char *sg_opt_value(int argc, char **argv, int *i, const char *val);
/* Unsigned decimal, 0x hex or 0 octal; no sign. */
bool sg_parse_u64(const char *s, uint64_t *out);

typedef struct sg_arg_spec {
  char *target;                  /* NAME or INDEX from "NAME=SPEC", or NULL */
  char *spec;
} sg_arg_spec;

typedef struct sg_run_opts {
  const char *kernel;            /* -k */
  bool have_global, have_local, have_offset;
  uint32_t work_dim, local_dim;  /* how many sizes --global / --local gave */
  size_t global[3], local[3], offset[3];
  uint32_t sg_size;              /* 0 = not given */
  sg_ub_mode ub;
  uint32_t checks;               /* SG_CHECK_*: --data-races, --lockstep, --uninitialized, --check-all */
  uint64_t step_limit;
  double time_limit;             /* --timeout SECONDS (also --time-limit); 0 = none */
  uint64_t max_private_memory;   /* --max-private-memory BYTES; 0 = the default */
  sg_validate validate;
  sg_spec_value *spec;
  uint32_t n_spec;
  int opt_level;                 /* the tool's default until -O is given */
  const char *cl_std;
  const char **defines;          /* point into argv or into build_buf */
  uint32_t n_defines;
  const char **clang_args;       /* more clang flags (--build-options), into build_buf */
  uint32_t n_clang_args;
  char **build_bufs;             /* owned copies of --build-options strings */
  uint32_t n_build_bufs;
  sg_arg_spec *args;
  uint32_t n_args;
  uint64_t seed;                 /* random: (default 1) */
  uint64_t max_module_bytes, max_instructions;   /* 0 = the loader's defaults */
  uint64_t max_validate_instructions;            /* 0 = the loader's default */
} sg_run_opts;

void sg_run_opts_init(sg_run_opts *o, int default_opt_level);
void sg_run_opts_free(sg_run_opts *o);
/* Takes argv[*i] ("--name=value" or "--name value") when it is one of the
 * shared options, advancing *i past its value: 1.  0 when it is not one of
 * them; -1 when it is malformed (one line in err). */
int sg_run_opts_parse(sg_run_opts *o, int argc, char **argv, int *i, char *err, size_t err_size);
/* The loading fields of lo (validate, spec, -O, --cl-std, -D). */
void sg_run_opts_load(const sg_run_opts *o, sg_load_options *lo);
/* work_dim, sizes, offset and subgroup_size of d, from the options and then
 * the run file rf (may be NULL) for what they leave out.  A subgroup size
 * that conflicts with k's required one is an error. */
sg_result sg_run_opts_ndrange(const sg_run_opts *o, const sg_kernel_info *k, const sg_runfile *rf,
                              sg_run_desc *d, char *err, size_t err_size);
/* An argument by name, else by index; -1 if none. */
int sg_find_arg(const sg_kernel_info *k, const char *target);
/* Argument i of a kernel from one --arg SPEC (docs: spirv-sgrun --help);
 * spec NULL: a buffer of default_count zero elements.  *owned is the data
 * allocated for it (caller frees) or NULL.  Errors: one line in err,
 * SG_ERROR_INVALID_ARGUMENT, SG_ERROR_UNSUPPORTED or SG_ERROR_NOMEM. */
/* An image argument from "--arg NAME=image:TOKENS": the run-file image header
 * tokens (docs/runfile.md), comma- or space-separated; a is &kernel->args[index]. */
sg_result sg_image_arg_from_tokens(const sg_arg_info *a, uint32_t index, const char *tokens,
                                   sg_arg *out, uint8_t **out_owned, char *err, size_t err_size);
sg_result sg_build_arg(const sg_arg_info *a, uint32_t i, const char *spec, size_t default_count,
                       uint64_t seed, sg_arg *out, uint8_t **owned, char *err, size_t err_size);
/* Matches o's --arg SPECs to k's arguments (NAME=, INDEX= or in order) and
 * builds every argument into args[k->n_args] / owned[k->n_args]. */
sg_result sg_run_opts_args(const sg_run_opts *o, const sg_kernel_info *k, size_t default_count,
                           sg_arg *args, uint8_t **owned, char *err, size_t err_size);

#endif
