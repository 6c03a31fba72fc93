/* jit_run.c - the host side of a JIT launch: work-group and subgroup loops,
 * the SIMT stack helpers the compiled code calls, built-in values, the region
 * table, and fault reporting through the interpreter's own ip_mem.
 *
 * Only contracted interfaces are used: arguments are read with ip_sg_read and
 * the launch-wide regions with ip_region_of on a work-group set up with
 * ip_wg_begin; faults are recorded by ip_mem on such a work-group (same
 * kinds, messages and records as the interpreter).  jit_kernel_run is
 * reentrant: callers may run disjoint work-group ranges on several threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jit_internal.h"
#include "ip_core.h"

typedef struct jit_entry_s { int32_t pc, rpc; ip_mask mask; } jit_entry_s;

typedef struct jit_sgctx {
  jit_ctx c;                 /* first: the compiled code's view */
  uint32_t id, n_lanes;
  ip_mask all;
  uint8_t *frame;
  uint8_t *priv;
  bool done;
  uint64_t steps;            /* branches taken, for the step limit */
  uint32_t sp;
  jit_entry_s stack[JIT_MAX_STACK];
  uint32_t base[JIT_MAX_INST];
} jit_sgctx;

typedef struct jit_run {
  jit_kernel *k;
  ip_launch *l;
  const ip_ndrange *nd;
  jit_region *regions;
  uint32_t n_table;
  uint8_t *args;
  uint32_t n_local;
  uint8_t **local_mem;
  uint64_t *local_size;
  uint64_t priv_stride;      /* bytes of private memory per lane */
  uint32_t group[3];
  size_t wsize[3];
  uint32_t n_sg;
  jit_sgctx **sgs;
  ip_wg *dwg;                /* work-group used to record diagnostics */
  const ip_op **iop;         /* [k->n_insns] the interpreter's op of an insn (rt_interp) */
  uint32_t *iregs;           /* [k->n_insns] regs_per_lane of its function */
  uint8_t *tmp;              /* rt_interp register buffer */
  size_t tmp_cap;
  uint32_t dgroup[3];
  bool stop;
} jit_run;

static int32_t *f_mask(const jit_kernel *k, uint8_t *f) { (void)k; return (int32_t *)(void *)f; }
static int32_t *f_tgt(const jit_kernel *k, uint8_t *f) { return (int32_t *)(void *)(f + 4 * k->S); }
static int32_t *f_pred(const jit_kernel *k, uint8_t *f) { return (int32_t *)(void *)(f + 8 * k->S); }

static int32_t settle(jit_sgctx *s, const jit_kernel *k) {
  while (s->sp > 0) {
    jit_entry_s *t = &s->stack[s->sp - 1];
    if (ip_mask_empty(t->mask) || t->pc == t->rpc) { s->sp--; continue; }
    break;
  }
  int32_t *mask = f_mask(k, s->frame);
  if (s->sp == 0) { memset(mask, 0, 4 * k->S); return -1; }
  jit_entry_s *t = &s->stack[s->sp - 1];
  for (uint32_t l = 0; l < k->S; l++) mask[l] = ip_mask_test(t->mask, l);
  return t->pc;
}

static bool push(jit_sgctx *s, int32_t pc, int32_t rpc, ip_mask m) {
  if (s->sp >= JIT_MAX_STACK) return false;
  s->stack[s->sp].pc = pc;
  s->stack[s->sp].rpc = rpc;
  s->stack[s->sp].mask = m;
  s->sp++;
  return true;
}

static ip_sg *diag_sg(jit_run *r, uint32_t sgid);

/* A runaway loop: the same fault the interpreter records (IP_FAULT_STEP_LIMIT
 * or IP_FAULT_TIME_LIMIT), then the launch stops.  Compiled code reaches the
 * host at every branch, so the step limit counts branches taken here (the
 * interpreter counts instructions; docs/semantics.md, JIT). */
static int32_t limit_fault(jit_run *r, jit_sgctx *s, ip_mask act, ip_diag_kind kind, const char *msg) {
  ip_sg *sg = diag_sg(r, s->id);
  if (sg) {
    ip_op op;
    memset(&op, 0, sizeof op);
    const ip_op *saved = sg->cur;
    ip_mask savedm = sg->mask;
    sg->cur = &op;
    sg->mask = act;
    ip_fault(sg, kind, act, 0, "%s", msg);
    sg->cur = saved;
    sg->mask = savedm;
  }
  __atomic_store_n(&r->l->stop, 1, __ATOMIC_RELAXED);
  r->stop = true;
  s->sp = 0;
  return -1;
}

int32_t jit_rt_branch(jit_ctx *c, uint8_t *frame, int32_t seg) {
  jit_sgctx *s = (jit_sgctx *)c;
  const jit_kernel *k = c->run->k;
  const jit_seg *sg = &k->seg[seg];
  if (s->sp == 0) return -1;
  jit_entry_s *top = &s->stack[s->sp - 1];
  ip_mask act = top->mask;
  ip_launch *L = c->run->l;
  if (++s->steps >= L->step_limit) {
    char msg[96];
    snprintf(msg, sizeof msg, "step limit of %llu branches reached (JIT)", (unsigned long long)L->step_limit);
    return limit_fault(c->run, s, act, IP_FAULT_STEP_LIMIT, msg);
  }
  if ((s->steps & 0xffff) == 0 && L->desc.time_limit > 0 && ip_now() - L->t_start > L->desc.time_limit) {
    char msg[96];
    snprintf(msg, sizeof msg, "time limit of %g s reached", L->desc.time_limit);
    return limit_fault(c->run, s, act, IP_FAULT_TIME_LIMIT, msg);
  }
  int32_t *pred = f_pred(k, frame), *tgt = f_tgt(k, frame);
  IP_FOR_LANES(act, l) if (l < k->S) pred[l] = seg;
  if (sg->n_succ <= 1) {
    top->pc = sg->n_succ == 1 ? sg->succ[0] : -1;
    return settle(s, k);
  }
  ip_mask m[64];
  uint32_t nonempty = 0, last = 0;
  for (int32_t q = 0; q < sg->n_succ; q++) m[q] = (ip_mask){{0, 0}};
  IP_FOR_LANES(act, l) {
    int32_t q = l < k->S ? tgt[l] : 0;
    if (q < 0 || q >= sg->n_succ) q = 0;
    ip_mask_set(&m[q], l);
  }
  /* distinct targets (two successors may be the same segment only if the
   * loader listed them twice; it lists distinct ones) */
  for (int32_t q = 0; q < sg->n_succ; q++) if (!ip_mask_empty(m[q])) { nonempty++; last = (uint32_t)q; }
  if (nonempty == 1) {
    top->pc = sg->succ[last];
    return settle(s, k);
  }
  int32_t R = sg->rpc;
  if (top->rpc == R) s->sp--;
  else top->pc = R;
  for (int32_t q = sg->n_succ - 1; q >= 0; q--) {
    if (ip_mask_empty(m[q]) || sg->succ[q] == R) continue;
    if (!push(s, sg->succ[q], R, m[q])) { c->run->stop = true; s->sp = 0; return -1; }
  }
  return settle(s, k);
}

int32_t jit_rt_call(jit_ctx *c, uint8_t *frame, int32_t inst, int32_t cont, int32_t entry) {
  (void)frame;
  jit_sgctx *s = (jit_sgctx *)c;
  const jit_kernel *k = c->run->k;
  if (s->sp == 0) return -1;
  jit_entry_s *top = &s->stack[s->sp - 1];
  top->pc = cont;
  if (!push(s, entry, cont, top->mask)) { c->run->stop = true; s->sp = 0; return -1; }
  s->base[inst] = s->sp - 1;
  return settle(s, k);
}

int32_t jit_rt_return(jit_ctx *c, uint8_t *frame, int32_t inst) {
  (void)frame;
  jit_sgctx *s = (jit_sgctx *)c;
  const jit_kernel *k = c->run->k;
  if (s->sp == 0) return -1;
  ip_mask act = s->stack[s->sp - 1].mask;
  uint32_t b = inst == 0 ? 0 : s->base[inst];
  for (uint32_t i = b; i < s->sp; i++) s->stack[i].mask = ip_mask_andnot(s->stack[i].mask, act);
  return settle(s, k);
}

/* A work-group of the interpreter for recording diagnostics of this group. */
static ip_sg *diag_sg(jit_run *r, uint32_t sgid) {
  if (r->dwg && memcmp(r->dgroup, r->group, sizeof r->group)) { ip_wg_end(r->dwg); r->dwg = NULL; }
  if (!r->dwg) {
    char err[256];
    r->dwg = ip_wg_begin(r->l, r->group, err, sizeof err);
    if (!r->dwg) return NULL;
    memcpy(r->dgroup, r->group, sizeof r->group);
  }
  if (sgid >= ip_wg_subgroup_count(r->dwg)) return NULL;
  return ip_wg_subgroup(r->dwg, sgid);
}

void *jit_rt_mem(jit_ctx *c, int32_t insn, int32_t lane, uint64_t addr, int32_t size, int32_t align,
                 int32_t access) {
  jit_sgctx *s = (jit_sgctx *)c;
  jit_run *r = c->run;
  const ld_addr_layout *a = &r->k->m->layout;
  uint32_t reg = ip_addr_region(a, addr);
  uint64_t off = ip_addr_offset(a, addr);
  if (reg >= a->local_base && reg < r->n_table) {
    /* local or private: our own memory; only bounds matter here */
    const jit_region *R = &r->regions[reg];
    uint64_t lim = access == IP_READ ? R->size : R->wsize;
    if (R->base && off + (uint64_t)size <= lim) return R->base + off;
  }
  ip_sg *sg = diag_sg(r, s->id);
  if (!sg) return NULL;
  ip_op op;
  memset(&op, 0, sizeof op);
  op.insn = insn > 0 && (uint32_t)insn < r->k->n_insns ? r->k->insns[insn] : NULL;
  const ip_op *saved = sg->cur;
  ip_mask savedm = sg->mask;
  sg->cur = &op;
  sg->mask = (ip_mask){{0, 0}};
  ip_mask_set(&sg->mask, (uint32_t)lane);
  void *p = ip_mem(sg, (uint32_t)lane, addr, (uint64_t)size, (uint32_t)align, (ip_access)access);
  sg->cur = saved;
  sg->mask = savedm;
  if (ip_launch_report(r->l)->stopped) r->stop = true;
  if (!p) return NULL;
  if (reg < a->local_base) return p;   /* launch-wide memory: the same bytes */
  return NULL;
}

void jit_rt_group(jit_ctx *c, uint8_t *frame, int32_t insn, const void *in, void *out) {
  const jit_kernel *k = c->run->k;
  const ld_insn *i = k->insns[insn];
  ip_mask act = {{0, 0}};
  int32_t *mask = f_mask(k, frame);
  for (uint32_t l = 0; l < k->S; l++) if (mask[l]) ip_mask_set(&act, l);
  ip_group_arith ga;
  if (!ip_group_arith_of(i->op, &ga)) return;   /* the planner admits only arithmetic group ops */
  ip_group_arith_eval(ga, (SpvGroupOperation)i->ops[1], 0, i->type, act, in, out);
}

/* The interpreter's prepared op for insn (the launch prepared every
 * reachable function), and its function's register size per lane. */
static const ip_op *find_op(jit_run *r, int32_t idx) {
  if (r->iop[idx]) return r->iop[idx];
  const ld_insn *in = r->k->insns[idx];
  ip_launch *l = r->l;
  for (uint32_t f = 0; f < r->k->m->n_functions; f++) {
    const ip_fnx *x = l->fns ? l->fns[f] : NULL;
    if (!x) continue;
    for (uint32_t i = 0; i < x->n_ops; i++)
      if (x->ops[i].insn == in) {
        r->iop[idx] = &x->ops[i];
        r->iregs[idx] = x->base.regs_per_lane;
        return r->iop[idx];
      }
  }
  return NULL;
}

/* Copies value id of instance inst between the JIT frame (components as
 * [c][S] arrays) and the interpreter's registers (lane l at regs + off*S +
 * l*size); to_interp selects the direction; only lanes in m when writing back. */
static void xfer(jit_run *r, jit_sgctx *s, uint32_t inst, uint32_t id, const ip_opnd *o,
                 uint32_t off, uint32_t size, uint8_t *regs, bool to_interp, ip_mask act) {
  const jit_kernel *k = r->k;
  const ld_module *m = k->m;
  const ld_value *v = &m->values[id];
  uint32_t S = k->S;
  uint8_t *dst = regs + (size_t)off * S;
  (void)o;
  if (v->kind == LD_V_PARAM && inst == 0) {
    const ld_function *kf = k->k->fn;
    for (uint32_t a = 0; a < kf->n_params; a++)
      if (kf->params[a] == id)
        for (uint32_t l = 0; l < S; l++) memcpy(dst + (size_t)l * size, r->args + k->arg_off[a], size);
    return;
  }
  size_t vi = (size_t)inst * m->bound + id;
  if (v->kind == LD_V_RESULT && v->u.insn->op == SpvOpVariable) {
    const ld_addr_layout *a = &m->layout;
    for (uint32_t l = 0; l < S; l++) {
      uint64_t p = ip_addr_make(a, a->priv_base + l, k->privoff[vi]);
      if (size == 4) { uint32_t p32 = (uint32_t)p; memcpy(dst + (size_t)l * size, &p32, 4); }
      else memcpy(dst + (size_t)l * size, &p, 8);
    }
    return;
  }
  uint32_t fo = k->slot_off[vi];
  if (fo == UINT32_MAX) return;
  const ld_type *t = v->type, *ct = t;
  uint32_t n = 1;
  if (t->kind == LD_T_VECTOR) { ct = t->elem; n = t->count; }
  uint32_t cb = ct->kind == LD_T_POINTER ? m->addr_bits / 8 : ct->kind == LD_T_BOOL ? 1 :
                ct->width <= 8 ? 1 : ct->width <= 16 ? 2 : ct->width <= 32 ? 4 : 8;
  uint32_t es = n > 1 ? (ct->size ? ct->size : cb) : cb;
  uint8_t *fb = s->frame + fo;
  for (uint32_t l = 0; l < S; l++) {
    if (!to_interp && !ip_mask_test(act, l)) continue;
    for (uint32_t c = 0; c < n; c++) {
      uint8_t *fp = fb + ((size_t)c * S + l) * cb;
      uint8_t *ip = dst + (size_t)l * size + (size_t)c * es;
      if ((size_t)c * es + cb > size) break;
      if (to_interp) memcpy(ip, fp, cb); else memcpy(fp, ip, cb);
    }
  }
}

int32_t jit_rt_interp(jit_ctx *c, uint8_t *frame, int32_t idx) {
  jit_sgctx *s = (jit_sgctx *)c;
  jit_run *r = c->run;
  const jit_kernel *k = r->k;
  (void)frame;
  if (idx <= 0 || (uint32_t)idx >= k->n_insns) return 1;
  ip_sg *sg = diag_sg(r, s->id);
  const ip_op *op = find_op(r, idx);
  if (!sg || !op || !op->fn) { r->stop = true; return 1; }
  uint32_t inst = k->insn_inst[idx];
  size_t need = (size_t)r->iregs[idx] * k->S + 16;
  if (need > r->tmp_cap) {
    uint8_t *nt = realloc(r->tmp, need);
    if (!nt) { r->stop = true; return 1; }
    r->tmp = nt;
    r->tmp_cap = need;
  }
  ip_mask act = {{0, 0}};
  int32_t *mask = f_mask(k, s->frame);
  for (uint32_t l = 0; l < k->S; l++) if (mask[l]) ip_mask_set(&act, l);
  for (uint32_t i = 0; i < op->n_in; i++) {
    const ip_opnd *o = &op->in[i];
    if (o->cbase || !o->id) continue;
    xfer(r, s, inst, o->id, o, o->off, o->size, r->tmp, true, act);
  }
  /* the handler sees this work-group's local memory and this subgroup's
   * private memory: the JIT's own */
  ip_wg *wg = sg->wg;
  uint8_t *saved_local[64];
  uint32_t nl = wg->n_local < 64 ? wg->n_local : 64;
  for (uint32_t i = 0; i < nl && i < r->n_local; i++) { saved_local[i] = wg->local[i].base; wg->local[i].base = r->local_mem[i]; }
  uint8_t *saved_priv[IP_MAX_LANES];
  memcpy(saved_priv, sg->priv, sizeof saved_priv);
  for (uint32_t l = 0; l < k->S; l++) sg->priv[l] = s->priv + (size_t)l * r->priv_stride;
  uint8_t *saved_regs = sg->regs;
  const ip_op *saved_cur = sg->cur;
  ip_mask saved_mask = sg->mask;
  sg->regs = r->tmp;
  sg->cur = op;
  sg->mask = act;
  int rc = op->fn(sg, op);
  sg->regs = saved_regs;
  sg->cur = saved_cur;
  sg->mask = saved_mask;
  memcpy(sg->priv, saved_priv, sizeof saved_priv);
  for (uint32_t i = 0; i < nl && i < r->n_local; i++) wg->local[i].base = saved_local[i];
  if (op->res_size && k->insns[idx]->result)
    xfer(r, s, inst, k->insns[idx]->result, NULL, op->res_off, op->res_size, r->tmp, false, act);
  if (rc == IP_HALT || ip_launch_report(r->l)->stopped) { r->stop = true; return 1; }
  if (rc == IP_SUSPEND || rc == IP_JUMPED) {
    ip_fault(sg, IP_FAULT_UNSUPPORTED, act, 0, "the JIT cannot run this instruction");
    r->stop = true;
    return 1;
  }
  return 0;
}

int32_t jit_rt_coll(jit_ctx *c, uint8_t *frame, int32_t idx) {
  jit_sgctx *s = (jit_sgctx *)c;
  const jit_kernel *k = c->run->k;
  int32_t *mask = f_mask(k, frame);
  ip_mask act = {{0, 0}};
  for (uint32_t l = 0; l < k->S; l++) if (mask[l]) ip_mask_set(&act, l);
  if (ip_mask_eq(act, s->all)) return 0;
  return jit_rt_interp(c, frame, idx) ? 1 : 2;
}

/* ------------------------------------------------------------ built-ins */

static void put(uint8_t *dst, uint32_t cb, uint64_t v) {
  switch (cb) {
  case 1: { uint8_t x = (uint8_t)v; memcpy(dst, &x, 1); break; }
  case 2: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
  default: memcpy(dst, &v, 8); break;
  }
}

static void fill_builtins(jit_run *r, jit_sgctx *s) {
  const jit_kernel *k = r->k;
  const ip_ndrange *nd = r->nd;
  uint32_t S = k->S;
  size_t items = r->wsize[0] * r->wsize[1] * r->wsize[2];
  size_t enq = nd->local[0] * nd->local[1] * nd->local[2];
  for (uint32_t b = 0; b < k->n_builtins; b++) {
    const ld_variable *var = k->builtins[b].var;
    const ld_type *t = var->pointee;
    const ld_type *ct = t->kind == LD_T_VECTOR ? t->elem : t;
    uint32_t n = t->kind == LD_T_VECTOR ? t->count : 1;
    uint32_t cb = ct->width <= 8 ? 1 : ct->width <= 16 ? 2 : ct->width <= 32 ? 4 : 8;
    uint8_t *base = s->c.builtins + k->builtins[b].offset;
    for (uint32_t l = 0; l < S; l++) {
      uint64_t lin = (uint64_t)s->id * S + l;
      uint64_t lid[3] = {lin % r->wsize[0], (lin / r->wsize[0]) % r->wsize[1], lin / (r->wsize[0] * r->wsize[1])};
      for (uint32_t c = 0; c < n && c < 3; c++) {
        uint64_t v = 0;
        switch ((SpvBuiltIn)var->builtin) {
        case SpvBuiltInGlobalInvocationId: v = r->group[c] * nd->local[c] + lid[c] + nd->offset[c]; break;
        case SpvBuiltInLocalInvocationId: v = lid[c]; break;
        case SpvBuiltInWorkgroupId: v = r->group[c]; break;
        case SpvBuiltInNumWorkgroups: v = nd->groups[c]; break;
        case SpvBuiltInWorkgroupSize: v = r->wsize[c]; break;
        case SpvBuiltInEnqueuedWorkgroupSize: v = nd->local[c]; break;
        case SpvBuiltInGlobalSize: v = nd->global[c]; break;
        case SpvBuiltInGlobalOffset: v = nd->offset[c]; break;
        case SpvBuiltInGlobalLinearId: {
          uint64_t g[3];
          for (int d = 0; d < 3; d++) g[d] = r->group[d] * nd->local[d] + lid[d];
          v = (g[2] * nd->global[1] + g[1]) * nd->global[0] + g[0];
          break;
        }
        case SpvBuiltInLocalInvocationIndex: v = lin; break;
        case SpvBuiltInSubgroupSize: v = s->n_lanes; break;
        case SpvBuiltInSubgroupMaxSize: v = S; break;
        case SpvBuiltInNumSubgroups: v = (items + S - 1) / S; break;
        case SpvBuiltInNumEnqueuedSubgroups: v = (enq + S - 1) / S; break;
        case SpvBuiltInSubgroupId: v = s->id; break;
        case SpvBuiltInSubgroupLocalInvocationId: v = l; break;
        case SpvBuiltInWorkDim: v = nd->dim; break;
        default: break;
        }
        put(base + ((size_t)c * S + l) * cb, cb, v);
      }
    }
  }
}

/* ------------------------------------------------------------------ run */

static void run_free(jit_run *r) {
  if (r->dwg) ip_wg_end(r->dwg);
  for (uint32_t i = 0; i < r->n_sg; i++) {
    if (!r->sgs[i]) continue;
    free(r->sgs[i]->frame);
    free(r->sgs[i]->priv);
    free(r->sgs[i]->c.builtins);
    free(r->sgs[i]);
  }
  free(r->sgs);
  free(r->iop);
  free(r->iregs);
  free(r->tmp);
  for (uint32_t i = 0; i < r->n_local; i++) free(r->local_mem[i]);
  free(r->local_mem);
  free(r->local_size);
  free(r->regions);
  free(r->args);
}

static jit_sgctx *sg_new(jit_run *r) {
  const jit_kernel *k = r->k;
  jit_sgctx *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->frame = aligned_alloc(64, k->frame_size);
  s->priv = calloc(k->S, r->priv_stride);
  s->c.builtins = calloc(1, k->builtin_bytes ? k->builtin_bytes : 1);
  if (!s->frame || !s->priv || !s->c.builtins) {
    free(s->frame); free(s->priv); free(s->c.builtins); free(s);
    return NULL;
  }
  memset(s->frame, 0, k->frame_size);
  s->c.regions = r->regions;
  s->c.args = r->args;
  s->c.rt_branch = jit_rt_branch;
  s->c.rt_call = jit_rt_call;
  s->c.rt_return = jit_rt_return;
  s->c.rt_mem = jit_rt_mem;
  s->c.rt_group = jit_rt_group;
  s->c.rt_interp = jit_rt_interp;
  s->c.rt_coll = jit_rt_coll;
  s->c.run = r;
  return s;
}

ip_result jit_kernel_run(jit_kernel *k, ip_launch *l, uint64_t first, uint64_t count) {
  if (!k || !l || !k->entry) return IP_ERR_ARGS;
  jit_run run, *r = &run;
  memset(r, 0, sizeof *r);
  r->k = k;
  r->l = l;
  r->nd = ip_launch_ndrange(l);
  const ip_ndrange *nd = r->nd;
  const ld_module *m = k->m;
  const ld_addr_layout *a = &m->layout;
  if (!nd || nd->sg_size != k->S) return IP_ERR_ARGS;
  uint64_t total = (uint64_t)nd->groups[0] * nd->groups[1] * nd->groups[2];
  if (first >= total || count == 0) return IP_OK;
  if (count > total - first) count = total - first;
  ip_result res = IP_OK;

  /* region table, arguments and local sizes from a work-group of the interpreter */
  r->n_table = 1u << (m->addr_bits - a->shift);
  r->regions = calloc(r->n_table, sizeof *r->regions);
  r->args = calloc(1, k->args_bytes + 16);
  r->iop = calloc(k->n_insns + 1, sizeof *r->iop);
  r->iregs = calloc(k->n_insns + 1, sizeof *r->iregs);
  if (!r->regions || !r->args || !r->iop || !r->iregs) { res = IP_ERR_NOMEM; goto out; }
  r->priv_stride = (k->priv_bytes > l->priv_size ? k->priv_bytes : l->priv_size);
  r->priv_stride = (r->priv_stride + 15) & ~(uint64_t)15;
  if (!r->priv_stride) r->priv_stride = 16;
  {
    uint32_t g[3] = {(uint32_t)(first % nd->groups[0]), (uint32_t)(first / nd->groups[0] % nd->groups[1]),
                     (uint32_t)(first / nd->groups[0] / nd->groups[1])};
    char err[256];
    ip_wg *wg = ip_wg_begin(l, g, err, sizeof err);
    if (!wg) { res = IP_ERR_ARGS; goto out; }
    ip_sg *sg0 = ip_wg_subgroup_count(wg) ? ip_wg_subgroup(wg, 0) : NULL;
    const ld_function *kf = k->k->fn;
    for (uint32_t i = 0; sg0 && i < kf->n_params; i++) {
      uint8_t buf[128];
      uint32_t n = ip_sg_read(sg0, 0, 0, kf->params[i], buf);
      memcpy(r->args + k->arg_off[i], buf, n);
    }
    for (uint32_t reg = 1; sg0 && reg < a->local_base && reg < r->n_table; reg++) {
      const ip_region *R = ip_region_of(sg0, 0, ip_addr_make(a, reg, 0));
      if (!R) continue;
      r->regions[reg].base = R->base;
      r->regions[reg].size = R->size;
      r->regions[reg].wsize = R->writable ? R->size : 0;
    }
    r->n_local = wg->n_local;
    r->local_mem = calloc(r->n_local + 1, sizeof *r->local_mem);
    r->local_size = calloc(r->n_local + 1, sizeof *r->local_size);
    if (!r->local_mem || !r->local_size) { ip_wg_end(wg); res = IP_ERR_NOMEM; goto out; }
    for (uint32_t i = 0; i < r->n_local; i++) {
      r->local_size[i] = wg->local[i].size;
      r->local_mem[i] = calloc(1, wg->local[i].size ? wg->local[i].size : 1);
      if (!r->local_mem[i]) { ip_wg_end(wg); res = IP_ERR_NOMEM; goto out; }
      uint32_t reg = a->local_base + i;
      if (reg < r->n_table) {
        r->regions[reg].base = r->local_mem[i];
        r->regions[reg].size = r->regions[reg].wsize = wg->local[i].size;
      }
    }
    ip_wg_end(wg);
  }

  for (uint64_t gi = first; gi < first + count && !r->stop; gi++) {
    r->group[0] = (uint32_t)(gi % nd->groups[0]);
    r->group[1] = (uint32_t)(gi / nd->groups[0] % nd->groups[1]);
    r->group[2] = (uint32_t)(gi / nd->groups[0] / nd->groups[1]);
    for (int d = 0; d < 3; d++) {
      size_t lo = (size_t)r->group[d] * nd->local[d];
      size_t rem = nd->global[d] > lo ? nd->global[d] - lo : 0;
      r->wsize[d] = rem < nd->local[d] ? rem : nd->local[d];
      if (r->wsize[d] == 0) r->wsize[d] = 1;
    }
    size_t items = r->wsize[0] * r->wsize[1] * r->wsize[2];
    uint32_t n_sg = (uint32_t)((items + k->S - 1) / k->S);
    if (n_sg > r->n_sg) {
      jit_sgctx **ns = realloc(r->sgs, n_sg * sizeof *ns);
      if (!ns) { res = IP_ERR_NOMEM; goto out; }
      r->sgs = ns;
      for (uint32_t i = r->n_sg; i < n_sg; i++) r->sgs[i] = NULL;
      for (uint32_t i = r->n_sg; i < n_sg; i++) {
        r->sgs[i] = sg_new(r);
        if (!r->sgs[i]) { r->n_sg = i; res = IP_ERR_NOMEM; goto out; }
      }
      r->n_sg = n_sg;
    }
    for (uint32_t i = 0; i < r->n_local; i++) memset(r->local_mem[i], 0, r->local_size[i]);
    for (uint32_t i = 0; i < n_sg; i++) {
      jit_sgctx *s = r->sgs[i];
      s->id = i;
      s->n_lanes = (uint32_t)(items - (size_t)i * k->S < k->S ? items - (size_t)i * k->S : k->S);
      s->all = ip_mask_first_n(s->n_lanes);
      s->done = false;
      s->steps = 0;
      s->sp = 0;
      push(s, k->inst[0].block_seg[0], -1, s->all);
      memset(f_pred(k, s->frame), 0xff, 4 * k->S);
      fill_builtins(r, s);
    }
    uint32_t remaining = n_sg;
    while (remaining && !r->stop) {
      for (uint32_t i = 0; i < n_sg && !r->stop; i++) {
        jit_sgctx *s = r->sgs[i];
        if (s->done) continue;
        for (uint32_t lane = 0; lane < k->S; lane++) {
          uint32_t reg = a->priv_base + lane;
          if (reg < r->n_table) {
            r->regions[reg].base = s->priv + (size_t)lane * r->priv_stride;
            r->regions[reg].size = r->regions[reg].wsize = k->priv_bytes;
          }
        }
        int32_t start = settle(s, k);
        int32_t rc = start < 0 ? JIT_RET_DONE : k->entry(&s->c, s->frame, start);
        if (rc == JIT_RET_DONE || s->sp == 0) { s->done = true; remaining--; }
      }
    }
  }
out:
  run_free(r);   /* commits the diagnostic work-group */
  if (res == IP_OK && (r->stop || ip_launch_report(l)->n_faults)) res = IP_FAULTED;
  return res;
}
