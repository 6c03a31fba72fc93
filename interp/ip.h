/* ip.h - the reference interpreter: the ground truth and what the debugger drives.
 *
 * A launch runs an NDRange work-group by work-group; each work-group is split
 * into subgroups of S lanes by linear local id (x + y*Lx + z*Lx*Ly), the last
 * one possibly partial.  All lanes of a subgroup execute each instruction
 * together under an active-lane mask; divergent lanes reconverge at
 * ld_block.reconverge (docs/semantics.md).  Work-group barriers suspend a
 * subgroup until every subgroup of its work-group arrives.
 *
 * This header also holds the semantics shared with jit/ (address encoding,
 * subgroup reference operations, the OpenCL.std evaluator), so the two
 * backends cannot drift.
 *
 * Ownership: ip_launch_create() copies the descriptor (not the argument
 * buffers: the kernel reads and writes the caller's memory in place);
 * ip_launch_free(NULL) is a no-op.
 */
#ifndef IP_H
#define IP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ld.h"

#define IP_MAX_LANES 128u          /* largest subgroup size */
/* Instructions one subgroup may execute (the JIT counts branches): about
 * 10 s of a runaway subgroup on the interpreter; --step-limit raises it. */
#define IP_DEFAULT_STEP_LIMIT ((uint64_t)1 << 27)
/* __local memory of one work-group (arguments + variables), allocated and
 * cleared per work-group: more is an error before the launch (a failed
 * allocation mid-run would look like out-of-bounds faults). */
#define IP_MAX_LOCAL_BYTES ((uint64_t)1 << 30)
/* Private memory (Function-storage variables of the kernel and its callees,
 * by-value aggregates): per work-item, and for the work-items resident at
 * once (a work-group's subgroups, times the threads running work-groups).
 * Both are checked before the launch, for the same reason; more threads
 * than fit are not an error, the launch runs fewer work-groups at once. */
#define IP_MAX_PRIVATE_BYTES ((uint64_t)1 << 30)
#define IP_MAX_PRIVATE_TOTAL ((uint64_t)4 << 30)
/* Registers of one function per work-item (its SSA values: scalars and
 * vectors, a loaded struct or array at most): the register offsets are
 * 32-bit, and a value of a huge type (a whole 512 MiB array loaded) would
 * make a frame of gigabytes per subgroup.  Checked before the launch with
 * the kernel's frame for the S lanes of a subgroup, which counts against
 * the private-memory limit of the work-items run at once. */
#define IP_MAX_REGS_BYTES ((uint64_t)256 << 20)
#define IP_DEFAULT_SUBGROUP_SIZE 16u
#define IP_MAX_DIAGS 1000u         /* records kept per launch; the rest counted */

/* ---------------------------------------------------------------- lane masks */

typedef struct ip_mask { uint64_t w[2]; } ip_mask;

static inline bool ip_mask_test(ip_mask m, uint32_t l) { return (m.w[l >> 6] >> (l & 63)) & 1u; }
static inline void ip_mask_set(ip_mask *m, uint32_t l) { m->w[l >> 6] |= (uint64_t)1 << (l & 63); }
static inline void ip_mask_clear(ip_mask *m, uint32_t l) { m->w[l >> 6] &= ~((uint64_t)1 << (l & 63)); }
static inline bool ip_mask_empty(ip_mask m) { return (m.w[0] | m.w[1]) == 0; }
static inline bool ip_mask_eq(ip_mask a, ip_mask b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }
static inline ip_mask ip_mask_and(ip_mask a, ip_mask b) { ip_mask r = {{a.w[0] & b.w[0], a.w[1] & b.w[1]}}; return r; }
static inline ip_mask ip_mask_or(ip_mask a, ip_mask b) { ip_mask r = {{a.w[0] | b.w[0], a.w[1] | b.w[1]}}; return r; }
static inline ip_mask ip_mask_andnot(ip_mask a, ip_mask b) { ip_mask r = {{a.w[0] & ~b.w[0], a.w[1] & ~b.w[1]}}; return r; }
static inline uint32_t ip_mask_count(ip_mask m) { return (uint32_t)(__builtin_popcountll(m.w[0]) + __builtin_popcountll(m.w[1])); }
/* Lowest set lane, or IP_MAX_LANES when empty. */
static inline uint32_t ip_mask_first(ip_mask m) {
  return m.w[0] ? (uint32_t)__builtin_ctzll(m.w[0]) : m.w[1] ? 64u + (uint32_t)__builtin_ctzll(m.w[1]) : IP_MAX_LANES;
}
static inline ip_mask ip_mask_first_n(uint32_t n) {
  ip_mask r = {{0, 0}};
  r.w[0] = n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
  r.w[1] = n >= 128 ? ~(uint64_t)0 : n > 64 ? (((uint64_t)1 << (n - 64)) - 1) : 0;
  return r;
}
/* for (l = first; l < IP_MAX_LANES; l = next) over set lanes */
static inline uint32_t ip_mask_next(ip_mask m, uint32_t l) {
  ++l;
  if (l < 64) { uint64_t w = m.w[0] >> l << l; if (w) return (uint32_t)__builtin_ctzll(w); l = 64; }
  if (l < 128) { uint64_t w = m.w[1] >> (l - 64) << (l - 64); if (w) return 64u + (uint32_t)__builtin_ctzll(w); }
  return IP_MAX_LANES;
}
#define IP_FOR_LANES(mask, l) \
  for (uint32_t l = ip_mask_first(mask); l < IP_MAX_LANES; l = ip_mask_next((mask), l))

/* --------------------------------------------------------------- addresses
 * The encoding is the IR's (ld.h, "addresses"). */
typedef ld_addr_layout ip_addr_layout;
static inline uint32_t ip_addr_region(const ip_addr_layout *a, uint64_t p) { return (uint32_t)(p >> a->shift); }
static inline uint64_t ip_addr_offset(const ip_addr_layout *a, uint64_t p) { return p & a->offset_mask; }
static inline uint64_t ip_addr_make(const ip_addr_layout *a, uint32_t region, uint64_t off) {
  return ((uint64_t)region << a->shift) | (off & a->offset_mask);
}

/* --------------------------------------------------------------- launches */

typedef enum ip_arg_kind {
  IP_ARG_BUFFER,     /* data/size: the caller's memory, read and written in place */
  IP_ARG_NULL,       /* a null pointer argument */
  IP_ARG_LOCAL,      /* size: bytes of local memory */
  IP_ARG_VALUE,      /* data/size: the bytes of a by-value argument */
  IP_ARG_IMAGE,      /* data/size: pixel storage; image: its description */
  IP_ARG_SAMPLER,    /* sampler: CLK_* bits as in OpenCL C sampler_t initializers */
} ip_arg_kind;

typedef struct ip_image_desc {
  uint32_t image_type;      /* CL_MEM_OBJECT_IMAGE2D, ... (CL/cl.h values) */
  uint32_t channel_order;   /* CL_R, CL_RGBA, ... */
  uint32_t channel_type;    /* CL_UNSIGNED_INT8, CL_FLOAT, ... */
  size_t width, height, depth, array_size;
  size_t row_pitch, slice_pitch;   /* bytes; 0 = tightly packed */
} ip_image_desc;

typedef enum ip_access_flag {
  IP_ACCESS_READ_WRITE = 0, IP_ACCESS_READ_ONLY, IP_ACCESS_WRITE_ONLY
} ip_access_flag;

typedef struct ip_arg {
  ip_arg_kind kind;
  void *data;
  size_t size;
  ip_image_desc image;
  uint32_t sampler;
  bool noinit;       /* BUFFER: uninitialized for the detectors until written */
  ip_access_flag access;    /* BUFFER: the host's read-only / write-only flag */
} ip_arg;

typedef enum ip_ub_mode { IP_UB_WARN = 0, IP_UB_ERROR, IP_UB_IGNORE } ip_ub_mode;

typedef enum ip_diag_kind {
  /* faults: the access or operation is suppressed (reads yield zero),
   * except a misaligned access in bounds, which is reported and performed */
  IP_FAULT_OUT_OF_BOUNDS = 1,
  IP_FAULT_MISALIGNED,
  IP_FAULT_NULL_POINTER,
  IP_FAULT_WRITE_READONLY,
  IP_FAULT_DIVISION_BY_ZERO,
  IP_FAULT_UNREACHABLE,
  IP_FAULT_STEP_LIMIT,
  IP_FAULT_TIME_LIMIT,
  IP_FAULT_BARRIER_DIVERGENCE,   /* work-group barrier not reached by every work-item */
  IP_FAULT_STACK_OVERFLOW,
  IP_FAULT_UNSUPPORTED,          /* an instruction this backend cannot execute */
  IP_FAULT_BAD_ARGUMENT,         /* e.g. an image op on a non-image */
  IP_FAULT_READ_WRITEONLY,       /* read from a buffer the host made write-only */
  IP_FAULT_EVENT,                /* async copy event: invalid, or never waited for */
  /* detector reports (ip_launch_desc.checks; counted as faults, nothing is
   * suppressed): each names the accesses involved in ip_diag.access */
  IP_CHECK_FIRST = 32,
  IP_CHECK_DATA_RACE = IP_CHECK_FIRST,  /* unordered conflicting accesses of two work-items */
  IP_CHECK_LOCKSTEP,            /* lanes of one subgroup communicating through memory unsynchronized */
  IP_CHECK_UNINITIALIZED,       /* an uninitialized value decides a branch, forms an address, is stored to global memory */
  /* undefined behaviour in subgroup code (issue: diagnosed, not hidden) */
  IP_UB_FIRST = 64,
  IP_UB_INDEX_OUT_OF_RANGE = IP_UB_FIRST,  /* shuffle/broadcast index >= size */
  IP_UB_INACTIVE_LANE,          /* reads a lane that did not reach the operation */
  IP_UB_NONUNIFORM,             /* an operand that must be uniform differs between lanes */
  IP_UB_PARTIAL_COLLECTIVE,     /* collective reached by only some lanes */
  IP_UB_BLOCK_PARTIAL_SUBGROUP, /* block I/O in a partial subgroup */
  IP_UB_BLOCK_ALIGNMENT,        /* block pointer not 4 (read) / 16 (write) aligned */
  IP_UB_IMAGE_BLOCK_X,          /* image block write x not a multiple of 4 */
  IP_UB_CLUSTER_SIZE,           /* cluster size not a power of two / too large */
  IP_UB_OTHER,
} ip_diag_kind;

static inline bool ip_diag_is_ub(ip_diag_kind k) { return k >= IP_UB_FIRST; }
static inline bool ip_diag_is_check(ip_diag_kind k) { return k >= IP_CHECK_FIRST && k < IP_UB_FIRST; }
const char *ip_diag_kind_name(ip_diag_kind k);   /* "out-of-bounds access" */

/* One access named by a detector report: the report's own (access[0]) and,
 * for races, the earlier conflicting one (access[1]). */
typedef struct ip_diag_access {
  const char *what;         /* static: "read", "write", "atomic", "async copy", "branch" ... */
  uint32_t group[3];        /* work-group id */
  uint32_t subgroup, lane;
  uint32_t local_id[3];     /* the work-item's local id */
  const ld_insn *insn;      /* may be NULL */
} ip_diag_access;

typedef struct ip_diag {
  ip_diag_kind kind;
  const char *kernel;
  uint32_t group[3];        /* work-group id */
  uint32_t subgroup;        /* subgroup id within the work-group */
  ip_mask lanes;            /* lanes involved */
  const ld_insn *insn;      /* may be NULL (limits) */
  uint64_t address;         /* for memory faults */
  char message[512];        /* one line: what happened, without the position */
  uint32_t n_access;        /* detector reports: entries of access used */
  ip_diag_access access[2];
} ip_diag;

/* Text sink for printf; called with whole lines or chunks, in order. */
typedef void (*ip_write_fn)(void *user, const char *text, size_t len);
/* Called once per new diagnostic as it happens (optional). */
typedef void (*ip_diag_fn)(void *user, const ip_diag *d);

typedef struct ip_launch_desc {
  const char *kernel;
  uint32_t work_dim;             /* 1..3 */
  size_t global_size[3];
  size_t local_size[3];          /* 0 in any used dim: chosen (docs/semantics.md) */
  size_t global_offset[3];
  uint32_t subgroup_size;        /* 0: the module's required size, else the default */
  const ip_arg *args;
  uint32_t n_args;
  uint32_t threads;              /* work-groups in parallel; 0 or 1 = one thread */
  ip_ub_mode ub;
  bool stop_on_fault;            /* stop the launch at the first fault */
  uint64_t step_limit;           /* per subgroup, instructions; 0 = default (2^32) */
  double time_limit;             /* seconds for the whole launch; 0 = none */
  ip_write_fn out;               /* printf; NULL = stdout */
  void *out_user;
  ip_diag_fn on_diag;
  void *diag_user;
  uint32_t break_op;             /* test-only: an SpvOp whose result is
                                    deliberately corrupted (conformance self-test); 0 = off */
  uint32_t checks;               /* IP_DETECT_* bits (detectors, docs/semantics.md
                                    "Detectors"); work-groups then run on one thread */
  uint64_t max_private_total;    /* private memory of the work-items run at once;
                                    0 = IP_MAX_PRIVATE_TOTAL */
} ip_launch_desc;

/* Detectors: plugins on the interpreter's events (interp/ip_check.h). */
enum {
  IP_DETECT_RACES = 1u,          /* --data-races */
  IP_DETECT_LOCKSTEP = 2u,       /* --lockstep */
  IP_DETECT_UNINIT = 4u,         /* --uninitialized */
};

typedef struct ip_report {
  uint32_t n_diags;              /* recorded (at most IP_MAX_DIAGS) */
  const ip_diag *diags;
  uint64_t n_faults, n_ub;       /* all that happened, recorded or not */
  uint64_t insns;                /* subgroup-instructions executed */
  uint64_t lane_insns;           /* lane-instructions (sum of active lanes) */
  bool stopped;                  /* stopped early (stop_on_fault, limit, ub=error) */
  uint32_t subgroup_size;        /* S actually used */
  size_t local_size[3];          /* local size actually used */
} ip_report;

typedef enum ip_result {
  IP_OK = 0,
  IP_ERR_ARGS = -1,         /* bad launch description: message says which */
  IP_ERR_KERNEL = -2,       /* no such kernel */
  IP_ERR_UNSUPPORTED = -3,  /* kernel uses what we cannot run */
  IP_ERR_NOMEM = -4,
  IP_FAULTED = 1,           /* ran; faults or UB (with ub=error) were reported */
} ip_result;

typedef struct ip_launch ip_launch;

/* Checks the description against the kernel (argument count, kinds and sizes,
 * NDRange, subgroup size vs. the module's required size).  On failure *out is
 * NULL and err holds one line. */
ip_result ip_launch_create(const ld_module *m, const ip_launch_desc *desc,
                           ip_launch **out, char *err, size_t err_size);
/* Runs every work-group (= ip_launch_reset + ip_launch_run_range over all). */
ip_result ip_launch_run(ip_launch *l);

/* Split runs (--backend auto): one run of a launch may be cut into
 * work-group ranges executed by different backends.  ip_launch_reset()
 * begins a run: clears the report, diagnostics and printf ordering and
 * re-initializes program-scope variables.  Ranges are then run in increasing
 * linear work-group order, without overlap, one range call at a time (each
 * call may use desc.threads threads).  Everything accumulates into the one
 * report; diagnostics are ordered by (work-group, sequence) and printf text
 * is emitted in linear work-group order whichever backend ran a group.
 * Both return IP_FAULTED when the run so far has faults (or UB under
 * ub=error), IP_OK otherwise; a stopped run skips further ranges. */
void ip_launch_reset(ip_launch *l);
ip_result ip_launch_run_range(ip_launch *l, uint64_t first, uint64_t count);
/* Another backend's range runner: called on chunks [first, first+count) of
 * at most `chunk` work-groups, from up to desc.threads threads at once (so
 * it must be reentrant for disjoint chunks).  It records diagnostics and
 * printf through work-groups made by ip_wg_begin, which during a ranged run
 * buffer their printf text for ordering.  A negative result stops the run
 * and is returned. */
typedef ip_result (*ip_range_fn)(void *user, ip_launch *l, uint64_t first, uint64_t count);
ip_result ip_launch_run_range_with(ip_launch *l, uint64_t first, uint64_t count, uint64_t chunk,
                                   ip_range_fn fn, void *user);
/* Total number of work-groups of the launch. */
uint64_t ip_launch_group_count(const ip_launch *l);
/* Threads running the current ip_launch_run_range_with range: 1 when its
 * chunks run one after another on one thread (no other thread of the launch
 * touches memory meanwhile), 0 outside a range. */
uint32_t ip_launch_range_threads(const ip_launch *l);
/* A number no other launch (or reset of this one) of the process has: what
 * another backend caches per launch is keyed on it. */
uint64_t ip_launch_serial(const ip_launch *l);
const ip_report *ip_launch_report(const ip_launch *l);
void ip_launch_free(ip_launch *l);

/* Writes "fault: out-of-bounds access: ... kernel k, work-group (0,0,0),
 * subgroup 1, lanes 0-3,7, OpStore at foo.cl:12" into buf. */
void ip_diag_format(const ld_module *m, const ip_diag *d, char *buf, size_t size);

/* Work-group geometry, shared by both backends. */
typedef struct ip_ndrange {
  uint32_t dim;
  size_t global[3], local[3], offset[3];
  size_t groups[3];              /* number of work-groups per dim (ceil) */
  uint32_t sg_size;              /* S */
} ip_ndrange;
const ip_ndrange *ip_launch_ndrange(const ip_launch *l);
/* Work-groups the launch may run at once: its threads, fewer when their
 * private memory would pass IP_MAX_PRIVATE_TOTAL. */
uint32_t ip_launch_max_threads(const ip_launch *l);
/* Its step limit per subgroup (the default filled in). */
uint64_t ip_launch_step_limit(const ip_launch *l);

/* ------------------------------------------------- stepping (the debugger) */

typedef struct ip_wg ip_wg;
typedef struct ip_sg ip_sg;

typedef enum ip_step {
  IP_STEP_OK = 0,       /* executed one instruction */
  IP_STEP_BLOCKED,      /* waiting at a work-group barrier / rendezvous */
  IP_STEP_DONE,         /* the subgroup (or work-group) has finished */
  IP_STEP_FAULT,        /* executed, and a fault or UB diagnostic was raised */
  IP_STEP_STOPPED,      /* the launch was stopped */
} ip_step;

/* Sets up one work-group for stepping (group id in work-groups).  NULL with
 * err on a bad id. */
ip_wg *ip_wg_begin(ip_launch *l, const uint32_t group[3], char *err, size_t err_size);
void ip_wg_end(ip_wg *wg);
uint32_t ip_wg_subgroup_count(const ip_wg *wg);
ip_sg *ip_wg_subgroup(ip_wg *wg, uint32_t i);
/* One instruction of the next runnable subgroup (round robin); DONE when all finished. */
ip_step ip_wg_step(ip_wg *wg);
/* Runs the work-group to completion. */
ip_step ip_wg_run(ip_wg *wg);

/* One instruction for the subgroup's active lanes. */
ip_step ip_sg_step(ip_sg *sg);
uint32_t ip_sg_id(const ip_sg *sg);
uint32_t ip_sg_lane_count(const ip_sg *sg);   /* lanes that exist (partial <= S) */
ip_mask ip_sg_active(const ip_sg *sg);        /* lanes executing the current instruction */
bool ip_sg_done(const ip_sg *sg);
/* The instruction about to execute (NULL when done). */
const ld_insn *ip_sg_current(const ip_sg *sg);
/* Call stack: depth 0 is the innermost frame. */
uint32_t ip_sg_depth(const ip_sg *sg);
const ld_function *ip_sg_frame_function(const ip_sg *sg, uint32_t depth);
const ld_insn *ip_sg_frame_insn(const ip_sg *sg, uint32_t depth);
/* Reads lane's value of id in frame `depth` (constants and module variables
 * too).  Returns the value's size, 0 when the id has no value there (not yet
 * defined, or not an SSA value).  out must hold 128 bytes (16 x double). */
uint32_t ip_sg_read(const ip_sg *sg, uint32_t depth, uint32_t lane, uint32_t id,
                    void *out);
/* Global linear local id of a lane, and its work-item ids. */
uint32_t ip_sg_lane_local_linear(const ip_sg *sg, uint32_t lane);
/* Reads memory as the lane would (addresses as above); false if unmapped. */
bool ip_sg_read_memory(const ip_sg *sg, uint32_t lane, uint64_t addr, void *out, size_t n);

/* ----------------------------------------- shared semantics: subgroup ops
 *
 * Reference implementations over lane arrays, used by the interpreter's
 * handlers and callable from JIT code.  Lane l's value of a T-typed operand is
 * at base + l * T->size.  Only lanes in `active` are read or written.
 */
typedef enum ip_group_arith {
  IP_GA_IADD, IP_GA_FADD, IP_GA_IMUL, IP_GA_FMUL,
  IP_GA_SMIN, IP_GA_UMIN, IP_GA_FMIN, IP_GA_SMAX, IP_GA_UMAX, IP_GA_FMAX,
  IP_GA_AND, IP_GA_OR, IP_GA_XOR, IP_GA_LAND, IP_GA_LOR, IP_GA_LXOR,
} ip_group_arith;

/* gop: SpvGroupOperationReduce / InclusiveScan / ExclusiveScan /
 * ClusteredReduce (cluster = cluster size).  Lanes combine in increasing lane
 * order; exclusive scans start from the operation's identity. */
void ip_group_arith_eval(ip_group_arith op, SpvGroupOperation gop, uint32_t cluster,
                         const ld_type *type, ip_mask active,
                         const void *in, void *out);
/* The same over n values (lane i at in + i * in_stride, result at
 * out + i * type->size); active[i] != 0 marks participants (NULL: all).  Used
 * for work-group scope collectives (index = linear local id). */
void ip_group_arith_eval_n(ip_group_arith op, SpvGroupOperation gop, uint32_t cluster,
                           const ld_type *type, uint32_t n, const uint8_t *active,
                           const void *in, size_t in_stride, void *out);
/* Identity element of op for type (bytes, type->size). */
void ip_group_arith_identity(ip_group_arith op, const ld_type *type, void *out);
/* The operation of a Group/GroupNonUniform arithmetic opcode (OpGroupIAdd,
 * OpGroupNonUniformFMax, OpGroupBitwiseAndKHR ...); false for other opcodes. */
bool ip_group_arith_of(SpvOp op, ip_group_arith *out);

/* Lane-permutation rules shared by both backends.  Each returns the source
 * lane for `lane`, or IP_SRC_OUT_OF_RANGE when the rule selects no lane of the
 * group (the caller diagnoses IP_UB_INDEX_OUT_OF_RANGE; documented value 0).
 * size is S, the maximum subgroup size. */
#define IP_SRC_OUT_OF_RANGE UINT32_MAX
/* SPV_KHR_subgroup_rotate: cluster 0 = no ClusterSize operand. */
uint32_t ip_sg_rotate_src(uint32_t lane, uint64_t delta, uint32_t cluster, uint32_t size);
/* cl_intel_subgroups shuffle_down(current, next, delta): *out_next is set when
 * the value comes from `next`. */
uint32_t ip_intel_shuffle_down_src(uint32_t lane, uint64_t delta, uint32_t size, bool *out_next);
/* cl_intel_subgroups shuffle_up(previous, current, delta): *out_prev is set
 * when the value comes from `previous`. */
uint32_t ip_intel_shuffle_up_src(uint32_t lane, uint64_t delta, uint32_t size, bool *out_prev);
/* OpGroupNonUniformBallotBitCount for one lane (bits >= size ignored). */
uint32_t ip_ballot_bit_count(SpvGroupOperation gop, const uint32_t ballot[4], uint32_t lane,
                             uint32_t size);
/* OpGroupNonUniformAllEqual's comparison: floats compare as OpFOrdEqual
 * (NaN never equal, -0 == +0), everything else bitwise. */
bool ip_group_values_equal(const ld_type *type, const void *a, const void *b);

/* ----------------------------------- shared semantics: OpenCL.std per lane
 *
 * Evaluates one OpenCL.std instruction that touches no memory for one lane:
 * args[i] points at the i-th operand's value (type arg_types[i]); result is
 * written to out (insn->type).  Returns false if ext_op is not one of these
 * (memory ones, the vload, vstore, printf and prefetch families, are handled by the backend). */
bool ip_ocl_eval_lane(const ld_insn *insn, const void *const *args,
                      const ld_type *const *arg_types, void *out);

#endif
