/* cf.h - spirv-sgconform internals: the case space, the kernel generator,
 * the verifiers and the runner.
 *
 * The verifiers (cf_verify.c) are written from the specification text
 * (cl_khr_subgroups, the cl_khr_subgroup_* extensions, cl_intel_subgroups)
 * and share no code with interp/ or jit/: they recompute every lane's
 * expected value from the inputs the suite generated and from the lane
 * layout the project documents (docs/semantics.md): a work-group's work-items
 * are split by linear local id (x + y*Lx + z*Lx*Ly) into consecutive
 * subgroups of S, the last one possibly partial.
 *
 * Ownership: cf_module objects are owned by the suite (cf_suite.c); verifier
 * results live in caller-provided arrays.
 */
#ifndef CF_H
#define CF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CF_MAX_S 64u          /* largest subgroup size the suite uses */
#define CF_NSLOT 4u           /* result slots per work-item (loop iterations) */
#define CF_MAX_VAL 128u       /* bytes of the largest value (double16, long16) */
#define CF_BARRIER_LOCAL 256u /* local array of the barrier kernels: >= largest work-group */

/* ------------------------------------------------------------------ types */

typedef enum cf_scalar {
  CF_CHAR, CF_UCHAR, CF_SHORT, CF_USHORT, CF_INT, CF_UINT, CF_LONG, CF_ULONG,
  CF_HALF, CF_FLOAT, CF_DOUBLE, CF_N_SCALARS
} cf_scalar;

#define CF_TS(x) (1u << (x))
#define CF_T_INTS (CF_TS(CF_CHAR) | CF_TS(CF_UCHAR) | CF_TS(CF_SHORT) | CF_TS(CF_USHORT) | \
                   CF_TS(CF_INT) | CF_TS(CF_UINT) | CF_TS(CF_LONG) | CF_TS(CF_ULONG))
#define CF_T_FLOATS (CF_TS(CF_HALF) | CF_TS(CF_FLOAT) | CF_TS(CF_DOUBLE))
#define CF_T_ALL (CF_T_INTS | CF_T_FLOATS)
/* cl_khr_subgroups' gentype: int, uint, long, ulong, float (+half, double). */
#define CF_T_KHR (CF_TS(CF_INT) | CF_TS(CF_UINT) | CF_TS(CF_LONG) | CF_TS(CF_ULONG) | CF_T_FLOATS)
#define CF_T_EXT8_16 (CF_TS(CF_CHAR) | CF_TS(CF_UCHAR) | CF_TS(CF_SHORT) | CF_TS(CF_USHORT))

typedef struct cf_type {
  cf_scalar s;
  uint32_t vec;     /* 1, 2, 3, 4, 8, 16 */
} cf_type;

typedef struct cf_scalar_info {
  const char *name;   /* OpenCL C spelling */
  char kind;          /* 'i' signed, 'u' unsigned, 'f' float */
  uint32_t bytes;
} cf_scalar_info;

extern const cf_scalar_info cf_scalars[CF_N_SCALARS];
/* "int", "float4" into buf. */
const char *cf_type_name(cf_type t, char *buf, size_t size);
/* Bytes in memory (vec3 padded to vec4). */
uint32_t cf_type_size(cf_type t);
bool cf_type_parse(const char *s, cf_type *out);

/* ----------------------------------------------------------- operations */

typedef enum cf_family {
  CF_FAM_KHR,          /* cl_khr_subgroups: all/any/broadcast/reduce/scan */
  CF_FAM_QUERY,        /* cl_khr_subgroups queries */
  CF_FAM_EXT_TYPES,    /* cl_khr_subgroup_extended_types */
  CF_FAM_VOTE,         /* cl_khr_subgroup_non_uniform_vote */
  CF_FAM_BALLOT,       /* cl_khr_subgroup_ballot */
  CF_FAM_ARITH,        /* cl_khr_subgroup_non_uniform_arithmetic */
  CF_FAM_SHUFFLE,      /* cl_khr_subgroup_shuffle */
  CF_FAM_SHUFFLE_REL,  /* cl_khr_subgroup_shuffle_relative */
  CF_FAM_CLUSTERED,    /* cl_khr_subgroup_clustered_reduce */
  CF_FAM_ROTATE,       /* cl_khr_subgroup_rotate */
  CF_FAM_INTEL,        /* cl_intel_subgroups (+_short) shuffles */
  CF_FAM_INTEL_BLOCK,  /* cl_intel_subgroups (+_short) buffer block I/O */
  CF_FAM_BARRIER,      /* cl_khr_subgroups sub_group_barrier */
  CF_FAM_INTEL_SPV,    /* cl_intel_subgroups_char / _long, as SPIR-V assembly */
  CF_FAM_INTEL_IMAGE_BLOCK, /* cl_intel_subgroups image2d_t block I/O */
  CF_N_FAMILIES
} cf_family;

typedef struct cf_family_info {
  const char *name;        /* "khr", "ballot", ... (for --op) */
  const char *extension;   /* the OpenCL C extension macro the kernels need */
} cf_family_info;
extern const cf_family_info cf_families[CF_N_FAMILIES];

/* What the verifier computes (one per specification function shape). */
typedef enum cf_sem {
  CF_SEM_REDUCE, CF_SEM_SCAN_INC, CF_SEM_SCAN_EXC, CF_SEM_CLUSTERED,
  CF_SEM_ALL, CF_SEM_ANY, CF_SEM_ALL_EQUAL, CF_SEM_ELECT,
  CF_SEM_BROADCAST,        /* uniform id from the kernel argument p */
  CF_SEM_NU_BROADCAST,     /* constant id (variant) */
  CF_SEM_BROADCAST_FIRST,
  CF_SEM_BALLOT, CF_SEM_INVERSE_BALLOT, CF_SEM_BIT_EXTRACT, CF_SEM_BIT_COUNT,
  CF_SEM_BALLOT_INC, CF_SEM_BALLOT_EXC, CF_SEM_BALLOT_LSB, CF_SEM_BALLOT_MSB,
  CF_SEM_MASK_EQ, CF_SEM_MASK_GE, CF_SEM_MASK_GT, CF_SEM_MASK_LE, CF_SEM_MASK_LT,
  CF_SEM_SHUFFLE, CF_SEM_SHUFFLE_XOR, CF_SEM_SHUFFLE_UP, CF_SEM_SHUFFLE_DOWN,
  CF_SEM_ROTATE, CF_SEM_CLUSTERED_ROTATE,
  CF_SEM_ISHUFFLE, CF_SEM_ISHUFFLE_XOR, CF_SEM_ISHUFFLE_UP, CF_SEM_ISHUFFLE_DOWN,
  CF_SEM_BLOCK_READ, CF_SEM_BLOCK_WRITE,
  CF_SEM_IMG_BLOCK_READ, CF_SEM_IMG_BLOCK_WRITE,   /* image2d_t, byte coordinate */
  CF_SEM_Q_SIZE, CF_SEM_Q_MAX_SIZE, CF_SEM_Q_NUM, CF_SEM_Q_ENQ_NUM, CF_SEM_Q_ID,
  CF_SEM_Q_LOCAL_ID,
  CF_SEM_SG_BARRIER,       /* slot 0: x of lane (l + aux%n)%n, slot 1: y of lane n-1-l */
} cf_sem;

typedef enum cf_arith {
  CF_A_NONE, CF_A_ADD, CF_A_MUL, CF_A_MIN, CF_A_MAX, CF_A_AND, CF_A_OR, CF_A_XOR,
  CF_A_LAND, CF_A_LOR, CF_A_LXOR,
} cf_arith;

/* How the kernel calls the operation (the generator's template). */
typedef enum cf_sig {
  CF_SIG_X,         /* r = F(x) */
  CF_SIG_XP,        /* r = F(x, p)        p: uniform kernel argument */
  CF_SIG_XA,        /* r = F(x, aux[i])   lane-varying */
  CF_SIG_XV,        /* r = F(x, V)        V: constant variant */
  CF_SIG_XPV,       /* r = F(x, p, V) */
  CF_SIG_XYA,       /* r = F(x, y, aux[i])  two data sources (Intel up/down) */
  CF_SIG_PRED,      /* int r = F(pred)    pred: int input */
  CF_SIG_Q,         /* r = F(q)           q: uint4 kernel argument */
  CF_SIG_QA,        /* r = F(q, aux[i]) */
  CF_SIG_VOID,      /* r = F() */
  CF_SIG_BLOCK_READ,
  CF_SIG_BLOCK_WRITE,
  CF_SIG_IMG_BLOCK_READ,   /* r = F(image, (int2)(cx, cy)) */
  CF_SIG_IMG_BLOCK_WRITE,  /* F(image, (int2)(cx, cy), x); r = x */
  CF_SIG_BARRIER,   /* local-memory exchange around sub_group_barrier (variant: form) */
} cf_sig;

/* Result compare modes */
typedef enum cf_res {
  CF_RES_T,         /* same type as x, exact */
  CF_RES_BOOL,      /* int, compared as zero / non-zero */
  CF_RES_UINT,      /* uint, exact */
  CF_RES_UINT4,     /* uint4, exact */
  CF_RES_MASK,      /* uint4, only bits below the subgroup's size compared */
} cf_res;

typedef struct cf_op {
  const char *name;        /* short name: "reduce_add" (unique per family) */
  cf_family fam;
  const char *spell;       /* OpenCL C function */
  cf_sem sem;
  cf_arith arith;
  cf_sig sig;
  cf_res res;
  uint32_t scalars;        /* CF_TS mask of element types allowed */
  uint32_t vectors;        /* bit n set: vectors of n components allowed (n in 2,3,4,8,16) */
  bool nonuniform;         /* may be reached by only some lanes */
  bool pow2_variant;       /* variants are cluster sizes (<= S) */
  const int *variants;     /* constant operand values, 0-terminated list not used: */
  uint32_t n_variants;     /* 0 = one kernel without a variant */
} cf_op;

/* Block I/O signatures: the value is `variant` components of the type. */
static inline bool cf_sig_is_block(cf_sig s)
{
  return s == CF_SIG_BLOCK_READ || s == CF_SIG_BLOCK_WRITE || s == CF_SIG_IMG_BLOCK_READ ||
         s == CF_SIG_IMG_BLOCK_WRITE;
}
static inline bool cf_sig_is_image(cf_sig s)
{
  return s == CF_SIG_IMG_BLOCK_READ || s == CF_SIG_IMG_BLOCK_WRITE;
}

extern const cf_op cf_ops[];
extern const uint32_t cf_n_ops;

/* --------------------------------------------------------- control flow */

typedef enum cf_flow {
  CF_FLOW_UNIFORM,   /* every work-item calls once: slot 0 */
  CF_FLOW_IFELSE,    /* sel&1 ? slot 0 : (sel&4 ? slot 1 : none) */
  CF_FLOW_NESTED,    /* sel&1: slot 0; inside, sel&2: slot 1 */
  CF_FLOW_LOOP,      /* iterations j < (sel&3): slot j (lane-dependent exit) */
  CF_N_FLOWS
} cf_flow;
extern const char *const cf_flow_names[CF_N_FLOWS];

/* --------------------------------------------------------- launch shapes */

typedef enum cf_shape_id {
  CF_SHAPE_1D_FULL, CF_SHAPE_1D_PARTIAL, CF_SHAPE_2D, CF_SHAPE_3D, CF_SHAPE_NONUNIFORM,
  CF_N_SHAPES
} cf_shape_id;
extern const char *const cf_shape_names[CF_N_SHAPES];

typedef struct cf_geom {
  uint32_t dim;
  size_t global[3], local[3];
  uint32_t S;
} cf_geom;
void cf_shape_geom(cf_shape_id sh, uint32_t S, cf_geom *out);

/* The documented lane layout of one work-item. */
typedef struct cf_item {
  uint32_t wg;            /* linear work-group id */
  uint32_t sg;            /* subgroup id within the work-group */
  uint32_t lane;          /* subgroup local id */
  uint32_t sg_size;       /* lanes in its subgroup (partial <= S) */
  uint32_t n_sg;          /* subgroups in its work-group */
  uint32_t n_sg_enq;      /* subgroups in an enqueued (full) work-group */
  uint32_t sg_key;        /* dense id of its subgroup across the launch */
  uint32_t first_lin;     /* linear global id of lane 0 of its subgroup */
} cf_item;

/* Lays out every work-item (indexed by linear global id x + y*Gx + z*Gx*Gy);
 * also fills sg_members[sg_key*S + lane] = linear id (UINT32_MAX if absent).
 * Returns the number of work-items; *out_n_sg the number of subgroups. */
uint32_t cf_layout(const cf_geom *g, cf_item *items, uint32_t *sg_members,
                   uint32_t *out_n_sg);
uint32_t cf_geom_items(const cf_geom *g);

/* Family intel_image_block: one full subgroup per launch (block I/O in a
 * partial subgroup is undefined, and subgroups writing the same pixels would
 * race), and the image and coordinate of each scenario (the case's p). */
#define CF_IMG_N_SCENARIOS 6u
typedef struct cf_img_scn {
  uint32_t width, height;     /* in pixels; every format used has 4-byte pixels */
  uint32_t row_pitch;         /* bytes, a multiple of 4 */
  uint32_t order, ctype;      /* CL_RGBA/CL_UNORM_INT8 or CL_R/CL_UNSIGNED_INT32 */
  int32_t cx, cy;             /* byte coordinate */
  bool read_only;             /* unaligned x: not valid for writes */
} cf_img_scn;
void cf_image_geom(uint32_t S, cf_geom *out);
void cf_image_scenario(uint32_t p, uint32_t S, cf_img_scn *out);

/* ---------------------------------------------------------------- a case */

typedef struct cf_case {
  const cf_op *op;
  cf_type type;
  cf_flow flow;
  int variant;            /* constant operand, 0 if none */
  uint32_t S;
  cf_shape_id shape;
  uint32_t p;             /* uniform parameter */
  int olevel;             /* 0 or 2 */
  int backend;            /* 0 interp, 1 jit */
} cf_case;

/* "reduce_add.int.uniform.s16.2d.p1.O2.interp" (for --case and rerun lines) */
void cf_case_name(const cf_case *c, char *buf, size_t size);
/* The kernel name shared by every case with the same op/type/flow/variant. */
void cf_kernel_name(const cf_case *c, char *buf, size_t size);

/* Inputs of one launch (generated by cf_gen_inputs). */
typedef struct cf_inputs {
  uint32_t n;              /* work-items */
  uint32_t esize;          /* bytes of x's element (cf_type_size) */
  uint8_t *x, *y;          /* n * esize each */
  int32_t *sel;            /* control-flow selectors */
  uint32_t *aux;           /* lane-varying operand */
  uint32_t p;
  uint32_t q[4];
  uint32_t *block;         /* block I/O source: n_block elements (8 bytes each allocated) */
  uint32_t n_block;
} cf_inputs;

/* Expected results: per work-item and slot, a value (rsize bytes) and a
 * state. */
enum { CF_EXP_NONE = 0,   /* the work-item does not write this slot */
       CF_EXP_VALUE,      /* must equal value */
       CF_EXP_ANY };      /* written, but undefined by the specification */

typedef struct cf_expect {
  uint32_t rsize;          /* bytes per result */
  uint8_t *state;          /* n * CF_NSLOT */
  uint8_t *value;          /* n * CF_NSLOT * rsize */
  bool ub_allowed;         /* some lane's result is undefined (UB may be reported) */
  /* block write: expected contents of the block buffer (n_block uints) */
  uint8_t *block_state;
  uint32_t *block_value;
} cf_expect;

uint32_t cf_result_size(const cf_case *c);

/* cf_gen.c */
char *cf_gen_family_source(cf_family fam, bool reduced, uint32_t *out_n_kernels);
/* The families whose kernels are SPIR-V assembly (built-ins clang-15 lacks). */
bool cf_family_is_spvasm(cf_family fam);
char *cf_gen_family_spvasm(cf_family fam, bool reduced, uint32_t *out_n_kernels);
bool cf_case_valid(const cf_case *c);
void cf_gen_inputs(const cf_case *c, const cf_geom *g, const cf_item *items, cf_inputs *in);
void cf_inputs_free(cf_inputs *in);
/* Every (op, type, flow, variant) kernel of a family, in a fixed order. */
typedef void (*cf_kernel_fn)(void *user, const cf_op *op, cf_type t, cf_flow f, int variant);
void cf_for_each_kernel(cf_family fam, bool reduced, cf_kernel_fn fn, void *user);

/* cf_verify.c: the independent verifiers */
void cf_verify_expect(const cf_case *c, const cf_geom *g, const cf_item *items,
                      const uint32_t *sg_members, const cf_inputs *in, cf_expect *out);
void cf_expect_free(cf_expect *e);
/* True if `actual` satisfies the expectation for the result mode. */
bool cf_result_match(const cf_case *c, const cf_item *it, const void *expect,
                     const void *actual);
/* Formats a result / input value of case c ("0x1f", "2.5", "(1,2,3)"). */
void cf_format_value(const cf_case *c, bool result, const void *v, char *buf, size_t size);

/* Debug switch for the self-test: a deliberately wrong expectation. */
extern const char *cf_plant_wrong;   /* op name whose expectation is corrupted, or NULL */

#endif
