/* exec_control.c - branches, switches, calls, returns, barriers.
 * Phis are executed on CFG edges by ip_branch (ip_exec.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include "ip_core.h"

static const ld_block *label_block(const ld_module *m, uint32_t id) {
  if (id == 0 || id >= m->bound || m->values[id].kind != LD_V_LABEL) return NULL;
  return m->values[id].u.block;
}

/* OpBranch: every active lane goes to the target. */
static int op_branch(ip_sg *sg, const ip_op *op) {
  const ld_block *t = op->aux_ptr;
  ip_mask m = sg->mask;
  return ip_branch(sg, op->insn->block, 1, &t, &m);
}

/* OpBranchConditional: lanes split by the condition. */
static int op_branch_cond(ip_sg *sg, const ip_op *op) {
  const ld_block *const *tg = op->aux_ptr;
  ip_mask t = {{0, 0}}, f;
  if (op->in[0].cbase) {
    if (op->in[0].cbase[0] & 1) t = sg->mask;
  } else {
    const uint8_t *c = sg->regs + (size_t)op->in[0].off * sg->size;
    IP_FOR_LANES(sg->mask, l) if (c[l] & 1) ip_mask_set(&t, l);
  }
  f = ip_mask_andnot(sg->mask, t);
  if (ip_mask_empty(f) || tg[0] == tg[1]) return ip_branch(sg, op->insn->block, 1, &tg[0], &sg->mask);
  if (ip_mask_empty(t)) return ip_branch(sg, op->insn->block, 1, &tg[1], &f);
  ip_mask ms[2] = {t, f};
  return ip_branch(sg, op->insn->block, 2, tg, ms);
}

typedef struct sw_case { uint64_t value; const ld_block *target; } sw_case;
typedef struct sw_info {
  const ld_block *def;
  uint32_t n;
  uint64_t mask;        /* selector width mask */
  sw_case cases[];
} sw_info;

/* OpSwitch: any integer width; lanes grouped by target in the block's
 * successor order. */
static int op_switch(ip_sg *sg, const ip_op *op) {
  const sw_info *sw = op->aux_ptr;
  const ld_block *blk = op->insn->block;
  const ld_block *lane_t[IP_MAX_LANES];
  IP_FOR_LANES(sg->mask, l) {
    uint64_t v = ip_in_uint(sg, op, 0, l) & sw->mask;
    const ld_block *t = sw->def;
    for (uint32_t i = 0; i < sw->n; i++)
      if (sw->cases[i].value == v) { t = sw->cases[i].target; break; }
    lane_t[l] = t;
  }
  const ld_block *targets[IP_MAX_LANES];
  ip_mask masks[IP_MAX_LANES];
  uint32_t n = 0;
  for (uint32_t s = 0; s < blk->n_succs; s++) {
    ip_mask m = {{0, 0}};
    IP_FOR_LANES(sg->mask, l) if (lane_t[l] == blk->succs[s]) ip_mask_set(&m, l);
    if (ip_mask_empty(m) || n >= IP_MAX_LANES) continue;
    targets[n] = blk->succs[s];
    masks[n++] = m;
  }
  if (n == 0) { targets[0] = sw->def; masks[0] = sg->mask; n = 1; }
  return ip_branch(sg, blk, n, targets, masks);
}

/* OpReturn / OpReturnValue: the active lanes leave the function. */
static int op_return(ip_sg *sg, const ip_op *op) {
  return ip_return(sg, sg->mask, op->insn->op == SpvOpReturnValue ? op : NULL);
}

/* OpFunctionCall: pushes a frame for the active lanes. */
static int op_call(ip_sg *sg, const ip_op *op) {
  return ip_call(sg, op, op->aux_ptr);
}

/* OpUnreachable: a fault; the lanes terminate. */
static int op_unreachable(ip_sg *sg, const ip_op *op) {
  (void)op;
  int r = ip_fault(sg, IP_FAULT_UNREACHABLE, sg->mask, 0, "OpUnreachable executed");
  ip_kill(sg, sg->mask);
  return r == IP_HALT ? IP_HALT : IP_JUMPED;
}

/* OpControlBarrier: Workgroup scope = rendezvous of all subgroups; Subgroup
 * scope = every lane of the subgroup must be here; no suspension. */
static int op_barrier(ip_sg *sg, const ip_op *op) {
  uint32_t scope = (uint32_t)ip_in_uint(sg, op, 0, ip_mask_first(sg->mask));
  ip_mask live = ip_live_lanes(sg);
  if (scope == SpvScopeSubgroup || scope == SpvScopeInvocation) {
    if (scope == SpvScopeSubgroup && !ip_mask_eq(sg->mask, live))
      return ip_ub(sg, IP_UB_PARTIAL_COLLECTIVE, ip_mask_andnot(live, sg->mask),
                   "subgroup barrier not reached by every lane of the subgroup");
    return IP_NEXT;
  }
  if (!sg->resumed && !ip_sgx_of(sg)->arrived && !ip_mask_eq(sg->mask, live)) {
    ip_wgx *x = ip_wgx_of(sg->wg);
    if (!x->barrier_div_reported) {
      x->barrier_div_reported = true;
      int r = ip_fault(sg, IP_FAULT_BARRIER_DIVERGENCE, ip_mask_andnot(live, sg->mask), 0,
                       "work-group barrier not reached by every work-item of the subgroup");
      if (r == IP_HALT) return r;
    }
  }
  if (!ip_wg_rendezvous(sg)) return IP_SUSPEND;
  return IP_NEXT;
}

static int op_nop(ip_sg *sg, const ip_op *op) { (void)sg; (void)op; return IP_NEXT; }

/* OpUndef inside a function: zeros. */
static int op_undef(ip_sg *sg, const ip_op *op) {
  IP_FOR_LANES(sg->mask, l) memset(ip_res(sg, op, l), 0, op->res_size);
  return IP_NEXT;
}

ip_handler *ip_lookup_control(const ld_module *m, const ld_insn *in, ip_op *op) {
  switch (in->op) {
  case SpvOpBranch: {
    const ld_block *t = in->n_ops ? label_block(m, in->ops[0]) : NULL;
    if (!t) return NULL;
    op->aux_ptr = t;
    return op_branch;
  }
  case SpvOpBranchConditional: {
    if (in->n_ops < 3) return NULL;
    const ld_block **tg = malloc(2 * sizeof *tg);   /* owned by the module-lifetime pool below */
    if (!tg) return NULL;
    tg[0] = label_block(m, in->ops[1]);
    tg[1] = label_block(m, in->ops[2]);
    if (!tg[0] || !tg[1]) { free(tg); return NULL; }
    op->aux_ptr = tg;
    op->aux = 1;   /* aux_ptr is malloc'd */
    return op_branch_cond;
  }
  case SpvOpSwitch: {
    if (in->n_ops < 2 || in->ops[0] >= m->bound) return NULL;
    const ld_type *st = m->values[in->ops[0]].type;
    uint32_t width = st && st->width ? st->width : 32;
    uint32_t lw = width > 32 ? 2 : 1;
    uint32_t n = (in->n_ops - 2) / (lw + 1);
    sw_info *sw = malloc(sizeof *sw + n * sizeof(sw_case));
    if (!sw) return NULL;
    sw->def = label_block(m, in->ops[1]);
    sw->n = n;
    sw->mask = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
    for (uint32_t i = 0; i < n; i++) {
      const uint32_t *w = &in->ops[2 + i * (lw + 1)];
      uint64_t v = w[0];
      if (lw == 2) v |= (uint64_t)w[1] << 32;
      sw->cases[i].value = v & sw->mask;
      sw->cases[i].target = label_block(m, w[lw]);
      if (!sw->cases[i].target) { free(sw); return NULL; }
    }
    if (!sw->def) { free(sw); return NULL; }
    op->aux_ptr = sw;
    op->aux = 1;
    return op_switch;
  }
  case SpvOpReturn: case SpvOpReturnValue: return op_return;
  case SpvOpFunctionCall: return op_call;
  case SpvOpUnreachable: return op_unreachable;
  case SpvOpControlBarrier: return op_barrier;
  case SpvOpMemoryBarrier: case SpvOpNop: case SpvOpLifetimeStart: case SpvOpLifetimeStop:
  case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpLine: case SpvOpNoLine:
    return op_nop;
  case SpvOpUndef: return op_undef;
  default: return NULL;
  }
}
