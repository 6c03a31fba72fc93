/* jit_internal.h - what the compiler (jit.c, jit_plan.c, jit_emit*.c) and
 * jit_run.c (the host side of a launch) share.  Not public.  See jit.c for
 * the design. */
#ifndef JIT_INTERNAL_H
#define JIT_INTERNAL_H

#include <pthread.h>
#include "jit.h"
#include "ip_internal.h"

#define JIT_MAX_STACK 256u     /* SIMT stack entries per subgroup */
#define JIT_MAX_INST 256u      /* inlined function instances per kernel */
#define JIT_MAX_MLOOP 32u      /* masked loops per kernel (plan_mloops) */

/* Return codes of the compiled function. */
enum { JIT_RET_DONE = 0, JIT_RET_SUSPEND = 1, JIT_RET_HOST = 2 /* done; a host helper ran (J.hc) */ };

/* A segment: a straight run of one block of one inlined instance, cut at
 * calls and work-group barriers.  Every segment is a label in the compiled
 * code and a case of its dispatch switch. */
typedef struct jit_seg {
  uint32_t inst;
  const ld_block *blk;
  uint32_t first;            /* first insn index in blk */
  int32_t n_succ;            /* terminator segment: successors, else -1 */
  int32_t succ[64];          /* segment ids of the successors (terminator order) */
  int32_t rpc;               /* reconvergence segment, -1 = instance exit */
  bool after_wgc;            /* starts after a work-group collective (rt_wgc_done) */
  /* If-conversion in convergent kernels (plan_convergent): IFC_HEAD ends
   * with a varying two-way branch around one block, IFC_THEN (that block:
   * one segment, entered only from the head, branching to the head's
   * reconvergence point).  The then-block runs under the mask of the lanes
   * that take it, as the interpreter's SIMT stack would run it; ifc_then is
   * the head's successor index (0 or 1) of the then-block.  IFC_BRIDGE: the
   * head's other successor when that is an empty block on the way to the
   * reconvergence point (jit_plan.c, ifc_bridge), which the lanes that skip
   * the then-block may pass by.  IFC_ELSE: the head's other successor when
   * that is a block like the then-block: it runs after the then-block,
   * under the head's other lanes.  IFC_MGUARD: a varying branch between
   * a masked loop's entry and its exit block (plan_mloops): the lanes
   * that take the entry run the loop. */
  uint8_t ifc, ifc_then;
  /* Masked loops (plan_convergent, plan_mloops): 1 + the index in
   * jit_kernel.mloops of the masked loop this segment belongs to, 0 if
   * none. */
  uint8_t mloop;
} jit_seg;
enum { IFC_NONE = 0, IFC_HEAD = 1, IFC_THEN = 2, IFC_BRIDGE = 3, IFC_ELSE = 4, IFC_MGUARD = 5 };
/* An if-converted block: it runs under the lanes that take it. */
static inline bool ifc_arm_kind(uint8_t f) { return f == IFC_THEN || f == IFC_ELSE; }

/* Masked regions (jit_seg.mloop, 1-based, the innermost): the outermost
 * one around region r, and whether region r holds segment s (itself or in
 * a region nested in r). */
struct jit_kernel;
static inline uint8_t ml_top(const struct jit_kernel *k, uint8_t r);
static inline bool ml_in(const struct jit_kernel *k, uint8_t r, int32_t s);

typedef struct jit_inst {
  const ld_function *fn;
  uint32_t parent;           /* caller instance (0 for the kernel itself) */
  int32_t cont;              /* caller's continuation segment, -1 for the kernel */
  int32_t *block_seg;        /* [fn->n_blocks] first segment of each block */
  int32_t *term_seg;         /* [fn->n_blocks] segment holding the terminator */
  uint64_t priv_off;         /* this instance's Function variables in private memory */
  uint64_t priv_end;         /* end of them (callees' variables follow) */
} jit_inst;

/* Host layout of the region table the compiled code indexes by region number. */
typedef struct jit_region {
  uint8_t *base;
  uint64_t size;             /* readable bytes */
  uint64_t wsize;            /* writable bytes (0 for read-only) */
} jit_region;

/* Aggregates (structs, arrays) are lane values of n units: the largest of 8,
 * 4, 2, 1 bytes dividing their alignment and size, at most 16 units; their
 * bytes are the memory layout, as in the interpreter's registers.  Returns
 * the unit, or 0 if t is not such an aggregate.  CompositeExtract/Insert/
 * Construct on them run the interpreter's handler. */
static inline uint32_t jit_blob_unit(const ld_type *t) {
  if (!t || (t->kind != LD_T_STRUCT && t->kind != LD_T_ARRAY) || !t->size) return 0;
  uint32_t u = t->align >= 8 ? 8 : t->align >= 4 ? 4 : t->align >= 2 ? 2 : 1;
  while (u > 1 && t->size % u) u /= 2;
  return t->size / u <= 16 ? u : 0;
}

typedef struct jit_ctx jit_ctx;
typedef struct jit_wgs jit_wgs;
/* Deferred atomics (plan_defer): at most JIT_MAX_DEFER kernel arguments, of
 * regions up to JIT_DEFER_MAX_BYTES. */
enum { JIT_MAX_DEFER = 4, JIT_DEFER_MAX_BYTES = 65536 };
typedef int32_t (*jit_rt_branch_fn)(jit_ctx *c, uint8_t *frame, int32_t seg);
typedef void *(*jit_rt_mem_fn)(jit_ctx *c, int32_t insn, int32_t lane, uint64_t addr,
                               int32_t size, int32_t align, int32_t access);
typedef void (*jit_rt_group_fn)(jit_ctx *c, uint8_t *frame, int32_t insn, const void *in, void *out);
typedef int64_t (*jit_rt_wg_fn)(jit_wgs *w, uint64_t group_index);
typedef void (*jit_rt_ldst_fn)(jit_ctx *c, uint8_t *frame, int32_t insn, int32_t slot_off, int32_t size,
                               int32_t packed);

/* One entry of the SIMT (IPDOM) stack: next segment, reconvergence segment,
 * active lanes.  The compiled code pushes, pops and splits entries itself;
 * the host helpers use the same stack. */
typedef struct jit_entry_s { int32_t pc, rpc; ip_mask mask; } jit_entry_s;

/* Launch- and work-group-wide values (built-ins, the subgroup contexts).
 * Layout mirrored in the compiled code (jit_emit.c: je_build): keep in sync. */
struct jit_wgs {
  uint64_t group[3], wsize[3], local[3], global[3], offset[3], groups[3];
  uint64_t dim, n_sg, enq_sg, lid_cap;
  uint32_t *lid;             /* [3][lid_cap]: local id components of linear index */
  jit_ctx **sgs;             /* [n_sg] subgroup contexts of this work-group */
  jit_rt_wg_fn rt_wg;        /* sets up work-group i; returns its subgroup count, < 0: stop */
  uint64_t priv_stride;      /* bytes of private memory per lane */
  uint64_t step_check;       /* first value of jit_ctx.steps that calls rt_limit */
  int32_t stop;              /* nonzero: the launch stops (fault, limit) */
  int32_t alone;             /* nonzero: one thread runs the whole range (global atomics need no lock) */
  int32_t wgc_used;          /* a wgc_insn of this work-group's contexts may be nonzero (else rt_wgc_done has nothing to do) */
  int32_t (*rt_release)(jit_wgs *w);  /* after a round with waiting subgroups: != 0 stop */
  jit_region *regions;       /* the region table (every jit_ctx.regions) */
  uint8_t *args;             /* the kernel arguments (every jit_ctx.args) */
  /* deferred atomics (jit_kernel.defer): per slot, the region whose
   * additions this run collects in defer_base (0: none, region 0 is never
   * accessed) */
  uint64_t defer_reg[JIT_MAX_DEFER];
  uint8_t *defer_base[JIT_MAX_DEFER];
  /* a consecutive store of whole 64-byte lines to a region of at least
   * this many writable bytes is a non-temporal one (J.nt_ok; ~0: none) */
  uint64_t nt_min;
  /* host only below */
  struct jit_run *run;
};

/* A subgroup's context.  Layout mirrored in the compiled code (jit_emit.c:
 * je_build) up to and including `stack`: keep in sync. */
struct jit_ctx {
  jit_region *regions;       /* indexed by region number, 1 << (addr_bits - shift) entries */
  jit_wgs *wg;
  uint8_t *args;             /* kernel parameter values, packed at jit_kernel.arg_off */
  jit_rt_branch_fn rt_branch;   /* divergent switch: splits the top entry, returns the next segment */
  jit_rt_mem_fn rt_mem;
  jit_rt_group_fn rt_group;
  jit_rt_branch_fn rt_interp;   /* (c, frame, insn index): one insn by the interpreter; != 0: stop */
  jit_rt_branch_fn rt_coll;     /* partial-subgroup collective check: 0 inline, 1 stop, 2 done */
  jit_rt_branch_fn rt_limit;    /* steps reached step_check: 0 go on (step_check moved), != 0 stop */
  jit_rt_branch_fn rt_overflow; /* SIMT stack full: records the fault, returns nonzero */
  jit_rt_ldst_fn rt_ldst;       /* per-lane checked loads/stores of a subgroup (slow path) */
  jit_rt_branch_fn rt_unreachable; /* OpUnreachable: records the fault; != 0: the launch stops */
  jit_rt_branch_fn rt_wgc;      /* work-group collective, arrival: 0 done, 1 suspend, 2 stop */
  jit_rt_branch_fn rt_wgc_done; /* after the rendezvous: the results (0 go on, != 0 stop) */
  jit_rt_branch_fn rt_diverged; /* convergent code saw a divergent branch (insn): a fault, the launch stops */
  void (*rt_pa_call)(void);    /* jit_pa_call where jit_pa_ok (called only from an asm statement) */
  /* the step check's fast path (through jit_pa_call, from an asm that
   * touches no memory): steps so far -> the next step_check, 0: stop (then
   * the compiled code calls rt_limit, which records why) */
  int64_t (*rt_limit_check)(jit_ctx *c, uint64_t steps);
  uint8_t *frame;
  uint8_t *priv;             /* this subgroup's private memory, priv_stride bytes per lane */
  uint64_t steps, step_check;
  uint64_t all[2];           /* lanes of this subgroup */
  uint32_t sg_id, n_lanes;
  int32_t sp;
  int32_t susp_insn;         /* insn index of the barrier or collective it last waited at */
  int32_t base[JIT_MAX_INST];   /* stack index of each inlined instance's entry */
  jit_entry_s stack[JIT_MAX_STACK];
  /* host only below */
  struct jit_run *run;
  int32_t wgc_insn;          /* the collective this subgroup waits at (insn index), 0: none */
};

typedef int32_t (*jit_groups_fn)(jit_wgs *w, uint64_t first, uint64_t count);

/* Frame prefix (host view); value slots follow (jit_kernel.slot_off). */
/* int32 mask[S]; int32 tgt[S]; int32 pred[S]; uint64 addr[S] (8-aligned scratch) */

struct jit_kernel {
  const ld_module *m;
  const ld_kernel *k;
  uint32_t S;
  /* plan */
  uint32_t n_inst;
  jit_inst *inst;
  uint32_t n_seg, cap_seg;
  jit_seg *seg;
  uint32_t n_insns, cap_insns;
  const ld_insn **insns;     /* insn index -> insn, for diagnostics */
  uint32_t *insn_inst;       /* insn index -> instance (rt_interp) */
  uint32_t *slot_off;        /* [n_inst * bound] frame offset of a value's field, UINT32_MAX none */
  uint64_t *privoff;         /* [n_inst * bound] Function variable offsets in private memory */
  uint32_t *arg_off;         /* [k->n_args] */
  uint32_t args_bytes;
  uint64_t priv_bytes;       /* per lane */
  uint32_t frame_size;
  uint32_t n_interp;         /* instructions handed to the interpreter (rt_interp) */
  bool conv;                 /* convergent: no varying branch (ld_uniform), no SIMT stack work */
  /* Masked loops of a convergent kernel (plan_mloops): a loop whose exits
   * vary runs under the word of its lanes still in it (J.cur_tw); h is the
   * header's segment, x the segment of the one block every exit goes to
   * (the exits' reconvergence point); xe the segment the loop's exits go
   * to: x, or the first block of a chain of plain blocks that runs once
   * every lane has left the loop, under the lanes that entered it. */
  uint32_t n_mloops;
  uint32_t n_wide;          /* wide lane arrays of the compiled code (je_build, J.fmap_part) */
  struct {
    int32_t h, x, xe;
    uint8_t parent;          /* 1 + the region this one lies in, 0 if none */
    bool gdiv;               /* entered by a guard where only some lanes run */
  } mloops[JIT_MAX_MLOOP];
  bool full_only;            /* compiled with jit_options.full_only: runs only launches
                              * whose subgroups are all whole (jit_launch_full) */
  bool linear_x;             /* with full_only: compiled with jit_options.linear_x
                              * (jit_launch_linear_x launches only) */
  bool lean_stack;           /* full_only and never suspends: each subgroup context's
                              * stack[0] = {entry, -1, all}, sp = 1 is set by rt_wg when
                              * the work-group's shape is set, and kept by the compiled
                              * code (a subgroup that finishes leaves it so), instead
                              * of written for every subgroup */
  bool no_steps;             /* convergent without loops, every path below the
                              * step limit: counts no branches (plan_acyclic) */
  uint32_t max_branches;     /* with no_steps: most branches a subgroup can take */
  /* image and sampler parameters of inlined functions: which kernel argument
   * each one is (handlers read it from the packed arguments) */
  uint32_t n_handles;
  struct { uint32_t inst, id, arg; } handles[64];
  /* Deferred atomics (plan_defer): kernel arguments whose every use is an
   * integer addition (OpAtomicIAdd, ISub, IIncrement, IDecrement of one
   * width) with an unused result.  Nothing reads such a buffer during the
   * launch, so where several threads run a launch each run (jit_kernel_run)
   * may add into a zeroed private copy and add that into the buffer at its
   * end: the same final bytes.  defer_of [n_inst * bound]: slot + 1 of a
   * pointer value derived from such an argument, 0 otherwise. */
  uint32_t n_defer;
  struct { uint32_t arg, width; } defer[JIT_MAX_DEFER];
  uint8_t *defer_of;
  /* Launch values (jit_kernel_run): the packed arguments, the launch-wide
   * regions and the local sizes, read from an interpreter work-group by a
   * launch's first run and copied by its other runs (one per chunk of
   * work-groups; ip_wg_begin costs about 20 us).  Keyed on
   * ip_launch_serial; lc_mu guards them. */
  pthread_mutex_t lc_mu;
  uint64_t lc_serial;
  uint8_t *lc_args;
  jit_region *lc_reg;        /* [lc_reg_hi] */
  uint32_t lc_reg_hi;
  uint32_t lc_n_local;
  uint64_t *lc_local_size;   /* [lc_n_local] */
  /* code */
  void *dl;
  jit_groups_fn groups;
  char *asm_text;
  char so_path[64];
};

static inline uint8_t ml_top(const struct jit_kernel *k, uint8_t r) {
  while (r && k->mloops[r - 1].parent) r = k->mloops[r - 1].parent;
  return r;
}
static inline bool ml_in(const struct jit_kernel *k, uint8_t r, int32_t s) {
  for (uint8_t q = k->seg[s].mloop; q; q = k->mloops[q - 1].parent)
    if (q == r) return true;
  return false;
}

int32_t jit_rt_branch(jit_ctx *c, uint8_t *frame, int32_t seg);
int32_t jit_rt_limit(jit_ctx *c, uint8_t *frame, int32_t seg);
int64_t jit_rt_limit_check(jit_ctx *c, uint64_t steps);
/* Whether the compiled code makes its cold calls through jit_pa_call
 * (x86-64 with XSAVE): a call that keeps every register but %rax, so that
 * the values live across such a call stay in registers (jit_run.c) */
bool jit_pa_ok(void);
int32_t jit_rt_overflow(jit_ctx *c, uint8_t *frame, int32_t seg);
int32_t jit_rt_unreachable(jit_ctx *c, uint8_t *frame, int32_t insn);
void jit_rt_ldst(jit_ctx *c, uint8_t *frame, int32_t insn, int32_t slot_off, int32_t size, int32_t packed);
void *jit_rt_mem(jit_ctx *c, int32_t insn, int32_t lane, uint64_t addr, int32_t size,
                 int32_t align, int32_t access);
void jit_rt_group(jit_ctx *c, uint8_t *frame, int32_t insn, const void *in, void *out);
int32_t jit_rt_interp(jit_ctx *c, uint8_t *frame, int32_t insn);
int32_t jit_rt_coll(jit_ctx *c, uint8_t *frame, int32_t insn);
int32_t jit_rt_wgc(jit_ctx *c, uint8_t *frame, int32_t insn);
int32_t jit_rt_wgc_done(jit_ctx *c, uint8_t *frame, int32_t insn);
int32_t jit_rt_diverged(jit_ctx *c, uint8_t *frame, int32_t insn);

/* How far ahead (bytes) a consecutive access of sg_kernel_full prefetches:
 * SPIRV_SG_JIT_PREFETCH=N (0: no prefetch), else JIT_PREFETCH_DEFAULT. */
enum { JIT_PREFETCH_DEFAULT = 2048 };
static inline uint32_t jit_prefetch_distance(void) {
  const char *e = getenv("SPIRV_SG_JIT_PREFETCH");
  if (!e || !*e) return JIT_PREFETCH_DEFAULT;
  long v = strtol(e, NULL, 10);
  return v <= 0 ? 0 : v > (1l << 20) ? (1u << 20) : (uint32_t)v;
}

#endif
