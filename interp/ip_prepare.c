/* ip_prepare.c - pre-decoding of functions into ip_op arrays.
 *
 * Every function reachable from the kernel is decoded once per launch when
 * the launch is created (so unsupported instructions are reported before
 * anything runs), then shared read-only by every work-group and thread.
 *
 * Per block the ops are laid out as [phis][body]; block_ops[b] points at the
 * first body op, so phi k of block b is block_ops[b][k - n_phis].  Phis and
 * no-op instructions (merges, OpLine, lifetime markers, debug-info OpExtInst)
 * never reach the dispatch loop: phis are executed on the CFG edge by the
 * branch that takes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include "ip_core.h"

static const uint8_t ip_zero_bytes[256];

uint32_t ip_value_size(const ld_type *t, uint32_t ptr_size) {
  if (!t) return 0;
  if (t->kind == LD_T_VOID) return 0;
  if (t->kind == LD_T_POINTER) return ptr_size;
  if (t->size) return t->size;
  return 8;   /* opaque handles: images, samplers, events, queues */
}

static int fn_index(const ld_module *m, const ld_function *f) {
  for (uint32_t i = 0; i < m->n_functions; i++)
    if (m->functions[i] == f) return (int)i;
  return -1;
}

static bool is_skipped(const ld_insn *in) {
  switch (in->op) {
  case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpLine: case SpvOpNoLine:
  case SpvOpNop: case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpMemoryBarrier:
  case SpvOpName: case SpvOpMemberName: case SpvOpDecorate: case SpvOpModuleProcessed:
    return true;
  case SpvOpExtInst:
    return in->ext_set == LD_EXT_OPENCL_DEBUGINFO_100 || in->ext_set == LD_EXT_NONSEMANTIC;
  default:
    return false;
  }
}

typedef struct opnd_buf { ip_opnd *v; uint32_t n, cap; } opnd_buf;

static void add_opnd(ip_launch *l, opnd_buf *b, uint32_t id) {
  const ld_module *m = l->m;
  if (b->n == b->cap) {
    b->cap = b->cap ? b->cap * 2 : 8;
    b->v = realloc(b->v, b->cap * sizeof *b->v);
  }
  ip_opnd *o = &b->v[b->n++];
  memset(o, 0, sizeof *o);
  o->id = id;
  if (id == 0 || id >= m->bound) { o->cbase = ip_zero_bytes; return; }
  const ld_value *v = &m->values[id];
  o->type = v->type;
  switch (v->kind) {
  case LD_V_CONSTANT: case LD_V_UNDEF:
    o->size = ip_value_size(v->type, l->ptr_size);
    o->cbase = v->u.bytes ? v->u.bytes : ip_zero_bytes;
    break;
  case LD_V_VARIABLE:
    o->size = l->ptr_size;
    o->cbase = (const uint8_t *)&l->var_addr[v->u.var->index];
    break;
  case LD_V_PARAM: case LD_V_RESULT:
    o->size = ip_value_size(v->type, l->ptr_size);
    o->off = l->slot_of[id];
    o->cbase = NULL;
    break;
  default:
    o->cbase = ip_zero_bytes;
    o->size = 0;
    break;
  }
}

/* Fills op->in from the instruction's id operands, using the grammar. */
static void decode_operands(ip_launch *l, const ld_insn *in, opnd_buf *b) {
  b->n = 0;
  if (in->op == SpvOpExtInst) {
    for (uint32_t i = 2; i < in->n_ops; i++) add_opnd(l, b, in->ops[i]);
    return;
  }
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  if (!d) return;
  uint32_t w = 0, n = in->n_ops;
  for (uint32_t k = 0; k < d->n_operands && w < n; k++) {
    const spv_operand_desc *od = &d->operands[k];
    if (od->cls == SPV_OPND_RESULT_TYPE || od->cls == SPV_OPND_RESULT) continue;
    bool again = true;
    while (again && w < n) {
      again = od->quant == SPV_Q_MANY;
      switch (od->cls) {
      case SPV_OPND_ID: add_opnd(l, b, in->ops[w++]); break;
      case SPV_OPND_LITERAL_STRING: {
        while (w < n) {
          uint32_t x = in->ops[w++];
          if ((x >> 24) == 0 || ((x >> 16) & 0xff) == 0 || ((x >> 8) & 0xff) == 0 || (x & 0xff) == 0) break;
        }
        break;
      }
      case SPV_OPND_BITMASK: {
        w++;
        const char *kn = spv_operand_kind_name(od->kind);
        if (kn && strcmp(kn, "ImageOperands") == 0)
          while (w < n) add_opnd(l, b, in->ops[w++]);
        else
          return;   /* memory-access and similar parameters: not needed */
        break;
      }
      case SPV_OPND_PAIR_LIT_ID: {
        /* OpSwitch: literal width follows the selector */
        uint32_t lw = 1;
        if (in->op == SpvOpSwitch && in->n_ops > 0 && in->ops[0] < l->m->bound) {
          const ld_type *st = l->m->values[in->ops[0]].type;
          if (st && st->width > 32) lw = 2;
        }
        w += lw + 1;
        break;
      }
      case SPV_OPND_PAIR_ID_LIT: add_opnd(l, b, in->ops[w]); w += 2; break;
      case SPV_OPND_PAIR_ID_ID:
        add_opnd(l, b, in->ops[w]);
        if (in->op != SpvOpPhi) add_opnd(l, b, in->ops[w + 1 < n ? w + 1 : w]);
        w += 2;
        break;
      default: w++; break;
      }
    }
  }
}

static int op_unsupported(ip_sg *sg, const ip_op *op) {
  return ip_fault(sg, IP_FAULT_UNSUPPORTED, sg->mask, 0, "%s is not supported",
                  spv_opcode_name(op->insn->op));
}
static int op_nop(ip_sg *sg, const ip_op *op) { (void)sg; (void)op; return IP_NEXT; }

static ip_handler *lookup(const ld_module *m, const ld_insn *in, ip_op *op) {
  ip_handler *h;
  if (in->op == SpvOpPhi) return op_nop;
  if ((h = ip_lookup_control(m, in, op))) return h;
  if ((h = ip_lookup_memory(m, in, op))) return h;
  if ((h = ip_lookup_arith(m, in, op))) return h;
  if ((h = ip_lookup_ocl(m, in, op))) return h;
  if ((h = ip_lookup_subgroup(m, in, op))) return h;
  if ((h = ip_lookup_intel(m, in, op))) return h;
  if ((h = ip_lookup_image(m, in, op))) return h;
  return NULL;
}

/* ---- test-only: ip_launch_desc.break_op ----
 *
 * The conformance checker's self-test (spirv-sgconform suite --break-op N)
 * must be able to prove that a wrong result is caught.  When desc.break_op is
 * nonzero, every op of that SpvOp that produces a result gets op_broken as
 * its handler here, at prepare time; the original handler is kept in one
 * extra ip_opnd after op->in[n_in] (its cbase points at a heap-allocated
 * broken_rec), so nothing changes in the structures the families see and a
 * launch without break_op runs exactly the normal handlers (zero cost).
 * op_broken runs the real handler, then (when it completed: IP_NEXT) XORs
 * bit 0 of the first byte of one lane's result: lane 1 when it was active,
 * else the first active lane.  Phis never reach the dispatch loop and cannot
 * be broken. */
typedef struct broken_rec { ip_handler *orig; } broken_rec;

static int op_broken(ip_sg *sg, const ip_op *op) {
  const broken_rec *br = (const broken_rec *)op->in[op->n_in].cbase;
  ip_mask before = sg->mask;
  int rc = br->orig(sg, op);
  if (rc != IP_NEXT || !op->res_size || ip_mask_empty(before)) return rc;
  uint32_t lane = ip_mask_test(before, 1) ? 1u : ip_mask_first(before);
  ip_res(sg, op, lane)[0] ^= 1u;
  return rc;
}

/* Wraps op's handler (called after op->fn is final). */
static int break_wrap(ip_op *op) {
  ip_opnd *in = calloc(op->n_in + 1, sizeof *in);
  broken_rec *br = malloc(sizeof *br);
  if (!in || !br) { free(in); free(br); return IP_ERR_NOMEM; }
  if (op->n_in) memcpy(in, op->in, op->n_in * sizeof *in);
  free((void *)op->in);
  br->orig = op->fn;
  in[op->n_in].cbase = (const uint8_t *)br;
  op->in = in;
  op->fn = op_broken;
  return IP_OK;
}

static const char *insn_name(const ld_insn *in) {
  static __thread char buf[96];
  if (in->op == SpvOpExtInst) {
    const char *n = in->ext_set == LD_EXT_OPENCL_STD ? spv_opencl_std_name(in->ext_op) : NULL;
    if (n) snprintf(buf, sizeof buf, "OpExtInst %s", n);
    else snprintf(buf, sizeof buf, "OpExtInst %u of an unknown set", in->ext_op);
    return buf;
  }
  return spv_opcode_name(in->op);
}

static int prepare_fn(ip_launch *l, const ld_function *f, int depth, char *err, size_t err_size);

static int prepare_body(ip_launch *l, ip_fnx *x, const ld_function *f, int depth,
                        char *err, size_t err_size) {
  const ld_module *m = l->m;
  /* registers */
  uint32_t *slot_off = calloc(f->n_locals ? f->n_locals : 1, sizeof *slot_off);
  uint64_t cur = 0;
  for (uint32_t i = 0; i < f->n_locals; i++) {
    uint32_t id = f->locals[i];
    if (id >= m->bound) continue;
    const ld_type *t = m->values[id].type;
    uint32_t sz = ip_value_size(t, l->ptr_size);
    uint32_t al = t && t->align ? t->align : 8;
    if (al > 16) al = 16;
    if (al & (al - 1)) al = 8;
    cur = (cur + al - 1) & ~(uint64_t)(al - 1);
    slot_off[i] = (uint32_t)cur;
    l->slot_of[id] = (uint32_t)cur;
    cur += sz;
  }
  if (cur > IP_MAX_REGS_BYTES) {
    /* name the largest value: that is what a user can find in the source */
    uint32_t big = 0, big_sz = 0;
    for (uint32_t i = 0; i < f->n_locals; i++) {
      uint32_t id = f->locals[i];
      uint32_t sz = id < m->bound ? ip_value_size(m->values[id].type, l->ptr_size) : 0;
      if (sz > big_sz) big = id, big_sz = sz;
    }
    snprintf(err, err_size, "registers of function '%s': %llu bytes per work-item (its largest value, %s, "
             "%u bytes), more than the limit of %llu bytes (256 MiB)", f->name ? f->name : ld_id_name(m, f->id),
             (unsigned long long)cur, ld_id_name(m, big), big_sz, (unsigned long long)IP_MAX_REGS_BYTES);
    free(slot_off);
    return IP_ERR_ARGS;
  }
  x->base.regs_per_lane = (uint32_t)((cur + 15) & ~(uint64_t)15);
  x->base.slot_off = slot_off;

  /* ops */
  uint32_t total = 0;
  for (uint32_t b = 0; b < f->n_blocks; b++) total += f->blocks[b].n_insns;
  x->ops = calloc(total ? total : 1, sizeof *x->ops);
  const ip_op **bops = calloc(f->n_blocks ? f->n_blocks : 1, sizeof *bops);
  uint32_t *bn = calloc(f->n_blocks ? f->n_blocks : 1, sizeof *bn);
  x->base.block_ops = bops;
  x->base.block_n_ops = bn;
  x->base.n_blocks = f->n_blocks;
  opnd_buf ob = {0};
  uint32_t n = 0;
  uint64_t priv = 0;   /* 64-bit: several large arrays must not wrap */
  int rc = IP_OK;
  for (uint32_t b = 0; b < f->n_blocks && rc == IP_OK; b++) {
    const ld_block *blk = &f->blocks[b];
    uint32_t phi_bytes = 0, body_start = 0;
    for (uint32_t i = 0; i < blk->n_insns; i++) {
      const ld_insn *in = &blk->insns[i];
      if (i == blk->n_phis) body_start = n;
      if (i >= blk->n_phis && is_skipped(in) && i + 1 < blk->n_insns) continue;
      ip_op *op = &x->ops[n++];
      op->insn = in;
      if (in->result && in->type && in->result < m->bound &&
          (m->values[in->result].kind == LD_V_RESULT)) {
        op->res_size = ip_value_size(in->type, l->ptr_size);
        op->res_off = l->slot_of[in->result];
      }
      decode_operands(l, in, &ob);
      op->n_in = ob.n;
      if (ob.n) {
        ip_opnd *cp = malloc(ob.n * sizeof *cp);
        memcpy(cp, ob.v, ob.n * sizeof *cp);
        op->in = cp;
      }
      if (in->op == SpvOpPhi) phi_bytes += op->res_size;
      ip_handler *h = lookup(m, in, op);
      if (!h) {
        if (blk->reachable) {
          if (in->loc)
            snprintf(err, err_size, "%s is not supported (word %u, %s)", insn_name(in),
                     in->word_offset, ld_insn_where(m, in));
          else
            snprintf(err, err_size, "%s is not supported (%s)", insn_name(in), ld_insn_where(m, in));
          rc = IP_ERR_UNSUPPORTED;
          break;
        }
        h = op_unsupported;
      }
      op->fn = h;
      if (in->op == SpvOpVariable) {
        const ld_type *pt = in->type ? in->type->elem : NULL;
        uint32_t sz = pt && pt->size ? pt->size : 8, al = pt && pt->align ? pt->align : 8;
        if (al > 128) al = 128;
        if (al & (al - 1)) al = 16;
        priv = (priv + al - 1) & ~(uint64_t)(al - 1);
        if (priv + sz > IP_MAX_PRIVATE_BYTES) {
          snprintf(err, err_size, "private memory of a work-item: variable '%s' (%u bytes) brings function "
                   "'%s' to %llu bytes, more than the limit of %llu bytes (1 GiB per work-item; %s)",
                   ld_id_name(m, in->result), sz, f->name ? f->name : ld_id_name(m, f->id),
                   (unsigned long long)(priv + sz), (unsigned long long)IP_MAX_PRIVATE_BYTES,
                   ld_insn_where(m, in));
          rc = IP_ERR_ARGS;
          break;
        }
        op->aux = (uint32_t)priv;
        if ((x->base.n_vars & 15) == 0) {
          uint32_t *ne = realloc((void *)x->base.var_ext, (x->base.n_vars + 16) * 2 * sizeof *ne);
          if (!ne) { rc = IP_ERR_NOMEM; break; }
          x->base.var_ext = ne;
        }
        uint32_t *ve = (uint32_t *)x->base.var_ext;
        ve[2 * x->base.n_vars] = (uint32_t)priv;
        ve[2 * x->base.n_vars + 1] = sz;
        x->base.n_vars++;
        priv += sz;
      }
      if (in->op == SpvOpFunctionCall && in->n_ops > 0 && in->ops[0] < m->bound) {
        const ld_value *cv = &m->values[in->ops[0]];
        const ld_function *callee = cv->kind == LD_V_FUNCTION ? cv->u.fn : NULL;
        if (!callee || callee->is_import || callee->n_blocks == 0) {
          if (blk->reachable) {
            snprintf(err, err_size, "call to function '%s' which has no body is not supported (%s)",
                     ld_id_name(m, in->ops[0]), ld_insn_where(m, in));
            rc = IP_ERR_UNSUPPORTED;
            break;
          }
          op->fn = op_unsupported;
        } else if (blk->reachable) {
          rc = prepare_fn(l, callee, depth + 1, err, err_size);
          if (rc != IP_OK) break;
          op->aux_ptr = l->fns[fn_index(m, callee)];
        } else {
          op->fn = op_unsupported;
        }
      }
      if (l->desc.break_op && (uint32_t)in->op == l->desc.break_op && op->res_size &&
          op->fn != op_unsupported && in->op != SpvOpPhi && in->op != SpvOpFunctionCall) {
        rc = break_wrap(op);
        if (rc != IP_OK) break;
      }
    }
    if (blk->n_phis == blk->n_insns) body_start = n;
    bops[b] = &x->ops[body_start];
    bn[b] = n - body_start;
    if (phi_bytes > x->phi_bytes) x->phi_bytes = phi_bytes;
  }
  free(ob.v);
  x->n_ops = n;
  x->base.private_bytes = (uint32_t)((priv + 15) & ~(uint64_t)15);
  if (x->phi_bytes > l->max_phi_bytes) l->max_phi_bytes = x->phi_bytes;
  l->priv_size += x->base.private_bytes;
  return rc;
}

static int prepare_fn(ip_launch *l, const ld_function *f, int depth, char *err, size_t err_size) {
  int idx = fn_index(l->m, f);
  if (idx < 0) { snprintf(err, err_size, "internal error: unknown function"); return IP_ERR_ARGS; }
  if (l->fns[idx]) return IP_OK;
  if (depth > 64 || f->max_call_depth == UINT32_MAX) {
    snprintf(err, err_size, "recursive function calls are not supported (function '%s')",
             f->name ? f->name : ld_id_name(l->m, f->id));
    return IP_ERR_UNSUPPORTED;
  }
  ip_fnx *x = calloc(1, sizeof *x);
  if (!x) return IP_ERR_NOMEM;
  x->base.fn = f;
  x->index = (uint32_t)idx;
  l->fns[idx] = x;
  return prepare_body(l, x, f, depth, err, err_size);
}

int ip_prepare_all(ip_launch *l, char *err, size_t err_size) {
  const ld_module *m = l->m;
  l->fns = calloc(m->n_functions ? m->n_functions : 1, sizeof *l->fns);
  l->slot_of = calloc(m->bound ? m->bound : 1, sizeof *l->slot_of);
  if (!l->fns || !l->slot_of) return IP_ERR_NOMEM;
  l->priv_size = 0;
  int rc = prepare_fn(l, l->k->fn, 0, err, err_size);
  if (rc != IP_OK) return rc;
  l->kernel_fn = l->fns[fn_index(m, l->k->fn)];
  if (l->priv_size < 16) l->priv_size = 16;
  return IP_OK;
}

void ip_prepare_free(ip_launch *l) {
  if (!l->fns) return;
  for (uint32_t i = 0; i < l->m->n_functions; i++) {
    ip_fnx *x = l->fns[i];
    if (!x) continue;
    for (uint32_t k = 0; k < x->n_ops; k++) {
      const ip_op *op = &x->ops[k];
      if (op->fn == op_broken) free((void *)op->in[op->n_in].cbase);
      free((void *)op->in);
      switch (op->insn->op) {   /* aux_ptr allocated by exec_control.c / exec_memory.c */
      case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpAccessChain:
      case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
        free((void *)op->aux_ptr);
        break;
      default: break;
      }
    }
    free(x->ops);
    free((void *)x->base.block_ops);
    free((void *)x->base.block_n_ops);
    free((void *)x->base.var_ext);
    free((void *)x->base.slot_off);
    free(x);
  }
  free(l->fns);
  free(l->slot_of);
  l->fns = NULL;
}
