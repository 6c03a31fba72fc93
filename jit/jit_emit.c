/* jit_emit.c - the compiled functions: the frame and context structs, the
 * dispatch switch and settle block of sg_kernel (je_build), every segment's
 * code (emit_seg: one switch over the opcodes, handing each family to its
 * jit_emit_*.c), the interpreter fallback (emit_generic), work-group
 * rendezvous, and the work-group loops of sg_groups (emit_groups).
 * See jit.c for the design. */
#include "jit_emit.h"

/* IR statements above which a kernel compiles at -O1 -ftree-vectorize: for
 * transpose (940) and gemm (1764) of bench/ that compiles in 60% of the time
 * of -O2 and runs 1.4-1.8x faster; small kernels keep -O2 (reduce, scan,
 * saxpy ran 10-35% slower at -O1). */
#define JIT_BIG_KERNEL 600u
/* Huge kernels (the corpus' sg_khr_ops, every subgroup operation of every
 * type in one kernel: 6,900-8,900 statements) compile at -O0: GCC's RTL
 * passes at -O1 took 6.7 s of CPU for it (23 s under ASan, past the test
 * timeouts) against 1.8 s, for code that ran 1.4x slower (0.57 -> 0.81 ms). */
#define JIT_HUGE_KERNEL 4000u

static bool emits_nothing(const ld_insn *in);

/* Spill (sp) or fill value id of instance inst, if it has a lane array.  An
 * affine value (J.sh_on) has no lane array in the function: a spill writes
 * its lanes to the heap frame, a fill takes lane 0's back. */
void spill_val(J *j, uint32_t inst, uint32_t id, bool sp) {
  if (id == 0 || id >= j->m->bound) return;
  gcc_jit_field *f = value_slot(j, inst, id);
  if (!f) return;
  const ld_type *ct; uint32_t n;
  lane_shape(j->m->values[id].type, &ct, &n);
  if (remat(j, inst, id)) {   /* no lane array: a spill writes the lanes it computes */
    if (!sp) return;
    jloop lp;
    loop_begin(j, &lp);
    gcc_jit_lvalue *h = gcc_jit_context_new_array_access(j->cx, NULL, R_(hfld(j, f)), L(j));
    assign(j, h, V(j, inst, id, 0));
    loop_end(j, &lp);
    return;
  }
  if (!shadowed(j, inst, id)) { spill_or_fill(j, f, sp); return; }
  jloop lp = {NULL, NULL, NULL, 0};
  if (sp) loop_begin(j, &lp);
  else { fuse_close(j); assign(j, j->lane, ci(j, j->t_i32, 0)); }
  for (uint32_t c = 0; c < n; c++) {
    gcc_jit_rvalue *arr = R_(hfld(j, f));
    if (n > 1) arr = R_(gcc_jit_context_new_array_access(j->cx, NULL, arr, ci(j, j->t_i32, c)));
    gcc_jit_lvalue *h = gcc_jit_context_new_array_access(j->cx, NULL, arr, L(j));
    if (sp) assign(j, h, sh_at(j, inst, id, c, L(j), scal(j, ct)));
    else assign(j, sh_lv(j, inst, id, c), R_(h));
  }
  if (sp) loop_end(j, &lp);
}

/* ------------------------------------------------------------ affine values
 *
 * shadow_plan picks the values that live as lane 0's scalar (J.sh_on): in a
 * convergent kernel that never suspends, a scalar integer, bool or pointer
 * result with a known lane stride (ld_uni_lane_stride) of an instruction
 * that emit_seg_ compiles as lane-local code (access chains, elementwise
 * operations, built-in reads), and the kernel's own reads of the id vectors
 * under linear_x (strides 1, 0, 0) and of uniform vector built-ins.  Every
 * use must read it through V() (shadow_use_ok); otherwise it keeps its lane
 * array.  saxpy's global id, x + i and y + i become three scalars: the
 * lane-0 fast path of each access needs no lane array at all. */

/* The instructions emit_seg_ hands to its elementwise path. */
static bool elementwise_path(const ld_module *m, const ld_insn *in) {
  switch (in->op) {
  case SpvOpLoad: case SpvOpStore: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: case SpvOpPhi: case SpvOpVariable:
  case SpvOpFunctionCall: case SpvOpControlBarrier: case SpvOpCopyMemorySized:
    return false;
  case SpvOpExtInst:
    if (in->ext_set == LD_EXT_OPENCL_DEBUGINFO_100 || in->ext_set == LD_EXT_NONSEMANTIC) return false;
    break;
  default:
    if ((in->op >= SpvOpGroupIAdd && in->op <= SpvOpGroupSMax) ||
        (in->op >= SpvOpGroupNonUniformIAdd && in->op <= SpvOpGroupNonUniformLogicalXor))
      return false;
    break;
  }
  return !wg_scoped(m, in) && native_ok(m, in) && !emits_nothing(in) &&
         !(in->op >= SpvOpBranch && in->op <= SpvOpUnreachable);
}

/* A use of a shadowed value as operand q of `in` reads it through V(). */
static bool shadow_use_ok(const ld_module *m, const ld_insn *in, uint32_t q) {
  switch (in->op) {
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: case SpvOpPhi: case SpvOpFunctionCall: case SpvOpReturnValue:
    return true;
  case SpvOpLoad: case SpvOpStore: case SpvOpBranchConditional:
    return q == 0;   /* the pointer (the value a store reads is copied as a lane array); the condition */
  case SpvOpGroupNonUniformBallotBitCount:
    return true;     /* emit_ballot_bit_count reads the ballot through V() (the handler: spill_val) */
  default:
    return elementwise_path(m, in);
  }
}

/* The component strides of a built-in vector read, or false. */
static bool shadow_builtin_vec(J *j, const ld_insn *in, int64_t st[3]) {
  const ld_module *m = j->m;
  if (in->op != SpvOpLoad || in->n_ops < 1 || in->ops[0] >= m->bound) return false;
  const ld_value *pv = &m->values[in->ops[0]];
  if (pv->kind != LD_V_VARIABLE || pv->u.var->storage != SpvStorageClassInput) return false;
  const ld_type *ct; uint32_t n;
  if (!lane_shape(in->type, &ct, &n) || n != 3 || ct->kind != LD_T_INT) return false;
  st[0] = st[1] = st[2] = 0;
  switch ((SpvBuiltIn)pv->u.var->builtin) {
  case SpvBuiltInGlobalInvocationId: case SpvBuiltInLocalInvocationId:
    if (!j->k->linear_x) return false;
    st[0] = 1;
    return true;
  case SpvBuiltInWorkgroupId: case SpvBuiltInNumWorkgroups: case SpvBuiltInWorkgroupSize:
  case SpvBuiltInEnqueuedWorkgroupSize: case SpvBuiltInGlobalSize: case SpvBuiltInGlobalOffset:
    return true;
  default:
    return false;
  }
}

static void shadow_plan(J *j) {
  const jit_kernel *k = j->k;
  const ld_module *m = j->m;
  /* a suspension writes the live ones to the heap frame's lane arrays and
   * the resume reads lane 0 back (shadow_xfer, xfer_live) */
  if (!j->lanes || (plan_may_suspend(k) && getenv("SPIRV_SG_JIT_NO_SUSP_AFFINE")) || getenv("SPIRV_SG_JIT_NO_AFFINE")) return;
  size_t nv = (size_t)k->n_inst * m->bound;
  j->sh_on = calloc(nv + 1, 1);
  j->sh_st = calloc(nv * SH_MAXC + 1, sizeof *j->sh_st);
  j->sh_lv = calloc(nv * SH_MAXC + 1, sizeof *j->sh_lv);
  if (!j->sh_on || !j->sh_st || !j->sh_lv) {
    free(j->sh_on); free(j->sh_st); free(j->sh_lv);
    j->sh_on = NULL; j->sh_st = NULL; j->sh_lv = NULL;
    return;
  }
  bool any = false;
  for (uint32_t ii = 0; ii < k->n_inst; ii++) {
    const ld_function *fn = k->inst[ii].fn;
    if (ld_uni_fn_divergent(j->lanes, fn)) continue;   /* called where only some lanes run */
    /* a callee's uniform scalar parameters (stride 0): the call copies lane
     * 0's argument (not private or generic pointers, whose lanes differ) */
    for (uint32_t p = 0; ii && p < fn->n_params; p++) {
      uint32_t id = fn->params[p];
      const ld_type *pt = m->values[id].type, *ct;
      uint32_t n;
      if (is_handle(pt) || !lane_shape(pt, &ct, &n) || n != 1 || ld_uni_value_varies(j->lanes, id)) continue;
      if (ct->kind == LD_T_POINTER && ct->storage != SpvStorageClassCrossWorkgroup &&
          ct->storage != SpvStorageClassWorkgroup && ct->storage != SpvStorageClassUniformConstant) continue;
      j->sh_on[vidx(j, ii, id)] = 1;
      any = true;
    }
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      const ld_block *blk = &fn->blocks[b];
      if (!blk->reachable || ld_uni_block_divergent(j->lanes, blk, NULL)) continue;
      /* a masked loop's block: only some lanes run it */
      if (k->inst[ii].block_seg[b] >= 0 && k->seg[k->inst[ii].block_seg[b]].mloop) continue;
      /* uniform phis of a block every edge enters with all lanes (emit_phis_uniform) */
      bool phi_ok = blk->n_phis <= 64 && phis_uniform(j, ii, blk);
      for (uint32_t i = 0; i < blk->n_insns; i++) {
        const ld_insn *in = &blk->insns[i];
        if (!in->result || in->result >= m->bound || m->values[in->result].kind != LD_V_RESULT) continue;
        if (i < blk->n_phis && !phi_ok) continue;
        size_t q = vidx(j, ii, in->result);
        int64_t st[3];
        if (shadow_builtin_vec(j, in, st)) {
          for (int c = 0; c < 3; c++) j->sh_st[q * SH_MAXC + c] = st[c];
          j->sh_on[q] = 1;
          any = true;
          continue;
        }
        const ld_type *ct; uint32_t n;
        if (in->op == SpvOpGroupNonUniformBallot && lane_shape(in->type, &ct, &n) && n == 4 &&
            ct->kind == LD_T_INT && ct->width == 32 && !ld_uni_value_varies(j->lanes, in->result)) {
          j->sh_on[q] = 1;   /* the same four words in every lane (emit_ballot) */
          any = true;
          continue;
        }
        if (!lane_shape(in->type, &ct, &n) || n != 1 || !ld_uni_lane_stride(j->lanes, in->result, &st[0])) continue;
        bool def_ok = in->op == SpvOpPhi || in->op == SpvOpAccessChain || in->op == SpvOpInBoundsAccessChain ||
                      in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain ||
                      elementwise_path(m, in);
        if (in->op == SpvOpLoad && in->n_ops >= 1 && in->ops[0] < m->bound &&
            m->values[in->ops[0]].kind == LD_V_VARIABLE && m->values[in->ops[0]].u.var->storage == SpvStorageClassInput)
          switch ((SpvBuiltIn)m->values[in->ops[0]].u.var->builtin) {   /* emit_builtin's last loop */
          case SpvBuiltInSubgroupLocalInvocationId: case SpvBuiltInSubgroupId: case SpvBuiltInSubgroupSize:
          case SpvBuiltInSubgroupMaxSize: case SpvBuiltInNumSubgroups: case SpvBuiltInNumEnqueuedSubgroups:
          case SpvBuiltInWorkDim:
            def_ok = true;
            break;
          default:
            break;
          }
        if (!def_ok) continue;
        j->sh_st[q * SH_MAXC] = st[0];
        j->sh_on[q] = 1;
        any = true;
      }
    }
  }
  /* every use must read through V(); conservatively, any operand word that
   * names a shadowed value counts as a use */
  for (uint32_t ii = 0; ii < k->n_inst && any; ii++) {
    const ld_function *fn = k->inst[ii].fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      const ld_block *blk = &fn->blocks[b];
      for (uint32_t i = 0; i < blk->n_insns; i++) {
        const ld_insn *in = &blk->insns[i];
        for (uint32_t q = 0; q < in->n_ops; q++) {
          uint32_t id = in->ops[q];
          if (id && id < m->bound && j->sh_on[vidx(j, ii, id)] && !shadow_use_ok(m, in, q)) {
            j->sh_on[vidx(j, ii, id)] = 0;
          }
        }
      }
    }
  }
}

/* J.unblended: per if-converted then-block, the values it defines that
 * only its own lane-local instructions read (elementwise, access chains, a
 * load's pointer, a store's pointer or value).  A then-block's values are
 * used only there or in its successor's phis (it dominates no other
 * block); a phi, a cross-lane instruction or a handler call may read an
 * inactive lane, and those keep the blend. */
static bool lane_local_use(const ld_module *m, const ld_insn *u, uint32_t q) {
  switch (u->op) {
  case SpvOpLoad: return q == 0;
  case SpvOpStore: return q <= 1;
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
    return true;
  default:
    return elementwise_path(m, u);
  }
}
static void ifc_local_plan(J *j) {
  const jit_kernel *k = j->k;
  const ld_module *m = j->m;
  if (!k->conv || getenv("SPIRV_SG_JIT_NO_IFC_LOCAL")) return;
  for (uint32_t s = 0; s < k->n_seg; s++) {
    const jit_seg *sg = &k->seg[s];
    if (!ifc_arm_kind(sg->ifc) || sg->first != 0) continue;
    const ld_block *T = sg->blk;
    const ld_function *fn = k->inst[sg->inst].fn;
    for (uint32_t i = 0; i < T->n_insns; i++) {
      const ld_insn *d = &T->insns[i];
      if (!d->result || d->result >= m->bound || !elementwise_path(m, d)) continue;
      bool ok = true;
      for (uint32_t b = 0; ok && b < fn->n_blocks; b++) {
        const ld_block *blk = &fn->blocks[b];
        for (uint32_t x = 0; ok && x < blk->n_insns; x++) {
          const ld_insn *u = &blk->insns[x];
          for (uint32_t q = 0; ok && q < u->n_ops; q++)
            if (u->ops[q] == d->result && (blk != T || !lane_local_use(m, u, q))) ok = false;
        }
      }
      if (!ok) continue;
      if (!j->unblended && !(j->unblended = calloc((size_t)k->n_inst * m->bound + 1, 1))) return;
      j->unblended[vidx(j, sg->inst, d->result)] = 1;
    }
  }
}

/* J.unblended for masked loops (plan_mloops).  A value d defined in masked
 * loop ML (the innermost around its block) whose every use lies in ML, or
 * in a loop nested in it, and is lane-local there (lane_local_use), a phi
 * (which blends its own result by the lanes that take each edge) or the
 * condition of a masked loop's exit or of an if-converted head
 * (taken_words masks it with the lanes that are in) is never read in a
 * lane that was not in the loop when d was written: the lanes of a loop
 * only leave it, a use outside the loop (an exit block's phi, a later
 * block) keeps the blend, and no lane re-enters a loop's trip.  So d's
 * inactive lanes may hold anything, as the operands an if-converted block
 * reads may (idiv_check divides them by nonzero values, the memory paths
 * test only active lanes).  A phi of a loop header with two edges (the
 * entry, and the back edge from a block the header dominates) is written
 * at the end of each trip for every lane that goes on: that write skips
 * the blend too (phis_uniform_edge; the entry's keeps it).  Not another
 * phi: a join's edges, or an exit block's, are taken by different lanes at
 * different times, and an unblended write would overwrite the lanes that
 * came earlier.  The lanes never written hold the zeros a first start
 * gives a masked loop's values (mark_kept, FK_ZERO).  Collatz: x and its
 * phi, 8 of a trip's 45 instructions (with the GCC options of je_build1:
 * 107 -> 73 ms).  SPIRV_SG_JIT_NO_MLOOP_LOCAL keeps every blend. */
static bool header_phi(const jit_kernel *k, const ld_block *D, const ld_insn *d) {
  const ld_module *m = k->m;
  if (d->n_ops != 4 || D->n_preds != 2) return false;
  int back = 0;
  for (uint32_t o = 1; o < 4; o += 2) {
    const ld_value *lab = &m->values[d->ops[o]];
    if (lab->kind != LD_V_LABEL) return false;
    back += ld_dominates(D, lab->u.block);
  }
  return back == 1;
}
static bool masked_branch(const jit_kernel *k, int32_t ts) {
  if (ts < 0) return false;
  const jit_seg *t = &k->seg[ts];
  if (t->n_succ != 2) return false;
  if (t->ifc == IFC_HEAD) return true;
  if (t->ifc == IFC_MGUARD || !t->mloop) return false;
  int32_t xe = k->mloops[t->mloop - 1].xe;
  return t->succ[0] == xe || t->succ[1] == xe;
}
static void mloop_local_plan(J *j) {
  const jit_kernel *k = j->k;
  const ld_module *m = j->m;
  if (!k->conv || !k->n_mloops || getenv("SPIRV_SG_JIT_NO_MLOOP_LOCAL")) return;
  for (uint32_t ii = 0; ii < k->n_inst; ii++) {
    const jit_inst *I = &k->inst[ii];
    const ld_function *fn = I->fn;
    uint8_t *cyc = calloc(fn->n_blocks + 1, 1);
    uint32_t *queue = calloc(fn->n_blocks + 1, sizeof *queue);
    if (!cyc || !queue) { free(cyc); free(queue); return; }
    for (uint32_t db = 0; db < fn->n_blocks; db++) {
      int32_t ds = I->block_seg[db];
      if (ds < 0 || !k->seg[ds].mloop) continue;
      uint8_t ml = k->seg[ds].mloop;
      const ld_block *D = &fn->blocks[db];
      /* the loop's blocks: those of ML (or nested in it) from which D is
       * reached again without leaving ML; not the chain of blocks after the
       * exits (xe), which ML's region holds too but which every lane runs
       * once, after it has left */
      memset(cyc, 0, fn->n_blocks);
      uint32_t nq = 0;
      cyc[db] = 1;
      queue[nq++] = db;
      for (uint32_t qi = 0; qi < nq; qi++) {
        const ld_block *B = &fn->blocks[queue[qi]];
        for (uint32_t p = 0; p < B->n_preds; p++) {
          uint32_t pb = B->preds[p]->index;
          if (cyc[pb] || I->block_seg[pb] < 0 || !ml_in(k, ml, I->block_seg[pb])) continue;
          cyc[pb] = 1;
          queue[nq++] = pb;
        }
      }
      /* D lies on a cycle (one of its predecessors reaches it): a block
       * before the loop or after its exits does not */
      bool on_cycle = false;
      for (uint32_t p = 0; p < D->n_preds; p++) on_cycle |= cyc[D->preds[p]->index] != 0;
      if (!on_cycle) continue;
      for (uint32_t i = 0; i < D->n_insns; i++) {
        const ld_insn *d = &D->insns[i];
        if (!d->result || d->result >= m->bound) continue;
        if (d->op == SpvOpPhi ? !header_phi(k, D, d) : !elementwise_path(m, d)) continue;
        bool ok = true;
        for (uint32_t b = 0; ok && b < fn->n_blocks; b++) {
          const ld_block *blk = &fn->blocks[b];
          bool in = cyc[b] != 0;
          for (uint32_t x = 0; ok && x < blk->n_insns; x++) {
            const ld_insn *u = &blk->insns[x];
            for (uint32_t q = 0; ok && q < u->n_ops; q++) {
              if (u->ops[q] != d->result) continue;
              ok = in && (u->op == SpvOpPhi || lane_local_use(m, u, q) ||
                          (u->op == SpvOpBranchConditional && q == 0 && masked_branch(k, I->term_seg[b])));
            }
          }
        }
        if (!ok) continue;
        if (!j->unblended && !(j->unblended = calloc((size_t)k->n_inst * m->bound + 1, 1))) break;
        j->unblended[vidx(j, ii, d->result)] = 1;
      }
    }
    free(cyc);
    free(queue);
  }
}

/* ------------------------------------------------- recomputed values
 *
 * remat_plan picks, for sg_kernel_full, the integer, bool and pointer
 * values of cheap pure instructions (integer arithmetic, compares, selects,
 * conversions, access chains into global, local or constant memory) whose
 * every use is in the same block, after it with no call, barrier or
 * work-group collective between (so it never lives across a suspension),
 * and reads it through V() at the reader's own lane: another such
 * instruction, an elementwise operation, an access chain, a load's or
 * store's pointer, a conditional branch's condition or a ballot's predicate
 * (emit_ballot then takes its lane loop, not the byte reads).  The block may
 * be an if-converted then-block (its readers use the active lanes only).
 * Such a value gets no lane array: V() recomputes it from its operands
 * (remat_v), which hold the same lanes there.  stencil's clamped index
 * (i >= 16 ? i - 16 : i) and the address made from it were
 * two lane arrays written for every subgroup, read only at lane 0 on the
 * fast path (the window test) and as lanes only on the per-lane path.  The
 * expression a read expands to is bounded (REMAT_NODES), so the copies at
 * several readers stay small. */
enum { REMAT_NODES = 12, REMAT_USES = 4 };
static bool remat_op(const ld_module *m, const ld_insn *in) {
  const ld_type *ct; uint32_t n;
  if (!in->result || !lane_shape(in->type, &ct, &n) || n != 1 || odd_width(ct) ||
      (ct->kind != LD_T_INT && ct->kind != LD_T_BOOL && ct->kind != LD_T_POINTER))
    return false;
  switch (in->op) {
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpBitwiseAnd: case SpvOpBitwiseOr:
  case SpvOpBitwiseXor: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
  case SpvOpShiftRightArithmetic: case SpvOpNot: case SpvOpSNegate:
  case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual:
  case SpvOpULessThan: case SpvOpULessThanEqual: case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual:
  case SpvOpSLessThan: case SpvOpSLessThanEqual: case SpvOpLogicalAnd: case SpvOpLogicalOr:
  case SpvOpLogicalNot: case SpvOpLogicalEqual: case SpvOpLogicalNotEqual: case SpvOpSelect:
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpCopyObject: case SpvOpConvertPtrToU:
  case SpvOpConvertUToPtr:
    break;
  case SpvOpFOrdEqual: case SpvOpFOrdLessThan: case SpvOpFOrdGreaterThan: case SpvOpFOrdLessThanEqual:
  case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordNotEqual:
    /* a float compare (a masked loop's exit test: no byte array between
     * the compare and the branch's mask); 32 and 64-bit floats */
    for (uint32_t q = 0; q < 2; q++) {
      const ld_type *ot = in->n_ops > q && in->ops[q] < m->bound ? m->values[in->ops[q]].type : NULL;
      if (!ot || ot->kind != LD_T_FLOAT || (ot->width != 32 && ot->width != 64)) return false;
    }
    return true;
  case SpvOpBitcast: {
    const ld_type *ft = in->n_ops == 1 && in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
    if (!ft || ft->size != ct->size || (ft->kind != LD_T_INT && ft->kind != LD_T_POINTER)) return false;
    break;
  }
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
    /* not private or generic memory: no promoted array behind it */
    if (ct->storage != SpvStorageClassCrossWorkgroup && ct->storage != SpvStorageClassWorkgroup &&
        ct->storage != SpvStorageClassUniformConstant)
      return false;
    break;
  default:
    return false;
  }
  if (in->op != SpvOpBitcast && in->op != SpvOpAccessChain && in->op != SpvOpInBoundsAccessChain &&
      in->op != SpvOpPtrAccessChain && in->op != SpvOpInBoundsPtrAccessChain) {
    for (uint32_t q = 0; q < in->n_ops; q++) {   /* scalar operands only */
      const ld_type *ot; uint32_t on;
      if (in->ops[q] >= m->bound || !lane_shape(m->values[in->ops[q]].type, &ot, &on) || on != 1 || odd_width(ot))
        return false;
    }
  }
  return true;
}
static bool remat_use_ok(const ld_module *m, const ld_insn *u, uint32_t q) {
  switch (u->op) {
  case SpvOpLoad: case SpvOpStore: return q == 0;
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
    return true;
  case SpvOpBranchConditional:
    return q == 0;   /* emit_terminator reads the condition through V() at each lane */
  case SpvOpGroupNonUniformBallot:
    return q == 1;   /* emit_ballot's lane loop (its byte path reads lane arrays only) */
  case SpvOpPhi: case SpvOpFunctionCall: case SpvOpReturnValue:
    return false;
  default:
    return elementwise_path(m, u);
  }
}
/* Bit q (q < 64): operand word q of `in` names a value, by the grammar's
 * operand layout; every word when the layout is not known or longer.  A
 * literal equal to an id (an alignment of 4, a member index) is no use. */
static void idw_cb(void *u, uint32_t w, spv_operand_class cls) {
  if (cls == SPV_OPND_ID && w < 64) *(uint64_t *)u |= 1ull << w;
}
static uint64_t id_words(const ld_insn *in) {
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  uint64_t mask = 0;
  if (!d || in->n_ops > 64) return ~0ull;
  uint16_t skip = (uint16_t)(d->has_type + d->has_result);
  if (!spv_walk_operands(in->ops, in->n_ops, 0, d->operands + skip, (uint16_t)(d->n_operands - skip), idw_cb, &mask))
    return ~0ull;
  return mask;
}
static bool names_id(const ld_insn *in, uint64_t idw, uint32_t q, uint32_t id) {
  return in->ops[q] == id && (q >= 64 || (idw >> q & 1));
}

/* The size of the expression V() expands a value to (operands that are
 * themselves recomputed counted in). */
static uint32_t remat_size(J *j, uint32_t inst, uint32_t id, int depth) {
  const ld_module *m = j->m;
  if (id >= m->bound || !j->rm_on[vidx(j, inst, id)]) return 0;
  if (depth > 8) return REMAT_NODES + 1;
  const ld_insn *in = m->values[id].u.insn;
  uint32_t s = 1;
  for (uint32_t q = 0; q < in->n_ops && s <= REMAT_NODES; q++) s += remat_size(j, inst, in->ops[q], depth + 1);
  return s;
}
static void remat_plan(J *j) {
  const jit_kernel *k = j->k;
  const ld_module *m = j->m;
  if (!j->lanes || !k->conv || getenv("SPIRV_SG_JIT_NO_REMAT")) return;
  size_t nv = (size_t)k->n_inst * m->bound;
  /* nuse[id]: the operands naming id anywhere in the function */
  uint32_t *nuse = malloc(((size_t)m->bound + 1) * sizeof *nuse);
  uint64_t *idw = NULL;   /* id_words of the block's instructions */
  if (!nuse || !(j->rm_on = calloc(nv + 1, 1))) { free(nuse); return; }
  for (uint32_t ii = 0; ii < k->n_inst; ii++) {
    const ld_function *fn = k->inst[ii].fn;
    if (ld_uni_fn_divergent(j->lanes, fn)) continue;
    memset(nuse, 0, ((size_t)m->bound + 1) * sizeof *nuse);
    for (uint32_t b = 0; b < fn->n_blocks; b++)
      for (uint32_t x = 0; x < fn->blocks[b].n_insns; x++) {
        const ld_insn *u = &fn->blocks[b].insns[x];
        uint64_t w = id_words(u);
        for (uint32_t q = 0; q < u->n_ops; q++)
          if (u->ops[q] < m->bound && names_id(u, w, q, u->ops[q])) nuse[u->ops[q]]++;
      }
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      const ld_block *blk = &fn->blocks[b];
      if (!blk->reachable) continue;
      if (ld_uni_block_divergent(j->lanes, blk, NULL)) {
        /* an if-converted then-block: its lane-local readers need only the
         * active lanes, which V() computes as a lane array would hold them */
        bool then = false;
        for (uint32_t s = 0; s < k->n_seg; s++)
          if (k->seg[s].inst == ii && k->seg[s].blk == blk && (ifc_arm_kind(k->seg[s].ifc) || k->seg[s].mloop))
            then = true;
        if (!then || getenv("SPIRV_SG_JIT_NO_REMAT_IFC")) continue;
      }
      uint64_t *nw = realloc(idw, ((size_t)blk->n_insns + 1) * sizeof *idw);
      if (!nw) break;
      idw = nw;
      for (uint32_t x = 0; x < blk->n_insns; x++) idw[x] = id_words(&blk->insns[x]);
      for (uint32_t i = blk->n_phis; i < blk->n_insns; i++) {
        const ld_insn *d = &blk->insns[i];
        if (!remat_op(m, d) || m->values[d->result].kind != LD_V_RESULT || shadowed(j, ii, d->result) ||
            !value_slot(j, ii, d->result))
          continue;
        /* every use: in this block, after d, no new segment between (and
         * none elsewhere, a phi of this block included: nuse) */
        bool ok = true, cut = false;
        uint32_t uses = 0;
        for (uint32_t x = i + 1; ok && x < blk->n_insns; x++) {
          const ld_insn *u = &blk->insns[x];
          for (uint32_t q = 0; ok && q < u->n_ops; q++) {
            if (!names_id(u, idw[x], q, d->result)) continue;
            if (cut || !remat_use_ok(m, u, q)) ok = false;
            uses++;
          }
          /* a new segment starts after a call or a rendezvous (jit_plan.c),
           * where only the lane arrays kept across it are filled again */
          if (u->op == SpvOpFunctionCall || u->op == SpvOpControlBarrier || u->op == SpvOpMemoryBarrier ||
              wg_scoped(m, u))
            cut = true;
        }
        if (!ok || !uses || uses > REMAT_USES || uses != nuse[d->result]) continue;
        j->rm_on[vidx(j, ii, d->result)] = 1;
        if (remat_size(j, ii, d->result, 0) > REMAT_NODES) j->rm_on[vidx(j, ii, d->result)] = 0;
      }
    }
  }
  free(nuse);
  free(idw);
}

/* Value id recomputed for the current lane (J.rm_on). */
gcc_jit_rvalue *remat_v(J *j, uint32_t inst, uint32_t id, uint32_t c) {
  const ld_insn *in = j->m->values[id].u.insn;
  const ld_type *ct; uint32_t n;
  lane_shape(in->type, &ct, &n);
  if (in->op == SpvOpAccessChain || in->op == SpvOpInBoundsAccessChain || in->op == SpvOpPtrAccessChain ||
      in->op == SpvOpInBoundsPtrAccessChain)
    return cast(j, emit_access_chain(j, inst, in), j->t_ptr);
  return cast(j, emit_elementwise(j, inst, in, c), scal(j, ct));
}

/* The locals of the shadowed values, for the kernel function being emitted. */
static void shadow_locals(J *j) {
  if (!j->sh_on) return;
  size_t nv = (size_t)j->k->n_inst * j->m->bound;
  for (size_t q = 0; q < nv; q++) {
    if (!j->sh_on[q]) continue;
    uint32_t id = (uint32_t)(q % j->m->bound);
    const ld_type *ct; uint32_t n;
    lane_shape(j->m->values[id].type, &ct, &n);
    for (uint32_t c = 0; c < n && c < SH_MAXC; c++) {
      char name[32];
      snprintf(name, sizeof name, "A%zu_%u", q, c);
      j->sh_lv[q * SH_MAXC + c] = gcc_jit_function_new_local(j->fn, NULL, scal(j, ct), name);
    }
  }
}

/* Starts a shadowed value's definition: lane-local code runs for lane 0. */
void shadow_def_begin(J *j) {
  fuse_close(j);
  assign(j, j->lane, ci(j, j->t_i32, 0));
}
typedef struct { J *j; uint32_t inst; const uint32_t *ops; } spill_q;
static void spill_cb(void *u_, uint32_t w, spv_operand_class cls) {
  spill_q *u = u_;
  if (cls == SPV_OPND_ID) spill_val(u->j, u->inst, u->ops[w], true);
}
/* Before a host call that runs the interpreter's handler of `in`: the mask,
 * every id operand and the result's old lanes go to the heap frame. */
void spill_insn(J *j, uint32_t inst, const ld_insn *in) {
  spill(j, j->f_mask);
  spill_q u = {j, inst, in->ops};
  bool done = walk_id_operands(in, spill_cb, &u);
  if (!done)   /* unknown layout: every word that names a value */
    for (uint32_t q = 0; q < in->n_ops; q++) spill_val(j, inst, in->ops[q], true);
  if (in->result) spill_val(j, inst, in->result, true);
}

/* Lane 0's value and the lanes' uniform test (jit_emit.h). */
gcc_jit_lvalue *lane0_value(J *j, uint32_t inst, uint32_t id) {
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_lvalue *v0 = local(j, U), *save = j->lane;
  j->lane = local(j, j->t_i32);
  assign(j, j->lane, ci(j, j->t_i32, 0));
  assign(j, v0, cast(j, V(j, inst, id, 0), U));
  j->lane = save;
  return v0;
}
void or_lane_diff(J *j, uint32_t inst, uint32_t id, gcc_jit_lvalue *v0, gcc_jit_lvalue *bad) {
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  loop_begin(j, &lp);
  assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad),
                     bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, cast(j, V(j, inst, id, 0), U), R_(v0))));
  loop_end(j, &lp);
}

/* A call of the host helper in context field fn with n arguments, in j->b;
 * its int32 result, or NULL where `result` is false.  cold (at most four
 * arguments): on a path the kernel rarely takes, through jit_pa_call where
 * J.pa (jit_run.c), past the red zone.  To GCC that is an asm statement
 * that changes only %rax and memory, so no value live across it leaves its
 * register: GCC gives a value one place for its whole life, and an ordinary
 * call on a side path made that place the stack, on the hot path too.  The
 * step check is such a call.  (The slow paths of inline tests are not: there
 * the values GCC then kept in registers crowded a loop's own; gemm 15 -> 18
 * ms, stencil 7% slower.)  The arguments become locals first: an expression
 * libgccjit 12 shares with another statement crashes it as an asm operand. */
gcc_jit_rvalue *host_call(J *j, gcc_jit_field *fn, int n, gcc_jit_rvalue **args, bool cold, bool result) {
  if (!cold || !j->pa || n > 4) {
    gcc_jit_rvalue *call = gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, fn), n, args);
    if (!result) { gcc_jit_block_add_eval(j->b, NULL, call); return NULL; }
    gcc_jit_lvalue *r = local(j, j->t_i32);
    assign(j, r, call);
    return R_(r);
  }
  gcc_jit_lvalue *r = pa_asm(j, ctxf(j, fn), n, args, true);
  return result ? cast(j, R_(r), j->t_i32) : NULL;
}

/* The asm statement that calls target through jit_pa_call with the n <= 4
 * arguments, in j->b; its 64-bit result (%rax).  memory: it may read and
 * write any memory (host_call); false: none that the compiled code reads or
 * writes (the step check's fast path, branch_prologue). */
gcc_jit_lvalue *pa_asm(J *j, gcc_jit_rvalue *target, int n, gcc_jit_rvalue **args, bool memory) {
  static const char *const con[4] = {"D", "S", "d", "c"};
  gcc_jit_rvalue *in[4];
  for (int q = 0; q < n; q++) {
    gcc_jit_lvalue *t = local(j, gcc_jit_rvalue_get_type(args[q]));
    assign(j, t, args[q]);
    in[q] = R_(t);
  }
  gcc_jit_lvalue *tl = local(j, gcc_jit_rvalue_get_type(target));
  assign(j, tl, target);
  gcc_jit_lvalue *th = local(j, j->t_vp);
  assign(j, th, ctxf(j, j->c_pa_call));
  gcc_jit_lvalue *r = local(j, j->t_s[3]);
  /* %0 the result (%rax), %1 the target (%rax), %2 jit_pa_call, %3.. the
   * arguments */
  gcc_jit_extended_asm *ea = gcc_jit_block_add_extended_asm(j->b, NULL, "sub $128, %%rsp\n\tcall *%2\n\tadd $128, %%rsp");
  gcc_jit_extended_asm_set_volatile_flag(ea, 1);
  gcc_jit_extended_asm_add_output_operand(ea, NULL, "=a", r);
  gcc_jit_extended_asm_add_input_operand(ea, NULL, "0", R_(tl));
  gcc_jit_extended_asm_add_input_operand(ea, NULL, "r", R_(th));
  for (int q = 0; q < n; q++) gcc_jit_extended_asm_add_input_operand(ea, NULL, con[q], in[q]);
  if (memory) gcc_jit_extended_asm_add_clobber(ea, "memory");
  gcc_jit_extended_asm_add_clobber(ea, "cc");
  return r;
}

/* Any other instruction: the interpreter's own handler on this subgroup's
 * lanes (jit_run.c: jit_rt_interp copies operands in and the result out). */
void emit_generic(J *j, uint32_t inst, const ld_insn *in) {
  uint32_t idx = add_insn_index(j->k, in);
  j->k->n_interp++;
  if (idx < j->k->cap_insns) j->k->insn_inst[idx] = inst;
  spill_insn(j, inst, in);
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
  host_mark(j);
  gcc_jit_rvalue *rc = host_call(j, j->c_interp, 3, args, false, true);
  gcc_jit_block *stop = nb(j), *go = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, rc, ci(j, j->t_i32, 0)), stop, go);
  ret_done(j, stop);
  j->b = go;
  if (in->result) spill_val(j, inst, in->result, false);
  j->n_stmts++;
}

/* Cross-lane operations with an inline fast path, by family (Intel
 * shuffles and block I/O: jit_emit_intel.c; broadcast and ballots:
 * jit_emit_subgroup.c; atomics: jit_emit_memory.c).  False: the caller
 * runs the interpreter's handler (emit_generic). */
static bool emit_xlane(J *j, uint32_t inst, const ld_insn *in) {
  switch (in->op) {
  case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleXorINTEL:
  case SpvOpSubgroupShuffleDownINTEL: case SpvOpSubgroupShuffleUpINTEL:
  case SpvOpGroupNonUniformShuffle: case SpvOpGroupNonUniformShuffleXor:
    return emit_intel_shuffle(j, inst, in);
  case SpvOpGroupBroadcast:
    return emit_broadcast(j, inst, in);
  case SpvOpGroupNonUniformElect: case SpvOpGroupNonUniformBroadcastFirst: case SpvOpGroupNonUniformAllEqual:
  case SpvOpGroupNonUniformRotateKHR:
    return emit_sg_first(j, inst, in);
  case SpvOpGroupNonUniformBallot:
    return emit_ballot(j, inst, in);
  case SpvOpGroupNonUniformBallotBitCount:
    return emit_ballot_bit_count(j, inst, in);
  case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
  case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor: case SpvOpAtomicSMin: case SpvOpAtomicSMax:
  case SpvOpAtomicUMin: case SpvOpAtomicUMax: case SpvOpAtomicExchange:
    return emit_atomic(j, inst, in);
  case SpvOpSubgroupBlockReadINTEL: case SpvOpSubgroupBlockWriteINTEL:
    return emit_block_io(j, inst, in);
  default:
    return false;
  }
}

/* Instructions that emit no code: they do not close the open lane loop.
 * (Fusing consecutive elementwise instructions into one loop was measured
 * slower: one statement GCC cannot if-convert keeps the whole loop scalar.) */
static bool emits_nothing(const ld_insn *in) {
  switch (in->op) {
  case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
  case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpMemoryBarrier: case SpvOpVariable:
    return true;
  default:
    return false;
  }
}

/* Calls a work-group collective helper (rt_wgc / rt_wgc_done): 0 goes on in
 * j->b, 1 goes to `susp` (NULL: stop), anything else stops the subgroup. */
static void wgc_call(J *j, gcc_jit_field *fn, uint32_t idx, gcc_jit_block *susp) {
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
  gcc_jit_lvalue *rc = local(j, j->t_i32);
  host_mark(j);
  assign(j, rc, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, fn), 3, args));
  gcc_jit_block *go = nb(j), *other = nb(j), *stop = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, 0)), go, other);
  if (susp)
    gcc_jit_block_end_with_conditional(other, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, 1)), susp, stop);
  else
    gcc_jit_block_end_with_jump(other, NULL, stop);
  ret_done(j, stop);
  j->b = go;
  j->n_stmts++;
}

static bool resume_direct(const J *j);
/* A segment that starts after a work-group barrier (not a collective:
 * rt_wgc_done writes no result of a barrier into the frame). */
static bool after_barrier(const J *j, const jit_seg *sg) {
  return sg->after_wgc && sg->first > 0 && sg->blk->insns[sg->first - 1].op == SpvOpControlBarrier &&
         is_wg_barrier(j->m, &sg->blk->insns[sg->first - 1]);
}

static void free_blive(J *j) {
  if (j->blive)
    for (uint32_t s = 0; s < j->k->n_seg; s++) free(j->blive[s]);
  free(j->blive);
  j->blive = NULL;
}

/* An elementwise instruction's lanes (emit_elementwise per component):
 * lane 0's scalar for an affine result, recomputed where read (remat), or
 * every component into temporaries, then the masked assignment.  False: the
 * compile failed. */
static bool emit_elementwise_insn(J *j, uint32_t inst, const ld_insn *in) {
  const ld_type *ct; uint32_t n;
  if (!lane_shape(in->type, &ct, &n)) { failf(j->e, "%s: result of unsupported type", ld_insn_where(j->m, in)); return false; }
  if (shadowed(j, inst, in->result)) {   /* lane 0's value (n is 1) */
    shadow_def_begin(j);
    assign(j, sh_lv(j, inst, in->result, 0), cast(j, emit_elementwise(j, inst, in, 0), scal(j, ct)));
    return true;
  }
  if (emit_select_uniform(j, inst, in)) return true;
  if (remat(j, inst, in->result)) return true;   /* computed where read (remat_plan) */
  /* compute every component into temporaries, then masked assignment */
  fuse_open(j);
  gcc_jit_lvalue *tmp[16];
  for (uint32_t c = 0; c < n; c++) {
    tmp[c] = local(j, scal(j, ct));
    assign(j, tmp[c], emit_elementwise(j, inst, in, c));
  }
  bool unblended = is_unblended(j, inst, in->result);
  for (uint32_t c = 0; c < n; c++) {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, c);
    assign(j, r, unblended ? R_(tmp[c]) : mblend(j, R_(tmp[c]), R_(r), scal(j, ct)));
  }
  return true;
}

static bool is_idiv(SpvOp op) {
  return op == SpvOpUDiv || op == SpvOpSDiv || op == SpvOpUMod || op == SpvOpSRem || op == SpvOpSMod;
}
/* Integer division (UDiv, SDiv, UMod, SRem, SMod): whether an active lane
 * divides by zero, or SDiv's MIN by -1 (the faults docs/semantics.md lists),
 * tested over the lanes; if so the interpreter's handler records the faults
 * and gives those lanes 0, else the lanes divide inline (emit_elementwise:
 * every lane by a nonzero divisor, since an inactive lane's operands may be
 * anything).  Returns the join block, j->b the inline block. */
static gcc_jit_block *idiv_check(J *j, uint32_t inst, const ld_insn *in) {
  const ld_type *ct; uint32_t n;
  lane_shape(in->type, &ct, &n);
  gcc_jit_type *T = scal(j, ct), *ST = sscal(j, ct), *B = j->t_u[0];
  fuse_close(j);
  gcc_jit_lvalue *bad = local(j, B);
  assign(j, bad, ci(j, B, 0));
  jloop lp;
  loop_begin(j, &lp);
  for (uint32_t c = 0; c < n; c++) {
    const ld_type *t0, *t1; uint32_t n0 = 1, n1 = 1;
    lane_shape(j->m->values[in->ops[0]].type, &t0, &n0);
    lane_shape(j->m->values[in->ops[1]].type, &t1, &n1);
    gcc_jit_rvalue *y = cast(j, V(j, inst, in->ops[1], n1 == 1 ? 0 : c), T);
    gcc_jit_rvalue *b = b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, y, ci(j, T, 0)));
    if (in->op == SpvOpSDiv) {
      gcc_jit_rvalue *x = cast(j, V(j, inst, in->ops[0], n0 == 1 ? 0 : c), T);
      uint64_t mn = 1ull << (ct->width - 1);
      b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, B, b, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, B,
              b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, cast(j, y, ST), ci(j, ST, -1))),
              b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, x, cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)mn), T)))));
    }
    assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, B, R_(bad),
                       bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, B, b, cast(j, MASKV(j), B))));
  }
  loop_end(j, &lp);
  gcc_jit_block *fast = nb(j), *slow = nb(j), *after = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, B, 0)), true),
                                     fast, slow);
  j->b = slow;
  emit_generic(j, inst, in);
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = fast;
  return after;
}

static void emit_seg_(J *j, int32_t si);
/* An if-converted then-block runs under a partial mask, in sg_kernel_full
 * too: its code tests mask[] and the top entry like sg_kernel's. */
static void emit_seg(J *j, int32_t si) {
  bool full = j->full;
  const jit_seg *sg = &j->k->seg[si];
  if (ifc_arm_kind(sg->ifc) || sg->mloop) j->full = false;
  ifc_one_lane(j, si);
  /* a masked loop's segment: the loop's word (mloop_word) */
  j->cur_tw = ifc_scalar(j, si) ? ifc_tw_local(j, si) : sg->mloop ? mloop_word(j, sg->mloop) : NULL;
  /* (an if-converted block inside the loop: its own word) */
  j->cur_mv = sg->mloop && !ifc_arm_kind(sg->ifc) && !getenv("SPIRV_SG_JIT_MLOOP_WORD") ? mloop_mv(j, sg->mloop) : NULL;
  j->cur_seg = si;
  j->vtop0 = j->cur_tw && ifc_no_push(j, si) ? R_(j->cur_tw) : NULL;
  emit_seg_(j, si);
  j->vtop0 = NULL;
  j->cur_tw = NULL;
  j->cur_mv = NULL;
  j->cur_seg = -1;
  j->one_lane = NULL;
  j->full = full;
}
static void emit_seg_(J *j, int32_t si) {
  jit_kernel *k = j->k;
  const jit_seg *s = &k->seg[si];
  const ld_block *blk = s->blk;
  uint32_t inst = s->inst;
  j->b = j->segb[si];
  gcc_jit_block *disp = j->segb[k->n_seg];
  uint32_t i = s->first;
  if (i == 0) {
    emit_phis(j, inst, blk);
    i = blk->n_phis;
    if (j->phi_done[si]) {   /* where the edges' copies go on (go_seg) */
      gcc_jit_block_end_with_jump(j->b, NULL, j->phi_done[si]);
      j->b = j->phi_done[si];
    }
  }
  if (s->after_wgc) {
    /* rt_wgc_done has nothing to do unless some subgroup waited in rt_wgc
     * (read in the host's jit_wgs, c->wg: the kernel functions' wg is
     * sg_groups' copy).  A collective's rendezvous wrote results into the
     * heap frames (every value was spilled before arriving); a barrier's
     * writes none, and the locals are those of before the barrier or of
     * the resume's fill. */
    gcc_jit_block *call = nb(j), *on = nb(j);
    gcc_jit_rvalue *used = R_(gcc_jit_rvalue_dereference_field(R_(gcc_jit_rvalue_dereference_field(j->c, NULL, j->c_wg)),
                                                               NULL, j->w_wgc_used));
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, used, ci(j, j->t_i32, 0)), call, on);
    j->b = call;
    wgc_call(j, j->c_wgc_done, 0, NULL);
    gcc_jit_block_end_with_jump(j->b, NULL, on);
    j->b = on;
    if (!after_barrier(j, s) || getenv("SPIRV_SG_JIT_SPILL_ALL")) fill_all(j);
  }
  for (; i < blk->n_insns && !j->e->failed; i++) {
    const ld_insn *in = &blk->insns[i];
    j->cur_in = in;
    if (!emits_nothing(in)) fuse_close(j);
    jloop lp;
    if (wg_scoped(j->m, in)) {
      /* a work-group collective: arrive (the interpreter's handler deposits
       * this subgroup's values), suspend until every subgroup has arrived,
       * then fetch the results at the next segment (rt_wgc_done) */
      uint32_t idx = add_insn_index(k, in);
      k->n_interp++;
      if (idx < k->cap_insns) k->insn_inst[idx] = inst;
      gcc_jit_block *susp = nb(j);
      assign(j, cfl(j, j->c_susp), ci(j, j->t_i32, (long)idx));
      spill_insn(j, inst, in);   /* the handler reads its operands */
      spill_all(j);   /* a suspension keeps every value (live ones in sg_kernel_full) */
      shadow_xfer(j, true);
      wgc_call(j, j->c_wgc, idx, susp);
      gcc_jit_block_end_with_jump(j->b, NULL, j->segb[s->succ[0]]);
      j->b = susp;
      assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, s->succ[0]));
      steps_store(j, j->b);
      gcc_jit_block_end_with_return(j->b, NULL, ci(j, j->t_i32, JIT_RET_SUSPEND));
      return;
    }
    switch (in->op) {
    case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
    case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpMemoryBarrier: case SpvOpVariable:
      continue;
    case SpvOpExtInst:
      if (in->ext_set == LD_EXT_OPENCL_DEBUGINFO_100 || in->ext_set == LD_EXT_NONSEMANTIC) continue;
      if (!native_ok(j->m, in)) {
        if (!emit_vloadstore(j, inst, in)) emit_generic(j, inst, in);
        continue;
      }
      goto elementwise_op;
    case SpvOpControlBarrier:
      if (!is_wg_barrier(j->m, in)) {
        gcc_jit_block *after = emit_coll_check(j, inst, in);
        gcc_jit_block_end_with_jump(j->b, NULL, after);
        j->b = after;
        continue;
      }
      /* a work-group barrier: the top entry resumes at the continuation
       * segment once every subgroup has arrived (the compiled loop).  With
       * every lane of the subgroup here nothing can be diagnosed; otherwise
       * the interpreter's handler runs first (rt_wgc: a barrier in
       * divergent code, unless the missing lanes have returned). */
      {
        uint32_t idx = add_insn_index(k, in);
        if (idx < k->cap_insns) k->insn_inst[idx] = inst;
        assign(j, cfl(j, j->c_susp), ci(j, j->t_i32, (long)idx));
        gcc_jit_block *susp = nb(j), *slow = nb(j), *chk = nb(j);
        /* resume_direct: the stack holds the kernel's entry alone, with
         * every lane (the test folds away) */
        bool every = resume_direct(j);
        gcc_jit_block_end_with_conditional(j->b, NULL, every ? gcc_jit_context_one(j->cx, j->t_bool) :
                                           cmp(j, GCC_JIT_COMPARISON_EQ, top_m(j, 0), R_(arr_at(j, ctxf(j, j->c_all), 0))),
                                           chk, slow);
        gcc_jit_block_end_with_conditional(chk, NULL, every ? gcc_jit_context_one(j->cx, j->t_bool) :
                                           cmp(j, GCC_JIT_COMPARISON_EQ, top_m(j, 1), R_(arr_at(j, ctxf(j, j->c_all), 1))),
                                           susp, slow);
        j->b = slow;
        spill_all(j);
        shadow_xfer(j, true);
        wgc_call(j, j->c_wgc, idx, susp);
        gcc_jit_block_end_with_jump(j->b, NULL, j->segb[k->seg[si].succ[0]]);
        j->b = susp;
        /* resumed by a later call: every value from the heap frame (in
         * sg_kernel_full, those live after the barrier: J.blive) */
        xfer_live(j, k->seg[si].succ[0], true);
        assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, k->seg[si].succ[0]));
        steps_store(j, j->b);
        gcc_jit_block_end_with_return(j->b, NULL, ci(j, j->t_i32, JIT_RET_SUSPEND));
      }
      return;
    case SpvOpFunctionCall: {
      const ld_function *callee = j->m->values[in->ops[0]].u.fn;
      /* the callee instance is the one whose continuation is the next segment */
      uint32_t ci_ = 0;
      int32_t cont = -1;
      for (uint32_t q = 0; q < k->n_seg; q++)
        if (k->seg[q].inst == inst && k->seg[q].blk == blk && k->seg[q].first == i + 1) cont = (int32_t)q;
      for (uint32_t q = 1; q < k->n_inst; q++)
        if (k->inst[q].parent == inst && k->inst[q].cont == cont) ci_ = q;
      if (!ci_) { failf(j->e, "internal: call instance"); return; }
      /* uniform parameters kept as lane 0's value (shadow_plan) */
      shadow_def_begin(j);
      for (uint32_t a = 0; a < callee->n_params && a + 1 < in->n_ops; a++)
        if (shadowed(j, ci_, callee->params[a]))
          assign(j, sh_lv(j, ci_, callee->params[a], 0), V(j, inst, in->ops[1 + a], 0));
      loop_begin(j, &lp);
      for (uint32_t a = 0; a < callee->n_params && a + 1 < in->n_ops; a++) {
        const ld_type *ct; uint32_t n;
        if (is_handle(j->m->values[callee->params[a]].type)) continue;   /* plan_handles */
        if (shadowed(j, ci_, callee->params[a])) continue;
        if (!lane_shape(j->m->values[callee->params[a]].type, &ct, &n)) {
          failf(j->e, "%s: aggregate argument", ld_insn_where(j->m, in)); return;
        }
        /* every lane: a parameter is read only inside this call of the
         * instance, by the lanes that make it */
        for (uint32_t c = 0; c < n; c++)
          assign(j, res_lv(j, ci_, callee->params[a], c), V(j, inst, in->ops[1 + a], c));
      }
      loop_end(j, &lp);
      /* the callee's Function variables start zeroed (as in the interpreter):
       * already so for a call in the entry block of a kernel without
       * variables of its own (llvm-spirv's wrapper of a kernel that another
       * kernel calls): rt_wg zeroed the private memory as the work-group
       * began and this call runs once per subgroup */
      if (!(inst == 0 && blk == &k->inst[0].fn->blocks[0] && k->inst[0].priv_end == k->inst[0].priv_off) ||
          getenv("SPIRV_SG_JIT_PROMO_ZERO_ALL"))
        zero_private(j, ci_);
      promo_zero(j, ci_, false);
      if (k->conv) {   /* the same lanes run the callee; its return jumps back */
        gcc_jit_block_end_with_jump(j->b, NULL, j->segb[k->inst[ci_].block_seg[0]]);
        return;
      }
      /* the caller's entry continues after the call; the callee's entry
       * (same lanes) reconverges there */
      assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, cont));
      stack_room(j, si, 1);
      gcc_jit_lvalue *m0 = local(j, j->t_u[3]), *m1 = local(j, j->t_u[3]);
      assign(j, m0, top_m(j, 0));
      assign(j, m1, top_m(j, 1));
      assign(j, arr_at(j, ctxf(j, j->c_base), (int)ci_), SP(j));
      push_entry(j, k->inst[ci_].block_seg[0], cont, R_(m0), R_(m1));
      gcc_jit_block_end_with_jump(j->b, NULL, j->segb[k->inst[ci_].block_seg[0]]);
      (void)disp;
      return;
    }
    case SpvOpLoad: if (!handle_ldst(j->m, in)) emit_load(j, inst, in); continue;
    case SpvOpStore: if (!handle_ldst(j->m, in)) emit_store(j, inst, in); continue;
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain:
      if (promo_skip_chain(j, inst, in->result) || promo_const_ptr(j, inst, in->result) ||
          remat(j, inst, in->result))
        continue;
      if (shadowed(j, inst, in->result)) {
        shadow_def_begin(j);
        assign(j, sh_lv(j, inst, in->result, 0), cast(j, emit_access_chain(j, inst, in), j->t_ptr));
        continue;
      }
      fuse_open(j);
      assign(j, res_lv(j, inst, in->result, 0), cast(j, emit_access_chain(j, inst, in), j->t_ptr));
      continue;
    case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
    case SpvOpReturnValue: case SpvOpUnreachable:
      emit_terminator(j, inst, in, si);
      return;
    case SpvOpCopyMemorySized:
      promo_copy(j, inst, in);
      continue;
    default:
      if (in->op == SpvOpBitcast && promo_const_ptr(j, inst, in->result)) continue;
      if (!native_ok(j->m, in)) {
        if (!emit_xlane(j, inst, in)) emit_generic(j, inst, in);
        continue;
      }
      if (in->op >= SpvOpGroupIAdd && in->op <= SpvOpGroupSMax) { emit_group(j, inst, in); continue; }
      if (in->op >= SpvOpGroupNonUniformIAdd && in->op <= SpvOpGroupNonUniformLogicalXor) { emit_group(j, inst, in); continue; }
    elementwise_op:
      if (is_idiv(in->op)) {   /* a zero divisor (or MIN / -1) in an active lane: the handler */
        gcc_jit_block *after = idiv_check(j, inst, in);
        if (!emit_elementwise_insn(j, inst, in)) return;
        fuse_close(j);
        gcc_jit_block_end_with_jump(j->b, NULL, after);
        j->b = after;
        continue;
      }
      if (!emit_elementwise_insn(j, inst, in)) return;
      continue;
    }
  }
  if (!j->e->failed) failf(j->e, "block without terminator");
}

/* The vector type field q's local gets instead of its array type, or NULL.
 * A lane array of one scalar component in 16, 32 or 64 bytes (a power-of-two
 * lane count) is a local of vector type that every access reads through a
 * cast to the array type (floc): GCC then keeps it in a register where all
 * its uses are whole-vector ones or vectorized lane loops, also across a
 * join with a slow path that refills it from the heap frame, where an array
 * local stays in memory and every value is stored and reloaded.
 * Not for mask, tgt, pred and addr, which per-lane control flow and
 * host-call code index one lane at a time (gemm 1.12x the time).
 * SPIRV_SG_JIT_NO_VLOCAL=1: array locals. */
static gcc_jit_type *vector_local_type(J *j, uint32_t q) {
  if (getenv("SPIRV_SG_JIT_NO_VLOCAL") || !j->all_elem || !j->all_elem[q] || (j->S & (j->S - 1))) return NULL;
  uint32_t b = j->all_sizes[q];
  if (b != 16 && b != 32 && b != 64) return NULL;
  return gcc_jit_type_get_vector(j->all_elem[q], j->S);
}

/* The 64-byte vector type of a wide field's parts (J.fmap_part), or NULL:
 * a one-component lane array of 128 bytes, 64-bit lanes of 16, that
 * je_build has not excluded (J.wide_excl).  Its lane array
 * would be memory that every lane loop stores and the next one reloads,
 * which GCC 12 at -O2 keeps in the stack frame even across a loop's trips
 * (a double-precision Horner loop: 3 to 5 times the time of its float
 * twin).  SPIRV_SG_JIT_NO_WIDE=1: arrays. */
static gcc_jit_type *wide_part_type(J *j, uint32_t q, uint32_t *np) {
  if (!j->all_elem || !j->all_elem[q] || (j->S & (j->S - 1)) || (j->wide_excl && j->wide_excl[q]) ||
      getenv("SPIRV_SG_JIT_NO_VLOCAL") || getenv("SPIRV_SG_JIT_NO_WIDE"))
    return NULL;
  /* two parts: GCC unrolls a lane loop of two vectors, and then forwards
   * the copies; four (256 bytes) stayed loops, 1.02 to 1.13x the time */
  uint32_t b = j->all_sizes[q];
  if (b != 128) return NULL;
  uint32_t esz = b / j->S;
  /* 64-bit lanes (S = 16) only: 32-bit lanes at S = 32 won 4.7x on a
   * float Horner loop but lost on the bench kernels run at S = 32
   * (Mandelbrot 1.67x, hist 1.23x, saxpy 1.13x the time);
   * SPIRV_SG_JIT_WIDE32=1 takes them too */
  if (esz != 8 && !getenv("SPIRV_SG_JIT_WIDE32")) return NULL;
  /* 256-bit lane loops (J.v256: Intel's AVX-512 parts with
   * SPIRV_SG_JIT_V256=1) split in four: the copies stay (a double Horner
   * loop 1.16x the time with -mtune=sapphirerapids here, 1.27x on a Xeon);
   * SPIRV_SG_JIT_WIDE_V256=1 takes them anyway */
  if (j->v256 && !getenv("SPIRV_SG_JIT_WIDE_V256")) return NULL;
  if (esz == 0 || 64 % esz) return NULL;
  *np = b / 64;
  return gcc_jit_type_get_vector(j->all_elem[q], 64 / esz);
}

/* Parts to the scratch array (in) or back, in block b. */
void wide_copy(J *j, int32_t h, gcc_jit_block *b, bool in) {
  for (uint32_t p = 0; p < j->fmap_np[h]; p++) {
    gcc_jit_lvalue *v = j->fmap_part[(size_t)h * WIDE_MAXP + p];
    gcc_jit_lvalue *av = vec_view(j, j->fmap_val[h], 64 * p, gcc_jit_rvalue_get_type(gcc_jit_lvalue_as_rvalue(v)));
    /* not counted in J.n_stmts (the optimization level's measure): GCC
     * forwards these copies early */
    if (in) gcc_jit_block_add_assignment(b, NULL, av, gcc_jit_lvalue_as_rvalue(v));
    else gcc_jit_block_add_assignment(b, NULL, v, gcc_jit_lvalue_as_rvalue(av));
  }
}
/* A lane loop reads or writes wide field h: its outermost loop fills the
 * scratch array first and copies it back after. */
void wide_touch(J *j, int32_t h) {
  if (j->wt_on[h]) return;
  if (j->n_wt == j->cap_wt) {
    uint32_t nc = j->cap_wt ? 2 * j->cap_wt : 32;
    uint32_t *nw = realloc(j->wt, nc * sizeof *nw);
    if (!nw) { failf(j->e, "out of memory"); return; }
    j->wt = nw;
    j->cap_wt = nc;
  }
  j->wt[j->n_wt++] = (uint32_t)h;
  j->wt_on[h] = 1;
}
/* An access outside lane loops that is not a read: the field is compiled
 * again as an ordinary array (je_build). */
void wide_violation(J *j, int32_t h) {
  if (j->wide_excl) j->wide_excl[j->fmap_q[h]] = 1;
  j->wide_retry = true;
}
/* The end of an outermost lane loop: the fields it touched are filled in
 * its cin block, which then goes to the test, and copied back after it. */
void wide_loop_done(J *j, jloop *lp) {
  for (uint32_t i = lp->wt0; i < j->n_wt; i++) {
    int32_t h = (int32_t)j->wt[i];
    wide_copy(j, h, lp->cin, true);
    wide_copy(j, h, j->b, false);
    j->wt_on[h] = 0;
  }
  j->n_wt = lp->wt0;
  gcc_jit_block_end_with_jump(lp->cin, NULL, lp->cond);
}
/* Zeroes field f's local (its parts, for a wide field). */
static void zero_local(J *j, gcc_jit_field *f, uint32_t bytes) {
  int32_t h = fidx(j, f);
  if (h >= 0 && j->fmap_vec && j->fmap_vec[h]) {
    /* a vector local: a zero vector assigned (a memset takes its address
     * and keeps it in memory: collatz 1.2x the time) */
    gcc_jit_type *vt = gcc_jit_rvalue_get_type(gcc_jit_lvalue_as_rvalue(j->fmap_vec[h]));
    gcc_jit_type *et = j->all_elem[j->fmap_q[h]];
    gcc_jit_rvalue *z[64];
    for (uint32_t l = 0; l < j->S && l < 64; l++) z[l] = gcc_jit_context_zero(j->cx, et);
    assign(j, j->fmap_vec[h], gcc_jit_context_new_rvalue_from_vector(j->cx, NULL, vt, j->S, z));
    return;
  }
  if (wide_h(j, h) && !j->lane_depth) {
    memset0(j, gcc_jit_lvalue_get_address(j->fmap_val[h], NULL), bytes);
    wide_copy(j, h, j->b, false);
    return;
  }
  memset0(j, gcc_jit_lvalue_get_address(floc(j, f), NULL), bytes);
}

typedef struct field_u { J *j; int n; gcc_jit_field **fields; gcc_jit_type **types; uint32_t *sizes; size_t *vid;
                         gcc_jit_type **elem; } field_u;
static void field_cb(void *u_, uint32_t inst, uint32_t id, bool tmp, const ld_type *t) {
  field_u *u = u_;
  J *j = u->j;
  const ld_type *ct; uint32_t n;
  lane_shape(t, &ct, &n);
  gcc_jit_type *ft = gcc_jit_context_new_array_type(j->cx, NULL, scal(j, ct), (int)j->S);
  if (n > 1) ft = gcc_jit_context_new_array_type(j->cx, NULL, ft, (int)n);
  char name[48];
  snprintf(name, sizeof name, "%s%u_%u", tmp ? "t" : "v", inst, id);
  gcc_jit_field *f = gcc_jit_context_new_field(j->cx, NULL, ft, name);
  u->types[u->n] = ft;
  u->elem[u->n] = n == 1 ? scal(j, ct) : NULL;
  u->sizes[u->n] = comp_bytes(j->k, ct) * n * j->S;
  u->vid[u->n] = tmp ? 0 : vidx(j, inst, id) + 1;
  u->fields[u->n++] = f;
  if (tmp) j->phitmp[vidx(j, inst, id)] = f; else j->slot[vidx(j, inst, id)] = f;
}
static void count_cb(void *u_, uint32_t inst, uint32_t id, bool tmp, const ld_type *t) {
  (void)inst; (void)id; (void)tmp; (void)t;
  (*(int *)u_)++;
}

/* rc = sg_kernel(args), or sg_kernel_full when there is one and every lane
 * of the subgroup is present (n_lanes == S). */
static void call_kernel(J *j, gcc_jit_lvalue *rc, gcc_jit_rvalue **args) {
  if (!j->fn_kernel) {   /* full_only: jit_kernel_run refuses other launches */
    assign(j, rc, gcc_jit_context_new_call(j->cx, NULL, j->fn_full, (int)(KFN_FIXED + j->n_argc), args));
    return;
  }
  if (!j->fn_full) {
    assign(j, rc, gcc_jit_context_new_call(j->cx, NULL, j->fn_kernel, (int)(KFN_FIXED + j->n_argc), args));
    return;
  }
  gcc_jit_block *bf = nb(j), *bp = nb(j), *after = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, ctxf(j, j->c_n_lanes),
                                                     ci(j, j->t_u[2], (long)j->S)), bf, bp);
  j->b = bf;
  assign(j, rc, gcc_jit_context_new_call(j->cx, NULL, j->fn_full, (int)(KFN_FIXED + j->n_argc), args));
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = bp;
  assign(j, rc, gcc_jit_context_new_call(j->cx, NULL, j->fn_kernel, (int)(KFN_FIXED + j->n_argc), args));
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = after;
}

/* sg_groups(w, first, count): the loops over work-groups and their
 * subgroups.  rt_wg (host) sets up each work-group; every subgroup runs
 * until it finishes or reaches a work-group barrier; while some wait at a
 * barrier, the waiting ones are resumed in subgroup order. */
/* Only sg_kernel_full runs, and only from a first start (every subgroup
 * whole, no suspension): its mask[] and pred[] start as constants in the
 * kernel function instead of frame stores in sg_groups that it reads back. */
static bool lean_start(const jit_kernel *k) { return k->full_only && !plan_may_suspend(k); }

/* sg_groups: a call of the kernel function (call_kernel); then out
 * through ret1 when the stop flag is set, else pend counts a suspension. */
static void call_counted(J *j, gcc_jit_lvalue *rc, gcc_jit_rvalue **kargs, gcc_jit_rvalue *stop,
                         gcc_jit_block *ret1, gcc_jit_lvalue *pend) {
  call_kernel(j, rc, kargs);
  gcc_jit_block *ok = nb(j);
  /* a kernel function with J.hc: only after a host helper ran */
  if (host_flag_on(j->k))
    stop = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool,
               cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, JIT_RET_HOST)), stop);
  gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, stop, false), ret1, ok);
  j->b = ok;
  assign(j, pend, bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, R_(pend),
                      cast(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, JIT_RET_SUSPEND)), j->t_i32)));
}

static void emit_groups(J *j) {
  jit_kernel *k = j->k;
  gcc_jit_context *cx = j->cx;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  gcc_jit_param *prm[3] = {
    gcc_jit_context_new_param(cx, NULL, j->t_wgsp, "w"),
    gcc_jit_context_new_param(cx, NULL, U, "first"),
    gcc_jit_context_new_param(cx, NULL, U, "count")};
  gcc_jit_function *fn = gcc_jit_context_new_function(cx, NULL, GCC_JIT_FUNCTION_EXPORTED, I, "sg_groups", 3, prm, 0);
  j->fn = fn;
  gcc_jit_rvalue *w = gcc_jit_param_as_rvalue(prm[0]);
  gcc_jit_lvalue *gi = gcc_jit_function_new_local(fn, NULL, U, "gi");
  gcc_jit_lvalue *end = gcc_jit_function_new_local(fn, NULL, U, "end");
  gcc_jit_lvalue *n = gcc_jit_function_new_local(fn, NULL, j->t_s[3], "n");
  gcc_jit_lvalue *i = gcc_jit_function_new_local(fn, NULL, I, "i");
  gcc_jit_lvalue *pend = gcc_jit_function_new_local(fn, NULL, I, "pend");
  gcc_jit_lvalue *rc = gcc_jit_function_new_local(fn, NULL, I, "rc");
  gcc_jit_lvalue *cp = gcc_jit_function_new_local(fn, NULL, j->t_ctxp, "cp");
  gcc_jit_lvalue *fp = gcc_jit_function_new_local(fn, NULL, j->t_framep, "fp");
  j->lane = gcc_jit_function_new_local(fn, NULL, I, "l");
  j->c = R_(cp);
  j->f = R_(fp);
  int32_t entry = k->inst[0].block_seg[0];
  gcc_jit_block *b0 = nb(j), *gl = nb(j), *gbody = nb(j), *ret0 = nb(j), *ret1 = nb(j), *sinit = nb(j);
  gcc_jit_block *sl = nb(j), *sbody = nb(j), *rr = nb(j), *rr_init = nb(j), *rl = nb(j), *rbody = nb(j);
  gcc_jit_block *rrun = nb(j), *rnext = nb(j), *gnext = nb(j);
  gcc_jit_rvalue *stop = cmp(j, GCC_JIT_COMPARISON_NE, R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_stop)), ci(j, I, 0));
  gcc_jit_rvalue *nn = cast(j, R_(n), I);

  j->b = b0;
  /* read once: the same for every subgroup of the launch */
  gcc_jit_lvalue *hrg = gcc_jit_function_new_local(fn, NULL, j->t_regp, "regions");
  gcc_jit_lvalue *hargs = gcc_jit_function_new_local(fn, NULL, j->t_u8p, "args");
  assign(j, hrg, R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_regions)));
  assign(j, hargs, R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_args)));
  j->h_regions = R_(hrg);
  /* the kernel functions' arguments: the launch's regions, a copy of the
   * work-group values that rt_wg refreshes (a local whose address the
   * compiled code alone sees, so GCC keeps its fields in registers across
   * the subgroups), the kernel arguments' components */
  gcc_jit_lvalue *wl = gcc_jit_function_new_local(fn, NULL, j->t_wgs, "wl");
  j->h_wg = gcc_jit_lvalue_get_address(wl, NULL);
  /* the range-check windows (J.h_win) start empty: lim 0 admits nothing */
  gcc_jit_lvalue *wins = gcc_jit_function_new_local(fn, NULL,
      gcc_jit_context_new_array_type(cx, NULL, gcc_jit_struct_as_type(j->win_st), (int)(j->n_win ? j->n_win : 1)), "wins");
  if (j->n_win) {
    gcc_jit_lvalue *q = gcc_jit_function_new_local(fn, NULL, I, "q");
    gcc_jit_block *wc = nb(j), *wb = nb(j), *wd = nb(j);
    assign(j, q, ci(j, I, 0));
    gcc_jit_block_end_with_jump(j->b, NULL, wc);
    gcc_jit_block_end_with_conditional(wc, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(q), ci(j, I, (long)j->n_win)), wb, wd);
    j->b = wb;
    gcc_jit_lvalue *e = gcc_jit_context_new_array_access(cx, NULL, R_(wins), R_(q));
    assign(j, gcc_jit_lvalue_access_field(e, NULL, j->wn_lo), ci(j, U, 0));
    assign(j, gcc_jit_lvalue_access_field(e, NULL, j->wn_lim), ci(j, U, 0));
    assign(j, gcc_jit_lvalue_access_field(e, NULL, j->wn_base), gcc_jit_context_null(cx, j->t_u8p));
    gcc_jit_block_add_assignment_op(j->b, NULL, q, GCC_JIT_BINARY_OP_PLUS, ci(j, I, 1));
    gcc_jit_block_end_with_jump(j->b, NULL, wc);
    j->b = wd;
  }
  gcc_jit_rvalue **kargs = calloc(KFN_FIXED + j->n_argc, sizeof *kargs);
  if (!kargs) { failf(j->e, "out of memory"); return; }
  for (uint32_t q = 0; q < j->n_argc; q++) {
    char an[24];
    snprintf(an, sizeof an, "a%u", q);
    gcc_jit_lvalue *al = gcc_jit_function_new_local(fn, NULL, j->argc[q].t, an);
    gcc_jit_rvalue *p = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(
        cx, NULL, R_(hargs), ci(j, I, (long)j->argc[q].off)), NULL);
    assign(j, al, R_(gcc_jit_rvalue_dereference(cast(j, p, gcc_jit_type_get_pointer(j->argc[q].t)), NULL)));
    kargs[KFN_FIXED + q] = R_(al);
  }
  assign(j, gi, gcc_jit_param_as_rvalue(prm[1]));
  assign(j, end, bin(j, GCC_JIT_BINARY_OP_PLUS, U, gcc_jit_param_as_rvalue(prm[1]), gcc_jit_param_as_rvalue(prm[2])));
  gcc_jit_block_end_with_jump(j->b, NULL, gl);
  gcc_jit_block_end_with_conditional(gl, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(gi), R_(end)), gbody, ret0);
  gcc_jit_block_end_with_return(ret0, NULL, ci(j, I, 0));
  gcc_jit_block_end_with_return(ret1, NULL, ci(j, I, 1));
  j->b = gbody;
  gcc_jit_rvalue *wa[2] = {w, R_(gi)};
  assign(j, n, gcc_jit_context_new_call_through_ptr(cx, NULL, R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_rt_wg)), 2, wa));
  assign(j, wl, R_(gcc_jit_rvalue_dereference(w, NULL)));
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(n), ci(j, j->t_s[3], 0)), ret1, sinit);
  j->b = sinit;
  assign(j, i, ci(j, I, 0));
  assign(j, pend, ci(j, I, 0));
  gcc_jit_block_end_with_jump(j->b, NULL, sl);
  gcc_jit_block_end_with_conditional(sl, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(i), nn), sbody, rr);

  /* first run of subgroup i */
  j->b = sbody;
  gcc_jit_rvalue *sgs = R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_sgs));
  assign(j, cp, R_(gcc_jit_context_new_array_access(cx, NULL, sgs, R_(i))));
  assign(j, fp, cast(j, ctxf(j, j->c_frame), j->t_framep));
  emit_priv_regions(j);
  if (!lean_start(k)) {   /* lean: sg_kernel_full's first start sets its own */
    jloop lp;
    loop_begin(j, &lp);
    assign(j, lane_arr(j, j->f_mask, L(j)),
           cast(j, cmp(j, GCC_JIT_COMPARISON_LT, cast(j, L(j), j->t_u[2]), ctxf(j, j->c_n_lanes)), I));
    assign(j, lane_arr(j, j->f_pred, L(j)), ci(j, I, -1));
    loop_end(j, &lp);
  }
  if (!k->lean_stack) stack_base(j);   /* lean: rt_wg set it, and it stays so */
  if (!k->no_steps) {
    assign(j, cfl(j, j->c_steps), ci(j, U, 0));
    assign(j, cfl(j, j->c_step_check), R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_step_check)));
  }
  /* instance 0's Function variables: rt_wg zeroed every subgroup's private
   * memory as the work-group began, and nothing ran in it since (a second
   * zeroing here called memset once per lane: 5% of transpose) */
  /* A kernel that may suspend: one call site for both the first runs and
   * the resumes (st: entry or -1), so that each kernel function is called
   * once and GCC inlines it into this loop (-finline-functions-called-once),
   * prologue and all: hist 0.92-0.96x.  (One that never suspends has one
   * call site already; its resume round below is dead code.) */
  bool susp = plan_may_suspend(k), one = susp && !getenv("SPIRV_SG_JIT_TWO_CALLS");
  gcc_jit_lvalue *st = one ? gcc_jit_function_new_local(fn, NULL, I, "st") : NULL;
  gcc_jit_block *callb = one ? nb(j) : NULL;
  if (one) {
    assign(j, st, ci(j, I, entry));
    gcc_jit_block_end_with_jump(j->b, NULL, callb);
    j->b = callb;
  }
  kargs[0] = R_(cp); kargs[1] = R_(fp); kargs[2] = one ? R_(st) : ci(j, I, entry);
  kargs[3] = j->h_regions; kargs[4] = j->h_wg;
  kargs[5] = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(cx, NULL, R_(wins), ci(j, I, 0)), NULL);
  kargs[6] = cast(j, R_(i), j->t_u[2]);
  call_counted(j, rc, kargs, stop, ret1, pend);
  assign(j, i, bin(j, GCC_JIT_BINARY_OP_PLUS, I, R_(i), ci(j, I, 1)));
  /* a resume goes on with the resume round (rl), a first run with the
   * first round (sl) */
  if (one)
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(st), ci(j, I, 0)), rl, sl);
  else
    gcc_jit_block_end_with_jump(j->b, NULL, sl);

  /* resume rounds while some subgroup waits at a barrier; before each, the
   * host reports subgroups that finished without arriving (rt_release) */
  gcc_jit_block *rel = nb(j);
  if (susp)
    gcc_jit_block_end_with_conditional(rr, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(pend), ci(j, I, 0)), gnext, rel);
  else   /* no subgroup ever waits: the resume rounds are dead code */
    gcc_jit_block_end_with_jump(rr, NULL, gnext);
  {
    /* every subgroup waiting (pend == n): none finished early, nothing to
     * report (rt_release counts the same; the stop flag is tested after
     * every call) */
    gcc_jit_block *relc = nb(j);
    if (getenv("SPIRV_SG_JIT_RELEASE_ALWAYS"))
      gcc_jit_block_end_with_jump(rel, NULL, relc);
    else
      gcc_jit_block_end_with_conditional(rel, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(pend), nn), rr_init, relc);
    gcc_jit_rvalue *wr[1] = {w};
    gcc_jit_rvalue *relrc = gcc_jit_context_new_call_through_ptr(cx, NULL,
        R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_rt_release)), 1, wr);
    gcc_jit_block_end_with_conditional(relc, NULL, cmp(j, GCC_JIT_COMPARISON_NE, relrc, ci(j, I, 0)), ret1, rr_init);
  }
  j->b = rr_init;
  assign(j, pend, ci(j, I, 0));
  assign(j, i, ci(j, I, 0));
  gcc_jit_block_end_with_jump(j->b, NULL, rl);
  gcc_jit_block_end_with_conditional(rl, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(i), nn), rbody, rr);
  j->b = rbody;
  assign(j, cp, R_(gcc_jit_context_new_array_access(cx, NULL, sgs, R_(i))));
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LE, ctxf(j, j->c_sp), ci(j, I, 0)), rnext, rrun);
  j->b = rrun;
  assign(j, fp, cast(j, ctxf(j, j->c_frame), j->t_framep));
  emit_priv_regions(j);
  if (one) {
    assign(j, st, ci(j, I, -1));
    gcc_jit_block_end_with_jump(j->b, NULL, callb);
  } else {
    kargs[2] = ci(j, I, -1);
    call_counted(j, rc, kargs, stop, ret1, pend);
    gcc_jit_block_end_with_jump(j->b, NULL, rnext);
  }
  j->b = rnext;
  assign(j, i, bin(j, GCC_JIT_BINARY_OP_PLUS, I, R_(i), ci(j, I, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, rl);
  j->b = gnext;
  assign(j, gi, bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(gi), ci(j, U, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, gl);
  free(kargs);
  j->h_regions = j->h_wg = NULL;
}

/* Builds the gccjit context for the planned kernel. */
/* spill_all / fill_all at one call site: jump to the shared block with this
 * site's return index; code goes on in the continuation block. */
void xfer_all(J *j, int fill) {
  /* inside a lane loop the touched wide fields live in their scratch
   * arrays, which the shared block does not read: none is wide */
  if (j->lane_depth && j->any_wide)
    for (uint32_t h = 0; h < j->fmap_cap; h++)
      if (j->fmap_np[h]) wide_violation(j, (int32_t)h);
  if (!j->xfer_blk[fill]) {
    j->xfer_blk[fill] = nb(j);
    j->xfer_ret[fill] = local(j, j->t_i32);
  }
  if (j->n_xfer[fill] == j->cap_xfer[fill]) {
    uint32_t cap = j->cap_xfer[fill] ? 2 * j->cap_xfer[fill] : 16;
    gcc_jit_block **nc = realloc(j->xfer_cont[fill], cap * sizeof *nc);
    if (!nc) { failf(j->e, "out of memory"); return; }
    j->xfer_cont[fill] = nc;
    j->cap_xfer[fill] = cap;
  }
  gcc_jit_block *cont = nb(j);
  assign(j, j->xfer_ret[fill], ci(j, j->t_i32, (long)j->n_xfer[fill]));
  j->xfer_cont[fill][j->n_xfer[fill]++] = cont;
  gcc_jit_block_end_with_jump(j->b, NULL, j->xfer_blk[fill]);
  j->b = cont;
}

/* Spill (or fill) the lane arrays live at the start of segment s, which
 * follows a work-group barrier (J.blive), inline; every kept one where
 * there is no such set. */
void xfer_live(J *j, int32_t s, bool spill_) {
  const uint8_t *bl = j->full && j->blive && s >= 0 ? j->blive[s] : NULL;
  if (!bl) { xfer_all(j, spill_ ? 0 : 1); shadow_xfer(j, spill_); return; }
  j->xfer_vec = !getenv("SPIRV_SG_JIT_ARRAY_XFER");
  for (uint32_t q = 0; q < j->n_fields; q++) {
    if (!bl[q]) continue;
    if (bl[q] == 2) {   /* an if-converted value not live here: zeroed */
      if (!spill_) zero_local(j, j->all_fields[q], j->all_sizes[q]);
      continue;
    }
    uint32_t inst = 0, id = 0;
    field_value(j, q, &inst, &id);
    if (fshadowed(j, q) && spill_ && !getenv("SPIRV_SG_JIT_SHADOW_LANES")) {
      /* lane 0 alone: the resume reads nothing else (a barrier: no handler
       * reads this subgroup's frame meanwhile) */
      const ld_type *ct; uint32_t n;
      lane_shape(j->m->values[id].type, &ct, &n);
      for (uint32_t c = 0; c < n; c++) {
        gcc_jit_rvalue *arr = R_(hfld(j, j->all_fields[q]));
        if (n > 1) arr = R_(gcc_jit_context_new_array_access(j->cx, NULL, arr, ci(j, j->t_i32, c)));
        assign(j, gcc_jit_context_new_array_access(j->cx, NULL, arr, ci(j, j->t_i32, 0)), R_(sh_lv(j, inst, id, c)));
      }
    } else if (fshadowed(j, q)) {
      spill_val(j, inst, id, spill_);
    } else {
      spill_or_fill(j, j->all_fields[q], spill_);
    }
  }
  j->xfer_vec = false;
}

/* Every shadowed value (J.sh_on) to the heap frame's lane arrays (spill),
 * or lane 0's back (fill): around a suspension without a live set (the
 * shared spill and fill blocks skip them: their lane arrays are never
 * written). */
void shadow_xfer(J *j, bool spill_) {
  if (!j->sh_on) return;
  for (uint32_t q = 0; q < j->n_fields; q++) {
    uint32_t inst, id;
    if (fshadowed(j, q) && field_value(j, q, &inst, &id)) spill_val(j, inst, id, spill_);
  }
}

/* The shared spill and fill blocks: every lane array, then back to the site. */
static void emit_xfer_blocks(J *j) {
  for (int fill = 0; fill < 4; fill++) {
    if (!j->xfer_blk[fill]) continue;
    j->b = j->xfer_blk[fill];
    if (fill >= 2) promo_sync_body(j, fill == 2);
    else
      for (uint32_t i = 0; i < j->n_fields; i++)
        if ((!j->fkeep || (j->fkeep[i] & FK_KEEP)) && !fshadowed(j, i)) spill_or_fill(j, j->all_fields[i], !fill);
    uint32_t n = j->n_xfer[fill];
    gcc_jit_case **cases = calloc(n + 1, sizeof *cases);
    if (!cases) { failf(j->e, "out of memory"); return; }
    for (uint32_t q = 0; q < n; q++)
      cases[q] = gcc_jit_context_new_case(j->cx, ci(j, j->t_i32, (long)q), ci(j, j->t_i32, (long)q), j->xfer_cont[fill][q]);
    gcc_jit_block_end_with_switch(j->b, NULL, R_(j->xfer_ret[fill]), j->xfer_cont[fill][0], (int)n, cases);
    free(cases);
  }
}

/* sg_kernel_full: the lane arrays a suspension must keep (J.fkeep), as
 * the code there reads no lane before writing it (no blends): mask[] and
 * pred[]; values used in another segment than the one defining them (a
 * segment ends at every barrier, collective and call, and at every block
 * end) and every phi operand; callee parameters and call results; the
 * values of if-converted blocks (blended under a partial mask: also zeroed
 * at a first start, FK_ZERO).  Values defined and used within one segment
 * never live across a suspension. */
/* cb for every operand word of `in` that names a value, by the grammar's
 * operand layout; for every word when the layout is not known. */
static void walk_ids(const ld_insn *in, void (*cb)(void *, uint32_t, spv_operand_class), void *u) {
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  uint16_t skip = d ? (uint16_t)(d->has_type + d->has_result) : 0;
  if (!d || !spv_walk_operands(in->ops, in->n_ops, 0, d->operands + skip, (uint16_t)(d->n_operands - skip), cb, u))
    for (uint32_t q = 0; q < in->n_ops; q++) cb(u, q, SPV_OPND_ID);
}
typedef struct { J *j; uint32_t inst; int32_t seg; const ld_insn *in; const int32_t *defseg; } kept_q;
static void keep_field(J *j, gcc_jit_field *f, uint8_t flags) {
  int32_t h = fidx(j, f);
  if (h >= 0) j->fkeep[j->fmap_q[h]] |= flags;
}
static void kept_cb(void *u_, uint32_t w, spv_operand_class cls) {
  kept_q *u = u_;
  if (cls != SPV_OPND_ID || w >= u->in->n_ops) return;
  uint32_t id = u->in->ops[w];
  if (id == 0 || id >= u->j->m->bound) return;
  gcc_jit_field *f = value_slot(u->j, u->inst, id);
  if (f && (u->in->op == SpvOpPhi || u->defseg[vidx(u->j, u->inst, id)] != u->seg)) keep_field(u->j, f, FK_KEEP);
}
static uint32_t seg_end(const jit_kernel *k, int32_t s) {
  const jit_seg *sg = &k->seg[s];
  uint32_t end = sg->blk->n_insns;
  for (uint32_t q = 0; q < k->n_seg; q++) {
    const jit_seg *o = &k->seg[q];
    if (o->inst == sg->inst && o->blk == sg->blk && o->first > sg->first && o->first < end) end = o->first;
  }
  return end;
}
/* The resume after a work-group barrier in sg_kernel_full of a convergent
 * kernel: the stack holds the kernel's entry alone (every lane, no
 * reconvergence point), mask[] is every lane there, and pred[] is written by
 * the branch before any phi reads it (a barrier never sits between them).
 * So the suspension keeps neither, and the resume sets both as a first start
 * does and jumps straight to the segment, without the settle block and the
 * dispatch switch (two barriers per subgroup: 0.36 -> 0.26 ms at 256K items).
 * SPIRV_SG_JIT_RESUME_SETTLE=1: through the settle block, both kept. */
static bool resume_direct(const J *j) {
  return j->full && j->k->conv && !getenv("SPIRV_SG_JIT_RESUME_SETTLE");
}
/* mask[] and pred[] of a subgroup with every lane active and no
 * predecessor yet (a lean first start, a direct resume) */
static void fresh_mask_pred(J *j) {
  jloop lp;
  loop_begin(j, &lp);
  assign(j, lane_arr(j, j->f_mask, L(j)), ci(j, j->t_i32, 1));
  assign(j, lane_arr(j, j->f_pred, L(j)), ci(j, j->t_i32, -1));
  loop_end(j, &lp);
}

/* sg_kernel_full: per segment that starts after a work-group barrier, the
 * kept lane arrays live there (J.blive): the values some path from its
 * start reads before a new definition, mask[] and pred[] (not where the
 * resume sets them: resume_direct), and the blended
 * values of if-converted then-blocks (FK_ZERO: a blend reads their
 * inactive lanes).  The suspension at that barrier writes only those to the
 * heap frame, and the resume reads only those back (hist: nine lane arrays
 * each way for every subgroup and barrier, of which four were live).
 * Liveness is on the segment graph (a call's segment leads to the callee's
 * entry, a return to the call's continuation), backwards from each use to
 * the defining segment: a callee's parameters are defined by the call's
 * segment, a call's result there too (live through the callee); a phi's
 * operand counts as used at the end of every predecessor of the phi's
 * segment. */
/* one use: value v (vidx) read by operand q of `in`, in segment seg */
typedef struct { const ld_insn *in; uint32_t v, seg, q; } live_use;
typedef struct { live_use *a; size_t n, cap; bool oom; } use_list;
typedef struct { J *j; uint32_t inst; int32_t seg; const ld_insn *in; use_list *ul; } live_q;
static void live_cb(void *u_, uint32_t w, spv_operand_class cls) {
  live_q *u = u_;
  if (cls != SPV_OPND_ID || w >= u->in->n_ops) return;
  uint32_t id = u->in->ops[w];
  if (id == 0 || id >= u->j->m->bound || !value_slot(u->j, u->inst, id)) return;
  use_list *l = u->ul;
  if (l->oom) return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 256;
    live_use *na = realloc(l->a, cap * sizeof *na);
    if (!na) { l->oom = true; return; }
    l->a = na;
    l->cap = cap;
  }
  l->a[l->n++] = (live_use){u->in, (uint32_t)vidx(u->j, u->inst, id), (uint32_t)u->seg, w};
}
/* Operand q of u reads only the lanes active where u runs (an inactive
 * lane's value is never seen): lane-local code, a phi (each lane reads the
 * operand of the edge it came along), an atomic's pointer or value. */
static bool inactive_blind(const ld_module *m, const ld_insn *u, uint32_t q) {
  switch (u->op) {
  case SpvOpPhi: return true;
  case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor:
  case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
  case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicExchange: case SpvOpAtomicLoad: case SpvOpAtomicStore:
    return q == 0 || q == 3;
  default:
    return lane_local_use(m, u, q);
  }
}
/* The adjacency of ns segments from an edge list, as CSR: with key 0 each
 * edge's source lists its target (successors), with key 1 each target its
 * source (predecessors).  *off has ns + 1 entries; false when out of memory. */
static bool seg_csr(const uint32_t (*edge)[2], size_t ne, uint32_t ns, int key, uint32_t **off, uint32_t **idx) {
  uint32_t *o = calloc(ns + 2, sizeof *o), *x = malloc((ne + 1) * sizeof *x), *fill = calloc(ns + 1, sizeof *fill);
  bool ok = o && x && fill;
  for (size_t e = 0; ok && e < ne; e++) o[edge[e][key] + 1]++;
  for (uint32_t s = 0; ok && s < ns; s++) o[s + 1] += o[s];
  for (size_t e = 0; ok && e < ne; e++) {
    uint32_t t = edge[e][key];
    x[o[t] + fill[t]++] = edge[e][1 - key];
  }
  free(fill);
  if (!ok) { free(o); free(x); o = x = NULL; }
  *off = o;
  *idx = x;
  return ok;
}

static void mark_live(J *j, const int32_t *defseg0, const uint32_t *ends) {
  const jit_kernel *k = j->k;
  const ld_module *m = j->m;
  uint32_t ns = k->n_seg, nf = j->n_fields;
  size_t nv = (size_t)k->n_inst * m->bound;
  j->blive = NULL;
  if (!j->fkeep || getenv("SPIRV_SG_JIT_SPILL_ALL")) return;
  bool any = false;
  for (uint32_t s = 0; s < ns; s++) any |= after_barrier(j, &k->seg[s]);
  if (!any) return;
  uint32_t *np = NULL, *pi = NULL;
  int32_t *callseg = calloc(k->n_inst + 1, sizeof *callseg);
  int32_t *defseg = malloc((nv + 1) * sizeof *defseg);
  uint32_t (*edge)[2] = NULL;
  size_t ne = 0, cape = 0;
  uint8_t *in_q = calloc(ns + 1, 1);
  uint32_t *queue = malloc((ns + 1) * sizeof *queue);
  use_list ul = {0};
  uint8_t **bl = calloc(ns + 1, sizeof *bl);
  bool ok = callseg && defseg && in_q && queue && bl;
  if (ok) memcpy(defseg, defseg0, nv * sizeof *defseg);
  /* the segment each instance is called from (it ends at the call) */
  for (uint32_t ii = 1; ok && ii < k->n_inst; ii++) {
    const jit_seg *c = k->inst[ii].cont >= 0 ? &k->seg[k->inst[ii].cont] : NULL;
    callseg[ii] = -1;
    for (uint32_t s = 0; c && s < ns; s++)
      if (k->seg[s].inst == k->inst[ii].parent && k->seg[s].blk == c->blk && ends[s] == c->first) callseg[ii] = (int32_t)s;
    if (callseg[ii] < 0 || k->inst[ii].block_seg[0] < 0) { ok = false; break; }
    const ld_function *fn = k->inst[ii].fn;
    for (uint32_t p = 0; p < fn->n_params; p++) defseg[vidx(j, ii, fn->params[p])] = callseg[ii];
  }
  /* edges: terminators' successors, calls into callees, returns back */
  for (uint32_t s = 0; ok && s < ns; s++) {
    const jit_seg *sg = &k->seg[s];
    uint32_t to[66], nt = 0;
    for (int32_t q = 0; q < sg->n_succ; q++) to[nt++] = (uint32_t)sg->succ[q];
    if (sg->n_succ < 0) {   /* cut at a call */
      for (uint32_t ii = 1; ii < k->n_inst; ii++)
        if (callseg[ii] == (int32_t)s) to[nt++] = (uint32_t)k->inst[ii].block_seg[0];
      if (!nt) { ok = false; break; }
    }
    const ld_insn *t = ends[s] == sg->blk->n_insns ? &sg->blk->insns[sg->blk->n_insns - 1] : NULL;
    if (t && (t->op == SpvOpReturn || t->op == SpvOpReturnValue) && sg->inst > 0)
      to[nt++] = (uint32_t)k->inst[sg->inst].cont;
    for (uint32_t q = 0; q < nt; q++) {
      if (ne == cape) {
        cape = cape ? 2 * cape : 64;
        void *ne_ = realloc(edge, cape * sizeof *edge);
        if (!ne_) { ok = false; break; }
        edge = ne_;
      }
      edge[ne][0] = s;
      edge[ne++][1] = to[q];
    }
  }
  /* predecessors (CSR) */
  if (ok && !seg_csr((const uint32_t (*)[2])edge, ne, ns, 1, &np, &pi)) ok = false;
  /* every use of a value with a lane array */
  for (uint32_t s = 0; ok && s < ns; s++) {
    const jit_seg *sg = &k->seg[s];
    for (uint32_t i = sg->first; i < ends[s]; i++) {
      live_q u = {j, sg->inst, (int32_t)s, &sg->blk->insns[i], &ul};
      walk_ids(u.in, live_cb, &u);
    }
  }
  if (ul.oom) ok = false;
  /* the blended values of if-converted then-blocks (FK_ZERO) a reader may
   * see inactive lanes of (a cross-lane operation, a handler): kept at every
   * barrier; the others are kept only where live, and else zeroed by the
   * resume (their inactive lanes are never read, but a blend must not read
   * an uninitialized local) */
  uint8_t *zobs = ok ? calloc(nf + 1, 1) : NULL;
  if (!zobs) ok = false;
  for (size_t x = 0; ok && x < ul.n; x++) {
    const live_use *us = &ul.a[x];
    int32_t h = fidx(j, value_slot(j, us->v / m->bound, us->v % m->bound));
    if (h < 0 || !(j->fkeep[j->fmap_q[h]] & FK_ZERO)) continue;
    if (!inactive_blind(m, us->in, us->q)) zobs[j->fmap_q[h]] = 1;
  }
  for (uint32_t s = 0; ok && s < ns; s++) {
    if (!after_barrier(j, &k->seg[s])) continue;
    if (!(bl[s] = calloc(nf + 1, 1))) { ok = false; break; }
    for (uint32_t q = 0; q < nf; q++)
      if (zobs[q] || ((j->all_fields[q] == j->f_mask || j->all_fields[q] == j->f_pred) && !resume_direct(j)))
        bl[s][q] = 1;
  }
  /* per use: the segments it is live into, backwards to its definition */
  for (size_t x = 0; ok && x < ul.n; x++) {
    const live_use *us = &ul.a[x];
    int32_t d = defseg[us->v];
    uint32_t u = us->seg, nq = 0;
    memset(in_q, 0, ns);
    if (us->in->op == SpvOpPhi) {   /* live out of every predecessor of the phi's segment */
      for (uint32_t p = np[u]; p < np[u + 1]; p++)
        if ((int32_t)pi[p] != d && !in_q[pi[p]]) { in_q[pi[p]] = 1; queue[nq++] = pi[p]; }
    } else if ((int32_t)u != d) {
      in_q[u] = 1;
      queue[nq++] = u;
    }
    while (nq) {
      uint32_t s = queue[--nq];
      for (uint32_t p = np[s]; p < np[s + 1]; p++)
        if ((int32_t)pi[p] != d && !in_q[pi[p]]) { in_q[pi[p]] = 1; queue[nq++] = pi[p]; }
    }
    int32_t h = fidx(j, value_slot(j, us->v / m->bound, us->v % m->bound));
    if (h < 0) continue;
    uint32_t q = j->fmap_q[h];
    for (uint32_t s = 0; s < ns; s++)
      if (bl[s] && in_q[s]) bl[s][q] = 1;
  }
  for (uint32_t s = 0; ok && s < ns; s++)
    if (bl[s])
      for (uint32_t q = 0; q < nf; q++)
        bl[s][q] = !(j->fkeep[q] & FK_KEEP) ? 0 : bl[s][q] ? 1 : (j->fkeep[q] & FK_ZERO) ? 2 : 0;
  /* Direct resume (every barrier suspends): a resume zeroes only the
   * if-converted values (2 above) whose definition some path from it
   * reaches before the next barrier; the resume after that barrier zeroes
   * the others (tree_reduce's nine resumes each zeroed every then-block's
   * values, 3.5 KiB per subgroup and barrier).  A definition not known, or
   * SPIRV_SG_JIT_ZERO_EACH_RESUME=1: zeroed at every resume. */
  if (ok && resume_direct(j) && !getenv("SPIRV_SG_JIT_ZERO_EACH_RESUME")) {
    uint32_t *sn = NULL, *si_ = NULL;
    uint8_t *reach = calloc(ns + 1, 1);
    if (reach && seg_csr((const uint32_t (*)[2])edge, ne, ns, 0, &sn, &si_)) {
      for (uint32_t s = 0; s < ns; s++) {
        if (!bl[s]) continue;
        memset(reach, 0, ns);
        uint32_t nq = 0;
        reach[s] = 1;
        queue[nq++] = s;
        while (nq) {
          uint32_t t = queue[--nq];
          for (uint32_t e = sn[t]; e < sn[t + 1]; e++) {
            uint32_t u = si_[e];
            if (u < ns && !reach[u] && !after_barrier(j, &k->seg[u])) { reach[u] = 1; queue[nq++] = u; }
          }
        }
        for (uint32_t q = 0; q < nf; q++) {
          uint32_t inst = 0, id = 0;
          if (bl[s][q] != 2 || !field_value(j, q, &inst, &id)) continue;
          int32_t d = defseg[vidx(j, inst, id)];
          if (d >= 0 && (uint32_t)d < ns && !reach[d]) bl[s][q] = 0;
        }
      }
    }
    free(sn); free(si_); free(reach);
  }
  if (ok) j->blive = bl;
  else if (bl) {
    for (uint32_t s = 0; s < ns; s++) free(bl[s]);
    free(bl);
  }
  free(np); free(pi); free(callseg); free(defseg); free(edge); free(in_q); free(queue);
  free(ul.a); free(zobs);
}

/* Segment s begins a block a masked loop's lanes leave for (x, xe). */
static bool mloop_exit_seg(const jit_kernel *k, int32_t s) {
  for (uint32_t r = 0; r < k->n_mloops; r++)
    if (k->mloops[r].x == s || k->mloops[r].xe == s) return true;
  return false;
}
static void mark_kept(J *j) {
  const jit_kernel *k = j->k;
  size_t nv = (size_t)k->n_inst * j->m->bound;
  j->fkeep = calloc(j->n_fields + 1, sizeof *j->fkeep);
  int32_t *defseg = malloc((nv ? nv : 1) * sizeof *defseg);
  uint32_t *ends = malloc((k->n_seg + 1) * sizeof *ends);
  bool *one = calloc(k->n_seg + 1, sizeof *one);
  if (!j->fkeep || !defseg || !ends || !one) {   /* out of memory: keep every field */
    free(j->fkeep); j->fkeep = NULL;
    free(defseg); free(ends); free(one);
    return;
  }
  for (uint32_t s = 0; s < k->n_seg; s++) one[s] = ifc_lane_bound(j, (int32_t)s) >= 0;
  keep_field(j, j->f_mask, FK_KEEP);
  keep_field(j, j->f_pred, FK_KEEP);
  for (size_t i = 0; i < nv; i++) defseg[i] = -1;
  for (uint32_t s = 0; s < k->n_seg; s++) {
    const jit_seg *sg = &k->seg[s];
    ends[s] = seg_end(k, (int32_t)s);
    for (uint32_t i = sg->first; i < ends[s]; i++)
      if (sg->blk->insns[i].result) defseg[vidx(j, sg->inst, sg->blk->insns[i].result)] = (int32_t)s;
  }
  for (uint32_t s = 0; s < k->n_seg; s++) {
    const jit_seg *sg = &k->seg[s];
    for (uint32_t i = sg->first; i < ends[s]; i++) {
      const ld_insn *in = &sg->blk->insns[i];
      kept_q u = {j, sg->inst, (int32_t)s, in, defseg};
      walk_ids(in, kept_cb, &u);
      gcc_jit_field *rf = in->result ? value_slot(j, sg->inst, in->result) : NULL;
      if (rf && in->op == SpvOpFunctionCall) keep_field(j, rf, FK_KEEP);
      if (rf && ifc_arm_kind(sg->ifc) && !one[s]) keep_field(j, rf, FK_KEEP | FK_ZERO);
      /* a masked loop's values, and the phis of the blocks its lanes leave
       * for, are blended too (under the loop's lanes, or the leaving
       * ones): the first blend must read zeros, not an uninitialized local
       * (GCC 12 with -fpeel-loops made the first trip's blends undefined,
       * and a Mandelbrot loop ran past the step limit) */
      if (rf && (sg->mloop || (in->op == SpvOpPhi && mloop_exit_seg(k, (int32_t)s))))
        keep_field(j, rf, FK_KEEP | FK_ZERO);
    }
  }
  /* A then-block that runs one lane alone (ifc_lane_bound) writes that
   * lane of its values unblended: only those read beyond it (kept above)
   * need the zeroed lanes a blend at their phis reads. */
  for (uint32_t s = 0; s < k->n_seg; s++) {
    const jit_seg *sg = &k->seg[s];
    if (!one[s]) continue;
    for (uint32_t i = sg->first; i < ends[s]; i++) {
      const ld_insn *in = &sg->blk->insns[i];
      gcc_jit_field *rf = in->result ? value_slot(j, sg->inst, in->result) : NULL;
      int32_t h = rf ? fidx(j, rf) : -1;
      if (h >= 0 && (j->fkeep[j->fmap_q[h]] & FK_KEEP)) keep_field(j, rf, FK_ZERO);
    }
  }
  for (uint32_t ii = 1; ii < k->n_inst; ii++)
    for (uint32_t p = 0; p < k->inst[ii].fn->n_params; p++) {
      gcc_jit_field *f = value_slot(j, ii, k->inst[ii].fn->params[p]);
      if (f) keep_field(j, f, FK_KEEP);
    }
  mark_live(j, defseg, ends);
  free(defseg); free(ends); free(one);
}

/* One variant of sg_kernel (c, f, start): the segments' code, the dispatch
 * switch, settle, the shared spill/fill blocks and the first-start block.
 * full: sg_kernel_full (J.full). */
static gcc_jit_function *emit_kernel_fn(J *j, const char *name, bool full) {
  jit_kernel *k = j->k;
  gcc_jit_context *cx = j->cx;
  plan_err *e = j->e;
  gcc_jit_type *ctxp = j->t_ctxp;
  free(j->fn_prm);   /* the previous variant's (freed with J as well) */
  gcc_jit_param **prm = j->fn_prm = calloc(KFN_FIXED + j->n_argc, sizeof *prm);
  if (!prm) { failf(e, "out of memory"); return NULL; }
  prm[0] = gcc_jit_context_new_param(cx, NULL, ctxp, "c");
  prm[1] = gcc_jit_context_new_param(cx, NULL, j->t_framep, "f");
  prm[2] = gcc_jit_context_new_param(cx, NULL, j->t_i32, "start");
  prm[3] = gcc_jit_context_new_param(cx, NULL, j->t_regp, "regions");
  prm[4] = gcc_jit_context_new_param(cx, NULL, j->t_wgsp, "wg");
  prm[5] = gcc_jit_context_new_param(cx, NULL, j->t_winp, "win");
  /* the subgroup's index in its work-group (c->sg_id), from the caller's
   * loop counter: the built-ins need no load through the context */
  prm[6] = gcc_jit_context_new_param(cx, NULL, j->t_u[2], "sgi");
  for (uint32_t q = 0; q < j->n_argc; q++) {
    char an[24];
    snprintf(an, sizeof an, "a%u", q);
    prm[KFN_FIXED + q] = gcc_jit_context_new_param(cx, NULL, j->argc[q].t, an);
  }
  /* internal: a kernel that never suspends has one call site per variant
   * (emit_groups), where GCC inlines it when it is small enough */
  gcc_jit_function *fn = j->fn = gcc_jit_context_new_function(cx, NULL, GCC_JIT_FUNCTION_INTERNAL, j->t_i32,
                                                              name, (int)(KFN_FIXED + j->n_argc), prm, 0);
  j->h_regions = gcc_jit_param_as_rvalue(prm[3]);
  j->h_wg = gcc_jit_param_as_rvalue(prm[4]);
  j->h_win = full ? gcc_jit_param_as_rvalue(prm[5]) : NULL;
  j->h_sgi = gcc_jit_param_as_rvalue(prm[6]);
  j->full = j->in_full = full;
  j->win_pf_off = full && win_prefetch_off(j);
  j->nt_ok = full && nt_plan(j);
  j->open = false;
  j->settle = NULL;
  j->fresh = NULL;
  for (int x = 0; x < 4; x++) { j->xfer_blk[x] = NULL; j->xfer_ret[x] = NULL; j->n_xfer[x] = 0; }
  memset(j->argl, 0, (size_t)k->m->bound * 16 * sizeof *j->argl);
  memset(j->ifc_mask, 0, k->n_seg * sizeof *j->ifc_mask);
  memset(j->ifc_tw, 0, k->n_seg * sizeof *j->ifc_tw);
  memset(j->mlmv, 0, sizeof j->mlmv);
  memset(j->mlew, 0, sizeof j->mlew);
  j->cur_mv = NULL;
  j->ml_enter = NULL;
  j->cur_seg = -1;
  memset(j->ifc_etw, 0, 2 * k->n_seg * sizeof *j->ifc_etw);
  memset(j->ifc_full, 0, k->n_seg * sizeof *j->ifc_full);
  j->in_ifc_full = false;
  j->cur_tw = NULL;
  j->c = gcc_jit_param_as_rvalue(prm[0]);
  j->f = gcc_jit_param_as_rvalue(prm[1]);
  /* A whole-subgroup kernel that never suspends and counts no steps reads
   * its context and heap frame only on slow paths (host calls, faults): it
   * finds them there, wg->sgs[sgi] and its frame, instead of taking them as
   * parameters, whose two dependent loads sg_groups then made for every
   * subgroup and whose registers the loop kept (compact 0.84x, reduce 0.91x,
   * stencil 0.96x the time).  SPIRV_SG_JIT_EAGER_CTX=1: the parameters. */
  if (full && k->lean_stack && k->no_steps && !getenv("SPIRV_SG_JIT_EAGER_CTX")) {
    j->c = R_(gcc_jit_context_new_array_access(cx, NULL, R_(gcc_jit_rvalue_dereference_field(j->h_wg, NULL, j->w_sgs)), j->h_sgi));
    j->f = gcc_jit_context_new_cast(cx, NULL, R_(gcc_jit_rvalue_dereference_field(j->c, NULL, j->c_frame)), j->t_framep);
  }
  j->lane = gcc_jit_function_new_local(j->fn, NULL, j->t_i32, "l");
  j->next = gcc_jit_function_new_local(j->fn, NULL, j->t_i32, "next");
  /* every frame field gets a local of sg_kernel (see J.use_loc) */
  gcc_jit_field **fields = j->all_fields;
  gcc_jit_type **ftypes = j->all_types;
  free(j->fmap_key); free(j->fmap_val); free(j->fmap_q); free(j->fkeep); free(j->fref);
  free(j->fmap_vec);
  free_blive(j);
  for (j->fmap_cap = 16; j->fmap_cap < 2 * j->n_fields; j->fmap_cap *= 2) {}
  j->fmap_key = calloc(j->fmap_cap, sizeof *j->fmap_key);
  j->fmap_val = calloc(j->fmap_cap, sizeof *j->fmap_val);
  j->fmap_q = calloc(j->fmap_cap, sizeof *j->fmap_q);
  j->fmap_vec = calloc(j->fmap_cap, sizeof *j->fmap_vec);
  free(j->fmap_part); free(j->fmap_np); free(j->wt_on);
  j->fmap_part = calloc((size_t)j->fmap_cap * WIDE_MAXP, sizeof *j->fmap_part);
  j->fmap_np = calloc(j->fmap_cap, 1);
  j->wt_on = calloc(j->fmap_cap, 1);
  j->n_wt = 0;
  j->lane_depth = 0;
  j->any_wide = false;
  j->fref = getenv("SPIRV_SG_JIT_ZERO_ALL") ? NULL : calloc(j->fmap_cap, 1);
  j->fkeep = NULL;
  if (!j->fmap_key || !j->fmap_val || !j->fmap_q || !j->fmap_vec || !j->fmap_part || !j->fmap_np || !j->wt_on) {
    failf(e, "out of memory");
    return NULL;
  }
  for (uint32_t q = 0; q < j->n_fields; q++) {
    char name[32];
    snprintf(name, sizeof name, "L%u", q);
    uint32_t h = (uint32_t)(((uintptr_t)fields[q] >> 4) * 2654435761u) & (j->fmap_cap - 1);
    while (j->fmap_key[h]) h = (h + 1) & (j->fmap_cap - 1);
    j->fmap_key[h] = fields[q];
    j->fmap_q[h] = q;
    gcc_jit_type *vt = vector_local_type(j, q);
    uint32_t np = 0;
    gcc_jit_type *pt = vt ? NULL : wide_part_type(j, q, &np);
    if (vt) j->fmap_vec[h] = gcc_jit_function_new_local(j->fn, NULL, vt, name);
    else j->fmap_val[h] = gcc_jit_function_new_local(j->fn, NULL, ftypes[q], name);
    for (uint32_t p = 0; pt && p < np; p++) {
      char pn[40];
      snprintf(pn, sizeof pn, "L%u_%u", q, p);
      j->fmap_part[(size_t)h * WIDE_MAXP + p] = gcc_jit_function_new_local(j->fn, NULL, pt, pn);
    }
    if (pt) { j->fmap_np[h] = (uint8_t)np; j->any_wide = true; j->n_wide++; }
  }
  j->use_loc = true;
  if (full) mark_kept(j);
  promo_locals(j);
  shadow_locals(j);
  if (j->sel_flag) memset(j->sel_flag, 0, ((size_t)k->n_inst * k->m->bound + 1) * sizeof *j->sel_flag);
  if (j->sel_b0) memset(j->sel_b0, 0, ((size_t)k->n_inst * k->m->bound + 1) * sizeof *j->sel_b0);

  gcc_jit_block *entry = nb(j);
  for (uint32_t s = 0; s < k->n_seg; s++) j->segb[s] = nb(j);
  gcc_jit_block *disp = j->segb[k->n_seg] = nb(j);
  gcc_jit_block *done = nb(j);
  j->settle = nb(j);
  j->resumed = nb(j);

  /* entry: kernel arguments into locals (uniform), from the parameters */
  j->b = entry;
  j->hc = full && host_flag_on(k) ? gcc_jit_function_new_local(j->fn, NULL, j->t_u[0], "hc") : NULL;
  if (j->hc) assign(j, j->hc, gcc_jit_context_new_rvalue_from_int(cx, j->t_u[0], 0));
  j->left = !k->no_steps && !getenv("SPIRV_SG_JIT_STEPS_MEM") ? gcc_jit_function_new_local(j->fn, NULL, j->t_s[3], "left")
                                                              : NULL;
  j->pa = jit_pa_ok();
  j->scheck = j->left && j->pa && !getenv("SPIRV_SG_JIT_COLD_MEMORY") ? gcc_jit_function_new_local(j->fn, NULL, j->t_u[3], "scheck")
                                                                      : NULL;
  steps_load(j, j->b);
  j->pred0 = full && k->conv && !getenv("SPIRV_SG_JIT_PRED_MEM") ? gcc_jit_function_new_local(j->fn, NULL, j->t_i32, "pred0")
                                                                 : NULL;
  if (j->pred0) assign(j, j->pred0, ci(j, j->t_i32, -1));
  for (uint32_t s = 0; s < k->n_seg; s++) {
    const jit_seg *sg = &k->seg[s];
    j->phi_done[s] = j->pred0 && !getenv("SPIRV_SG_JIT_PHI_HEAD") && sg->first == 0 && sg->blk->n_phis &&
                     sg->ifc == IFC_NONE && phis_uniform(j, sg->inst, sg->blk) ? nb(j) : NULL;
  }
  for (uint32_t q = 0; q < j->n_argc; q++) {
    gcc_jit_lvalue *lv = local(j, j->argc[q].t);
    j->argl[(size_t)j->argc[q].id * 16 + j->argc[q].c] = lv;
    assign(j, lv, gcc_jit_param_as_rvalue(prm[KFN_FIXED + q]));
  }
  assign(j, j->next, gcc_jit_param_as_rvalue(prm[2]));
  gcc_jit_block **rsb = NULL;   /* per segment: a direct resume's block (resume_direct) */
  {
    gcc_jit_block *resume = nb(j), *fresh = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(j->next), ci(j, j->t_i32, 0)),
                                       resume, fresh);
    /* start < 0: resume after a barrier at the stack's top, every value
     * from the heap frame */
    j->b = resume;
    if (j->blive) {   /* after a barrier: its live set (J.blive); else every value */
      uint32_t nc = 0;
      for (uint32_t s = 0; s < k->n_seg; s++) nc += j->blive[s] != NULL;
      gcc_jit_case **cases = calloc(nc + 1, sizeof *cases);
      gcc_jit_block *other = nb(j);
      rsb = calloc(k->n_seg + 1, sizeof *rsb);
      if (!cases || !rsb) { free(cases); free(rsb); failf(e, "out of memory"); return NULL; }
      nc = 0;
      for (uint32_t s = 0; s < k->n_seg; s++) {
        if (!j->blive[s]) continue;
        gcc_jit_block *bs = nb(j);
        cases[nc++] = gcc_jit_context_new_case(cx, ci(j, j->t_i32, s), ci(j, j->t_i32, s), bs);
        j->b = bs;
        xfer_live(j, (int32_t)s, false);
        if (resume_direct(j)) {
          /* every lane, the kernel's entry on top: mask[] and pred[] as a
           * first start has them, straight to the segment */
          fresh_mask_pred(j);
          /* on through a block of its own, which resets the select flags
           * once the segments have made them (below, with J.resumed) */
          rsb[s] = nb(j);
          gcc_jit_block_end_with_jump(j->b, NULL, rsb[s]);
        } else {
          gcc_jit_block_end_with_jump(j->b, NULL, j->resumed);
        }
      }
      j->b = resume;
      gcc_jit_block_end_with_switch(j->b, NULL, R_(ent_f(j, top_e(j), j->e_pc)), other, (int)nc, cases);
      free(cases);
      j->b = other;
    }
    fill_all(j);
    shadow_xfer(j, false);
    gcc_jit_block_end_with_jump(j->b, NULL, j->resumed);   /* filled last */
    j->fresh = fresh;
  }

  j->track_ref = true;
  for (uint32_t s = 0; s < k->n_seg && !e->failed; s++) emit_seg(j, (int32_t)s);
  /* the whole-subgroup copies of then-blocks the heads asked for
   * (ifc_full_entry): segment T's code from another entry, every lane
   * active, ending at the same reconvergence point */
  for (uint32_t s = 0; s < k->n_seg && !e->failed; s++) {
    if (!j->ifc_full[s]) continue;
    gcc_jit_block *entry = j->segb[s];
    j->segb[s] = j->ifc_full[s];
    j->in_ifc_full = true;
    emit_seg_(j, (int32_t)s);
    j->in_ifc_full = false;
    j->segb[s] = entry;
  }
  if (e->failed) { free(rsb); return NULL; }
  emit_settle(j);
  j->track_ref = false;
  emit_xfer_blocks(j);
  if (e->failed) { free(rsb); return NULL; }
  {
    /* a first start: mask[] and pred[] from sg_groups, every other lane
     * array zeroed: inactive lanes read zeros, deterministically, and no
     * blend reads an uninitialized value (GCC would make the whole result
     * undefined).  sg_kernel_full has no inactive lanes and no blends:
     * every lane writes a value before any lane reads it, so only the values
     * of if-converted then-blocks (blended under a partial mask) are zeroed
     * there. */
    j->b = j->fresh;
    bool lean = j->full && lean_start(k);
    if (lean) fresh_mask_pred(j);
    for (uint32_t q = 0; q < j->n_fields; q++) {
      gcc_jit_field *f = fields[q];
      if (f == j->f_mask || f == j->f_pred) {
        if (!lean) fill(j, f);
        continue;
      }
      if (j->full && j->fkeep && !(j->fkeep[q] & FK_ZERO)) continue;
      /* a local no segment touches (a value every use of which is
       * recomputed where it is read, J.remat): nothing reads its zeros
       * (compact zeroed five 128-byte arrays per subgroup for nothing);
       * SPIRV_SG_JIT_ZERO_ALL zeroes it anyway */
      int32_t h = fidx(j, f);
      if (h >= 0 && j->fref && !j->fref[h]) continue;
      zero_local(j, f, j->all_sizes[q]);
    }
    /* promoted private arrays start zeroed, as private memory does */
    promo_zero(j, 0, true);
    gcc_jit_block_end_with_jump(j->b, NULL, disp);
  }
  /* a resume: the flags of emit_select_uniform (J.sel_flag) are locals the
   * previous call set, lost with its frame: false sends the accesses that
   * read them down their per-lane path, which reads the select's lane
   * array (a selected pointer made before a barrier and dereferenced after
   * it took lane 0's arm in every lane) */
  for (uint32_t s = 0; s <= k->n_seg; s++) {
    gcc_jit_block *b = s < k->n_seg ? (rsb ? rsb[s] : NULL) : j->resumed;
    if (!b) continue;
    j->b = b;
    if (j->sel_flag)
      for (size_t x = 0; x < (size_t)k->n_inst * k->m->bound; x++)
        if (j->sel_flag[x]) assign(j, j->sel_flag[x], gcc_jit_context_zero(cx, j->t_bool));
    gcc_jit_block_end_with_jump(j->b, NULL, s < k->n_seg ? j->segb[s] : j->settle);
  }
  free(rsb);

  gcc_jit_case **cases = calloc(k->n_seg + 1, sizeof *cases);
  if (!cases) { failf(e, "out of memory"); return NULL; }
  for (uint32_t s = 0; s < k->n_seg; s++)
    cases[s] = gcc_jit_context_new_case(cx, ci(j, j->t_i32, s), ci(j, j->t_i32, s), j->segb[s]);
  gcc_jit_block_end_with_switch(disp, NULL, gcc_jit_lvalue_as_rvalue(j->next), done, (int)k->n_seg, cases);
  free(cases);
  ret_done(j, done);
  j->use_loc = false;
  j->hc = NULL;
  j->pred0 = NULL;
  j->full = j->in_full = false;
  j->h_regions = j->h_wg = j->h_win = j->h_sgi = NULL;
  return fn;
}

static gcc_jit_context *je_build1(jit_kernel *k, const jit_options *o, const char *mflags, plan_err *e,
                                  uint32_t *n_stmts, uint8_t **excl, uint32_t *n_excl, bool *retry) {
  J jj, *j = &jj;
  memset(j, 0, sizeof *j);
  j->k = k; j->m = k->m; j->S = k->S; j->e = e;
  j->prefetch = jit_prefetch_distance();
  j->mflags = mflags;
  /* GCC 12 tunes Intel's AVX-512 CPUs for 256-bit vectors (tune_256).  The
   * lane loops run 512-bit vectors there too (-mprefer-vector-width=512
   * below), as on AMD.  On a 16-core Xeon (-mtune=sapphirerapids), best of
   * three interleaved rounds at -j1 against GCC's tuning: a double Horner
   * loop 12.1 ms against 80.2, collatz 121 against 282, scan 14.0 against
   * 23.2, compact 14.0 against 19.9, stencil 19.1 against 26.5, hist 67
   * against 77; saxpy, reduce, transpose and gemm within that machine's
   * noise.  SPIRV_SG_JIT_V256=1 keeps GCC's 256-bit tuning. */
  bool t256 = tune_256(mflags);
  bool v512 = t256 && has_flag(mflags, "-mavx512f") && !getenv("SPIRV_SG_JIT_V256");
  j->v256 = t256 && !v512;
  gcc_jit_context *cx = gcc_jit_context_acquire();
  if (!cx) { failf(e, "gcc_jit_context_acquire failed"); return NULL; }
  j->cx = cx;
  int opt = opt_level_of(o);
  gcc_jit_context_set_int_option(cx, GCC_JIT_INT_OPTION_OPTIMIZATION_LEVEL, opt);
  /* never contract: results match the interpreter's bit for bit */
  gcc_jit_context_add_command_line_option(cx, "-ffp-contract=off");
  gcc_jit_context_add_command_line_option(cx, "-fno-math-errno");
  /* the libm functions emit_ocl_std calls: the object names libm itself, so
   * it loads in a process that does not link libm globally (the ICD) */
  gcc_jit_context_add_driver_option(cx, "-lm");
  /* link only what the object uses: libm (above), libgcc's static helpers
   * (128-bit division) and, resolved when it is loaded, libc's memset and
   * memcpy.  The C start-up files and the libc, libgcc_s link of a default
   * -shared link cost about 10 ms of every cold compile. */
  gcc_jit_context_add_driver_option(cx, "-nostdlib");
  gcc_jit_context_add_driver_option(cx, "-lgcc");
  gcc_jit_context_add_command_line_option(cx, "-fno-strict-aliasing");
  /* GCC 12 miscompile (tests/kernels/remat_select_extinst, case test_addr):
   * RTL dead-store elimination replaces a 256-bit load with the constant an
   * earlier vector store wrote, and the x86 back end materializes a 256-bit
   * constant whose upper half is zero and whose lower 64-bit words are equal
   * ({1,1,1,1,0,0,0,0} in 32-bit lanes) as a broadcast of its lowest word
   * (ix86_convert_const_wide_int_to_broadcast checks only the constant's
   * stored words).  -fno-dse drops that pass (reduce about 5% slower;
   * large kernels were compiled without it already). */
  gcc_jit_context_add_command_line_option(cx, "-fno-dse");
  /* GCC 12's -O2 default (very-cheap) leaves most lane loops scalar */
  gcc_jit_context_add_command_line_option(cx, "-fvect-cost-model=dynamic");
  gcc_jit_context_add_command_line_option(cx, "-fPIC");
  /* the lane arrays make the kernel function's frame large: inlining it
   * into sg_groups (see emit_kernel_fn) must not stop at GCC's
   * stack-growth limit */
  gcc_jit_context_add_command_line_option(cx, "--param=large-stack-frame=1000000");
  /* GCC's per-pass compile times on stderr (for tuning; docs/semantics.md) */
  if (getenv("SPIRV_SG_JIT_TIME_REPORT")) gcc_jit_context_add_command_line_option(cx, "-ftime-report");
  /* Kernels with masked loops (plan_mloops).  -fno-tree-loop-distribute-
   * patterns: GCC 12 turns a lane loop that copies a phi's lanes or zeroes
   * them into memcpy or memset, whose address keeps the vector local in
   * memory: a loop-carried value then goes through a store and a load on
   * every trip.  -fpeel-loops: GCC 12 at -O2 unrolls a lane loop of two
   * 64-byte vectors over wide fields only when that does not grow the code,
   * and without the blends (mloop_local_plan) the loops left were small
   * enough to stay loops, with their wide fields in memory.  Collatz 107
   * -> 73 ms with both and the unblended values; either alone no faster,
   * the values alone 1.37x slower.  Not for other kernels: transpose 1.11x
   * and stencil 1.13x the time with them.  SPIRV_SG_JIT_NO_MLOOP_FLAGS
   * leaves them out. */
  if (k->n_mloops && !getenv("SPIRV_SG_JIT_NO_MLOOP_FLAGS")) {
    gcc_jit_context_add_command_line_option(cx, "-fno-tree-loop-distribute-patterns");
    gcc_jit_context_add_command_line_option(cx, "-fpeel-loops");
  }
  /* more GCC options, space-separated (for tuning; in the cache key) */
  if (getenv("SPIRV_SG_JIT_FLAGS")) {
    char *dup = strdup(getenv("SPIRV_SG_JIT_FLAGS"));
    for (char *t = dup ? strtok(dup, " ") : NULL; t; t = strtok(NULL, " "))
      gcc_jit_context_add_command_line_option(cx, t);
    free(dup);
  }
  if (mflags && *mflags) {
    char *dup = strdup(mflags);
    for (char *t = dup ? strtok(dup, " ") : NULL; t; t = strtok(NULL, " "))
      gcc_jit_context_add_command_line_option(cx, t);
    free(dup);
  }
  if (v512) gcc_jit_context_add_command_line_option(cx, "-mprefer-vector-width=512");
  gcc_jit_context_set_bool_allow_unreachable_blocks(cx, 1);
  /* libgccjit's temporary folder (/tmp/libgccjit-*) kept, with GCC's dumps
   * that SPIRV_SG_JIT_FLAGS asks for (-fdump-tree-optimized): debugging */
  if (getenv("SPIRV_SG_JIT_KEEP")) gcc_jit_context_set_bool_option(cx, GCC_JIT_BOOL_OPTION_KEEP_INTERMEDIATES, 1);
  j->t_void = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_VOID);
  j->t_bool = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_BOOL);
  j->t_i32 = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT32_T);
  j->t_u[0] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_UINT8_T);
  j->t_u[1] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_UINT16_T);
  j->t_u[2] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_UINT32_T);
  j->t_u[3] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_UINT64_T);
  j->t_s[0] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT8_T);
  j->t_s[1] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT16_T);
  j->t_s[2] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT32_T);
  j->t_s[3] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT64_T);
  j->t_f32 = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_FLOAT);
  j->t_f64 = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_DOUBLE);
  j->t_vp = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_VOID_PTR);
  j->t_u8p = gcc_jit_type_get_pointer(j->t_u[0]);
  j->t_ptr = k->m->addr_bits == 32 ? j->t_u[2] : j->t_u[3];

  size_t nslots = (size_t)k->n_inst * k->m->bound;
  j->slot = calloc(nslots, sizeof *j->slot);
  j->phitmp = calloc(nslots, sizeof *j->phitmp);
  j->privoff = k->privoff;
  j->argl = calloc((size_t)k->m->bound * 16, sizeof *j->argl);
  j->ifc_mask = calloc(k->n_seg + 1, sizeof *j->ifc_mask);
  j->ifc_tw = calloc(k->n_seg + 1, sizeof *j->ifc_tw);
  j->ifc_etw = calloc(2 * k->n_seg + 1, sizeof *j->ifc_etw);
  j->ifc_full = calloc(k->n_seg + 1, sizeof *j->ifc_full);
  j->segb = calloc(k->n_seg + 2, sizeof *j->segb);
  j->phi_done = calloc(k->n_seg + 1, sizeof *j->phi_done);
  j->br_seg = -1;
  int nf = 4;
  enum_slots(k, count_cb, &nf, e);
  gcc_jit_field **fields = calloc((size_t)nf + 1, sizeof *fields);
  gcc_jit_type **ftypes = calloc((size_t)nf + 1, sizeof *ftypes);
  free(j->all_elem);
  j->all_elem = calloc((size_t)nf + 1, sizeof *j->all_elem);
  uint32_t *fsizes = calloc((size_t)nf + 1, sizeof *fsizes);
  free(j->fvid);
  j->fvid = calloc((size_t)nf + 1, sizeof *j->fvid);
  if (!*excl) *excl = calloc((size_t)nf + 1, 1);
  *n_excl = nf;
  j->wide_excl = *excl;
  if (!j->slot || !j->phitmp || !j->privoff || !j->argl || !j->segb || !fields || !ftypes || !fsizes || !j->fvid || !j->all_elem ||
      !j->ifc_mask || !j->ifc_tw || !j->ifc_etw || !j->ifc_full || !*excl) { failf(e, "out of memory"); goto out; }

  /* frame struct */
  gcc_jit_type *lanei = gcc_jit_context_new_array_type(cx, NULL, j->t_i32, (int)k->S);
  j->f_mask = gcc_jit_context_new_field(cx, NULL, lanei, "mask");
  j->f_tgt = gcc_jit_context_new_field(cx, NULL, lanei, "tgt");
  j->f_pred = gcc_jit_context_new_field(cx, NULL, lanei, "pred");
  gcc_jit_type *lanea = gcc_jit_context_new_array_type(cx, NULL, j->t_u[3], (int)k->S);
  j->f_addr = gcc_jit_context_new_field(cx, NULL, lanea, "addr");
  fields[0] = j->f_mask; fields[1] = j->f_tgt; fields[2] = j->f_pred; fields[3] = j->f_addr;
  ftypes[0] = ftypes[1] = ftypes[2] = lanei;
  ftypes[3] = lanea;
  fsizes[0] = fsizes[1] = fsizes[2] = 4 * k->S;
  fsizes[3] = 8 * k->S;
  field_u fu = {j, 4, fields, ftypes, fsizes, j->fvid, j->all_elem};
  enum_slots(k, field_cb, &fu, e);
  if (e->failed) goto out;
  j->frame_st = gcc_jit_context_new_struct_type(cx, NULL, "frame", fu.n, fields);

  /* region, stack entry, work-group and context structs (host layout in jit_internal.h) */
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_type *u64x3 = gcc_jit_context_new_array_type(cx, NULL, U, 3);
  gcc_jit_type *u64x2 = gcc_jit_context_new_array_type(cx, NULL, U, 2);
  gcc_jit_field *rf[3] = {
    j->r_base = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "base"),
    j->r_size = gcc_jit_context_new_field(cx, NULL, U, "size"),
    j->r_wsize = gcc_jit_context_new_field(cx, NULL, U, "wsize")};
  j->reg_st = gcc_jit_context_new_struct_type(cx, NULL, "region", 3, rf);
  {
    gcc_jit_field *wf[4] = {
      j->wn_lo = gcc_jit_context_new_field(cx, NULL, j->t_u[3], "lo"),
      j->wn_lim = gcc_jit_context_new_field(cx, NULL, j->t_u[3], "lim"),
      j->wn_base = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "base"),
      j->wn_nt = gcc_jit_context_new_field(cx, NULL, j->t_bool, "nt")};
    j->win_st = gcc_jit_context_new_struct_type(cx, NULL, "window", 4, wf);
    j->t_winp = gcc_jit_type_get_pointer(gcc_jit_struct_as_type(j->win_st));
  }
  j->t_regp = gcc_jit_type_get_pointer(gcc_jit_struct_as_type(j->reg_st));
  gcc_jit_field *ef[3] = {
    j->e_pc = gcc_jit_context_new_field(cx, NULL, j->t_i32, "pc"),
    j->e_rpc = gcc_jit_context_new_field(cx, NULL, j->t_i32, "rpc"),
    j->e_m = gcc_jit_context_new_field(cx, NULL, u64x2, "m")};
  gcc_jit_struct *ent_st = gcc_jit_context_new_struct_type(cx, NULL, "entry", 3, ef);
  j->ctx_st = gcc_jit_context_new_opaque_struct(cx, NULL, "ctx");
  gcc_jit_struct *wgs_st = gcc_jit_context_new_opaque_struct(cx, NULL, "wgs");
  gcc_jit_type *ctxp = j->t_ctxp = gcc_jit_type_get_pointer(gcc_jit_struct_as_type(j->ctx_st));
  j->t_wgs = gcc_jit_struct_as_type(wgs_st);
  gcc_jit_type *wgsp = j->t_wgsp = gcc_jit_type_get_pointer(j->t_wgs);
  gcc_jit_type *pb[3] = {ctxp, j->t_u8p, j->t_i32};
  gcc_jit_type *branch_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_i32, 3, pb, 0);
  gcc_jit_type *pm[7] = {ctxp, j->t_i32, j->t_i32, U, j->t_i32, j->t_i32, j->t_i32};
  gcc_jit_type *mem_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_vp, 7, pm, 0);
  gcc_jit_type *pg[5] = {ctxp, j->t_u8p, j->t_i32, j->t_vp, j->t_vp};
  gcc_jit_type *group_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_void, 5, pg, 0);
  gcc_jit_type *pw[2] = {wgsp, U};
  gcc_jit_type *wg_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_s[3], 2, pw, 0);
  gcc_jit_type *pr[1] = {wgsp};
  gcc_jit_type *rel_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_i32, 1, pr, 0);
  gcc_jit_field *wf[24] = {
    j->w_group = gcc_jit_context_new_field(cx, NULL, u64x3, "group"),
    j->w_wsize = gcc_jit_context_new_field(cx, NULL, u64x3, "wsize"),
    j->w_local = gcc_jit_context_new_field(cx, NULL, u64x3, "local"),
    j->w_global = gcc_jit_context_new_field(cx, NULL, u64x3, "global"),
    j->w_offset = gcc_jit_context_new_field(cx, NULL, u64x3, "offset"),
    j->w_groups = gcc_jit_context_new_field(cx, NULL, u64x3, "groups"),
    j->w_dim = gcc_jit_context_new_field(cx, NULL, U, "dim"),
    j->w_n_sg = gcc_jit_context_new_field(cx, NULL, U, "n_sg"),
    j->w_enq_sg = gcc_jit_context_new_field(cx, NULL, U, "enq_sg"),
    j->w_lid_cap = gcc_jit_context_new_field(cx, NULL, U, "lid_cap"),
    j->w_lid = gcc_jit_context_new_field(cx, NULL, gcc_jit_type_get_pointer(j->t_u[2]), "lid"),
    j->w_sgs = gcc_jit_context_new_field(cx, NULL, gcc_jit_type_get_pointer(ctxp), "sgs"),
    j->w_rt_wg = gcc_jit_context_new_field(cx, NULL, wg_t, "rt_wg"),
    j->w_priv_stride = gcc_jit_context_new_field(cx, NULL, U, "priv_stride"),
    j->w_step_check = gcc_jit_context_new_field(cx, NULL, U, "step_check"),
    j->w_stop = gcc_jit_context_new_field(cx, NULL, j->t_i32, "stop"),
    j->w_alone = gcc_jit_context_new_field(cx, NULL, j->t_i32, "alone"),
    j->w_wgc_used = gcc_jit_context_new_field(cx, NULL, j->t_i32, "wgc_used"),
    j->w_rt_release = gcc_jit_context_new_field(cx, NULL, rel_t, "rt_release"),
    j->w_regions = gcc_jit_context_new_field(cx, NULL, j->t_regp, "regions"),
    j->w_args = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "args"),
    j->w_defer_reg = gcc_jit_context_new_field(cx, NULL, gcc_jit_context_new_array_type(cx, NULL, U, JIT_MAX_DEFER), "defer_reg"),
    j->w_defer_base = gcc_jit_context_new_field(cx, NULL, gcc_jit_context_new_array_type(cx, NULL, j->t_u8p, JIT_MAX_DEFER),
                                                "defer_base"),
    j->w_nt_min = gcc_jit_context_new_field(cx, NULL, U, "nt_min")};
  gcc_jit_struct_set_fields(wgs_st, NULL, 24, wf);
  gcc_jit_type *pl[6] = {ctxp, j->t_u8p, j->t_i32, j->t_i32, j->t_i32, j->t_i32};
  gcc_jit_type *ldst_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_void, 6, pl, 0);
  gcc_jit_field *cf[29] = {
    j->c_regions = gcc_jit_context_new_field(cx, NULL, j->t_regp, "regions"),
    j->c_wg = gcc_jit_context_new_field(cx, NULL, wgsp, "wg"),
    j->c_args = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "args"),
    j->c_branch = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_branch"),
    j->c_mem = gcc_jit_context_new_field(cx, NULL, mem_t, "rt_mem"),
    j->c_group = gcc_jit_context_new_field(cx, NULL, group_t, "rt_group"),
    j->c_interp = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_interp"),
    j->c_coll = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_coll"),
    j->c_limit = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_limit"),
    j->c_overflow = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_overflow"),
    j->c_ldst = gcc_jit_context_new_field(cx, NULL, ldst_t, "rt_ldst"),
    j->c_unreach = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_unreachable"),
    j->c_wgc = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_wgc"),
    j->c_wgc_done = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_wgc_done"),
    j->c_diverged = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_diverged"),
    j->c_pa_call = gcc_jit_context_new_field(cx, NULL, j->t_vp, "rt_pa_call"),
    j->c_limit_check = gcc_jit_context_new_field(cx, NULL, j->t_vp, "rt_limit_check"),
    j->c_frame = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "frame"),
    j->c_priv = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "priv"),
    j->c_steps = gcc_jit_context_new_field(cx, NULL, U, "steps"),
    j->c_step_check = gcc_jit_context_new_field(cx, NULL, U, "step_check"),
    j->c_all = gcc_jit_context_new_field(cx, NULL, u64x2, "all"),
    j->c_sg_id = gcc_jit_context_new_field(cx, NULL, j->t_u[2], "sg_id"),
    j->c_n_lanes = gcc_jit_context_new_field(cx, NULL, j->t_u[2], "n_lanes"),
    j->c_sp = gcc_jit_context_new_field(cx, NULL, j->t_i32, "sp"),
    j->c_susp = gcc_jit_context_new_field(cx, NULL, j->t_i32, "susp_insn"),
    j->c_base = gcc_jit_context_new_field(cx, NULL, gcc_jit_context_new_array_type(cx, NULL, j->t_i32, JIT_MAX_INST), "base"),
    j->c_stack = gcc_jit_context_new_field(cx, NULL, gcc_jit_context_new_array_type(cx, NULL, gcc_jit_struct_as_type(ent_st), JIT_MAX_STACK), "stack"),
    gcc_jit_context_new_field(cx, NULL, j->t_vp, "run")};
  gcc_jit_struct_set_fields(j->ctx_st, NULL, 29, cf);
  j->t_framep = gcc_jit_type_get_pointer(gcc_jit_struct_as_type(j->frame_st));

  j->t_framep = gcc_jit_type_get_pointer(gcc_jit_struct_as_type(j->frame_st));
  j->n_fields = (uint32_t)fu.n;
  j->all_fields = fields;
  j->all_types = ftypes;
  j->all_sizes = fsizes;
  /* A convergent kernel gets sg_kernel_full (J.full) for whole subgroups;
   * compiled for launches whose subgroups are all whole (k->full_only) it
   * gets nothing else.  Interpreter-handled instructions count once; the
   * optimization level follows the larger function. */
  promo_plan(j, plan_may_suspend(k));
  /* lane strides: a convergent kernel's blocks that are not divergent run
   * with every lane of a whole subgroup (the only case the fast paths use) */
  if (k->conv && !getenv("SPIRV_SG_JIT_NO_STRIDES"))
    j->lanes = ld_uniformity_compute(k->m, LD_UNI_PRIVATE_VARIES | LD_UNI_STRIDES |
                                          (k->linear_x ? LD_UNI_LINEAR_X : 0u));
  shadow_plan(j);
  if (j->lanes) j->sel_flag = calloc((size_t)k->n_inst * k->m->bound + 1, sizeof *j->sel_flag);
  if (j->lanes) j->sel_b0 = calloc((size_t)k->n_inst * k->m->bound + 1, sizeof *j->sel_b0);
  ifc_local_plan(j);
  mloop_local_plan(j);
  remat_plan(j);
  /* the kernel arguments' components */
  {
    const ld_function *kf = k->k->fn;
    j->argc = calloc((size_t)kf->n_params * 16 + 1, sizeof *j->argc);
    if (!j->argc) { failf(e, "out of memory"); goto out; }
    for (uint32_t a = 0; a < kf->n_params; a++) {
      const ld_type *ct; uint32_t n;
      uint32_t id = kf->params[a];
      const ld_type *at = k->m->values[id].type;
      if (is_handle(at)) continue;   /* read by handlers only */
      if (!lane_shape(at, &ct, &n)) { failf(e, "kernel argument %u of unsupported type", a); goto out; }
      for (uint32_t c = 0; c < n; c++) {
        j->argc[j->n_argc++] = (struct jit_argc){id, c, k->arg_off[a] + c * comp_bytes(k, ct), scal(j, ct)};
      }
    }
  }
  uint32_t fn_stmts = 0;
  if (k->conv) {
    uint32_t n_interp = k->n_interp, s0 = j->n_stmts;
    j->fn_full = emit_kernel_fn(j, "sg_kernel_full", true);
    fn_stmts = j->n_stmts - s0;
    if (!k->full_only) k->n_interp = n_interp;
    if (e->failed) goto out;
  }
  if (!k->full_only) {
    uint32_t s0 = j->n_stmts;
    j->fn_kernel = emit_kernel_fn(j, "sg_kernel", false);
    if (j->n_stmts - s0 > fn_stmts) fn_stmts = j->n_stmts - s0;
    if (e->failed) goto out;
  }
  emit_groups(j);
  if (e->failed) goto out;
  /* Large kernels: -O1 plus the loop vectorizer (JIT_BIG_KERNEL), with one
   * register-allocation region and no straight-line (SLP) vectorizer: about
   * 10% less compile time for the bench's transpose and gemm at the same speed;
   * huge ones -O0 (JIT_HUGE_KERNEL).  Large kernels also skip the -O1 passes
   * that cost compile time without changing their speed (BIG_OFF: the
   * dominator optimizer, constant and copy propagation on trees, the IPA
   * summaries of a one-kernel module, if-conversion, RTL forward
   * propagation, branch-probability guessing; RTL dead stores are off for
   * every kernel, see -fno-dse above): gemm 273 -> 197 ms and transpose
   * 126 -> 99 ms cold (min of 3), launches 0.93x and 0.98x the time. */
  static const char *const BIG_OFF[] = {
    "-fno-tree-dominator-opts", "-fno-tree-ccp", "-fno-tree-copy-prop", "-fno-ipa-pure-const",
    "-fno-ipa-reference", "-fno-ipa-modref", "-fno-ipa-profile", "-fno-ipa-icf",
    "-fno-inline-functions-called-once", "-fno-guess-branch-probability", "-fno-if-conversion",
    "-fno-if-conversion2", "-fno-forward-propagate", "-fno-cprop-registers"};
  if (fn_stmts > JIT_HUGE_KERNEL && opt >= 1) {
    gcc_jit_context_set_int_option(cx, GCC_JIT_INT_OPTION_OPTIMIZATION_LEVEL, 0);
  } else if (fn_stmts > JIT_BIG_KERNEL && opt >= 2) {
    gcc_jit_context_set_int_option(cx, GCC_JIT_INT_OPTION_OPTIMIZATION_LEVEL, 1);
    gcc_jit_context_add_command_line_option(cx, "-ftree-loop-vectorize");
    gcc_jit_context_add_command_line_option(cx, "-fira-region=one");
    if (!getenv("SPIRV_SG_JIT_BIG_ALLPASSES"))
      for (size_t q = 0; q < sizeof BIG_OFF / sizeof *BIG_OFF; q++) gcc_jit_context_add_command_line_option(cx, BIG_OFF[q]);
  }
  *n_stmts = j->n_stmts;
  /* A large kernel (-O1 below) keeps its lane loops over a wide field's
   * scratch array as loops, so the copies stay too (an n-body step 1.16x
   * the time): compiled again with none wide.  SPIRV_SG_JIT_WIDE_BIG=1:
   * wide fields there too. */
  if (fn_stmts > JIT_BIG_KERNEL && j->n_wide && !getenv("SPIRV_SG_JIT_WIDE_BIG")) {
    for (uint32_t q = 0; q < j->n_fields; q++) j->wide_excl[q] = 1;
    j->wide_retry = true;
  }
out:
  free(j->ifc_mask);
  free(j->nx_over);
  free(j->ifc_tw);
  free(j->ifc_etw);
  free(j->ifc_full);
  ld_uniformity_free(j->lanes);
  free(j->promo_cast); free(j->promo_only); free(j->promo_cs); free(j->promo_var); free(j->promo_base); free(j->promo_idx); free(j->promo_uni); free(j->promo_lv);
  free(j->sh_on); free(j->sh_st); free(j->sh_lv); free(j->sel_flag); free(j->sel_b0); free(j->unblended); free(j->rm_on);
  free(j->fn_prm); free(j->argc);
  free(j->fvid); j->fvid = NULL;
  free(j->slot); free(j->phitmp); free(j->argl); free(j->segb); free(j->phi_done); free(fields); free(ftypes); free(fsizes);
  free_blive(j);
  free(j->fmap_key); free(j->fmap_val); free(j->fmap_q); free(j->fkeep); free(j->fref);
  free(j->fmap_vec); free(j->all_elem);
  free(j->fmap_part); free(j->fmap_np); free(j->wt_on); free(j->wt);
  for (int x = 0; x < 4; x++) free(j->xfer_cont[x]);
  *retry = j->wide_retry && !e->failed;
  k->n_wide = j->n_wide;
  if (e->failed || *retry) { gcc_jit_context_release(cx); return NULL; }
  return cx;
}

/* je_build1 until no wide field (J.fmap_part) is accessed other than its
 * scheme allows; each round keeps the fields that were as arrays (the
 * insn table and handler count restart with the round). */
gcc_jit_context *je_build(jit_kernel *k, const jit_options *o, const char *mflags, plan_err *e,
                          uint32_t *n_stmts) {
  uint8_t *excl = NULL;
  uint32_t n_excl = 0, n_insns = k->n_insns, n_interp = k->n_interp;
  for (int round = 0;; round++) {
    bool retry = false;
    gcc_jit_context *cx = je_build1(k, o, mflags, e, n_stmts, &excl, &n_excl, &retry);
    if (!retry || round >= 16) {
      if (getenv("SPIRV_SG_JIT_WIDE_REPORT")) {
        uint32_t nx = 0;
        for (uint32_t q = 0; excl && q < n_excl; q++) nx += excl[q];
        fprintf(stderr, "spirv-sg: jit: wide lane arrays: %u in %d rounds, %u kept as arrays\n", k->n_wide, round + 1, nx);
      }
      free(excl);
      if (retry) failf(e, "wide lane arrays: no stable layout");
      return cx;
    }
    k->n_insns = n_insns;
    k->n_interp = n_interp;
  }
}
