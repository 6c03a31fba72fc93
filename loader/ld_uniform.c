/* ld_uniform.c - which values are uniform across a subgroup's active lanes
 * and which blocks may run with only some of its lanes (ld.h).
 *
 * A forward "divergence" analysis over all functions to a fixpoint:
 *   - varying sources: loads of the lane built-ins (local/global invocation
 *     ids, subgroup local id, the Subgroup*Mask built-ins), atomics, elect,
 *     scans, shuffles, block reads, ...;
 *   - an instruction is varying when an id operand is varying (loads: the
 *     pointer; private variables become varying when a varying value or a
 *     store under divergent control goes into them; with
 *     LD_UNI_PRIVATE_VARIES every load through a Function or Generic pointer
 *     varies, since a private variable's address can escape into a call);
 *   - a branch is varying when its condition/selector is; a block is
 *     divergent when it is (transitively) control dependent on a varying
 *     branch or lies in a function called under divergent control (control
 *     dependence from post-dominators, computed here, with one virtual exit
 *     node);
 *   - phis at a join of a varying branch and values that leave a region of a
 *     varying branch (loop exits) are varying.
 * The analysis is per subgroup: SubgroupId and the work-group ids are
 * uniform.  Users: spirv-sgconform check (collectives under lane-dependent
 * control) and the JIT (kernels without varying branches compile without
 * the SIMT stack).
 */
#include <stdlib.h>
#include <string.h>
#include "ld.h"

static bool is_nu_arith(SpvOp op)
{
  return op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor;
}

static bool is_groups_op(SpvOp op)
{
  return (op >= SpvOpGroupAll && op <= SpvOpGroupSMax) || op == SpvOpGroupIMulKHR ||
         op == SpvOpGroupFMulKHR || op == SpvOpGroupBitwiseAndKHR || op == SpvOpGroupBitwiseOrKHR ||
         op == SpvOpGroupBitwiseXorKHR || op == SpvOpGroupLogicalAndKHR ||
         op == SpvOpGroupLogicalOrKHR || op == SpvOpGroupLogicalXorKHR;
}

/* ----------------------------------------------------------- the analysis */

typedef struct fn_info {
  const ld_function *fn;
  uint32_t n;              /* blocks; node n is the virtual exit */
  uint32_t *ipdom;         /* [n+1] */
  uint32_t *cd_from, *cd_to;   /* control-dependence pairs: to is CD on from */
  uint32_t n_cd;
  uint8_t *div;            /* [n] block under divergent control */
  const ld_insn **cause;   /* [n] the varying branch (or call) responsible */
  uint8_t *in_region;      /* scratch [n] */
} fn_info;

typedef struct ana {
  const ld_module *m;
  uint8_t *vary;           /* [bound] */
  uint8_t *varmem;         /* [bound] Function-storage variables holding varying data */
  uint32_t n_fn;
  fn_info *fi;
  uint8_t *fn_div;         /* [n_fn] entry under divergent control */
  const ld_insn **fn_cause;
  uint8_t *ret_vary;       /* [n_fn] */
  bool changed;
  unsigned flags;
  uint64_t *stride;        /* [bound] lane stride (strides()) */
  uint8_t *st_state;       /* [bound] ST_UNKNOWN, ST_KNOWN, ST_EXACT */
  /* [bound] the divergent block a stride holds in only (strides()' second
   * pass), NULL: every lane's; st_blk: the block that pass evaluates */
  const ld_block **st_def;
  const ld_block *st_blk;
} ana;

static int fn_idx(const ana *a, const ld_function *f)
{
  for (uint32_t i = 0; i < a->n_fn; ++i)
    if (a->fi[i].fn == f)
      return (int)i;
  return -1;
}

/* Post-dominators (Cooper, Harvey, Kennedy) on the reverse CFG. */
static bool postdom(fn_info *fi)
{
  const ld_function *f = fi->fn;
  uint32_t n = f->n_blocks, ex = n;
  fi->n = n;
  fi->ipdom = malloc((n + 1) * sizeof *fi->ipdom);
  uint32_t *order = malloc((n + 1) * sizeof *order), *po = malloc((n + 1) * sizeof *po);
  uint32_t *stack = malloc((n + 1) * 2 * sizeof *stack);
  uint8_t *seen = calloc(n + 1, 1);
  if (!fi->ipdom || !order || !po || !stack || !seen) {
    free(order); free(po); free(stack); free(seen);
    return false;
  }
  /* DFS on the reverse graph from the exit: exit -> blocks without successors,
   * block -> its predecessors. */
  uint32_t n_order = 0, sp = 0;
  stack[sp++] = ex; stack[sp++] = 0;
  seen[ex] = 1;
  while (sp) {
    uint32_t v = stack[sp - 2], k = stack[sp - 1];
    uint32_t next = UINT32_MAX;
    if (v == ex) {
      for (uint32_t b = k; b < n; ++b) {
        stack[sp - 1] = b + 1;
        if (f->blocks[b].reachable && f->blocks[b].n_succs == 0 && !seen[b]) { next = b; break; }
      }
    } else {
      const ld_block *bl = &f->blocks[v];
      for (uint32_t i = k; i < bl->n_preds; ++i) {
        stack[sp - 1] = i + 1;
        uint32_t p = bl->preds[i]->index;
        if (p < n && bl->preds[i]->reachable && !seen[p]) { next = p; break; }
      }
    }
    if (next == UINT32_MAX) {
      po[v] = n_order;
      order[n_order++] = v;
      sp -= 2;
    } else {
      seen[next] = 1;
      stack[sp++] = next; stack[sp++] = 0;
    }
  }
  for (uint32_t i = 0; i <= n; ++i)
    fi->ipdom[i] = UINT32_MAX;
  fi->ipdom[ex] = ex;
  bool ch = true;
  while (ch) {
    ch = false;
    for (uint32_t oi = n_order; oi-- > 0;) {
      uint32_t b = order[oi];
      if (b == ex)
        continue;
      const ld_block *bl = &f->blocks[b];
      uint32_t nd = UINT32_MAX;
      uint32_t ns = bl->n_succs ? bl->n_succs : 1;
      for (uint32_t i = 0; i < ns; ++i) {
        uint32_t s = bl->n_succs ? bl->succs[i]->index : ex;
        if (s > n || fi->ipdom[s] == UINT32_MAX)
          continue;
        if (nd == UINT32_MAX) { nd = s; continue; }
        uint32_t x = s, y = nd;
        while (x != y) {
          while (po[x] < po[y]) x = fi->ipdom[x];
          while (po[y] < po[x]) y = fi->ipdom[y];
        }
        nd = x;
      }
      if (nd != UINT32_MAX && fi->ipdom[b] != nd) {
        fi->ipdom[b] = nd;
        ch = true;
      }
    }
  }
  /* blocks that never reach an exit (infinite loops): post-dominated by exit */
  for (uint32_t b = 0; b < n; ++b)
    if (!seen[b])
      fi->ipdom[b] = ex;
  free(order); free(po); free(stack); free(seen);
  return true;
}

static bool control_dep(fn_info *fi)
{
  const ld_function *f = fi->fn;
  uint32_t cap = 16, n = fi->n;
  fi->cd_from = malloc(cap * sizeof *fi->cd_from);
  fi->cd_to = malloc(cap * sizeof *fi->cd_to);
  if (!fi->cd_from || !fi->cd_to)
    return false;
  for (uint32_t d = 0; d < n; ++d) {
    const ld_block *bl = &f->blocks[d];
    if (!bl->reachable || bl->n_succs < 2)
      continue;
    for (uint32_t i = 0; i < bl->n_succs; ++i) {
      uint32_t r = bl->succs[i]->index, guard = 0;
      while (r < n && r != fi->ipdom[d] && guard++ <= n) {
        if (fi->n_cd == cap) {
          cap *= 2;
          uint32_t *a = realloc(fi->cd_from, cap * sizeof *a);
          if (!a) return false;
          fi->cd_from = a;
          uint32_t *b = realloc(fi->cd_to, cap * sizeof *b);
          if (!b) return false;
          fi->cd_to = b;
        }
        fi->cd_from[fi->n_cd] = d;
        fi->cd_to[fi->n_cd++] = r;
        r = fi->ipdom[r];
      }
    }
  }
  return true;
}

static bool id_vary(const ana *a, uint32_t id)
{
  return id < a->m->bound && a->vary[id];
}

typedef struct walk_ctx {
  const ana *a;
  const ld_insn *in;
  bool any;
} walk_ctx;

static void walk_id(void *user, uint32_t wi, spv_operand_class cls)
{
  walk_ctx *w = user;
  if (cls != SPV_OPND_ID && cls != SPV_OPND_PAIR_ID_LIT && cls != SPV_OPND_PAIR_ID_ID &&
      cls != SPV_OPND_PAIR_LIT_ID)
    return;
  if (wi < w->in->n_ops && id_vary(w->a, w->in->ops[wi]))
    w->any = true;
}

/* True if any id operand of `in` is varying. */
static bool operands_vary(const ana *a, const ld_insn *in)
{
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  if (!d) {
    for (uint32_t i = 0; i < in->n_ops; ++i)
      if (id_vary(a, in->ops[i]))
        return true;
    return false;
  }
  uint16_t skip = (uint16_t)((d->has_type ? 1 : 0) + (d->has_result ? 1 : 0));
  if (skip > d->n_operands)
    skip = d->n_operands;
  walk_ctx w = {a, in, false};
  if (!spv_walk_operands(in->ops, in->n_ops, 0, d->operands + skip,
                         (uint16_t)(d->n_operands - skip), walk_id, &w)) {
    for (uint32_t i = 0; i < in->n_ops; ++i)
      if (id_vary(a, in->ops[i]))
        return true;
  }
  return w.any;
}

static bool builtin_varying(int32_t b)
{
  switch (b) {
  case SpvBuiltInLocalInvocationId: case SpvBuiltInGlobalInvocationId:
  case SpvBuiltInLocalInvocationIndex: case SpvBuiltInGlobalLinearId:
  case SpvBuiltInSubgroupLocalInvocationId:
  case SpvBuiltInSubgroupEqMask: case SpvBuiltInSubgroupGeMask: case SpvBuiltInSubgroupGtMask:
  case SpvBuiltInSubgroupLeMask: case SpvBuiltInSubgroupLtMask:
    return true;
  default:
    return false;
  }
}

/* The root variable of a pointer (through access chains / casts), or 0. */
static uint32_t ptr_root(const ld_module *m, uint32_t id, int depth)
{
  if (id >= m->bound || depth > 64)
    return 0;
  const ld_value *v = &m->values[id];
  if (v->kind == LD_V_VARIABLE)
    return id;
  if (v->kind != LD_V_RESULT)
    return 0;
  const ld_insn *in = v->u.insn;
  switch (in->op) {
  case SpvOpVariable:
    return id;
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast: case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr: case SpvOpCopyObject:
    return in->n_ops ? ptr_root(m, in->ops[0], depth + 1) : 0;
  default:
    return 0;
  }
}

/* Result of `in` varying (given operands) for the rules above. */
static bool result_varying(ana *a, fn_info *fi, const ld_insn *in)
{
  const ld_module *m = a->m;
  SpvOp op = in->op;
  switch (op) {
  case SpvOpLoad: {
    if (in->n_ops < 1) return true;
    uint32_t p = in->ops[0];
    if (id_vary(a, p)) return true;
    if (p < m->bound && m->values[p].kind == LD_V_VARIABLE) {
      const ld_variable *var = m->values[p].u.var;
      if (var->storage == SpvStorageClassInput)
        return builtin_varying(var->builtin);
    }
    if ((a->flags & LD_UNI_PRIVATE_VARIES) && p < m->bound && m->values[p].type &&
        m->values[p].type->kind == LD_T_POINTER &&
        (m->values[p].type->storage == SpvStorageClassFunction ||
         m->values[p].type->storage == SpvStorageClassGeneric ||
         m->values[p].type->storage == SpvStorageClassPrivate))
      return true;
    uint32_t r = ptr_root(m, p, 0);
    if (r && m->values[r].kind == LD_V_RESULT && m->values[r].u.insn->op == SpvOpVariable)
      return a->varmem[r] != 0;
    return false;
  }
  case SpvOpAtomicLoad: case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
  case SpvOpAtomicCompareExchangeWeak: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
  case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
  case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
  case SpvOpAtomicXor: case SpvOpAtomicFlagTestAndSet: case SpvOpAtomicFAddEXT:
  case SpvOpAtomicFMinEXT: case SpvOpAtomicFMaxEXT:
  case SpvOpGroupNonUniformElect: case SpvOpGroupNonUniformInverseBallot:
  case SpvOpGroupNonUniformShuffleUp: case SpvOpGroupNonUniformShuffleDown:
  case SpvOpGroupNonUniformRotateKHR: case SpvOpGroupNonUniformShuffleXor:
  case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleDownINTEL:
  case SpvOpSubgroupShuffleUpINTEL: case SpvOpSubgroupShuffleXorINTEL:
  case SpvOpSubgroupBlockReadINTEL: case SpvOpSubgroupImageBlockReadINTEL:
  case SpvOpFunctionCall: /* handled by the caller */
    if (op == SpvOpFunctionCall) {
      const ld_value *cv = in->n_ops ? &m->values[in->ops[0]] : NULL;
      int ci = cv && cv->kind == LD_V_FUNCTION ? fn_idx(a, cv->u.fn) : -1;
      return ci < 0 || a->ret_vary[ci] || operands_vary(a, in);
    }
    return true;
  case SpvOpGroupNonUniformAll: case SpvOpGroupNonUniformAny: case SpvOpGroupNonUniformAllEqual:
  case SpvOpGroupNonUniformBroadcast: case SpvOpGroupNonUniformBroadcastFirst:
  case SpvOpGroupNonUniformBallot: case SpvOpGroupNonUniformBallotFindLSB:
  case SpvOpGroupNonUniformBallotFindMSB: case SpvOpGroupAll: case SpvOpGroupAny:
  case SpvOpGroupBroadcast:
    return false;   /* the same for every active lane */
  case SpvOpGroupNonUniformShuffle:
    return in->n_ops > 1 && id_vary(a, in->ops[1]);
  case SpvOpGroupNonUniformBallotBitExtract:
    return in->n_ops > 2 && id_vary(a, in->ops[2]);
  default:
    break;
  }
  if (is_nu_arith(op) || is_groups_op(op) || op == SpvOpGroupNonUniformBallotBitCount) {
    /* reductions are uniform; scans and clusters vary per lane */
    return in->n_ops > 1 && in->ops[1] != SpvGroupOperationReduce;
  }
  (void)fi;
  return operands_vary(a, in);
}

static void set_vary(ana *a, uint32_t id)
{
  if (id && id < a->m->bound && !a->vary[id]) {
    a->vary[id] = 1;
    a->changed = true;
  }
}

static void region_of(fn_info *fi, uint32_t d)
{
  memset(fi->in_region, 0, fi->n);
  bool ch = true;
  for (uint32_t i = 0; i < fi->n_cd; ++i)
    if (fi->cd_from[i] == d)
      fi->in_region[fi->cd_to[i]] = 1;
  while (ch) {
    ch = false;
    for (uint32_t i = 0; i < fi->n_cd; ++i)
      if (fi->in_region[fi->cd_from[i]] && !fi->in_region[fi->cd_to[i]]) {
        fi->in_region[fi->cd_to[i]] = 1;
        ch = true;
      }
  }
}

static const ld_insn *term(const ld_block *b)
{
  return b->n_insns ? &b->insns[b->n_insns - 1] : NULL;
}

static bool branch_varying(const ana *a, const ld_block *b)
{
  const ld_insn *t = term(b);
  if (!t || b->n_succs < 2 || t->n_ops < 1)
    return false;
  if (t->op == SpvOpBranchConditional || t->op == SpvOpSwitch)
    return id_vary(a, t->ops[0]);
  return false;
}

static void pass(ana *a)
{
  const ld_module *m = a->m;
  for (uint32_t fx = 0; fx < a->n_fn; ++fx) {
    fn_info *fi = &a->fi[fx];
    const ld_function *f = fi->fn;
    /* values */
    for (uint32_t b = 0; b < f->n_blocks; ++b) {
      const ld_block *bl = &f->blocks[b];
      if (!bl->reachable)
        continue;
      for (uint32_t i = 0; i < bl->n_insns; ++i) {
        const ld_insn *in = &bl->insns[i];
        if (in->op == SpvOpStore && in->n_ops >= 2) {
          uint32_t r = ptr_root(m, in->ops[0], 0);
          if (r && m->values[r].kind == LD_V_RESULT && !a->varmem[r] &&
              (id_vary(a, in->ops[1]) || id_vary(a, in->ops[0]) || fi->div[b])) {
            a->varmem[r] = 1;
            a->changed = true;
          }
        }
        if (in->op == SpvOpReturnValue && in->n_ops && !a->ret_vary[fx] &&
            (id_vary(a, in->ops[0]) || fi->div[b])) {
          a->ret_vary[fx] = 1;
          a->changed = true;
        }
        if (in->op == SpvOpFunctionCall && in->n_ops) {
          const ld_value *cv = &m->values[in->ops[0]];
          int ci = cv->kind == LD_V_FUNCTION ? fn_idx(a, cv->u.fn) : -1;
          if (ci >= 0) {
            const ld_function *cf = a->fi[ci].fn;
            for (uint32_t p = 0; p < cf->n_params && p + 1 < in->n_ops; ++p)
              if (id_vary(a, in->ops[p + 1]))
                set_vary(a, cf->params[p]);
            if ((fi->div[b] || a->fn_div[fx]) && !a->fn_div[ci]) {
              a->fn_div[ci] = 1;
              a->fn_cause[ci] = fi->cause[b] ? fi->cause[b] : in;
              a->changed = true;
            }
          }
        }
        if (!in->result || a->vary[in->result] || m->values[in->result].kind != LD_V_RESULT)
          continue;
        if (in->op == SpvOpPhi) {
          for (uint32_t k = 0; k + 1 < in->n_ops; k += 2)
            if (id_vary(a, in->ops[k]))
              set_vary(a, in->result);
          continue;
        }
        if (result_varying(a, fi, in))
          set_vary(a, in->result);
      }
    }
    /* divergent blocks */
    for (uint32_t b = 0; b < fi->n; ++b)
      if (a->fn_div[fx] && !fi->div[b]) {
        fi->div[b] = 1;
        fi->cause[b] = a->fn_cause[fx];
        a->changed = true;
      }
    for (uint32_t i = 0; i < fi->n_cd; ++i) {
      uint32_t d = fi->cd_from[i], t = fi->cd_to[i];
      if (fi->div[t])
        continue;
      if (branch_varying(a, &f->blocks[d])) {
        fi->div[t] = 1;
        fi->cause[t] = term(&f->blocks[d]);
        a->changed = true;
      } else if (fi->div[d]) {
        fi->div[t] = 1;
        fi->cause[t] = fi->cause[d];
        a->changed = true;
      }
    }
    /* joins and region exits of varying branches */
    for (uint32_t d = 0; d < fi->n; ++d) {
      if (!f->blocks[d].reachable || !branch_varying(a, &f->blocks[d]))
        continue;
      region_of(fi, d);
      for (uint32_t b = 0; b < fi->n; ++b) {
        const ld_block *bl = &f->blocks[b];
        if (fi->in_region[b] || !bl->reachable)
          continue;
        bool join = false;
        for (uint32_t p = 0; p < bl->n_preds; ++p) {
          uint32_t pi = bl->preds[p]->index;
          if (pi < fi->n && (pi == d || fi->in_region[pi]))
            join = true;
        }
        for (uint32_t i = 0; i < bl->n_insns; ++i) {
          const ld_insn *in = &bl->insns[i];
          if (!in->result || m->values[in->result].kind != LD_V_RESULT || a->vary[in->result])
            continue;
          if (in->op == SpvOpPhi && join && bl->n_preds > 1) {
            set_vary(a, in->result);
            continue;
          }
          /* a value defined inside the region (e.g. a loop with a varying
           * exit) observed outside it */
          for (uint32_t k = 0; k < in->n_ops; ++k) {
            uint32_t id = in->ops[k];
            if (id >= m->bound || m->values[id].kind != LD_V_RESULT || m->values[id].owner != f)
              continue;
            const ld_block *db = m->values[id].u.insn->block;
            if (db && db->index < fi->n && fi->in_region[db->index]) {
              set_vary(a, in->result);
              break;
            }
          }
        }
      }
    }
  }
}

/* ------------------------------------------------------------ lane strides
 *
 * For a value computed while every lane of the subgroup runs (a block that is
 * not divergent), lane l's value = lane 0's + stride * l, modulo 2^width: an
 * exact affine fact, found by a forward pass to a fixpoint (a value is known
 * once its operands are).  Sources: uniform values (stride 0), the subgroup
 * local id (1) and, with LD_UNI_LINEAR_X, the x component of the local and
 * global ids (1; y and z are 0).  Rules: integer +, -, negation, multiply by
 * a constant, shift left by a constant, same-width bitcasts, conversions of
 * a uniform value or of a small exact one (the subgroup local id, whose
 * values 0..S-1 widen alike under sign and zero extension), access chains
 * whose indices are known (a pointer access chain's element index steps the
 * pointee's size, an array or vector index its element's; struct members
 * are constants), and selects between two values of one stride on a uniform
 * condition.  Pointers qualify only in CrossWorkgroup, Workgroup and
 * UniformConstant storage: a private pointer names each lane's own memory. */

enum { ST_UNKNOWN = 0, ST_KNOWN = 1, ST_EXACT = 2 };

static bool st_type_ok(const ld_type *t)
{
  if (!t)
    return false;
  if (t->kind == LD_T_BOOL)   /* stride 0 only */
    return true;
  if (t->kind == LD_T_INT)
    return t->width >= 8 && t->width <= 64;
  return t->kind == LD_T_POINTER &&
         (t->storage == SpvStorageClassCrossWorkgroup || t->storage == SpvStorageClassWorkgroup ||
          t->storage == SpvStorageClassUniformConstant);
}

static uint64_t st_wrap(uint64_t s, const ld_type *t)
{
  uint32_t w = t->kind == LD_T_INT ? t->width : 64;
  return w >= 64 ? s : s & ((1ull << w) - 1);
}

/* An integer constant's value, sign-extended from its width. */
static bool st_const(const ld_module *m, uint32_t id, uint64_t *v)
{
  if (id >= m->bound || m->values[id].kind != LD_V_CONSTANT)
    return false;
  const ld_type *t = m->values[id].type;
  if (!t || t->kind != LD_T_INT || t->size > 8 || !m->values[id].u.bytes)
    return false;
  uint64_t x = 0;
  memcpy(&x, m->values[id].u.bytes, t->size);
  if (t->width < 64 && (x >> (t->width - 1) & 1))
    x |= ~0ull << t->width;
  *v = x;
  return true;
}

/* The stride of an operand: 1 known (*s, *exact), 0 not (yet). */
static bool st_get(const ana *a, uint32_t id, uint64_t *s, bool *exact)
{
  const ld_module *m = a->m;
  *exact = false;
  *s = 0;
  if (id >= m->bound)
    return false;
  const ld_value *v = &m->values[id];
  switch (v->kind) {
  case LD_V_CONSTANT:
    return st_type_ok(v->type);
  case LD_V_VARIABLE:
    return st_type_ok(v->type) && v->u.var->storage != SpvStorageClassInput;
  case LD_V_PARAM: {
    int fx = fn_idx(a, v->owner);
    return fx >= 0 && !a->fn_div[fx] && !a->vary[id] && st_type_ok(v->type);
  }
  case LD_V_RESULT:
    if (!a->st_state[id] || (a->st_def && a->st_def[id] && a->st_def[id] != a->st_blk))
      return false;
    *s = a->stride[id];
    *exact = a->st_state[id] == ST_EXACT;
    return true;
  default:
    return false;
  }
}

/* An OpLoad of the built-in variable `b`, or false. */
static bool st_builtin_load(const ld_module *m, uint32_t id, int32_t b)
{
  if (id >= m->bound || m->values[id].kind != LD_V_RESULT)
    return false;
  const ld_insn *in = m->values[id].u.insn;
  if (in->op != SpvOpLoad || in->n_ops < 1 || in->ops[0] >= m->bound)
    return false;
  const ld_value *p = &m->values[in->ops[0]];
  return p->kind == LD_V_VARIABLE && p->u.var->storage == SpvStorageClassInput && p->u.var->builtin == b;
}

/* Lane-wise operations without side effects whose operands are all ids:
 * equal operands in every lane give equal results. */
static bool st_pure(SpvOp op)
{
  switch (op) {
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv:
  case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: case SpvOpShiftLeftLogical:
  case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: case SpvOpBitwiseOr:
  case SpvOpBitwiseXor: case SpvOpBitwiseAnd: case SpvOpNot: case SpvOpSNegate:
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast: case SpvOpCopyObject:
  case SpvOpSelect: case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan:
  case SpvOpSGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual:
  case SpvOpULessThan: case SpvOpSLessThan: case SpvOpULessThanEqual: case SpvOpSLessThanEqual:
  case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot: case SpvOpLogicalEqual:
  case SpvOpLogicalNotEqual: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
    return true;
  default:
    return false;
  }
}

/* The stride of in's result (in a block every lane runs), or false. */
static bool st_eval(const ana *a, const ld_insn *in, uint64_t *s, bool *exact)
{
  const ld_module *m = a->m;
  const ld_type *t = in->type;
  uint64_t s0, s1, c;
  bool e0, e1;
  *exact = false;
  if (!st_type_ok(t))
    return false;
  if (!a->vary[in->result] && in->op != SpvOpUndef) {
    *s = 0;
    return true;
  }
  if (st_pure(in->op) && in->n_ops) {   /* every operand uniform */
    uint32_t k = 0;
    while (k < in->n_ops && st_get(a, in->ops[k], &s0, &e0) && s0 == 0)
      k++;
    if (k == in->n_ops) {
      *s = 0;
      return true;
    }
  }
  if (t->kind == LD_T_BOOL)
    return false;
  switch (in->op) {
  case SpvOpLoad:
    if (st_builtin_load(m, in->result, SpvBuiltInSubgroupLocalInvocationId)) {
      *s = 1;
      *exact = true;
      return true;
    }
    return false;
  case SpvOpCompositeExtract:
    if (!(a->flags & LD_UNI_LINEAR_X) || in->n_ops != 2 ||
        !(st_builtin_load(m, in->ops[0], SpvBuiltInGlobalInvocationId) ||
          st_builtin_load(m, in->ops[0], SpvBuiltInLocalInvocationId)))
      return false;
    *s = in->ops[1] == 0;
    return true;
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul:
    if (in->n_ops != 2 || !st_get(a, in->ops[0], &s0, &e0) || !st_get(a, in->ops[1], &s1, &e1))
      return false;
    if (in->op == SpvOpIAdd)
      *s = s0 + s1;
    else if (in->op == SpvOpISub)
      *s = s0 - s1;
    else if (s0 == 0 && s1 == 0)
      *s = 0;
    else if (s1 == 0 && st_const(m, in->ops[1], &c))
      *s = s0 * c;
    else if (s0 == 0 && st_const(m, in->ops[0], &c))
      *s = s1 * c;
    else
      return false;
    *s = st_wrap(*s, t);
    return true;
  case SpvOpBitwiseAnd:
    /* a local id component ANDed with a constant that keeps its low
     * LD_MAX_WG_LOG2 bits is the id (a local id is below 2^LD_MAX_WG_LOG2) */
    for (int q = 0; q < 2 && in->n_ops == 2; q++) {
      uint64_t keep = ((uint64_t)1 << LD_MAX_WG_LOG2) - 1;
      const ld_insn *x = in->ops[q] < m->bound && m->values[in->ops[q]].kind == LD_V_RESULT ?
                         m->values[in->ops[q]].u.insn : NULL;
      if (x && x->op == SpvOpCompositeExtract && x->n_ops == 2 &&
          st_builtin_load(m, x->ops[0], SpvBuiltInLocalInvocationId) && st_const(m, in->ops[1 - q], &c) &&
          (c & keep) == keep && st_get(a, in->ops[q], &s0, &e0)) {
        *s = s0;
        *exact = e0;
        return true;
      }
    }
    return false;
  case SpvOpSNegate: case SpvOpNot:
    if (in->n_ops != 1 || !st_get(a, in->ops[0], &s0, &e0))
      return false;
    *s = st_wrap(0 - s0, t);
    return true;
  case SpvOpShiftLeftLogical:
    if (in->n_ops != 2 || !st_get(a, in->ops[0], &s0, &e0) || !st_const(m, in->ops[1], &c) ||
        c >= (t->kind == LD_T_INT ? t->width : 64))
      return false;
    *s = st_wrap(s0 << c, t);
    return true;
  case SpvOpUConvert: case SpvOpSConvert: {
    if (in->n_ops != 1 || !st_get(a, in->ops[0], &s0, &e0))
      return false;
    /* narrowing keeps v0 + l * s modulo the smaller power of two; widening
     * only lanes that never wrapped */
    const ld_type *ft = in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
    bool narrow = ft && ft->kind == LD_T_INT && t->kind == LD_T_INT && ft->width > t->width;
    if (s0 != 0 && !e0 && !narrow)
      return false;
    *s = st_wrap(s0, t);
    *exact = e0 && t->width >= 16;
    return true;
  }
  case SpvOpBitcast: case SpvOpCopyObject: {
    const ld_type *st = in->n_ops == 1 && in->ops[0] < m->bound ? m->values[in->ops[0]].type : NULL;
    if (!st || st->kind != t->kind || st->size != t->size || !st_get(a, in->ops[0], &s0, &e0))
      return false;
    *s = s0;
    *exact = e0;
    return true;
  }
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: {
    const ld_type *bt = in->n_ops ? m->values[in->ops[0]].type : NULL;
    if (!bt || bt->kind != LD_T_POINTER || !bt->elem || !st_get(a, in->ops[0], &s0, &e0))
      return false;
    bool ptr = in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain;
    const ld_type *cur = bt->elem;   /* the type the next index selects in */
    for (uint32_t k = 1; k < in->n_ops; k++) {
      if (!st_get(a, in->ops[k], &s1, &e1) || !cur)
        return false;
      uint64_t step;   /* the bytes one step of this index moves */
      if (ptr && k == 1) {
        step = cur->size;   /* the element index steps the pointee's size */
      } else if (cur->kind == LD_T_STRUCT) {
        if (!st_const(m, in->ops[k], &c) || c >= cur->n_members)   /* a constant member */
          return false;
        cur = cur->members[c];
        continue;
      } else if (cur->kind == LD_T_ARRAY || cur->kind == LD_T_RUNTIME_ARRAY || cur->kind == LD_T_VECTOR) {
        step = cur->elem->size;
        cur = cur->elem;
      } else {
        return false;
      }
      if (s1 == 0)
        continue;
      const ld_type *it = m->values[in->ops[k]].type;
      if (!it || it->kind != LD_T_INT || (it->width < 64 && !e1))
        return false;
      s0 += s1 * step;
    }
    *s = s0;
    return true;
  }
  case SpvOpSelect: {
    uint64_t sc;
    bool ec;
    if (in->n_ops != 3 || !st_get(a, in->ops[0], &sc, &ec) || sc != 0 ||
        !st_get(a, in->ops[1], &s0, &e0) || !st_get(a, in->ops[2], &s1, &e1) || s0 != s1)
      return false;
    *s = s0;
    *exact = e0 && e1;
    return true;
  }
  default:
    return false;
  }
}

/* Evaluates the instructions of block bl from index first on whose stride
 * is not known yet, recording each one found (in divergent block def only,
 * or every lane's when def is NULL).  True if one was found. */
static bool st_block(ana *a, const ld_block *bl, uint32_t first, const ld_block *def)
{
  const ld_module *m = a->m;
  bool found = false;
  for (uint32_t i = first; i < bl->n_insns; ++i) {
    const ld_insn *in = &bl->insns[i];
    uint64_t s;
    bool e;
    if (!in->result || in->result >= m->bound || a->st_state[in->result] ||
        m->values[in->result].kind != LD_V_RESULT || !st_eval(a, in, &s, &e))
      continue;
    a->stride[in->result] = s;
    a->st_state[in->result] = e ? ST_EXACT : ST_KNOWN;
    if (def)
      a->st_def[in->result] = def;
    found = true;
  }
  return found;
}

static bool strides(ana *a)
{
  const ld_module *m = a->m;
  a->stride = calloc(m->bound + 1, sizeof *a->stride);
  a->st_state = calloc(m->bound + 1, 1);
  if (!a->stride || !a->st_state)
    return false;
  for (int it = 0; it < 1000; ++it) {
    bool changed = false;
    for (uint32_t fx = 0; fx < a->n_fn; ++fx) {
      fn_info *fi = &a->fi[fx];
      const ld_function *f = fi->fn;
      for (uint32_t b = 0; b < f->n_blocks; ++b) {
        const ld_block *bl = &f->blocks[b];
        if (!bl->reachable || fi->div[b] || a->fn_div[fx])
          continue;
        if (st_block(a, bl, 0, NULL))
          changed = true;
      }
    }
    if (!changed)
      break;
  }
  /* Divergent blocks: the lanes that run an instruction of block B ran
   * B's earlier instructions together with it (the same iteration of any
   * loop), and the values of blocks every lane runs in every lane.  So a
   * result whose operands are those has its stride among the lanes that
   * run B, as a use inside B sees it (ld_uni_lane_stride_in); a use
   * elsewhere (after a loop that lanes left at different iterations) may
   * see each lane's value of another iteration, and gets nothing. */
  a->st_def = calloc(m->bound + 1, sizeof *a->st_def);
  if (!a->st_def)
    return false;
  for (uint32_t fx = 0; fx < a->n_fn; ++fx) {
    fn_info *fi = &a->fi[fx];
    const ld_function *f = fi->fn;
    for (uint32_t b = 0; b < f->n_blocks; ++b) {
      const ld_block *bl = &f->blocks[b];
      if (!bl->reachable || !(fi->div[b] || a->fn_div[fx]))
        continue;
      a->st_blk = bl;
      st_block(a, bl, bl->n_phis, bl);
    }
  }
  a->st_blk = NULL;
  return true;
}

struct ld_uniformity {
  ana a;
};

void ld_uniformity_free(ld_uniformity *u)
{
  if (!u)
    return;
  ana *a = &u->a;
  for (uint32_t i = 0; i < a->n_fn; ++i) {
    free(a->fi[i].ipdom); free(a->fi[i].cd_from); free(a->fi[i].cd_to);
    free(a->fi[i].div); free(a->fi[i].cause); free(a->fi[i].in_region);
  }
  free(a->stride); free(a->st_state); free(a->st_def);
  free(a->vary); free(a->varmem); free(a->fi); free(a->fn_div); free(a->fn_cause); free(a->ret_vary);
  free(u);
}

ld_uniformity *ld_uniformity_compute(const ld_module *m, unsigned flags)
{
  ld_uniformity *u = calloc(1, sizeof *u);
  if (!u)
    return NULL;
  ana *a = &u->a;
  a->m = m;
  a->flags = flags;
  a->vary = calloc(m->bound + 1, 1);
  a->varmem = calloc(m->bound + 1, 1);
  a->fi = calloc(m->n_functions + 1, sizeof *a->fi);
  a->fn_div = calloc(m->n_functions + 1, 1);
  a->fn_cause = calloc(m->n_functions + 1, sizeof *a->fn_cause);
  a->ret_vary = calloc(m->n_functions + 1, 1);
  bool ok = a->vary && a->varmem && a->fi && a->fn_div && a->fn_cause && a->ret_vary;
  for (uint32_t i = 0; ok && i < m->n_functions; ++i) {
    const ld_function *f = m->functions[i];
    if (f->is_import || f->n_blocks == 0)
      continue;
    fn_info *fi = &a->fi[a->n_fn++];
    fi->fn = f;
    fi->div = calloc(f->n_blocks + 1, 1);
    fi->cause = calloc(f->n_blocks + 1, sizeof *fi->cause);
    fi->in_region = calloc(f->n_blocks + 1, 1);
    ok = fi->div && fi->cause && fi->in_region && postdom(fi) && control_dep(fi);
  }
  if (!ok) {
    ld_uniformity_free(u);
    return NULL;
  }
  for (int it = 0; it < 1000; ++it) {
    a->changed = false;
    pass(a);
    if (!a->changed)
      break;
  }
  if ((flags & LD_UNI_STRIDES) && !strides(a)) {
    ld_uniformity_free(u);
    return NULL;
  }
  return u;
}

bool ld_uni_value_varies(const ld_uniformity *u, uint32_t id)
{
  return !u || id_vary(&u->a, id);
}

static const fn_info *info_of(const ld_uniformity *u, const ld_block *b)
{
  if (!u || !b || b->label >= u->a.m->bound)
    return NULL;
  int i = fn_idx(&u->a, u->a.m->values[b->label].owner);
  return i < 0 ? NULL : &u->a.fi[i];
}

bool ld_uni_block_divergent(const ld_uniformity *u, const ld_block *b, const ld_insn **out_cause)
{
  const fn_info *fi = info_of(u, b);
  if (out_cause)
    *out_cause = NULL;
  if (!fi || b->index >= fi->n)
    return true;
  if (out_cause)
    *out_cause = fi->cause[b->index];
  return fi->div[b->index] != 0;
}

bool ld_uni_fn_divergent(const ld_uniformity *u, const ld_function *fn)
{
  int fx = u ? fn_idx(&u->a, fn) : -1;
  return fx < 0 || u->a.fn_div[fx];
}

bool ld_uni_branch_varies(const ld_uniformity *u, const ld_block *b)
{
  return !u || branch_varying(&u->a, b);
}

bool ld_uni_lane_stride(const ld_uniformity *u, uint32_t id, int64_t *stride)
{
  uint64_t s;
  bool e;
  if (!u || !u->a.st_state || !st_get(&u->a, id, &s, &e))
    return false;
  *stride = (int64_t)s;
  return true;
}

bool ld_uni_lane_stride_in(const ld_uniformity *u, uint32_t id, const ld_insn *use, int64_t *stride)
{
  if (ld_uni_lane_stride(u, id, stride))
    return true;
  const ana *a = u ? &u->a : NULL;
  if (!a || !a->st_def || !use || id >= a->m->bound || !a->st_def[id] || !a->st_state[id])
    return false;
  if (use->block != a->st_def[id])   /* a use in another block */
    return false;
  *stride = (int64_t)a->stride[id];
  return true;
}
