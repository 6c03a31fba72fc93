/* jit_emit_intel.c - Intel subgroup extensions: shuffles (one and two
 * inputs; lane permutes on AVX2 / AVX-512) and buffer block reads and
 * writes.  See jit.c for the design. */
#include "jit_emit.h"


/* Lane permutes in one instruction: res[l] = x[idx[l]] (vpermd) or, with a
 * second table, x/y[idx[l]] for idx in [0, 2S) (vpermi2d), 32-bit lanes,
 * S = 16 (zmm, AVX-512F) or 8 (ymm, AVX2 / AVX-512VL).  GCC has no permute
 * in libgccjit and does not turn the gather loop into one, so the template is
 * extended asm.  idx: int32 lane array (frame field); false if not applicable. */
static bool can_permute(J *j, bool two) {
  return (j->S == 16 && has_flag(j->mflags, "-mavx512f")) ||
         (j->S == 8 && has_flag(j->mflags, "-mavx2") && (!two || has_flag(j->mflags, "-mavx512vl")));
}
/* Every use of value id is a lane-wise arithmetic, comparison, conversion
 * or select (a lane loop, which GCC vectorizes at its preferred 256 bits);
 * false for any other use (a permute's table, a store, a phi: they may read
 * the lane array in 512-bit moves) or an operand word that only looks like
 * id. */
static bool lanewise_uses_only(J *j, uint32_t id) {
  const ld_module *m = j->m;
  for (uint32_t f = 0; f < m->n_functions; f++) {
    const ld_function *fn = m->functions[f];
    for (uint32_t b = 0; b < fn->n_blocks; b++)
      for (uint32_t x = 0; x < fn->blocks[b].n_insns; x++) {
        const ld_insn *u = &fn->blocks[b].insns[x];
        bool uses = false;
        for (uint32_t q = 0; q < u->n_ops && !uses; q++) uses = u->ops[q] == id;
        if (!uses) continue;
        switch (u->op) {
        case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod:
        case SpvOpSRem: case SpvOpSMod: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
        case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
        case SpvOpNot: case SpvOpSNegate: case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan:
        case SpvOpSGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual: case SpvOpULessThan:
        case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual: case SpvOpFAdd: case SpvOpFSub:
        case SpvOpFMul: case SpvOpFDiv: case SpvOpFNegate: case SpvOpFOrdEqual: case SpvOpFOrdNotEqual:
        case SpvOpFOrdLessThan: case SpvOpFOrdGreaterThan: case SpvOpFOrdLessThanEqual:
        case SpvOpFOrdGreaterThanEqual: case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF:
        case SpvOpConvertUToF: case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpBitcast:
        case SpvOpSelect: case SpvOpCopyObject:
          break;
        default:
          return false;
        }
      }
  }
  return true;
}

static void emit_permute(J *j, gcc_jit_field *xs, gcc_jit_field *ys, gcc_jit_field *idx, gcc_jit_rvalue *ivec,
                         gcc_jit_field *res, uint32_t n, bool split) {
  gcc_jit_type *vt = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(j->t_u[2], j->S), 4);
  gcc_jit_type *vp = gcc_jit_type_get_pointer(vt);
  /* 16 lanes, the index from idx[] (tgt[], written by a lane loop that GCC
   * vectorizes in 256-bit stores): read as two 256-bit halves joined in a
   * register (vinserti64x4).  One 512-bit load of two such stores cannot
   * take its data from the store buffer and waits for them to retire (a
   * store-forwarding stall: transpose 0.83x with the halves).  The tables
   * stay 512-bit loads: their lane arrays are written in 64-byte moves
   * (vcopy, a gather, a permute), which forward whole (stencil 4% slower
   * with halves there).  SPIRV_SG_JIT_PERM512 reads the index whole too.
   * Where GCC vectorizes the lane loops in 512 bits (J.v256 false: AMD
   * and generic tunings) the index is one 512-bit store, read whole. */
  bool halves = j->S == 16 && idx && !ivec && j->v256 && !getenv("SPIRV_SG_JIT_PERM512");
  gcc_jit_type *hv = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(j->t_u[2], 8), 4);
  gcc_jit_type *hp = gcc_jit_type_get_pointer(hv);
  for (uint32_t c = 0; c < n; c++) {
    gcc_jit_lvalue *xv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(slot_lv(j, xs, n, c, ci(j, j->t_i32, 0)), NULL), vp), NULL);
    gcc_jit_lvalue *rv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(slot_lv(j, res, n, c, ci(j, j->t_i32, 0)), NULL), vp), NULL);
    gcc_jit_lvalue *yv = ys ? gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(slot_lv(j, ys, n, c, ci(j, j->t_i32, 0)), NULL), vp), NULL) : NULL;
    if (halves) {
      /* %0 result, %1 scratch, %2 %3 the index halves, %4 x, %5 y; the
       * halves go through locals of their own (libgccjit 12 crashed on the
       * asm reading them straight from the lane array) */
      gcc_jit_lvalue *t1 = local(j, vt), *h0 = local(j, hv), *h1 = local(j, hv);
      assign(j, h0, R_(gcc_jit_rvalue_dereference(cast(j,
          gcc_jit_lvalue_get_address(lane_arr(j, idx, ci(j, j->t_i32, 0)), NULL), hp), NULL)));
      assign(j, h1, R_(gcc_jit_rvalue_dereference(cast(j,
          gcc_jit_lvalue_get_address(lane_arr(j, idx, ci(j, j->t_i32, 8)), NULL), hp), NULL)));
      gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, ys
          ? "vinserti64x4 $1, %t3, %g2, %g0\n\tvpermi2d %g5, %g4, %g0"
          : "vinserti64x4 $1, %t3, %g2, %g1\n\tvpermd %g4, %g1, %g0");
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", rv);
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", t1);
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(h0));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(h1));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(xv));
      if (ys) gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(yv));
      j->n_stmts++;
      continue;
    }
    /* split (16 lanes, every reader a lane loop: stencil's left and
     * right): the result goes to its lane array as two 256-bit halves, as
     * the readers' vectorized loops load it; a 512-bit store that they
     * read in halves forwards badly (stencil 0.84-0.89x the time split).
     * Other readers (another permute's table) load 512 bits, which two
     * halves would not forward to.  Only where the lane loops are 256-bit
     * (J.v256); with 512-bit ones the readers load the whole vector, which
     * two halves would not forward to (stencil 0.84x the time whole, on
     * an AMD EPYC). */
    if (split) {
      gcc_jit_lvalue *t1 = local(j, vt), *lo = local(j, hv), *hi = local(j, hv);
      gcc_jit_rvalue *iv = ivec ? ivec : R_(gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(
          lane_arr(j, idx, ci(j, j->t_i32, 0)), NULL), vp), NULL));
      /* %0 %1 the halves, %2 the whole result (scratch), %3 x, %4 y (x
       * when one table), %5 the index */
      gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, ys
          ? "vmovdqa64 %g5, %g2\n\tvpermi2d %g4, %g3, %g2\n\tvextracti64x4 $1, %g2, %t1\n\tvmovdqa %t2, %t0"
          : "vpermd %g3, %g5, %g2\n\tvextracti64x4 $1, %g2, %t1\n\tvmovdqa %t2, %t0");
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", lo);
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", hi);
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", t1);
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(xv));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", ys ? R_(yv) : R_(xv));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", iv);
      assign(j, gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(slot_lv(j, res, n, c, ci(j, j->t_i32, 0)), NULL),
                                                hp), NULL), R_(lo));
      assign(j, gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(slot_lv(j, res, n, c, ci(j, j->t_i32, 8)), NULL),
                                                hp), NULL), R_(hi));
      j->n_stmts++;
      continue;
    }
    /* the index vector: ivec (a register; its own vector type, so handed
     * to the template, tied to the output where vpermi2d overwrites it), or
     * idx[] */
    gcc_jit_rvalue *iv = ivec ? ivec : R_(gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(
        lane_arr(j, idx, ci(j, j->t_i32, 0)), NULL), vp), NULL));
    if (!ys) {
      gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, "vpermd %1, %2, %0");
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=v", rv);
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(xv));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", iv);
    } else {
      gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, "vpermi2d %2, %1, %0");
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=v", rv);
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(xv));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(yv));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "0", iv);
    }
    j->n_stmts++;
  }
}

/* Intel shuffles (SubgroupShuffle, Xor, Down, Up; Down and Up take two
 * inputs): the source lane of every lane into tgt[], then a permute or a
 * gather.  The fast path is the whole subgroup active with every index in
 * range; otherwise the interpreter's handler.  False: not inline. */
bool emit_intel_shuffle(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  jloop lp;
  SpvOp op = in->op;
  uint32_t o0 = 0;
  if (op == SpvOpGroupNonUniformShuffle || op == SpvOpGroupNonUniformShuffleXor) {
    /* the Khronos forms (scope, value, id / mask): the same lanes as the
     * Intel ones whenever every index is in range and every lane active,
     * the fast path's condition; the handler otherwise (its UB reports) */
    bool ok = true;
    if (in->n_ops < 3 || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup || !ok) return false;
    op = op == SpvOpGroupNonUniformShuffle ? SpvOpSubgroupShuffleINTEL : SpvOpSubgroupShuffleXorINTEL;
    o0 = 1;
  }
  bool two = op == SpvOpSubgroupShuffleDownINTEL || op == SpvOpSubgroupShuffleUpINTEL;
  if (in->n_ops < o0 + (two ? 3u : 2u) || !lane_shape(in->type, &ct, &n) || !value_slot(j, inst, in->result)) return false;
  uint32_t x = in->ops[o0], y = two ? in->ops[o0 + 1] : 0, d = in->ops[o0 + (two ? 2 : 1)];
  if (!gatherable(j, inst, x) || (two && !gatherable(j, inst, y))) return false;
  const ld_type *dt; uint32_t dn;
  if (!lane_shape(m->values[d].type, &dt, &dn) || dn != 1 || dt->kind != LD_T_INT) return false;
  int64_t S = j->S, dst = 1;
  if (op == SpvOpSubgroupShuffleINTEL && j->full && j->lanes && ld_uni_lane_stride(j->lanes, d, &dst) && dst == 0 &&
      n <= 16) {
    /* one index k in every lane (every lane active): lane k's value to
     * every lane, when k is in range */
    fuse_close(j);
    gcc_jit_lvalue *k0 = local(j, U);
    assign(j, j->lane, ci(j, I, 0));
    assign(j, k0, cast(j, V(j, inst, d, 0), U));
    /* no test when the index's bound (umax_of) is below S: gemm's kk */
    uint64_t kmax = 0;
    bool kin = !getenv("SPIRV_SG_JIT_NO_SHUF_RANGE") && umax_of(m, d, &kmax, 0) && kmax < (uint64_t)S;
    gcc_jit_block *join = fast_or_generic(j, inst, in, kin ? NULL : cmp(j, GCC_JIT_COMPARISON_LT, R_(k0), ci(j, U, S)));
    gcc_jit_lvalue *bv[16];
    /* x loaded just before from a promoted array's row (J.prow_in): lane
     * k's value is that row's cell k (SPIRV_SG_JIT_NO_PROW: the load's) */
    const ld_insn *pl = j->prow_in;
    bool prow = n == 1 && pl && pl->result == x && j->prow_inst == inst && j->prow_fn == j->fn &&
                pl->block == in->block && pl->index + 1 == in->index && !getenv("SPIRV_SG_JIT_NO_PROW");
    for (uint32_t c = 0; c < n; c++) {
      bv[c] = local(j, scal(j, ct));
      if (prow)
        assign(j, bv[c], R_(gcc_jit_context_new_array_access(j->cx, NULL,
            R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(j->prow_arr), R_(j->prow_i0))), cast(j, R_(k0), I))));
      else
        assign(j, bv[c], gather_v(j, inst, x, c, cast(j, R_(k0), I)));
    }
    loop_begin(j, &lp);
    for (uint32_t c = 0; c < n; c++) assign(j, res_lv(j, inst, in->result, c), R_(bv[c]));
    loop_end(j, &lp);
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = join;
    return true;
  }
  /* one delta (or mask) d in every lane (every lane active), 32-bit
   * components, a permute at hand: the permute index is l + d (Down), l -
   * d + S (Up: [0, S) the previous table) or l ^ d (Xor), built in a
   * register; d in range: d <= S (Up, Down), d < S (Xor) */
  if ((two || op == SpvOpSubgroupShuffleXorINTEL) && j->full && j->lanes && ld_uni_lane_stride(j->lanes, d, &dst) &&
      dst == 0 && comp_bytes(j->k, ct) == 4 && value_slot(j, inst, x) && (!two || value_slot(j, inst, y)) &&
      can_permute(j, two) && !getenv("SPIRV_SG_JIT_NO_UNIPERM")) {
    fuse_close(j);
    gcc_jit_lvalue *d0 = local(j, U);
    assign(j, j->lane, ci(j, I, 0));
    assign(j, d0, cast(j, V(j, inst, d, 0), U));
    gcc_jit_rvalue *ok = op == SpvOpSubgroupShuffleXorINTEL ? cmp(j, GCC_JIT_COMPARISON_LT, R_(d0), ci(j, U, S))
                                                            : cmp(j, GCC_JIT_COMPARISON_LE, R_(d0), ci(j, U, S));
    gcc_jit_block *join = fast_or_generic(j, inst, in, ok);
    gcc_jit_lvalue *dd = local(j, I);
    assign(j, dd, cast(j, R_(d0), I));
    gcc_jit_rvalue *el[64];
    for (int64_t l = 0; l < S; l++) {
      gcc_jit_rvalue *lc = ci(j, I, (long)l);
      el[l] = op == SpvOpSubgroupShuffleDownINTEL ? bin(j, GCC_JIT_BINARY_OP_PLUS, I, lc, R_(dd))
            : op == SpvOpSubgroupShuffleUpINTEL ? bin(j, GCC_JIT_BINARY_OP_MINUS, I, ci(j, I, (long)(l + S)), R_(dd))
            : bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, I, lc, R_(dd));
      el[l] = cast(j, el[l], j->t_u[2]);
    }
    gcc_jit_type *vt = gcc_jit_type_get_vector(j->t_u[2], (size_t)S);
    gcc_jit_rvalue *ivec = gcc_jit_context_new_rvalue_from_vector(j->cx, NULL, vt, (size_t)S, el);
    emit_permute(j, value_slot(j, inst, x), two ? value_slot(j, inst, y) : NULL, NULL, ivec,
                 value_slot(j, inst, in->result), n,
                 S == 16 && j->v256 && !getenv("SPIRV_SG_JIT_PERM_WHOLE") && lanewise_uses_only(j, in->result));
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = join;
    return true;
  }
  /* source lane (and operand: bit 8) of every lane into tgt[]; bad: any out
   * of range.  An index or delta whose bound (umax_of) keeps every lane in
   * range needs no test: transpose's (l - k) & 15 */
  uint64_t dmax = 0;
  bool inr = !getenv("SPIRV_SG_JIT_NO_SHUF_RANGE") && umax_of(m, d, &dmax, 0) &&
             (op == SpvOpSubgroupShuffleINTEL ? dmax < (uint64_t)S
             : op == SpvOpSubgroupShuffleXorINTEL ? dmax < (uint64_t)S && (S & (S - 1)) == 0   /* l ^ d < S */
                                                                                    : dmax <= (uint64_t)S);
  gcc_jit_lvalue *bad = local(j, U);
  assign(j, bad, ci(j, U, 0));
  loop_begin(j, &lp);
  gcc_jit_rvalue *dv = cast(j, V(j, inst, d, 0), U);
  gcc_jit_rvalue *l64 = cast(j, L(j), U);
  gcc_jit_rvalue *src, *oob;
  if (op == SpvOpSubgroupShuffleINTEL || op == SpvOpSubgroupShuffleXorINTEL) {
    gcc_jit_rvalue *v = op == SpvOpSubgroupShuffleINTEL ? dv : bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, l64, dv);
    oob = cast(j, cmp(j, GCC_JIT_COMPARISON_GE, v, ci(j, U, S)), U);
    src = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, v, ci(j, U, 255));
  } else if (op == SpvOpSubgroupShuffleDownINTEL) {
    /* idx = l + delta: [0,S) current, [S,2S) next */
    gcc_jit_rvalue *idx = bin(j, GCC_JIT_BINARY_OP_PLUS, U, l64, dv);
    oob = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, cast(j, cmp(j, GCC_JIT_COMPARISON_GE, dv, ci(j, U, 2 * S)), U),
              cast(j, cmp(j, GCC_JIT_COMPARISON_GE, idx, ci(j, U, 2 * S)), U));
    gcc_jit_rvalue *nx = cast(j, cmp(j, GCC_JIT_COMPARISON_GE, idx, ci(j, U, S)), U);
    src = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U,
              bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, idx,
                  bin(j, GCC_JIT_BINARY_OP_MULT, U, nx, ci(j, U, S))), ci(j, U, 255)),
              bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, nx, ci(j, U, 8)));
  } else {
    /* idx = l - delta: [0,S) current, [-S,0) previous[idx + S] */
    gcc_jit_rvalue *idx = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, l64, dv), ci(j, U, S));
    /* idx + S in [0, 2S) unless delta > 2S (or wrapped) */
    oob = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, cast(j, cmp(j, GCC_JIT_COMPARISON_GT, dv, ci(j, U, 2 * S)), U),
              cast(j, cmp(j, GCC_JIT_COMPARISON_GE, idx, ci(j, U, 2 * S)), U));
    gcc_jit_rvalue *prev = cast(j, cmp(j, GCC_JIT_COMPARISON_LT, idx, ci(j, U, S)), U);
    /* from: 0 = previous (ops[0]), 1 = current (ops[1]) */
    src = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U,
              bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, idx,
                  bin(j, GCC_JIT_BINARY_OP_MULT, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, ci(j, U, 1), prev), ci(j, U, S))), ci(j, U, 255)),
              bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, ci(j, U, 1), prev), ci(j, U, 8)));
  }
  if (!inr) assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad), oob));
  assign(j, lane_arr(j, j->f_tgt, L(j)), cast(j, src, I));
  loop_end(j, &lp);
  gcc_jit_block *join = fast_or_generic(j, inst, in, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, all_active(j),
                                                         cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0))));
  gcc_jit_field *xs = value_slot(j, inst, x), *ys = two ? value_slot(j, inst, y) : NULL;
  gcc_jit_field *rs = value_slot(j, inst, in->result);
  if (comp_bytes(j->k, ct) == 4 && xs && (!two || ys) && can_permute(j, two)) {
    /* permute index: source lane, + S for the second table */
    loop_begin(j, &lp);
    gcc_jit_lvalue *tl = lane_arr(j, j->f_tgt, L(j));
    assign(j, tl, bin(j, GCC_JIT_BINARY_OP_PLUS, I, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, I, R_(tl), ci(j, I, 255)),
                      bin(j, GCC_JIT_BINARY_OP_MULT, I, bin(j, GCC_JIT_BINARY_OP_RSHIFT, I, R_(tl), ci(j, I, 8)), ci(j, I, (long)j->S))));
    loop_end(j, &lp);
    emit_permute(j, xs, ys, j->f_tgt, NULL, rs, n, false);
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = join;
    return true;
  }
  loop_begin(j, &lp);
  gcc_jit_rvalue *t = R_(lane_arr(j, j->f_tgt, L(j)));
  gcc_jit_rvalue *sl = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, I, t, ci(j, I, 255));
  gcc_jit_rvalue *hi = bin(j, GCC_JIT_BINARY_OP_RSHIFT, I, t, ci(j, I, 8));
  for (uint32_t c = 0; c < n; c++) {
    gcc_jit_rvalue *v = gather_v(j, inst, x, c, sl);
    if (two) v = sel(j, cmp(j, GCC_JIT_COMPARISON_NE, hi, ci(j, I, 0)), gather_v(j, inst, y, c, sl), v, scal(j, ct));
    assign(j, res_lv(j, inst, in->result, c), v);
  }
  loop_end(j, &lp);
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  return true;
}

/* SubgroupBlockReadINTEL / SubgroupBlockWriteINTEL on buffers. */
bool emit_block_io(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  gcc_jit_type *U = j->t_u[3];
  SpvOp op = in->op;
  /* buffer block I/O: lane l, element k at p + (l + k*S) * es; the fast
   * path is the whole subgroup active, one pointer, aligned, in bounds */
  bool wr = op == SpvOpSubgroupBlockWriteINTEL;
  uint32_t ptr = in->ops[0];
  const ld_type *vt = wr ? (in->n_ops >= 2 ? m->values[in->ops[1]].type : NULL) : in->type;
  if (!vt || !lane_shape(vt, &ct, &n) || ct->kind != LD_T_INT || comp_bytes(j->k, ct) != ct->size) return false;
  gcc_jit_field *vs = wr ? value_slot(j, inst, in->ops[1]) : value_slot(j, inst, in->result);
  if (!vs) return false;
  const ld_addr_layout *a = &m->layout;
  uint64_t bytes = (uint64_t)n * j->S * ct->size;
  gcc_jit_lvalue *bad = local(j, U), *p0 = lane0_value(j, inst, ptr);
  assign(j, bad, ci(j, U, 0));
  int64_t stride;
  if (!ld_uni_lane_stride(j->lanes, ptr, &stride) || stride != 0)   /* not proven uniform: test it */
    or_lane_diff(j, inst, ptr, p0, bad);
  gcc_jit_rvalue *reg0 = bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(p0), ci(j, U, (long)a->shift));
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(p0), ci(j, U, (long)a->offset_mask));
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions), reg0);
  gcc_jit_rvalue *lim = R_(gcc_jit_lvalue_access_field(reg, NULL, wr ? j->r_wsize : j->r_size));
  gcc_jit_rvalue *cond = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, all_active(j),
      bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)),
          bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool,
              cmp(j, GCC_JIT_COMPARISON_EQ, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, off, ci(j, U, wr ? 15 : 3)), ci(j, U, 0)),
              cmp(j, GCC_JIT_COMPARISON_LE, bin(j, GCC_JIT_BINARY_OP_PLUS, U, off, ci(j, U, (long)bytes)), lim))));
  gcc_jit_block *join = fast_or_generic(j, inst, in, cond);
  gcc_jit_rvalue *mp = cast(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
      R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_base)), off), NULL), j->t_vp);
  gcc_jit_rvalue *fp = cast(j, gcc_jit_lvalue_get_address(fld(j, vs), NULL), j->t_vp);
  gcc_jit_function *mc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_memcpy");
  gcc_jit_rvalue *args[3] = {wr ? mp : fp, wr ? fp : mp,
      gcc_jit_context_new_rvalue_from_long(j->cx, gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_SIZE_T), (long)bytes)};
  gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, mc, 3, args));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  return true;
}
