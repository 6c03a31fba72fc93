/* ld.h - validation and the immutable module IR.
 *
 * Stages (wasm3 style): bytes -> spv_binary (spirv/) -> validate (SPIRV-Tools,
 * OpenCL environment) -> ld_module (decoded once, in one arena).  The loader
 * never executes anything.  Backends (interp/, jit/) read this IR and nothing
 * else.
 *
 * Ownership: ld_module_load() returns a module that owns every object reachable
 * from it (one arena); ld_module_free(NULL) is a no-op.  The IR is immutable
 * after load, so several threads may read one module at once.
 *
 * Value layout convention, shared by every backend: a value of type T is held
 * as T->size bytes laid out exactly as in memory (little-endian, OpenCL C
 * ABI: vec3 padded to vec4, struct members at their Offset or natural
 * alignment).  bool is one byte, 0 or 1.  An integer of a width that is not
 * 8/16/32/64 (llvm-spirv emits i2 for switch conditions) is held in the next
 * container (T->size) and kept zero-extended to its width.  Pointers are
 * addr_bits/8 bytes: an encoded address (see interp/ip.h, "addresses").
 */
#ifndef LD_H
#define LD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <spirv/unified1/spirv.h>
#include "spv.h"

/* ---------------------------------------------------------------- types */

typedef enum ld_type_kind {
  LD_T_VOID,
  LD_T_BOOL,
  LD_T_INT,
  LD_T_FLOAT,
  LD_T_VECTOR,
  LD_T_ARRAY,         /* count > 0 */
  LD_T_RUNTIME_ARRAY,
  LD_T_STRUCT,
  LD_T_POINTER,
  LD_T_FUNCTION,
  LD_T_IMAGE,
  LD_T_SAMPLER,
  LD_T_SAMPLED_IMAGE,
  LD_T_EVENT,
  LD_T_DEVICE_EVENT,
  LD_T_RESERVE_ID,
  LD_T_QUEUE,
  LD_T_PIPE,
  LD_T_OPAQUE,
} ld_type_kind;

typedef struct ld_type ld_type;
struct ld_type {
  ld_type_kind kind;
  uint32_t id;          /* the defining OpType* id (first one, types are interned) */
  uint32_t size;        /* bytes in memory / in a register; 0 for void, opaque */
  uint32_t align;       /* natural alignment in bytes */
  uint32_t width;       /* INT, FLOAT: declared bits (e.g. 2, 8, 16, 32, 64) */
  bool is_signed;       /* INT: the signedness operand (OpenCL kernels use 0) */
  uint32_t count;       /* VECTOR: components; ARRAY: length */
  const ld_type *elem;  /* VECTOR, ARRAY, RUNTIME_ARRAY: element; POINTER: pointee;
                           FUNCTION: return type; SAMPLED_IMAGE: image */
  SpvStorageClass storage;   /* POINTER */
  uint32_t n_members;        /* STRUCT: members; FUNCTION: parameters */
  const ld_type **members;
  const uint32_t *offsets;   /* STRUCT: byte offset of each member */
  /* Scalar view for elementwise work: a scalar is its own component. */
  uint32_t n_comp;           /* 1 for scalars, count for vectors, 0 otherwise */
  const ld_type *comp;       /* component type for scalars/vectors, else NULL */
  /* IMAGE */
  SpvDim dim;
  uint32_t depth, arrayed, ms, sampled;
  SpvImageFormat format;
  SpvAccessQualifier access; /* -1 (as uint) when absent */
};

/* ------------------------------------------------------- source locations */

typedef struct ld_srcloc {
  const char *file;   /* from OpString / DebugSource; never NULL when set */
  uint32_t line, column;
} ld_srcloc;

/* ----------------------------------------------------------------- values */

typedef enum ld_value_kind {
  LD_V_NONE = 0,      /* id not defined (or forward-declared only) */
  LD_V_TYPE,
  LD_V_CONSTANT,      /* OpConstant*, OpSpecConstant* (after overrides),
                         OpConstantNull, OpSpecConstantOp: bytes are final */
  LD_V_UNDEF,         /* OpUndef: bytes are all zero; backends may diagnose */
  LD_V_VARIABLE,      /* module-scope OpVariable: a pointer constant */
  LD_V_FUNCTION,
  LD_V_PARAM,         /* OpFunctionParameter */
  LD_V_LABEL,
  LD_V_RESULT,        /* result of an instruction inside a function */
  LD_V_EXT_SET,       /* OpExtInstImport */
  LD_V_STRING,        /* OpString */
  LD_V_DEBUG,         /* result of a non-semantic / debug-info OpExtInst */
} ld_value_kind;

typedef enum ld_ext_set {
  LD_EXT_UNKNOWN = 0,
  LD_EXT_OPENCL_STD,
  LD_EXT_OPENCL_DEBUGINFO_100,
  LD_EXT_NONSEMANTIC,  /* any "NonSemantic.*" set: ignored */
} ld_ext_set;

typedef struct ld_function ld_function;
typedef struct ld_block ld_block;
typedef struct ld_insn ld_insn;
typedef struct ld_variable ld_variable;

typedef struct ld_value {
  ld_value_kind kind;
  const ld_type *type;   /* result type; for LD_V_TYPE the type itself */
  const char *name;      /* OpName, or NULL */
  union {
    const uint8_t *bytes;        /* CONSTANT, UNDEF: type->size bytes */
    const ld_variable *var;      /* VARIABLE */
    const ld_function *fn;       /* FUNCTION */
    const ld_block *block;       /* LABEL */
    const ld_insn *insn;         /* RESULT, DEBUG */
    ld_ext_set ext_set;          /* EXT_SET */
    const char *str;             /* STRING */
    uint32_t param_index;        /* PARAM */
  } u;
  const ld_function *owner;      /* PARAM, RESULT, LABEL: defining function */
  /* Decorations that matter for execution (others are kept in ld_module.decos). */
  int32_t builtin;               /* SpvBuiltIn, or -1 */
  uint32_t alignment;            /* Alignment decoration, 0 if none */
  int32_t spec_id;               /* SpecId, or -1 */
  bool is_spec_constant;
  bool fp_contraction_allowed;   /* FPFastMathMode/NoContraction not applied: informational */
} ld_value;

/* Every decoration, for tools that want them all. */
typedef struct ld_decoration {
  uint32_t target;
  int32_t member;        /* -1 for OpDecorate, member index for OpMemberDecorate */
  SpvDecoration decoration;
  uint32_t n_literals;
  const uint32_t *literals;
  const char *string;    /* LinkageAttributes name, UserSemantic ... or NULL */
} ld_decoration;

/* -------------------------------------------------------------- addresses
 *
 * A pointer value is (region << shift) | offset.  shift is 48 for Physical64
 * (16-bit region, 48-bit offset) and 24 for Physical32 (8-bit region, 24-bit
 * offset: buffers of at most 16 MiB).  Regions by class:
 *   0                          null: every access faults
 *   [1, local_base)            launch-wide: global-class module variables
 *                              (UniformConstant, CrossWorkgroup) as 1 + their
 *                              ordinal among those, then buffer and image
 *                              arguments in argument order
 *   [local_base, builtin_base) this work-group's local allocations: Workgroup
 *                              module variables (local_base + ordinal), then
 *                              local arguments in argument order
 *   [builtin_base, priv_base)  Input built-in variables (builtin_base + ordinal)
 *   [priv_base, priv_base+128) lane l's private memory in the current subgroup
 * Generic pointers are the same values; casts to a named space check the class.
 * The loader fixes module-variable addresses (ld_variable.address), so constant
 * pointers (initializers of pointer arrays) are ordinary constant bytes.
 */
typedef struct ld_addr_layout {
  uint32_t shift;
  uint64_t offset_mask;
  uint32_t local_base, builtin_base, priv_base, n_regions;
} ld_addr_layout;

/* 64: {48, 2^48-1, 0x4000, 0x7000, 0x8000, 0x8080};
 * 32: {24, 2^24-1, 0x40, 0x70, 0x80, 0x100}. */
void ld_addr_layout_for(uint32_t addr_bits, ld_addr_layout *out);

/* ---------------------------------------------------- module-scope variables */

struct ld_variable {
  uint32_t id;
  SpvStorageClass storage;       /* UniformConstant, CrossWorkgroup, Workgroup,
                                    Input (built-ins), Function never here */
  const ld_type *type;           /* the pointer type */
  const ld_type *pointee;
  const uint8_t *init;           /* initializer bytes (pointee->size) or NULL */
  int32_t builtin;               /* Input variables: SpvBuiltIn, else -1 */
  uint32_t index;                /* dense index among module variables */
  uint32_t class_ordinal;        /* ordinal within its region class (see addresses) */
  uint64_t address;              /* its pointer value (see addresses) */
  const char *name;
};

/* ------------------------------------------------------------ instructions */

/* One decoded instruction.  Operands are kept as the words after the result
 * type and result id; for an id operand the word is an index into
 * ld_module.values.  The loader has checked every id operand the backends read
 * (defined, of a plausible kind), so a backend never meets an id >= bound. */
struct ld_insn {
  SpvOp op;
  uint32_t result;          /* result id or 0 */
  const ld_type *type;      /* result type or NULL */
  uint32_t n_ops;
  const uint32_t *ops;      /* operand words (after type and result) */
  uint32_t word_offset;     /* in the original binary, for diagnostics */
  const ld_srcloc *loc;     /* OpLine / DebugLine in force, or NULL */
  /* OpExtInst: the set and the instruction number; args start at ops[2]. */
  ld_ext_set ext_set;
  uint32_t ext_op;
  const ld_block *block;    /* containing block */
  uint32_t index;           /* position in block->insns */
};

struct ld_block {
  uint32_t label;           /* OpLabel id */
  uint32_t index;           /* position in fn->blocks (file order) */
  const ld_function *fn;
  uint32_t n_phis;          /* the first n_phis insns are OpPhi */
  uint32_t n_insns;         /* including the terminator (last) */
  const ld_insn *insns;
  /* CFG, computed by the loader */
  uint32_t n_succs, n_preds;
  const ld_block **succs;   /* distinct successors, in terminator order */
  const ld_block **preds;
  /* Reconvergence point for a divergent terminator in this block: the merge
   * block of an OpSelectionMerge/OpLoopMerge when present, else the immediate
   * post-dominator; NULL means "the function's exit" (returns). */
  const ld_block *reconverge;
  const ld_block *merge;          /* OpSelectionMerge / OpLoopMerge merge, or NULL */
  const ld_block *loop_continue;  /* OpLoopMerge continue target, or NULL */
  bool reachable;                 /* from the entry block */
  /* Dominator tree (reachable blocks): this block's interval in a
   * depth-first numbering of it; see ld_dominates. */
  uint32_t dom_pre, dom_post;
};

struct ld_function {
  uint32_t id;
  const char *name;               /* OpName or linkage name, or NULL */
  const ld_type *type;            /* LD_T_FUNCTION */
  const ld_type *ret;
  uint32_t n_params;
  const uint32_t *params;         /* parameter ids */
  uint32_t n_blocks;
  const ld_block *blocks;         /* blocks[0] is the entry block */
  bool is_import;                 /* declared with Import linkage, no body */
  uint32_t word_offset;
  /* Every id defined inside the function (params + results), for register
   * allocation: n_locals entries. */
  uint32_t n_locals;
  const uint32_t *locals;
  uint32_t max_call_depth;        /* of the static call graph below it; UINT32_MAX if recursive */
};

/* ---------------------------------------------------------------- kernels */

typedef enum ld_arg_kind {
  LD_ARG_BUFFER,     /* pointer to CrossWorkgroup (global) or UniformConstant (constant) */
  LD_ARG_LOCAL,      /* pointer to Workgroup: size given at launch */
  LD_ARG_VALUE,      /* scalar, vector or struct by value */
  LD_ARG_IMAGE,
  LD_ARG_SAMPLER,
  LD_ARG_OTHER,      /* queue, pipe, ...: reported unsupported at launch */
} ld_arg_kind;

typedef struct ld_kernel_arg {
  const char *name;            /* OpName of the parameter, or "argN" */
  ld_arg_kind kind;
  const ld_type *type;         /* the parameter's type */
  uint32_t value_size;         /* VALUE: bytes; BUFFER/LOCAL: pointee size (element) */
  bool is_const;               /* NonWritable / constant address space */
  const char *type_name;       /* OpenCL C spelling if known ("float*", "int4"), or NULL */
} ld_kernel_arg;

typedef struct ld_kernel {
  const char *name;
  const ld_function *fn;       /* the entry point's function */
  uint32_t n_args;
  const ld_kernel_arg *args;
  uint32_t n_interface;
  const uint32_t *interface;   /* OpEntryPoint interface ids */
  /* Execution modes (0 when absent) */
  uint32_t local_size[3];       /* LocalSize / LocalSizeId (reqd_work_group_size) */
  uint32_t local_size_hint[3];
  uint32_t subgroup_size;       /* SubgroupSize (intel_reqd_sub_group_size) */
  uint32_t subgroups_per_wg;    /* SubgroupsPerWorkgroup(Id) */
  uint32_t vec_type_hint;
  bool contraction_off;         /* ContractionOff */
  bool denorm_preserve, float_controls;  /* informational */
} ld_kernel;

/* ------------------------------------------------------------------ module */

typedef struct ld_module {
  uint32_t version;             /* 0x00MMmm00 */
  uint32_t generator;
  uint32_t bound;
  const ld_value *values;       /* [bound], values[0] unused */
  SpvAddressingModel addressing;
  uint32_t addr_bits;           /* 64 for Physical64, 32 for Physical32 */
  ld_addr_layout layout;
  uint32_t n_global_vars;       /* module variables in the global class */
  uint32_t n_local_vars;        /* Workgroup module variables */
  uint32_t n_input_vars;        /* Input (built-in) variables */
  SpvMemoryModel memory_model;
  uint32_t n_capabilities;
  const SpvCapability *capabilities;
  uint32_t n_extensions;
  const char *const *extensions;
  uint32_t n_types;
  const ld_type *const *types;
  uint32_t n_variables;
  const ld_variable *const *variables;   /* module-scope, in file order */
  uint32_t n_functions;
  const ld_function *const *functions;
  uint32_t n_kernels;
  const ld_kernel *kernels;
  uint32_t n_decorations;
  const ld_decoration *decorations;
  uint32_t n_spec_constants;
  const uint32_t *spec_constants;        /* ids of spec constants, file order */
  SpvSourceLanguage source_language;
  uint32_t source_version;
  uint8_t hash[32];                      /* hash of the words after spec overrides,
                                            for caches (any good 256-bit hash) */
  bool has_printf;                       /* some OpExtInst is OpenCL.std printf */
} ld_module;

/* ------------------------------------------------------------------- load */

typedef enum ld_severity { LD_NOTE, LD_WARNING, LD_ERROR } ld_severity;

/* Messages go through the callback; text is one line, no trailing newline,
 * already carrying "word N (OpX)" and "file:line" where known. */
typedef void (*ld_message_fn)(void *user, ld_severity sev, const char *text);

typedef struct ld_spec_override {
  uint32_t spec_id;      /* SpecId decoration value */
  uint64_t value;        /* raw bits, truncated to the constant's width */
} ld_spec_override;

typedef enum ld_validate_mode {
  LD_VALIDATE_WARN = 0,  /* default: run spirv-val; failures become warnings */
  LD_VALIDATE_STRICT,    /* spirv-val failure is an error */
  LD_VALIDATE_OFF,       /* --no-validate */
} ld_validate_mode;

typedef struct ld_options {
  ld_validate_mode validate;
  const ld_spec_override *spec;
  uint32_t n_spec;
  ld_message_fn message;    /* may be NULL: messages dropped */
  void *message_user;
  const char *source_name;  /* file name used in messages, may be NULL */
  /* Size limits (docs/limits.md), checked before anything is allocated for
   * the module; 0: the defaults below. */
  uint64_t max_bytes;
  uint64_t max_insns;
  /* spirv-val runs on modules of at most this many instructions (it needs
   * about 170 bytes each); a larger one gets the loader's own structural
   * checks and a warning (an error with LD_VALIDATE_STRICT). */
  uint64_t max_validate_insns;
} ld_options;

/* Default limits: far above any compiler's kernel module, low enough that a
 * module at the limit loads (spirv-val included) in a few hundred MB. */
#define LD_DEFAULT_MAX_BYTES ((uint64_t)64 << 20)
#define LD_DEFAULT_MAX_INSNS ((uint64_t)4 << 20)
/* 1 Mi instructions: spirv-val's share stays under about 200 MB, and a
 * compiler's kernel module (tens of thousands of instructions) is far below */
#define LD_DEFAULT_MAX_VALIDATE_INSNS ((uint64_t)1 << 20)
/* Constant data of a module (OpConstant*, OpConstantNull, OpUndef, spec
 * constants), all constants together: each is materialized in the module,
 * so an OpConstantNull of a 2 GiB array would take 2 GiB at load (fuzz_run:
 * a mutated array length).  Compilers' constant tables are far below. */
#define LD_MAX_CONSTANT_BYTES ((uint64_t)256 << 20)

typedef enum ld_result {
  LD_OK = 0,
  LD_ERR_INVALID = -1,       /* malformed or invalid module */
  LD_ERR_UNSUPPORTED = -2,   /* valid SPIR-V we do not run (named in the message) */
  LD_ERR_NOMEM = -3,
} ld_result;

/* Decodes, validates and builds the IR.  On error *out is NULL and exactly one
 * LD_ERROR message was sent.  Never crashes on any input. */
ld_result ld_module_load(const uint32_t *words, size_t n_words,
                         const ld_options *opt, ld_module **out);
/* Same, from raw bytes (handles either endianness, checks the header). */
ld_result ld_module_load_bytes(const void *bytes, size_t n_bytes,
                               const ld_options *opt, ld_module **out);
void ld_module_free(ld_module *m);

const ld_kernel *ld_find_kernel(const ld_module *m, const char *name);
/* Name of an id for messages: OpName, else "%N" (four per-thread buffers in
 * turn: up to four names in one message). */
const char *ld_id_name(const ld_module *m, uint32_t id);
/* True if the module declares the capability. */
bool ld_has_capability(const ld_module *m, SpvCapability cap);
/* "file:line" or "word N" description of an instruction (per-thread buffer). */
const char *ld_insn_where(const ld_module *m, const ld_insn *insn);
/* The alignment rule of both backends (docs/semantics.md, "Memory"): an
 * access of a scalar or pointer needs its size, of a vector its component
 * size, of an aggregate its natural alignment; at most 16, and 1 where that
 * is not a power of two.  NULL: 1. */
uint32_t ld_natural_align(const ld_type *t);
/* True if block a dominates block b (both reachable from their function's
 * entry; a block dominates itself). */
bool ld_dominates(const ld_block *a, const ld_block *b);
/* The alignment an access of t by `in` needs: ld_natural_align(t), lowered
 * by an Aligned memory operand (mask at in->ops[first_mo], literal after it)
 * that is a smaller power of two (packed structs). */
uint32_t ld_access_align(const ld_type *t, const ld_insn *in, uint32_t first_mo);

/* Assembles SPIR-V text with SPIRV-Tools (for .spvasm input).  Returns malloc'd
 * words or NULL with a message sent. */
uint32_t *ld_assemble(const char *text, size_t len, size_t *out_n_words,
                      ld_message_fn message, void *user);
/* Same; messages start "NAME:LINE:COLUMN: " (name may be NULL). */
uint32_t *ld_assemble_named(const char *text, size_t len, const char *name, size_t *out_n_words,
                            ld_message_fn message, void *user);
/* Disassembles (friendly names) into a malloc'd string; NULL on failure. */
char *ld_disassemble(const uint32_t *words, size_t n_words);

/* Uniformity (ld_uniform.c): which values are the same in every active lane
 * of a subgroup, and which blocks may run with only some of its lanes.  One
 * analysis for spirv-sgconform check and the JIT.  The result belongs to the
 * caller (ld_uniformity_free; free(NULL)-like on NULL); NULL when out of
 * memory, and every query on NULL answers "varies" / "divergent". */
typedef struct ld_uniformity ld_uniformity;
/* Loads through Function, Private or Generic pointers vary (a private
 * variable's address can escape into a call): sound for code generation. */
#define LD_UNI_PRIVATE_VARIES 1u
/* The lanes of a subgroup hold consecutive x local ids (1-D work-groups, or
 * a local x size that is a multiple of the subgroup size): the x component
 * of the local and global ids has lane stride 1, y and z stride 0. */
#define LD_UNI_LINEAR_X 2u
/* Compute lane strides (ld_uni_lane_stride); without it every stride query
 * answers "not known". */
#define LD_UNI_STRIDES 4u
ld_uniformity *ld_uniformity_compute(const ld_module *m, unsigned flags);
void ld_uniformity_free(ld_uniformity *u);
bool ld_uni_value_varies(const ld_uniformity *u, uint32_t id);
/* *out_cause (optional): the varying branch or call that makes b divergent. */
bool ld_uni_block_divergent(const ld_uniformity *u, const ld_block *b, const ld_insn **out_cause);
/* fn may run with only some lanes of a subgroup (a call from divergent code). */
bool ld_uni_fn_divergent(const ld_uniformity *u, const ld_function *fn);
/* b ends in a conditional branch or switch on a varying value. */
bool ld_uni_branch_varies(const ld_uniformity *u, const ld_block *b);
/* Lane stride of an integer or global/local/constant pointer value computed
 * in a block that every lane of the subgroup runs: with every lane active,
 * lane l's value is lane 0's + *stride * l (modulo 2^width; 0: uniform).
 * False when not known (ld_uniform.c names the rules) or not computed
 * (LD_UNI_STRIDES). */
bool ld_uni_lane_stride(const ld_uniformity *u, uint32_t id, int64_t *stride);
/* ld_uni_lane_stride, and also for a value computed in a divergent block
 * and used by `use` in that same block: among the lanes that run `use`,
 * lane l's value is lane k's + *stride * (l - k).  (A use in another block
 * gets only what ld_uni_lane_stride answers.) */
bool ld_uni_lane_stride_in(const ld_uniformity *u, uint32_t id, const ld_insn *use, int64_t *stride);

/* A work-group has at most 2^LD_MAX_WG_LOG2 work-items: every launcher
 * refuses a larger one (interp/ip_launch.c), so a local id is below it.
 * The stride analysis relies on it (a local id masked to its low 32 bits,
 * clang's size_t-to-uint index, is the id itself). */
#define LD_MAX_WG_LOG2 24

#endif
