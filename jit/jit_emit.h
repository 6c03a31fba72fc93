/* jit_emit.h - the code generator's internals: the builder state (J), the
 * small helpers every emitter uses (types, constants, operators, lane loops,
 * blends, value slots, frame and context fields, the SIMT stack's entries)
 * and the emitters shared between jit_emit*.c.  Not public; see jit.c for
 * the design and the map of the files. */
#ifndef JIT_EMIT_H
#define JIT_EMIT_H

#include <libgccjit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spv.h"
#include "jit_plan.h"

enum { FK_KEEP = 1, FK_ZERO = 2 };   /* J.fkeep */
enum { SH_MAXC = 4 };                 /* J.sh_lv: components of an affine value */

/* The builder state of one kernel's compile (je_build). */
/* A lane loop: its test block and the block after it; an outermost loop
 * of a function with wide lane arrays (J.fmap_part) also its copy-in block
 * (cin, filled at loop_end) and where its entries of J.wt start. */
typedef struct jloop_ { gcc_jit_block *cond, *after, *cin; uint32_t wt0; } jloop_;
typedef struct J {
  jit_kernel *k;
  const ld_module *m;
  uint32_t S;
  gcc_jit_context *cx;
  gcc_jit_function *fn;
  gcc_jit_block *b;
  gcc_jit_rvalue *c, *f;        /* ctx*, frame* */
  /* ctx->regions and ctx->wg as the kernel function's parameters (the
   * same for every subgroup: sg_groups reads them once, so the loop over
   * subgroups does not reload them); NULL: read from the ctx */
  gcc_jit_rvalue *h_regions, *h_wg;
  gcc_jit_type *t_regp;          /* region* */
  gcc_jit_type *t_wgs;           /* struct wgs */
  /* the kernel arguments' components (handles excluded), each a parameter
   * of the kernel functions that sg_groups reads once */
  uint32_t n_argc;
  struct jit_argc { uint32_t id, c, off; gcc_jit_type *t; } *argc;   /* value id, component, offset in args */
  gcc_jit_param **fn_prm;        /* the kernel function's, while it is emitted */
  gcc_jit_lvalue *lane, *next;
  /* sg_kernel_full of a kernel that never suspends: 1 once a host helper
   * ran (host_mark), and every return of the function is then
   * JIT_RET_HOST, the only case in which sg_groups reads the stop flag
   * after a subgroup (a helper that records a fault sets it; other threads'
   * stops and the time limit are seen at the next work-group, by rt_wg).
   * NULL: the flag is read after every subgroup (SPIRV_SG_JIT_STOP_EACH). */
  gcc_jit_lvalue *hc;
  /* the kernel function's branches left before the step check (a signed
   * 64-bit local, so the count stays in a register instead of a load, add
   * and store of c->steps at every branch, a chain through memory of one
   * store-to-load forwarding per loop iteration); c->steps is written back
   * before rt_limit and at every return (steps_store).  NULL: no count
   * (k->no_steps), or SPIRV_SG_JIT_STEPS_MEM=1 (the count in c->steps) */
  gcc_jit_lvalue *left;
  /* with left, where the step check's fast path is an asm that touches no
   * memory (J.pa; SPIRV_SG_JIT_COLD_MEMORY=1: the memory-clobbering call to
   * rt_limit, as before): c->step_check in a local, which that check moves
   * and GCC may not read back from memory; steps_store writes both back */
  gcc_jit_lvalue *scheck;
  /* sg_kernel_full of a convergent kernel: lane 0's pred[] in a scalar
   * local, which every branch writes and the uniform phis read
   * (emit_phis_uniform).  pred[] is a lane array in memory: its lane 0
   * stored at every loop's back edge and read back at the loop's head put
   * a store-to-load forwarding and a compare on every iteration (gemm's
   * inner loop).  NULL elsewhere, or with SPIRV_SG_JIT_PRED_MEM=1 */
  gcc_jit_lvalue *pred0;
  /* cold host calls go through jit_pa_call (jit_pa_ok; host_call) */
  bool pa;
  /* the last promoted private array load emitted as a row with no slow
   * path (promo_access): its instruction, instance and function, and the
   * cell row it read (prow_arr[prow_i0]), so that an Intel shuffle by a
   * uniform index right after it reads the cell, not the 64-byte value the
   * load just stored (a store-to-load forwarding stall: gemm) */
  const ld_insn *prow_in;
  const ld_insn *cur_in;        /* the instruction emit_seg_ emits (cond_stride's use) */
  uint32_t prow_inst;
  gcc_jit_function *prow_fn;
  gcc_jit_lvalue *prow_arr, *prow_i0;
  gcc_jit_type *t_void, *t_bool, *t_i32, *t_u[4], *t_s[4], *t_f32, *t_f64, *t_u8p, *t_vp, *t_ptr;
  gcc_jit_struct *frame_st, *ctx_st, *reg_st;
  gcc_jit_field *f_mask, *f_tgt, *f_pred, *f_addr;
  gcc_jit_field *c_regions, *c_wg, *c_args, *c_branch, *c_mem, *c_group, *c_interp, *c_coll, *c_limit, *c_overflow, *c_ldst, *c_unreach, *c_wgc, *c_wgc_done, *c_diverged, *c_pa_call, *c_limit_check;
  gcc_jit_field *c_frame, *c_priv, *c_steps, *c_step_check, *c_all, *c_sg_id, *c_n_lanes, *c_sp, *c_susp, *c_base, *c_stack;
  gcc_jit_field *e_pc, *e_rpc, *e_m;
  gcc_jit_field *w_group, *w_wsize, *w_local, *w_global, *w_offset, *w_groups, *w_dim, *w_n_sg, *w_enq_sg,
                *w_lid_cap, *w_lid, *w_sgs, *w_rt_wg, *w_priv_stride, *w_step_check, *w_stop, *w_alone, *w_wgc_used, *w_rt_release, *w_defer_reg, *w_defer_base,
                *w_regions, *w_args, *w_nt_min;
  gcc_jit_function *fn_kernel, *fn_full;   /* sg_kernel, sg_kernel_full (NULL: none) */
  const char *mflags;
  /* GCC vectorizes the lane loops in 256-bit vectors (tune_256 and
   * SPIRV_SG_JIT_V256, je_build1): the permutes read and write their lane
   * arrays in halves to match */
  bool v256;
  gcc_jit_lvalue *fast_base, *contig, *fast_full, *fast_off0;
  gcc_jit_lvalue *fast_reg0;   /* mem_fast_'s region of the first active lane (NULL: not known) */
  gcc_jit_lvalue *fast_first;  /* mem_fast_'s first active lane (fast_off0 is its offset) */
  bool fast_priv;               /* the fast block's lanes each access their own private memory */
  int64_t fast_est;             /* mem_fast_'s ends test: the active lanes' address stride (0: none) */
  gcc_jit_function *libm[2][128];  /* emit_ocl_std's imported libm functions: [double][OpenCL.std op] */
  bool contig_only;             /* mem_fast_ reaches the fast block only with consecutive addresses */
  ld_uniformity *lanes;         /* lane strides (convergent kernels; NULL: none known) */
  jloop_ open_lp;               /* the open lane loop (fuse_open) */
  bool open;
  gcc_jit_block *slow;
  gcc_jit_block *settle;
  gcc_jit_type *t_ctxp, *t_wgsp, *t_framep;
  gcc_jit_field *r_base, *r_size, *r_wsize;
  gcc_jit_field **slot;         /* [n_inst * bound] */
  gcc_jit_field **phitmp;       /* [n_inst * bound] */
  uint64_t *privoff;            /* [n_inst * bound] Function variable offsets */
  gcc_jit_lvalue **argl;        /* [bound * 16] uniform kernel argument components */
  gcc_jit_block **segb;
  /* sg_kernel_full of a convergent kernel (J.pred0): per segment that
   * starts a block with uniform phis (phis_uniform), the block after its
   * phis.  A branch from a plain segment copies the phis of its own edge and
   * jumps there (go_seg, phis_uniform_edge), so that GCC sees each loop's
   * phis as copies on its edges, not as a test of the predecessor at the
   * loop's head: the induction variables become GCC's.  NULL elsewhere, or
   * with SPIRV_SG_JIT_PHI_HEAD=1 */
  gcc_jit_block **phi_done;
  /* the segment whose terminator is being emitted (go_seg), -1 outside */
  int32_t br_seg;
  int blkn;
  plan_err *e;
  uint32_t n_stmts;
  /* Lane values live in locals of sg_kernel (registers after GCC's SRA and
   * vectorizer); the heap frame is their home only across host calls and
   * suspensions (spill/fill).  fmap: open-addressed field -> local. */
  bool use_loc;                 /* emitting sg_kernel: fld() gives the local */
  /* while the segments are emitted (track_ref): fref[h] set for every
   * field local the code touches; a first start zeroes only those */
  bool track_ref;
  uint8_t *fref;                /* [fmap_cap] */
  /* Emitting sg_kernel_full, the variant of a convergent kernel that
   * sg_groups runs for a whole subgroup: every lane is active from start to
   * end (no varying branch, every lane present), so mask reads are the
   * constant 1, blends are plain assignments and the memory checks test no
   * mask; GCC folds the rest away. */
  bool full;
  /* Emitting sg_kernel_full, its if-converted then-blocks included (where
   * full is false: some lanes are inactive there) */
  bool in_full;
  /* sg_kernel_full of a kernel with a consecutive global store
   * (win_prefetch_off): the windows prefetch nothing */
  bool win_pf_off;
  /* Promoted private arrays (promo_plan): a Function variable holding an
   * array of scalars, used only through one-index access chains that are
   * only loaded from and stored to, lives in a local T a[N][S] of the
   * kernel function (lane l's element e at a[e][l]: a uniform index is one
   * vector access) instead of the lanes' private memory.  Per (inst, id):
   * promo_var the variable's element type (NULL: not promoted), promo_base
   * / promo_idx / promo_uni a chain's variable, index operand and whether
   * the index is uniform; promo_lv the local (per kernel function). */
  bool promo_any, no_promo;
  const ld_type **promo_var;
  uint32_t *promo_base, *promo_idx;
  bool *promo_uni, *promo_cast;   /* promo_cast: an OpBitcast of a promoted variable */
  /* promo_only: an access chain whose every use is the pointer of a load or
   * store (promo_access): its lane array is computed only where
   * promo_access's slow path needs it (promo_skip_chain) */
  bool *promo_only;
  /* promo_const_ptr's answers per (inst, id): 0 not asked, 1 no, 2 yes */
  uint8_t *promo_cs;
  gcc_jit_lvalue **promo_lv;
  /* If-converted then-blocks (jit_seg.ifc), per segment of the function
   * being emitted: the head's mask[] to restore at the then-block's end
   * (made by whichever side is emitted first). */
  gcc_jit_lvalue **ifc_mask;
  /* If-converted then-blocks whose mask stays a scalar (ifc_scalar): the
   * head's taken lanes as one word (ifc_tw[T]); cur_tw while T's code is
   * emitted, which MASKV and mask[]'s spill and fill read instead of
   * mask[] (no mask[] rewrite at the head, no restore at the end). */
  gcc_jit_lvalue **ifc_tw;
  /* else-blocks (IFC_ELSE): the head's other lanes as two words
   * (ifc_etw[2 * E + w]), set at the head, read where the then-block ends */
  gcc_jit_lvalue **ifc_etw;
  gcc_jit_lvalue *cur_tw;
  int32_t cur_seg;           /* the segment being emitted (emit_seg), or -1 */
  /* Masked loops (jit_seg.mloop): the loop's lanes also as an int32 0/1
   * vector (mloop_mv, per loop and function; NULL where S lanes of int32
   * are not 16, 32 or 64 bytes), which MASKV reads while cur_mv is set:
   * one vector for every blend of a trip instead of a shift of the word
   * in each.  Not all-ones/0, which saves a 64-bit blend's negation: the
   * scalar exit tests of S = 8 then masked each lane's bit again (a loop
   * with a break 1.29x, gcd 1.18x the time; even at S = 16).  Nor an int64
   * copy beside it, which kept GCC from unrolling the lane loops over wide
   * fields (collatz 1.7x the time). */
  gcc_jit_lvalue *mlmv[JIT_MAX_MLOOP];
  gcc_jit_lvalue *cur_mv;
  gcc_jit_rvalue *ml_enter;  /* a guard's lanes entering a masked loop (go_seg) */
  gcc_jit_lvalue *mlew[JIT_MAX_MLOOP];   /* the lanes that entered each (mloop_entered) */
  /* If-converted then-blocks that every lane of the subgroup takes at run
   * time (a bounds guard `if (i < n)` away from the NDRange's end): the
   * entry of the block's second copy, compiled as if no if surrounded it
   * (J.full, no stack entry, no mask): ifc_full[T], made by the head
   * (ifc_full_entry) and emitted after the segments; in_ifc_full while that
   * copy is emitted. */
  gcc_jit_block **ifc_full;
  bool in_ifc_full;
  /* While an if-converted then-block is emitted that only lane K can take
   * (ifc_lane_bound, jit_emit_control.c: `lid == K`): the constant K (NULL:
   * any lane may run).  loop_act and the open lane loop then run lane K
   * alone; the others are inactive there, so their lanes of every value
   * keep what a blend would have kept. */
  gcc_jit_rvalue *one_lane;
  uint32_t fmap_cap, n_fields;
  gcc_jit_field **fmap_key;
  gcc_jit_lvalue **fmap_val;
  /* A field's local of vector type (vector_local_type), which floc reads
   * through a pointer to the field's array type (NULL: fmap_val is an
   * array local) */
  gcc_jit_lvalue **fmap_vec;
  /* Wide lane arrays (wide_part_type: one scalar component in 128 bytes,
   * 64-bit lanes of 16; 32-bit lanes of 32 on request): the value lives in
   * fmap_np[h] vector locals of 64 bytes each, [h * WIDE_MAXP + p] (NULL:
   * not wide), which GCC keeps in registers; fmap_val[h] is a scratch array
   * that a lane loop reads and writes (wide_touch: filled from the parts in
   * the loop's cin block, copied back after the loop), as does a read
   * outside lane loops (J.rd: filled right before it).  Any other access
   * outside a lane loop sets wide_excl[q] and wide_retry: je_build then
   * compiles again with that field an ordinary array. */
  gcc_jit_lvalue **fmap_part;
  uint8_t *fmap_np;             /* [fmap_cap] parts of a wide field (0: not wide) */
  bool any_wide;                /* this function has a wide field */
  uint32_t n_wide;              /* wide fields made, in every function */
  uint8_t *wide_excl;           /* [n_fields] fields kept as arrays (wide_part_type) */
  bool wide_retry;
  bool rd;                      /* floc is called for a read (V) */
  uint32_t lane_depth;          /* lane loops open around the code being emitted */
  uint32_t *wt, n_wt, cap_wt;   /* wide fields (fmap index) the open outermost lane loop touches */
  uint8_t *wt_on;               /* [fmap_cap] in wt */
  bool xfer_vec;                /* spill_or_fill moves vector locals as vectors (xfer_live) */
  uint32_t *fmap_q;             /* field index (all_fields) of each fmap entry */
  /* sg_kernel_full only (mark_kept), per field: FK_KEEP, a suspension keeps
   * it in the heap frame; FK_ZERO, a first start zeroes it.  NULL: every
   * field, both (sg_kernel, whose blends read every lane) */
  uint8_t *fkeep;
  gcc_jit_block *fresh;         /* sg_kernel's first-start block (filled last) */
  /* sg_kernel_full (mark_live): per segment that starts after a work-group
   * barrier, the kept fields live there ([n_fields], 1: spill and fill at
   * that barrier); NULL, or a NULL entry: every kept field */
  uint8_t **blive;
  size_t *fvid;                 /* [n_fields] vidx + 1 of the value a field is the lane array of (0: none) */
  gcc_jit_block *resumed;       /* a resume, after the fill (filled last) */
  /* spill_all / fill_all are one shared block each (a kernel with many
   * collectives would repeat every lane array at each): a call site sets
   * the return index and jumps there; the block's switch jumps back */
  gcc_jit_block *xfer_blk[4];   /* [0] spill, [1] fill, [2] promoted arrays to private memory, [3] back */
  gcc_jit_lvalue *xfer_ret[4];
  gcc_jit_block **xfer_cont[4];
  uint32_t n_xfer[4], cap_xfer[4];
  gcc_jit_field **all_fields;   /* [n_fields] every frame field, in order */
  gcc_jit_type **all_types;     /* [n_fields] their types */
  uint32_t *all_sizes;          /* [n_fields] their sizes in bytes */
  gcc_jit_type **all_elem;      /* [n_fields] the scalar type of one-component lane arrays, else NULL */
  /* Affine values (shadow_plan, jit_emit.c): an integer, bool or pointer
   * value defined where every lane of the subgroup runs, with a known lane
   * stride s (ld_uni_lane_stride, or the linear_x id built-ins), lives as
   * one scalar, lane 0's value v0, in a local of the kernel function; lane
   * l's value is v0 + l*s, which V() computes where a lane reads it.  Its
   * lane array is never written: the value's uses are all of kinds that read
   * it through V() (shadow_use_ok), and a host call that reads the heap
   * frame gets the lanes written there (spill_val).  Only in kernels that
   * never suspend (a suspension keeps lane arrays, not these locals).
   * sh_on [n_inst * bound]; sh_st and sh_lv [n_inst * bound * SH_MAXC],
   * per component (3: the id vectors, 4: a ballot); sh_lv per kernel
   * function. */
  uint8_t *sh_on;
  int64_t *sh_st;
  gcc_jit_lvalue **sh_lv;
  /* Selects of same-stride arms (emit_select_uniform): [n_inst * bound] a
   * bool local of the kernel function being emitted, true while the last
   * run of the select took one arm whole (its condition the same in every
   * lane, so its lanes step by the arms' stride); NULL: none (not emitted
   * that way, or not yet).  mem_fast_ reads them through cond_stride. */
  gcc_jit_lvalue **sel_flag;
  /* [n_inst * bound] beside sel_flag: lane 0's pick, as a 64-bit integer
   * (a conditional move), so that an access under the flag (mem_fast_'s
   * window test) reads the select as b0 + l * stride through nx_over
   * instead of lane 0's branch-free blend.  fsel: the selects whose flags
   * the last cond_stride walk used. */
  gcc_jit_lvalue **sel_b0;
  uint32_t fsel[8];
  uint32_t n_fsel;
  uint32_t cs_pos;   /* the exclusive bit count compress_plan last found */
  /* [n_inst * bound]: a value whose inactive lanes are never read, so it is
   * written unblended: of an if-converted then-block, every use lane-local
   * and in that block (no phi, no cross-lane reader; ifc_local_plan); of a
   * masked loop, every use in the loop and lane-local, a phi or the
   * condition of a masked branch (mloop_local_plan).  NULL: none. */
  uint8_t *unblended;
  /* [n_inst * bound] (remat_plan, jit_emit.c): in sg_kernel_full, a value
   * that has no lane array: V() recomputes it from its operands wherever a
   * lane reads it (remat_v).  NULL: none. */
  uint8_t *rm_on;
  /* Range-check windows (mem_fast_window, jit_emit_memory.c): per access
   * site of sg_kernel_full, the region its last checked subgroup reached,
   * kept across the subgroups of a sg_groups call in an array of sg_groups
   * (h_win, the kernel functions' `win` parameter; NULL: no windows).  An
   * address inside the window needs one subtract, rotate and compare. */
  gcc_jit_rvalue *h_win;
  gcc_jit_rvalue *vtop0;         /* the top entry's mask word 0 where none was pushed (top_m) */
  gcc_jit_rvalue *h_sgi;         /* the kernel functions' `sgi` parameter (c->sg_id) */
  uint32_t prefetch;            /* a window hit prefetches this many bytes ahead (0: none) */
  uint32_t n_win;
  gcc_jit_struct *win_st;
  gcc_jit_type *t_winp;
  gcc_jit_field *wn_lo, *wn_lim, *wn_base;
  /* window.nt: win_check's fast_nt as it filled the window (read only on a
   * hit, so never before a fill: a window starts with lim 0) */
  gcc_jit_field *wn_nt;
  /* Non-temporal stores (fast_contig): in sg_kernel_full of a kernel
   * without atomics, on AVX-512, a store whose window (win_check) found its
   * region at least wgs.nt_min bytes large (fast_nt: that test's result,
   * NULL where no window decided) writes whole 64-byte lines past the
   * cache */
  bool nt_ok;
  gcc_jit_lvalue *fast_nt;
  /* [bound] (nx_next, jit_emit_memory.c): while an expression for the next
   * subgroup's value is built, V() returns these for the ids set; NULL
   * otherwise. */
  gcc_jit_rvalue **nx_over;
} J;

/* -------------------------------------------- emitters shared between files */

/* jit_emit.c: the compiled functions, segments, the interpreter fallback */
gcc_jit_context *je_build(jit_kernel *k, const jit_options *o, const char *mflags, plan_err *e,
                          uint32_t *n_stmts);
gcc_jit_rvalue *host_call(J *j, gcc_jit_field *fn, int n, gcc_jit_rvalue **args, bool cold, bool result);
gcc_jit_lvalue *pa_asm(J *j, gcc_jit_rvalue *target, int n, gcc_jit_rvalue **args, bool memory);
void emit_generic(J *j, uint32_t inst, const ld_insn *in);
void spill_val(J *j, uint32_t inst, uint32_t id, bool sp);
void xfer_live(J *j, int32_t s, bool spill);
void shadow_xfer(J *j, bool spill);
void spill_insn(J *j, uint32_t inst, const ld_insn *in);
void shadow_def_begin(J *j);
gcc_jit_rvalue *remat_v(J *j, uint32_t inst, uint32_t id, uint32_t c);
/* Lane 0's value of scalar id (component 0) in a new 64-bit local, and the
 * OR over the lanes of each lane's value XOR it into *bad (0: the same in
 * every lane): the uniform tests of broadcast ids, rotate deltas and block
 * I/O pointers. */
gcc_jit_lvalue *lane0_value(J *j, uint32_t inst, uint32_t id);
void or_lane_diff(J *j, uint32_t inst, uint32_t id, gcc_jit_lvalue *v0, gcc_jit_lvalue *bad);

/* jit_emit_arith.c: elementwise operations, built-in variables */
gcc_jit_rvalue *emit_elementwise(J *j, uint32_t inst, const ld_insn *in, uint32_t c);
gcc_jit_rvalue *emit_ocl_std(J *j, uint32_t inst, const ld_insn *in, uint32_t c, const ld_type *rt, gcc_jit_type *T);
bool emit_select_uniform(J *j, uint32_t inst, const ld_insn *in);
void emit_builtin(J *j, uint32_t inst, const ld_insn *in, SpvBuiltIn bi, const ld_type *ct, uint32_t n);

/* jit_emit_memory.c: access chains, loads, stores, private memory, atomics */
void promo_plan(J *j, bool may_suspend);
void promo_locals(J *j);
void promo_zero(J *j, uint32_t inst, bool all_lanes);
void promo_copy(J *j, uint32_t inst, const ld_insn *in);
bool promo_skip_chain(J *j, uint32_t inst, uint32_t id);
bool promo_const_ptr(J *j, uint32_t inst, uint32_t id);
void promo_sync_body(J *j, bool to_priv);
gcc_jit_rvalue *emit_access_chain(J *j, uint32_t inst, const ld_insn *in);
void emit_load(J *j, uint32_t inst, const ld_insn *in);
void emit_store(J *j, uint32_t inst, const ld_insn *in);
bool win_prefetch_off(J *j);   /* jit_emit_memory.c */
bool nt_plan(J *j);            /* jit_emit_memory.c */
/* an upper bound of unsigned integer value id in every lane (jit_emit_memory.c) */
bool umax_of(const ld_module *m, uint32_t id, uint64_t *mx, int depth);
bool emit_atomic(J *j, uint32_t inst, const ld_insn *in);
bool emit_vloadstore(J *j, uint32_t inst, const ld_insn *in);   /* OpenCL.std vloadn, vstoren */
void zero_private(J *j, uint32_t inst);
void emit_priv_regions(J *j);

/* jit_emit_control.c: the SIMT stack, terminators, phis */
void emit_terminator(J *j, uint32_t inst, const ld_insn *in, int32_t seg);
void emit_phis(J *j, uint32_t inst, const ld_block *blk);
bool phis_uniform(J *j, uint32_t inst, const ld_block *blk);
void emit_settle(J *j);
int64_t ifc_lane_bound(J *j, int32_t si);
void ifc_one_lane(J *j, int32_t si);
bool ifc_no_push(J *j, int32_t T);
gcc_jit_block *ifc_full_entry(J *j, int32_t T);
bool vec_kmask_ok(J *j);   /* jit_emit_subgroup.c */
gcc_jit_lvalue *pred_kmask16(J *j, uint32_t inst, uint32_t id, bool sense);
bool ifc_scalar(J *j, int32_t T);
gcc_jit_lvalue *ifc_tw_local(J *j, int32_t T);
gcc_jit_lvalue *mloop_word(J *j, uint8_t ml);
gcc_jit_lvalue *mloop_mv(J *j, uint8_t ml);
void mloop_set(J *j, uint8_t ml, gcc_jit_rvalue *word);
void stack_room(J *j, int32_t seg, int need);
void push_entry(J *j, int32_t pc, int32_t rpc, gcc_jit_rvalue *m0, gcc_jit_rvalue *m1);
void stack_base(J *j);

/* jit_emit_subgroup.c: group arithmetic, collectives, broadcast, ballots */
void emit_group(J *j, uint32_t inst, const ld_insn *in);
gcc_jit_block *emit_coll_check(J *j, uint32_t inst, const ld_insn *in);
bool emit_broadcast(J *j, uint32_t inst, const ld_insn *in);
/* fmin (mn) / fmax of x and y in float type T (d: double), the interpreter's rule (jit_emit_arith.c) */
gcc_jit_rvalue *fminmax(J *j, bool mn, gcc_jit_rvalue *x, gcc_jit_rvalue *y, gcc_jit_type *T, bool d);
bool emit_sg_first(J *j, uint32_t inst, const ld_insn *in);   /* Elect, BroadcastFirst, AllEqual, RotateKHR */
bool emit_ballot(J *j, uint32_t inst, const ld_insn *in);
bool emit_ballot_bit_count(J *j, uint32_t inst, const ld_insn *in);

/* jit_emit_intel.c: Intel shuffles, block reads and writes */
bool emit_intel_shuffle(J *j, uint32_t inst, const ld_insn *in);
bool emit_block_io(J *j, uint32_t inst, const ld_insn *in);

/* ------------------------------------------------------------ small helpers */

static inline gcc_jit_type *scal(J *j, const ld_type *c) {
  switch (c->kind) {
  case LD_T_BOOL: return j->t_u[0];
  case LD_T_INT: {
    uint32_t w = c->width;
    return w <= 8 ? j->t_u[0] : w <= 16 ? j->t_u[1] : w <= 32 ? j->t_u[2] : j->t_u[3];
  }
  case LD_T_FLOAT: return c->width == 64 ? j->t_f64 : c->width == 16 ? j->t_u[1] : j->t_f32;
  case LD_T_POINTER: return j->t_ptr;
  default: return NULL;
  }
}
static inline gcc_jit_type *sscal(J *j, const ld_type *c) {
  uint32_t w = c->kind == LD_T_POINTER ? j->m->addr_bits : c->width;
  return w <= 8 ? j->t_s[0] : w <= 16 ? j->t_s[1] : w <= 32 ? j->t_s[2] : j->t_s[3];
}

static inline gcc_jit_block *nb(J *j) {
  char name[32];
  snprintf(name, sizeof name, "b%d", j->blkn++);
  return gcc_jit_function_new_block(j->fn, name);
}
static inline gcc_jit_rvalue *ci(J *j, gcc_jit_type *t, long v) { return gcc_jit_context_new_rvalue_from_long(j->cx, t, v); }
static inline gcc_jit_rvalue *cast(J *j, gcc_jit_rvalue *v, gcc_jit_type *t) { return gcc_jit_context_new_cast(j->cx, NULL, v, t); }
static inline gcc_jit_rvalue *bin(J *j, enum gcc_jit_binary_op op, gcc_jit_type *t, gcc_jit_rvalue *a, gcc_jit_rvalue *b) {
  return gcc_jit_context_new_binary_op(j->cx, NULL, op, t, a, b);
}
static inline gcc_jit_rvalue *cmp(J *j, enum gcc_jit_comparison op, gcc_jit_rvalue *a, gcc_jit_rvalue *b) {
  return gcc_jit_context_new_comparison(j->cx, NULL, op, a, b);
}
static inline void assign(J *j, gcc_jit_lvalue *l, gcc_jit_rvalue *r) {
  gcc_jit_block_add_assignment(j->b, NULL, l, r);
  j->n_stmts++;
}
static inline gcc_jit_lvalue *local(J *j, gcc_jit_type *t) {
  char name[32];
  snprintf(name, sizeof name, "t%d", j->blkn++);
  return gcc_jit_function_new_local(j->fn, NULL, t, name);
}
static inline int32_t fidx(J *j, gcc_jit_field *fl) {
  if (!j->fmap_cap || !fl) return -1;
  uint32_t h = (uint32_t)(((uintptr_t)fl >> 4) * 2654435761u) & (j->fmap_cap - 1);
  while (j->fmap_key[h]) {
    if (j->fmap_key[h] == fl) return (int32_t)h;
    h = (h + 1) & (j->fmap_cap - 1);
  }
  return -1;
}
enum { WIDE_MAXP = 4 };
void wide_touch(J *j, int32_t h);
void wide_copy(J *j, int32_t h, gcc_jit_block *b, bool in);
void wide_violation(J *j, int32_t h);
static inline bool wide_h(J *j, int32_t h) { return h >= 0 && j->fmap_np && j->fmap_np[h]; }
/* The 64-byte vector at byte off of lvalue base, as vector type vt aligned
 * to 4 bytes only: a wide field's part in its scratch array or in the heap
 * frame, neither of which is 64-byte aligned (aligned moves faulted). */
static inline gcc_jit_lvalue *vec_view(J *j, gcc_jit_lvalue *base, uint32_t off, gcc_jit_type *vt) {
  gcc_jit_rvalue *at = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
      gcc_jit_context_new_cast(j->cx, NULL, gcc_jit_lvalue_get_address(base, NULL), j->t_u8p),
      gcc_jit_context_new_rvalue_from_int(j->cx, j->t_i32, (int)off)), NULL);
  return gcc_jit_rvalue_dereference(gcc_jit_context_new_cast(j->cx, NULL, at,
      gcc_jit_type_get_pointer(gcc_jit_type_get_aligned(vt, 4))), NULL);
}
static inline gcc_jit_lvalue *floc(J *j, gcc_jit_field *fl) {
  if (!j->use_loc) return NULL;
  int32_t h = fidx(j, fl);
  if (h >= 0 && j->track_ref && j->fref) j->fref[h] = 1;
  if (wide_h(j, h)) {
    if (j->lane_depth) wide_touch(j, h);
    else if (j->rd) wide_copy(j, h, j->b, true);
    else wide_violation(j, h);
    return j->fmap_val[h];
  }
  if (h >= 0 && j->fmap_vec && j->fmap_vec[h])   /* *(T (*)[S])&vec: a fresh expression per use */
    return gcc_jit_rvalue_dereference(
        gcc_jit_context_new_cast(j->cx, NULL, gcc_jit_lvalue_get_address(j->fmap_vec[h], NULL),
                                 gcc_jit_type_get_pointer(j->all_types[j->fmap_q[h]])), NULL);
  return h < 0 ? NULL : j->fmap_val[h];
}

static inline gcc_jit_lvalue *hfld(J *j, gcc_jit_field *fl) {   /* f->fl, the heap frame */
  return gcc_jit_rvalue_dereference_field(j->f, NULL, fl);
}
static inline gcc_jit_lvalue *fld(J *j, gcc_jit_field *fl) {    /* the value's home: local or f->fl */
  gcc_jit_lvalue *l = floc(j, fl);
  return l ? l : hfld(j, fl);
}
void ifc_tw_xfer(J *j, bool spill);
/* Copies a field's local to the heap frame (spill) or back (fill), for a
 * host call that reads or writes the frame, or a suspension. */
static inline void spill_or_fill(J *j, gcc_jit_field *fl, bool spill) {
  if (fl == j->f_mask && j->cur_tw) { ifc_tw_xfer(j, spill); return; }
  int32_t x = fidx(j, fl);
  if (j->use_loc && wide_h(j, x) && !j->lane_depth) {   /* the parts, as vectors */
    for (uint32_t p = 0; p < j->fmap_np[x]; p++) {
      gcc_jit_lvalue *v = j->fmap_part[(size_t)x * WIDE_MAXP + p];
      gcc_jit_lvalue *hv = vec_view(j, hfld(j, fl), 64 * p, gcc_jit_rvalue_get_type(gcc_jit_lvalue_as_rvalue(v)));
      if (spill) assign(j, hv, gcc_jit_lvalue_as_rvalue(v));
      else assign(j, v, gcc_jit_lvalue_as_rvalue(hv));
    }
    return;
  }
  gcc_jit_lvalue *l = floc(j, fl);
  if (!l) return;
  gcc_jit_lvalue *h = hfld(j, fl);
  if (x >= 0 && j->xfer_vec && j->fmap_vec && j->fmap_vec[x]) {
    /* a vector local around a barrier (xfer_live): moved as the vector (the
     * heap field read through an element-aligned vector type), not as an
     * array copy, which GCC did in 8-byte pieces whose stores the next
     * vector read of the local waited on (a failed store forwarding: 50
     * cycles per subgroup and barrier).  Only there: the handlers' paths
     * kept as array copies leave GCC's allocation of hist's loop as it was
     * (5% slower otherwise). */
    gcc_jit_lvalue *v = j->fmap_vec[x];
    gcc_jit_type *vt = gcc_jit_rvalue_get_type(gcc_jit_lvalue_as_rvalue(v));
    gcc_jit_type *ut = gcc_jit_type_get_aligned(vt, 4);
    gcc_jit_lvalue *hv = gcc_jit_rvalue_dereference(gcc_jit_context_new_cast(j->cx, NULL,
        gcc_jit_lvalue_get_address(h, NULL), gcc_jit_type_get_pointer(ut)), NULL);
    if (spill) assign(j, hv, gcc_jit_lvalue_as_rvalue(v));
    else assign(j, v, gcc_jit_lvalue_as_rvalue(hv));
    return;
  }
  if (spill) assign(j, h, gcc_jit_lvalue_as_rvalue(l));
  else assign(j, l, gcc_jit_lvalue_as_rvalue(h));
}
static inline void spill(J *j, gcc_jit_field *fl) { spill_or_fill(j, fl, true); }
static inline void fill(J *j, gcc_jit_field *fl) { spill_or_fill(j, fl, false); }
/* Around a suspension every lane array goes to the heap frame and back: a
 * fresh call of sg_kernel has no local state, and GCC treats a blend with an
 * uninitialized old value as undefined in every lane, active ones included. */
void xfer_all(J *j, int fill);   /* jit_emit.c; fill 2, 3: promo_sync_body (one shared block each too) */
static inline void spill_all(J *j) { xfer_all(j, 0); }
static inline void fill_all(J *j) { xfer_all(j, 1); }
static inline gcc_jit_lvalue *lane_arr(J *j, gcc_jit_field *fl, gcc_jit_rvalue *lane) {
  return gcc_jit_context_new_array_access(j->cx, NULL, gcc_jit_lvalue_as_rvalue(fld(j, fl)), lane);
}
static inline gcc_jit_rvalue *L(J *j) { return gcc_jit_lvalue_as_rvalue(j->lane); }
static inline gcc_jit_rvalue *lane_arr_r(J *j, gcc_jit_field *fl) { return gcc_jit_lvalue_as_rvalue(lane_arr(j, fl, L(j))); }
/* mask[l] (int32 0/1) of the current lane; 1 in sg_kernel_full */
static inline gcc_jit_rvalue *MASKV(J *j) {
  if (j->full) return ci(j, j->t_i32, 1);
  /* a one-lane then-block with its word (J.cur_tw): that lane alone */
  if (j->one_lane && j->cur_tw) return cast(j, cmp(j, GCC_JIT_COMPARISON_EQ, L(j), j->one_lane), j->t_i32);
  gcc_jit_rvalue *m;
  if (j->cur_mv) {
    gcc_jit_type *at = gcc_jit_context_new_array_type(j->cx, NULL, j->t_i32, (int)j->S);
    return gcc_jit_lvalue_as_rvalue(gcc_jit_context_new_array_access(j->cx, NULL,
        gcc_jit_lvalue_as_rvalue(gcc_jit_rvalue_dereference(gcc_jit_context_new_cast(j->cx, NULL,
            gcc_jit_lvalue_get_address(j->cur_mv, NULL), gcc_jit_type_get_pointer(at)), NULL)), L(j)));
  }
  if (j->cur_tw) {
    /* bit l of the then-block's word, in 32-bit arithmetic up to 32 lanes
     * (a 64-bit shift per lane kept GCC from vectorizing the loop) */
    gcc_jit_type *W = j->S <= 32 ? j->t_u[2] : j->t_u[3];
    gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_i32, L(j), ci(j, j->t_i32, j->S <= 32 ? 31 : 63)), W);
    m = cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, W,
                    bin(j, GCC_JIT_BINARY_OP_RSHIFT, W, cast(j, gcc_jit_lvalue_as_rvalue(j->cur_tw), W), sh), ci(j, W, 1)),
             j->t_i32);
  } else {
    m = gcc_jit_lvalue_as_rvalue(lane_arr(j, j->f_mask, L(j)));
  }
  /* J.one_lane: the block runs only when that lane takes it, so its bit
   * is set (a constant 1 in the loops over it alone) */
  if (j->one_lane)
    m = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_i32, m,
            cast(j, cmp(j, GCC_JIT_COMPARISON_EQ, L(j), j->one_lane), j->t_i32));
  return m;
}
/* The current lane's mask as all-ones or 0 in the integer type W. */
static inline gcc_jit_rvalue *MASKN(J *j, gcc_jit_type *W) {
  return bin(j, GCC_JIT_BINARY_OP_MINUS, W, ci(j, W, 0), cast(j, MASKV(j), W));
}
static inline gcc_jit_rvalue *MASK(J *j) {
  if (j->full) return gcc_jit_context_new_rvalue_from_int(j->cx, j->t_bool, 1);
  return cmp(j, GCC_JIT_COMPARISON_NE, MASKV(j), ci(j, j->t_i32, 0));
}

typedef jloop_ jloop;
/* The kernel functions' fixed parameters (c, f, start, regions, wg, win, sgi);
 * one per kernel argument component (J.argc) follows. */
enum { KFN_FIXED = 7 };
static inline void fuse_close(J *j);
/* Into a lane loop: j->b goes on to its test, or for an outermost loop of a
 * function with wide fields to its copy-in block (loop_end fills it). */
static inline void loop_enter(J *j, jloop *lp) {
  lp->cin = NULL;
  lp->wt0 = j->n_wt;
  if (j->lane_depth++ == 0 && j->any_wide) {
    lp->cin = nb(j);
    gcc_jit_block_end_with_jump(j->b, NULL, lp->cin);
  } else {
    gcc_jit_block_end_with_jump(j->b, NULL, lp->cond);
  }
}
static inline void loop_begin_raw(J *j, jloop *lp) {
  lp->cond = nb(j);
  gcc_jit_block *body = nb(j);
  lp->after = nb(j);
  assign(j, j->lane, ci(j, j->t_i32, 0));
  loop_enter(j, lp);
  gcc_jit_block_end_with_conditional(lp->cond, NULL, cmp(j, GCC_JIT_COMPARISON_LT, L(j), ci(j, j->t_i32, (long)j->S)), body, lp->after);
  j->b = body;
}
/* A lane loop over the lanes that may be active (J.one_lane): lane-local
 * code whose inactive lanes' results are blended away or skipped. */
static inline void loop_act_raw(J *j, jloop *lp) {
  if (!j->one_lane) { loop_begin_raw(j, lp); return; }
  lp->cond = nb(j);
  gcc_jit_block *body = nb(j);
  lp->after = nb(j);
  assign(j, j->lane, j->one_lane);
  loop_enter(j, lp);
  gcc_jit_block_end_with_conditional(lp->cond, NULL, cmp(j, GCC_JIT_COMPARISON_LE, L(j), j->one_lane), body, lp->after);
  j->b = body;
}
/* Every explicit lane loop first closes the open lane loop (fuse_open). */
static inline void loop_begin(J *j, jloop *lp) {
  fuse_close(j);
  loop_begin_raw(j, lp);
}
static inline void loop_act(J *j, jloop *lp) {
  fuse_close(j);
  loop_act_raw(j, lp);
}
static inline void loop_range(J *j, jloop *lp, uint32_t lo, uint32_t hi) {
  fuse_close(j);
  lp->cond = nb(j);
  gcc_jit_block *body = nb(j);
  lp->after = nb(j);
  assign(j, j->lane, ci(j, j->t_i32, (long)lo));
  loop_enter(j, lp);
  gcc_jit_block_end_with_conditional(lp->cond, NULL, cmp(j, GCC_JIT_COMPARISON_LT, L(j), ci(j, j->t_i32, (long)hi)), body, lp->after);
  j->b = body;
}
void wide_loop_done(J *j, jloop *lp);
static inline void loop_end(J *j, jloop *lp) {
  gcc_jit_block_add_assignment_op(j->b, NULL, j->lane, GCC_JIT_BINARY_OP_PLUS, ci(j, j->t_i32, 1));
  gcc_jit_block_end_with_jump(j->b, NULL, lp->cond);
  j->b = lp->after;
  if (j->lane_depth) j->lane_depth--;
  if (lp->cin) wide_loop_done(j, lp);
}
/* The open lane loop: an instruction's lane-local code (elementwise
 * operations, access chains, built-in reads, a block's phis) opens it with
 * fuse_open, and the next instruction that emits code closes it, as does
 * any explicit loop; so all components of one instruction share a loop. */
static inline void fuse_open(J *j) {
  if (j->open) return;
  loop_act_raw(j, &j->open_lp);
  j->open = true;
}
static inline void fuse_close(J *j) {
  if (!j->open) return;
  j->open = false;
  loop_end(j, &j->open_lp);
}

/* t = a; if (cond) t = b;  -> rvalue t (blocks GCC if-converts) */
static inline gcc_jit_rvalue *sel(J *j, gcc_jit_rvalue *cond, gcc_jit_rvalue *yes, gcc_jit_rvalue *no, gcc_jit_type *t) {
  gcc_jit_lvalue *tmp = local(j, t);
  assign(j, tmp, no);
  gcc_jit_block *bt = nb(j), *bj = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cond, bt, bj);
  j->b = bt;
  assign(j, tmp, yes);
  gcc_jit_block_end_with_jump(j->b, NULL, bj);
  j->b = bj;
  return gcc_jit_lvalue_as_rvalue(tmp);
}

/* mask[l] ? yes : no, branch-free (bitwise blend on the value's bits, so the
 * lane loops vectorize and NaN payloads pass unchanged). */
static inline gcc_jit_rvalue *blend_by(J *j, gcc_jit_rvalue *m01, gcc_jit_rvalue *yes, gcc_jit_rvalue *no,
                                       gcc_jit_type *T);
static inline gcc_jit_rvalue *mblend(J *j, gcc_jit_rvalue *yes, gcc_jit_rvalue *no, gcc_jit_type *T) {
  if (j->full) { (void)no; (void)T; return yes; }
  return blend_by(j, MASKV(j), yes, no, T);
}
/* m01 (an integer 0 or 1) ? yes : no, branch-free (OpSelect, mblend). */
static inline gcc_jit_rvalue *blend_by(J *j, gcc_jit_rvalue *m01, gcc_jit_rvalue *yes, gcc_jit_rvalue *no,
                                       gcc_jit_type *T) {
  bool isf = T == j->t_f32 || T == j->t_f64;
  gcc_jit_type *I = T == j->t_f32 ? j->t_u[2] : T == j->t_f64 ? j->t_u[3] : T;
  gcc_jit_type *W = (I == j->t_u[0] || I == j->t_u[1] || I == j->t_s[0] || I == j->t_s[1]) ? j->t_u[2] : I;
  if (I == j->t_i32) W = j->t_u[2];
  gcc_jit_rvalue *y = isf ? gcc_jit_context_new_bitcast(j->cx, NULL, yes, I) : yes;
  gcc_jit_rvalue *n = isf ? gcc_jit_context_new_bitcast(j->cx, NULL, no, I) : no;
  y = cast(j, y, W);
  n = cast(j, n, W);
  gcc_jit_rvalue *m = bin(j, GCC_JIT_BINARY_OP_MINUS, W, ci(j, W, 0), cast(j, m01, W));
  gcc_jit_rvalue *r = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, W, n,
                          bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, W, bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, W, n, y), m));
  r = cast(j, r, I);
  return isf ? gcc_jit_context_new_bitcast(j->cx, NULL, r, T) : r;
}

static inline size_t vidx(J *j, uint32_t inst, uint32_t id) { return (size_t)inst * j->m->bound + id; }
/* J.unblended: value id of instance inst is written without the mask's blend */
static inline bool is_unblended(J *j, uint32_t inst, uint32_t id) {
  return j->unblended && id < j->m->bound && j->unblended[vidx(j, inst, id)];
}

/* Recomputed where read (J.rm_on): sg_kernel_full only. */
static inline bool remat(J *j, uint32_t inst, uint32_t id) {
  return j->in_full && j->rm_on && id < j->m->bound && j->rm_on[vidx(j, inst, id)];
}

/* Affine values (J.sh_on): shadowed(j, inst, id) tells; sh_lv is lane 0's
 * component c, sh_at lane `lane`'s (v0 + lane * stride, in type T). */
static inline bool shadowed(J *j, uint32_t inst, uint32_t id) {
  return j->sh_on && id < j->m->bound && j->sh_on[vidx(j, inst, id)];
}
/* field q (all_fields) is the never-written lane array of a shadowed value */
static inline bool fshadowed(J *j, uint32_t q) {
  return j->sh_on && j->fvid && j->fvid[q] && j->sh_on[j->fvid[q] - 1];
}
/* the value (instance, id) whose lane array field q is; false: none */
static inline bool field_value(J *j, uint32_t q, uint32_t *inst, uint32_t *id) {
  size_t v = j->fvid ? j->fvid[q] : 0;
  if (!v) return false;
  *inst = (uint32_t)((v - 1) / j->m->bound);
  *id = (uint32_t)((v - 1) % j->m->bound);
  return true;
}
static inline gcc_jit_lvalue *sh_lv(J *j, uint32_t inst, uint32_t id, uint32_t c) {
  return j->sh_lv[vidx(j, inst, id) * SH_MAXC + c];
}
static inline gcc_jit_rvalue *sh_at(J *j, uint32_t inst, uint32_t id, uint32_t c, gcc_jit_rvalue *lane,
                                    gcc_jit_type *T) {
  size_t q = vidx(j, inst, id) * SH_MAXC + c;
  gcc_jit_rvalue *v0 = gcc_jit_lvalue_as_rvalue(j->sh_lv[q]);
  if (!j->sh_st[q]) return v0;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_rvalue *st = gcc_jit_context_new_cast(j->cx, NULL,
      gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)j->sh_st[q]), U);
  gcc_jit_rvalue *r = gcc_jit_context_new_binary_op(j->cx, NULL, GCC_JIT_BINARY_OP_PLUS, U,
      gcc_jit_context_new_cast(j->cx, NULL, v0, U),
      gcc_jit_context_new_binary_op(j->cx, NULL, GCC_JIT_BINARY_OP_MULT, U,
                                    gcc_jit_context_new_cast(j->cx, NULL, lane, U), st));
  return gcc_jit_context_new_cast(j->cx, NULL, r, T);
}

/* Lane l's component c of a slot. */
static inline gcc_jit_lvalue *slot_lv(J *j, gcc_jit_field *fl, uint32_t n, uint32_t c, gcc_jit_rvalue *lane) {
  gcc_jit_rvalue *arr = gcc_jit_lvalue_as_rvalue(fld(j, fl));
  if (n > 1) arr = gcc_jit_lvalue_as_rvalue(gcc_jit_context_new_array_access(j->cx, NULL, arr, ci(j, j->t_i32, c)));
  return gcc_jit_context_new_array_access(j->cx, NULL, arr, lane);
}

static inline gcc_jit_lvalue *res_lv(J *j, uint32_t inst, uint32_t id, uint32_t c) {
  const ld_type *ct; uint32_t n;
  lane_shape(j->m->values[id].type, &ct, &n);
  return slot_lv(j, j->slot[vidx(j, inst, id)], n, c, L(j));
}

static inline gcc_jit_rvalue *const_comp(J *j, const ld_type *ct, const uint8_t *p) {
  gcc_jit_type *t = scal(j, ct);
  uint32_t nb_ = comp_bytes(j->k, ct);
  if (ct->kind == LD_T_FLOAT && ct->width != 16) {
    if (ct->width == 32) { float f; memcpy(&f, p, 4); return gcc_jit_context_new_rvalue_from_double(j->cx, t, f); }
    double d; memcpy(&d, p, 8); return gcc_jit_context_new_rvalue_from_double(j->cx, t, d);
  }
  uint64_t v = 0;
  memcpy(&v, p, nb_);
  if (nb_ == 8) return cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)v), t);
  return gcc_jit_context_new_rvalue_from_long(j->cx, t, (long)v);
}

/* A value's lane array read (J.rd: a wide field read outside lane loops
 * is filled from its parts first). */
static inline gcc_jit_rvalue *V_read(J *j, uint32_t inst, uint32_t id, uint32_t c) {
  bool rd = j->rd;
  j->rd = true;
  gcc_jit_lvalue *l = res_lv(j, inst, id, c);
  j->rd = rd;
  return gcc_jit_lvalue_as_rvalue(l);
}
/* Component c of value id in instance inst, for the current lane. */
static inline gcc_jit_rvalue *V(J *j, uint32_t inst, uint32_t id, uint32_t c) {
  const ld_value *v = &j->m->values[id];
  const ld_type *ct; uint32_t n;
  if (!lane_shape(v->type, &ct, &n) || c >= n) {
    failf(j->e, "value %s of unsupported type", ld_id_name(j->m, id));
    return ci(j, j->t_i32, 0);
  }
  switch (v->kind) {
  case LD_V_CONSTANT:
    return const_comp(j, ct, v->u.bytes + (size_t)c * ct->size);
  case LD_V_UNDEF: {
    uint8_t z[8] = {0};
    return const_comp(j, ct, z);
  }
  case LD_V_VARIABLE:
    return cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)v->u.var->address), j->t_ptr);
  case LD_V_PARAM:
    if (inst == 0) return gcc_jit_lvalue_as_rvalue(j->argl[(size_t)id * 16 + c]);
    if (shadowed(j, inst, id)) return sh_at(j, inst, id, c, L(j), scal(j, ct));
    return V_read(j, inst, id, c);
  case LD_V_RESULT:
    if (j->nx_over && j->nx_over[id]) return j->nx_over[id];
    if (v->u.insn->op == SpvOpVariable) {
      const ld_addr_layout *a = &j->m->layout;
      gcc_jit_rvalue *r = bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_u[3], cast(j, L(j), j->t_u[3]),
                              ci(j, j->t_u[3], (long)a->priv_base));
      r = bin(j, GCC_JIT_BINARY_OP_LSHIFT, j->t_u[3], r, ci(j, j->t_u[3], (long)a->shift));
      r = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[3], r, ci(j, j->t_u[3], (long)j->privoff[vidx(j, inst, id)]));
      return cast(j, r, j->t_ptr);
    }
    if (shadowed(j, inst, id)) return sh_at(j, inst, id, c, L(j), scal(j, ct));
    if (remat(j, inst, id)) return remat_v(j, inst, id, c);
    if (!j->slot[vidx(j, inst, id)]) { failf(j->e, "no slot for %s", ld_id_name(j->m, id)); return ci(j, j->t_i32, 0); }
    return V_read(j, inst, id, c);
  default:
    failf(j->e, "value %s of kind %d not compiled", ld_id_name(j->m, id), (int)v->kind);
    return ci(j, j->t_i32, 0);
  }
}

static inline bool odd_width(const ld_type *ct) {
  return ct->kind == LD_T_INT && ct->width != 8 && ct->width != 16 && ct->width != 32 && ct->width != 64;
}
static inline gcc_jit_rvalue *fixw(J *j, const ld_type *ct, gcc_jit_rvalue *r) {
  if (!odd_width(ct)) return r;
  return bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, scal(j, ct), r, ci(j, scal(j, ct), (long)((1ull << ct->width) - 1)));
}
static inline gcc_jit_rvalue *b2u8(J *j, gcc_jit_rvalue *b) { return cast(j, b, j->t_u[0]); }

static inline gcc_jit_rvalue *ctxf(J *j, gcc_jit_field *fl) {
  if (fl == j->c_regions && j->h_regions) return j->h_regions;
  if (fl == j->c_wg && j->h_wg) return j->h_wg;
  return gcc_jit_lvalue_as_rvalue(gcc_jit_rvalue_dereference_field(j->c, NULL, fl));
}
static inline gcc_jit_lvalue *cfl(J *j, gcc_jit_field *fl) { return gcc_jit_rvalue_dereference_field(j->c, NULL, fl); }
static inline gcc_jit_lvalue *wfl(J *j, gcc_jit_field *fl) { return gcc_jit_rvalue_dereference_field(ctxf(j, j->c_wg), NULL, fl); }
static inline gcc_jit_rvalue *R_(gcc_jit_lvalue *l) { return gcc_jit_lvalue_as_rvalue(l); }
static inline gcc_jit_rvalue *SP(J *j) { return ctxf(j, j->c_sp); }
static inline gcc_jit_lvalue *stack_at(J *j, gcc_jit_rvalue *i) {
  return gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_stack), i);
}
static inline gcc_jit_lvalue *top_e(J *j) { return stack_at(j, bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, SP(j), ci(j, j->t_i32, 1))); }
static inline gcc_jit_lvalue *ent_f(J *j, gcc_jit_lvalue *e, gcc_jit_field *fl) { (void)j; return gcc_jit_lvalue_access_field(e, NULL, fl); }
static inline gcc_jit_lvalue *ent_m(J *j, gcc_jit_lvalue *e, int w) {
  return gcc_jit_context_new_array_access(j->cx, NULL, R_(ent_f(j, e, j->e_m)), ci(j, j->t_i32, w));
}
/* Word w of the top entry's mask; in a then-block that pushed no entry
 * (J.vtop0, ifc_no_push) its lanes word. */
static inline gcc_jit_rvalue *top_m(J *j, int w) {
  if (j->vtop0) return w == 0 ? j->vtop0 : ci(j, j->t_u[3], 0);
  return gcc_jit_lvalue_as_rvalue(ent_m(j, top_e(j), w));
}
static inline gcc_jit_lvalue *arr_at(J *j, gcc_jit_rvalue *arr, int i) {
  return gcc_jit_context_new_array_access(j->cx, NULL, arr, ci(j, j->t_i32, i));
}
static inline uint32_t n_words(J *j) { return j->S > 64 ? 2 : 1; }
/* The lane-array field holding value id of instance inst, if it is one. */
static inline gcc_jit_field *value_slot(J *j, uint32_t inst, uint32_t id) {
  const ld_value *v = &j->m->values[id];
  if (v->kind == LD_V_RESULT && v->u.insn->op != SpvOpVariable) return j->slot[vidx(j, inst, id)];
  if (v->kind == LD_V_PARAM && inst != 0) return j->slot[vidx(j, inst, id)];
  return NULL;
}

/* True when GCC, tuning for the CPU of flags (-mtune=), vectorizes loops in
 * 256-bit vectors although AVX-512 is there: GCC 12's Intel AVX-512 tunings
 * prefer 256 bits (X86_TUNE_AVX256_OPTIMAL); AMD, generic and the rest use
 * 512.  je_build1 adds -mprefer-vector-width=512 there unless
 * SPIRV_SG_JIT_V256=1.  Only speed depends on it (the store-to-load
 * forwarding between a lane loop and a permute, emit_permute; wide
 * fields), never a result. */
static inline bool tune_256(const char *flags) {
  static const char *const t256[] = {"skylake-avx512", "cannonlake", "icelake-client", "icelake-server",
                                     "cascadelake", "tigerlake", "cooperlake", "sapphirerapids", "rocketlake"};
  const char *p = flags ? strstr(flags, "-mtune=") : NULL;
  if (!p) return true;   /* unknown: the layout that was tuned first (Intel) */
  p += 7;
  size_t n = strcspn(p, " ");
  for (size_t i = 0; i < sizeof t256 / sizeof *t256; i++)
    if (strlen(t256[i]) == n && !strncmp(p, t256[i], n)) return true;
  return false;
}

/* GCC targets or tunes for AMD's Zen (-march=znverN or -mtune=znverN in
 * flags): tuning choices measured on Zen alone (win_prefetch_off). */
static inline bool zen_tuned(const char *flags) {
  return flags && (strstr(flags, "-march=znver") || strstr(flags, "-mtune=znver"));
}

/* flags (the -m options GCC gets, space-separated) holds option f. */
static inline bool has_flag(const char *flags, const char *f) {
  size_t n = strlen(f);
  for (const char *p = flags ? strstr(flags, f) : NULL; p; p = strstr(p + 1, f))
    if ((p == flags || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) return true;
  return false;
}

/* The index of the lowest set bit of the 64-bit x (undefined for 0), as an
 * int32. */
static inline gcc_jit_rvalue *ctz64(J *j, gcc_jit_rvalue *x) {
  gcc_jit_function *f = gcc_jit_context_get_builtin_function(j->cx, "__builtin_ctzll");
  gcc_jit_rvalue *a[1] = {cast(j, x, gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_UNSIGNED_LONG_LONG))};
  return cast(j, gcc_jit_context_new_call(j->cx, NULL, f, 1, a), j->t_i32);
}

/* Condition c (bool) marked as expected true (hint false: expected false)
 * with __builtin_expect: GCC lays out the other side out of the loop's
 * straight line and spends its registers on the expected one (the range
 * checks' windows, which hit for every subgroup after the first).
 * SPIRV_SG_JIT_NO_EXPECT=1: no hint. */
static inline gcc_jit_rvalue *expect(J *j, gcc_jit_rvalue *c, bool hint) {
  if (getenv("SPIRV_SG_JIT_NO_EXPECT")) return c;
  gcc_jit_function *f = gcc_jit_context_get_builtin_function(j->cx, "__builtin_expect");
  gcc_jit_type *L = gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_LONG);
  gcc_jit_rvalue *a[2] = {cast(j, c, L), gcc_jit_context_new_rvalue_from_long(j->cx, L, hint ? 1 : 0)};
  return gcc_jit_context_new_comparison(j->cx, NULL, GCC_JIT_COMPARISON_NE, gcc_jit_context_new_call(j->cx, NULL, f, 2, a),
                                        gcc_jit_context_zero(j->cx, L));
}

/* memset(p, 0, bytes) in j->b. */
static inline void memset0(J *j, gcc_jit_rvalue *p, uint64_t bytes) {
  gcc_jit_function *ms = gcc_jit_context_get_builtin_function(j->cx, "__builtin_memset");
  gcc_jit_rvalue *args[3] = {cast(j, p, j->t_vp), ci(j, j->t_i32, 0),
      gcc_jit_context_new_rvalue_from_long(j->cx, gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_SIZE_T), (long)bytes)};
  gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, ms, 3, args));
}

/* The kernel function's return after a finished (or stopped) subgroup:
 * JIT_RET_DONE, or JIT_RET_HOST where a host helper may have run (J.hc). */
static inline gcc_jit_rvalue *ret_done_v(J *j) {
  if (!j->hc) return ci(j, j->t_i32, JIT_RET_DONE);
  return bin(j, GCC_JIT_BINARY_OP_MULT, j->t_i32, cast(j, gcc_jit_lvalue_as_rvalue(j->hc), j->t_i32), ci(j, j->t_i32, JIT_RET_HOST));
}
/* The step check the count runs to: J.scheck, or c->step_check */
static inline gcc_jit_rvalue *steps_check(J *j) {
  return j->scheck ? gcc_jit_lvalue_as_rvalue(j->scheck)
                   : gcc_jit_lvalue_as_rvalue(gcc_jit_rvalue_dereference_field(j->c, NULL, j->c_step_check));
}
/* c->steps = check - left, in block b (J.left; with J.scheck c->step_check
 * written too) */
static inline void steps_store(J *j, gcc_jit_block *b) {
  if (!j->left) return;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_block_add_assignment(b, NULL, gcc_jit_rvalue_dereference_field(j->c, NULL, j->c_steps),
      gcc_jit_context_new_binary_op(j->cx, NULL, GCC_JIT_BINARY_OP_MINUS, U, steps_check(j),
          gcc_jit_context_new_cast(j->cx, NULL, gcc_jit_lvalue_as_rvalue(j->left), U)));
  if (j->scheck)
    gcc_jit_block_add_assignment(b, NULL, gcc_jit_rvalue_dereference_field(j->c, NULL, j->c_step_check),
                                 gcc_jit_lvalue_as_rvalue(j->scheck));
}
/* left = c->step_check - c->steps, in block b (J.left; J.scheck the check) */
static inline void steps_load(J *j, gcc_jit_block *b) {
  if (!j->left) return;
  gcc_jit_type *U = j->t_u[3];
  if (j->scheck)
    gcc_jit_block_add_assignment(b, NULL, j->scheck,
        gcc_jit_lvalue_as_rvalue(gcc_jit_rvalue_dereference_field(j->c, NULL, j->c_step_check)));
  gcc_jit_block_add_assignment(b, NULL, j->left,
      gcc_jit_context_new_cast(j->cx, NULL, gcc_jit_context_new_binary_op(j->cx, NULL, GCC_JIT_BINARY_OP_MINUS, U,
          steps_check(j), gcc_jit_lvalue_as_rvalue(gcc_jit_rvalue_dereference_field(j->c, NULL, j->c_steps))), j->t_s[3]));
}
static inline void ret_done(J *j, gcc_jit_block *b) {
  steps_store(j, b);
  gcc_jit_block_end_with_return(b, NULL, ret_done_v(j));
}
/* Before a host helper's call in the kernel function: see J.hc. */
static inline void host_mark_in(J *j, gcc_jit_block *b) {
  if (j->hc) gcc_jit_block_add_assignment(b, NULL, j->hc, gcc_jit_context_new_rvalue_from_int(j->cx, j->t_u[0], 1));
}
static inline void host_mark(J *j) { host_mark_in(j, j->b); }
/* Whether sg_kernel_full has J.hc and sg_groups reads the stop flag only
 * after JIT_RET_HOST: a kernel that never suspends. */
static inline bool host_flag_on(const jit_kernel *k) { return k->lean_stack && !getenv("SPIRV_SG_JIT_STOP_EACH"); }

/* --------------------------------------------- cross-lane fast paths
 *
 * Shuffles, broadcast, ballot and block reads run inline when every lane of
 * the subgroup is active and the operands are such that the interpreter would
 * record no diagnostic (indices in range, uniform where the rule says so);
 * otherwise the same instruction runs the interpreter's handler (emit_generic),
 * which records the UB exactly as the interpreter does. */

static inline gcc_jit_rvalue *all_active(J *j) {
  if (j->full) return gcc_jit_context_new_rvalue_from_int(j->cx, j->t_bool, 1);
  gcc_jit_type *U = j->t_u[3];
  uint64_t full0 = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
  uint64_t full1 = j->S > 64 ? (j->S >= 128 ? ~0ull : (1ull << (j->S - 64)) - 1) : 0;
  gcc_jit_rvalue *m0 = cmp(j, GCC_JIT_COMPARISON_EQ, top_m(j, 0),
                           cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)full0), U));
  gcc_jit_rvalue *m1 = cmp(j, GCC_JIT_COMPARISON_EQ, top_m(j, 1),
                           cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)full1), U));
  return bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, m0, m1);
}

/* True if component reads of value id can be gathered from another lane:
 * a lane array, or a value that is the same in every lane. */
static inline bool gatherable(J *j, uint32_t inst, uint32_t id) {
  const ld_value *v = &j->m->values[id];
  if (v->kind == LD_V_CONSTANT || v->kind == LD_V_UNDEF || v->kind == LD_V_VARIABLE) return true;
  if (v->kind == LD_V_PARAM && inst == 0) return true;
  return value_slot(j, inst, id) != NULL;
}
/* Component c of value id in lane `src` (an rvalue lane index). */
static inline gcc_jit_rvalue *gather_v(J *j, uint32_t inst, uint32_t id, uint32_t c, gcc_jit_rvalue *src) {
  gcc_jit_field *f = value_slot(j, inst, id);
  if (!f) return V(j, inst, id, c);
  const ld_type *ct; uint32_t n;
  lane_shape(j->m->values[id].type, &ct, &n);
  if (shadowed(j, inst, id)) return sh_at(j, inst, id, c, src, scal(j, ct));
  if (remat(j, inst, id)) failf(j->e, "internal: cross-lane read of %s (remat_plan)", ld_id_name(j->m, id));
  return R_(slot_lv(j, f, n, c, src));
}

/* Walks in's operand words after its result type and id against the
 * opcode's operand layout (spv_walk_operands: fn gets each operand's class);
 * false when the opcode has no layout or the words do not fit it. */
static inline bool walk_id_operands(const ld_insn *in, spv_operand_fn fn, void *u) {
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  if (!d) return false;
  uint16_t skip = (uint16_t)(d->has_type + d->has_result);
  return spv_walk_operands(in->ops, in->n_ops, 0, d->operands + skip, (uint16_t)(d->n_operands - skip), fn, u);
}

/* if (cond) { fast: j->b } else { generic }  -> returns the join block; the
 * caller fills j->b (fast) and jumps to the join.  cond NULL: always the
 * fast path (no generic block). */
static inline gcc_jit_block *fast_or_generic(J *j, uint32_t inst, const ld_insn *in, gcc_jit_rvalue *cond) {
  if (!cond) return nb(j);
  gcc_jit_block *fast = nb(j), *slow = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cond, fast, slow);
  j->b = slow;
  emit_generic(j, inst, in);
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = fast;
  return join;
}

/* GCC's level for the objects: the options' 0..3, else -O2. */
static inline int opt_level_of(const jit_options *o) {
  return o && o->opt_level >= 0 && o->opt_level <= 3 ? o->opt_level : 2;
}

#endif
