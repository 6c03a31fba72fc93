/* spirv_sg.h - the public C API of spirv-sg (the only header tools include).
 *
 * Manners follow SPIRV-Tools' libspirv.h: opaque objects with Create/Destroy
 * pairs (every *_destroy(NULL) is a no-op), one result enum (0 success,
 * negative errors), and messages through a callback with a severity.
 *
 * Stages: sg_module_load_file() (binary, text or OpenCL C) -> sg_run()
 * (interpreter or JIT) -> sg_report.  Run files (Oclgrind's .sim format plus
 * the extensions in docs/runfile.md) are parsed by sg_runfile_*.  The
 * stepping API (sg_launch_*, sg_wg_*, sg_sg_*) is a thin layer over the
 * reference interpreter for the debugger.
 *
 * Ownership: each object is owned by the caller that created it; a report or
 * run file does not outlive the module it was made from.
 */
#ifndef SPIRV_SG_H
#define SPIRV_SG_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SG_VERSION_STRING "0.1.0"

typedef enum sg_result {
  SG_SUCCESS = 0,
  SG_ERROR_INVALID_ARGUMENT = -1,  /* bad use of the API / bad command line */
  SG_ERROR_IO = -2,                /* a file cannot be read or written */
  SG_ERROR_INVALID_MODULE = -3,    /* malformed or invalid SPIR-V */
  SG_ERROR_UNSUPPORTED = -4,       /* valid input that is not supported */
  SG_ERROR_COMPILE = -5,           /* OpenCL C compilation failed */
  SG_ERROR_TOOL_MISSING = -6,      /* clang-15 / llvm-spirv-15 not installed */
  SG_ERROR_NO_KERNEL = -7,         /* no such kernel */
  SG_ERROR_LAUNCH = -8,            /* arguments or NDRange do not fit the kernel */
  SG_ERROR_NOMEM = -9,
  SG_ERROR_RUNFILE = -10,          /* a run file is malformed */
  SG_FAULTED = 1,                  /* ran; faults (or UB with ub=error) reported */
} sg_result;

const char *sg_result_name(sg_result r);

/* src into dst (NUL-terminated, truncated to size) with control bytes (tab
 * aside) and bytes that are not UTF-8 written as \xNN: for messages that
 * quote user input, which must not garble a terminal.  The tools escape
 * every message they print; messages given to sg_message_fn are raw. */
void sg_escape(char *dst, size_t size, const char *src);

/* Memory for a kernel's buffer: size bytes, zeroed, 128-byte aligned (every
 * OpenCL type, CL_DEVICE_MEM_BASE_ADDR_ALIGN); from
 * 4 MiB on 2 MiB-aligned and marked for transparent huge pages (madvise),
 * which kernels that stream through large buffers run markedly faster on
 * (saxpy over 64 MiB: 1.3x).  Release with free().  NULL when out of
 * memory.  The tools and the ICD allocate their buffers so; a program that
 * brings its own memory may use it too. */
void *sg_alloc_buffer(size_t size);

typedef enum sg_severity { SG_SEV_NOTE = 0, SG_SEV_WARNING, SG_SEV_ERROR } sg_severity;

/* text is one line without a trailing newline.  SG_SEV_NOTE carries
 * pass-through text (compiler diagnostics), to be printed as is. */
typedef void (*sg_message_fn)(void *user, sg_severity sev, const char *text);

/* ------------------------------------------------------------------ modules */

typedef struct sg_module sg_module;

typedef enum sg_validate { SG_VALIDATE_WARN = 0, SG_VALIDATE_STRICT, SG_VALIDATE_OFF } sg_validate;

typedef struct sg_spec_value { uint32_t spec_id; uint64_t value; } sg_spec_value;

typedef struct sg_load_options {
  sg_validate validate;
  const sg_spec_value *spec;     /* specialization constant overrides */
  uint32_t n_spec;
  /* OpenCL C input only */
  int opt_level;                 /* -O0..-O3; -1 = default (-O2) */
  const char *cl_std;            /* "CL1.2", "CL2.0", "CL3.0" or NULL (CL3.0) */
  const char *const *defines;    /* "NAME" or "NAME=VALUE" */
  uint32_t n_defines;
  const char *const *clang_args; /* more clang -cc1 flags (-cl-mad-enable, -I DIR ...):
                                   --build-options and clBuildProgram's options */
  uint32_t n_clang_args;
  sg_message_fn message;         /* may be NULL */
  void *message_user;
  /* OpenCL C input: compile with source-level debug information (clang
   * -debug-info-kind=limited -dwarf-version=4, llvm-spirv emitting
   * OpenCL.DebugInfo.100), so instructions carry file:line; the source path
   * is made absolute first. */
  bool debug_info;
  /* Limits (docs/limits.md); 0 = the default: 64 MiB, 4Mi instructions. */
  uint64_t max_module_bytes;
  uint64_t max_instructions;
  /* spirv-val runs on modules of at most this many instructions (0 = 1Mi);
   * a larger one is loaded with a warning (an error under
   * SG_VALIDATE_STRICT) and the loader's own checks. */
  uint64_t max_validate_instructions;
  /* OpenCL C input: line tables only (clang -debug-info-kind=line-tables-only):
   * file:line without variables, which llvm-spirv-15 translates at every
   * optimisation level (the detectors' reports use it). */
  bool line_info;
} sg_load_options;

/* Loads .spv (SPIR-V magic), .spvasm (or text starting with ';' or 'Op'), or
 * .cl (compiled with clang-15 + llvm-spirv-15 as tests/compile_cl.sh does).
 * On failure *out is NULL and one SG_SEV_ERROR message was sent. */
sg_result sg_module_load_file(const char *path, const sg_load_options *opt, sg_module **out);
sg_result sg_module_load_memory(const void *bytes, size_t n, const char *name,
                                const sg_load_options *opt, sg_module **out);
void sg_module_destroy(sg_module *m);
/* Links SPIR-V modules with SPIRV-Tools' linker (the spirv-link command),
 * resolving Import/Export linkage: a kernel may call a function another
 * module defines.  The modules are raised to the highest SPIR-V version
 * among them (the linker refuses a mix; a later version accepts an earlier
 * module), and unless library is set the linked functions are ordered
 * callees first.  The linker's messages go to opt->message.  *out_spirv is
 * malloc'd (free() it), *out_n bytes.  SG_ERROR_INVALID_MODULE: the link
 * failed (an unresolved import ...); SG_ERROR_TOOL_MISSING: no spirv-link. */
sg_result sg_link_spirv(const void *const *modules, const size_t *sizes, uint32_t n, bool library,
                        const sg_load_options *opt, void **out_spirv, size_t *out_n);
/* Compiles an OpenCL C file to SPIR-V (as sg_module_load_file does for .cl)
 * without loading it: *out_spirv is malloc'd words (free() it), *out_n bytes.
 * For the ICD, which keeps the SPIR-V (CL_PROGRAM_IL, binaries). */
sg_result sg_compile_cl(const char *path, const sg_load_options *opt, void **out_spirv,
                        size_t *out_n);
const char *sg_module_path(const sg_module *m);
/* The loader's module (an ld_module from loader/ld.h) for in-tree tools. */
const void *sg_module_ir(const sg_module *m);

typedef enum sg_arg_kind {
  SG_ARG_BUFFER = 0,   /* global or constant pointer */
  SG_ARG_NULL,         /* (launch only) a null pointer */
  SG_ARG_LOCAL,        /* local pointer: size given */
  SG_ARG_VALUE,        /* by value */
  SG_ARG_IMAGE,
  SG_ARG_SAMPLER,
  SG_ARG_OTHER,        /* (info only) unsupported kind */
} sg_arg_kind;

typedef enum sg_scalar {
  SG_S_NONE = 0, SG_S_CHAR, SG_S_UCHAR, SG_S_SHORT, SG_S_USHORT, SG_S_INT, SG_S_UINT,
  SG_S_LONG, SG_S_ULONG, SG_S_HALF, SG_S_FLOAT, SG_S_DOUBLE, SG_S_BOOL,
} sg_scalar;
const char *sg_scalar_name(sg_scalar s);
size_t sg_scalar_size(sg_scalar s);
/* "float" -> SG_S_FLOAT; SG_S_NONE if unknown. */
sg_scalar sg_scalar_from_name(const char *name, size_t len);

/* A buffer's access flag (CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY; run files:
 * ro / wo): a kernel write to a read-only buffer, or read from a write-only
 * one, is a fault. */
typedef enum sg_access { SG_ACCESS_READ_WRITE = 0, SG_ACCESS_READ_ONLY, SG_ACCESS_WRITE_ONLY } sg_access;

typedef struct sg_arg_info {
  const char *name;
  sg_arg_kind kind;
  const char *type_name;   /* OpenCL C spelling, e.g. "float*", "int4" (best effort) */
  size_t size;             /* VALUE: bytes of the value; pointers: pointee element bytes */
  sg_scalar scalar;        /* element / component scalar (SG_S_NONE for structs ...) */
  uint32_t components;     /* 1, or the vector width */
  bool is_const;
  bool is_constant_space;  /* __constant pointer */
  uint32_t image_type;     /* IMAGE: CL_MEM_OBJECT_IMAGE2D ... (CL/cl.h) */
} sg_arg_info;

typedef struct sg_kernel_info {
  const char *name;
  uint32_t n_args;
  const sg_arg_info *args;     /* owned by the module */
  uint32_t reqd_local_size[3]; /* 0 when absent */
  uint32_t reqd_subgroup_size; /* 0 when absent */
  uint32_t subgroups_per_wg;   /* 0 when absent */
} sg_kernel_info;

uint32_t sg_module_kernel_count(const sg_module *m);
/* NULL when i is out of range. */
const sg_kernel_info *sg_module_kernel(const sg_module *m, uint32_t i);
const sg_kernel_info *sg_module_find_kernel(const sg_module *m, const char *name);

/* clGetKernelSubGroupInfoKHR for the one device this library models (max
 * work-group size 1024).  S, the subgroup size a launch would use, is the
 * kernel's required size, else 16.
 * param_name: CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR (S, for any local
 * size: the value of get_max_sub_group_size(); a work-group smaller than S is
 * one partial subgroup, docs/semantics.md), CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR
 * (ceil(local items / S)), CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
 * CL_KERNEL_MAX_NUM_SUB_GROUPS, CL_KERNEL_COMPILE_NUM_SUB_GROUPS.  Returns
 * CL_SUCCESS, CL_INVALID_VALUE or CL_INVALID_KERNEL (as int32_t). */
int32_t sg_kernel_sub_group_info(const sg_module *m, const char *kernel_name,
                                 uint32_t param_name, size_t input_value_size,
                                 const void *input_value, size_t param_value_size,
                                 void *param_value, size_t *param_value_size_ret);
/* The same for a launch with subgroup_size (as sg_run_desc.subgroup_size:
 * 0 = the kernel's required size, else 16; a required size always wins). */
int32_t sg_kernel_sub_group_info_for(const sg_module *m, const char *kernel_name,
                                     uint32_t subgroup_size, uint32_t param_name,
                                     size_t input_value_size, const void *input_value,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret);
#define SG_DEVICE_MAX_WORK_GROUP_SIZE 1024u
#define SG_DEFAULT_SUBGROUP_SIZE 16u

/* ----------------------------------------------------------------- running */

typedef struct sg_image_desc {
  uint32_t image_type;      /* CL_MEM_OBJECT_IMAGE2D, ... (CL/cl.h) */
  uint32_t channel_order;   /* CL_R, CL_RGBA, ... */
  uint32_t channel_type;    /* CL_UNSIGNED_INT8, CL_FLOAT, ... */
  size_t width, height, depth, array_size;
  size_t row_pitch, slice_pitch;
} sg_image_desc;

/* One launch argument.  BUFFER and IMAGE data are read and written in place. */
typedef struct sg_arg {
  sg_arg_kind kind;
  void *data;
  size_t size;
  sg_image_desc image;
  uint32_t sampler;         /* CLK_* bits */
  bool noinit;              /* BUFFER: run-file 'noinit': --uninitialized takes
                               its bytes as uninitialized until written */
  sg_access access;         /* BUFFER: the host's read-only / write-only flag */
} sg_arg;

typedef enum sg_backend { SG_BACKEND_AUTO = 0, SG_BACKEND_INTERP, SG_BACKEND_JIT } sg_backend;
typedef enum sg_ub_mode { SG_UB_WARN = 0, SG_UB_ERROR, SG_UB_IGNORE } sg_ub_mode;

typedef void (*sg_write_fn)(void *user, const char *text, size_t len);
struct sg_diag;
/* Called once per recorded diagnostic as it is raised (d and its strings are
 * valid during the call only).  With threads > 1 calls are serialized. */
typedef void (*sg_diag_fn)(void *user, const struct sg_diag *d);
/* Called between chunks of work-groups (about every 0.2 s) with the groups
 * done so far of the launch's total, from the thread that called sg_run. */
typedef void (*sg_progress_fn)(void *user, uint64_t done, uint64_t total);

typedef struct sg_run_desc {
  const char *kernel;
  uint32_t work_dim;             /* 1..3 */
  size_t global_size[3];
  size_t local_size[3];          /* 0 = chosen */
  size_t global_offset[3];
  uint32_t subgroup_size;        /* 0 = the kernel's required size, else 16 */
  const sg_arg *args;
  uint32_t n_args;
  sg_backend backend;
  uint32_t threads;              /* 0 = every core for the JIT and auto, 1 for the interpreter */
  sg_ub_mode ub;
  bool stop_on_fault;
  uint64_t step_limit;           /* instructions (JIT: branches) per subgroup
                                    before a fault; 0 = default, 2^27 (about
                                    10 s of one subgroup on the interpreter) */
  double time_limit;             /* seconds per launch before a fault (the
                                    --timeout), 0 = none */
  uint32_t repeat;               /* launches (>= 1); buffers are restored between them */
  int jit_opt_level;             /* -1 = default */
  sg_write_fn printf_out;        /* NULL: printf text is only kept in the report */
  void *printf_user;
  sg_message_fn message;         /* fallback reasons and the like; may be NULL */
  void *message_user;
  /* --backend auto (docs/semantics.md, "Backend selection"): the JIT compile
   * starts on a background thread once the interpreter has executed this many
   * subgroup-instructions (summed over the repeat launches), or at once when
   * the kernel was compiled before; the rest of the launch switches to native
   * code at a work-group boundary.  0 = default (2,000,000). */
  uint64_t jit_threshold;
  bool jit_wait;                 /* auto: wait for the compile once started
                                    (deterministic switch point, for tests) */
  sg_diag_fn on_diag;            /* may be NULL; sg_run: the first launch only */
  void *diag_user;
  sg_progress_fn progress;       /* may be NULL (appended field) */
  void *progress_user;
  /* Detectors (docs/semantics.md, "Detectors"): SG_CHECK_* bits.  They run
   * on the interpreter only: backend auto then means interp, jit is an
   * error (SG_ERROR_INVALID_ARGUMENT). */
  uint32_t checks;
  /* Private memory (Function variables, by-value arguments) of the
   * work-items run at once: a work-group's, times the threads; 0 = 4 GiB
   * (docs/limits.md).  A work-group past it is an error before the launch;
   * more threads than fit run fewer work-groups at once.  (appended field) */
  uint64_t max_private_memory;
} sg_run_desc;

enum {
  SG_CHECK_DATA_RACES = 1u,      /* unordered conflicting accesses (Oclgrind's --data-races) */
  SG_CHECK_LOCKSTEP = 2u,        /* lanes of one subgroup communicating without synchronization */
  SG_CHECK_UNINITIALIZED = 4u,   /* uninitialized values used (Oclgrind's --uninitialized) */
  SG_CHECK_ALL = 7u,
};

/* One access named by a detector report. */
typedef struct sg_diag_access {
  const char *access;      /* "read", "write", "atomic access", "async copy write", "branch" ... */
  uint32_t group[3];       /* work-group */
  uint32_t local_id[3];    /* work-item within it */
  uint32_t subgroup, lane;
  const char *instruction; /* "OpStore" or NULL */
  uint32_t word;
  const char *location;    /* "k.cl:12" or NULL */
} sg_diag_access;

typedef struct sg_diag {
  const char *kind;        /* "out-of-bounds access" */
  bool is_ub;
  uint32_t group[3];
  uint32_t subgroup;
  uint64_t lanes[2];       /* lane mask */
  const char *instruction; /* "OpLoad" or NULL */
  uint32_t word;           /* word offset of the instruction, 0 when none */
  const char *location;    /* "k.cl:12" or NULL */
  const char *message;
  const char *formatted;   /* the full one-line description */
  /* detector reports: [0] the reporting access (the position above), [1]
   * for races the earlier conflicting access */
  uint32_t n_accesses;
  sg_diag_access accesses[2];
} sg_diag;

typedef struct sg_report {
  sg_result status;              /* SG_SUCCESS or SG_FAULTED */
  const char *backend;           /* "interp", "jit" or "mixed" (auto switched
                                    mid-launch): what actually ran */
  const char *fallback_reason;   /* JIT fallback reason, or NULL */
  uint32_t subgroup_size;
  size_t local_size[3];
  uint32_t n_diags;
  const sg_diag *diags;
  uint64_t n_faults, n_ub;
  uint64_t insns, lane_insns;
  bool stopped;
  const char *printf_text;       /* everything the kernel printed (first launch) */
  size_t printf_len;
  double load_ms, compile_ms, first_ms, best_ms, median_ms;
  uint64_t wg_interp, wg_jit;    /* work-groups each backend ran, all launches */
  /* JIT: the compiled kernel, when there is one (appended fields) */
  bool jit_from_cache;           /* loaded from the on-disk cache */
  uint32_t jit_ir_statements;    /* size of the generated code (0 from the cache) */
  uint32_t jit_interp_insns;     /* instructions the compiled code hands to the interpreter's handlers */
  bool jit_convergent;           /* no varying branch: compiled without the SIMT stack (docs/semantics.md) */
  uint32_t jit_masked_loops;     /* lane-dependent loops compiled under a lane mask (docs/semantics.md, JIT) */
  uint32_t jit_wide_fields;      /* 128-byte lane values kept in vector registers (docs/semantics.md, JIT) */
} sg_report;

/* Runs the kernel.  On SG_SUCCESS / SG_FAULTED *out is a report; on other
 * results *out is NULL and one error message was sent (err holds it too). */
sg_result sg_run(const sg_module *m, const sg_run_desc *desc, sg_report **out,
                 char *err, size_t err_size);
void sg_report_destroy(sg_report *r);

/* ------------------------------------------------------ stepping (debugger) */

typedef struct sg_launch sg_launch;
typedef struct sg_wg sg_wg;
typedef struct sg_sg sg_sg;

typedef enum sg_step {
  SG_STEP_OK = 0, SG_STEP_BLOCKED, SG_STEP_DONE, SG_STEP_FAULT, SG_STEP_STOPPED,
} sg_step;

typedef struct sg_insn_info {
  uint32_t opcode;
  const char *name;        /* "OpLoad" */
  uint32_t result_id;
  uint32_t word;
  const char *file;        /* or NULL */
  uint32_t line, column;
} sg_insn_info;

sg_result sg_launch_create(const sg_module *m, const sg_run_desc *desc, sg_launch **out,
                           char *err, size_t err_size);
void sg_launch_destroy(sg_launch *l);
sg_result sg_launch_run(sg_launch *l);
/* Number of work-groups per dimension, subgroup size actually used. */
void sg_launch_groups(const sg_launch *l, size_t out_groups[3], uint32_t *out_sg_size);
uint32_t sg_launch_diag_count(const sg_launch *l);
/* Formats diagnostic i into buf (one line). */
bool sg_launch_diag_format(const sg_launch *l, uint32_t i, char *buf, size_t size);

sg_wg *sg_wg_begin(sg_launch *l, const uint32_t group[3], char *err, size_t err_size);
void sg_wg_end(sg_wg *wg);
uint32_t sg_wg_subgroup_count(const sg_wg *wg);
sg_sg *sg_wg_subgroup(sg_wg *wg, uint32_t i);
sg_step sg_wg_step(sg_wg *wg);
sg_step sg_wg_run(sg_wg *wg);

sg_step sg_sg_step(sg_sg *sg);
uint32_t sg_sg_id(const sg_sg *sg);
uint32_t sg_sg_lane_count(const sg_sg *sg);
void sg_sg_active(const sg_sg *sg, uint64_t out_mask[2]);
bool sg_sg_done(const sg_sg *sg);
/* false when done. */
bool sg_sg_current(const sg_sg *sg, sg_insn_info *out);
uint32_t sg_sg_depth(const sg_sg *sg);
const char *sg_sg_frame_function(const sg_sg *sg, uint32_t depth);
bool sg_sg_frame_insn(const sg_sg *sg, uint32_t depth, sg_insn_info *out);
/* out must hold 128 bytes; returns the value's size or 0. */
uint32_t sg_sg_read(const sg_sg *sg, uint32_t depth, uint32_t lane, uint32_t id, void *out);
uint32_t sg_sg_lane_local_linear(const sg_sg *sg, uint32_t lane);
bool sg_sg_read_memory(const sg_sg *sg, uint32_t lane, uint64_t addr, void *out, size_t n);
/* A pointer value as region + offset ("buffer 'out'+12 (size 64)", "local
 * 'tmp'+0 (size 256)", "null pointer+0", ...) into buf (one line). */
void sg_sg_describe_addr(const sg_sg *sg, uint64_t addr, char *buf, size_t n);
/* true while the subgroup waits at a work-group barrier (or another
 * work-group rendezvous) for the others; false once released or done. */
bool sg_sg_blocked(const sg_sg *sg);

/* ---------------------------------------------------------------- run files
 *
 * Oclgrind's .sim format (docs/runfile.md): kernel file, kernel name,
 * NDRange, work-group size, then one <...> header (and data) per argument.
 * Errors are "file.sim:LINE: message". */

typedef struct sg_runfile sg_runfile;

typedef struct sg_runfile_output {
  uint32_t arg;            /* argument index */
  const char *name;        /* argument name */
  sg_scalar scalar;        /* element type for dumping */
  uint32_t components;     /* vector width of the declared type (1 for scalars) */
  bool hex;
  bool dump;               /* print a table */
  const char *write_path;  /* write raw bytes here after the run, or NULL */
} sg_runfile_output;

/* Reads and parses the header part (program file, kernel, sizes). */
sg_result sg_runfile_open(const char *path, sg_runfile **out, char *err, size_t err_size);
void sg_runfile_destroy(sg_runfile *rf);
/* The kernel file, resolved relative to the run file's folder. */
const char *sg_runfile_module_path(const sg_runfile *rf);
const char *sg_runfile_kernel(const sg_runfile *rf);
void sg_runfile_ndrange(const sg_runfile *rf, size_t out_global[3], size_t out_local[3]);
uint32_t sg_runfile_subgroup_size(const sg_runfile *rf);   /* extension; 0 = unset */
double sg_runfile_timeout(const sg_runfile *rf);   /* #sg: timeout=SECONDS; 0 = unset */
/* Parses the arguments against the kernel.  After success the args below
 * are valid until sg_runfile_destroy. */
sg_result sg_runfile_bind(sg_runfile *rf, const sg_module *m, char *err, size_t err_size);
const sg_arg *sg_runfile_args(const sg_runfile *rf, uint32_t *out_n);
const sg_runfile_output *sg_runfile_outputs(const sg_runfile *rf, uint32_t *out_n);

/* One dump exactly as oclgrind-kernel prints it, blank lines included:
 * "\nArgument 'NAME': N bytes\n  NAME[i] = v\n...\n" (malloc'd). */
char *sg_format_dump(const char *name, sg_scalar s, bool hex, const void *data, size_t size);
/* The same text written to f element by element (no allocation, so a dump
 * of any size works); 0, or -1 with errno set when a write failed. */
int sg_write_dump(FILE *f, const char *name, sg_scalar s, bool hex, const void *data, size_t size);
/* Formats one element (no name) as oclgrind does; returns chars written. */
int sg_format_value(char *buf, size_t n, sg_scalar s, bool hex, const void *elem);

/* ------------------------------------------------------------ the debugger */

/* The engine of spirv-sgdb (docs/sgdb.md), for programs that embed it: the
 * terminal front-end, the DAP server (spirv-sgdb --dap) and any editor
 * plugin or test drive the same session through these functions.  A
 * session loads one kernel and debugs one launch of it on the reference
 * interpreter; it is driven by spirv-sgdb's commands as text ("break 8 if
 * lane == 3", "next", "reverse-step", "print in[gid]", "info lanes --json")
 * and everything it says goes to the output sink, never to stdout.  One
 * session is not safe to use from two threads at once. */
typedef struct sg_dbg sg_dbg;

typedef struct sg_dbg_config {
  /* spirv-sgdb's command line without its front-end options (-x, --batch,
   * --dap, --help): the FILE (.cl, .spv, .spvasm or .sim) and the kernel,
   * NDRange, argument and loading options of spirv-sgrun, plus
   * --no-debug-info.  argv[0] is the program name and is not read. */
  int argc;
  char **argv;
  sg_write_fn output;            /* everything the session says; NULL: stdout */
  void *output_user;
  sg_message_fn message;         /* loader warnings (raw); NULL: to output */
  void *message_user;
  bool batch;                    /* commands come from a script: --timeout allowed */
  sg_write_fn kernel_output;     /* the kernel's printf; NULL: to output */
  void *kernel_output_user;
} sg_dbg_config;

/* Loads the kernel and prepares its launch (nothing runs yet).  On error
 * *out is NULL and err says why in one line (SG_ERROR_UNSUPPORTED,
 * SG_ERROR_TOOL_MISSING, or another code for a bad option or input). */
sg_result sg_dbg_create(const sg_dbg_config *c, sg_dbg **out, char *err, size_t err_size);
void sg_dbg_destroy(sg_dbg *s);                 /* NULL: nothing */
/* "kernel K, X x Y x Z work-groups, subgroup size N." (the banner). */
void sg_dbg_describe(const sg_dbg *s, char *buf, size_t n);
/* Runs one command line (see 'help'); its output goes to the sink. */
void sg_dbg_command(sg_dbg *s, const char *line);
/* Runs the commands read from f until its end or 'quit'; prompt: print
 * "(sgdb) " before each, echo: print each command as "(sgdb) CMD". */
void sg_dbg_command_loop(sg_dbg *s, FILE *f, bool prompt, bool echo);
/* Makes going backwards cheap by checkpoints: copies of the whole process
 * (fork) that sg_dbg_command_loop resumes from.  Only for a program that
 * is the debugger (one session per process, commands through the loop);
 * false when they cannot be had (SG_SGDB_NO_CHECKPOINTS set, or fork
 * state unavailable).  The checkpoints end with sg_dbg_destroy. */
bool sg_dbg_enable_checkpoints(sg_dbg *s);
/* Stops a running 'continue' or 'step N' at the next instruction (safe to
 * call from a signal handler). */
void sg_dbg_interrupt(sg_dbg *s);
bool sg_dbg_quit_requested(const sg_dbg *s);    /* 'quit' was run */
/* Diagnostics (faults, undefined behaviour, limits, detector reports) the
 * current launch raised so far (a restart starts again from 0). */
uint64_t sg_dbg_diagnostics(const sg_dbg *s);
/* The exit status sg_dbg_destroy gives the first process when checkpoints
 * are on (it is the one the shell waits for); default 0. */
void sg_dbg_set_exit_status(sg_dbg *s, int code);
bool sg_dbg_finished(const sg_dbg *s);          /* no subgroup to show */
/* Lanes of the focused subgroup (0 when finished). */
uint32_t sg_dbg_lane_count(const sg_dbg *s);
/* 'lane L' focus: -1 none. */
int64_t sg_dbg_focus_lane(const sg_dbg *s);
void sg_dbg_set_focus_lane(sg_dbg *s, int64_t lane);
/* Steps the launch has run (subgroup instructions): the current point. */
uint64_t sg_dbg_position(const sg_dbg *s);
/* Evaluates an expression (print's language) in one lane of the focused
 * subgroup: true with the value as print shows it, or false with the
 * reason in buf. */
bool sg_dbg_eval(sg_dbg *s, const char *expr, uint32_t lane, char *buf, size_t n);
/* The source-level names of frame depth's function (its parameters and
 * named private variables); returns how many were stored in names. */
uint32_t sg_dbg_locals(const sg_dbg *s, uint32_t depth, const char **names, uint32_t max);

#ifdef __cplusplus
}
#endif
#endif
