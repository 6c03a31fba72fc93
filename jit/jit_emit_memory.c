/* jit_emit_memory.c - memory: access chains, loads and stores (the
 * subgroup-wide fast path and the per-lane checked path), private memory
 * (Function variables, their zeroing and region-table entries), atomics.
 * See jit.c for the design. */
#include "jit_emit.h"
#include <spirv/unified1/OpenCL.std.h>

/* Pointer arithmetic of the access chains (u64 result). */
gcc_jit_rvalue *emit_access_chain(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_rvalue *p = cast(j, V(j, inst, in->ops[0], 0), U);
  const ld_type *t = m->values[in->ops[0]].type->elem;
  uint32_t i = 1;
  bool ptrac = in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain;
  for (; i < in->n_ops && t; i++) {
    uint32_t id = in->ops[i];
    const ld_type *it = m->values[id].type;
    uint64_t stride;
    if (ptrac && i == 1) stride = t->size;
    else if (t->kind == LD_T_STRUCT) {
      bool ok = true;
      uint32_t mi = const_u32(m, id, &ok);
      if (!ok || mi >= t->n_members) { failf(j->e, "%s: bad struct index", ld_insn_where(m, in)); return p; }
      p = bin(j, GCC_JIT_BINARY_OP_PLUS, U, p, ci(j, U, (long)t->offsets[mi]));
      t = t->members[mi];
      continue;
    } else if (t->kind == LD_T_ARRAY || t->kind == LD_T_RUNTIME_ARRAY || t->kind == LD_T_VECTOR) {
      stride = t->elem->size;
      if (t->kind == LD_T_VECTOR) stride = t->elem->size;
      t = t->elem;
    } else { failf(j->e, "%s: access chain into a scalar", ld_insn_where(m, in)); return p; }
    if (!it || it->kind != LD_T_INT) { failf(j->e, "%s: non-integer index", ld_insn_where(m, in)); return p; }
    gcc_jit_rvalue *x = V(j, inst, id, 0);
    x = cast(j, cast(j, cast(j, x, sscal(j, it)), j->t_s[3]), U);
    p = bin(j, GCC_JIT_BINARY_OP_PLUS, U, p, bin(j, GCC_JIT_BINARY_OP_MULT, U, x, ci(j, U, (long)stride)));
  }
  return p;
}

/* Range-check windows (J.h_win; mem_fast_window explains them).  log2 of
 * an access's alignment: the rotation of win_hit. */
static uint32_t align_log2(uint32_t align) {
  uint32_t k = 0;
  while ((1u << k) < align) k++;
  return k;
}
/* The 64-bit offset d rotated right by k (the alignment's log2): a
 * misaligned offset's low bits land on top, above any region's size. */
static gcc_jit_rvalue *rotr_align(J *j, gcc_jit_lvalue *d, uint32_t k) {
  gcc_jit_type *U = j->t_u[3];
  if (!k) return R_(d);
  return bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(d), ci(j, U, k)),
             bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, R_(d), ci(j, U, 64 - k)));
}
/* From j->b: d = a - W.lo, and the test that a is in W (d rotated right by
 * k, the alignment's log2, below W.lim), marked as expected. */
static gcc_jit_rvalue *win_hit(J *j, gcc_jit_lvalue *W, gcc_jit_rvalue *a, uint32_t k, gcc_jit_lvalue *d) {
  gcc_jit_type *U = j->t_u[3];
  assign(j, d, bin(j, GCC_JIT_BINARY_OP_MINUS, U, a, R_(gcc_jit_lvalue_access_field(W, NULL, j->wn_lo))));
  return expect(j, cmp(j, GCC_JIT_COMPARISON_LT, rotr_align(j, d, k),
                       R_(gcc_jit_lvalue_access_field(W, NULL, j->wn_lim))), true);
}
/* In j->b: W becomes the region whose start address is lo, base address
 * base and size lim (at least span): the addresses from lo whose span
 * bytes fit, in steps of 2^k. */
static void win_fill(J *j, gcc_jit_lvalue *W, gcc_jit_rvalue *lo, gcc_jit_rvalue *lim, uint64_t span, uint32_t k,
                     gcc_jit_rvalue *base) {
  gcc_jit_type *U = j->t_u[3];
  assign(j, gcc_jit_lvalue_access_field(W, NULL, j->wn_lo), lo);
  assign(j, gcc_jit_lvalue_access_field(W, NULL, j->wn_lim), bin(j, GCC_JIT_BINARY_OP_PLUS, U,
      bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, lim, ci(j, U, (long)span)), ci(j, U, k)),
      ci(j, U, 1)));
  assign(j, gcc_jit_lvalue_access_field(W, NULL, j->wn_base), base);
}
/* The next access site's window. */
static gcc_jit_lvalue *win_next(J *j) {
  return gcc_jit_context_new_array_access(j->cx, NULL, j->h_win, ci(j, j->t_i32, (long)j->n_win++));
}

/* Per-lane checked access (inside a lane loop, under the mask): returns an
 * rvalue u8* that is NULL after a fault. */
/* One address Ar's test: its region (*reg, by the address's top bits)
 * holds `size` bytes (writable ones for a write) from its offset *off, and
 * it is aligned. */
static gcc_jit_rvalue *addr_ok(J *j, gcc_jit_rvalue *Ar, uint32_t size, uint32_t align, bool write,
                               gcc_jit_lvalue **reg, gcc_jit_rvalue **off, gcc_jit_rvalue **lim) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, Ar, ci(j, U, (long)a->offset_mask));
  *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions),
                                          bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, Ar, ci(j, U, (long)a->shift)));
  *lim = R_(gcc_jit_lvalue_access_field(*reg, NULL, write ? j->r_wsize : j->r_size));
  gcc_jit_rvalue *ok = cmp(j, GCC_JIT_COMPARISON_LE, bin(j, GCC_JIT_BINARY_OP_PLUS, U, *off, ci(j, U, size)), *lim);
  if (align > 1)
    ok = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, ok,
             cmp(j, GCC_JIT_COMPARISON_EQ, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, Ar, ci(j, U, align - 1)), ci(j, U, 0)));
  return ok;
}
static gcc_jit_rvalue *checked_ptr(J *j, uint32_t insn_idx, gcc_jit_rvalue *addr, uint32_t size,
                                   uint32_t align, bool write) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_lvalue *A = local(j, U), *P = local(j, j->t_u8p);
  assign(j, A, cast(j, addr, U));
  gcc_jit_rvalue *Ar = gcc_jit_lvalue_as_rvalue(A);
  gcc_jit_rvalue *r = bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, Ar, ci(j, U, (long)a->shift));
  gcc_jit_lvalue *reg;
  gcc_jit_rvalue *off, *lim;
  gcc_jit_rvalue *ok = addr_ok(j, Ar, size, align, write, &reg, &off, &lim);
  gcc_jit_block *fast = nb(j), *slow = nb(j), *join = nb(j);
  gcc_jit_lvalue *W = NULL;
  uint32_t k = align_log2(align);
  if (j->one_lane && j->h_win && !getenv("SPIRV_SG_JIT_NO_ONE_LANE_WIN")) {
    /* lane K alone (J.one_lane, sg_kernel_full): first the site's window
     * (as win_check's, for a span of `size` bytes), then the table */
    W = win_next(j);
    gcc_jit_lvalue *d = local(j, U);
    gcc_jit_block *hit = nb(j), *miss = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, win_hit(j, W, Ar, k, d), hit, miss);
    j->b = hit;
    assign(j, P, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
        R_(gcc_jit_lvalue_access_field(W, NULL, j->wn_base)), R_(d)), NULL));
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = miss;
  }
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, ok, true), fast, slow);
  j->b = fast;
  gcc_jit_rvalue *base = gcc_jit_lvalue_as_rvalue(gcc_jit_lvalue_access_field(reg, NULL, j->r_base));
  assign(j, P, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, base, off), NULL));
  if (W) {
    /* refill the window: launch-wide and local regions only (mem_fast_window) */
    gcc_jit_block *keep = nb(j), *on = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LT, r, ci(j, U, (long)a->builtin_base)),
                                       keep, on);
    j->b = keep;
    win_fill(j, W, bin(j, GCC_JIT_BINARY_OP_MINUS, U, Ar, off), lim, size, k, base);
    gcc_jit_block_end_with_jump(j->b, NULL, on);
    j->b = on;
  }
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = slow;
  gcc_jit_rvalue *args[7] = {j->c, ci(j, j->t_i32, (long)insn_idx), L(j), Ar, ci(j, j->t_i32, size),
                             ci(j, j->t_i32, align), ci(j, j->t_i32, write ? IP_WRITE : IP_READ)};
  host_mark(j);
  assign(j, P, cast(j, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_mem), 7, args), j->t_u8p));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  return gcc_jit_lvalue_as_rvalue(P);
}

static gcc_jit_lvalue *typed_at(J *j, gcc_jit_rvalue *p, uint32_t byte_off, gcc_jit_type *t) {
  gcc_jit_rvalue *q = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, p, ci(j, j->t_i32, byte_off)), NULL);
  return gcc_jit_rvalue_dereference(cast(j, q, gcc_jit_type_get_pointer(t)), NULL);
}

/* True if pointer id is a Function variable of this instance itself (not an
 * access chain into it) and `size` bytes fit in it: each lane's access is to
 * its own private bytes, always in bounds and aligned. */
static bool private_direct(J *j, uint32_t inst, uint32_t id, uint32_t size) {
  const ld_value *v = &j->m->values[id];
  if (v->kind != LD_V_RESULT || v->u.insn->op != SpvOpVariable) return false;
  const ld_type *pt = v->u.insn->type ? v->u.insn->type->elem : NULL;
  if (!pt || size > pt->size) return false;
  (void)inst;
  return j->k->priv_bytes > 0;
}
static gcc_jit_rvalue *priv_ptr(J *j, uint32_t inst, uint32_t id) {
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_u[3],
      bin(j, GCC_JIT_BINARY_OP_MULT, j->t_u[3], cast(j, L(j), j->t_u[3]), R_(wfl(j, j->w_priv_stride))),
      ci(j, j->t_u[3], (long)j->privoff[vidx(j, inst, id)]));
  return gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_priv), off), NULL);
}

/* addr[l] = lane l's address (ptr), for the per-lane checks and paths. */
static void addr_lanes(J *j, uint32_t inst, uint32_t ptr) {
  jloop lp;
  loop_begin(j, &lp);
  assign(j, lane_arr(j, j->f_addr, L(j)), cast(j, V(j, inst, ptr, 0), j->t_u[3]));
  loop_end(j, &lp);
}
/* True when the kernel stores to global memory through a pointer whose
 * lanes step by the stored size (a whole subgroup writes whole consecutive
 * spans: saxpy's y[i], scan's out[...]).  Its windows then prefetch
 * nothing, loads included: in such kernels the software prefetches only
 * compete with the hardware's for the memory bus (saxpy 0.86-0.89x, scan
 * 0.91-0.92x the time at -j1 and -j2, stencil 0.99-1.01x), where a kernel
 * that only reads (reduce) gains from them (1.03-1.05x slower without).
 * The compress store's and the scattered store's prefetches stay.
 * SPIRV_SG_JIT_PREFETCH_ALL=1: every window prefetches. */
/* in stores to global memory through a pointer whose lanes step by the
 * stored size (needs J.lanes) */
static bool consec_global_store(J *j, const ld_insn *in) {
  const ld_module *m = j->m;
  if (in->op != SpvOpStore || in->n_ops < 2 || in->ops[0] >= m->bound || in->ops[1] >= m->bound) return false;
  const ld_type *pt = m->values[in->ops[0]].type, *vt = m->values[in->ops[1]].type;
  int64_t st = 0;
  return pt && pt->kind == LD_T_POINTER && pt->storage == SpvStorageClassCrossWorkgroup && vt && vt->size &&
         ld_uni_lane_stride(j->lanes, in->ops[0], &st) && st == (int64_t)vt->size;
}
bool win_prefetch_off(J *j) {
  if (!j->lanes || getenv("SPIRV_SG_JIT_PREFETCH_ALL")) return false;
  /* AMD's Zen only (the measurements above).  On a 2-core Xeon with
   * Sapphire Rapids' features (GCC: -march=cooperlake, -mtune=generic) the
   * prefetches gain in these kernels too: bench/run.py, -j1 and -j2, saxpy
   * 638 -> 450 and 370 -> 266 ps, scan 612 -> 424 and 388 -> 235 ps,
   * stencil and compact even or better.  SPIRV_SG_JIT_PREFETCH_OFF=1: off
   * there too (the rule as it was). */
  if (!zen_tuned(j->mflags) && !getenv("SPIRV_SG_JIT_PREFETCH_OFF")) return false;
  for (uint32_t i = 0; i < j->k->n_inst; i++) {
    const ld_function *fn = j->k->inst[i].fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++)
      for (uint32_t n = 0; n < fn->blocks[b].n_insns; n++)
        if (consec_global_store(j, &fn->blocks[b].insns[n])) return true;
  }
  return false;
}

/* The value a pointer derives from: through access chains, bitcasts,
 * copies and generic casts, to a parameter, a variable, or (clang -O0) the
 * Function variable a loaded pointer came from. */
static uint32_t ptr_root(const ld_module *m, uint32_t id) {
  for (int d = 0; d < 32 && id < m->bound; d++) {
    const ld_value *v = &m->values[id];
    if (v->kind != LD_V_RESULT || !v->u.insn || !v->u.insn->n_ops) return id;
    const ld_insn *in = v->u.insn;
    switch (in->op) {
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
    case SpvOpBitcast: case SpvOpCopyObject: case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
    case SpvOpGenericCastToPtrExplicit:
      id = in->ops[0];
      break;
    case SpvOpLoad: {
      const ld_type *t = in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
      if (!t || t->kind != LD_T_POINTER || t->storage != SpvStorageClassFunction) return id;
      id = in->ops[0];
      break;
    }
    default:
      return id;
    }
  }
  return id;
}

/* The kernel reads memory through a pointer derived from ptr's root (a
 * load, a block read, a copy's source; atomics rule out the stores
 * altogether, nt_plan): a store there finds its lines in the
 * cache (saxpy's y = a * x + y), where a non-temporal store would evict
 * them (saxpy 1.44x the time at -j1). */
static bool root_read(J *j, uint32_t ptr) {
  const ld_module *m = j->m;
  uint32_t r = ptr_root(m, ptr);
  for (uint32_t i = 0; i < j->k->n_inst; i++) {
    const ld_function *fn = j->k->inst[i].fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++)
      for (uint32_t n = 0; n < fn->blocks[b].n_insns; n++) {
        const ld_insn *in = &fn->blocks[b].insns[n];
        bool rd = in->op == SpvOpLoad || in->op == SpvOpSubgroupBlockReadINTEL || in->op == SpvOpCopyMemory ||
                  in->op == SpvOpCopyMemorySized;
        uint32_t p = in->op == SpvOpCopyMemory || in->op == SpvOpCopyMemorySized ? 1 : 0;
        if (rd && in->n_ops > p && in->ops[p] < m->bound && ptr_root(m, in->ops[p]) == r) return true;
      }
  }
  return false;
}

/* J.nt_ok: non-temporal stores where a window finds a large region.  Only
 * with AVX-512 (one vmovntdq per 64-byte line), only in a kernel with a
 * consecutive global store (win_prefetch_off's test) and without atomics:
 * non-temporal stores are weakly ordered, so another work-group's thread
 * could see an atomic's result before the data stored ahead of it; the
 * host fences (sfence) after each sg_groups call, before any other thread
 * reads what it stored.  SPIRV_SG_JIT_NO_NT=1 turns them off. */
bool nt_plan(J *j) {
  if (!has_flag(j->mflags, "-mavx512f") || getenv("SPIRV_SG_JIT_NO_NT") || !j->lanes) return false;
  bool wins = false;
  for (uint32_t i = 0; i < j->k->n_inst; i++) {
    const ld_function *fn = j->k->inst[i].fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++)
      for (uint32_t n = 0; n < fn->blocks[b].n_insns; n++) {
        const ld_insn *in = &fn->blocks[b].insns[n];
        if ((in->op >= SpvOpAtomicLoad && in->op <= SpvOpAtomicXor) || in->op == SpvOpAtomicFlagTestAndSet ||
            in->op == SpvOpAtomicFlagClear || in->op == SpvOpAtomicFMinEXT || in->op == SpvOpAtomicFMaxEXT ||
            in->op == SpvOpAtomicFAddEXT)
          return false;
        wins = wins || consec_global_store(j, in);
      }
  }
  return wins;
}

/* The window test of mem_fast_window (and of mem_fast_ under a select's
 * flag): from j->b, lane 0's address a0; a hit or a range test that passes
 * (refilling the window) sets fb (region base) and fo (a0's offset) and
 * goes to fast, anything else to gen.  With F, only while F holds (else
 * straight to gen).  Then the prefetch, in a block of its own before fast. */
static void win_check_at(J *j, uint32_t inst, uint32_t ptr, uint32_t size, uint32_t align, bool write,
                         gcc_jit_rvalue *F, gcc_jit_rvalue *at, gcc_jit_lvalue *fb, gcc_jit_lvalue *fo,
                         gcc_jit_lvalue *fnt, gcc_jit_block *fast, gcc_jit_block *gen);
static void win_check(J *j, uint32_t inst, uint32_t ptr, uint32_t size, uint32_t align, bool write,
                      gcc_jit_rvalue *F, gcc_jit_lvalue *fb, gcc_jit_lvalue *fo, gcc_jit_lvalue *fnt,
                      gcc_jit_block *fast, gcc_jit_block *gen) {
  win_check_at(j, inst, ptr, size, align, write, F, NULL, fb, fo, fnt, fast, gen);
}
/* win_check with lane 0's address given (at; NULL: V(ptr) of lane 0) */
static void win_check_at(J *j, uint32_t inst, uint32_t ptr, uint32_t size, uint32_t align, bool write,
                         gcc_jit_rvalue *F, gcc_jit_rvalue *at, gcc_jit_lvalue *fb, gcc_jit_lvalue *fo,
                         gcc_jit_lvalue *fnt, gcc_jit_block *fast, gcc_jit_block *gen) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_lvalue *W = win_next(j);
  gcc_jit_lvalue *a0 = local(j, U), *d = local(j, U), *reg0 = local(j, U), *lim = local(j, U), *off0 = local(j, U);
  uint32_t k = align_log2(align);
  uint64_t span = (uint64_t)size * j->S;
  bool dopf = j->prefetch && !j->win_pf_off;
  gcc_jit_block *hit = nb(j), *miss = nb(j), *upd = nb(j), *keep = nb(j), *pf = dopf ? nb(j) : fast;
  if (F) {
    gcc_jit_block *go = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, F, go, gen);
    j->b = go;
  }
  fuse_close(j);
  if (at) {
    assign(j, a0, at);
  } else {
    assign(j, j->lane, ci(j, j->t_i32, 0));
    assign(j, a0, cast(j, V(j, inst, ptr, 0), U));
  }
  gcc_jit_block_end_with_conditional(j->b, NULL, win_hit(j, W, R_(a0), k, d), hit, miss);
  j->b = hit;
  assign(j, fb, R_(gcc_jit_lvalue_access_field(W, NULL, j->wn_base)));
  assign(j, fo, R_(d));
  if (fnt) assign(j, fnt, R_(gcc_jit_lvalue_access_field(W, NULL, j->wn_nt)));
  gcc_jit_block_end_with_jump(j->b, NULL, pf);
  j->b = miss;
  assign(j, reg0, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(a0), ci(j, U, (long)a->shift)));
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions), R_(reg0));
  assign(j, lim, R_(gcc_jit_lvalue_access_field(reg, NULL, write ? j->r_wsize : j->r_size)));
  assign(j, off0, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(a0), ci(j, U, (long)a->offset_mask)));
  /* off0 < 2^48 and span small: off0 + span does not wrap */
  gcc_jit_rvalue *ok = cmp(j, GCC_JIT_COMPARISON_LE, bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(off0), ci(j, U, (long)span)), R_(lim));
  if (align > 1)
    ok = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, ok, cmp(j, GCC_JIT_COMPARISON_EQ,
             bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(a0), ci(j, U, align - 1)), ci(j, U, 0)));
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, ok, true), upd, gen);
  j->b = upd;
  assign(j, fb, R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_base)));
  assign(j, fo, R_(off0));
  if (fnt)   /* a large region whose base is 64-byte aligned (fast_contig tests the offset) */
    assign(j, fnt, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool,
        cmp(j, GCC_JIT_COMPARISON_GE, R_(lim), R_(gcc_jit_rvalue_dereference_field(j->h_wg, NULL, j->w_nt_min))),
        cmp(j, GCC_JIT_COMPARISON_EQ, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U,
            gcc_jit_context_new_bitcast(j->cx, NULL, R_(fb), U), ci(j, U, 63)), ci(j, U, 0))));
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(reg0), ci(j, U, (long)a->builtin_base)),
                                     keep, pf);
  j->b = keep;
  win_fill(j, W, bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(a0), R_(off0)), R_(lim), span, k, R_(fb));
  if (fnt) assign(j, gcc_jit_lvalue_access_field(W, NULL, j->wn_nt), R_(fnt));
  gcc_jit_block_end_with_jump(j->b, NULL, pf);
  if (dopf) {
    /* the access of a subgroup j->prefetch bytes on: consecutive subgroups
     * walk consecutive spans, and a prefetch never faults */
    gcc_jit_function *pff = gcc_jit_context_get_builtin_function(j->cx, "__builtin_prefetch");
    gcc_jit_rvalue *pa = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(fb),
        bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(fo), ci(j, U, (long)j->prefetch))), NULL);
    gcc_jit_rvalue *args[3] = {cast(j, pa, j->t_vp), ci(j, j->t_i32, write ? 1 : 0), ci(j, j->t_i32, 3)};
    gcc_jit_block_add_eval(pf, NULL, gcc_jit_context_new_call(j->cx, NULL, pff, 3, args));
    gcc_jit_block_end_with_jump(pf, NULL, fast);
  }
}

/* mem_fast_ in sg_kernel_full for consecutive addresses from lane 0's
 * (every lane active, stride = size): lane 0's address decides, through the
 * access site's window first (J.h_win).  A window is a region's admissible
 * lane-0 addresses, [lo, lo + (lim - 1) * align] in steps of align: with d =
 * a0 - lo rotated right by log2(align), d < lim holds exactly when a0 is
 * aligned, in the same region (d < 2^48 after the rotation's high bits are
 * clear) and the S * size bytes fit.  A miss runs mem_fast_'s test (the
 * region's size from the table); a pass refills the window, for launch-wide
 * and local regions only: their table entries do not change during a
 * sg_groups call, while the private ones change per subgroup
 * (emit_priv_regions), and built-in variables have no entry (size 0). */
static gcc_jit_block *mem_fast_window(J *j, uint32_t inst, uint32_t ptr, uint32_t size, uint32_t align,
                                      bool write) {
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_lvalue *fb = local(j, j->t_u8p), *fo = local(j, U), *full = local(j, j->t_bool);
  gcc_jit_lvalue *fnt = write && j->nt_ok && (uint64_t)size * j->S % 64 == 0 && !root_read(j, ptr) ? local(j, j->t_bool)
                                                                                                      : NULL;
  gcc_jit_block *gen = nb(j), *fast = nb(j), *slow = nb(j), *after = nb(j);
  assign(j, full, all_active(j));
  win_check(j, inst, ptr, size, align, write, NULL, fb, fo, fnt, fast, gen);
  /* out of range or misaligned: the per-lane path decides each lane */
  j->b = gen;
  addr_lanes(j, inst, ptr);
  gcc_jit_block_end_with_jump(j->b, NULL, slow);
  j->b = fast;
  j->fast_priv = false;
  j->fast_est = 0;
  j->fast_reg0 = NULL;
  j->contig = local(j, U);
  assign(j, j->contig, ci(j, U, 0));
  j->contig_only = true;
  j->fast_base = fb;
  j->fast_full = full;
  j->fast_off0 = fo;
  j->fast_nt = fnt;
  j->slow = slow;
  return after;
}

/* The lane stride of value id (instance inst) when the selects it depends
 * on took one arm whole (emit_select_uniform's J.sel_flag: the condition was
 * the same in every lane); *flag gets the AND of their flags (NULL: none
 * needed).  64-bit integer and pointer arithmetic only, where strides add
 * modulo 2^64 exactly as the addresses do.  Also for a value made in a
 * divergent block from operands with strides (hist's &bins[lid] under `if`):
 * the stride then holds between the lanes that ran it, the active ones. */
static bool cond_stride(J *j, uint32_t inst, uint32_t id, int64_t *st, gcc_jit_rvalue **flag, int depth) {
  const ld_module *m = j->m;
  /* also a value of a divergent block used in that block (hist's
   * `if (lh[lid]) ... &bins[lid]`: clang computes the address there) */
  if (ld_uni_lane_stride_in(j->lanes, id, j->cur_in, st)) return true;
  if (depth > 8 || id >= m->bound || m->values[id].kind != LD_V_RESULT) return false;
  const ld_insn *in = m->values[id].u.insn;
  const ld_type *t = in->type;
  int64_t s0, s1;
  if (!t || t->size != 8 || (t->kind != LD_T_INT && t->kind != LD_T_POINTER)) return false;
  if (j->lanes && !ld_uni_value_varies(j->lanes, id)) {   /* the same in every lane that makes it */
    *st = 0;
    return true;
  }
  switch (in->op) {
  case SpvOpSelect: {
    gcc_jit_lvalue *f = j->sel_flag ? j->sel_flag[vidx(j, inst, id)] : NULL;
    if (!f || in->n_ops < 3 || !ld_uni_lane_stride(j->lanes, in->ops[1], &s0)) return false;
    *st = s0;
    if (j->n_fsel < 8) j->fsel[j->n_fsel++] = id;
    *flag = *flag ? bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, *flag, R_(f)) : R_(f);
    return true;
  }
  case SpvOpIAdd: case SpvOpISub:
    if (in->n_ops != 2 || !cond_stride(j, inst, in->ops[0], &s0, flag, depth + 1) ||
        !cond_stride(j, inst, in->ops[1], &s1, flag, depth + 1))
      return false;
    *st = (int64_t)(in->op == SpvOpIAdd ? (uint64_t)s0 + (uint64_t)s1 : (uint64_t)s0 - (uint64_t)s1);
    return true;
  case SpvOpBitcast: case SpvOpCopyObject: {
    const ld_type *ft = in->n_ops == 1 && in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
    return ft && ft->size == 8 && (ft->kind == LD_T_INT || ft->kind == LD_T_POINTER) &&
           cond_stride(j, inst, in->ops[0], st, flag, depth + 1);
  }
  case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: {
    const ld_type *bt = in->n_ops == 2 ? m->values[in->ops[0]].type : NULL;
    const ld_type *it = in->n_ops == 2 ? m->values[in->ops[1]].type : NULL;
    if (!bt || bt->kind != LD_T_POINTER || !bt->elem || !bt->elem->size || !it || it->kind != LD_T_INT ||
        it->width != 64 || !cond_stride(j, inst, in->ops[0], &s0, flag, depth + 1) ||
        !cond_stride(j, inst, in->ops[1], &s1, flag, depth + 1))
      return false;
    *st = (int64_t)((uint64_t)s0 + (uint64_t)s1 * bt->elem->size);
    return true;
  }
  default:
    return false;
  }
}

/* Value id as an unsigned integer constant (its width's bits): false for
 * anything else, specialization constants included (their value is the
 * launch's to set). */
static bool uconst(const ld_module *m, uint32_t id, uint64_t *x) {
  if (id >= m->bound) return false;
  const ld_value *v = &m->values[id];
  const ld_type *t = v->type;
  if (v->kind != LD_V_CONSTANT || v->is_spec_constant || !v->u.bytes || !t || t->kind != LD_T_INT ||
      t->width < 1 || t->width > 64 || t->size > 8)
    return false;
  *x = 0;
  memcpy(x, v->u.bytes, t->size);
  if (t->width < 64) *x &= (1ull << t->width) - 1;
  return true;
}

/* What the edge from block label pred into block `to` tells of the
 * integer x: the edge is taken only when pred's OpBranchConditional
 * condition has the value that leads to `to`.  1: x <= *mx (an unsigned
 * comparison of x with a constant); 2: x != *mx (IEqual / INotEqual);
 * 0: nothing. */
static int edge_umax(const ld_module *m, uint32_t pred, const ld_block *to, uint32_t x, uint64_t *mx) {
  if (pred >= m->bound || m->values[pred].kind != LD_V_LABEL || !m->values[pred].u.block) return 0;
  const ld_block *b = m->values[pred].u.block;
  if (!b->n_insns) return 0;
  const ld_insn *t = &b->insns[b->n_insns - 1];
  if (t->op != SpvOpBranchConditional || t->n_ops < 3 || t->ops[1] == t->ops[2]) return 0;
  bool taken;
  if (t->ops[1] == to->label) taken = true;
  else if (t->ops[2] == to->label) taken = false;
  else return 0;
  uint32_t cid = t->ops[0];
  if (cid >= m->bound || m->values[cid].kind != LD_V_RESULT) return 0;
  const ld_insn *c = m->values[cid].u.insn;
  if (c->n_ops != 2) return 0;
  uint32_t a = c->ops[0], bb = c->ops[1], lhs, rhs;
  bool le;   /* lhs <= rhs, else lhs < rhs */
  switch (c->op) {
  case SpvOpULessThan: if (taken) { lhs = a; rhs = bb; le = false; } else { lhs = bb; rhs = a; le = true; } break;
  case SpvOpULessThanEqual: if (taken) { lhs = a; rhs = bb; le = true; } else { lhs = bb; rhs = a; le = false; } break;
  case SpvOpUGreaterThan: if (taken) { lhs = bb; rhs = a; le = false; } else { lhs = a; rhs = bb; le = true; } break;
  case SpvOpUGreaterThanEqual: if (taken) { lhs = bb; rhs = a; le = true; } else { lhs = a; rhs = bb; le = false; } break;
  case SpvOpIEqual:
  case SpvOpINotEqual:
    if (taken != (c->op == SpvOpINotEqual)) return 0;
    if (a == x && uconst(m, bb, mx)) return 2;
    if (bb == x && uconst(m, a, mx)) return 2;
    return 0;
  default:
    return 0;
  }
  uint64_t k;
  if (lhs != x || !uconst(m, rhs, &k) || (!le && k == 0)) return 0;
  *mx = le ? k : k - 1;
  return 1;
}

/* An upper bound of the unsigned integer value id from its definition, in
 * every lane and every execution: a constant, a logical right shift by a
 * constant, an AND with a constant, a remainder by a constant, a zero
 * extension (the source's width bounds it), a phi whose incoming values are
 * bounded, each by its own definition or by the branch that leads to the
 * phi (a loop counter: `for (r = 0; r < 16; r++)` gives r <= 15, from
 * r < 15 on the back edge that carries r + 1, or from r + 1 != 16).  False
 * if none is known below the type's own maximum. */
bool umax_of(const ld_module *m, uint32_t id, uint64_t *mx, int depth) {
  if (id >= m->bound || depth > 8) return false;
  const ld_value *v = &m->values[id];
  const ld_type *t = v->type;
  if (!t || t->kind != LD_T_INT || t->width < 1 || t->width > 64) return false;
  uint64_t tmax = t->width == 64 ? ~0ull : (1ull << t->width) - 1;
  if (v->kind == LD_V_CONSTANT) return uconst(m, id, mx);
  if (v->kind != LD_V_RESULT) return false;
  const ld_insn *in = v->u.insn;
  uint64_t a, b;
  switch (in->op) {
  case SpvOpUConvert: {
    const ld_type *st = in->n_ops == 1 && in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
    if (!st || st->kind != LD_T_INT || st->width < 1 || st->width > t->width) return false;
    if (!umax_of(m, in->ops[0], &a, depth + 1)) a = st->width == 64 ? ~0ull : (1ull << st->width) - 1;
    *mx = a;
    return a < tmax;
  }
  case SpvOpShiftRightLogical:
    /* by a constant (a variable shift could be 0) */
    if (in->n_ops != 2 || !uconst(m, in->ops[1], &b) || b >= t->width) return false;
    if (!umax_of(m, in->ops[0], &a, depth + 1)) a = tmax;
    *mx = a >> b;
    return b > 0 || *mx < tmax;
  case SpvOpBitwiseAnd: {
    if (in->n_ops != 2) return false;
    bool ka = umax_of(m, in->ops[0], &a, depth + 1), kb = umax_of(m, in->ops[1], &b, depth + 1);
    if (!ka && !kb) return false;
    *mx = !ka ? b : !kb ? a : a < b ? a : b;   /* x & y <= min(x, y) */
    return true;
  }
  case SpvOpUMod:
    /* x mod c <= c - 1 (c is not 0: a remainder by 0 is undefined and
     * gives no bound) */
    if (in->n_ops != 2 || !uconst(m, in->ops[1], &b) || b == 0) return false;
    *mx = b - 1;
    if (umax_of(m, in->ops[0], &a, depth + 1) && a < *mx) *mx = a;
    return true;
  case SpvOpPhi: {
    /* every incoming value bounded: by the edge's branch condition, as
     * phi + c with the edge's condition on the phi, or by its definition.
     * phi + 1 on an edge taken when it is not K, with every other incoming
     * value below K: the phi stays below K (it starts below K, grows by one
     * and leaves at K) */
    if (in->n_ops < 2 || in->n_ops % 2 || getenv("SPIRV_SG_JIT_NO_PHI_BOUND")) return false;
    uint64_t best = 0, ne_k = 0;
    bool ne = false;
    for (uint32_t q = 0; q < in->n_ops; q += 2) {
      uint32_t val = in->ops[q], pred = in->ops[q + 1];
      int kind = edge_umax(m, pred, in->block, val, &a);
      if (kind == 1) {
        if (a > best) best = a;
        continue;
      }
      const ld_insn *ai = val < m->bound && m->values[val].kind == LD_V_RESULT ? m->values[val].u.insn : NULL;
      uint64_t c;
      if (ai && ai->op == SpvOpIAdd && ai->n_ops == 2 &&
          ((ai->ops[0] == id && uconst(m, ai->ops[1], &c)) || (ai->ops[1] == id && uconst(m, ai->ops[0], &c)))) {
        uint64_t pk;
        if (edge_umax(m, pred, in->block, id, &pk) == 1 && pk <= tmax - c) {
          a = pk + c;
        } else if (kind == 2 && c == 1 && !ne && a > 0) {
          ne = true;
          ne_k = a;
          a = ne_k - 1;
        } else {
          return false;
        }
      } else if (!umax_of(m, val, &a, depth + 1)) {
        return false;
      }
      if (a > best) best = a;
    }
    if (ne && best > ne_k - 1) return false;
    *mx = best;
    return best < tmax;
  }
  default:
    return false;
  }
}

/* ptr is &v[i] of a module variable v (Workgroup, CrossWorkgroup or
 * UniformConstant), an array of elements of e bytes at offset 0 of its own
 * region, with i provably in [0, imax] (umax_of; below 2^(w-1) for an index
 * of w bits, so signed and unsigned readings agree), and every access of
 * `size` bytes there inside v and aligned (e a multiple of align): *need =
 * imax * e + size, the bytes the region must hold for every lane's access
 * to be in bounds.  hist's atomic_inc(&lh[(x * K) >> 24]) into lh[256]:
 * one compare instead of each lane's tests. */
static bool bounded_chain(J *j, uint32_t ptr, uint32_t size, uint32_t align, uint64_t *need) {
  const ld_module *m = j->m;
  if (ptr >= m->bound || m->values[ptr].kind != LD_V_RESULT || getenv("SPIRV_SG_JIT_NO_BOUNDED")) return false;
  const ld_insn *in = m->values[ptr].u.insn;
  uint32_t idx;
  uint64_t z;
  if ((in->op == SpvOpAccessChain || in->op == SpvOpInBoundsAccessChain) && in->n_ops == 2)
    idx = in->ops[1];
  else if ((in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain) && in->n_ops == 3 &&
           uconst(m, in->ops[1], &z) && z == 0)
    idx = in->ops[2];
  else
    return false;
  if (in->ops[0] >= m->bound || idx >= m->bound || m->values[in->ops[0]].kind != LD_V_VARIABLE) return false;
  const ld_variable *var = m->values[in->ops[0]].u.var;
  const ld_type *at = var->pointee, *it = m->values[idx].type;
  if ((var->storage != SpvStorageClassWorkgroup && var->storage != SpvStorageClassCrossWorkgroup &&
       var->storage != SpvStorageClassUniformConstant) || !at || at->kind != LD_T_ARRAY || !at->elem || !at->elem->size ||
      (var->address & m->layout.offset_mask) != 0 || !it || it->kind != LD_T_INT)
    return false;
  uint64_t e = at->elem->size, imax;
  if (!umax_of(m, idx, &imax, 0) || imax >= (1ull << 32) || (it->width < 64 && imax >> (it->width - 1)) ||
      (align > 1 && e % align) || size > e)
    return false;
  /* the region's size (or writable size: 0 for a constant) is tested at
   * run time, so a store into a constant table still faults */
  *need = imax * e + size;
  return *need <= at->size;   /* else the test would always fail: the per-lane tests decide */
}

/* The fast path of a memory access: tests, over the active lanes only, that
 * every address lies in the region of the first active lane, in bounds
 * (readable or writable) and aligned: one OR-reduction over addr[], which
 * GCC vectorizes (consecutive addresses: lane 0's alone, see quick below).
 * With !allow_partial the whole subgroup must be active as well.  Returns
 * the join block; j->b is the fast block (j->fast_base holds the region
 * base, j->fast_full whether every lane is active, j->fast_off0 the first
 * active lane's offset) and j->slow the per-lane checked path (jit_rt_ldst).
 * NULL: no fast path (j->b unchanged). */
/* Under the flags of the selects cond_stride just walked (J.fsel), each
 * such select is lane 0's pick plus l times its stride: set (on) or clear
 * those values' nx_over.  Returns how many were set. */
static uint32_t sel_over(J *j, uint32_t inst, bool on) {
  const ld_module *m = j->m;
  uint32_t n = 0;
  if (on && !j->nx_over && !(j->nx_over = calloc(m->bound, sizeof *j->nx_over))) return 0;
  for (uint32_t q = 0; q < j->n_fsel; q++) {
    uint32_t id = j->fsel[q];
    gcc_jit_lvalue *b0 = j->sel_b0 ? j->sel_b0[vidx(j, inst, id)] : NULL;
    const ld_insn *in = m->values[id].u.insn;
    int64_t s = 0;
    if (!b0 || !ld_uni_lane_stride(j->lanes, in->ops[1], &s)) continue;
    if (!on) { j->nx_over[id] = NULL; continue; }
    gcc_jit_type *U = j->t_u[3];
    gcc_jit_rvalue *st = cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)s), U);
    j->nx_over[id] = cast(j, bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(b0), bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), st)),
                          scal(j, in->type));
    n++;
  }
  return n;
}

static gcc_jit_block *mem_fast_(J *j, uint32_t inst, uint32_t ptr, uint32_t size, uint32_t align, bool write,
                                bool want_contig, bool allow_partial, bool vwin) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  /* F: the addresses are consecutive while F holds (cond_stride) */
  gcc_jit_rvalue *F = NULL;
  if (j->full && j->h_win && want_contig && (align <= 1 || size % align == 0)) {
    int64_t st = 0;
    if (ld_uni_lane_stride(j->lanes, ptr, &st) && st == (int64_t)size)
      return mem_fast_window(j, inst, ptr, size, align, write);
    j->n_fsel = 0;
    if (getenv("SPIRV_SG_JIT_NO_SELFLAG") || !cond_stride(j, inst, ptr, &st, &F, 0) || st != (int64_t)size)
      F = NULL;
  }
  gcc_jit_lvalue *bad = local(j, U), *a0 = local(j, U), *lim = local(j, U), *reg0 = local(j, U);
  gcc_jit_lvalue *m0 = local(j, U), *m1 = local(j, U), *full = local(j, j->t_bool);
  j->fast_priv = false;
  j->fast_est = 0;
  j->fast_nt = NULL;
  j->fast_reg0 = F ? NULL : reg0;   /* the window path (F) never computes it */
  j->contig_only = false;
  j->contig = NULL;   /* consecutive addresses: tested only when fast_contig can use it */
  j->fast_base = local(j, j->t_u8p);
  j->fast_off0 = local(j, U);
  /* lane-affine with the element size as stride (ld_uni_lane_stride): with
   * every lane active the addresses are consecutive, no test needed */
  int64_t stride = 0;
  bool known = want_contig && ld_uni_lane_stride(j->lanes, ptr, &stride) && stride == (int64_t)size;
  if (want_contig) {
    j->contig = local(j, U);
    assign(j, j->contig, ci(j, U, 0));
  }
  /* while F holds, the window test of lane 0's address (every lane active:
   * sg_kernel_full) and on to the fast block with contig 0; otherwise the
   * tests below */
  gcc_jit_block *fast2 = NULL;
  gcc_jit_lvalue *first = local(j, j->t_i32);
  /* An atomic in an if-converted then-block of sg_kernel_full (vwin) whose
   * active lanes' addresses step by the element size (cond_stride, hist's
   * &bins[lid] under `if (lh[lid])`): the first active lane's address less
   * its lanes before is a virtual lane 0, and the window test of its whole
   * subgroup's span (S * size bytes) admits every lane between, the active
   * ones included.  A miss or a failed test goes on to the tests below (the
   * two ends).  The fast block then has the region's base, the first active
   * lane and its offset, its region (deferred atomics) and addr[] (the
   * per-lane plain path): hist's two-ends test read the first lane's
   * address back from addr[] right after writing it, and the regions table.
   * SPIRV_SG_JIT_NO_VWIN=1: the tests below alone. */
  int64_t vst = 0;
  gcc_jit_rvalue *vflag = NULL;
  if (vwin && !F && !j->full && j->in_full && j->cur_tw && j->h_win && !j->one_lane && j->S <= 64 &&
      (align <= 1 || size % align == 0) && !getenv("SPIRV_SG_JIT_NO_VWIN") &&
      cond_stride(j, inst, ptr, &vst, &vflag, 0) && !vflag && vst == (int64_t)size) {
    gcc_jit_block *gen0 = nb(j), *wfast = nb(j);
    fast2 = nb(j);
    uint64_t fm = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
    fuse_close(j);
    /* the then-block runs only with some lane (the head skips it otherwise);
     * the top lane's bit keeps ctz defined regardless */
    assign(j, first, ctz64(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U,
        bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, R_(j->cur_tw), U),
            cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)fm), U)),
        cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)(1ull << (j->S - 1))), U))));
    gcc_jit_lvalue *v0 = local(j, U);
    assign(j, j->lane, R_(first));
    assign(j, v0, bin(j, GCC_JIT_BINARY_OP_MINUS, U, cast(j, V(j, inst, ptr, 0), U),
                      bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, R_(first), U), ci(j, U, size))));
    win_check_at(j, inst, ptr, size, align, write, NULL, R_(v0), j->fast_base, j->fast_off0, NULL, wfast, gen0);
    j->b = wfast;
    assign(j, j->fast_off0, bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(j->fast_off0),
                                bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, R_(first), U), ci(j, U, size))));
    assign(j, reg0, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(v0), ci(j, U, (long)j->m->layout.shift)));
    assign(j, full, all_active(j));
    addr_lanes(j, inst, ptr);
    if (want_contig) assign(j, j->contig, ci(j, U, 1));   /* not tested: not consecutive */
    j->fast_est = vst;
    gcc_jit_block_end_with_jump(j->b, NULL, fast2);
    j->b = gen0;
  }
  if (F) {
    gcc_jit_block *gen0 = nb(j);
    fast2 = nb(j);
    gcc_jit_block *wfast = nb(j);
    uint32_t nov = sel_over(j, inst, true);
    win_check(j, inst, ptr, size, align, write, F, j->fast_base, j->fast_off0, NULL, wfast, gen0);
    if (nov) sel_over(j, inst, false);
    j->b = wfast;
    assign(j, full, all_active(j));
    gcc_jit_block_end_with_jump(j->b, NULL, fast2);
    j->b = gen0;
  }
  bool quick = want_contig && (align <= 1 || size % align == 0);
  /* quick: lane 0's address decides the fast path once the addresses are
   * consecutive (known: by the lane stride; otherwise tested on the lanes'
   * pointers where they are, against lane 0's + l * size: a copy into
   * addr[] first would be read back as vectors right after GCC wrote its
   * first lanes one by one, a store-forwarding stall); addr[] is filled
   * only on the way to the per-lane checks. */
  if (quick) {
    fuse_close(j);
    assign(j, j->lane, ci(j, j->t_i32, 0));
    assign(j, a0, cast(j, V(j, inst, ptr, 0), U));
  } else {
    addr_lanes(j, inst, ptr);
  }
  /* every lane active? the first active lane */
  uint64_t full0 = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
  uint64_t full1 = j->S > 64 ? (j->S >= 128 ? ~0ull : (1ull << (j->S - 64)) - 1) : 0;
  if (j->full) {   /* sg_kernel_full: every lane, the first is lane 0 */
    assign(j, full, all_active(j));
    assign(j, first, ci(j, j->t_i32, 0));
  } else {
    assign(j, m0, top_m(j, 0));
    assign(j, m1, top_m(j, 1));
    assign(j, full, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool,
        cmp(j, GCC_JIT_COMPARISON_EQ, R_(m0), cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)full0), U)),
        cmp(j, GCC_JIT_COMPARISON_EQ, R_(m1), cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)full1), U))));
    gcc_jit_rvalue *c0 = ctz64(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(m0), ci(j, U, 0)));
    if (j->S > 64)
      assign(j, first, sel(j, cmp(j, GCC_JIT_COMPARISON_NE, R_(m0), ci(j, U, 0)), c0,
                           bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, ci(j, j->t_i32, 64),
                               ctz64(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(m1), ci(j, U, 1)))), j->t_i32));
    else   /* the mask is never empty while code runs; | 0 keeps ctz defined */
      assign(j, first, sel(j, cmp(j, GCC_JIT_COMPARISON_NE, R_(m0), ci(j, U, 0)), c0, ci(j, j->t_i32, 0), j->t_i32));
  }
  j->fast_first = first;
  if (!quick)
    assign(j, a0, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(fld(j, j->f_addr)), R_(first))));
  assign(j, reg0, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(a0), ci(j, U, (long)a->shift)));
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions), R_(reg0));
  assign(j, lim, R_(gcc_jit_lvalue_access_field(reg, NULL, write ? j->r_wsize : j->r_size)));
  assign(j, bad, ci(j, U, 0));
  gcc_jit_block *fast = nb(j), *slow = nb(j), *after = nb(j);
  if (quick) {
    /* Consecutive addresses first (one vector compare): then lane 0's
     * address alone decides, since the span off0 .. off0 + S*size stays
     * inside the region's offset bits when it fits its size, and lane l's
     * alignment is lane 0's (size is a multiple of it). */
    /* gen_a: the per-lane tests with addr[] already filled by the test
     * loop (which writes the addresses it computes: a subgroup whose lanes
     * are not consecutive, transpose's scattered rows, computed them twice).
     * Not under a select's flag (F: the window test first, this loop only
     * where the flag fails; stencil's clamped neighbours were 5% slower) */
    bool keep_addr = !known && !F && !getenv("SPIRV_SG_JIT_NO_TEST_ADDR");
    gcc_jit_block *q = nb(j), *gen = nb(j), *gen_a = keep_addr ? nb(j) : gen;
    if (!known) {
      /* only with every lane active (a partial mask, compact's `if (keep)`,
       * goes straight to the per-lane tests; contig matters only with
       * fast_full) */
      gcc_jit_block *test = nb(j);
      gcc_jit_block_end_with_conditional(j->b, NULL, R_(full), test, gen);
      j->b = test;
      loop_begin(j, &lp);
      gcc_jit_rvalue *ad = cast(j, V(j, inst, ptr, 0), U);
      if (keep_addr) {
        assign(j, lane_arr(j, j->f_addr, L(j)), ad);
        ad = R_(lane_arr(j, j->f_addr, L(j)));
      }
      assign(j, j->contig, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(j->contig),
          bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, ad,
              bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(a0),
                  bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), ci(j, U, size))))));
      loop_end(j, &lp);
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(j->contig), ci(j, U, 0)), q, gen_a);
    } else {
      gcc_jit_block_end_with_conditional(j->b, NULL, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, R_(full),
          cmp(j, GCC_JIT_COMPARISON_EQ, R_(j->contig), ci(j, U, 0))), q, gen);
    }
    j->b = q;
    uint64_t span = (uint64_t)size * j->S;
    gcc_jit_rvalue *off0 = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(a0), ci(j, U, (long)a->offset_mask));
    gcc_jit_rvalue *ok = cmp(j, GCC_JIT_COMPARISON_GE, R_(lim), ci(j, U, (long)span));
    ok = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, ok,
             cmp(j, GCC_JIT_COMPARISON_LE, off0, bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(lim), ci(j, U, (long)span))));
    if (align > 1)
      ok = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, ok, cmp(j, GCC_JIT_COMPARISON_EQ,
               bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(a0), ci(j, U, align - 1)), ci(j, U, 0)));
    gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, ok, true), fast, gen_a);
    j->b = gen;
    addr_lanes(j, inst, ptr);   /* the lanes' addresses for the per-lane checks and the slow path */
    if (gen_a != gen) {
      gcc_jit_block_end_with_jump(j->b, NULL, gen_a);
      j->b = gen_a;
    }
    if (known && j->full) {
      /* Every lane active and the addresses consecutive: a failed range
       * check leaves nothing for a per-lane test to pass, so the per-lane
       * path (which decides each lane itself) gets the addresses, and the
       * fast block is the block copy alone. */
      gcc_jit_block_end_with_jump(j->b, NULL, slow);
      j->contig_only = true;
      goto fast_block;
    }
    assign(j, a0, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(fld(j, j->f_addr)), R_(first))));
    assign(j, reg0, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(a0), ci(j, U, (long)a->shift)));
    assign(j, lim, R_(gcc_jit_lvalue_access_field(reg, NULL, write ? j->r_wsize : j->r_size)));
  }
  /* lim < size: nothing fits (also keeps lim - size from wrapping) */
  gcc_jit_lvalue *room = local(j, U);
  assign(j, room, bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(lim), ci(j, U, size)));
  gcc_jit_rvalue *none = cmp(j, GCC_JIT_COMPARISON_LT, R_(lim), ci(j, U, size));
  /* Lanes whose addresses step by a known stride (cond_stride, also under
   * an if: hist's &bins[lid]): the two ends of the lanes that may be active
   * decide for every lane between them (same region, offsets in bounds, the
   * first aligned and the stride a multiple of the alignment; |stride| <
   * 2^32 and at most 63 steps keep the lanes between the ends).  The lanes
   * that may be active: the if-converted then-block's word, else the stack
   * entry's mask, a superset of mask[] (a lane outside the active ones only
   * makes the test stricter: the per-lane path then decides). */
  int64_t est = 0;
  gcc_jit_rvalue *eflag = NULL;
  bool ends = j->S <= 64 && !j->one_lane && !getenv("SPIRV_SG_JIT_NO_AFFINE_ENDS") &&
              cond_stride(j, inst, ptr, &est, &eflag, 0) && !eflag && est != 0 &&
              est < ((int64_t)1 << 32) && est > -((int64_t)1 << 32) && (align <= 1 || est % (int64_t)align == 0);
  uint64_t need = 0;
  if (!ends && bounded_chain(j, ptr, size, align, &need)) {
    /* every lane's address is in the variable's region (reg0's: the first
     * active lane's) at a multiple of the element size, below need - size:
     * the region's size decides for all */
    assign(j, bad, cast(j, cmp(j, GCC_JIT_COMPARISON_LT, R_(lim), ci(j, U, (long)need)), U));
    if (want_contig && !quick && !known) assign(j, j->contig, ci(j, U, 1));   /* not tested: not consecutive */
  } else if (ends) {
    gcc_jit_lvalue *act = local(j, U), *lo = local(j, j->t_i32), *ae[2] = {local(j, U), local(j, U)};
    uint64_t fm = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
    gcc_jit_rvalue *fmr = cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)fm), U);
    if (j->full) assign(j, act, fmr);
    else if (j->cur_tw) assign(j, act, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, R_(j->cur_tw), U), fmr));
    else assign(j, act, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(m0), fmr));
    fuse_close(j);
    assign(j, lo, ctz64(j, R_(act)));
    gcc_jit_function *clz = gcc_jit_context_get_builtin_function(j->cx, "__builtin_clzll");
    gcc_jit_rvalue *ca[1] = {cast(j, R_(act), gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_UNSIGNED_LONG_LONG))};
    gcc_jit_rvalue *hi = bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, ci(j, j->t_i32, 63),
                             cast(j, gcc_jit_context_new_call(j->cx, NULL, clz, 1, ca), j->t_i32));
    assign(j, j->lane, R_(lo));
    assign(j, ae[0], cast(j, V(j, inst, ptr, 0), U));
    assign(j, ae[1], bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(ae[0]),
        bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, hi, R_(lo)), U),
            cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)est), U))));
    gcc_jit_rvalue *b = NULL;
    for (int e = 0; e < 2; e++) {
      gcc_jit_rvalue *be = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U,
          bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(ae[e]), ci(j, U, (long)a->shift)), R_(reg0)),
          cast(j, cmp(j, GCC_JIT_COMPARISON_GT, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(ae[e]), ci(j, U, (long)a->offset_mask)),
                      R_(room)), U));
      b = b ? bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b, be) : be;
    }
    if (align > 1) b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(ae[0]), ci(j, U, align - 1)));
    assign(j, bad, b);
    j->fast_est = est;
    if (want_contig && !quick && !known) assign(j, j->contig, ci(j, U, 1));   /* not tested: not consecutive */
  } else if ((align & (align - 1)) == 0 && !getenv("SPIRV_SG_JIT_OLD_LANE_CHECK")) {
    /* One unsigned maximum per lane: d = addr - (reg0 << shift) is the
     * offset where the region is reg0's, and at least 2^shift (or wrapped
     * past 2^64 - 2^shift) where it is another's; rotated right by
     * log2(align), a misaligned offset's low bits land on top.  So a lane
     * passes iff rotr(d, k) <= rm = min(room, offset_mask) >> k (rm <
     * 2^shift >> k, aligned offsets compare as d <= room), and the lanes
     * pass iff the maximum over the active ones does (an inactive lane
     * counts 0).  Three vector operations per lane against eleven for the
     * three tests one by one: transpose's scattered rows. */
    uint32_t k = align > 1 ? align_log2(align) : 0;
    gcc_jit_lvalue *base0 = local(j, U), *rm = local(j, U), *mx = local(j, U);
    assign(j, base0, bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, R_(reg0), ci(j, U, (long)a->shift)));
    assign(j, rm, R_(room));
    gcc_jit_block *clamp = nb(j), *go = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_GT, R_(rm), ci(j, U, (long)a->offset_mask)), clamp, go);
    j->b = clamp;
    assign(j, rm, ci(j, U, (long)a->offset_mask));
    gcc_jit_block_end_with_jump(j->b, NULL, go);
    j->b = go;
    if (k) assign(j, rm, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(rm), ci(j, U, k)));
    assign(j, mx, ci(j, U, 0));
    loop_begin(j, &lp);
    gcc_jit_rvalue *ad = remat(j, inst, ptr) ? R_(lane_arr(j, j->f_addr, L(j))) : cast(j, V(j, inst, ptr, 0), U);
    gcc_jit_lvalue *d = local(j, U);
    assign(j, d, bin(j, GCC_JIT_BINARY_OP_MINUS, U, ad, R_(base0)));
    if (k) assign(j, d, rotr_align(j, d, k));
    if (!j->full)
      assign(j, d, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(d),
                       MASKN(j, U)));
    gcc_jit_block *up = nb(j), *keep = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_GT, R_(d), R_(mx)), up, keep);
    j->b = up;
    assign(j, mx, R_(d));
    gcc_jit_block_end_with_jump(j->b, NULL, keep);
    j->b = keep;
    if (want_contig && !quick && !known)
      assign(j, j->contig, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(j->contig), bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, ad,
          bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(arr_at(j, R_(fld(j, j->f_addr)), 0)),
              bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), ci(j, U, size))))));
    loop_end(j, &lp);
    assign(j, bad, cast(j, cmp(j, GCC_JIT_COMPARISON_GT, R_(mx), R_(rm)), U));
  } else {
  loop_begin(j, &lp);
  /* the lanes' own pointers, not addr[] (filled just above: the
   * store-forwarding stall of the quick path's comment); but addr[] for a
   * recomputed pointer (remat_plan), which addr_lanes wrote as whole
   * vectors, rather than the expression a third time */
  gcc_jit_rvalue *ad = remat(j, inst, ptr) ? R_(lane_arr(j, j->f_addr, L(j))) : cast(j, V(j, inst, ptr, 0), U);
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, ad, ci(j, U, (long)a->offset_mask));
  gcc_jit_rvalue *b = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, ad, ci(j, U, (long)a->shift)), R_(reg0));
  if (align > 1) b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, ad, ci(j, U, align - 1)));
  b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b, cast(j, cmp(j, GCC_JIT_COMPARISON_GT, off, R_(room)), U));
  gcc_jit_rvalue *ml = MASKN(j, U);
  assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad), bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, b, ml)));
  if (want_contig && !quick && !known)
    assign(j, j->contig, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(j->contig), bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, ad,
        bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(arr_at(j, R_(fld(j, j->f_addr)), 0)),
            bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), ci(j, U, size))))));
  loop_end(j, &lp);
  }
  gcc_jit_block *c1 = nb(j), *c2 = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, none, slow, c1);
  gcc_jit_block_end_with_conditional(c1, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)), c2, slow);
  if (allow_partial) gcc_jit_block_end_with_jump(c2, NULL, fast);
  else gcc_jit_block_end_with_conditional(c2, NULL, R_(full), fast, slow);
fast_block:
  j->b = fast;
  assign(j, j->fast_base, R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_base)));
  j->fast_full = full;
  assign(j, j->fast_off0, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(a0), ci(j, U, (long)a->offset_mask)));
  if (fast2) {
    gcc_jit_block_end_with_jump(j->b, NULL, fast2);
    j->b = fast2;
  }
  j->slow = slow;
  return after;
}
/* The fast path of an access through a pointer to Function storage (a
 * private array indexed at run time, clang -O2's acc[r]): every active lane
 * addresses its own private memory (region priv_base + lane), in bounds and
 * aligned, tested with one OR-reduction as in mem_fast_; the fast block then
 * reaches lane l's bytes at priv + l * priv_stride + offset, an inactive lane
 * at offset 0 of its own memory (valid: priv_bytes >= size).  Returns the
 * join block, j->b the fast block, j->slow the per-lane checked path; NULL:
 * not applicable (j->b unchanged). */
static bool priv_pointer(J *j, uint32_t ptr) {
  const ld_type *t = j->m->values[ptr].type;
  return t && t->kind == LD_T_POINTER && t->storage == SpvStorageClassFunction;
}
static gcc_jit_block *mem_priv(J *j, uint32_t inst, uint32_t ptr, uint32_t size, uint32_t align) {
  const ld_addr_layout *a = &j->m->layout;
  jit_kernel *k = j->k;
  uint64_t n_table = (uint64_t)1 << (j->m->addr_bits - a->shift);
  if (!priv_pointer(j, ptr) || k->priv_bytes < size || a->priv_base >= n_table || n_table - a->priv_base < j->S)
    return NULL;
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  gcc_jit_lvalue *bad = local(j, U), *full = local(j, j->t_bool);
  assign(j, full, all_active(j));
  assign(j, bad, ci(j, U, 0));
  loop_begin(j, &lp);
  gcc_jit_rvalue *ad = cast(j, V(j, inst, ptr, 0), U);
  assign(j, lane_arr(j, j->f_addr, L(j)), ad);
  ad = R_(lane_arr(j, j->f_addr, L(j)));
  gcc_jit_rvalue *own = bin(j, GCC_JIT_BINARY_OP_PLUS, U, cast(j, L(j), U), ci(j, U, (long)a->priv_base));
  gcc_jit_rvalue *b = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, ad, ci(j, U, (long)a->shift)), own);
  if (align > 1) b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, ad, ci(j, U, align - 1)));
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, ad, ci(j, U, (long)a->offset_mask));
  b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b, cast(j, cmp(j, GCC_JIT_COMPARISON_GT, off, ci(j, U, (long)(k->priv_bytes - size))), U));
  gcc_jit_rvalue *ml = MASKN(j, U);
  assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad), bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, b, ml)));
  loop_end(j, &lp);
  gcc_jit_block *fast = nb(j), *slow = nb(j), *after = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)), true), fast, slow);
  j->b = fast;
  j->fast_priv = true;
  j->fast_reg0 = NULL;
  j->fast_full = full;
  j->contig = NULL;
  j->slow = slow;
  return after;
}
/* Lane l's host pointer in mem_priv's fast block (an inactive lane: its own
 * offset 0). */
static gcc_jit_rvalue *priv_lane_ptr(J *j) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(lane_arr(j, j->f_addr, L(j))), ci(j, U, (long)a->offset_mask));
  gcc_jit_rvalue *ml = MASKN(j, U);
  off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, off, ml);
  off = bin(j, GCC_JIT_BINARY_OP_PLUS, U, off,
            bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), R_(wfl(j, j->w_priv_stride))));
  return gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_priv), off), NULL);
}

/* True if value id of instance inst is a table of an Intel shuffle, which
 * a lane permute reads as one 64-byte vector, or the value of a compressed
 * store (compress_store), which reads it so too. */
static uint32_t compress_plan(J *j, const ld_insn *in, uint32_t size);
static bool feeds_vector(J *j, uint32_t inst, uint32_t id) {
  const ld_function *fn = j->k->inst[inst].fn;
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
      const ld_insn *u = &fn->blocks[b].insns[i];
      if (u->op == SpvOpStore && u->n_ops >= 2 && u->ops[1] == id && j->m->values[id].type &&
          compress_plan(j, u, j->m->values[id].type->size) && !getenv("SPIRV_SG_JIT_NO_VCOPY_CS"))
        return true;
      bool two = u->op == SpvOpSubgroupShuffleDownINTEL || u->op == SpvOpSubgroupShuffleUpINTEL;
      if ((two || u->op == SpvOpSubgroupShuffleINTEL || u->op == SpvOpSubgroupShuffleXorINTEL) &&
          ((u->n_ops > 0 && u->ops[0] == id) || (two && u->n_ops > 1 && u->ops[1] == id)))
        return true;
    }
  return false;
}
/* In the fast block of an if-converted then-block whose lanes are one word
 * (J.cur_tw, exact: mask[] is not rewritten), with the active lanes'
 * addresses consecutive elements (mem_fast_'s ends test, J.fast_est ==
 * bytes), 16 lanes of 4 bytes or 8 of 8 and AVX-512: one masked vector
 * move between the value's lane array and lane 0's place (the first active
 * lane's offset less its lanes before; a masked-off lane neither reads nor
 * writes, nor faults).  A load leaves an inactive lane's old value, as the
 * blend of the lane loop does.  The loop it replaces read or wrote each
 * lane through its own pointer (a data-dependent `if (c) y[i] = ...`).
 * SPIRV_SG_JIT_NO_MASKED_VEC=1: that loop. */
static bool masked_vec(J *j, gcc_jit_field *slot, uint32_t bytes, bool write, gcc_jit_block *after) {
  if (!j->cur_tw || j->one_lane || j->full || !slot || j->fast_priv || j->fast_est != (int64_t)bytes ||
      j->S * bytes != 64 || !has_flag(j->mflags, "-mavx512f") || getenv("SPIRV_SG_JIT_NO_MASKED_VEC"))
    return false;
  gcc_jit_type *U = j->t_u[3], *K = j->t_u[1];
  uint64_t fullm = (1ull << j->S) - 1;
  fuse_close(j);
  gcc_jit_lvalue *km = local(j, K), *da = local(j, U);
  assign(j, km, cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, R_(j->cur_tw), U), ci(j, U, (long)fullm)), K));
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(j->fast_off0),
      bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, R_(j->fast_first), U), ci(j, U, bytes)));
  assign(j, da, bin(j, GCC_JIT_BINARY_OP_PLUS, U, gcc_jit_context_new_bitcast(j->cx, NULL, R_(j->fast_base), U), off));
  gcc_jit_type *et = bytes == 4 ? j->t_u[2] : j->t_u[3];
  gcc_jit_type *vt = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(et, j->S), bytes);
  gcc_jit_lvalue *lv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(
      slot_lv(j, slot, 1, 0, ci(j, j->t_i32, 0)), NULL), gcc_jit_type_get_pointer(vt)), NULL);
  gcc_jit_lvalue *v = local(j, vt);
  assign(j, v, R_(lv));
  char tpl[64];
  gcc_jit_extended_asm *x;
  if (write) {
    snprintf(tpl, sizeof tpl, "vmovdqu%u %%0, (%%1)%%{%%2%%}", bytes * 8);
    x = gcc_jit_block_add_extended_asm(j->b, NULL, tpl);
    gcc_jit_extended_asm_add_input_operand(x, NULL, "v", R_(v));
  } else {
    snprintf(tpl, sizeof tpl, "vmovdqu%u (%%1), %%0%%{%%2%%}", bytes * 8);
    x = gcc_jit_block_add_extended_asm(j->b, NULL, tpl);
    gcc_jit_extended_asm_add_output_operand(x, NULL, "+v", v);
  }
  gcc_jit_extended_asm_add_input_operand(x, NULL, "r", R_(da));
  gcc_jit_extended_asm_add_input_operand(x, NULL, "Yk", R_(km));
  gcc_jit_extended_asm_add_clobber(x, "memory");
  gcc_jit_extended_asm_set_volatile_flag(x, 1);
  j->n_stmts++;
  if (!write) assign(j, lv, R_(v));
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  return true;
}

/* In the fast block: when the lanes' addresses are consecutive elements and
 * the value is one lane array (a scalar slot), one memcpy moves the whole
 * subgroup.  A store of a scalar value without a lane array (a constant, an
 * affine or recomputed value: slot NULL, T its type) writes its lanes to a
 * temporary first (GCC keeps it in a register: hist's `lh[lid] = 0` was a
 * lane loop of 4-byte stores).  j->b is then the block for the general fast
 * loop; true when there is none (contig_only: the copy is the whole fast
 * path). */
static bool fast_contig(J *j, gcc_jit_field *slot, uint32_t inst, uint32_t vid, gcc_jit_type *T, uint32_t bytes,
                        bool write, bool vcopy, gcc_jit_block *after) {
  if ((!slot && !(write && T)) || !j->contig) return false;
  /* contig_only: the copy is the whole fast path (no general loop after it,
   * which GCC would compile before finding it unreachable) */
  gcc_jit_block *cp = nb(j), *gen = j->contig_only ? NULL : nb(j);
  if (j->contig_only)
    gcc_jit_block_end_with_jump(j->b, NULL, cp);
  else
    gcc_jit_block_end_with_conditional(j->b, NULL, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, R_(j->fast_full),
        cmp(j, GCC_JIT_COMPARISON_EQ, R_(j->contig), ci(j, j->t_u[3], 0))), cp, gen);
  j->b = cp;
  gcc_jit_rvalue *off = R_(j->fast_off0);   /* fast_full: the first active lane is lane 0 */
  gcc_jit_rvalue *mp = cast(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(j->fast_base), off), NULL), j->t_vp);
  gcc_jit_rvalue *fp;
  /* a wide field (J.fmap_part) outside lane loops: its scratch array,
   * filled from the parts for a store, copied to them after a load */
  int32_t wh = slot && j->use_loc && !j->lane_depth ? fidx(j, slot) : -1;
  bool wide = wide_h(j, wh);
  if (wide) {
    if (write) wide_copy(j, wh, j->b, true);
    fp = cast(j, gcc_jit_lvalue_get_address(j->fmap_val[wh], NULL), j->t_vp);
  } else if (slot) {
    fp = cast(j, gcc_jit_lvalue_get_address(fld(j, slot), NULL), j->t_vp);
  } else {
    gcc_jit_lvalue *tmp = local(j, gcc_jit_context_new_array_type(j->cx, NULL, T, (int)j->S));
    jloop lp;
    loop_begin(j, &lp);
    assign(j, gcc_jit_context_new_array_access(j->cx, NULL, R_(tmp), L(j)), cast(j, V(j, inst, vid, 0), T));
    loop_end(j, &lp);
    fp = cast(j, gcc_jit_lvalue_get_address(tmp, NULL), j->t_vp);
  }
  uint64_t total = (uint64_t)bytes * j->S;
  if (!write && vcopy && total % 64 == 0 && total <= 256 && !getenv("SPIRV_SG_JIT_NO_VCOPY")) {
    /* a load that a lane permute reads (vcopy): 64-byte vector moves (one
     * zmm each with AVX-512), as the permute reads the lane array, which a
     * pair of 32-byte stores (memcpy at GCC's preferred width) would not
     * forward to.  Not for other loads: this CPU does not forward a 64-byte
     * store to a 32-byte read at a 4-byte offset either (a scan's shifted
     * reads: scan 1.26x slower with it) */
    gcc_jit_type *vt = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(j->t_u[2], 16), 4);
    gcc_jit_type *vp = gcc_jit_type_get_pointer(vt);
    for (uint64_t q = 0; q < total / 64; q++) {
      gcc_jit_rvalue *src = cast(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
          cast(j, mp, j->t_u8p), ci(j, j->t_i32, (long)(64 * q))), NULL), vp);
      gcc_jit_rvalue *dst = cast(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
          cast(j, fp, j->t_u8p), ci(j, j->t_i32, (long)(64 * q))), NULL), vp);
      assign(j, gcc_jit_rvalue_dereference(dst, NULL), R_(gcc_jit_rvalue_dereference(src, NULL)));
    }
    if (wide) wide_copy(j, wh, j->b, false);
    gcc_jit_block_end_with_jump(j->b, NULL, after);
    j->b = gen;
    return !gen;
  }
  if (write && j->fast_nt && total % 64 == 0) {
    /* whole lines to a region larger than the cache (fast_nt): stored past
     * it (vmovntdq), with no read for ownership of lines that nothing reads
     * back soon, when the destination is 64-byte aligned (the region's base
     * was, when fast_nt was set; the offset here) */
    gcc_jit_block *ntb = nb(j), *cb = nb(j);
    gcc_jit_rvalue *al = cmp(j, GCC_JIT_COMPARISON_EQ, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[3],
        off, ci(j, j->t_u[3], 63)), ci(j, j->t_u[3], 0));   /* the base's alignment: fast_nt */
    gcc_jit_block_end_with_conditional(j->b, NULL, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, R_(j->fast_nt), al),
                                       ntb, cb);
    j->b = ntb;
    gcc_jit_type *vs = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(j->t_u[2], 16), 4);   /* the value: any alignment */
    for (uint64_t q = 0; q < total / 64; q++) {
      gcc_jit_rvalue *src = cast(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
          cast(j, fp, j->t_u8p), ci(j, j->t_i32, (long)(64 * q))), NULL), gcc_jit_type_get_pointer(vs));
      gcc_jit_rvalue *dst = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
          cast(j, mp, j->t_u8p), ci(j, j->t_i32, (long)(64 * q))), NULL);
      gcc_jit_lvalue *v = local(j, vs);
      assign(j, v, R_(gcc_jit_rvalue_dereference(src, NULL)));
      /* the address as a register operand and a memory clobber: an "=m"
       * output made libgccjit 12 crash during playback */
      gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, "vmovntdq %1, (%0)");
      gcc_jit_extended_asm_add_input_operand(a, NULL, "r", dst);
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(v));
      gcc_jit_extended_asm_add_clobber(a, "memory");
      j->n_stmts++;
    }
    gcc_jit_block_end_with_jump(j->b, NULL, after);
    j->b = cb;
  }
  gcc_jit_function *mc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_memcpy");
  gcc_jit_rvalue *args[3] = {write ? mp : fp, write ? fp : mp,
      gcc_jit_context_new_rvalue_from_long(j->cx, gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_SIZE_T), (long)bytes * j->S)};
  gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, mc, 3, args));
  if (wide && !write) wide_copy(j, wh, j->b, false);
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = gen;
  return !gen;
}

/* The per-lane slow path out of line (jit_rt_ldst); addr[] holds the addresses,
 * vf is the value's lane array (stored from, or loaded into). */
static void ldst_call(J *j, uint32_t idx, uint32_t slot_off, uint32_t size, uint32_t n, uint32_t cb, bool write,
                      uint32_t align, gcc_jit_field *vf) {
  spill(j, j->f_mask);
  spill(j, j->f_addr);
  spill(j, vf);
  int32_t packed = (int32_t)(n | cb << 5 | (write ? 1u : 0u) << 9 | align << 10);
  gcc_jit_rvalue *args[6] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx), ci(j, j->t_i32, (long)slot_off),
                             ci(j, j->t_i32, (long)size), ci(j, j->t_i32, packed)};
  host_mark(j);
  host_call(j, j->c_ldst, 6, args, false, false);
  j->n_stmts++;
  if (!write) fill(j, vf);
}

/* Lane l's host pointer in the fast path: an inactive lane reads the first
 * active lane's address (valid; its value is blended away). */
static gcc_jit_rvalue *fast_ptr_masked(J *j) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(lane_arr(j, j->f_addr, L(j))), ci(j, U, (long)a->offset_mask));
  gcc_jit_rvalue *ml = MASKN(j, U);
  /* off0 ^ ((off0 ^ off) & ml): branch-free select */
  gcc_jit_rvalue *o0 = R_(j->fast_off0);
  off = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, o0,
            bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, o0, off), ml));
  return gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(j->fast_base), off), NULL);
}
/* Lane l's host pointer at its address's offset from base. */
static gcc_jit_rvalue *lane_ptr_in(J *j, gcc_jit_rvalue *base) {
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(lane_arr(j, j->f_addr, L(j))),
                            ci(j, U, (long)j->m->layout.offset_mask));
  return gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, base, off), NULL);
}
/* Lane l's host pointer in the fast path. */
static gcc_jit_rvalue *fast_ptr(J *j, uint32_t size) {
  (void)size;
  return lane_ptr_in(j, R_(j->fast_base));
}
/* sg_kernel_full, mem_fast_'s ends test passed (J.fast_est, every lane
 * active): lane l's host pointer is lane 0's plus l * stride, computed, not
 * read from addr[].  GCC then sees one strided access over the lanes: a
 * float2 or a struct's members load as whole vectors and permutes (or a
 * gather), where the per-lane reads of addr[] kept the loop scalar.  NULL
 * where it does not apply, or with SPIRV_SG_JIT_NO_AFFINE_PTR=1. */
static gcc_jit_rvalue *affine_ptr(J *j) {
  if (!j->full || j->fast_priv || !j->fast_est || getenv("SPIRV_SG_JIT_NO_AFFINE_PTR")) return NULL;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(j->fast_off0),
      bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U),
          cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)j->fast_est), U)));
  return gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(j->fast_base), off), NULL);
}

static bool promo_access(J *j, uint32_t inst, const ld_insn *in, bool store);
static void emit_load_(J *j, uint32_t inst, const ld_insn *in);
/* A load whose address is the same in every lane (lane stride 0, a
 * global, local or constant pointer), in sg_kernel_full: one test of lane
 * 0's address (its region holds the bytes, aligned), one load, the value
 * in every lane.  The test failing, the load as any other (emit_load_), with
 * its per-lane checks and reports.  gemm's plain form reads A[row * n + k]
 * so: before, each lane loaded the same element in a loop over the lanes.
 * SPIRV_SG_JIT_NO_UNIFORM_LOAD=1: as any other load. */
static bool uniform_load(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *pt = m->values[in->ops[0]].type;
  const ld_type *ct; uint32_t n;
  int64_t st = 1;
  if (!j->full || j->one_lane || !j->lanes || !pt || pt->kind != LD_T_POINTER ||
      (pt->storage != SpvStorageClassCrossWorkgroup && pt->storage != SpvStorageClassWorkgroup &&
       pt->storage != SpvStorageClassUniformConstant) ||
      !lane_shape(in->type, &ct, &n) || !ld_uni_lane_stride(j->lanes, in->ops[0], &st) || st != 0 ||
      getenv("SPIRV_SG_JIT_NO_UNIFORM_LOAD"))
    return false;
  gcc_jit_type *U = j->t_u[3], *T = scal(j, ct);
  uint32_t cb = comp_bytes(j->k, ct), size = in->type->size, al = ld_access_align(in->type, in, 1);
  fuse_close(j);
  assign(j, j->lane, ci(j, j->t_i32, 0));
  gcc_jit_lvalue *A = local(j, U), *reg;
  assign(j, A, cast(j, V(j, inst, in->ops[0], 0), U));
  gcc_jit_rvalue *off, *lim;
  gcc_jit_rvalue *ok = addr_ok(j, R_(A), size, al, false, &reg, &off, &lim);
  gcc_jit_block *fast = nb(j), *gen = nb(j), *done = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, ok, true), fast, gen);
  j->b = fast;
  gcc_jit_rvalue *p = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
      R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_base)), off), NULL);
  gcc_jit_lvalue *t[16];
  for (uint32_t c = 0; c < n && c < 16; c++) {
    t[c] = local(j, T);
    assign(j, t[c], R_(typed_at(j, p, c * cb, T)));
  }
  jloop lp;
  loop_begin(j, &lp);
  for (uint32_t c = 0; c < n && c < 16; c++) assign(j, res_lv(j, inst, in->result, c), R_(t[c]));
  loop_end(j, &lp);
  gcc_jit_block_end_with_jump(j->b, NULL, done);
  j->b = gen;
  emit_load_(j, inst, in);
  fuse_close(j);
  gcc_jit_block_end_with_jump(j->b, NULL, done);
  j->b = done;
  return true;
}
void emit_load(J *j, uint32_t inst, const ld_insn *in) {
  if (!uniform_load(j, inst, in)) emit_load_(j, inst, in);   /* built-ins (Input) are not uniform_load's */
}
static void emit_load_(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  if (!lane_shape(in->type, &ct, &n)) { failf(j->e, "%s: load of an aggregate", ld_insn_where(m, in)); return; }
  gcc_jit_type *T = scal(j, ct);
  uint32_t cb = comp_bytes(j->k, ct);
  const ld_value *pv = &m->values[in->ops[0]];
  jloop lp;
  if (pv->kind == LD_V_VARIABLE && pv->u.var->storage == SpvStorageClassInput) {
    emit_builtin(j, inst, in, (SpvBuiltIn)pv->u.var->builtin, ct, n);
    return;
  }
  if (promo_access(j, inst, in, false)) return;
  uint32_t idx = add_insn_index(j->k, in);
  uint32_t al = ld_access_align(in->type, in, 1);
  gcc_jit_block *after = NULL;
  if (private_direct(j, inst, in->ops[0], in->type->size)) {
    /* a Function variable of this instance: each lane's own private bytes */
    loop_begin(j, &lp);
    gcc_jit_rvalue *p = priv_ptr(j, inst, in->ops[0]);
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_lvalue *r = res_lv(j, inst, in->result, c);
      assign(j, r, mblend(j, R_(typed_at(j, p, c * cb, T)), R_(r), T));
    }
    loop_end(j, &lp);
    return;
  }
  bool contig = n == 1 && cb == in->type->size && value_slot(j, inst, in->result);
  if (!j->one_lane) {   /* one lane at most (J.one_lane): the checked load below */
    after = mem_priv(j, inst, in->ops[0], in->type->size, al);
    if (!after) after = mem_fast_(j, inst, in->ops[0], in->type->size, al, false, contig, true, false);
  }
  if (after) {
    /* j->b: every active lane's address in one region (or its own private
     * memory), in bounds, aligned */
    if (!(contig && !j->fast_priv && masked_vec(j, value_slot(j, inst, in->result), cb, false, after)) &&
        !(contig && !j->fast_priv &&
          fast_contig(j, value_slot(j, inst, in->result), inst, in->result, NULL, cb, false,
                      feeds_vector(j, inst, in->result), after))) {
      loop_begin(j, &lp);
      gcc_jit_rvalue *p = j->fast_priv ? priv_lane_ptr(j) : affine_ptr(j);
      if (!p) p = fast_ptr_masked(j);
      for (uint32_t c = 0; c < n; c++) {
        gcc_jit_lvalue *r = res_lv(j, inst, in->result, c);
        assign(j, r, mblend(j, R_(typed_at(j, p, c * cb, T)), R_(r), T));
      }
      loop_end(j, &lp);
      gcc_jit_block_end_with_jump(j->b, NULL, after);
    }
    j->b = j->slow;
    if (value_slot(j, inst, in->result)) {
      ldst_call(j, idx, j->k->slot_off[vidx(j, inst, in->result)], in->type->size, n, cb, false, al,
                value_slot(j, inst, in->result));
      gcc_jit_block_end_with_jump(j->b, NULL, after);
      j->b = after;
      return;
    }
  }
  loop_act(j, &lp);
  gcc_jit_lvalue *tmp[16];
  for (uint32_t c = 0; c < n; c++) {
    tmp[c] = local(j, T);
    assign(j, tmp[c], gcc_jit_lvalue_as_rvalue(res_lv(j, inst, in->result, c)));
  }
  gcc_jit_block *act = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, MASK(j), act, join);
  j->b = act;
  gcc_jit_rvalue *p = checked_ptr(j, idx, V(j, inst, in->ops[0], 0), in->type->size, al, false);
  gcc_jit_block *ld = nb(j), *zero = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, cmp(j, GCC_JIT_COMPARISON_NE, p, gcc_jit_context_null(j->cx, j->t_u8p)), true), ld, zero);
  j->b = ld;
  for (uint32_t c = 0; c < n; c++) assign(j, tmp[c], gcc_jit_lvalue_as_rvalue(typed_at(j, p, c * cb, T)));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = zero;
  for (uint32_t c = 0; c < n; c++) assign(j, tmp[c], ci(j, T, 0));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  for (uint32_t c = 0; c < n; c++) assign(j, res_lv(j, inst, in->result, c), gcc_jit_lvalue_as_rvalue(tmp[c]));
  loop_end(j, &lp);
  if (after) { gcc_jit_block_end_with_jump(j->b, NULL, after); j->b = after; }
}

/* ------------------------------------------------ ballot-compress stores
 *
 * Stream compaction's store, `if (keep) out[base + pos] = x` with pos =
 * sub_group_ballot_exclusive_scan(ballot(keep)): the active lanes write
 * consecutive elements in lane order when the lanes at the store are
 * exactly the ballot's (then pos is each active lane's rank among them).
 * The plan (compress_plan) proves statically that the store's address is
 * a value the same in every lane plus pos * size (cp_aff) and that the
 * ballot is the same in every active lane (made in a block every lane
 * runs); the code tests at run time that the mask equals the ballot's bits
 * and that the span of popcount(mask) elements from the first active lane's
 * address lies in its region, writable and aligned, and then stores with
 * one vpcompressd/q and a masked vector store.  Any test that fails takes
 * the general store (its per-lane checks and reports). */

/* id is an OpLoad of the built-in variable b */
static bool builtin_load(const ld_module *m, uint32_t id, SpvBuiltIn b) {
  if (id >= m->bound || m->values[id].kind != LD_V_RESULT) return false;
  const ld_insn *in = m->values[id].u.insn;
  if (in->op != SpvOpLoad || in->n_ops < 1 || in->ops[0] >= m->bound) return false;
  const ld_value *p = &m->values[in->ops[0]];
  return p->kind == LD_V_VARIABLE && p->u.var->storage == SpvStorageClassInput && p->u.var->builtin == (int32_t)b;
}

/* Value id as a + s * lane + k * pos (modulo 2^64, a the same in every
 * lane): *s, *k; false if not of that form.  pos: the exclusive ballot
 * bit count, 0 <= pos < S. */
static bool cp_aff(J *j, uint32_t id, uint32_t pos, int64_t *s, int64_t *k, int depth) {
  const ld_module *m = j->m;
  int64_t st;
  *s = 0; *k = 0;
  if (id == pos) { *k = 1; return true; }
  if (id >= m->bound || depth > 12) return false;
  if (ld_uni_lane_stride(j->lanes, id, &st)) { *s = st; return true; }
  const ld_value *v = &m->values[id];
  if (v->kind != LD_V_RESULT) return false;
  const ld_insn *in = v->u.insn;
  const ld_type *t = in->type;
  if (!t) return false;
  int64_t s0, k0, s1, k1;
  switch (in->op) {
  case SpvOpUConvert: case SpvOpSConvert: {
    /* exact only for values that widen alike: pos, the lane id, or a
     * value the same in every lane */
    if (in->n_ops != 1 || t->kind != LD_T_INT) return false;
    uint32_t x = in->ops[0];
    if (x == pos) { *k = 1; return true; }
    if (builtin_load(m, x, SpvBuiltInSubgroupLocalInvocationId)) { *s = 1; return true; }
    return cp_aff(j, x, pos, &s0, &k0, depth + 1) && s0 == 0 && k0 == 0;
  }
  case SpvOpIAdd: case SpvOpISub:
    if (in->n_ops != 2 || t->kind != LD_T_INT || !cp_aff(j, in->ops[0], pos, &s0, &k0, depth + 1) ||
        !cp_aff(j, in->ops[1], pos, &s1, &k1, depth + 1))
      return false;
    if (in->op == SpvOpIAdd) {
      *s = (int64_t)((uint64_t)s0 + (uint64_t)s1); *k = k0 + k1;
    } else {
      *s = (int64_t)((uint64_t)s0 - (uint64_t)s1); *k = k0 - k1;
    }
    if (t->width < 64) {
      /* modulo 2^width: only a result the same in every lane survives
       * the widening to an address */
      uint64_t msk = (1ull << t->width) - 1;
      if (((uint64_t)*s & msk) || *k) return false;
      *s = 0;
    }
    return true;
  case SpvOpBitcast: case SpvOpCopyObject: {
    const ld_type *ft = in->n_ops == 1 && in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
    if (!ft || ft->size != t->size || ft->size != 8) return false;
    return cp_aff(j, in->ops[0], pos, s, k, depth + 1);
  }
  case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: {
    const ld_type *bt = in->n_ops == 2 && in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
    const ld_type *it = in->n_ops == 2 && in->ops[1] < m->bound ? m->values[in->ops[1]].type : NULL;
    if (!bt || bt->kind != LD_T_POINTER || !bt->elem || !bt->elem->size || !it || it->kind != LD_T_INT ||
        !cp_aff(j, in->ops[0], pos, &s0, &k0, depth + 1) || !cp_aff(j, in->ops[1], pos, &s1, &k1, depth + 1))
      return false;
    /* a narrower index widens exactly only as pos itself or a value the
     * same in every lane */
    if (it->width < 64 && !(in->ops[1] == pos || (s1 == 0 && k1 == 0))) return false;
    uint64_t e = bt->elem->size;
    *s = (int64_t)((uint64_t)s0 + (uint64_t)s1 * e);
    *k = (int64_t)((uint64_t)k0 + (uint64_t)k1 * e);
    return true;
  }
  default:
    return false;
  }
}

/* The ballot whose exclusive bit count places store `in` (compress_store),
 * or 0.  The proof does not depend on where the emission is: emit_store
 * adds that some lane may be inactive (not sg_kernel_full, not one lane),
 * and emit_load asks it about the stores of a loaded value (feeds_vector). */
static uint32_t compress_plan(J *j, const ld_insn *in, uint32_t size) {
  const ld_module *m = j->m;
  if (!j->lanes || j->S > 64 || getenv("SPIRV_SG_JIT_NO_COMPRESS")) return 0;
  bool zmm = j->S * size == 64 && has_flag(j->mflags, "-mavx512f");
  bool ymm = j->S * size == 32 && has_flag(j->mflags, "-mavx512f") && has_flag(j->mflags, "-mavx512vl");
  if ((size != 4 && size != 8) || !(zmm || ymm)) return 0;
  const ld_type *pt = m->values[in->ops[0]].type;
  if (!pt || pt->kind != LD_T_POINTER ||
      (pt->storage != SpvStorageClassCrossWorkgroup && pt->storage != SpvStorageClassWorkgroup))
    return 0;
  /* find the exclusive bit count the address depends on: walk the pointer's
   * definitions for one */
  uint32_t stack[32], n = 0, pos = 0;
  stack[n++] = in->ops[0];
  for (uint32_t it = 0; n && it < 64 && !pos; it++) {
    uint32_t id = stack[--n];
    if (id >= m->bound || m->values[id].kind != LD_V_RESULT) continue;
    const ld_insn *d = m->values[id].u.insn;
    if (d->op == SpvOpGroupNonUniformBallotBitCount) { pos = id; break; }
    if (d->op == SpvOpUConvert || d->op == SpvOpSConvert || d->op == SpvOpIAdd || d->op == SpvOpISub ||
        d->op == SpvOpBitcast || d->op == SpvOpCopyObject || d->op == SpvOpPtrAccessChain ||
        d->op == SpvOpInBoundsPtrAccessChain)
      for (uint32_t q = 0; q < d->n_ops && n < 32; q++) stack[n++] = d->ops[q];
  }
  if (!pos) return 0;
  const ld_insn *bc = m->values[pos].u.insn;
  /* Subgroup scope, ExclusiveScan, of a ballot made where every lane runs */
  bool ok = true;   /* const_u32 clears it */
  if (bc->n_ops != 3 || bc->ops[1] != SpvGroupOperationExclusiveScan ||
      const_u32(m, bc->ops[0], &ok) != SpvScopeSubgroup || !ok)
    return 0;
  uint32_t bal = bc->ops[2];
  if (bal >= m->bound || m->values[bal].kind != LD_V_RESULT) return 0;
  const ld_insn *bi = m->values[bal].u.insn;
  ok = true;
  if (bi->op != SpvOpGroupNonUniformBallot || bi->n_ops != 2 || const_u32(m, bi->ops[0], &ok) != SpvScopeSubgroup ||
      !ok || ld_uni_block_divergent(j->lanes, bi->block, NULL))
    return 0;
  int64_t s, k;
  if (!cp_aff(j, in->ops[0], pos, &s, &k, 0) || s != 0 || k != (int64_t)size) return 0;
  j->cs_pos = pos;
  return bal;
}

/* The compress store (see above) of value `val` through ptr when
 * compress_plan found ballot bal: from j->b, the tests; returns the join
 * block, with j->b the block where the general store is to be emitted
 * (which must jump to the join when done). */
static gcc_jit_block *compress_store(J *j, uint32_t inst, uint32_t ptr, uint32_t val, uint32_t bal, uint32_t size,
                                     uint32_t align) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  uint64_t fullm = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
  gcc_jit_lvalue *M = local(j, U), *a0 = local(j, U), *reg0 = local(j, U), *off0 = local(j, U), *cnt = local(j, U);
  gcc_jit_block *chk = nb(j), *go = nb(j), *gen = nb(j), *after = nb(j);
  fuse_close(j);
  assign(j, M, top_m(j, 0));
  assign(j, j->lane, ctz64(j, R_(M)));   /* the first active lane (the mask is never empty) */
  gcc_jit_rvalue *B = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, V(j, inst, bal, 0), U), ci(j, U, (long)fullm));
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(M), B), chk, gen);
  j->b = chk;
  gcc_jit_function *pc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_popcountll");
  gcc_jit_rvalue *pa[1] = {cast(j, R_(M), gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_UNSIGNED_LONG_LONG))};
  assign(j, cnt, cast(j, gcc_jit_context_new_call(j->cx, NULL, pc, 1, pa), U));
  /* the first active lane is the ballot's first set bit (M == B), where
   * the exclusive bit count is 0: the address with it as 0 (nx_over), not
   * read from its lane array */
  uint32_t pos = j->cs_pos;
  bool pz = pos && pos < j->m->bound && !getenv("SPIRV_SG_JIT_NO_CS_POS0") &&
            (j->nx_over || (j->nx_over = calloc(j->m->bound, sizeof *j->nx_over)));
  if (pz) j->nx_over[pos] = ci(j, scal(j, j->m->values[pos].type), 0);
  assign(j, a0, cast(j, V(j, inst, ptr, 0), U));
  if (pz) j->nx_over[pos] = NULL;
  /* the destination: region base fb, a0's offset fo */
  gcc_jit_lvalue *fb = local(j, j->t_u8p), *fo = local(j, U);
  uint64_t span = (uint64_t)size * j->S;
  gcc_jit_lvalue *W = NULL;
  uint32_t k = align_log2(align);
  if (j->h_win && !getenv("SPIRV_SG_JIT_NO_CS_WIN")) {
    /* first the site's window (win_check's, for the whole subgroup's span
     * S * size, which the cnt elements stored never exceed) */
    W = win_next(j);
    gcc_jit_lvalue *d = local(j, U);
    gcc_jit_block *hit = nb(j), *miss = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, win_hit(j, W, R_(a0), k, d), hit, miss);
    j->b = hit;
    assign(j, fb, R_(gcc_jit_lvalue_access_field(W, NULL, j->wn_base)));
    assign(j, fo, R_(d));
    gcc_jit_block_end_with_jump(j->b, NULL, go);
    j->b = miss;
  }
  assign(j, reg0, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(a0), ci(j, U, (long)a->shift)));
  assign(j, off0, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(a0), ci(j, U, (long)a->offset_mask)));
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions), R_(reg0));
  gcc_jit_rvalue *wsz = R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_wsize));
  /* off0 < 2^48, cnt * size <= 64: no wrap */
  gcc_jit_rvalue *ok = cmp(j, GCC_JIT_COMPARISON_LE,
      bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(off0), bin(j, GCC_JIT_BINARY_OP_MULT, U, R_(cnt), ci(j, U, size))), wsz);
  if (align > 1)
    ok = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, ok, cmp(j, GCC_JIT_COMPARISON_EQ,
             bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(a0), ci(j, U, align - 1)), ci(j, U, 0)));
  gcc_jit_block *pass = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, ok, true), pass, gen);
  j->b = pass;
  assign(j, fb, R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_base)));
  assign(j, fo, R_(off0));
  if (W) {
    /* refill: a launch-wide or local region (mem_fast_window) where the
     * whole span fits (the window's bound needs wsize >= off0 + span) */
    gcc_jit_block *keep = nb(j);
    gcc_jit_rvalue *fill = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool,
        cmp(j, GCC_JIT_COMPARISON_LT, R_(reg0), ci(j, U, (long)a->builtin_base)),
        cmp(j, GCC_JIT_COMPARISON_LE, bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(off0), ci(j, U, (long)span)), wsz));
    gcc_jit_block_end_with_conditional(j->b, NULL, fill, keep, go);
    j->b = keep;
    win_fill(j, W, bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(a0), R_(off0)), wsz, span, k, R_(fb));
  }
  gcc_jit_block_end_with_jump(j->b, NULL, go);
  j->b = go;
  /* tmp = the active lanes' values packed to the front (vpcompress, zeroing
   * the rest), stored under the mask of its first cnt lanes: the stores
   * touch exactly the cnt elements from a0 (AVX-512 masked stores do not
   * fault on masked-off elements) */
  uint32_t lanes = j->S;
  gcc_jit_type *et = size == 4 ? j->t_u[2] : j->t_u[3];
  gcc_jit_type *vt = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(et, lanes), size);
  gcc_jit_type *vp = gcc_jit_type_get_pointer(vt);
  gcc_jit_type *K = j->t_u[1];
  gcc_jit_lvalue *xv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(
      slot_lv(j, value_slot(j, inst, val), 1, 0, ci(j, j->t_i32, 0)), NULL), vp), NULL);
  gcc_jit_rvalue *dst = cast(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
      R_(fb), R_(fo)), NULL), vp);
  gcc_jit_lvalue *tmp = local(j, vt);
  gcc_jit_rvalue *smask = cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, U,
      bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, ci(j, U, 1), R_(cnt)), ci(j, U, 1)), K);
  /* The operands in locals, assigned before the asm statement (which
   * gcc_jit_block_add_extended_asm places in the block at once); the
   * destination by address, with a memory clobber: GCC must not take the
   * asm for a store of the whole vector, which would let it drop an earlier
   * store to the bytes past the cnt written (an "m" operand of the vector
   * would; libgccjit 12 also crashes on one), passed as an integer. */
  gcc_jit_lvalue *km = local(j, K), *ks = local(j, K), *da = local(j, U);
  assign(j, km, cast(j, R_(M), K));
  assign(j, ks, smask);
  assign(j, da, gcc_jit_context_new_bitcast(j->cx, NULL, dst, U));
  /* with a prefetch for writing j->prefetch bytes ahead, as a whole
   * subgroup's consecutive store has (a prefetch never faults) */
  char tpl[160];
  char pf[40] = "";
  if (j->prefetch && !getenv("SPIRV_SG_JIT_NO_CS_PREFETCH")) snprintf(pf, sizeof pf, "prefetchw %u(%%4)\n\t", j->prefetch);
  snprintf(tpl, sizeof tpl, "%s%s", pf, size == 4
      ? "vpcompressd %1, %0%{%2%}%{z%}\n\tvmovdqu32 %0, (%4)%{%3%}"
      : "vpcompressq %1, %0%{%2%}%{z%}\n\tvmovdqu64 %0, (%4)%{%3%}");
  gcc_jit_extended_asm *x = gcc_jit_block_add_extended_asm(j->b, NULL, tpl);
  gcc_jit_extended_asm_add_output_operand(x, NULL, "=&v", tmp);
  gcc_jit_extended_asm_add_input_operand(x, NULL, "v", R_(xv));
  gcc_jit_extended_asm_add_input_operand(x, NULL, "Yk", R_(km));
  gcc_jit_extended_asm_add_input_operand(x, NULL, "Yk", R_(ks));
  gcc_jit_extended_asm_add_input_operand(x, NULL, "r", R_(da));
  gcc_jit_extended_asm_add_clobber(x, "memory");
  gcc_jit_extended_asm_set_volatile_flag(x, 1);   /* its output is unused: GCC would delete it */
  j->n_stmts++;
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = gen;
  return after;
}

static void store_general(J *j, uint32_t inst, const ld_insn *in, const ld_type *vt, uint32_t n, gcc_jit_type *T,
                          uint32_t cb, uint32_t idx, uint32_t al);
void emit_store(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  const ld_type *vt = m->values[in->ops[1]].type;
  if (!lane_shape(vt, &ct, &n)) { failf(j->e, "%s: store of an aggregate", ld_insn_where(m, in)); return; }
  gcc_jit_type *T = scal(j, ct);
  uint32_t cb = comp_bytes(j->k, ct);
  if (promo_access(j, inst, in, true)) return;
  uint32_t idx = add_insn_index(j->k, in);
  uint32_t al = ld_access_align(vt, in, 2);
  jloop lp;
  if (private_direct(j, inst, in->ops[0], vt->size)) {
    /* a Function variable of this instance: blend into each lane's own bytes */
    loop_begin(j, &lp);
    gcc_jit_rvalue *p = priv_ptr(j, inst, in->ops[0]);
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_lvalue *d = typed_at(j, p, c * cb, T);
      assign(j, d, mblend(j, V(j, inst, in->ops[1], c), R_(d), T));
    }
    loop_end(j, &lp);
    return;
  }
  /* stream compaction's store: one compress store when the tests pass */
  gcc_jit_block *cafter = NULL;
  uint32_t bal = n == 1 && cb == vt->size && !j->full && !j->one_lane && value_slot(j, inst, in->ops[1]) &&
                 !remat(j, inst, in->ops[1]) && !shadowed(j, inst, in->ops[1]) ? compress_plan(j, in, cb) : 0;
  if (bal) cafter = compress_store(j, inst, in->ops[0], in->ops[1], bal, cb, al);
  store_general(j, inst, in, vt, n, T, cb, idx, al);
  if (cafter) {
    gcc_jit_block_end_with_jump(j->b, NULL, cafter);
    j->b = cafter;
  }
}

/* ------------------------------------------------ the next subgroup's address
 *
 * A scattered store (transpose's rows) writes lines that are not in the cache:
 * each one costs a read for ownership, and the lanes' stores wait for them.
 * The next subgroup of a work-group usually stores at the same addresses
 * moved by a fixed amount (its x ids are S higher), so the per-lane store
 * prefetches, for writing, lane l's address of the next subgroup: the
 * pointer's expression evaluated again with the built-in ids the next
 * subgroup sees (global and local id x + S in a work-group wider than S,
 * else y + S / width; the subgroup id + 1, the linear ids + S; every other
 * value the same: loop counters, loads, arguments).
 * Only a hint: a prefetch never faults, and a wrong guess (the last subgroup
 * of a row, a value that differs in the next subgroup) costs a useless
 * prefetch, never a wrong result.  SPIRV_SG_JIT_NO_SCATTER_PREFETCH=1 turns
 * it off. */
enum { NX_DEPTH = 10, NX_BUDGET = 48 };

/* V() can read id at inst without an error (a value with a lane array, a
 * shadow or a recomputation whose operands it can read) */
static bool nx_avail(J *j, uint32_t inst, uint32_t id, int depth) {
  const ld_module *m = j->m;
  if (id >= m->bound || depth > NX_DEPTH) return false;
  const ld_value *v = &m->values[id];
  const ld_type *ct; uint32_t n;
  if (!lane_shape(v->type, &ct, &n) || n != 1) return false;
  switch (v->kind) {
  case LD_V_CONSTANT: case LD_V_UNDEF: case LD_V_VARIABLE: case LD_V_PARAM: return true;
  case LD_V_RESULT: break;
  default: return false;
  }
  const ld_insn *in = v->u.insn;
  if (in->op == SpvOpVariable || shadowed(j, inst, id)) return true;
  if (remat(j, inst, id)) {
    for (uint32_t k = 0; k < in->n_ops; k++)
      if (!nx_avail(j, inst, in->ops[k], depth + 1)) return false;
    return true;
  }
  return j->slot[vidx(j, inst, id)] != NULL;
}

static bool nx_int(const ld_type *t) {
  return t && ((t->kind == LD_T_INT && (t->width == 8 || t->width == 16 || t->width == 32 || t->width == 64)) ||
               t->kind == LD_T_POINTER);
}

/* The next subgroup's value of id for the current lane (inside a lane
 * loop); NULL: the same as this subgroup's, or *fail: unknown. */
static gcc_jit_rvalue *nx_next(J *j, uint32_t inst, uint32_t id, int depth, int *budget, bool *fail) {
  const ld_module *m = j->m;
  if (*fail || id >= m->bound || m->values[id].kind != LD_V_RESULT) return NULL;
  const ld_insn *in = m->values[id].u.insn;
  if (!nx_int(in->type)) return NULL;
  if (depth > NX_DEPTH || --*budget < 0) { *fail = true; return NULL; }
  gcc_jit_type *T = scal(j, in->type), *U = j->t_u[3];
  gcc_jit_rvalue *step = NULL;
  switch (in->op) {
  case SpvOpCompositeExtract:
    /* the next subgroup's x ids are S higher in a work-group wider than
     * S, else its y ids S / (the width) higher */
    if (in->n_ops == 2 && in->ops[1] <= 1 && (builtin_load(m, in->ops[0], SpvBuiltInGlobalInvocationId) ||
                                              builtin_load(m, in->ops[0], SpvBuiltInLocalInvocationId))) {
      gcc_jit_rvalue *wx = R_(arr_at(j, R_(wfl(j, j->w_wsize)), 0));
      step = in->ops[1] == 0 ? bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, cmp(j, GCC_JIT_COMPARISON_GT, wx, ci(j, U, j->S)), U),
                                   ci(j, U, j->S))
                             : bin(j, GCC_JIT_BINARY_OP_DIVIDE, U, ci(j, U, j->S), wx);
    }
    break;
  case SpvOpLoad:
    if (builtin_load(m, id, SpvBuiltInSubgroupId)) step = ci(j, U, 1);
    else if (builtin_load(m, id, SpvBuiltInGlobalLinearId) || builtin_load(m, id, SpvBuiltInLocalInvocationIndex))
      step = ci(j, U, j->S);
    break;
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpShiftLeftLogical: case SpvOpBitwiseAnd:
  case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast:
  case SpvOpCopyObject: case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: {
    if (in->n_ops > 8) { *fail = true; return NULL; }
    gcc_jit_rvalue *nx[8] = {0};
    bool any = false;
    for (uint32_t k = 0; k < in->n_ops; k++) {
      nx[k] = nx_next(j, inst, in->ops[k], depth + 1, budget, fail);
      if (*fail) return NULL;
      if (nx[k]) any = true;
      else if (!nx_avail(j, inst, in->ops[k], 0)) { *fail = true; return NULL; }
    }
    if (!any) return NULL;
    if (in->op == SpvOpBitcast) {   /* integer <-> pointer or same-size integers only */
      const ld_type *ft = m->values[in->ops[0]].type;
      if (!nx_int(ft) || (ft->kind == LD_T_INT && in->type->kind == LD_T_INT && ft->width != in->type->width)) {
        *fail = true;
        return NULL;
      }
    }
    if (!j->nx_over && !(j->nx_over = calloc(m->bound, sizeof *j->nx_over))) { *fail = true; return NULL; }
    for (uint32_t k = 0; k < in->n_ops; k++)
      if (nx[k]) j->nx_over[in->ops[k]] = nx[k];
    bool chain = in->op == SpvOpAccessChain || in->op == SpvOpInBoundsAccessChain || in->op == SpvOpPtrAccessChain ||
                 in->op == SpvOpInBoundsPtrAccessChain;
    gcc_jit_rvalue *r = chain ? cast(j, emit_access_chain(j, inst, in), T) : emit_elementwise(j, inst, in, 0);
    for (uint32_t k = 0; k < in->n_ops; k++) j->nx_over[in->ops[k]] = NULL;
    return r;
  }
  default:
    break;
  }
  if (!step) return NULL;
  if (!nx_avail(j, inst, id, 0)) { *fail = true; return NULL; }
  return bin(j, GCC_JIT_BINARY_OP_PLUS, T, V(j, inst, id, 0), cast(j, step, T));
}

/* The current lane's host pointer in the next subgroup, from p, this
 * subgroup's, if ptr's expression depends on the ids; NULL: none. */
static gcc_jit_rvalue *nx_ptr(J *j, uint32_t inst, uint32_t ptr, gcc_jit_rvalue *p) {
  if (getenv("SPIRV_SG_JIT_NO_SCATTER_PREFETCH")) return NULL;
  int budget = NX_BUDGET;
  bool fail = false;
  gcc_jit_rvalue *nx = nx_next(j, inst, ptr, 0, &budget, &fail);
  if (fail || !nx) return NULL;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_rvalue *d = bin(j, GCC_JIT_BINARY_OP_MINUS, U, cast(j, nx, U), cast(j, V(j, inst, ptr, 0), U));
  return gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, p, cast(j, d, j->t_s[3])), NULL);
}
/* Prefetches pa (nx_ptr) for lane 0.  Lane 0 alone: transpose's rotating
 * rows put the lanes of one store in the lines the loop's other stores also
 * reach, and lane 0 meets them all (every lane's prefetch: 1.2x slower where
 * the matrix stays in the cache, and with prefetcht2 still 1.15x there for
 * 0.95x at 4096); the plain transpose's column stores
 * (each lane its own row) were 0.93x with every lane's prefetch in
 * work-groups of 16 x 16, but 1.24x in work-groups of 256 x 1. */
static void nx_prefetch(J *j, gcc_jit_rvalue *pa) {
  fuse_close(j);
  assign(j, j->lane, ci(j, j->t_i32, 0));
  gcc_jit_function *pff = gcc_jit_context_get_builtin_function(j->cx, "__builtin_prefetch");
  /* A read prefetch to the outer levels (prefetcht2), not prefetchw: the
   * next subgroup's rows share the L1 sets of this one's at a power-of-two
   * width (transpose at 512: 16 rows 2 KiB apart fill two sets), and the
   * line comes in exclusive anyway where no other core holds it.  Transpose
   * 0.56 -> 0.49 ms at 512 and 69 -> 61 ms at 4096 against prefetchw.
   * SPIRV_SG_JIT_PF_MODE=<r|w><0-3> picks another (rw, locality). */
  const char *pm = getenv("SPIRV_SG_JIT_PF_MODE");
  int rw = 0, loc = 1;
  if (pm && (pm[0] == 'r' || pm[0] == 'w') && pm[1] >= '0' && pm[1] <= '3') { rw = pm[0] == 'w'; loc = pm[1] - '0'; }
  gcc_jit_rvalue *args[3] = {cast(j, pa, j->t_vp), ci(j, j->t_i32, rw), ci(j, j->t_i32, loc)};
  gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, pff, 3, args));
  j->n_stmts++;
}

/* emit_store's general path: the fast range test (mem_priv, mem_fast_)
 * and the per-lane checked store. */
static void store_general(J *j, uint32_t inst, const ld_insn *in, const ld_type *vt, uint32_t n, gcc_jit_type *T,
                          uint32_t cb, uint32_t idx, uint32_t al) {
  jloop lp;
  gcc_jit_field *vs = value_slot(j, inst, in->ops[1]);
  bool contig = n == 1 && cb == vt->size && (vs || !getenv("SPIRV_SG_JIT_NO_CONST_CONTIG"));
  gcc_jit_block *after = NULL;
  if (!j->one_lane) {   /* one lane at most (J.one_lane): the checked store below */
    after = mem_priv(j, inst, in->ops[0], vt->size, al);
    if (!after) after = mem_fast_(j, inst, in->ops[0], vt->size, al, true, contig, true, false);
  }
  if (after) {
    bool done = contig && !j->fast_priv && (masked_vec(j, vs, cb, true, after) ||
                                            fast_contig(j, vs, inst, in->ops[1], vs ? NULL : T, cb, true, false, after));
    /* sg_kernel_full: fast_full is the constant true, no partial loop */
    gcc_jit_block *allb = done ? NULL : nb(j), *part = done || j->full ? NULL : nb(j);
    if (part) gcc_jit_block_end_with_conditional(j->b, NULL, R_(j->fast_full), allb, part);
    else if (allb) gcc_jit_block_end_with_jump(j->b, NULL, allb);
    if (allb) {
      j->b = allb;
      /* the next subgroup's lines, before this one's stores */
      gcc_jit_rvalue *pa = j->fast_priv ? NULL : nx_ptr(j, inst, in->ops[0], fast_ptr(j, vt->size));
      if (pa) nx_prefetch(j, pa);
      if (!j->fast_priv && j->S <= 16 && n == 1 && !getenv("SPIRV_SG_JIT_NO_UNROLL_SCATTER")) {
        /* addresses in no order (a contiguous run went to fast_contig):
         * one store per lane, unrolled, so that the lane's address and
         * value are constant-index reads, without a loop's index and test
         * (transpose's rotated rows) */
        fuse_close(j);
        for (uint32_t l = 0; l < j->S; l++) {
          assign(j, j->lane, ci(j, j->t_i32, (long)l));
          gcc_jit_rvalue *ap = affine_ptr(j);
          assign(j, typed_at(j, ap ? ap : fast_ptr(j, vt->size), 0, T), V(j, inst, in->ops[1], 0));
        }
      } else {
        loop_begin(j, &lp);
        gcc_jit_rvalue *p = j->fast_priv ? priv_lane_ptr(j) : affine_ptr(j);
        if (!p) p = fast_ptr(j, vt->size);
        for (uint32_t c = 0; c < n; c++) assign(j, typed_at(j, p, c * cb, T), V(j, inst, in->ops[1], c));
        loop_end(j, &lp);
      }
      gcc_jit_block_end_with_jump(j->b, NULL, after);
    }
    if (part) {
      /* some lanes inactive (S <= 64): a loop over the top entry's set bits,
       * one branch per active lane and none on the lanes' bits, which a
       * data-dependent mask (compact's `if (keep)`) would mispredict about
       * every other lane; S > 64: a test of mask[l] per lane */
      j->b = part;
      if (j->S <= 64) {
        gcc_jit_type *U = j->t_u[3];
        gcc_jit_lvalue *mb = local(j, U);
        assign(j, mb, top_m(j, 0));
        gcc_jit_block *head = nb(j), *body = nb(j);
        gcc_jit_block_end_with_jump(j->b, NULL, head);
        gcc_jit_block_end_with_conditional(head, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(mb), ci(j, U, 0)), body, after);
        j->b = body;
        assign(j, j->lane, ctz64(j, R_(mb)));
        gcc_jit_rvalue *pp = j->fast_priv ? priv_lane_ptr(j) : fast_ptr(j, vt->size);
        for (uint32_t c = 0; c < n; c++) assign(j, typed_at(j, pp, c * cb, T), V(j, inst, in->ops[1], c));
        assign(j, mb, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(mb), bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(mb), ci(j, U, 1))));
        gcc_jit_block_end_with_jump(j->b, NULL, head);
      } else {
        loop_begin(j, &lp);
        gcc_jit_block *act = nb(j), *skip = nb(j);
        gcc_jit_block_end_with_conditional(j->b, NULL, MASK(j), act, skip);
        j->b = act;
        gcc_jit_rvalue *pp = j->fast_priv ? priv_lane_ptr(j) : fast_ptr(j, vt->size);
        for (uint32_t c = 0; c < n; c++) assign(j, typed_at(j, pp, c * cb, T), V(j, inst, in->ops[1], c));
        gcc_jit_block_end_with_jump(j->b, NULL, skip);
        j->b = skip;
        loop_end(j, &lp);
        gcc_jit_block_end_with_jump(j->b, NULL, after);
      }
    }
    j->b = j->slow;
    if (value_slot(j, inst, in->ops[1])) {
      ldst_call(j, idx, j->k->slot_off[vidx(j, inst, in->ops[1])], vt->size, n, cb, true, al,
                value_slot(j, inst, in->ops[1]));
      gcc_jit_block_end_with_jump(j->b, NULL, after);
      j->b = after;
      return;
    }
  }
  loop_act(j, &lp);
  gcc_jit_block *act = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, MASK(j), act, join);
  j->b = act;
  gcc_jit_rvalue *p = checked_ptr(j, idx, V(j, inst, in->ops[0], 0), vt->size, al, true);
  gcc_jit_block *st = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, cmp(j, GCC_JIT_COMPARISON_NE, p, gcc_jit_context_null(j->cx, j->t_u8p)), true), st, join);
  j->b = st;
  for (uint32_t c = 0; c < n; c++) assign(j, typed_at(j, p, c * cb, T), V(j, inst, in->ops[1], c));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  loop_end(j, &lp);
  if (after) { gcc_jit_block_end_with_jump(j->b, NULL, after); j->b = after; }
}

/* Zeroes instance inst's Function variables in the active lanes' private memory. */
void zero_private(J *j, uint32_t inst) {
  const jit_inst *I = &j->k->inst[inst];
  if (I->priv_end <= I->priv_off) return;
  jloop lp;
  loop_begin(j, &lp);
  gcc_jit_block *act = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, MASK(j), act, join);
  j->b = act;
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_u[3],
      bin(j, GCC_JIT_BINARY_OP_MULT, j->t_u[3], cast(j, L(j), j->t_u[3]), R_(wfl(j, j->w_priv_stride))),
      ci(j, j->t_u[3], (long)I->priv_off));
  memset0(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_priv), off), NULL),
          I->priv_end - I->priv_off);
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  loop_end(j, &lp);
}

/* The private-memory regions of subgroup j->c's lanes (region table entries
 * priv_base + lane). */
void emit_priv_regions(J *j) {
  jit_kernel *k = j->k;
  const ld_addr_layout *a = &k->m->layout;
  if (!k->priv_bytes) return;
  uint64_t n_table = (uint64_t)1 << (k->m->addr_bits - a->shift);
  if (a->priv_base >= n_table) return;
  uint64_t hi = n_table - a->priv_base < j->S ? n_table - a->priv_base : j->S;
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  loop_range(j, &lp, 0, (uint32_t)hi);
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions),
      bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, L(j), ci(j, j->t_i32, (long)a->priv_base)));
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), R_(wfl(j, j->w_priv_stride)));
  assign(j, gcc_jit_lvalue_access_field(reg, NULL, j->r_base),
         gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_priv), off), NULL));
  assign(j, gcc_jit_lvalue_access_field(reg, NULL, j->r_size), ci(j, U, (long)k->priv_bytes));
  assign(j, gcc_jit_lvalue_access_field(reg, NULL, j->r_wsize), ci(j, U, (long)k->priv_bytes));
  loop_end(j, &lp);
}

/* The plain read-modify-writes (atomic_lanes' `plain`) of lanes whose
 * addresses are consecutive (a known stride of the element's size: hist's
 * bins[lid] under its `if`) as one masked vector load, the operation and a
 * masked vector store (AVX-512, S * size = 64 or 32 bytes): the lanes never
 * share an element, so their order does not matter, and masked-off lanes
 * are neither read nor written (nor fault).  An inactive lane's result
 * keeps its old value (the load merges under the mask).  base: the run's
 * private copy (deferred atomics), else the region's.  false: not
 * applicable, nothing emitted.  SPIRV_SG_JIT_NO_VEC_ATOMIC=1: lane by lane. */
static bool atomic_vec(J *j, uint32_t inst, const ld_insn *in, const ld_type *ct, gcc_jit_rvalue *base,
                       gcc_jit_block *after) {
  SpvOp op = in->op;
  uint32_t sz = ct->width / 8;
  bool zmm = j->S * sz == 64 && has_flag(j->mflags, "-mavx512f");
  bool ymm = j->S * sz == 32 && has_flag(j->mflags, "-mavx512f") && has_flag(j->mflags, "-mavx512vl");
  if (!(zmm || ymm) || j->one_lane || getenv("SPIRV_SG_JIT_NO_VEC_ATOMIC")) return false;
  bool noval = op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement;
  gcc_jit_field *vs = noval ? NULL : value_slot(j, inst, in->ops[3]);
  gcc_jit_field *rs = value_slot(j, inst, in->result);
  int64_t st = 0;
  gcc_jit_rvalue *flag = NULL;
  if ((!noval && !vs) || !rs || !cond_stride(j, inst, in->ops[0], &st, &flag, 0) || flag || st != (int64_t)sz)
    return false;
  gcc_jit_type *U = j->t_u[3], *K = j->t_u[1];
  uint64_t fullm = (1ull << j->S) - 1;
  fuse_close(j);
  /* the active lanes as bits */
  gcc_jit_lvalue *km = local(j, K);
  if (j->full) {
    assign(j, km, ci(j, K, (long)fullm));
  } else if (j->cur_tw) {
    assign(j, km, cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, R_(j->cur_tw), U), ci(j, U, (long)fullm)), K));
  } else {
    gcc_jit_lvalue *mb = local(j, j->t_u[2]);
    assign(j, mb, ci(j, j->t_u[2], 0));
    jloop lp;
    loop_begin(j, &lp);
    assign(j, mb, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[2], R_(mb),
        bin(j, GCC_JIT_BINARY_OP_LSHIFT, j->t_u[2], cast(j, MASK(j), j->t_u[2]), cast(j, L(j), j->t_u[2]))));
    loop_end(j, &lp);
    assign(j, km, cast(j, R_(mb), K));
  }
  /* lane 0's place: the first active lane's offset less its lanes before */
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(j->fast_off0),
      bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, R_(j->fast_first), U), ci(j, U, sz)));
  gcc_jit_lvalue *da = local(j, U);
  assign(j, da, bin(j, GCC_JIT_BINARY_OP_PLUS, U, gcc_jit_context_new_bitcast(j->cx, NULL, base ? base : R_(j->fast_base), U), off));
  gcc_jit_type *et = sz == 4 ? j->t_u[2] : j->t_u[3];
  gcc_jit_type *vt = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(et, j->S), sz);
  gcc_jit_type *vp = gcc_jit_type_get_pointer(vt);
  gcc_jit_lvalue *vv = local(j, vt), *rv = local(j, vt), *tmp = local(j, vt);
  if (!noval)
    assign(j, vv, R_(gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(
        slot_lv(j, vs, 1, 0, ci(j, j->t_i32, 0)), NULL), vp), NULL)));
  gcc_jit_lvalue *res = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(
      slot_lv(j, rs, 1, 0, ci(j, j->t_i32, 0)), NULL), vp), NULL);
  assign(j, rv, R_(res));
  const char *opn = op == SpvOpAtomicAnd ? "vpand" : op == SpvOpAtomicOr ? "vpor" : op == SpvOpAtomicXor ? "vpxor" :
                    op == SpvOpAtomicSMin ? "vpmins" : op == SpvOpAtomicSMax ? "vpmaxs" :
                    op == SpvOpAtomicUMin ? "vpminu" : op == SpvOpAtomicUMax ? "vpmaxu" :
                    (op == SpvOpAtomicISub || op == SpvOpAtomicIDecrement) ? "vpsub" : "vpadd";
  char q = sz == 4 ? 'd' : 'q';
  char ones[80] = "";
  if (noval)   /* %2 = 1 in every element: all bits set, shifted right */
    snprintf(ones, sizeof ones, "vpternlogd $0xff, %%2, %%2, %%2\n\tvpsrl%c $%u, %%2, %%2\n\t", q, sz * 8 - 1);
  char tpl[300];
  /* rv{k} = the old elements; tmp = rv op vv (Exchange: vv); the elements
   * under k = tmp */
  if (op == SpvOpAtomicExchange)
    snprintf(tpl, sizeof tpl, "vmovdqu%u (%%3), %%0%%{%%4%%}\n\tvmovdqa64 %%2, %%1\n\tvmovdqu%u %%1, (%%3)%%{%%4%%}",
             sz * 8, sz * 8);
  else
    snprintf(tpl, sizeof tpl, "%svmovdqu%u (%%3), %%0%%{%%4%%}\n\t%s%c %%2, %%0, %%1\n\tvmovdqu%u %%1, (%%3)%%{%%4%%}",
             ones, sz * 8, opn, q, sz * 8);
  gcc_jit_extended_asm *x = gcc_jit_block_add_extended_asm(j->b, NULL, tpl);
  gcc_jit_extended_asm_add_output_operand(x, NULL, "+v", rv);
  gcc_jit_extended_asm_add_output_operand(x, NULL, "=&v", tmp);
  if (noval) gcc_jit_extended_asm_add_output_operand(x, NULL, "=&v", vv);
  else gcc_jit_extended_asm_add_input_operand(x, NULL, "v", R_(vv));
  gcc_jit_extended_asm_add_input_operand(x, NULL, "r", R_(da));
  gcc_jit_extended_asm_add_input_operand(x, NULL, "Yk", R_(km));
  gcc_jit_extended_asm_add_clobber(x, "memory");
  gcc_jit_extended_asm_set_volatile_flag(x, 1);
  j->n_stmts++;
  assign(j, res, R_(rv));
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  return true;
}

/* One lane's plain read-modify-write (atomic_lanes), at the lane j->lane;
 * base as there.  A result nothing reads is not stored (hist's atomic_inc:
 * one read-modify-write instruction per lane). */
static void atomic_plain_lane(J *j, uint32_t inst, const ld_insn *in, const ld_type *ct, gcc_jit_rvalue *base,
                              bool res_unused) {
  SpvOp op = in->op;
  bool noval = op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement;
  uint32_t sz = ct->width / 8;
  gcc_jit_type *T = scal(j, ct);
  /* base: the same offset in the run's private copy (deferred atomics) */
  gcc_jit_lvalue *d = typed_at(j, base ? lane_ptr_in(j, base) : fast_ptr(j, sz), 0, T);
  gcc_jit_lvalue *old = local(j, T);
  assign(j, old, R_(d));
  gcc_jit_rvalue *v = noval ? ci(j, T, 1) : cast(j, V(j, inst, in->ops[3], 0), T);
  if (op == SpvOpAtomicExchange) {
    assign(j, d, v);
  } else if (op == SpvOpAtomicSMin || op == SpvOpAtomicSMax || op == SpvOpAtomicUMin || op == SpvOpAtomicUMax) {
    /* the smaller (larger) of old and v, compared signed or unsigned */
    bool sg = op == SpvOpAtomicSMin || op == SpvOpAtomicSMax, mn = op == SpvOpAtomicSMin || op == SpvOpAtomicUMin;
    gcc_jit_type *ST = sscal(j, ct);
    gcc_jit_rvalue *a = sg ? cast(j, R_(old), ST) : R_(old), *b = sg ? cast(j, v, ST) : v;
    assign(j, d, blend_by(j, b2u8(j, cmp(j, mn ? GCC_JIT_COMPARISON_LT : GCC_JIT_COMPARISON_GT, b, a)), v, R_(old), T));
  } else {
    enum gcc_jit_binary_op bop = op == SpvOpAtomicAnd ? GCC_JIT_BINARY_OP_BITWISE_AND :
        op == SpvOpAtomicOr ? GCC_JIT_BINARY_OP_BITWISE_OR : op == SpvOpAtomicXor ? GCC_JIT_BINARY_OP_BITWISE_XOR :
        (op == SpvOpAtomicISub || op == SpvOpAtomicIDecrement) ? GCC_JIT_BINARY_OP_MINUS : GCC_JIT_BINARY_OP_PLUS;
    assign(j, d, bin(j, bop, T, R_(old), v));
  }
  if (!res_unused) assign(j, res_lv(j, inst, in->result, 0), R_(old));
}

/* The active lanes' read-modify-writes of an atomic (emit_atomic), in
 * increasing lane order, each address valid: as plain loads and stores
 * (plain) or through builtin af; then to after.  Plain, with every lane
 * active (J.full): unrolled, one lane after the other with the lane a
 * constant (no loop counter, and GCC folds each lane's index into its
 * address; SPIRV_SG_JIT_NO_ATOMIC_UNROLL=1: the loop). */
static void atomic_lanes(J *j, uint32_t inst, const ld_insn *in, const ld_type *ct, bool plain,
                         gcc_jit_function *af, gcc_jit_rvalue *base, gcc_jit_block *after) {
  if (plain && atomic_vec(j, inst, in, ct, base, after)) return;
  SpvOp op = in->op;
  bool noval = op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement;
  uint32_t sz = ct->width / 8;
  gcc_jit_type *T = scal(j, ct);
  bool res_unused = !id_used(j->k->inst[inst].fn, in->result) && !getenv("SPIRV_SG_JIT_KEEP_ATOMIC_RESULT");
  if (plain && j->full && !j->one_lane && !getenv("SPIRV_SG_JIT_NO_ATOMIC_UNROLL")) {
    fuse_close(j);
    for (uint32_t l = 0; l < j->S; l++) {
      assign(j, j->lane, ci(j, j->t_i32, (long)l));
      atomic_plain_lane(j, inst, in, ct, base, res_unused);
    }
    j->n_stmts += j->S;
    gcc_jit_block_end_with_jump(j->b, NULL, after);
    return;
  }
  jloop lp;
  loop_begin(j, &lp);
  gcc_jit_block *act = nb(j), *skip = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, MASK(j), act, skip);
  j->b = act;
  if (plain) {
    atomic_plain_lane(j, inst, in, ct, base, res_unused);
  } else if (op == SpvOpAtomicSMin || op == SpvOpAtomicSMax || op == SpvOpAtomicUMin || op == SpvOpAtomicUMax) {
    /* no fetch-min builtin: a compare-and-swap loop, sequentially
     * consistent; a value that would not change the element stores nothing
     * (the loaded element is the result, as a read at that point) */
    gcc_jit_type *BT = gcc_jit_context_get_type(j->cx, sz == 4 ? GCC_JIT_TYPE_INT : GCC_JIT_TYPE_LONG_LONG);
    char nm[48];
    snprintf(nm, sizeof nm, "__atomic_load_%u", sz);
    gcc_jit_function *ld = gcc_jit_context_get_builtin_function(j->cx, nm);
    snprintf(nm, sizeof nm, "__atomic_compare_exchange_%u", sz);
    gcc_jit_function *cx = gcc_jit_context_get_builtin_function(j->cx, nm);
    gcc_jit_lvalue *pp = local(j, gcc_jit_type_get_volatile(j->t_vp)), *ex = local(j, BT), *nv = local(j, T);
    assign(j, pp, cast(j, fast_ptr(j, sz), gcc_jit_type_get_volatile(j->t_vp)));
    gcc_jit_type *cvp = gcc_jit_type_get_pointer(gcc_jit_type_get_volatile(gcc_jit_type_get_const(j->t_void)));
    gcc_jit_rvalue *la[2] = {cast(j, R_(pp), cvp), ci(j, j->t_i32, 5 /* __ATOMIC_SEQ_CST */)};
    assign(j, ex, cast(j, gcc_jit_context_new_call(j->cx, NULL, ld, 2, la), BT));
    gcc_jit_rvalue *v = cast(j, V(j, inst, in->ops[3], 0), T);
    bool sg = op == SpvOpAtomicSMin || op == SpvOpAtomicSMax, mn = op == SpvOpAtomicSMin || op == SpvOpAtomicUMin;
    gcc_jit_type *ST = sscal(j, ct);
    gcc_jit_block *loop = nb(j), *swap = nb(j), *done = nb(j);
    gcc_jit_block_end_with_jump(j->b, NULL, loop);
    j->b = loop;
    gcc_jit_rvalue *o = cast(j, R_(ex), T);
    gcc_jit_rvalue *a = sg ? cast(j, o, ST) : o, *b = sg ? cast(j, v, ST) : v;
    gcc_jit_rvalue *takes = cmp(j, mn ? GCC_JIT_COMPARISON_LT : GCC_JIT_COMPARISON_GT, b, a);
    assign(j, nv, v);
    gcc_jit_block_end_with_conditional(j->b, NULL, takes, swap, done);
    j->b = swap;
    gcc_jit_rvalue *ca[6] = {R_(pp), cast(j, gcc_jit_lvalue_get_address(ex, NULL), j->t_vp), cast(j, R_(nv), BT),
                             gcc_jit_context_new_rvalue_from_int(j->cx, j->t_bool, 0), ci(j, j->t_i32, 5), ci(j, j->t_i32, 5)};
    gcc_jit_block_end_with_conditional(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, cx, 6, ca), done, loop);
    j->b = done;
    assign(j, res_lv(j, inst, in->result, 0), cast(j, R_(ex), T));
  } else {
    /* the builtins take and return int / long long */
    gcc_jit_type *BT = gcc_jit_context_get_type(j->cx, sz == 4 ? GCC_JIT_TYPE_INT : GCC_JIT_TYPE_LONG_LONG);
    gcc_jit_rvalue *v = noval ? ci(j, BT, 1) : cast(j, cast(j, V(j, inst, in->ops[3], 0), T), BT);
    gcc_jit_rvalue *args[3] = {cast(j, fast_ptr(j, sz), gcc_jit_type_get_volatile(j->t_vp)), v,
                               ci(j, j->t_i32, 5 /* __ATOMIC_SEQ_CST */)};
    assign(j, res_lv(j, inst, in->result, 0), cast(j, gcc_jit_context_new_call(j->cx, NULL, af, 3, args), T));
  }
  gcc_jit_block_end_with_jump(j->b, NULL, skip);
  j->b = skip;
  loop_end(j, &lp);
  gcc_jit_block_end_with_jump(j->b, NULL, after);
}

/* Atomic integer read-modify-writes (IAdd, ISub, IIncrement, IDecrement,
 * And, Or, Xor, SMin, SMax, UMin, UMax, Exchange); false: not inline (the
 * interpreter's handler). */
bool emit_atomic(J *j, uint32_t inst, const ld_insn *in) {
  const ld_type *ct; uint32_t n;
  SpvOp op = in->op;
  /* 32/64-bit integer read-modify-writes: lane by lane in increasing lane
   * order, sequentially consistent, as the interpreter; the fast path is
   * every active lane's address valid and aligned */
  bool noval = op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement;
  if (in->n_ops < (noval ? 3u : 4u) || !lane_shape(in->type, &ct, &n) || n != 1 || ct->kind != LD_T_INT ||
      (ct->width != 32 && ct->width != 64) || !value_slot(j, inst, in->result))
    return false;
  uint32_t sz = ct->width / 8;
  /* min and max have no fetch builtin: where other threads may run (the
   * locked path) a compare-and-swap loop (atomic_lanes) */
  bool minmax = op == SpvOpAtomicSMin || op == SpvOpAtomicSMax || op == SpvOpAtomicUMin || op == SpvOpAtomicUMax;
  if (getenv("SPIRV_SG_JIT_NO_ATOMIC_MINMAX") && (minmax || op == SpvOpAtomicExchange)) return false;
  const char *fnm = op == SpvOpAtomicAnd ? "fetch_and" : op == SpvOpAtomicOr ? "fetch_or" : op == SpvOpAtomicXor ? "fetch_xor" :
                    (op == SpvOpAtomicISub || op == SpvOpAtomicIDecrement) ? "fetch_sub" :
                    op == SpvOpAtomicExchange ? "exchange" : "fetch_add";
  char bname[40];
  snprintf(bname, sizeof bname, "__atomic_%s_%u", fnm, sz);
  gcc_jit_function *af = minmax ? NULL : gcc_jit_context_get_builtin_function(j->cx, bname);
  if (!af && !minmax) return false;
  gcc_jit_block *after = mem_fast_(j, inst, in->ops[0], sz, sz, true, false, true, true);
  if (!after) return false;
  gcc_jit_block *fast = j->b, *slow = j->slow;
  j->b = slow;
  emit_generic(j, inst, in);
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = fast;
  /* every active lane's address is valid: the active lanes' RMWs in lane
   * order (an inactive lane's result keeps its old value, as a blend).
   * Local memory: one thread runs all of a work-group's subgroups, one at a
   * time, so the RMWs need no atomic instruction.  Other memory: neither
   * when one thread runs the whole range (jit_wgs.alone: -j 1, or a launch
   * too small to share), since no other thread of the launch runs
   * meanwhile; else the builtin (a locked instruction). */
  const ld_type *pt = j->m->values[in->ops[0]].type;
  if (pt && pt->kind == LD_T_POINTER && pt->storage == SpvStorageClassWorkgroup) {
    atomic_lanes(j, inst, in, ct, true, af, NULL, after);
  } else {
    gcc_jit_block *pl = nb(j), *lk = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(wfl(j, j->w_alone)),
                                                       ci(j, j->t_i32, 0)), pl, lk);
    j->b = pl;
    atomic_lanes(j, inst, in, ct, true, af, NULL, after);
    j->b = lk;
    /* a deferred argument's addition (jit_kernel.defer): into this run's
     * private copy while the lanes' region is the one the run defers */
    uint8_t slot = j->k->defer_of ? j->k->defer_of[vidx(j, inst, in->ops[0])] : 0;
    if (slot && j->fast_reg0) {
      gcc_jit_block *dp = nb(j), *lk2 = nb(j);
      gcc_jit_rvalue *dreg = R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(wfl(j, j->w_defer_reg)),
                                                                 ci(j, j->t_i32, slot - 1)));
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(j->fast_reg0), dreg), dp, lk2);
      j->b = dp;
      gcc_jit_rvalue *db = R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(wfl(j, j->w_defer_base)),
                                                               ci(j, j->t_i32, slot - 1)));
      atomic_lanes(j, inst, in, ct, true, af, db, after);
      j->b = lk2;
    }
    atomic_lanes(j, inst, in, ct, false, af, NULL, after);
  }
  j->b = after;
  return true;
}

/* ------------------------------------------------- promoted private arrays
 *
 * (J.promo_var)  Taken only when every Function variable of every instance
 * qualifies (an out-of-bounds index could otherwise reach a variable kept in
 * private memory) and the kernel never suspends (the locals need no frame
 * home).  An access whose active lanes' indices are all in [0, N) is a
 * local access; any other copies every promoted array to the lanes' private
 * memory, runs the ordinary checked access there (the interpreter's fault
 * records, or the bytes of a neighbouring variable, as in the interpreter)
 * and copies them back. */

static bool promo_elem_ok(const ld_type *t) {
  return t && (t->kind == LD_T_INT || t->kind == LD_T_FLOAT) && (t->width == 32 || t->width == 64);
}

/* walk_id_operands' callback for promo_step: marks the id operands */
static void isid_cb(void *u, uint32_t w, spv_operand_class cls) {
  if (cls == SPV_OPND_ID && w < 64) ((uint8_t *)u)[w] = 1;
}

/* One instruction of promo_plan's pass 0 (variables), 1 (chains and casts)
 * or 2 (uses); false: nothing is promoted. */
static bool promo_step(J *j, int pass, uint32_t ii, const ld_insn *in) {
  const ld_module *m = j->m;
  if (pass == 0) {
    if (in->op != SpvOpVariable) return true;
    const ld_type *pt = in->type ? in->type->elem : NULL;
    if (in->n_ops > 1 || !pt || pt->kind != LD_T_ARRAY || !promo_elem_ok(pt->elem) || pt->count > 256 ||
        pt->size != pt->count * pt->elem->size)
      return false;
    j->promo_var[vidx(j, ii, in->result)] = pt->elem;
    return true;
  }
  if (pass == 1) {
    bool chain = in->op == SpvOpAccessChain || in->op == SpvOpInBoundsAccessChain;
    bool pchain = in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain;
    if (in->op == SpvOpBitcast && in->n_ops == 1 && in->ops[0] < m->bound) {
      /* a cast of a variable to a pointer to a scalar of the element's
       * width is its element 0 (clang: a block read stored as uint);
       * of a chain, the same element; to a byte pointer, promo_cast */
      size_t sx = vidx(j, ii, in->ops[0]), rx = vidx(j, ii, in->result);
      const ld_type *to = in->type && in->type->kind == LD_T_POINTER ? in->type->elem : NULL;
      uint32_t base = j->promo_var[sx] ? in->ops[0] : j->promo_base[sx];
      const ld_type *et = base ? j->promo_var[vidx(j, ii, base)] : NULL;
      if (et && to && promo_elem_ok(to) && to->width == et->width) {
        j->promo_base[rx] = base;
        j->promo_idx[rx] = j->promo_var[sx] ? 0 : j->promo_idx[sx];
      } else if (j->promo_var[sx]) {
        j->promo_cast[rx] = true;
      }
    }
    if ((chain || pchain) && in->n_ops >= 1 && in->ops[0] < m->bound && j->promo_var[vidx(j, ii, in->ops[0])]) {
      bool zero = true;
      if (pchain) zero = in->n_ops == 3 && m->values[in->ops[1]].kind == LD_V_CONSTANT &&
                         const_u32(m, in->ops[1], &zero) == 0 && zero;
      if (!zero || in->n_ops != (pchain ? 3u : 2u)) return false;
      j->promo_base[vidx(j, ii, in->result)] = in->ops[0];
      j->promo_idx[vidx(j, ii, in->result)] = in->ops[in->n_ops - 1];
      j->promo_only[vidx(j, ii, in->result)] = true;   /* until a cast uses it (below) */
    }
    return true;
  }
  /* every use of a variable is a chain or cast of it, every use of a chain a
   * load from it or a store to it.  The id operands come from the opcode's
   * operand layout (a load's `Aligned 32` is a literal, not %32); with no
   * layout, or over 64 operands, a literal word equal to an id counts as a
   * use: that only turns promotion off */
  if (in->op == SpvOpLifetimeStart || in->op == SpvOpLifetimeStop || in->op == SpvOpLine ||
      in->op == SpvOpNoLine || in->op == SpvOpVariable)
    return true;
  bool is_chain = in->result && in->result < m->bound &&
                  (j->promo_base[vidx(j, ii, in->result)] || j->promo_cast[vidx(j, ii, in->result)]);
  uint8_t isid[64] = {0};
  bool walked = in->n_ops <= 64 && !getenv("SPIRV_SG_JIT_PROMO_WORDS") && walk_id_operands(in, isid_cb, isid);
  for (uint32_t q = 0; q < in->n_ops; q++) {
    if (walked && !isid[q]) continue;
    uint32_t id = in->ops[q];
    if (id == 0 || id >= m->bound) continue;
    size_t x = vidx(j, ii, id);
    if (j->promo_var[x] && !(is_chain && q == 0)) return false;
    /* a chain cast to a pointer to the same element */
    if (j->promo_base[x] && in->op == SpvOpBitcast && q == 0 && in->result < m->bound &&
        j->promo_base[vidx(j, ii, in->result)]) {
      j->promo_only[x] = false;   /* the cast reads the chain's lanes */
      continue;
    }
    /* a byte-pointer cast of a variable: lifetime markers (skipped above)
     * and whole copies (run on private memory, promo_copy) */
    if (j->promo_cast[x] && !(in->op == SpvOpCopyMemorySized && q < 2)) return false;
    if (!j->promo_base[x]) continue;
    const ld_type *et = j->promo_var[vidx(j, ii, j->promo_base[x])];
    const ld_type *vt = in->op == SpvOpLoad ? in->type : in->op == SpvOpStore ? m->values[in->ops[1]].type : NULL;
    /* the pointer operand of a load or store of a scalar of the element's width */
    if (!(q == 0 && vt && promo_elem_ok(vt) && vt->width == et->width)) return false;
  }
  return true;
}

void promo_plan(J *j, bool may_suspend) {
  jit_kernel *k = j->k;
  const ld_module *m = j->m;
  size_t nv = (size_t)k->n_inst * m->bound;
  j->promo_any = false;
  j->promo_var = calloc(nv + 1, sizeof *j->promo_var);
  j->promo_base = calloc(nv + 1, sizeof *j->promo_base);
  j->promo_idx = calloc(nv + 1, sizeof *j->promo_idx);
  j->promo_uni = calloc(nv + 1, sizeof *j->promo_uni);
  j->promo_lv = calloc(nv + 1, sizeof *j->promo_lv);
  j->promo_cast = calloc(nv + 1, sizeof *j->promo_cast);
  j->promo_only = calloc(nv + 1, sizeof *j->promo_only);
  j->promo_cs = calloc(nv + 1, sizeof *j->promo_cs);
  if (!j->promo_cast || !j->promo_only || !j->promo_cs || !j->promo_var || !j->promo_base || !j->promo_idx || !j->promo_uni || !j->promo_lv || may_suspend ||
      getenv("SPIRV_SG_JIT_NO_PROMOTE"))
    return;
  /* candidates: every Function variable, then the chains and casts based
   * on them, then every use (promo_step) */
  bool ok = true;
  for (int pass = 0; ok && pass < 3; pass++)
    for (uint32_t ii = 0; ok && ii < k->n_inst; ii++) {
      const ld_function *fn = k->inst[ii].fn;
      for (uint32_t b = 0; ok && b < fn->n_blocks; b++) {
        if (k->inst[ii].block_seg[b] < 0) continue;
        for (uint32_t i = 0; ok && i < fn->blocks[b].n_insns; i++) ok = promo_step(j, pass, ii, &fn->blocks[b].insns[i]);
      }
    }
  if (!ok) { memset(j->promo_var, 0, (nv + 1) * sizeof *j->promo_var); memset(j->promo_base, 0, (nv + 1) * sizeof *j->promo_base); return; }
  ld_uniformity *u = ld_uniformity_compute(m, LD_UNI_PRIVATE_VARIES);
  for (size_t x = 0; x < nv; x++) {
    if (j->promo_var[x]) j->promo_any = true;
    if (j->promo_base[x]) j->promo_uni[x] = u && !ld_uni_value_varies(u, j->promo_idx[x]);
  }
  ld_uniformity_free(u);
}

/* Element e of the current lane in promoted array arr (a[e][l]). */
static gcc_jit_lvalue *promo_cell(J *j, gcc_jit_lvalue *arr, gcc_jit_rvalue *e) {
  return gcc_jit_context_new_array_access(j->cx, NULL, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(arr), e)), L(j));
}

/* The promoted arrays' locals of the kernel function being emitted. */
void promo_locals(J *j) {
  if (!j->promo_any) return;
  size_t nv = (size_t)j->k->n_inst * j->m->bound;
  for (size_t x = 0; x < nv; x++) {
    j->promo_lv[x] = NULL;
    const ld_type *et = j->promo_var[x];
    if (!et) continue;
    const ld_type *pt = j->m->values[x % j->m->bound].u.insn->type->elem;
    gcc_jit_type *row = gcc_jit_context_new_array_type(j->cx, NULL, scal(j, et), (int)j->S);
    char name[32];
    snprintf(name, sizeof name, "P%zu", x);
    j->promo_lv[x] = gcc_jit_function_new_local(j->fn, NULL, gcc_jit_context_new_array_type(j->cx, NULL, row, (int)pt->count), name);
  }
}

static bool promo_const_index(J *j, size_t x, uint32_t *e);
/* Whether instance inst's entry block stores every element of its promoted
 * array var, each at a constant index, before any other instruction uses a
 * pointer into it and before any call: then nothing can read the zeros its
 * start would give it (transpose's v[16]: 1 KiB per subgroup).
 * Conservative: an operand that merely equals such an id also stops it.
 * SPIRV_SG_JIT_PROMO_ZERO_ALL zeroes every array. */
static bool promo_written_first(J *j, uint32_t inst, uint32_t var) {
  const ld_module *m = j->m;
  const ld_function *fn = j->k->inst[inst].fn;
  const ld_type *pt = m->values[var].u.insn->type->elem;
  if (!fn || !fn->n_blocks || !pt || pt->count == 0 || pt->count > 256 || getenv("SPIRV_SG_JIT_PROMO_ZERO_ALL"))
    return false;
  uint8_t seen[256] = {0};
  uint32_t n = 0;
  const ld_block *b = &fn->blocks[0];
  for (uint32_t i = 0; i < b->n_insns; i++) {
    const ld_insn *in = &b->insns[i];
    if (in->op == SpvOpFunctionCall) return false;
    if (in->op == SpvOpStore && in->n_ops >= 2 && in->ops[0] < m->bound && j->promo_base[vidx(j, inst, in->ops[0])] == var) {
      uint32_t e;
      if (!promo_const_index(j, vidx(j, inst, in->ops[0]), &e) || e >= pt->count) return false;
      if (!seen[e]) {
        seen[e] = 1;
        if (++n == pt->count) return true;
      }
      continue;
    }
    bool derive = in->op == SpvOpAccessChain || in->op == SpvOpInBoundsAccessChain || in->op == SpvOpPtrAccessChain ||
                  in->op == SpvOpInBoundsPtrAccessChain || in->op == SpvOpBitcast || in->op == SpvOpVariable;
    if (derive) continue;   /* a pointer made, nothing read */
    for (uint32_t q = 0; q < in->n_ops; q++) {
      uint32_t id = in->ops[q];
      if (id && id < m->bound && (id == var || j->promo_base[vidx(j, inst, id)] == var)) return false;
    }
  }
  return false;
}

/* Zeroes instance inst's promoted arrays (the active lanes', or all). */
void promo_zero(J *j, uint32_t inst, bool all_lanes) {
  if (!j->promo_any) return;
  const ld_module *m = j->m;
  for (uint32_t id = 1; id < m->bound; id++) {
    size_t x = vidx(j, inst, id);
    if (!j->promo_var[x] || !j->promo_lv[x]) continue;
    if (promo_written_first(j, inst, id)) continue;
    const ld_type *pt = m->values[id].u.insn->type->elem;
    if (all_lanes || j->full) {   /* sg_kernel_full: every lane is active */
      memset0(j, gcc_jit_lvalue_get_address(j->promo_lv[x], NULL), (uint64_t)pt->size * j->S);
      continue;
    }
    gcc_jit_type *T = scal(j, pt->elem);
    jloop lp;
    for (uint32_t e = 0; e < pt->count; e++) {
      loop_begin(j, &lp);
      gcc_jit_lvalue *d = promo_cell(j, j->promo_lv[x], ci(j, j->t_i32, e));
      assign(j, d, mblend(j, ci(j, T, 0), R_(d), T));
      loop_end(j, &lp);
    }
  }
}

/* Copies every promoted array to the lanes' private memory (to_priv) or
 * back: the body of a shared block (xfer_all(j, 2 / 3)). */
void promo_sync_body(J *j, bool to_priv) {
  const ld_module *m = j->m;
  size_t nv = (size_t)j->k->n_inst * m->bound;
  for (size_t x = 0; x < nv; x++) {
    if (!j->promo_var[x] || !j->promo_lv[x]) continue;
    uint32_t inst = (uint32_t)(x / m->bound), id = (uint32_t)(x % m->bound);
    const ld_type *pt = m->values[id].u.insn->type->elem;
    gcc_jit_type *T = scal(j, pt->elem);
    jloop lp;
    loop_begin(j, &lp);
    gcc_jit_rvalue *p = priv_ptr(j, inst, id);
    for (uint32_t e = 0; e < pt->count; e++) {
      gcc_jit_lvalue *a = promo_cell(j, j->promo_lv[x], ci(j, j->t_i32, e));
      gcc_jit_lvalue *pm = typed_at(j, p, e * pt->elem->size, T);
      if (to_priv) assign(j, pm, R_(a)); else assign(j, a, R_(pm));
    }
    loop_end(j, &lp);
  }
}

/* OpCopyMemorySized: with promoted arrays, the interpreter's handler on
 * the lanes' private memory, the arrays copied there and back around it
 * (their byte-pointer casts reach them only through such copies). */
void promo_copy(J *j, uint32_t inst, const ld_insn *in) {
  if (!j->promo_any) { emit_generic(j, inst, in); return; }
  fuse_close(j);
  xfer_all(j, 2);
  emit_generic(j, inst, in);
  xfer_all(j, 3);
}

/* An access chain that only promo_access uses, while promotion is on: no
 * lane array at its own place. */
bool promo_skip_chain(J *j, uint32_t inst, uint32_t id) {
  if (!j->promo_any || j->no_promo || id >= j->m->bound) return false;
  size_t x = vidx(j, inst, id);
  return j->promo_only[x] && j->promo_base[x] && j->promo_lv[vidx(j, inst, j->promo_base[x])] &&
         !shadowed(j, inst, id);
}
/* The constant element index of promoted chain x, if it has one inside
 * the array (*e; element 0 for a cast of the variable itself). */
static bool promo_const_index(J *j, size_t x, uint32_t *e) {
  const ld_module *m = j->m;
  uint32_t idv = j->promo_idx[x];
  const ld_type *pt = m->values[j->promo_base[x]].u.insn->type->elem;
  if (!idv) { *e = 0; return true; }
  if (m->values[idv].kind != LD_V_CONSTANT || !m->values[idv].type || m->values[idv].type->kind != LD_T_INT ||
      m->values[idv].type->size > 8 || getenv("SPIRV_SG_JIT_NO_PROMO_CONST"))
    return false;
  const ld_type *it = m->values[idv].type;
  uint64_t v = 0;
  memcpy(&v, m->values[idv].u.bytes, it->size);
  if (it->width < 64 && (v >> (it->width - 1) & 1)) v |= ~0ull << it->width;   /* signed, as PIX */
  if (v >= pt->count) return false;
  *e = (uint32_t)v;
  return true;
}

/* A chain into a promoted array (or a pointer cast of one) at a constant
 * index inside it, whose every use is a load from it, a store to it or
 * such a cast: promo_access reaches the cell directly, with no slow path
 * that would read its lanes, so it gets none (gemm's a[r] chains and their
 * uint casts: 30 lane loops less to compile). */
bool promo_const_ptr(J *j, uint32_t inst, uint32_t id) {
  if (!j->promo_any || j->no_promo || id >= j->m->bound) return false;
  size_t x = vidx(j, inst, id);
  if (j->promo_cs[x]) return j->promo_cs[x] == 2;
  j->promo_cs[x] = 1;
  uint32_t e;
  if (!j->promo_base[x] || !j->promo_lv[vidx(j, inst, j->promo_base[x])] || shadowed(j, inst, id) ||
      !promo_const_index(j, x, &e))
    return false;
  const ld_function *fn = j->k->inst[inst].fn;
  for (uint32_t b = 0; b < fn->n_blocks; b++)
    for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
      const ld_insn *u = &fn->blocks[b].insns[i];
      for (uint32_t q = 0; q < u->n_ops; q++) {
        if (u->ops[q] != id) continue;
        if ((u->op == SpvOpLoad && q == 0) || (u->op == SpvOpStore && q == 0)) continue;
        if (u->op == SpvOpBitcast && q == 0 && u->result && promo_const_ptr(j, inst, u->result)) continue;
        return false;
      }
    }
  j->promo_cs[x] = 2;
  return true;
}

/* In a lane loop: the current lane's store of in's value into promoted
 * cell `cell` (element type T; the value's type VT, bitcast when they
 * differ), or its load from it, blended under the mask. */
static void promo_move(J *j, uint32_t inst, const ld_insn *in, bool store, gcc_jit_lvalue *cell,
                       gcc_jit_type *T, gcc_jit_type *VT) {
  if (store) {
    gcc_jit_rvalue *v = V(j, inst, in->ops[1], 0);
    if (VT != T) v = gcc_jit_context_new_bitcast(j->cx, NULL, v, T);
    assign(j, cell, mblend(j, v, R_(cell), T));
  } else {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    gcc_jit_rvalue *v = R_(cell);
    if (VT != T) v = gcc_jit_context_new_bitcast(j->cx, NULL, v, VT);
    assign(j, r, mblend(j, v, R_(r), VT));
  }
}

/* A load of 32-bit elements at a lane-varying index in range, every lane
 * active, 16 lanes, AVX-512: one vpgatherdd from the promoted array (cell
 * e*S + l) instead of a lane loop, which GCC leaves scalar: its 16 4-byte
 * stores make the next vector read of the result wait for them to retire (a
 * store-forwarding stall: transpose's v[(l + k) & 15]).  The element index
 * goes through tgt[] as two 256-bit halves.  SPIRV_SG_JIT_NO_PGATHER keeps
 * the lane loop.  False: not applicable, nothing emitted. */
static bool promo_gather(J *j, uint32_t inst, const ld_insn *in, gcc_jit_lvalue *arr, uint32_t idv,
                         const ld_type *et) {
  const ld_module *m = j->m;
  gcc_jit_field *rs = value_slot(j, inst, in->result);
  if (!j->full || j->S != 16 || !rs || !idv || !has_flag(j->mflags, "-mavx512f") ||
      comp_bytes(j->k, in->type) != 4 || et->size != 4 || in->type->size != 4 ||
      getenv("SPIRV_SG_JIT_NO_PGATHER"))
    return false;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  jloop lp;
  loop_begin(j, &lp);
  gcc_jit_rvalue *ix = cast(j, cast(j, V(j, inst, idv, 0), sscal(j, m->values[idv].type)), I);
  assign(j, lane_arr(j, j->f_tgt, L(j)), bin(j, GCC_JIT_BINARY_OP_PLUS, I,
                                             bin(j, GCC_JIT_BINARY_OP_MULT, I, ix, ci(j, I, j->S)), L(j)));
  loop_end(j, &lp);
  gcc_jit_type *vt = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(j->t_u[2], 16), 4);
  gcc_jit_type *hv = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(j->t_u[2], 8), 4);
  gcc_jit_type *ht = gcc_jit_type_get_pointer(hv);
  gcc_jit_lvalue *rv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(
      lane_arr(j, rs, ci(j, I, 0)), NULL), gcc_jit_type_get_pointer(vt)), NULL);
  gcc_jit_lvalue *tmp = local(j, vt), *base = local(j, U);
  assign(j, base, gcc_jit_context_new_bitcast(j->cx, NULL, cast(j, gcc_jit_lvalue_get_address(
      gcc_jit_context_new_array_access(j->cx, NULL, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(arr),
                                                                                        ci(j, I, 0))), ci(j, I, 0)), NULL), gcc_jit_type_get_pointer(vt)), U));
  /* the halves in locals of their own: libgccjit 12 crashes when the asm
   * reads them straight from the lane array the loop above wrote */
  gcc_jit_lvalue *h0 = local(j, hv), *h1 = local(j, hv);
  assign(j, h0, R_(gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(lane_arr(j, j->f_tgt, ci(j, I, 0)), NULL), ht), NULL)));
  assign(j, h1, R_(gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(lane_arr(j, j->f_tgt, ci(j, I, 8)), NULL), ht), NULL)));
  gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL,
      "vinserti64x4 $1, %t3, %g2, %g1\n\tkxnorw %%k1, %%k1, %%k1\n\tvpxord %g0, %g0, %g0\n\t"
      "vpgatherdd (%4,%g1,4), %g0%{%%k1%}");
  gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", rv);
  gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", tmp);
  gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(h0));
  gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(h1));
  gcc_jit_extended_asm_add_input_operand(a, NULL, "r", R_(base));
  gcc_jit_extended_asm_add_clobber(a, "memory");
  gcc_jit_extended_asm_add_clobber(a, "k1");
  j->n_stmts++;
  return true;
}

/* A load (store: val != 0) through chain ptr of a promoted array.  True:
 * emitted. */
static bool promo_access(J *j, uint32_t inst, const ld_insn *in, bool store) {
  if (!j->promo_any || j->no_promo) return false;
  const ld_module *m = j->m;
  uint32_t ptr = in->ops[0];
  if (ptr >= m->bound) return false;
  size_t cx_ = vidx(j, inst, ptr);
  if (!j->promo_base[cx_]) return false;
  size_t vx = vidx(j, inst, j->promo_base[cx_]);
  const ld_type *et = j->promo_var[vx];
  const ld_type *pt = m->values[j->promo_base[cx_]].u.insn->type->elem;
  uint32_t idv = j->promo_idx[cx_];   /* 0: element 0 (a cast of the variable) */
  gcc_jit_type *T = scal(j, et), *U = j->t_u[3];
  const ld_type *vt = store ? m->values[in->ops[1]].type : in->type;
  gcc_jit_type *VT = scal(j, vt);
  gcc_jit_lvalue *arr = j->promo_lv[vx];
  if (!arr) return false;
  jloop lp;
  /* the index of lane l, as u64 (signed indices: negative ones are huge) */
#define PIX() (idv ? cast(j, cast(j, V(j, inst, idv, 0), sscal(j, m->values[idv].type)), U) : ci(j, U, 0))
  /* element 0, or a constant index inside the array: no test, no slow
   * path (gemm's unrolled a[r]: 32 accesses that GCC would otherwise
   * compile twice before folding the test away) */
  uint32_t ce = 0;
  bool in_range = promo_const_index(j, cx_, &ce);
  if (in_range) {
    loop_begin(j, &lp);
    promo_move(j, inst, in, store, promo_cell(j, arr, ci(j, j->t_i32, (long)ce)), T, VT);
    loop_end(j, &lp);
    return true;
  }
  /* an index whose bound (umax_of) is inside the array, and below 2^(w-1)
   * so that its signed reading is the same: no test, no slow path
   * (gemm's acc[r] and a[r] in its rolled r loop) */
  uint64_t imax = 0;
  const ld_type *ixt = idv ? m->values[idv].type : NULL;
  bool bounded = ixt && ixt->kind == LD_T_INT && ixt->width >= 2 && ixt->width <= 64 &&
                 !getenv("SPIRV_SG_JIT_NO_PROMO_BOUND") && umax_of(m, idv, &imax, 0) && imax < pt->count &&
                 imax < (1ull << (ixt->width - 1));
  gcc_jit_lvalue *bad = NULL;
  if (!bounded) {
    bad = local(j, U);
    assign(j, bad, ci(j, U, 0));
  }
  /* every lane active with one index (or none): a row, lane 0's index */
  bool row = !idv || (j->full && j->promo_uni[cx_]);
  gcc_jit_lvalue *i0u = NULL;
  if (row) {
    i0u = local(j, U);
    gcc_jit_lvalue *save = j->lane;
    fuse_close(j);
    j->lane = local(j, j->t_i32);
    assign(j, j->lane, ci(j, j->t_i32, 0));
    assign(j, i0u, PIX());
    j->lane = save;
    if (idv && bad) assign(j, bad, cast(j, cmp(j, GCC_JIT_COMPARISON_GE, R_(i0u), ci(j, U, (long)pt->count)), U));
  } else if (idv && bad) {
    loop_begin(j, &lp);
    assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad),
        bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, MASKV(j), U),
            cast(j, cmp(j, GCC_JIT_COMPARISON_GE, PIX(), ci(j, U, (long)pt->count)), U))));
    loop_end(j, &lp);
  }
  gcc_jit_block *fast = j->b, *slow = NULL, *after = nb(j);
  if (bad) {
    fast = nb(j);
    slow = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)), true), fast, slow);
  }
  j->b = fast;
  gcc_jit_lvalue *i0 = NULL;
  if (row) {
    i0 = local(j, j->t_i32);
    assign(j, i0, cast(j, R_(i0u), j->t_i32));
  }
  if (i0 || store || !promo_gather(j, inst, in, arr, idv, et)) {
    loop_begin(j, &lp);
    gcc_jit_rvalue *e;
    if (i0) e = R_(i0);
    else {   /* an inactive lane's index may be anything: row 0 */
      gcc_jit_rvalue *ixl = PIX();
      e = cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, ixl,
                      bin(j, GCC_JIT_BINARY_OP_MINUS, U, ci(j, U, 0),
                          cast(j, cmp(j, GCC_JIT_COMPARISON_LT, ixl, ci(j, U, (long)pt->count)), U))), j->t_i32);
    }
#undef PIX
    promo_move(j, inst, in, store, promo_cell(j, arr, e), T, VT);
    loop_end(j, &lp);
  }
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  if (!slow) {
    if (!store && i0 && T == VT) {
      j->prow_in = in;
      j->prow_inst = inst;
      j->prow_fn = j->fn;
      j->prow_arr = arr;
      j->prow_i0 = i0;
    }
    j->b = after;
    return true;
  }
  /* some active lane's index is out of the array: private memory, as the
   * interpreter sees it */
  j->b = slow;
  xfer_all(j, 2);
  j->no_promo = true;
  if (j->promo_only[cx_]) {   /* the chain's lanes, which its own place skipped */
    fuse_open(j);
    assign(j, res_lv(j, inst, ptr, 0), cast(j, emit_access_chain(j, inst, m->values[ptr].u.insn), j->t_ptr));
    fuse_close(j);
  }
  if (store) emit_store(j, inst, in); else emit_load(j, inst, in);
  j->no_promo = false;
  xfer_all(j, 3);
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = after;
  return true;
}

/* ------------------------------------------------ vloadn / vstoren
 *
 * OpenCL.std vloadn(offset, p) and vstoren(data, offset, p) of 8- to 64-bit
 * integers and of floats and doubles: lane l's n elements at
 * p + offset * n elements (interp/exec_ocl.c: h_vload, h_vstore).  The fast
 * path needs every lane active and each lane's n elements in lane 0's
 * region, in bounds (writable for a store) and aligned to the element; the
 * elements then move inline.  When the lanes' spans follow each other
 * (vload4(i, p) with i the global id) the lane loop reads base[l * n + c],
 * which GCC vectorizes with permutes; otherwise each lane reads at its own
 * address.  Anything else runs the interpreter's handler, which makes the
 * same reports as before.  SPIRV_SG_JIT_NO_VLOAD=1 keeps the handler.
 * False: not this instruction or shape (the caller runs the handler). */
bool emit_vloadstore(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  if (in->ext_set != LD_EXT_OPENCL_STD || (in->ext_op != OpenCLstd_Vloadn && in->ext_op != OpenCLstd_Vstoren) ||
      in->n_ops < 5 || getenv("SPIRV_SG_JIT_NO_VLOAD"))
    return false;
  bool wr = in->ext_op == OpenCLstd_Vstoren;
  uint32_t data = wr ? in->ops[2] : in->result, offv = in->ops[wr ? 3 : 2], ptr = in->ops[wr ? 4 : 3];
  if (data >= m->bound || offv >= m->bound || ptr >= m->bound) return false;
  const ld_type *vt = wr ? m->values[data].type : in->type, *ct;
  uint32_t n;
  if (!vt || !lane_shape(vt, &ct, &n) || n < 2 || n > 16 || is_half(vt) ||
      (ct->kind != LD_T_INT && ct->kind != LD_T_FLOAT))
    return false;
  uint32_t es = comp_bytes(j->k, ct);
  if (es != ct->size || (es != 1 && es != 2 && es != 4 && es != 8)) return false;
  /* the loaded value in its lane arrays (not a shadow or a recomputation) */
  if (!wr && (!value_slot(j, inst, data) || shadowed(j, inst, data) || remat(j, inst, data))) return false;
  fuse_close(j);
  const ld_addr_layout *a = &m->layout;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32, *T = scal(j, ct);
  uint64_t span = (uint64_t)n * es;
  jloop lp;
  /* lane l's address, as the handler computes it (unsigned, 64 bits) */
#define VADDR() bin(j, GCC_JIT_BINARY_OP_PLUS, U, cast(j, V(j, inst, ptr, 0), U), \
                    bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, V(j, inst, offv, 0), U), ci(j, U, (long)span)))
  gcc_jit_lvalue *a0 = local(j, U), *bad = local(j, U), *gap = local(j, U);
  {
    gcc_jit_lvalue *save = j->lane;
    j->lane = local(j, I);
    assign(j, j->lane, ci(j, I, 0));
    assign(j, a0, VADDR());
    j->lane = save;
  }
  gcc_jit_lvalue *reg0 = local(j, U), *lim = local(j, U);
  assign(j, reg0, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(a0), ci(j, U, (long)a->shift)));
  /* the region table has 2^tb entries (jit_run.c): with 32-bit addresses
   * p + offset * span can lie past them, which makes the access bad, and
   * the table is read at the index masked into range */
  uint32_t tb = m->addr_bits - a->shift;
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions),
      bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(reg0), ci(j, U, (long)((1ull << tb) - 1))));
  assign(j, lim, R_(gcc_jit_lvalue_access_field(reg, NULL, wr ? j->r_wsize : j->r_size)));
  assign(j, bad, tb >= 64 ? ci(j, U, 0) : bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(reg0), ci(j, U, tb)));
  assign(j, gap, ci(j, U, 0));
  /* bad: a lane inactive, in another region, misaligned or past the end;
   * gap: a lane's span not right after the one before */
  loop_begin(j, &lp);
  gcc_jit_lvalue *A = lane_arr(j, j->f_addr, L(j));
  assign(j, A, VADDR());
  gcc_jit_rvalue *end = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(A),
                                                                 ci(j, U, (long)a->offset_mask)), ci(j, U, (long)span));
  gcc_jit_rvalue *b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U,
      bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(A), ci(j, U, (long)a->shift)), R_(reg0)),
      bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(A), ci(j, U, (long)es - 1)));
  b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b, cast(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, end, R_(lim))), U));
  b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b,
          cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, I, cast(j, MASK(j), I), ci(j, I, 1)), U));
  assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad), b));
  assign(j, gap, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(gap),
                     bin(j, GCC_JIT_BINARY_OP_MINUS, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(A), R_(a0)),
                         bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), ci(j, U, (long)span)))));
  loop_end(j, &lp);
#undef VADDR
  gcc_jit_rvalue *cond = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, all_active(j),
                             cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)));
  gcc_jit_block *join = fast_or_generic(j, inst, in, cond);
  gcc_jit_lvalue *base = local(j, j->t_u8p);
  assign(j, base, R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_base)));
  gcc_jit_block *contig = nb(j), *each = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(gap), ci(j, U, 0)), contig, each);
  for (int pass = 0; pass < 2; pass++) {
    j->b = pass == 0 ? contig : each;
    loop_begin(j, &lp);
    /* the lane's first element: base + a0's offset + l * span, or its own */
    gcc_jit_rvalue *o = pass == 0
        ? bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(a0), ci(j, U, (long)a->offset_mask)),
              bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), ci(j, U, (long)span)))
        : bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(lane_arr(j, j->f_addr, L(j))), ci(j, U, (long)a->offset_mask));
    gcc_jit_rvalue *p = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(base), o), NULL);
    for (uint32_t c = 0; c < n; c++) {
      if (wr) assign(j, typed_at(j, p, c * es, T), cast(j, V(j, inst, data, c), T));
      else assign(j, res_lv(j, inst, data, c), R_(typed_at(j, p, c * es, T)));
    }
    loop_end(j, &lp);
    gcc_jit_block_end_with_jump(j->b, NULL, join);
  }
  j->b = join;
  j->n_stmts++;
  return true;
}
