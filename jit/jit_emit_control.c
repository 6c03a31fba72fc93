/* jit_emit_control.c - control flow: the SIMT stack in compiled code
 * (branches, divergence, settle), terminators, returns and OpPhi.
 * See jit.c for the design. */
#include "jit_emit.h"

/* ------------------------------------------------- SIMT stack in compiled code
 *
 * The stack (jit_ctx.stack, sp) and mask[] follow the interpreter's rules:
 * a uniform branch keeps the top entry and jumps straight to the target's
 * label, unless the target is the top entry's reconvergence point; a
 * divergent two-way branch moves the top entry to the reconvergence point (or
 * pops it when it already reconverges there) and pushes the false, then the
 * true side; "settle" pops empty or reconverged entries, writes mask[] from
 * the new top and dispatches on its segment.  Divergent switches call the
 * host (rt_branch). */

/* A bool value as (base, nonzero): c is `base != 0` (nonzero true) or
 * `base == 0` (false) for an integer comparison with the constant 0, else
 * (c, true). */
static uint32_t bool_base(const ld_module *m, uint32_t c, bool *nonzero) {
  *nonzero = true;
  if (c >= m->bound || m->values[c].kind != LD_V_RESULT) return c;
  const ld_insn *in = m->values[c].u.insn;
  if ((in->op != SpvOpINotEqual && in->op != SpvOpIEqual) || in->n_ops != 2) return c;
  for (int q = 0; q < 2; q++) {
    uint32_t k = in->ops[q];
    const ld_value *v = k < m->bound ? &m->values[k] : NULL;
    if (!v || v->kind != LD_V_CONSTANT || !v->type || v->type->kind != LD_T_INT || v->type->size > 8) continue;
    uint64_t x = 0;
    memcpy(&x, v->u.bytes, v->type->size);
    if (x) continue;
    *nonzero = in->op == SpvOpINotEqual;
    return in->ops[1 - q];
  }
  return c;
}

/* Every lane active (sg_kernel_full), at most 64 lanes: the lanes a branch
 * on cond takes are the bits of a Subgroup ballot made earlier in the same
 * block of a predicate that tests the same value against 0 (compact's
 * `ballot(keep)` and `if (keep)`), or their complement: no lane loop.
 * False: no such ballot. */
static bool taken_from_ballot(J *j, uint32_t inst, const ld_insn *br, uint32_t cond, bool sense, gcc_jit_lvalue *tw[2]) {
  const ld_module *m = j->m;
  if (!j->full || j->one_lane || j->S > 64 || !br || !br->block || getenv("SPIRV_SG_JIT_NO_BALLOT_BRANCH"))
    return false;
  bool cz;
  uint32_t cb = bool_base(m, cond, &cz), bal = 0;
  bool flip = false;
  const ld_block *b = br->block;
  for (uint32_t i = 0; i < b->n_insns && &b->insns[i] != br; i++) {
    const ld_insn *in = &b->insns[i];
    bool ok = true;
    if (in->op != SpvOpGroupNonUniformBallot || in->n_ops != 2 || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup ||
        !ok || !in->result)
      continue;
    bool pz;
    if (bool_base(m, in->ops[1], &pz) != cb) continue;
    bal = in->result;
    flip = pz != cz;
  }
  if (!bal) return false;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  fuse_close(j);
  gcc_jit_lvalue *save = j->lane;
  j->lane = local(j, I);
  assign(j, j->lane, ci(j, I, 0));
  gcc_jit_rvalue *w0 = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, cast(j, V(j, inst, bal, 0), U),
                           bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, cast(j, V(j, inst, bal, 1), U), ci(j, U, 32)));
  j->lane = save;
  uint64_t all = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
  gcc_jit_rvalue *allv = cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)all), U);
  for (uint32_t w = 0; w < 2; w++) tw[w] = local(j, U);
  /* cond == sense in lane l iff its ballot bit == (sense != flip) */
  if (sense != flip) assign(j, tw[0], bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, w0, allv));
  else assign(j, tw[0], bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U,
                            gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, w0), allv));
  assign(j, tw[1], ci(j, U, 0));
  return true;
}

/* A lane value as the 32- or 64-byte vectors that hold it outside lane
 * loops, for kcmp: a vector local (J.fmap_vec: the whole subgroup in one
 * vector), a wide field's parts (J.fmap_part), or its lane array read as
 * 64-byte vectors (S = 32; a kernel too large for wide fields); a constant
 * broadcast, of the other operand's shape.  *np parts (at most 4; 0:
 * neither), *esz bytes a lane, *lp lanes a part. */
static bool kcmp_parts(J *j, uint32_t inst, uint32_t id, gcc_jit_rvalue *part[4], uint32_t *np, uint32_t *esz,
                       uint32_t *lp) {
  const ld_value *v = &j->m->values[id];
  if (v->kind == LD_V_CONSTANT) {
    if (!*np || !v->type || v->type->size != *esz || (*esz != 4 && *esz != 8)) return false;
    uint64_t x = 0;
    memcpy(&x, v->u.bytes, *esz);
    gcc_jit_type *E = *esz == 8 ? j->t_u[3] : j->t_u[2];
    uint32_t n = *lp;
    gcc_jit_rvalue *el[16];
    if (n > 16) return false;
    for (uint32_t i = 0; i < n; i++) el[i] = cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)x), E);
    gcc_jit_rvalue *c = gcc_jit_context_new_rvalue_from_vector(j->cx, NULL, gcc_jit_type_get_vector(E, n), n, el);
    for (uint32_t q = 0; q < 4; q++) part[q] = c;
    return true;
  }
  if (shadowed(j, inst, id) || remat(j, inst, id)) return false;
  gcc_jit_field *fl = value_slot(j, inst, id);
  int32_t h = fl ? fidx(j, fl) : -1;
  if (!fl || !v->type || (v->type->kind != LD_T_INT && v->type->kind != LD_T_FLOAT) ||
      (v->type->size != 4 && v->type->size != 8))
    return false;
  uint32_t n = 0, e = v->type->size, l = 64 / e;
  gcc_jit_rvalue *p[4];
  if (wide_h(j, h)) {
    if (j->fmap_np[h] > 4) return false;
    n = j->fmap_np[h];
    for (uint32_t q = 0; q < n; q++) p[q] = R_(j->fmap_part[(size_t)h * WIDE_MAXP + q]);
  } else if (h >= 0 && j->fmap_vec && j->fmap_vec[h]) {
    uint32_t b = j->all_sizes[j->fmap_q[h]];   /* S lanes (vector_local_type) */
    if (b != 32 && b != 64) return false;
    n = 1;
    p[0] = R_(j->fmap_vec[h]);
    l = b / e;
  } else {
    /* the lane array, in its 64-byte pieces (element-aligned reads) */
    uint32_t bytes = j->S * e;
    if (bytes % 64 || bytes / 64 > 4) return false;
    n = bytes / 64;
    gcc_jit_type *vt = gcc_jit_type_get_vector(e == 8 ? j->t_u[3] : j->t_u[2], 64 / e);
    gcc_jit_lvalue *home = fld(j, fl);
    for (uint32_t q = 0; q < n; q++) p[q] = R_(vec_view(j, home, 64 * q, vt));
  }
  if (*np && (*np != n || *esz != e || *lp != l)) return false;
  *np = n;
  *esz = e;
  *lp = l;
  for (uint32_t q = 0; q < 4; q++) part[q] = q < n ? p[q] : NULL;
  return true;
}

/* r = the asm tmpl of a and b (NULL: one operand) with constraint con, into
 * a new local of type K in a mask register (kcmp) */
static gcc_jit_lvalue *kasm(J *j, const char *tmpl, gcc_jit_type *K, const char *con, gcc_jit_rvalue *a,
                            gcc_jit_rvalue *b) {
  gcc_jit_lvalue *r = local(j, K);
  gcc_jit_extended_asm *ea = gcc_jit_block_add_extended_asm(j->b, NULL, tmpl);
  gcc_jit_extended_asm_add_output_operand(ea, NULL, "=Yk", r);
  gcc_jit_extended_asm_add_input_operand(ea, NULL, con, a);
  if (b) gcc_jit_extended_asm_add_input_operand(ea, NULL, con, b);
  j->n_stmts++;
  return r;
}

/* The lanes (bit l: lane l) where bool value cond is true, straight from the
 * vectors its compare reads (kcmp_parts), with AVX-512 compares into mask
 * registers: integer and floating-point compares, and LogicalAnd, Or, Not
 * of them.  A masked loop's exit test at S = 8, 16 and 32 (and a convergent
 * branch's condition at 16): the compare's 0/1 lanes went through a lane
 * array, a pack and a vptestmd before (at S = 32 a scalar pass over the 32
 * lanes, ten instructions each); at S = 8, whose 64-bit values are one
 * 64-byte vector, GCC 12 did that lane loop in 32-byte halves and put the
 * loop's value back together through the stack on every trip (a failed
 * store forwarding).  A local of 16 bits (S <= 16) or 32 (S = 32); NULL: no
 * such form (the lane loop is used).  SPIRV_SG_JIT_NO_KCMP=1: never. */
static gcc_jit_lvalue *kcmp(J *j, uint32_t inst, uint32_t cond, int depth) {
  const ld_value *v = &j->m->values[cond];
  if (depth > 3 || v->kind != LD_V_RESULT || !v->type || v->type->kind != LD_T_BOOL) return NULL;
  const ld_insn *in = v->u.insn;
  bool wide = j->S > 16;
  gcc_jit_type *K = wide ? j->t_u[2] : j->t_u[1];
  if (in->op == SpvOpLogicalAnd || in->op == SpvOpLogicalOr || in->op == SpvOpLogicalNot) {
    if (in->n_ops < (in->op == SpvOpLogicalNot ? 1u : 2u)) return NULL;
    gcc_jit_lvalue *a = kcmp(j, inst, in->ops[0], depth + 1);
    gcc_jit_lvalue *b = a && in->op != SpvOpLogicalNot ? kcmp(j, inst, in->ops[1], depth + 1) : NULL;
    if (!a || (in->op != SpvOpLogicalNot && !b)) return NULL;
    return kasm(j, in->op == SpvOpLogicalAnd ? (wide ? "kandd %2, %1, %0" : "kandw %2, %1, %0")
                   : in->op == SpvOpLogicalOr ? (wide ? "kord %2, %1, %0" : "korw %2, %1, %0")
                   : (wide ? "knotd %1, %0" : "knotw %1, %0"),
                K, "Yk", R_(a), b ? R_(b) : NULL);
  }
  /* the predicate (vpcmp's or vcmpp's immediate) and the mnemonic */
  int imm = -1;
  bool isf = false, uns = false;
  switch (in->op) {
  case SpvOpIEqual: imm = 0; break;
  case SpvOpINotEqual: imm = 4; break;
  case SpvOpULessThan: imm = 1; uns = true; break;
  case SpvOpULessThanEqual: imm = 2; uns = true; break;
  case SpvOpUGreaterThan: imm = 6; uns = true; break;
  case SpvOpUGreaterThanEqual: imm = 5; uns = true; break;
  case SpvOpSLessThan: imm = 1; break;
  case SpvOpSLessThanEqual: imm = 2; break;
  case SpvOpSGreaterThan: imm = 6; break;
  case SpvOpSGreaterThanEqual: imm = 5; break;
  /* ordered: false where either is NaN; unordered: true there */
  case SpvOpFOrdEqual: imm = 0x00; isf = true; break;
  case SpvOpFOrdNotEqual: imm = 0x0c; isf = true; break;
  case SpvOpFOrdLessThan: imm = 0x11; isf = true; break;
  case SpvOpFOrdLessThanEqual: imm = 0x12; isf = true; break;
  case SpvOpFOrdGreaterThan: imm = 0x1e; isf = true; break;
  case SpvOpFOrdGreaterThanEqual: imm = 0x1d; isf = true; break;
  case SpvOpFUnordEqual: imm = 0x08; isf = true; break;
  case SpvOpFUnordNotEqual: imm = 0x04; isf = true; break;
  case SpvOpFUnordLessThan: imm = 0x19; isf = true; break;
  case SpvOpFUnordLessThanEqual: imm = 0x1a; isf = true; break;
  case SpvOpFUnordGreaterThan: imm = 0x16; isf = true; break;
  case SpvOpFUnordGreaterThanEqual: imm = 0x15; isf = true; break;
  default: return NULL;
  }
  if (in->n_ops < 2) return NULL;
  gcc_jit_rvalue *a[4], *b[4];
  uint32_t np = 0, esz = 0, lp = 0;   /* parts, bytes a lane, lanes a part */
  /* a constant takes the other operand's shape: the lane value first */
  bool ca = j->m->values[in->ops[0]].kind == LD_V_CONSTANT;
  if (!kcmp_parts(j, inst, in->ops[ca ? 1 : 0], ca ? b : a, &np, &esz, &lp)) return NULL;
  if (!kcmp_parts(j, inst, in->ops[ca ? 0 : 1], ca ? a : b, &np, &esz, &lp)) return NULL;
  const ld_type *ot = j->m->values[in->ops[ca ? 1 : 0]].type;
  if ((ot->kind == LD_T_FLOAT) != isf || np * lp != j->S || (lp != 8 && lp != 16)) return NULL;
  char tmpl[64];
  if (!isf) snprintf(tmpl, sizeof tmpl, "vpcmp%s%c $%d, %%2, %%1, %%0", uns ? "u" : "", esz == 8 ? 'q' : 'd', imm);
  else snprintf(tmpl, sizeof tmpl, "vcmpp%c $%d, %%2, %%1, %%0", esz == 8 ? 'd' : 's', imm);
  gcc_jit_lvalue *k[4];
  uint32_t bits = lp;
  for (uint32_t q = 0; q < np; q++) k[q] = kasm(j, tmpl, K, "v", a[q], b[q]);
  /* pairs of parts into one: the second's lanes above the first's */
  while (np > 1) {
    for (uint32_t q = 0; q < np / 2; q++)
      k[q] = kasm(j, bits == 8 ? "kunpckbw %1, %2, %0" : "kunpckwd %1, %2, %0", K, "Yk", R_(k[2 * q]), R_(k[2 * q + 1]));
    np /= 2;
    bits *= 2;
  }
  return k[0];
}

/* The active lanes whose condition cond is true (sense) or false, as two
 * mask words (locals); br: the branch (or NULL). */
static void taken_words(J *j, uint32_t inst, const ld_insn *br, uint32_t cond, bool sense, gcc_jit_lvalue *tw[2]) {
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  if (taken_from_ballot(j, inst, br, cond, sense, tw)) return;
  for (uint32_t w = 0; w < 2; w++) {
    tw[w] = local(j, U);
    assign(j, tw[w], ci(j, U, 0));
  }
  if ((j->cur_tw ? (j->S == 8 || j->S == 16 || j->S == 32) && !j->one_lane : vec_kmask_ok(j)) &&
      has_flag(j->mflags, "-mavx512f") && has_flag(j->mflags, "-mavx512vl") &&
      (j->S <= 16 || has_flag(j->mflags, "-mavx512bw")) && !getenv("SPIRV_SG_JIT_NO_KCMP")) {
    fuse_close(j);   /* the operands' lane loops done (the other paths close it too) */
    gcc_jit_lvalue *kw = kcmp(j, inst, cond, 0);
    if (kw) {
      gcc_jit_rvalue *w = cast(j, R_(kw), U);
      if (!sense) w = gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, w);
      uint64_t all = (1ull << j->S) - 1;
      w = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, w, j->cur_tw ? R_(j->cur_tw) : ci(j, U, (long)all));
      assign(j, tw[0], w);
      return;
    }
  }
  if (vec_kmask_ok(j)) {
    /* as the ballot: one vptestmd (the shifted lanes' OR reduction was 12
     * instructions and a long chain before the head's branch: a bounds
     * guard `if (i < n)`) */
    assign(j, tw[0], cast(j, R_(pred_kmask16(j, inst, cond, sense)), U));
    return;
  }
  if (j->cur_tw && j->S == 16 && !j->one_lane && has_flag(j->mflags, "-mavx512f") && !getenv("SPIRV_SG_JIT_NO_VEC_BALLOT")) {
    /* the same under the lanes' word (a masked loop's exit) */
    assign(j, tw[0], bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, R_(pred_kmask16(j, inst, cond, sense)), U),
                         R_(j->cur_tw)));
    return;
  }
  for (uint32_t w = 0; w < n_words(j); w++) {
    loop_range(j, &lp, 64 * w, j->S < 64 * w + 64 ? j->S : 64 * w + 64);
    gcc_jit_rvalue *t = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, MASKV(j), U),
                            cast(j, cmp(j, sense ? GCC_JIT_COMPARISON_NE : GCC_JIT_COMPARISON_EQ,
                                        V(j, inst, cond, 0), ci(j, j->t_u[0], 0)), U));
    gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, L(j), ci(j, j->t_i32, 64 * w)), U);
    assign(j, tw[w], bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(tw[w]), bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, t, sh)));
    loop_end(j, &lp);
  }
}

/* Whether if-converted then-block T keeps its lanes as one scalar word
 * (J.ifc_tw) instead of rewriting mask[]: a convergent kernel, at most 64
 * lanes, T a whole block of its own that ends in an unconditional branch
 * (no if-converted block inside it).  compact's `if (keep)` and `if (lane
 * == 0)` rebuilt mask[] at the head and restored it at the end, on every
 * subgroup.  SPIRV_SG_JIT_NO_IFC_SCALAR keeps mask[]. */
bool ifc_scalar(J *j, int32_t T) {
  const jit_kernel *k = j->k;
  const jit_seg *s = &k->seg[T];
  if (!k->conv || !ifc_arm_kind(s->ifc) || j->S > 64 || s->first != 0 || !s->blk || !s->blk->n_insns ||
      s->blk->insns[s->blk->n_insns - 1].op != SpvOpBranch || getenv("SPIRV_SG_JIT_NO_IFC_SCALAR"))
    return false;
  for (uint32_t q = 0; q < k->n_seg; q++)
    if ((int32_t)q != T && k->seg[q].blk == s->blk && k->seg[q].inst == s->inst) return false;
  return true;
}
gcc_jit_lvalue *ifc_tw_local(J *j, int32_t T) {
  if (!j->ifc_tw[T]) j->ifc_tw[T] = local(j, j->t_u[3]);
  return j->ifc_tw[T];
}
/* The word of the lanes still in masked loop ml (jit_seg.mloop, 1-based):
 * the header's ifc_tw, which no then-block uses. */
gcc_jit_lvalue *mloop_word(J *j, uint8_t ml) { return ifc_tw_local(j, j->k->mloops[ml - 1].h); }
/* The lanes that entered masked loop ml (its exit chain runs under them). */
static gcc_jit_lvalue *mloop_entered(J *j, uint8_t ml) {
  if (!j->mlew[ml - 1]) j->mlew[ml - 1] = local(j, j->t_u[3]);
  return j->mlew[ml - 1];
}
gcc_jit_lvalue *mloop_mv(J *j, uint8_t ml) {
  if (j->S != 4 && j->S != 8 && j->S != 16) return NULL;
  if (!j->mlmv[ml - 1]) j->mlmv[ml - 1] = local(j, gcc_jit_type_get_vector(j->t_i32, j->S));
  return j->mlmv[ml - 1];
}
/* The loop's lanes become word: the word, its vector (mloop_mv). */
void mloop_set(J *j, uint8_t ml, gcc_jit_rvalue *word) {
  gcc_jit_lvalue *w = mloop_word(j, ml), *mv = mloop_mv(j, ml);
  assign(j, w, word);
  if (!mv) return;
  gcc_jit_type *at = gcc_jit_context_new_array_type(j->cx, NULL, j->t_i32, (int)j->S);
  jloop lp;
  loop_begin(j, &lp);
  gcc_jit_lvalue *e = gcc_jit_context_new_array_access(j->cx, NULL,
      gcc_jit_lvalue_as_rvalue(gcc_jit_rvalue_dereference(gcc_jit_context_new_cast(j->cx, NULL,
          gcc_jit_lvalue_get_address(mv, NULL), gcc_jit_type_get_pointer(at)), NULL)), L(j));
  assign(j, e, cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[2],
                           bin(j, GCC_JIT_BINARY_OP_RSHIFT, j->t_u[2], cast(j, R_(w), j->t_u[2]),
                               cast(j, L(j), j->t_u[2])), ci(j, j->t_u[2], 1)), j->t_i32));
  loop_end(j, &lp);
}
/* mask[] of the heap frame from J.cur_tw (spill: a host call reads it) or
 * J.cur_tw from it (fill: the host rewrote it). */
void ifc_tw_xfer(J *j, bool spill) {
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_lvalue *tw = j->cur_tw;
  jloop lp;
  if (!spill) assign(j, tw, ci(j, U, 0));
  loop_begin(j, &lp);
  gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_i32, L(j), ci(j, j->t_i32, 63)), U);
  gcc_jit_lvalue *h = gcc_jit_context_new_array_access(j->cx, NULL, R_(hfld(j, j->f_mask)), L(j));
  if (spill)
    assign(j, h, cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(tw), sh),
                             ci(j, U, 1)), j->t_i32));
  else
    assign(j, tw, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(tw),
                      bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, cast(j, cmp(j, GCC_JIT_COMPARISON_NE, R_(h), ci(j, j->t_i32, 0)), U), sh)));
  loop_end(j, &lp);
  if (!spill && j->cur_mv) {   /* a masked loop's vector too */
    uint8_t ml = j->cur_seg >= 0 ? j->k->seg[j->cur_seg].mloop : 0;
    if (ml) mloop_set(j, ml, R_(tw));
  }
}

/* The local holding the mask[] an if-converted then-block (segment T)
 * restores at its end. */
static void ifc_saved(J *j, int32_t T) {
  if (!j->ifc_mask[T]) j->ifc_mask[T] = local(j, j->all_types[0]);   /* mask[]'s type */
}

/* The lane index an if-converted then-block (segment si) runs at most, if
 * its head branches to it on `lid == K` (or away on `lid != K`), lid the
 * SubgroupLocalInvocationId built-in and K a constant below S: lane l's lid
 * is l, so only lane K can take it.  -1: no such bound. */
int64_t ifc_lane_bound(J *j, int32_t si) {
  const ld_module *m = j->m;
  const ld_block *T = j->k->seg[si].blk;
  if (!j->k->conv || j->k->seg[si].ifc != IFC_THEN || getenv("SPIRV_SG_JIT_NO_ONE_LANE")) return -1;
  if (!T || T->n_preds != 1) return -1;
  const ld_block *h = T->preds[0];
  const ld_insn *t = &h->insns[h->n_insns - 1];
  if (t->op != SpvOpBranchConditional || t->n_ops < 3 || t->ops[0] >= m->bound) return -1;
  bool on_true = t->ops[1] == T->label;
  const ld_value *cv = &m->values[t->ops[0]];
  if (cv->kind != LD_V_RESULT) return -1;
  const ld_insn *c = cv->u.insn;
  if (!((c->op == SpvOpIEqual && on_true) || (c->op == SpvOpINotEqual && !on_true)) || c->n_ops < 2) return -1;
  for (int q = 0; q < 2; q++) {
    uint32_t x = c->ops[q], kid = c->ops[1 - q];
    if (x >= m->bound || kid >= m->bound || m->values[kid].kind != LD_V_CONSTANT) continue;
    const ld_value *xv = &m->values[x];
    if (xv->kind != LD_V_RESULT || xv->u.insn->op != SpvOpLoad || xv->u.insn->ops[0] >= m->bound) continue;
    const ld_value *pv = &m->values[xv->u.insn->ops[0]];
    if (pv->kind != LD_V_VARIABLE || pv->u.var->storage != SpvStorageClassInput ||
        pv->u.var->builtin != SpvBuiltInSubgroupLocalInvocationId)
      continue;
    const ld_type *kt = m->values[kid].type;
    if (!kt || kt->kind != LD_T_INT || kt->size > 8) return -1;
    uint64_t K = 0;
    memcpy(&K, m->values[kid].u.bytes, kt->size);
    return K < j->S ? (int64_t)K : -1;
  }
  return -1;
}
/* Then-block T keeps its lanes as one word (ifc_scalar) in sg_kernel_full
 * of a lean-stack kernel without step counting, and its instructions are
 * plain arithmetic, access chains, loads, stores and ballot bit counts: no
 * entry is pushed for it, nor popped at its end.  Its code reads the top
 * entry's mask through top_m (J.vtop0: the word), and no helper it may call
 * reads the stack's masks (the per-lane accesses name their lane, rt_ldst
 * reads mask[], which ifc_tw_xfer writes from the word; rt_interp's live
 * lanes, the union of the entries, are every lane either way).  reduce's
 * `if (lane == 0) out[i / 16] = s`, compact's `if (keep) out[..] = x`.
 * SPIRV_SG_JIT_IFC_PUSH=1 pushes every such entry, SPIRV_SG_JIT_IFC_PUSH_MANY=1
 * those of blocks that more than one lane (lid == K) may take. */
bool ifc_no_push(J *j, int32_t T) {
  const jit_kernel *k = j->k;
  if (!k->lean_stack || !k->no_steps || !j->in_full || getenv("SPIRV_SG_JIT_IFC_PUSH") || !ifc_scalar(j, T) ||
      (ifc_lane_bound(j, T) < 0 && getenv("SPIRV_SG_JIT_IFC_PUSH_MANY")))
    return false;
  const ld_block *b = k->seg[T].blk;
  for (uint32_t i = 0; i < b->n_insns; i++) {
    const ld_insn *in = &b->insns[i];
    switch (in->op) {
    case SpvOpLoad: case SpvOpStore:
      if (handle_ldst(j->m, in)) return false;
      break;
    case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpBranch:
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
    case SpvOpShiftLeftLogical: case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast: case SpvOpCompositeExtract:
    case SpvOpGroupNonUniformBallotBitCount:   /* its first active lane from top_m */
      break;
    default:
      return false;
    }
  }
  return true;
}

/* The entry of then-block T's whole-subgroup copy (J.ifc_full), or NULL:
 * only in sg_kernel_full (the head's lanes are then every lane), for a
 * block any lane may take (not `lid == K`) of at most IFC_FULL_MAX
 * instructions and no atomic (the copy is compiled code once more).
 * SPIRV_SG_JIT_NO_IFC_FULL=1: no copy. */
enum { IFC_FULL_MAX = 48 };
gcc_jit_block *ifc_full_entry(J *j, int32_t T) {
  const jit_seg *s = &j->k->seg[T];
  if (!j->full || !j->in_full || !j->ifc_full || j->S > 64 || ifc_lane_bound(j, T) >= 0 || !s->blk ||
      s->blk->n_insns - s->first > IFC_FULL_MAX || getenv("SPIRV_SG_JIT_NO_IFC_FULL"))
    return NULL;
  for (uint32_t i = s->first; i < s->blk->n_insns; i++) {
    /* straight code: no call, barrier or collective; and no atomic, whose
     * paths (vector, plain, locked, deferred, per lane) are the most code
     * of any instruction: hist's `if (lh[lid]) atomic_add(...)`, which
     * whole subgroups almost never take, compiled 7% longer with a copy */
    const ld_insn *in = &s->blk->insns[i];
    if (in->op == SpvOpFunctionCall || in->op == SpvOpControlBarrier || wg_scoped(j->m, in) ||
        (in->op >= SpvOpAtomicLoad && in->op <= SpvOpAtomicXor))
      return NULL;
  }
  if (!j->ifc_full[T]) j->ifc_full[T] = nb(j);
  return j->ifc_full[T];
}

void ifc_one_lane(J *j, int32_t si) {
  j->one_lane = NULL;
  int64_t l = ifc_lane_bound(j, si);
  if (l >= 0) j->one_lane = ci(j, j->t_i32, (long)l);
}

static bool phis_uniform_edge(J *j, uint32_t inst, const ld_block *blk, uint32_t label);
/* Continue at segment T with the current lanes. */
static void go_seg(J *j, int32_t T) {
  if (j->k->conv) {   /* no reconvergence entries: the top is the kernel's (rpc -1) */
    const jit_seg *t = &j->k->seg[T];
    int32_t from = j->br_seg;
    const jit_seg *fs = from >= 0 ? &j->k->seg[from] : NULL;
    /* masked regions (jit_kernel.mloops): leaving each one T lies outside
     * (T is its exit block: every lane still in it leaves, its entry goes,
     * and mask[], never rewritten in a region, is the lanes that entered),
     * entering a loop's exit chain, entering a region at its header */
    uint8_t r = fs ? fs->mloop : 0;
    while (r && !ml_in(j->k, r, T)) {
      assign(j, cfl(j, j->c_sp), bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, SP(j), ci(j, j->t_i32, 1)));
      r = j->k->mloops[r - 1].parent;
    }
    if (r && j->k->mloops[r - 1].xe == T && j->k->mloops[r - 1].xe != j->k->mloops[r - 1].x) {
      /* every lane still in the loop leaves it for its exit chain, which
       * runs under the lanes that entered */
      gcc_jit_rvalue *ew = R_(mloop_entered(j, r));
      mloop_set(j, r, ew);
      assign(j, ent_m(j, top_e(j), 0), ew);
    }
    if (fs && t->mloop && j->k->mloops[t->mloop - 1].h == T && !ml_in(j->k, t->mloop, from)) {
      /* into a masked region: its word is the lanes here (a guard's taken
       * lanes; the enclosing region's word), held by an entry that
       * reconverges at its exit block (the interpreter's, once a lane has
       * left) */
      gcc_jit_type *U = j->t_u[3];
      gcc_jit_lvalue *lw = mloop_word(j, t->mloop);
      uint64_t fm = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
      mloop_set(j, t->mloop, j->ml_enter ? j->ml_enter
                             : r ? R_(mloop_word(j, r))
                             : j->full ? cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)fm), U)
                             : j->cur_tw ? R_(j->cur_tw) : top_m(j, 0));
      if (j->k->mloops[t->mloop - 1].xe != j->k->mloops[t->mloop - 1].x)
        assign(j, mloop_entered(j, t->mloop), R_(lw));
      stack_room(j, from, 1);
      push_entry(j, T, j->k->mloops[t->mloop - 1].x, R_(lw), ci(j, U, 0));
    }
    if (j->phi_done && j->phi_done[T] && from >= 0 && j->k->seg[from].ifc == IFC_NONE && !j->in_ifc_full &&
        j->k->seg[from].inst == t->inst) {
      /* this edge's phi copies, past the test of pred (J.phi_done) */
      if (phis_uniform_edge(j, t->inst, t->blk, j->k->seg[from].blk->label)) {
        gcc_jit_block_end_with_jump(j->b, NULL, j->phi_done[T]);
        return;
      }
    }
    gcc_jit_block_end_with_jump(j->b, NULL, j->segb[T]);
    return;
  }
  gcc_jit_block *direct = nb(j), *rec = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(ent_f(j, top_e(j), j->e_rpc)),
                                                      ci(j, j->t_i32, T)), direct, rec);
  gcc_jit_block_end_with_jump(direct, NULL, j->segb[T]);
  j->b = rec;
  assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, T));
  gcc_jit_block_end_with_jump(j->b, NULL, j->settle);
}

/* The segment whose phis a branch to segment t feeds: past an empty
 * bridge block (IFC_BRIDGE), the reconvergence point, where the lanes that
 * skip the then-block go. */
static const jit_seg *phi_target(J *j, int32_t t) {
  const jit_seg *s = &j->k->seg[t];
  return s->ifc == IFC_BRIDGE && s->n_succ == 1 ? &j->k->seg[s->succ[0]] : s;
}
/* Only lane 0's pred[] is read after segment seg's branch: every lane
 * takes it (sg_kernel_full) and no target's phis read other lanes' (those
 * of a block an if-converted block enters: phis_uniform). */
static bool pred_lane0_only(J *j, int32_t seg) {
  if (!j->full || !j->k->conv) return false;
  const jit_seg *sg = &j->k->seg[seg];
  for (int q = 0; q < sg->n_succ; q++) {
    const jit_seg *t = phi_target(j, sg->succ[q]);
    if (t->first == 0 && t->blk->n_phis && !phis_uniform(j, t->inst, t->blk)) return false;
  }
  return true;
}
/* No target of segment seg's branch starts a block with phis, in a
 * convergent kernel: its lanes go where its branches send them (no settle),
 * so pred[] is written again before any phi reads it. */
static bool no_phi_target(J *j, int32_t seg) {
  if (!j->k->conv || getenv("SPIRV_SG_JIT_PRED_ALWAYS")) return false;
  const jit_seg *sg = &j->k->seg[seg];
  for (int q = 0; q < sg->n_succ; q++) {
    const jit_seg *t = phi_target(j, sg->succ[q]);
    if (t->first == 0 && t->blk->n_phis) return false;
  }
  return true;
}
/* A masked loop's exit branch in sg_kernel_full whose other target reads
 * pred0 alone (phis_uniform, or no phis): only the leavers' pred[] is
 * written, where they leave (emit_terminator), not every lane's on every
 * trip.  SPIRV_SG_JIT_MLOOP_PRED_ALL=1: every trip. */
static bool mloop_leaver_pred(J *j, int32_t seg) {
  const jit_seg *sg = &j->k->seg[seg];
  if (!j->pred0 || !j->k->conv || !sg->mloop || sg->n_succ != 2 || getenv("SPIRV_SG_JIT_MLOOP_PRED_ALL")) return false;
  int32_t xe = j->k->mloops[sg->mloop - 1].xe;
  if (sg->succ[0] != xe && sg->succ[1] != xe) return false;
  const jit_seg *t = phi_target(j, sg->succ[sg->succ[0] == xe ? 1 : 0]);
  return !(t->first == 0 && t->blk->n_phis) || phis_uniform(j, t->inst, t->blk);
}
/* pred[] = seg in the lanes of word w (a masked loop's leavers). */
static void pred_of_word(J *j, int32_t seg, gcc_jit_rvalue *w) {
  jloop lp;
  gcc_jit_type *U = j->t_u[3];
  loop_begin(j, &lp);
  gcc_jit_lvalue *p = lane_arr(j, j->f_pred, L(j));
  gcc_jit_rvalue *bit = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U,
                            bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, w, cast(j, L(j), U)), ci(j, U, 1));
  assign(j, p, blend_by(j, cast(j, bit, j->t_i32), ci(j, j->t_i32, seg), R_(p), j->t_i32));
  loop_end(j, &lp);
}
/* Every branch: active lanes remember the segment (for OpPhi) unless no
 * target has phis; the branch counts toward the step limit (rt_limit checks
 * it, and the time limit), except in a kernel without loops (k->no_steps:
 * rt_wg checks the time). */
static void branch_prologue(J *j, int32_t seg) {
  jloop lp;
  if (j->pred0 && !no_phi_target(j, seg)) assign(j, j->pred0, ci(j, j->t_i32, seg));
  if (no_phi_target(j, seg) || mloop_leaver_pred(j, seg)) {
    /* nothing to record */
  } else if (pred_lane0_only(j, seg)) {
    if (!j->pred0) assign(j, arr_at(j, R_(fld(j, j->f_pred)), 0), ci(j, j->t_i32, seg));
  } else {
    loop_begin(j, &lp);
    gcc_jit_lvalue *p = lane_arr(j, j->f_pred, L(j));
    assign(j, p, mblend(j, ci(j, j->t_i32, seg), R_(p), j->t_i32));
    loop_end(j, &lp);
  }
  if (j->k->no_steps) return;   /* no loops: the limit is out of reach (jit.c) */
  gcc_jit_block *lim = nb(j), *go = nb(j), *stop = nb(j);
  if (j->left) {   /* the count in a local (J.left) */
    assign(j, j->left, bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_s[3], R_(j->left), ci(j, j->t_s[3], 1)));
    gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, cmp(j, GCC_JIT_COMPARISON_LE, R_(j->left), ci(j, j->t_s[3], 0)), false),
                                       lim, go);
  } else {
    gcc_jit_lvalue *st = cfl(j, j->c_steps);
    assign(j, st, bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_u[3], R_(st), ci(j, j->t_u[3], 1)));
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_GE, R_(st), ctxf(j, j->c_step_check)), lim, go);
  }
  j->b = lim;
  if (j->scheck) {
    /* the fast path: steps in a register to rt_limit_check, through an asm
     * that touches no memory; it answers the next check or 0.  At 0 an
     * ordinary call of rt_limit (which sees this subgroup's state in memory:
     * its SIMT stack for the fault's lanes) records the fault, and the
     * function returns, so no value lives across that call. */
    gcc_jit_type *U = j->t_u[3];
    gcc_jit_lvalue *steps = local(j, U);
    assign(j, steps, bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(j->scheck), cast(j, R_(j->left), U)));
    gcc_jit_rvalue *a2[2] = {j->c, R_(steps)};
    gcc_jit_lvalue *nx = pa_asm(j, ctxf(j, j->c_limit_check), 2, a2, false);
    gcc_jit_block *more = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, expect(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(nx), ci(j, j->t_s[3], 0)), false),
                                       stop, more);
    gcc_jit_block_add_assignment(more, NULL, j->scheck, cast(j, R_(nx), U));
    gcc_jit_block_add_assignment(more, NULL, j->left, cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, U, R_(j->scheck), R_(steps)), j->t_s[3]));
    gcc_jit_block_end_with_jump(more, NULL, go);
    steps_store(j, stop);
    host_mark_in(j, stop);
    gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, seg)};
    gcc_jit_block_add_eval(stop, NULL, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_limit), 3, args));
    ret_done(j, stop);
    j->b = go;
    return;
  }
  steps_store(j, j->b);
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, seg)};
  host_mark(j);
  gcc_jit_rvalue *rc = host_call(j, j->c_limit, 3, args, true, true);
  gcc_jit_block *more = j->left ? nb(j) : go;
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, rc, ci(j, j->t_i32, 0)), stop, more);
  ret_done(j, stop);
  if (j->left) {   /* rt_limit moved step_check */
    steps_load(j, more);
    gcc_jit_block_end_with_jump(more, NULL, go);
  }
  j->b = go;
}

/* Fails the launch when fewer than `need` stack entries are free. */
void stack_room(J *j, int32_t seg, int need) {
  gcc_jit_block *full = nb(j), *go = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_GT,
      bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, SP(j), ci(j, j->t_i32, need)), ci(j, j->t_i32, JIT_MAX_STACK)), full, go);
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, seg)};
  host_mark_in(j, full);
  gcc_jit_block_add_eval(full, NULL, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_overflow), 3, args));
  ret_done(j, full);
  j->b = go;
}

/* The stack as a subgroup starts: one entry, its lanes at the kernel's
 * entry segment (reconverging nowhere). */
void stack_base(J *j) {
  gcc_jit_lvalue *e0 = stack_at(j, ci(j, j->t_i32, 0));
  assign(j, ent_f(j, e0, j->e_pc), ci(j, j->t_i32, j->k->inst[0].block_seg[0]));
  assign(j, ent_f(j, e0, j->e_rpc), ci(j, j->t_i32, -1));
  assign(j, ent_m(j, e0, 0), R_(arr_at(j, ctxf(j, j->c_all), 0)));
  assign(j, ent_m(j, e0, 1), R_(arr_at(j, ctxf(j, j->c_all), 1)));
  assign(j, cfl(j, j->c_sp), ci(j, j->t_i32, 1));
}

void push_entry(J *j, int32_t pc, int32_t rpc, gcc_jit_rvalue *m0, gcc_jit_rvalue *m1) {
  gcc_jit_lvalue *e = stack_at(j, SP(j));
  assign(j, ent_f(j, e, j->e_pc), ci(j, j->t_i32, pc));
  assign(j, ent_f(j, e, j->e_rpc), ci(j, j->t_i32, rpc));
  assign(j, ent_m(j, e, 0), m0);
  assign(j, ent_m(j, e, 1), m1);
  assign(j, cfl(j, j->c_sp), bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, SP(j), ci(j, j->t_i32, 1)));
}

/* The settle block: pop, write mask[], dispatch on the top's segment. */
void emit_settle(J *j) {
  gcc_jit_block *disp = j->segb[j->k->n_seg];
  gcc_jit_block *chk = nb(j), *pop = nb(j), *wr = nb(j), *done = nb(j), *chk2 = nb(j);
  gcc_jit_block_end_with_conditional(j->settle, NULL, cmp(j, GCC_JIT_COMPARISON_LE, SP(j), ci(j, j->t_i32, 0)), done, chk);
  if (j->k->lean_stack) {
    /* the next subgroup finds its stack as rt_wg set it (jit_kernel.lean_stack) */
    gcc_jit_block *b = j->b;
    j->b = done;
    stack_base(j);
    j->b = b;
  }
  ret_done(j, done);
  j->b = chk;
  gcc_jit_rvalue *any = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[3], top_m(j, 0), top_m(j, 1));
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, any, ci(j, j->t_u[3], 0)), pop, chk2);
  gcc_jit_block_end_with_conditional(chk2, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_f(j, top_e(j), j->e_pc)),
                                                     R_(ent_f(j, top_e(j), j->e_rpc))), pop, wr);
  j->b = pop;
  assign(j, cfl(j, j->c_sp), bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, SP(j), ci(j, j->t_i32, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, j->settle);
  j->b = wr;
  for (uint32_t w = 0; w < n_words(j); w++) {
    gcc_jit_lvalue *mw = local(j, j->t_u[3]);
    assign(j, mw, top_m(j, (int)w));
    jloop lp;
    loop_range(j, &lp, 64 * w, j->S < 64 * w + 64 ? j->S : 64 * w + 64);
    gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, L(j), ci(j, j->t_i32, 64 * w)), j->t_u[3]);
    assign(j, lane_arr(j, j->f_mask, L(j)),
           cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[3], bin(j, GCC_JIT_BINARY_OP_RSHIFT, j->t_u[3], R_(mw), sh),
                       ci(j, j->t_u[3], 1)), j->t_i32));
    loop_end(j, &lp);
  }
  assign(j, j->next, R_(ent_f(j, top_e(j), j->e_pc)));
  gcc_jit_block_end_with_jump(j->b, NULL, disp);
}

/* The top entry's lanes leave stack entries [first, sp) (a return from an
 * instance, or lanes that terminate); then settle. */
static void leave_lanes(J *j, gcc_jit_rvalue *first) {
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_lvalue *a0 = local(j, U), *a1 = local(j, U), *i = local(j, j->t_i32);
  assign(j, a0, gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, top_m(j, 0)));
  assign(j, a1, gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, top_m(j, 1)));
  assign(j, i, first);
  gcc_jit_block *cond = nb(j), *body = nb(j);
  gcc_jit_block_end_with_jump(j->b, NULL, cond);
  gcc_jit_block_end_with_conditional(cond, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(i), SP(j)), body, j->settle);
  j->b = body;
  gcc_jit_lvalue *e = stack_at(j, R_(i));
  assign(j, ent_m(j, e, 0), bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(ent_m(j, e, 0)), R_(a0)));
  assign(j, ent_m(j, e, 1), bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(ent_m(j, e, 1)), R_(a1)));
  assign(j, i, bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, R_(i), ci(j, j->t_i32, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, cond);
}

/* The else-block (IFC_ELSE) of then-block T's head, or -1. */
static int32_t ifc_else_of(J *j, int32_t T) {
  const jit_seg *s = &j->k->seg[T];
  if (s->ifc != IFC_THEN || !s->blk || s->blk->n_preds != 1) return -1;
  int32_t h = j->k->inst[s->inst].term_seg[s->blk->preds[0]->index];
  if (h < 0 || j->k->seg[h].ifc != IFC_HEAD) return -1;
  int32_t E = j->k->seg[h].succ[1 - j->k->seg[h].ifc_then];
  return j->k->seg[E].ifc == IFC_ELSE ? E : -1;
}
static gcc_jit_lvalue *ifc_etw_local(J *j, int32_t E, uint32_t w) {
  if (!j->ifc_etw[2 * E + w]) j->ifc_etw[2 * E + w] = local(j, j->t_u[3]);
  return j->ifc_etw[2 * E + w];
}

/* Enter if-converted block T (then- or else-block) from segment seg with
 * the lanes of the words tw0, tw1 (some lane), which run it under their
 * mask (a stack entry and mask[], as the interpreter's stack would hold
 * them: the head's entry keeps every lane live) and then go on at rpc, the
 * reconvergence point.  may_whole: when tw0 is every lane, T's copy
 * without a mask (ifc_full_entry) may run instead. */
static void ifc_enter(J *j, int32_t seg, int32_t T, int32_t rpc, gcc_jit_rvalue *tw0, gcc_jit_rvalue *tw1,
                      bool may_whole) {
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  gcc_jit_block *whole = may_whole ? ifc_full_entry(j, T) : NULL;
  if (whole) {   /* every lane takes it: the copy without a mask */
    uint64_t fm = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
    gcc_jit_block *part = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, tw0,
        cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)fm), U)), whole, part);
    j->b = part;
  }
  if (ifc_scalar(j, T)) {   /* T's lanes as one word; mask[] untouched */
    assign(j, ifc_tw_local(j, T), tw0);
    if (!ifc_no_push(j, T)) {
      stack_room(j, seg, 1);
      push_entry(j, T, rpc, tw0, tw1);
    }
    go_seg(j, T);
    return;
  }
  ifc_saved(j, T);
  assign(j, j->ifc_mask[T], R_(fld(j, j->f_mask)));
  stack_room(j, seg, 1);
  push_entry(j, T, rpc, tw0, tw1);
  loop_begin(j, &lp);
  gcc_jit_rvalue *word = j->S > 64 ? sel(j, cmp(j, GCC_JIT_COMPARISON_LT, L(j), ci(j, j->t_i32, 64)), tw0, tw1, U) : tw0;
  gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_i32, L(j), ci(j, j->t_i32, 63)), U);
  assign(j, lane_arr(j, j->f_mask, L(j)),
         cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, word, sh), ci(j, U, 1)), j->t_i32));
  loop_end(j, &lp);
  go_seg(j, T);
}

static void emit_terminator_(J *j, uint32_t inst, const ld_insn *in, int32_t seg);
void emit_terminator(J *j, uint32_t inst, const ld_insn *in, int32_t seg) {
  j->br_seg = seg;
  emit_terminator_(j, inst, in, seg);
  j->br_seg = -1;
}
static void emit_terminator_(J *j, uint32_t inst, const ld_insn *in, int32_t seg) {
  const ld_module *m = j->m;
  fuse_close(j);
  const jit_seg *sg = &j->k->seg[seg];
  gcc_jit_block *disp = j->segb[j->k->n_seg];     /* the dispatch block */
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  switch (in->op) {
  case SpvOpBranchConditional: {
    branch_prologue(j, seg);
    if (sg->n_succ == 1) { go_seg(j, sg->succ[0]); return; }
    if (sg->n_succ != 2) { failf(j->e, "%s: conditional branch with %d targets", ld_insn_where(m, in), sg->n_succ); return; }
    if (j->k->conv && sg->ifc == IFC_MGUARD) {
      /* a masked loop's guard: the lanes taking the entry run the loop,
       * the others wait at its exit block; none: straight there */
      int q = sg->ifc_then;   /* the entry's successor index (region_add) */
      gcc_jit_lvalue *tw[2];
      taken_words(j, inst, in, in->ops[0], q == 0, tw);
      gcc_jit_block *none = nb(j), *some = nb(j);
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(tw[0]), ci(j, U, 0)), none, some);
      j->b = none;
      go_seg(j, sg->succ[1 - q]);
      j->b = some;
      j->ml_enter = R_(tw[0]);
      go_seg(j, sg->succ[q]);
      j->ml_enter = NULL;
      return;
    }
    if (j->k->conv && sg->mloop && (sg->succ[0] == j->k->mloops[sg->mloop - 1].xe ||
                                    sg->succ[1] == j->k->mloops[sg->mloop - 1].xe)) {
      /* a masked loop's exit: the lanes that stay make the loop's word and
       * the top entry's; the others wait at the exit block, which every
       * lane takes when none stays (go_seg) */
      int q = sg->succ[0] == j->k->mloops[sg->mloop - 1].xe ? 0 : 1;
      bool lp_only = mloop_leaver_pred(j, seg);
      gcc_jit_lvalue *tw[2], *word = mloop_word(j, sg->mloop);
      taken_words(j, inst, in, in->ops[0], q == 1, tw);
      gcc_jit_block *out = nb(j), *stay = nb(j), *left = nb(j), *on = nb(j);
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(tw[0]), ci(j, U, 0)), out, stay);
      j->b = out;
      if (lp_only) pred_of_word(j, seg, R_(word));
      go_seg(j, sg->succ[q]);
      /* some lanes stay: the word changes only when some leave */
      j->b = stay;
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(tw[0]), R_(word)), left, on);
      j->b = left;
      if (lp_only)
        pred_of_word(j, seg, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(word),
                                 gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, R_(tw[0]))));
      mloop_set(j, sg->mloop, R_(tw[0]));
      assign(j, ent_m(j, top_e(j), 0), R_(tw[0]));
      gcc_jit_block_end_with_jump(j->b, NULL, on);
      j->b = on;
      go_seg(j, sg->succ[1 - q]);
      return;
    }
    if (j->k->conv && sg->ifc == IFC_HEAD) {
      /* if-conversion: the lanes taking the then-block run it under their
       * mask (a stack entry and mask[], as the interpreter's stack would
       * hold them: the head's entry below keeps every lane live), then
       * every lane goes on at the reconvergence point (the entry popped);
       * no lane takes it: straight there */
      int32_t T = sg->succ[sg->ifc_then], M = sg->succ[1 - sg->ifc_then], E = -1;
      /* past an empty bridge block (IFC_BRIDGE): the reconvergence point,
       * where the then-block goes; an else-block (IFC_ELSE) runs after the
       * then-block under the other lanes */
      if (j->k->seg[M].ifc == IFC_BRIDGE) M = j->k->seg[T].succ[0];
      else if (j->k->seg[M].ifc == IFC_ELSE) { E = M; M = j->k->seg[T].succ[0]; }
      bool sense = sg->ifc_then == 0;   /* then-block taken when the condition is true */
      gcc_jit_lvalue *tw[2];
      int64_t K = j->full && j->S <= 64 && !getenv("SPIRV_SG_JIT_NO_ONE_LANE_WORD") ? ifc_lane_bound(j, T) : -1;
      if (K >= 0) {
        /* `lid == K` with every lane present: lane K alone, no lane loop */
        for (uint32_t w = 0; w < 2; w++) tw[w] = local(j, U);
        assign(j, tw[0], cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)(1ll << K)), U));
        assign(j, tw[1], ci(j, U, 0));
      } else {
        taken_words(j, inst, in, in->ops[0], sense, tw);
      }
      if (E >= 0) {   /* the else-block's lanes: the head's others */
        gcc_jit_lvalue *ew[2];
        if (K >= 0) {
          uint64_t fm = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
          for (uint32_t w = 0; w < 2; w++) ew[w] = local(j, U);
          assign(j, ew[0], cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)(fm & ~(1ull << K))), U));
          assign(j, ew[1], ci(j, U, 0));
        } else {
          taken_words(j, inst, in, in->ops[0], !sense, ew);
        }
        for (uint32_t w = 0; w < 2; w++) assign(j, ifc_etw_local(j, E, w), R_(ew[w]));
      }
      gcc_jit_block *none = nb(j), *some = nb(j);
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ,
          bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(tw[0]), R_(tw[1])), ci(j, U, 0)), none, some);
      j->b = none;
      if (E >= 0) ifc_enter(j, seg, E, M, R_(ifc_etw_local(j, E, 0)), R_(ifc_etw_local(j, E, 1)), true);
      else go_seg(j, M);
      j->b = some;
      ifc_enter(j, seg, T, M, R_(tw[0]), R_(tw[1]), K < 0);
      return;
    }
    if (j->k->conv && shadowed(j, inst, in->ops[0])) {
      /* an affine bool (shadow_plan) is one scalar: lane 0's is every lane's */
      shadow_def_begin(j);
      gcc_jit_block *bt = nb(j), *bf = nb(j);
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, in->ops[0], 0),
                                                         ci(j, j->t_u[0], 0)), bt, bf);
      j->b = bt; go_seg(j, sg->succ[0]);
      j->b = bf; go_seg(j, sg->succ[1]);
      return;
    }
    if (j->k->conv) {
      /* uniform by the analysis: the active lanes agree (some active lane
       * true: every one); a lane that disagrees is an internal error,
       * reported (rt_diverged).  An OR and an AND reduction over the lanes
       * (GCC vectorizes both), disagreement = any ^ all. */
      gcc_jit_type *B = j->t_u[0];
      gcc_jit_lvalue *any = local(j, B), *all = local(j, B), *dis = local(j, B), *c0 = local(j, B);
      assign(j, any, ci(j, B, 0));
      assign(j, all, ci(j, B, 1));
      loop_begin(j, &lp);
      gcc_jit_rvalue *cl = b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, in->ops[0], 0), ci(j, B, 0)));
      gcc_jit_rvalue *ml = cast(j, MASKV(j), B);
      assign(j, any, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, B, R_(any), bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, B, cl, ml)));
      assign(j, all, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, B, R_(all),
                         bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, B, cl, bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, B, ml, ci(j, B, 1)))));
      loop_end(j, &lp);
      assign(j, dis, bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, B, R_(any), R_(all)));
      assign(j, c0, R_(any));
      gcc_jit_block *bad = nb(j), *ok = nb(j), *bt = nb(j), *bf = nb(j);
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(dis), ci(j, j->t_u[0], 0)), bad, ok);
      uint32_t idx = add_insn_index(j->k, in);
      gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
      host_mark_in(j, bad);
      gcc_jit_block_add_eval(bad, NULL, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_diverged), 3, args));
      ret_done(j, bad);
      gcc_jit_block_end_with_conditional(ok, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(c0), ci(j, j->t_u[0], 0)), bt, bf);
      j->b = bt; go_seg(j, sg->succ[0]);
      j->b = bf; go_seg(j, sg->succ[1]);
      return;
    }
    /* lanes taking the true target, as mask words */
    gcc_jit_lvalue *tw[2], *fw[2];
    taken_words(j, inst, in, in->ops[0], true, tw);
    for (uint32_t w = 0; w < 2; w++) fw[w] = local(j, U);
    for (uint32_t w = 0; w < 2; w++)
      assign(j, fw[w], bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, top_m(j, (int)w),
                           gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, R_(tw[w]))));
    gcc_jit_block *allt = nb(j), *c2 = nb(j), *allf = nb(j), *div = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ,
        bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(fw[0]), R_(fw[1])), ci(j, U, 0)), allt, c2);
    gcc_jit_block_end_with_conditional(c2, NULL, cmp(j, GCC_JIT_COMPARISON_EQ,
        bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(tw[0]), R_(tw[1])), ci(j, U, 0)), allf, div);
    j->b = allt; go_seg(j, sg->succ[0]);
    j->b = allf; go_seg(j, sg->succ[1]);
    j->b = div;
    int32_t R = sg->rpc;
    gcc_jit_block *popb = nb(j), *mov = nb(j), *psh = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_f(j, top_e(j), j->e_rpc)),
                                                       ci(j, j->t_i32, R)), popb, mov);
    j->b = popb;
    assign(j, cfl(j, j->c_sp), bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, SP(j), ci(j, j->t_i32, 1)));
    gcc_jit_block_end_with_jump(j->b, NULL, psh);
    j->b = mov;
    assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, R));
    gcc_jit_block_end_with_jump(j->b, NULL, psh);
    j->b = psh;
    stack_room(j, seg, 2);
    if (sg->succ[1] != R) push_entry(j, sg->succ[1], R, R_(fw[0]), R_(fw[1]));
    if (sg->succ[0] != R) push_entry(j, sg->succ[0], R, R_(tw[0]), R_(tw[1]));
    gcc_jit_block_end_with_jump(j->b, NULL, j->settle);
    return;
  }
  case SpvOpSwitch: {
    branch_prologue(j, seg);
    const ld_block *blk = in->block;
    const ld_type *st = m->values[in->ops[0]].type;
    uint32_t wpl = st->width > 32 ? 2 : 1;
    gcc_jit_lvalue *mn = local(j, j->t_i32), *mx = local(j, j->t_i32);
    assign(j, mn, ci(j, j->t_i32, 1 << 20));
    assign(j, mx, ci(j, j->t_i32, -1));
    loop_begin(j, &lp);
    gcc_jit_type *T = scal(j, st);
    gcc_jit_rvalue *sv = V(j, inst, in->ops[0], 0);
    gcc_jit_lvalue *t = local(j, j->t_i32);
    uint32_t def = 0;
    for (uint32_t q = 0; q < blk->n_succs; q++) if (blk->succs[q]->label == in->ops[1]) def = q;
    assign(j, t, ci(j, j->t_i32, def));
    for (uint32_t o = 2; o + wpl < in->n_ops; o += wpl + 1) {
      uint64_t lit = in->ops[o];
      if (wpl == 2) lit |= (uint64_t)in->ops[o + 1] << 32;
      uint32_t label = in->ops[o + wpl];
      uint32_t q = 0;
      for (; q < blk->n_succs; q++) if (blk->succs[q]->label == label) break;
      gcc_jit_rvalue *lv = wpl == 2 ? cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)lit), T)
                                    : ci(j, T, (long)lit);
      assign(j, t, sel(j, cmp(j, GCC_JIT_COMPARISON_EQ, sv, lv), ci(j, j->t_i32, q), R_(t), j->t_i32));
    }
    assign(j, lane_arr(j, j->f_tgt, L(j)), R_(t));
    gcc_jit_rvalue *tv = R_(t);
    assign(j, mn, sel(j, cmp(j, GCC_JIT_COMPARISON_LT, tv, R_(mn)), sel(j, MASK(j), tv, R_(mn), j->t_i32), R_(mn), j->t_i32));
    assign(j, mx, sel(j, cmp(j, GCC_JIT_COMPARISON_GT, tv, R_(mx)), sel(j, MASK(j), tv, R_(mx), j->t_i32), R_(mx), j->t_i32));
    loop_end(j, &lp);
    gcc_jit_block *uni = nb(j), *slow = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(mn), R_(mx)), uni, slow);
    if (sg->n_succ > 0) {
      gcc_jit_case **cases = calloc((size_t)sg->n_succ, sizeof *cases);
      if (!cases) { failf(j->e, "out of memory"); return; }
      for (int32_t q = 0; q < sg->n_succ; q++) {
        gcc_jit_block *bq = nb(j);
        cases[q] = gcc_jit_context_new_case(j->cx, ci(j, j->t_i32, q), ci(j, j->t_i32, q), bq);
        j->b = bq;
        go_seg(j, sg->succ[q]);
      }
      gcc_jit_block_end_with_switch(uni, NULL, R_(mn), slow, sg->n_succ, cases);
      free(cases);
    } else {
      gcc_jit_block_end_with_jump(uni, NULL, slow);
    }
    j->b = slow;
    if (j->k->conv) {   /* proved uniform, yet the lanes disagree */
      uint32_t idx = add_insn_index(j->k, in);
      gcc_jit_rvalue *dargs[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
      host_mark(j);
      gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_diverged), 3, dargs));
      ret_done(j, j->b);
      return;
    }
    spill(j, j->f_tgt); spill(j, j->f_mask);
    gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, seg)};
    host_mark(j);
    assign(j, j->next, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_branch), 3, args));
    fill(j, j->f_mask);   /* the host settled the stack and rewrote mask[] */
    gcc_jit_block_end_with_jump(j->b, NULL, disp);
    return;
  }
  case SpvOpBranch:
    branch_prologue(j, seg);
    if (sg->n_succ != 1) { failf(j->e, "%s: branch without a target", ld_insn_where(m, in)); return; }
    if (j->k->conv && ifc_arm_kind(sg->ifc) && !j->in_ifc_full) {   /* the end of an if-converted block: the head's lanes again */
      if (!ifc_no_push(j, seg))
        assign(j, cfl(j, j->c_sp), bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, SP(j), ci(j, j->t_i32, 1)));
      if (!j->cur_tw) {
        ifc_saved(j, seg);
        assign(j, fld(j, j->f_mask), R_(j->ifc_mask[seg]));
      }
      /* then the else-block, if some lane takes it (its whole copy, only
       * where the head's lanes all skip the then-block, is not for here) */
      int32_t E = ifc_else_of(j, seg);
      if (E >= 0) {
        gcc_jit_type *U = j->t_u[3];
        gcc_jit_rvalue *e0 = R_(ifc_etw_local(j, E, 0)), *e1 = R_(ifc_etw_local(j, E, 1));
        gcc_jit_block *run = nb(j), *skip = nb(j);
        gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ,
            bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, e0, e1), ci(j, U, 0)), skip, run);
        j->b = skip;
        go_seg(j, sg->succ[0]);
        j->b = run;
        ifc_enter(j, seg, E, sg->succ[0], e0, e1, false);
        return;
      }
    }
    go_seg(j, sg->succ[0]);
    return;
  case SpvOpReturn: case SpvOpReturnValue: {
    const jit_inst *I = &j->k->inst[inst];
    if (in->op == SpvOpReturnValue && inst != 0) {
      const ld_insn *call = NULL;
      /* the call instruction: last insn of the segment before the continuation */
      const jit_seg *cs = &j->k->seg[I->cont];
      call = &cs->blk->insns[cs->first - 1];
      const ld_type *ct; uint32_t n;
      if (lane_shape(call->type, &ct, &n)) {
        loop_begin(j, &lp);
        for (uint32_t c = 0; c < n; c++) {
          gcc_jit_lvalue *r = res_lv(j, I->parent, call->result, c);
          assign(j, r, mblend(j, V(j, inst, in->ops[0], c), gcc_jit_lvalue_as_rvalue(r), scal(j, ct)));
        }
        loop_end(j, &lp);
      } else {
        failf(j->e, "%s: return of an aggregate", ld_insn_where(m, in));
      }
    }
    if (j->k->conv) {
      /* every lane returns together: straight to the caller's continuation,
       * or out of the kernel */
      if (inst != 0) { gcc_jit_block_end_with_jump(j->b, NULL, j->segb[I->cont]); return; }
      /* k->lean_stack: the stack stays {entry, -1, all} for the next
       * subgroup (every lane here: the top is that entry) */
      if (!j->k->lean_stack) assign(j, cfl(j, j->c_sp), ci(j, j->t_i32, 0));
      ret_done(j, j->b);
      return;
    }
    /* the returning lanes leave every entry of this instance */
    leave_lanes(j, inst == 0 ? ci(j, j->t_i32, 0) : R_(arr_at(j, ctxf(j, j->c_base), (int)inst)));
    return;
  }
  case SpvOpUnreachable: {
    /* a fault for the active lanes, which then terminate (ip_kill): they
     * leave every stack entry */
    uint32_t idx = add_insn_index(j->k, in);
    gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
    host_mark(j);
    gcc_jit_rvalue *rc = gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_unreach), 3, args);
    gcc_jit_block *stop = nb(j), *go = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, rc, ci(j, j->t_i32, 0)), stop, go);
    ret_done(j, stop);
    j->b = go;
    leave_lanes(j, ci(j, j->t_i32, 0));
    return;
  }
  default:
    failf(j->e, "%s: terminator %s not compiled yet", ld_insn_where(m, in), opname(in->op));
    return;
  }
}

/* With several phis, each is computed into its temporary first when one
 * may read another's old value (phis_need_tmp: an operand that is another
 * phi of the block, or a value recomputed where read); then, in the
 * current lane, the temporaries become the results. */
static bool phis_need_tmp(J *j, uint32_t inst, const ld_block *blk, uint32_t label) {
  if (blk->n_phis < 2) return false;
  if (getenv("SPIRV_SG_JIT_PHI_TMP")) return true;
  /* the phis the lane loop writes (an edge's uniform phis that are lane-0
   * scalars, shadow_plan, commit after the loop), and whether one of them
   * is a vector local (vector_local_type) rather than a lane array in
   * memory or a wide field's parts (wide_part_type) */
  uint32_t lanes = 0;
  bool vec = false;
  for (uint32_t p = 0; p < blk->n_phis; p++) {
    const ld_insn *in = &blk->insns[p];
    if (label && shadowed(j, inst, in->result)) continue;
    lanes++;
    int32_t h = fidx(j, j->slot[vidx(j, inst, in->result)]);
    if (h < 0 || !j->fmap_vec || j->fmap_vec[h]) vec = true;
  }
  int32_t bs = j->k->inst[inst].block_seg[blk->index];
  bool ml = bs >= 0 && j->k->seg[bs].mloop;
  /* Vector locals: temporaries outside masked loops, which GCC compiles
   * better (gemm's plain form 36 -> 21.5 ms, a float Horner loop 17 ->
   * 5.7 ms); inside them only where needed (collatz 1.6x faster).  Lane
   * arrays in memory and wide fields: only where needed, a temporary being
   * one more store and load, or copy, per trip (a double Horner loop 15 ->
   * 7.4 ms); with one lane phi, never (no phi reads another's new value). */
  if (vec && !ml && !getenv("SPIRV_SG_JIT_PHI_TMP_MIN")) return true;
  if (!vec && lanes < 2) return false;
  for (uint32_t p = 0; p < blk->n_phis; p++) {
    const ld_insn *in = &blk->insns[p];
    for (uint32_t q = 0; q + 1 < in->n_ops; q += 2) {
      if (label && in->ops[q + 1] != label) continue;
      uint32_t v = in->ops[q];
      if (v >= j->m->bound || j->m->values[v].kind != LD_V_RESULT) continue;
      const ld_insn *d = j->m->values[v].u.insn;
      if (d->op == SpvOpPhi && d >= blk->insns && d < blk->insns + blk->n_phis && d != in) return true;
      /* a value recomputed where read (remat) reads its operands, which
       * may be this block's phis */
      if (remat(j, inst, v)) return true;
    }
  }
  return false;
}
static void phis_commit(J *j, uint32_t inst, const ld_block *blk) {
  for (uint32_t p = 0; p < blk->n_phis; p++) {
    const ld_insn *in = &blk->insns[p];
    if (shadowed(j, inst, in->result)) continue;   /* emit_phis_uniform: its own temporary */
    const ld_type *ct; uint32_t n;
    lane_shape(in->type, &ct, &n);
    for (uint32_t c = 0; c < n; c++)
      assign(j, res_lv(j, inst, in->result, c),
             gcc_jit_lvalue_as_rvalue(slot_lv(j, j->phitmp[vidx(j, inst, in->result)], n, c, L(j))));
  }
}

/* The vector local (J.fmap_vec) holding value id of instance inst, outside
 * lane loops; NULL: none (an array, a wide field, an affine or recomputed
 * value, a constant). */
static gcc_jit_lvalue *vec_local_of(J *j, uint32_t inst, uint32_t id) {
  if (j->lane_depth || shadowed(j, inst, id) || remat(j, inst, id)) return NULL;
  gcc_jit_field *fl = value_slot(j, inst, id);
  int32_t h = fl ? fidx(j, fl) : -1;
  if (h < 0 || !j->fmap_vec || !j->fmap_vec[h] || wide_h(j, h)) return NULL;
  (void)floc(j, fl);   /* its uses tracked as any read or write (J.fref) */
  return j->fmap_vec[h];
}

/* Phis of a convergent kernel's block that no if-converted block enters:
 * every lane came from the same predecessor, lane 0's (always active): one
 * test outside the lanes, then a lane loop per incoming edge. */
bool phis_uniform(J *j, uint32_t inst, const ld_block *blk) {
  if (!j->k->conv) return false;
  const jit_inst *I = &j->k->inst[inst];
  int32_t bs = I->block_seg[blk->index];
  /* a masked loop's header: its lanes came the same way, but lane 0 may
   * have left (pred0 knows the way) */
  if (bs >= 0 && j->k->seg[bs].mloop && !j->pred0) return false;
  for (uint32_t p = 0; p < blk->n_preds; p++) {
    int32_t ts = I->term_seg[blk->preds[p]->index];
    if (ts >= 0 && ifc_arm_kind(j->k->seg[ts].ifc)) return false;
    /* a masked loop's exit block: its lanes left at different trips */
    if (ts >= 0 && j->k->seg[ts].mloop &&
        (j->k->mloops[j->k->seg[ts].mloop - 1].x == bs || j->k->mloops[j->k->seg[ts].mloop - 1].xe == bs))
      return false;
  }
  return true;
}
/* The uniform phis of blk for the edge from the predecessor labelled
 * `label`: each phi's operand for that edge into its temporary (several
 * phis: one may read another's old value), then the results.  Returns
 * false if no phi has an operand for the label. */
static bool phis_uniform_edge(J *j, uint32_t inst, const ld_block *blk, uint32_t label) {
  bool any = false;
  /* affine phis (shadow_plan): lane 0's value into a scalar temporary, the
   * phi's own local after every phi has read the old values */
  gcc_jit_lvalue *stmp[64] = {NULL};
  shadow_def_begin(j);
  for (uint32_t p = 0; p < blk->n_phis && p < 64; p++)
    if (shadowed(j, inst, blk->insns[p].result)) {
      const ld_insn *in = &blk->insns[p];
      const ld_type *ct; uint32_t n;
      lane_shape(in->type, &ct, &n);
      stmp[p] = local(j, scal(j, ct));
      for (uint32_t q = 0; q + 1 < in->n_ops; q += 2)
        if (in->ops[q + 1] == label) { assign(j, stmp[p], V(j, inst, in->ops[q], 0)); any = true; }
    }
  jloop lp;
  bool tmp = phis_need_tmp(j, inst, blk, label);
  /* J.unblended phis skip the blend on their back edge only (the end of a
   * trip, every lane that goes on); the entry edge (once per entry), and
   * the header's own dispatch on pred0 (emit_phis), keep it */
  const ld_value *lv = label < j->m->bound ? &j->m->values[label] : NULL;
  bool back = lv && lv->kind == LD_V_LABEL && ld_dominates(blk, lv->u.block);
  /* unblended one-component phis whose value and operand are vector locals
   * (J.fmap_vec): a vector assignment, outside the lane loop.  At S = 8 a
   * loop over 64-bit and 32-bit lanes is vectorized in 32-byte vectors,
   * and the 64-byte vector local of a 64-bit value went through the stack
   * in halves on every trip (collatz's x, a failed store forwarding).
   * SPIRV_SG_JIT_NO_PHI_VEC=1: in the lane loop. */
  bool vdone[64] = {false};
  if (back && !tmp && !getenv("SPIRV_SG_JIT_NO_PHI_VEC"))
    for (uint32_t p = 0; p < blk->n_phis && p < 64; p++) {
      const ld_insn *in = &blk->insns[p];
      const ld_type *ct; uint32_t n;
      if (stmp[p] || !lane_shape(in->type, &ct, &n) || n != 1 || !is_unblended(j, inst, in->result)) continue;
      uint32_t val = 0;
      for (uint32_t q = 0; q + 1 < in->n_ops; q += 2)
        if (in->ops[q + 1] == label) val = in->ops[q];
      gcc_jit_lvalue *dv = val ? vec_local_of(j, inst, in->result) : NULL;
      gcc_jit_lvalue *sv = dv ? vec_local_of(j, inst, val) : NULL;
      if (!sv) continue;
      gcc_jit_rvalue *x = R_(sv);
      if (gcc_jit_rvalue_get_type(x) != gcc_jit_rvalue_get_type(R_(dv)))
        x = gcc_jit_context_new_bitcast(j->cx, NULL, x, gcc_jit_rvalue_get_type(R_(dv)));
      assign(j, dv, x);
      vdone[p] = any = true;
    }
  loop_begin(j, &lp);
  for (uint32_t p = 0; p < blk->n_phis; p++) {
    const ld_insn *in = &blk->insns[p];
    const ld_type *ct; uint32_t n;
    if (p < 64 && (stmp[p] || vdone[p])) continue;
    if (!lane_shape(in->type, &ct, &n)) { failf(j->e, "%s: phi of an aggregate", ld_insn_where(j->m, in)); return false; }
    /* this phi's operand for the same label */
    uint32_t val = 0;
    for (uint32_t q = 0; q + 1 < in->n_ops; q += 2)
      if (in->ops[q + 1] == label) val = in->ops[q];
    if (!val) continue;
    any = true;
    gcc_jit_field *dst = tmp ? j->phitmp[vidx(j, inst, in->result)] : j->slot[vidx(j, inst, in->result)];
    bool ub = back && is_unblended(j, inst, in->result);
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_lvalue *r = slot_lv(j, dst, n, c, L(j));
      /* a temporary takes the phi's own value in the lanes off the edge:
       * phis_commit copies every lane (a lane that had left a masked loop
       * got a stale temporary, gcd's `while (q) { t = p % q; p = q; q = t; }`) */
      gcc_jit_rvalue *old = tmp ? R_(res_lv(j, inst, in->result, c)) : R_(r);
      assign(j, r, ub ? V(j, inst, val, c) : mblend(j, V(j, inst, val, c), old, scal(j, ct)));
    }
  }
  loop_end(j, &lp);
  for (uint32_t p = 0; p < blk->n_phis && p < 64; p++)
    if (stmp[p]) assign(j, sh_lv(j, inst, blk->insns[p].result, 0), R_(stmp[p]));
  if (tmp) {
    loop_begin(j, &lp);
    phis_commit(j, inst, blk);
    loop_end(j, &lp);
  }
  return any;
}
static void emit_phis_uniform(J *j, uint32_t inst, const ld_block *blk) {
  const jit_inst *I = &j->k->inst[inst];
  fuse_close(j);
  gcc_jit_lvalue *p0 = j->pred0;
  if (!p0) {
    p0 = local(j, j->t_i32);
    assign(j, p0, R_(arr_at(j, R_(fld(j, j->f_pred)), 0)));
  }
  gcc_jit_block *join = nb(j);
  const ld_insn *first = &blk->insns[0];
  for (uint32_t o = 0; o + 1 < first->n_ops; o += 2) {
    const ld_value *lab = &j->m->values[first->ops[o + 1]];
    if (lab->kind != LD_V_LABEL) continue;
    int32_t ts = I->term_seg[lab->u.block->index];
    if (ts < 0) continue;
    gcc_jit_block *body = nb(j), *next = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(p0), ci(j, j->t_i32, ts)), body, next);
    j->b = body;
    phis_uniform_edge(j, inst, blk, first->ops[o + 1]);
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = next;
  }
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
}

void emit_phis(J *j, uint32_t inst, const ld_block *blk) {
  if (!blk->n_phis) return;
  if (phis_uniform(j, inst, blk)) { emit_phis_uniform(j, inst, blk); return; }
  const jit_inst *I = &j->k->inst[inst];
  fuse_open(j);
  gcc_jit_rvalue *pred = gcc_jit_lvalue_as_rvalue(lane_arr(j, j->f_pred, L(j)));
  bool tmp = phis_need_tmp(j, inst, blk, 0);
  for (uint32_t p = 0; p < blk->n_phis; p++) {
    const ld_insn *in = &blk->insns[p];
    const ld_type *ct; uint32_t n;
    if (!lane_shape(in->type, &ct, &n)) { failf(j->e, "%s: phi of an aggregate", ld_insn_where(j->m, in)); return; }
    gcc_jit_field *dst = tmp ? j->phitmp[vidx(j, inst, in->result)] : j->slot[vidx(j, inst, in->result)];
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_lvalue *r = slot_lv(j, dst, n, c, L(j));
      gcc_jit_rvalue *v = gcc_jit_lvalue_as_rvalue(res_lv(j, inst, in->result, c));
      for (uint32_t o = 0; o + 1 < in->n_ops; o += 2) {
        const ld_value *lab = &j->m->values[in->ops[o + 1]];
        if (lab->kind != LD_V_LABEL) continue;
        int32_t ts = I->term_seg[lab->u.block->index];
        if (ts < 0) continue;
        /* an empty bridge block's operand: for the lanes that skipped the
         * then-block, whose pred[] is the head's (IFC_BRIDGE) */
        if (j->k->seg[ts].ifc == IFC_BRIDGE && lab->u.block->n_preds == 1)
          ts = I->term_seg[lab->u.block->preds[0]->index];
        /* branch-free, so the lane loop vectorizes (a loop head's phis run
         * on every trip of a divergent loop); SPIRV_SG_JIT_PHI_BRANCH=1:
         * one branch per lane and edge, as before */
        if (getenv("SPIRV_SG_JIT_PHI_BRANCH"))
          v = sel(j, cmp(j, GCC_JIT_COMPARISON_EQ, pred, ci(j, j->t_i32, ts)), V(j, inst, in->ops[o], c), v, scal(j, ct));
        else if (j->S == 16 && !getenv("SPIRV_SG_JIT_PHI_OPND_DIRECT")) {
          /* the operand through a local: libgccjit folds the blend into
           * `pred == ts ? op : v`, which GCC gimplifies as a branch; a
           * lane-array read in its arm became a masked load after
           * vectorization, whose address kept the operand's vector local
           * in memory in its loop too (collatz's step counter: a store and
           * a reload per trip, 73.9 -> 65.6 ms; a loop with a break 36.8
           * -> 21.6 ms; the bench kernels' code unchanged).  At S = 16
           * only: at 8 collatz took 2x the time with it (its 64-bit x, one
           * 64-byte vector there, went through two 32-byte stores and a
           * 64-byte reload per trip), and at 8 and 32 the other loops
           * measured gained nothing.  SPIRV_SG_JIT_PHI_OPND_DIRECT=1 reads
           * it in the blend. */
          gcc_jit_lvalue *ov = local(j, scal(j, ct));
          assign(j, ov, V(j, inst, in->ops[o], c));
          v = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, pred, ci(j, j->t_i32, ts))), R_(ov), v, scal(j, ct));
        } else
          v = blend_by(j, b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, pred, ci(j, j->t_i32, ts))), V(j, inst, in->ops[o], c), v,
                       scal(j, ct));
      }
      /* a temporary: the phi's own value in inactive lanes (as above) */
      gcc_jit_rvalue *old = tmp ? R_(res_lv(j, inst, in->result, c)) : R_(r);
      assign(j, r, mblend(j, v, old, scal(j, ct)));
    }
  }
  if (tmp) phis_commit(j, inst, blk);
}
