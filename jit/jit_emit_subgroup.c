/* jit_emit_subgroup.c - Khronos subgroup operations: group arithmetic
 * (reduce, scans), the partial-subgroup check of collectives, broadcast,
 * ballot and ballot bit count.  Shuffles without an inline path (the
 * Khronos ones) run the interpreter's handler (emit_generic).
 * See jit.c for the design. */
#include "jit_emit.h"
#include <math.h>

/* Reduce / scans of IAdd and FAdd inline; other arithmetic via the reference. */
static void emit_group_(J *j, uint32_t inst, const ld_insn *in);
/* acc OP x for group arithmetic op ga in the component type ct (T), as
 * interp/sg_ref.c's combine: integers wrap at their width, floats round
 * once per step in their type, fmin/fmax by the interpreter's rule,
 * logical ops on nonzero-ness.  NULL: not inline. */
static gcc_jit_rvalue *ga_combine(J *j, ip_group_arith ga, const ld_type *ct, gcc_jit_type *T, gcc_jit_rvalue *a,
                                  gcc_jit_rvalue *b) {
  bool fl = ct->kind == LD_T_FLOAT;
  gcc_jit_type *ST = fl ? T : sscal(j, ct);
  switch (ga) {
  case IP_GA_IADD: case IP_GA_FADD: return fixw(j, ct, bin(j, GCC_JIT_BINARY_OP_PLUS, T, a, b));
  case IP_GA_IMUL: case IP_GA_FMUL: return fixw(j, ct, bin(j, GCC_JIT_BINARY_OP_MULT, T, a, b));
  case IP_GA_SMIN: case IP_GA_SMAX: case IP_GA_UMIN: case IP_GA_UMAX: {
    bool s = ga == IP_GA_SMIN || ga == IP_GA_SMAX, mn = ga == IP_GA_SMIN || ga == IP_GA_UMIN;
    gcc_jit_rvalue *x = s ? cast(j, a, ST) : a, *y = s ? cast(j, b, ST) : b;
    return blend_by(j, b2u8(j, cmp(j, mn ? GCC_JIT_COMPARISON_LE : GCC_JIT_COMPARISON_GE, x, y)), a, b, T);
  }
  case IP_GA_FMIN: case IP_GA_FMAX: return fminmax(j, ga == IP_GA_FMIN, a, b, T, ct->width == 64);
  case IP_GA_AND: return bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, a, b);
  case IP_GA_OR: return bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, T, a, b);
  case IP_GA_XOR: return bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, T, a, b);
  case IP_GA_LAND: case IP_GA_LOR: case IP_GA_LXOR: {
    gcc_jit_rvalue *x = b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, ci(j, T, 0)));
    gcc_jit_rvalue *y = b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, b, ci(j, T, 0)));
    enum gcc_jit_binary_op o = ga == IP_GA_LAND ? GCC_JIT_BINARY_OP_BITWISE_AND
                             : ga == IP_GA_LOR ? GCC_JIT_BINARY_OP_BITWISE_OR : GCC_JIT_BINARY_OP_BITWISE_XOR;
    return cast(j, bin(j, o, j->t_u[0], x, y), T);
  }
  default: return NULL;
  }
}

/* The identity an exclusive scan gives its first participant (sg_ref.c:
 * identity_comp). */
static gcc_jit_rvalue *ga_identity(J *j, ip_group_arith ga, const ld_type *ct, gcc_jit_type *T) {
  if (ct->kind == LD_T_FLOAT) {
    double v = ga == IP_GA_FMUL || ga == IP_GA_IMUL ? 1.0 : ga == IP_GA_FMIN ? INFINITY : ga == IP_GA_FMAX ? -INFINITY : 0.0;
    return gcc_jit_context_new_rvalue_from_double(j->cx, T, v);
  }
  uint32_t w = ct->kind == LD_T_BOOL ? 1 : ct->width;
  uint64_t m = w >= 64 ? ~0ull : (1ull << w) - 1, v = 0;
  switch (ga) {
  case IP_GA_IMUL: case IP_GA_FMUL: v = 1; break;
  case IP_GA_SMIN: v = m >> 1; break;
  case IP_GA_SMAX: v = (m >> 1) + 1; break;
  case IP_GA_UMIN: case IP_GA_FMIN: case IP_GA_AND: v = m; break;
  case IP_GA_LAND: v = 1; break;
  default: v = 0; break;
  }
  return cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)v), T);
}

/* Reduce, scans and ClusteredReduce (cluster size cl, 0: none) of one
 * scalar over the active lanes in increasing order, as sg_ref.c's
 * eval_run: the first participant's value starts the fold (of its
 * cluster), an exclusive scan gives it the identity.  Integers of 8 to 64
 * bits, floats and doubles, bools for the logical ops.  False: not inline
 * (nothing emitted). */
static bool emit_group_fold(J *j, uint32_t inst, const ld_insn *in, uint32_t cl) {
  const ld_type *ct; uint32_t n;
  ip_group_arith ga;
  if (!lane_shape(in->type, &ct, &n) || n != 1 || !ip_group_arith_of(in->op, &ga)) return false;
  bool fop = ga == IP_GA_FADD || ga == IP_GA_FMUL || ga == IP_GA_FMIN || ga == IP_GA_FMAX;
  bool lop = ga == IP_GA_LAND || ga == IP_GA_LOR || ga == IP_GA_LXOR;
  if (fop ? ct->kind != LD_T_FLOAT || (ct->width != 32 && ct->width != 64)
          : lop ? ct->kind != LD_T_BOOL
                : ct->kind != LD_T_INT || (ct->width != 8 && ct->width != 16 && ct->width != 32 && ct->width != 64))
    return false;
  gcc_jit_type *T = scal(j, ct), *I = j->t_i32;
  uint32_t gop = in->ops[1], x = in->ops[2];
  jloop lp;
  fuse_close(j);
  gcc_jit_lvalue *acc = local(j, T), *have = local(j, I);
  gcc_jit_lvalue *cla = NULL;   /* ClusteredReduce: each cluster's result */
  if (cl) cla = local(j, gcc_jit_context_new_array_type(j->cx, NULL, T, (int)((j->S + cl - 1) / cl)));   /* the last cluster may be partial (S = 12, cl = 8) */
  gcc_jit_rvalue *id = ga_identity(j, ga, ct, T);
  assign(j, acc, id);
  assign(j, have, ci(j, I, 0));
  loop_begin(j, &lp);
  if (cl) {   /* a new cluster: no participant yet */
    gcc_jit_rvalue *first = cmp(j, GCC_JIT_COMPARISON_EQ, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, I, L(j), ci(j, I, (long)cl - 1)),
                                ci(j, I, 0));
    assign(j, have, blend_by(j, b2u8(j, first), ci(j, I, 0), R_(have), I));
  }
  gcc_jit_rvalue *xv = V(j, inst, x, 0);
  gcc_jit_rvalue *hv = cmp(j, GCC_JIT_COMPARISON_NE, R_(have), ci(j, I, 0));
  if (gop == SpvGroupOperationExclusiveScan) {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    assign(j, r, mblend(j, blend_by(j, b2u8(j, hv), R_(acc), id, T), R_(r), T));
  }
  gcc_jit_rvalue *nv = blend_by(j, b2u8(j, hv), ga_combine(j, ga, ct, T, R_(acc), xv), xv, T);
  assign(j, acc, mblend(j, nv, R_(acc), T));
  assign(j, have, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, I, R_(have), MASKV(j)));
  if (gop == SpvGroupOperationInclusiveScan) {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    assign(j, r, mblend(j, R_(acc), R_(r), T));
  }
  if (cl)   /* the cluster's last lane: its result */
    assign(j, gcc_jit_context_new_array_access(j->cx, NULL, R_(cla), bin(j, GCC_JIT_BINARY_OP_DIVIDE, I, L(j), ci(j, I, (long)cl))),
           R_(acc));
  loop_end(j, &lp);
  if (gop == SpvGroupOperationReduce || cl) {
    loop_begin(j, &lp);
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    gcc_jit_rvalue *v = cl ? R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(cla),
                                                                 bin(j, GCC_JIT_BINARY_OP_DIVIDE, I, L(j), ci(j, I, (long)cl))))
                           : R_(acc);
    assign(j, r, mblend(j, v, R_(r), T));
    loop_end(j, &lp);
  }
  j->n_stmts++;
  return true;
}

void emit_group(J *j, uint32_t inst, const ld_insn *in) {
  gcc_jit_block *after = NULL;
  if (in->op >= SpvOpGroupIAdd && in->op <= SpvOpGroupSMax) after = emit_coll_check(j, inst, in);
  emit_group_(j, inst, in);
  if (after) { gcc_jit_block_end_with_jump(j->b, NULL, after); j->b = after; }
}
static void emit_group_(J *j, uint32_t inst, const ld_insn *in) {
  const ld_type *ct; uint32_t n;
  lane_shape(in->type, &ct, &n);
  gcc_jit_type *T = scal(j, ct);
  uint32_t gop = in->ops[1], x = in->ops[2];
  bool iadd = in->op == SpvOpGroupIAdd || in->op == SpvOpGroupNonUniformIAdd;
  bool fadd = in->op == SpvOpGroupFAdd || in->op == SpvOpGroupNonUniformFAdd;
  jloop lp;
  uint32_t cl = 0;   /* ClusteredReduce: the cluster size (0: the whole subgroup) */
  if (gop == SpvGroupOperationClusteredReduce) {
    bool okc = true;
    cl = in->n_ops > 3 ? const_u32(j->m, in->ops[3], &okc) : j->S;
    if (!okc || cl == 0 || (cl & (cl - 1)) || cl > j->S) {   /* the handler reports it */
      emit_generic(j, inst, in);
      return;
    }
  }
  if ((cl || (!iadd && !fadd && !getenv("SPIRV_SG_JIT_GROUP_CALL"))) && emit_group_fold(j, inst, in, cl)) return;
  if (!iadd && !fadd) {
    /* materialize the operand, then call the shared reference */
    gcc_jit_field *xs = j->phitmp[vidx(j, inst, in->result)];
    loop_begin(j, &lp);
    assign(j, slot_lv(j, xs, 1, 0, L(j)), V(j, inst, x, 0));
    loop_end(j, &lp);
    uint32_t idx = add_insn_index(j->k, in);
    gcc_jit_field *rs = j->slot[vidx(j, inst, in->result)];
    spill(j, j->f_mask); spill(j, xs); spill(j, rs);
    gcc_jit_rvalue *args[5] = {
      j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx),
      cast(j, gcc_jit_lvalue_get_address(hfld(j, xs), NULL), j->t_vp),
      cast(j, gcc_jit_lvalue_get_address(hfld(j, rs), NULL), j->t_vp)};
    host_mark(j);
    gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_group), 5, args));
    fill(j, rs);
    return;
  }
  /* An integer scan of a whole subgroup of 16 32-bit lanes, with AVX-512:
   * in one register, lane i adds lane i - k for k = 1, 2, 4, 8 (valignd
   * shifts the lanes up, bringing in zeros), and for an exclusive scan one
   * more shift up.  Addition modulo 2^32 is associative, so every lane's
   * sum is the one pass's below.  That pass left the 16 sums as 16 scalar
   * stores, which the next vector read of the result could not forward
   * from (scan: SPIRV_SG_JIT_NO_VEC_SCAN=1). */
  if (iadd && j->full && j->S == 16 && ct->width == 32 && n == 1 &&
      (gop == SpvGroupOperationInclusiveScan || gop == SpvGroupOperationExclusiveScan) &&
      has_flag(j->mflags, "-mavx512f") && !getenv("SPIRV_SG_JIT_NO_VEC_SCAN")) {
    gcc_jit_type *U32 = j->t_u[2];
    gcc_jit_type *at = gcc_jit_context_new_array_type(j->cx, NULL, U32, 16);
    gcc_jit_type *vt = gcc_jit_type_get_vector(U32, 16);
    gcc_jit_type *vp = gcc_jit_type_get_pointer(gcc_jit_type_get_aligned(vt, 4));
    gcc_jit_lvalue *xa = local(j, at), *ya = local(j, at);
    loop_begin(j, &lp);
    assign(j, gcc_jit_context_new_array_access(j->cx, NULL, R_(xa), L(j)), cast(j, V(j, inst, x, 0), U32));
    loop_end(j, &lp);
    gcc_jit_lvalue *v = local(j, vt), *z = local(j, vt), *t = local(j, vt);
    assign(j, v, R_(gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(xa, NULL), vp), NULL)));
    char tpl[400];
    snprintf(tpl, sizeof tpl,
             "vpxord %%1, %%1, %%1\n\t"
             "valignd $15, %%1, %%0, %%2\n\tvpaddd %%2, %%0, %%0\n\t"
             "valignd $14, %%1, %%0, %%2\n\tvpaddd %%2, %%0, %%0\n\t"
             "valignd $12, %%1, %%0, %%2\n\tvpaddd %%2, %%0, %%0\n\t"
             "valignd $8, %%1, %%0, %%2\n\tvpaddd %%2, %%0, %%0%s",
             gop == SpvGroupOperationExclusiveScan ? "\n\tvalignd $15, %1, %0, %0" : "");
    gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, tpl);
    gcc_jit_extended_asm_add_output_operand(a, NULL, "+v", v);
    gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", z);
    gcc_jit_extended_asm_add_output_operand(a, NULL, "=&v", t);
    j->n_stmts++;
    assign(j, gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(ya, NULL), vp), NULL), R_(v));
    loop_begin(j, &lp);
    assign(j, res_lv(j, inst, in->result, 0),
           cast(j, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(ya), L(j))), T));
    loop_end(j, &lp);
    return;
  }
  /* Reduce and scans: one pass over the lanes in increasing order (the
   * interpreter's order).  For integer scans this scalar pass replaced a
   * log2(S)-step vector scan through a zero-padded stack buffer: each step
   * reloaded the running sums shifted by 1, 2, 4, 8 lanes, a load spanning
   * two vector stores that cannot be store-forwarded, and scan ran 2.1x
   * slower (bench scan, 4M elements, JIT -j1). */
  gcc_jit_lvalue *acc = local(j, T);
  /* identity: 0 for integers, -0.0 for floats (x + -0.0 == x for every x) */
  assign(j, acc, fadd ? gcc_jit_context_new_rvalue_from_double(j->cx, T, -0.0) : ci(j, T, 0));
  gcc_jit_lvalue *have = local(j, j->t_i32);
  assign(j, have, ci(j, j->t_i32, 0));
  loop_begin(j, &lp);
  gcc_jit_rvalue *xv = V(j, inst, x, 0);
  gcc_jit_rvalue *old = gcc_jit_lvalue_as_rvalue(acc);
  if (gop == SpvGroupOperationExclusiveScan) {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    gcc_jit_rvalue *ev = old;
    if (fadd)   /* the first active lane gets the identity +0.0, not the -0.0 seed */
      ev = sel(j, cmp(j, GCC_JIT_COMPARISON_NE, gcc_jit_lvalue_as_rvalue(have), ci(j, j->t_i32, 0)), old,
               gcc_jit_context_new_rvalue_from_double(j->cx, T, 0.0), T);
    assign(j, r, mblend(j, ev, gcc_jit_lvalue_as_rvalue(r), T));
    assign(j, have, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_i32, gcc_jit_lvalue_as_rvalue(have),
                        MASKV(j)));
  }
  if (iadd) {
    gcc_jit_rvalue *m = bin(j, GCC_JIT_BINARY_OP_MINUS, T, ci(j, T, 0),
                            cast(j, MASKV(j), T));
    assign(j, acc, fixw(j, ct, bin(j, GCC_JIT_BINARY_OP_PLUS, T, old, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, xv, m))));
  } else {
    assign(j, acc, sel(j, MASK(j), bin(j, GCC_JIT_BINARY_OP_PLUS, T, old, xv), old, T));
  }
  if (gop == SpvGroupOperationInclusiveScan) {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    assign(j, r, mblend(j, gcc_jit_lvalue_as_rvalue(acc), gcc_jit_lvalue_as_rvalue(r), T));
  }
  loop_end(j, &lp);
  if (gop == SpvGroupOperationReduce) {
    loop_begin(j, &lp);
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    assign(j, r, mblend(j, gcc_jit_lvalue_as_rvalue(acc), gcc_jit_lvalue_as_rvalue(r), T));
    loop_end(j, &lp);
  }
}

/* Collectives the interpreter diagnoses when reached by only some lanes:
 * rt_coll runs the interpreter's handler in that case (returns 2) and the
 * inline code is skipped; 0: all lanes active, 1: stop.  Returns the block
 * to continue the inline path in (j->b), after the skip block is wired. */
gcc_jit_block *emit_coll_check(J *j, uint32_t inst, const ld_insn *in) {
  /* sg_kernel_full outside if-converted blocks: the top entry is the
   * kernel's own, every lane (as all_active) */
  if (j->full) return nb(j);
  uint32_t idx = add_insn_index(j->k, in);
  if (idx < j->k->cap_insns) j->k->insn_inst[idx] = inst;
  gcc_jit_block *go = nb(j), *part = nb(j), *stop = nb(j), *after = nb(j), *c2 = nb(j);
  gcc_jit_rvalue *full0 = cmp(j, GCC_JIT_COMPARISON_EQ, top_m(j, 0), R_(arr_at(j, ctxf(j, j->c_all), 0)));
  gcc_jit_rvalue *full1 = cmp(j, GCC_JIT_COMPARISON_EQ, top_m(j, 1), R_(arr_at(j, ctxf(j, j->c_all), 1)));
  gcc_jit_block_end_with_conditional(j->b, NULL, full0, c2, part);
  gcc_jit_block_end_with_conditional(c2, NULL, full1, go, part);
  j->b = part;
  spill_insn(j, inst, in);
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
  gcc_jit_lvalue *rc = local(j, j->t_i32);
  host_mark(j);
  assign(j, rc, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_coll), 3, args));
  gcc_jit_block *chk = nb(j), *filled = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, 1)), stop, chk);
  ret_done(j, stop);
  gcc_jit_block_end_with_conditional(chk, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, 0)), go, filled);
  j->b = filled;   /* the handler ran: its result is in the heap frame */
  if (in->result) spill_val(j, inst, in->result, false);
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = go;
  return after;
}

/* OpGroupBroadcast at Subgroup scope: inline when the whole subgroup is
 * active and the id is the same in every lane and in range. */
bool emit_broadcast(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  jloop lp;
  bool ok = true;
  if (in->n_ops < 3 || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup || !ok) return false;
  if (!lane_shape(in->type, &ct, &n) || !value_slot(j, inst, in->result)) return false;
  uint32_t x = in->ops[1], d = in->ops[2];
  const ld_type *dt; uint32_t dn;
  if (!gatherable(j, inst, x) || !lane_shape(m->values[d].type, &dt, &dn) || dt->kind != LD_T_INT || dn != 1) return false;
  /* the id: the same in every lane and < S (a vector id: 1D only) */
  gcc_jit_lvalue *bad = local(j, U), *id0 = lane0_value(j, inst, d);
  assign(j, bad, ci(j, U, 0));
  or_lane_diff(j, inst, d, id0, bad);
  if (dn > 1) {   /* a vector id's other components: 0 */
    loop_begin(j, &lp);
    for (uint32_t c = 1; c < dn; c++)
      assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad), cast(j, V(j, inst, d, c), U)));
    loop_end(j, &lp);
  }
  gcc_jit_rvalue *cond = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, all_active(j),
      bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)),
          cmp(j, GCC_JIT_COMPARISON_LT, R_(id0), ci(j, U, (long)j->S))));
  gcc_jit_block *join = fast_or_generic(j, inst, in, cond);
  gcc_jit_rvalue *src = cast(j, R_(id0), I);
  loop_begin(j, &lp);
  for (uint32_t c = 0; c < n; c++) assign(j, res_lv(j, inst, in->result, c), gather_v(j, inst, x, c, src));
  loop_end(j, &lp);
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  return true;
}

/* Whether pred_kmask16 applies: every lane active, 16 lanes, AVX-512
 * (SPIRV_SG_JIT_NO_VEC_BALLOT=1: never). */
bool vec_kmask_ok(J *j) {
  return j->full && j->S == 16 && has_flag(j->mflags, "-mavx512f") && !getenv("SPIRV_SG_JIT_NO_VEC_BALLOT");
}
/* The 16 lanes of bool value id (sense: nonzero; else zero) as the bits of
 * a 16-bit local, lane l at bit l: the lanes' 0/1 in one vector, whose
 * nonzero lanes one vptestmd gathers into a mask register (vec_kmask_ok;
 * the ballot and an if-converted head's taken lanes). */
gcc_jit_lvalue *pred_kmask16(J *j, uint32_t inst, uint32_t id, bool sense) {
  jloop lp;
  gcc_jit_type *U32 = j->t_u[2];
  gcc_jit_type *at = gcc_jit_context_new_array_type(j->cx, NULL, U32, 16);
  gcc_jit_type *vt = gcc_jit_type_get_vector(U32, 16);   /* one type object: libgccjit compares them by identity */
  gcc_jit_type *vp = gcc_jit_type_get_pointer(gcc_jit_type_get_aligned(vt, 4));
  gcc_jit_lvalue *xa = local(j, at), *v = local(j, vt), *k = local(j, j->t_u[1]);
  loop_begin(j, &lp);
  assign(j, gcc_jit_context_new_array_access(j->cx, NULL, R_(xa), L(j)),
         cast(j, cmp(j, sense ? GCC_JIT_COMPARISON_NE : GCC_JIT_COMPARISON_EQ, V(j, inst, id, 0),
                     ci(j, j->t_u[0], 0)), U32));
  loop_end(j, &lp);
  assign(j, v, R_(gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(xa, NULL), vp), NULL)));
  gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, "vptestmd %1, %1, %0");
  gcc_jit_extended_asm_add_output_operand(a, NULL, "=Yk", k);
  gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(v));
  j->n_stmts++;
  return k;
}

/* OpGroupNonUniformBallot: the active lanes' predicates as a uvec4. */
bool emit_ballot(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  gcc_jit_type *I = j->t_i32;
  jloop lp;
  bool ok = true;
  if (in->n_ops < 2 || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup || !ok) return false;
  if (!lane_shape(in->type, &ct, &n) || n != 4 || ct->kind != LD_T_INT || ct->width != 32) return false;
  gcc_jit_lvalue *w[4];
  for (uint32_t q = 0; q < 4; q++) { w[q] = local(j, j->t_u[2]); assign(j, w[q], ci(j, j->t_u[2], 0)); }
  gcc_jit_field *pf = value_slot(j, inst, in->ops[1]);
  if (j->full && pf && !shadowed(j, inst, in->ops[1]) && !remat(j, inst, in->ops[1]) && j->S % 8 == 0 &&
      j->S <= 128) {
    /* every lane active, the predicate a lane array of 0/1 bytes: eight
     * lanes at a time, one 64-bit read, and a multiply gathers bit 0 of
     * each byte into the top byte, lane order kept (the eight partial
     * products 2^(8i + 7(8-i)) land on bits 56 + i, none of the others
     * collide) */
    fuse_close(j);
    gcc_jit_type *U = j->t_u[3];
    gcc_jit_rvalue *base = cast(j, gcc_jit_lvalue_get_address(fld(j, pf), NULL), j->t_u8p);
    for (uint32_t g = 0; g < j->S / 8; g++) {
      gcc_jit_rvalue *p8 = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, base, ci(j, I, 8 * g)), NULL);
      gcc_jit_rvalue *x = R_(gcc_jit_rvalue_dereference(cast(j, p8, gcc_jit_type_get_pointer(U)), NULL));
      x = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, x, ci(j, U, 0x0101010101010101L));
      x = bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, bin(j, GCC_JIT_BINARY_OP_MULT, U, x, ci(j, U, 0x0102040810204080L)), ci(j, U, 56));
      uint32_t q = g / 4;
      assign(j, w[q], bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[2], R_(w[q]),
                          cast(j, bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, x, ci(j, U, 8 * (g % 4))), j->t_u[2])));
    }
  } else if (vec_kmask_ok(j)) {
    /* every lane active, 16 lanes, AVX-512: one vptestmd (compact's
     * ballot: the lane loop below OR-reduced 16 shifted lanes, 12
     * instructions) */
    assign(j, w[0], cast(j, R_(pred_kmask16(j, inst, in->ops[1], true)), j->t_u[2]));
  } else {
    for (uint32_t q = 0; q < 4 && 32 * q < j->S; q++) {
      loop_range(j, &lp, 32 * q, j->S < 32 * q + 32 ? j->S : 32 * q + 32);
      gcc_jit_rvalue *b = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[2], cast(j, MASKV(j), j->t_u[2]),
                              cast(j, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, in->ops[1], 0), ci(j, j->t_u[0], 0)), j->t_u[2]));
      gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, I, L(j), ci(j, I, 32 * q)), j->t_u[2]);
      assign(j, w[q], bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[2], R_(w[q]), bin(j, GCC_JIT_BINARY_OP_LSHIFT, j->t_u[2], b, sh)));
      loop_end(j, &lp);
    }
  }
  if (shadowed(j, inst, in->result)) {   /* one value for every lane (shadow_plan) */
    for (uint32_t c = 0; c < 4; c++) assign(j, sh_lv(j, inst, in->result, c), R_(w[c]));
    return true;
  }
  loop_begin(j, &lp);
  for (uint32_t c = 0; c < 4; c++) {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, c);
    assign(j, r, mblend(j, R_(w[c]), R_(r), j->t_u[2]));
  }
  loop_end(j, &lp);
  return true;
}

/* OpGroupNonUniformBallotBitCount (reduce, inclusive and exclusive scan):
 * inline when the ballot is the same in every active lane and S <= 64. */
/* A vector of type vt (S lanes) with x in every lane. */
static gcc_jit_rvalue *splat(J *j, gcc_jit_type *vt, size_t S, gcc_jit_rvalue *x) {
  gcc_jit_rvalue *e[64];
  for (size_t q = 0; q < S && q < 64; q++) e[q] = x;
  return gcc_jit_context_new_rvalue_from_vector(j->cx, NULL, vt, S, e);
}

bool emit_ballot_bit_count(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  jloop lp;
  bool ok = true;
  if (in->n_ops < 3 || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup || !ok) return false;
  uint32_t gop = in->ops[1], b = in->ops[2];
  if (gop != SpvGroupOperationReduce && gop != SpvGroupOperationInclusiveScan && gop != SpvGroupOperationExclusiveScan)
    return false;
  const ld_type *bt; uint32_t bn;
  if (!lane_shape(in->type, &ct, &n) || n != 1 || !lane_shape(m->values[b].type, &bt, &bn) || bn != 4 ||
      bt->width != 32 || !value_slot(j, inst, in->result))
    return false;
  /* the ballot must be the same in every active lane */
  gcc_jit_lvalue *f[4], *bad = local(j, j->t_u[2]), *fl = local(j, I);
  /* first active lane */
  assign(j, fl, ci(j, I, 0));
  {
    gcc_jit_lvalue *e0 = local(j, U);
    assign(j, e0, top_m(j, 0));
    /* lanes < 64 cover every subgroup size the fast path takes */
    gcc_jit_block *nz = nb(j), *jn = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(e0), ci(j, U, 0)), nz, jn);
    j->b = nz;
    assign(j, fl, ctz64(j, R_(e0)));
    gcc_jit_block_end_with_jump(j->b, NULL, jn);
    j->b = jn;
  }
  for (uint32_t q = 0; q < 4; q++) {
    f[q] = local(j, j->t_u[2]);
    gcc_jit_lvalue *save = j->lane;
    j->lane = fl;
    assign(j, f[q], cast(j, V(j, inst, b, q), j->t_u[2]));
    j->lane = save;
  }
  assign(j, bad, ci(j, j->t_u[2], 0));
  loop_begin(j, &lp);
  for (uint32_t q = 0; q < 4; q++)
    assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[2], R_(bad),
        bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[2], cast(j, MASKV(j), j->t_u[2]),
            bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[2], cast(j, V(j, inst, b, q), j->t_u[2]), R_(f[q])))));
  loop_end(j, &lp);
  gcc_jit_block *join = fast_or_generic(j, inst, in, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool,
      cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, j->t_u[2], 0)), cmp(j, GCC_JIT_COMPARISON_LE, ci(j, I, (long)j->S), ci(j, I, 64))));
  /* per lane: popcount of the bits below the limit (S for reduce) */
  gcc_jit_function *pc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_popcountll");
  gcc_jit_rvalue *bits = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, cast(j, R_(f[0]), U),
                             bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, cast(j, R_(f[1]), U), ci(j, U, 32)));
  gcc_jit_lvalue *bl = local(j, U);
  assign(j, bl, bits);
  if (j->S < 64) assign(j, bl, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(bl), ci(j, U, (long)((1ull << j->S) - 1))));
  if (gop != SpvGroupOperationReduce && j->full && j->S <= 32 && comp_bytes(j->k, ct) == 4 &&
      !getenv("SPIRV_SG_JIT_NO_VSCAN")) {
    /* every lane active, 32-bit counts: all lanes' counts as one vector
     * (the ballot's bits below each lane's limit, counted bitwise in the
     * vector), stored whole.  A lane loop came out of GCC as pieces (lane 0
     * folded, a scalar tail) that a vector read of the result cannot take
     * forwarded from. */
    gcc_jit_type *W = j->t_u[2];
    size_t S = j->S;
    gcc_jit_type *vt = gcc_jit_type_get_vector(W, S);
    gcc_jit_lvalue *bs = local(j, W), *v = local(j, vt);
    assign(j, bs, cast(j, R_(bl), W));
    gcc_jit_rvalue *e[32];
    gcc_jit_rvalue *masks;
    for (size_t l = 0; l < S; l++) {
      uint64_t k = gop == SpvGroupOperationInclusiveScan ? l + 1 : l;
      e[l] = ci(j, W, (long)(uint32_t)((1ull << k) - 1));
    }
    masks = gcc_jit_context_new_rvalue_from_vector(j->cx, NULL, vt, S, e);
    assign(j, v, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, vt, splat(j, vt, S, R_(bs)), masks));
    if (S == 16 && has_flag(j->mflags, "-mavx512vpopcntdq") && !getenv("SPIRV_SG_JIT_NO_VPOPCNT")) {
      /* one AVX512_VPOPCNTDQ instruction for the twelve of the bitwise count */
      gcc_jit_lvalue *c = local(j, vt);
      gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, "vpopcntd %1, %0");
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=v", c);
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(v));
      j->n_stmts++;
      assign(j, v, R_(c));
    } else {
      assign(j, v, bin(j, GCC_JIT_BINARY_OP_MINUS, vt, R_(v), bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, vt,
          bin(j, GCC_JIT_BINARY_OP_RSHIFT, vt, R_(v), splat(j, vt, S, ci(j, W, 1))), splat(j, vt, S, ci(j, W, 0x55555555)))));
      assign(j, v, bin(j, GCC_JIT_BINARY_OP_PLUS, vt, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, vt, R_(v), splat(j, vt, S, ci(j, W, 0x33333333))),
          bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, vt, bin(j, GCC_JIT_BINARY_OP_RSHIFT, vt, R_(v), splat(j, vt, S, ci(j, W, 2))),
              splat(j, vt, S, ci(j, W, 0x33333333)))));
      assign(j, v, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, vt, bin(j, GCC_JIT_BINARY_OP_PLUS, vt, R_(v),
          bin(j, GCC_JIT_BINARY_OP_RSHIFT, vt, R_(v), splat(j, vt, S, ci(j, W, 4)))), splat(j, vt, S, ci(j, W, 0x0f0f0f0f))));
      assign(j, v, bin(j, GCC_JIT_BINARY_OP_RSHIFT, vt, bin(j, GCC_JIT_BINARY_OP_MULT, vt, R_(v), splat(j, vt, S, ci(j, W, 0x01010101))),
          splat(j, vt, S, ci(j, W, 24))));
    }
    gcc_jit_function *mc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_memcpy");
    gcc_jit_rvalue *args[3] = {
        cast(j, gcc_jit_lvalue_get_address(fld(j, value_slot(j, inst, in->result)), NULL), j->t_vp),
        cast(j, gcc_jit_lvalue_get_address(v, NULL), j->t_vp),
        gcc_jit_context_new_rvalue_from_long(j->cx, gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_SIZE_T), (long)(4 * S))};
    gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, mc, 3, args));
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = join;
    return true;
  }
  loop_begin(j, &lp);
  /* below 32 lanes everything fits 32 bits: twice the lanes per vector */
  bool narrow = j->S < 32;
  gcc_jit_type *W = narrow ? j->t_u[2] : U;
  gcc_jit_rvalue *lim = ci(j, W, -1);
  if (gop != SpvGroupOperationReduce) {
    /* inclusive: bits [0, l]; exclusive: [0, l) */
    gcc_jit_rvalue *k = cast(j, L(j), W);
    if (gop == SpvGroupOperationInclusiveScan) k = bin(j, GCC_JIT_BINARY_OP_PLUS, W, k, ci(j, W, 1));
    /* (1 << k) - 1 for k < 64, all ones for k == 64 (k <= S: only when S
     * is 64; below that no select, so the lane loop vectorizes whole) */
    lim = bin(j, GCC_JIT_BINARY_OP_MINUS, W, bin(j, GCC_JIT_BINARY_OP_LSHIFT, W, ci(j, W, 1),
              bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, W, k, ci(j, W, 63))), ci(j, W, 1));
    if (j->S >= 64) lim = sel(j, cmp(j, GCC_JIT_COMPARISON_GE, k, ci(j, W, 64)), ci(j, W, -1), lim, W);
  }
  if (narrow) pc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_popcount");
  gcc_jit_rvalue *a1[1] = {bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, W, cast(j, R_(bl), W), lim)};
  gcc_jit_rvalue *cnt = cast(j, gcc_jit_context_new_call(j->cx, NULL, pc, 1, a1), scal(j, ct));
  gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
  assign(j, r, mblend(j, cnt, R_(r), scal(j, ct)));
  loop_end(j, &lp);
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  return true;
}

/* OpGroupNonUniformElect, BroadcastFirst, AllEqual and RotateKHR (without
 * a cluster size) at subgroup scope.  With every lane active the first
 * active lane is lane 0: Elect is l == 0, BroadcastFirst lane 0's value,
 * AllEqual compares every lane's value with lane 0's (floats with ==, so
 * -0 equals +0 and a NaN nothing; bools by being nonzero; other types by
 * their bits: ip_group_values_equal), and RotateKHR reads lane
 * (l + delta mod S) mod S, its delta the same in every lane
 * (ip_sg_rotate_src).  Any other subgroup runs the handler (its first
 * active lane, its UB reports).  False: not inline. */
bool emit_sg_first(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  jloop lp;
  bool ok = true;
  SpvOp op = in->op;
  uint32_t need = op == SpvOpGroupNonUniformElect ? 1 : op == SpvOpGroupNonUniformRotateKHR ? 3 : 2;
  if (in->n_ops != need || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup || !ok) return false;
  if (!lane_shape(in->type, &ct, &n) || !value_slot(j, inst, in->result)) return false;
  uint32_t x = need > 1 ? in->ops[1] : 0;
  const ld_type *xt = NULL; uint32_t xn = 0;
  if (x && (!gatherable(j, inst, x) || !lane_shape(m->values[x].type, &xt, &xn))) return false;
  if (op == SpvOpGroupNonUniformAllEqual && xt->kind != LD_T_INT && xt->kind != LD_T_FLOAT && xt->kind != LD_T_BOOL)
    return false;
  if (op == SpvOpGroupNonUniformAllEqual && xt->kind == LD_T_FLOAT && xt->width == 16) return false;
  fuse_close(j);
  gcc_jit_rvalue *cond = all_active(j);
  gcc_jit_lvalue *d0 = NULL;
  if (op == SpvOpGroupNonUniformRotateKHR) {
    /* the delta: lane 0's, and the same in every lane */
    const ld_type *dt; uint32_t dn;
    uint32_t d = in->ops[2];
    if (!lane_shape(m->values[d].type, &dt, &dn) || dn != 1 || dt->kind != LD_T_INT) return false;
    gcc_jit_lvalue *bad = local(j, U);
    d0 = lane0_value(j, inst, d);
    assign(j, bad, ci(j, U, 0));
    or_lane_diff(j, inst, d, d0, bad);
    cond = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, cond, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)));
  }
  gcc_jit_block *join = fast_or_generic(j, inst, in, cond);
  gcc_jit_type *T = scal(j, ct);
  if (op == SpvOpGroupNonUniformAllEqual) {
    gcc_jit_lvalue *neq = local(j, j->t_u[0]);
    assign(j, neq, ci(j, j->t_u[0], 0));
    gcc_jit_type *XT = scal(j, xt);
    loop_begin(j, &lp);
    for (uint32_t c = 0; c < xn; c++) {
      gcc_jit_rvalue *a = V(j, inst, x, c), *b0 = gather_v(j, inst, x, c, ci(j, I, 0)), *ne;
      if (xt->kind == LD_T_BOOL)
        ne = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, ci(j, XT, 0))),
                 b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, b0, ci(j, XT, 0))));
      else if (xt->kind == LD_T_FLOAT)   /* !(a == b0) */
        ne = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, a, b0)),
                 ci(j, j->t_u[0], 1));
      else
        ne = b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, b0));
      assign(j, neq, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[0], R_(neq), ne));
    }
    loop_end(j, &lp);
    loop_begin(j, &lp);
    assign(j, res_lv(j, inst, in->result, 0),
           cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[0], R_(neq), ci(j, j->t_u[0], 1)), T));
    loop_end(j, &lp);
  } else {
    gcc_jit_rvalue *src = NULL;
    if (op == SpvOpGroupNonUniformRotateKHR) {
      gcc_jit_lvalue *dm = local(j, U);
      assign(j, dm, bin(j, GCC_JIT_BINARY_OP_MODULO, U, R_(d0), ci(j, U, (long)j->S)));
      loop_begin(j, &lp);
      src = cast(j, bin(j, GCC_JIT_BINARY_OP_MODULO, U, bin(j, GCC_JIT_BINARY_OP_PLUS, U, cast(j, L(j), U), R_(dm)),
                        ci(j, U, (long)j->S)), I);
    } else {
      loop_begin(j, &lp);
    }
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_rvalue *v = op == SpvOpGroupNonUniformElect
          ? cast(j, cmp(j, GCC_JIT_COMPARISON_EQ, L(j), ci(j, I, 0)), T)
          : gather_v(j, inst, x, c, src ? src : ci(j, I, 0));
      assign(j, res_lv(j, inst, in->result, c), v);
    }
    loop_end(j, &lp);
  }
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  return true;
}
