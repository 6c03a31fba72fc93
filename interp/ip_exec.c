/* ip_exec.c - subgroup execution: the dispatch loop, the SIMT reconvergence
 * stack, calls and returns, work-group scheduling and the stepping API.
 *
 * SIMT stack (per frame, IPDOM style).  The top entry is what runs: its pc
 * (block, op index) and its lane mask.  On a branch whose lanes split between
 * several targets in block B with reconvergence block R = B->reconverge:
 *   - if the top entry's rpc is R already, it is popped (its lanes are
 *     accounted for by the entry below, which waits at R); otherwise the top
 *     entry becomes the reconvergence entry: pc = R, same mask;
 *   - one entry per distinct target other than R is pushed with the lanes
 *     going there and rpc = R, in reverse terminator order so that the first
 *     target (the true branch, the first switch case) runs first.
 * An entry whose pc reaches its rpc, or whose mask becomes empty, is popped.
 * Returning lanes leave every entry of the frame; when the frame's stack is
 * empty the frame is popped and the caller continues after its call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ip_check.h"

double ip_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

ip_frame *ip_top_frame(ip_sg *sg) { return &sg->frames[sg->n_frames - 1]; }

ip_mask ip_live_lanes(ip_sg *sg) { return ip_mask_andnot(sg->all, ip_sgx_of(sg)->exited); }

static bool simt_push(ip_frame *f, const ld_block *pc, ip_mask mask, const ld_block *rpc) {
  if (f->depth == f->cap) {
    uint32_t nc = f->cap ? f->cap * 2 : 8;
    ip_simt *ns = realloc(f->stack, nc * sizeof *ns);
    if (!ns) return false;
    f->stack = ns;
    f->cap = nc;
  }
  ip_simt *e = &f->stack[f->depth++];
  e->pc_block = pc;
  e->pc_index = 0;
  e->mask = mask;
  e->rpc = rpc;
  return true;
}

static void simt_settle(ip_frame *f) {
  while (f->depth > 0) {
    ip_simt *t = &f->stack[f->depth - 1];
    if (ip_mask_empty(t->mask) || !t->pc_block || t->pc_block == t->rpc) f->depth--;
    else break;
  }
}

/* Pops finished frames; the caller's pc moves past its call. */
static void settle_frames(ip_sg *sg) {
  for (;;) {
    ip_frame *f = &sg->frames[sg->n_frames - 1];
    simt_settle(f);
    if (f->depth > 0) break;
    sg->n_frames--;
    if (sg->n_frames == 0) {
      sg->done = true;
      ip_sgx_of(sg)->exited = sg->all;
      return;
    }
    ip_frame *c = &sg->frames[sg->n_frames - 1];
    sg->regs = c->regs;
    if (c->depth > 0) c->stack[c->depth - 1].pc_index++;
  }
  sg->regs = sg->frames[sg->n_frames - 1].regs;
}

/* dst[l * sz] = src[l * ss] for the lanes. */
static inline void copy_strided(uint8_t *dst, const uint8_t *src, size_t ss, uint32_t sz, ip_mask lanes) {
  if (sz == 4) {
    IP_FOR_LANES(lanes, l) { uint32_t v; memcpy(&v, src + l * ss, 4); memcpy(dst + l * 4, &v, 4); }
  } else if (sz == 8) {
    IP_FOR_LANES(lanes, l) { uint64_t v; memcpy(&v, src + l * ss, 8); memcpy(dst + l * 8, &v, 8); }
  } else if (sz == 1) {
    IP_FOR_LANES(lanes, l) dst[l] = src[l * ss];
  } else {
    IP_FOR_LANES(lanes, l) memmove(dst + (size_t)l * sz, src + l * ss, sz);
  }
}

/* dst[l] = operand j of op for the lanes (lane stride = op->res_size). */
static inline void copy_lanes(const ip_sg *sg, const ip_op *p, uint32_t j, ip_mask lanes, uint8_t *dst) {
  const ip_opnd *o = &p->in[j];
  const uint8_t *src = o->cbase ? o->cbase : sg->regs + (size_t)o->off * sg->size;
  copy_strided(dst, src, o->cbase ? 0 : p->res_size, p->res_size, lanes);
}

/* Phi copies for the lanes taking edge from -> to (parallel copy). */
static void take_edge(ip_sg *sg, const ip_fn *fn, const ld_block *from, const ld_block *to,
                      ip_mask lanes) {
  uint32_t np = to->n_phis;
  if (!np) return;
  const ip_op *phis = fn->block_ops[to->index] - np;
  uint32_t S = sg->size;
  if (np == 1) {
    const ip_op *p = &phis[0];
    for (uint32_t j = 0; j < p->n_in; j++) {
      if (2 * j + 1 >= p->insn->n_ops || p->insn->ops[2 * j + 1] != from->label) continue;
      copy_lanes(sg, p, j, lanes, sg->regs + (size_t)p->res_off * S);
      return;
    }
    return;
  }
  uint8_t *tmp = ip_sgx_of(sg)->phi_tmp;
  size_t toff = 0;
  for (uint32_t k = 0; k < np; k++) {
    const ip_op *p = &phis[k];
    for (uint32_t j = 0; j < p->n_in; j++) {
      if (2 * j + 1 >= p->insn->n_ops || p->insn->ops[2 * j + 1] != from->label) continue;
      copy_lanes(sg, p, j, lanes, tmp + toff);
      break;
    }
    toff += (size_t)p->res_size * S;
  }
  toff = 0;
  for (uint32_t k = 0; k < np; k++) {
    const ip_op *p = &phis[k];
    copy_strided(sg->regs + (size_t)p->res_off * S, tmp + toff, p->res_size, p->res_size, lanes);
    toff += (size_t)p->res_size * S;
  }
}

int ip_branch(ip_sg *sg, const ld_block *from, uint32_t n, const ld_block *const *targets,
              const ip_mask *masks) {
  ip_frame *f = ip_top_frame(sg);
  for (uint32_t i = 0; i < n; i++) take_edge(sg, f->fn, from, targets[i], masks[i]);
  ip_simt *t = &f->stack[f->depth - 1];
  if (n == 1) {
    t->pc_block = targets[0];
    t->pc_index = 0;
  } else {
    const ld_block *R = from->reconverge;
    if (t->rpc == R) {
      f->depth--;
    } else {
      t->pc_block = R;
      t->pc_index = 0;
    }
    for (uint32_t i = n; i-- > 0;) {
      if (targets[i] == R || ip_mask_empty(masks[i])) continue;
      if (!simt_push(f, targets[i], masks[i], R)) break;
    }
  }
  settle_frames(sg);
  return IP_JUMPED;
}

static ip_frame *push_frame(ip_sg *sg, const ip_fnx *fx, ip_mask mask, const ip_op *call_op,
                            uint64_t private_base) {
  ip_sgx *x = ip_sgx_of(sg);
  if (sg->n_frames == sg->cap_frames) {
    uint32_t nc = sg->cap_frames ? sg->cap_frames * 2 : 4;
    ip_frame *nf = realloc(sg->frames, nc * sizeof *nf);
    if (!nf) return NULL;
    memset(nf + sg->cap_frames, 0, (nc - sg->cap_frames) * sizeof *nf);
    sg->frames = nf;
    sg->cap_frames = nc;
  }
  uint32_t d = sg->n_frames;
  if (d >= x->n_frame_buf) {
    uint32_t nc = d + 4;
    uint8_t **nb = realloc(x->frame_buf, nc * sizeof *nb);
    if (!nb) return NULL;
    x->frame_buf = nb;
    size_t *ncap = realloc(x->frame_cap, nc * sizeof *ncap);
    if (!ncap) return NULL;
    x->frame_cap = ncap;
    for (uint32_t i = x->n_frame_buf; i < nc; i++) { nb[i] = NULL; ncap[i] = 0; }
    x->n_frame_buf = nc;
  }
  size_t need = (size_t)fx->base.regs_per_lane * sg->size;
  if (need > x->frame_cap[d]) {
    free(x->frame_buf[d]);
    x->frame_buf[d] = calloc(1, need ? need : 16);
    if (!x->frame_buf[d]) { x->frame_cap[d] = 0; return NULL; }
    x->frame_cap[d] = need;
  }
  ip_frame *f = &sg->frames[d];
  f->fn = &fx->base;
  f->regs = x->frame_buf[d];
  f->depth = 0;
  f->entry_mask = mask;
  f->returned = (ip_mask){{0, 0}};
  f->call_op = call_op;
  f->private_base = private_base;
  if (!simt_push(f, &fx->base.fn->blocks[0], mask, NULL)) return NULL;
  /* each call's Function variables start zeroed */
  uint32_t pb = fx->base.private_bytes;
  if (pb && private_base + pb <= sg->launch->priv_size)
    IP_FOR_LANES(mask, l) if (sg->priv[l]) memset(sg->priv[l] + private_base, 0, pb);
  sg->n_frames++;
  sg->regs = f->regs;
  return f;
}

int ip_call(ip_sg *sg, const ip_op *op, const ip_fnx *callee) {
  if (sg->n_frames >= 256)
    return ip_fault(sg, IP_FAULT_STACK_OVERFLOW, sg->mask, 0, "call depth exceeds 256");
  const ip_frame *c = ip_top_frame(sg);
  uint64_t pbase = c->private_base + c->fn->private_bytes;
  const uint8_t *caller_regs = sg->regs;
  ip_mask mask = sg->mask;
  if (pbase + callee->base.private_bytes > sg->launch->priv_size)
    return ip_fault(sg, IP_FAULT_STACK_OVERFLOW, mask, 0, "private memory exhausted");
  ip_frame *f = push_frame(sg, callee, mask, op, pbase);
  if (!f) return ip_fault(sg, IP_FAULT_STACK_OVERFLOW, mask, 0, "out of memory for a call frame");
  const ld_function *fn = callee->base.fn;
  const uint32_t S = sg->size;
  for (uint32_t i = 0; i < fn->n_params && i + 1 < op->n_in; i++) {
    const ip_opnd *o = &op->in[i + 1];
    uint32_t sz = o->size, off = sg->launch->slot_of[fn->params[i]];
    IP_FOR_LANES(mask, l) {
      const uint8_t *src = o->cbase ? o->cbase : caller_regs + (size_t)o->off * S + (size_t)l * sz;
      memcpy(f->regs + (size_t)off * S + (size_t)l * sz, src, sz);
    }
  }
  return IP_JUMPED;
}

int ip_return(ip_sg *sg, ip_mask lanes, const ip_op *op) {
  ip_frame *f = ip_top_frame(sg);
  if (op && op->n_in > 0 && f->call_op && f->call_op->res_size && sg->n_frames >= 2) {
    const ip_frame *c = &sg->frames[sg->n_frames - 2];
    uint32_t sz = f->call_op->res_size;
    if (sz > op->in[0].size) sz = op->in[0].size;
    IP_FOR_LANES(lanes, l)
      memcpy(c->regs + (size_t)f->call_op->res_off * sg->size + (size_t)l * f->call_op->res_size,
             ip_in(sg, op, 0, l), sz);
  }
  for (uint32_t i = 0; i < f->depth; i++) f->stack[i].mask = ip_mask_andnot(f->stack[i].mask, lanes);
  f->returned = ip_mask_or(f->returned, lanes);
  if (sg->n_frames == 1) ip_sgx_of(sg)->exited = ip_mask_or(ip_sgx_of(sg)->exited, lanes);
  settle_frames(sg);
  return IP_JUMPED;
}

int ip_kill(ip_sg *sg, ip_mask lanes) {
  for (uint32_t k = 0; k < sg->n_frames; k++) {
    ip_frame *f = &sg->frames[k];
    for (uint32_t i = 0; i < f->depth; i++) f->stack[i].mask = ip_mask_andnot(f->stack[i].mask, lanes);
  }
  ip_sgx_of(sg)->exited = ip_mask_or(ip_sgx_of(sg)->exited, lanes);
  settle_frames(sg);
  return IP_JUMPED;
}

/* ------------------------------------------------------- dispatch loop */

/* Runs at most budget instructions.  Returns an ip_step.  Instantiated twice:
 * plain, and `checked` (raising the detectors' before/after events). */
static inline __attribute__((always_inline)) ip_step sg_exec_loop(ip_sg *sg, uint64_t budget,
                                                                  const bool checked) {
  ip_launch *l = sg->launch;
  uint64_t steps = 0, lanes = 0;
  ip_step res = IP_STEP_OK;
  if (sg->done) return IP_STEP_DONE;
  for (;;) {
    ip_frame *f = &sg->frames[sg->n_frames - 1];
    ip_simt *t = &f->stack[f->depth - 1];
    const ip_op *op = f->fn->block_ops[t->pc_block->index] + t->pc_index;
    const uint32_t cnt = ip_mask_count(t->mask);
    sg->mask = t->mask;
    for (;;) {
      sg->cur = op;
      if (checked) ip_check_before(sg, op);
      int r = op->fn(sg, op);
      if (checked && r != IP_SUSPEND) ip_check_after(sg, op);
      if (__builtin_expect(r == IP_NEXT, 1)) {
        steps++;
        lanes += cnt;
        op++;
        t->pc_index++;
        if (__builtin_expect(steps >= budget || __atomic_load_n(&l->stop, __ATOMIC_RELAXED), 0)) goto out;
        continue;
      }
      if (r == IP_JUMPED) {
        steps++;
        lanes += cnt;
        if (sg->done) { res = IP_STEP_DONE; goto out; }
        if (steps >= budget || __atomic_load_n(&l->stop, __ATOMIC_RELAXED)) goto out;
        break;
      }
      if (r == IP_SUSPEND) { res = IP_STEP_BLOCKED; goto out; }
      steps++;
      lanes += cnt;
      res = IP_STEP_STOPPED;
      goto out;
    }
  }
out:
  if (res == IP_STEP_OK && __atomic_load_n(&l->stop, __ATOMIC_RELAXED)) res = IP_STEP_STOPPED;
  sg->steps += steps;
  __atomic_fetch_add(&l->insns, steps, __ATOMIC_RELAXED);
  __atomic_fetch_add(&l->lane_insns, lanes, __ATOMIC_RELAXED);
  return res;
}

static ip_step sg_exec_plain(ip_sg *sg, uint64_t budget) { return sg_exec_loop(sg, budget, false); }
static ip_step sg_exec_checked(ip_sg *sg, uint64_t budget) { return sg_exec_loop(sg, budget, true); }
static ip_step sg_exec(ip_sg *sg, uint64_t budget) {
  return sg->launch->checks ? sg_exec_checked(sg, budget) : sg_exec_plain(sg, budget);
}

static ip_step limit_fault(ip_sg *sg, ip_diag_kind kind, const char *msg) {
  ip_launch *l = sg->launch;
  ip_fault(sg, kind, sg->mask, 0, "%s", msg);
  __atomic_store_n(&l->stop, 1, __ATOMIC_RELAXED);
  return IP_STEP_STOPPED;
}

/* Runs with the step and time limits; budget 0 = until it blocks or ends. */
static bool past_time_limit(const ip_launch *l) {
  return l->desc.time_limit > 0 && ip_now() - l->t_start > l->desc.time_limit;
}

static ip_step time_fault(ip_sg *sg) {
  char msg[160];
  snprintf(msg, sizeof msg, "time limit of %g s reached (--timeout SECONDS)", sg->launch->desc.time_limit);
  return limit_fault(sg, IP_FAULT_TIME_LIMIT, msg);
}

static ip_step sg_advance(ip_sg *sg, uint64_t budget) {
  ip_launch *l = sg->launch;
  /* also checked as each subgroup starts: a launch of many short work-groups
   * never reaches the check after a chunk below */
  if (!sg->done && sg->steps == 0 && past_time_limit(l)) return time_fault(sg);
  for (;;) {
    if (sg->done) return IP_STEP_DONE;
    if (sg->steps >= l->step_limit) {
      char msg[160];
      snprintf(msg, sizeof msg, "step limit of %llu instructions per subgroup reached (raise it "
               "with --step-limit N)", (unsigned long long)l->step_limit);
      return limit_fault(sg, IP_FAULT_STEP_LIMIT, msg);
    }
    uint64_t chunk = budget ? budget : (uint64_t)1 << 20;
    if (chunk > l->step_limit - sg->steps) chunk = l->step_limit - sg->steps;
    ip_step r = sg_exec(sg, chunk);
    if (r != IP_STEP_OK) return r;
    if (past_time_limit(l)) return time_fault(sg);
    if (budget) return IP_STEP_OK;
  }
}

/* ------------------------------------------------------ work-groups */

bool ip_wg_rendezvous(ip_sg *sg) {
  if (sg->resumed) {
    sg->resumed = false;
    return true;
  }
  ip_sgx *x = ip_sgx_of(sg);
  if (!x->arrived) {
    x->arrived = true;
    sg->wg->rendezvous_waiting++;
    sg->wg->rendezvous_insn = sg->cur ? sg->cur->insn : NULL;
  }
  return false;
}

/* Releases the subgroups waiting at a rendezvous if every unfinished one has
 * arrived.  Returns true if something was released.  The JIT's host side
 * (jit_run.c) calls it too, after setting the subgroups' done and arrived
 * flags from its own contexts. */
bool ip_wg_release(ip_wgx *x) {
  ip_wg *wg = &x->wg;
  uint32_t unfinished = 0, waiting = 0;
  ip_sg *first = NULL;
  for (uint32_t i = 0; i < wg->n_subgroups; i++) {
    if (wg->sgs[i].done) continue;
    unfinished++;
    if (x->sgx[i].arrived) { waiting++; if (!first) first = &wg->sgs[i]; }
  }
  if (!waiting || waiting != unfinished) return false;
  if (unfinished < wg->n_subgroups && !x->barrier_div_reported) {
    x->barrier_div_reported = true;
    ip_mask lanes = first->all;
    ip_fault(first, IP_FAULT_BARRIER_DIVERGENCE, lanes, 0,
             "work-group barrier reached by %u of %u subgroups (the others have finished)",
             unfinished, wg->n_subgroups);
  }
  for (uint32_t i = 0; i < wg->n_subgroups; i++) {
    if (wg->sgs[i].done || !x->sgx[i].arrived) continue;
    x->sgx[i].arrived = false;
    wg->sgs[i].resumed = true;
  }
  wg->rendezvous_waiting = 0;
  x->rendezvous_gen++;
  return true;
}

int ip_wg_run_all(ip_wgx *x) {
  ip_wg *wg = &x->wg;
  for (;;) {
    for (uint32_t i = 0; i < wg->n_subgroups; i++) {
      ip_sg *sg = &wg->sgs[i];
      if (sg->done || x->sgx[i].arrived) continue;
      ip_step r = sg_advance(sg, 0);
      ip_flush_pending_diag(x);
      if (r == IP_STEP_STOPPED) return IP_STEP_STOPPED;
    }
    if (!ip_wg_release(x)) return IP_STEP_DONE;
    /* Every released subgroup re-runs its rendezvous handler (which reads the
     * exchanged scratch) before any of them may run on to the next
     * rendezvous and overwrite its own scratch slots. */
    for (uint32_t i = 0; i < wg->n_subgroups; i++) {
      ip_sg *sg = &wg->sgs[i];
      if (sg->done || !sg->resumed) continue;
      ip_step r = sg_advance(sg, 1);
      ip_flush_pending_diag(x);
      if (r == IP_STEP_STOPPED) return IP_STEP_STOPPED;
    }
  }
}

static void init_sg(ip_launch *l, ip_wgx *x, uint32_t i) {
  ip_wg *wg = &x->wg;
  ip_sg *sg = &wg->sgs[i];
  ip_sgx *sx = &x->sgx[i];
  uint32_t S = l->nd.sg_size;
  sg->launch = l;
  sg->wg = wg;
  sg->m = l->m;
  sg->id = i;
  sg->size = S;
  sg->n_lanes = wg->n_items - i * S < S ? wg->n_items - i * S : S;
  sg->all = ip_mask_first_n(sg->n_lanes);
  sg->mask = sg->all;
  uint32_t lx = (uint32_t)wg->local_size[0], ly = (uint32_t)wg->local_size[1];
  for (uint32_t k = 0; k < sg->n_lanes; k++) {
    uint32_t lin = i * S + k;
    sg->local_linear[k] = lin;
    sg->local_id[k][0] = lin % lx;
    sg->local_id[k][1] = (lin / lx) % ly;
    sg->local_id[k][2] = lin / (lx * ly);
  }
  for (uint32_t k = sg->n_lanes; k < S; k++) {
    sg->local_linear[k] = 0;
    sg->local_id[k][0] = sg->local_id[k][1] = sg->local_id[k][2] = 0;
  }
  if (!sx->priv_block) sx->priv_block = calloc(S, l->priv_size);
  else memset(sx->priv_block, 0, (size_t)S * l->priv_size);
  for (uint32_t k = 0; k < IP_MAX_LANES; k++)
    sg->priv[k] = (k < sg->n_lanes && sx->priv_block) ? sx->priv_block + (size_t)k * l->priv_size : NULL;
  sg->priv_size = l->priv_size;
  sg->priv_used = 0;
  if (!sx->phi_tmp && l->max_phi_bytes) sx->phi_tmp = malloc((size_t)l->max_phi_bytes * S);
  sx->exited = (ip_mask){{0, 0}};
  sx->arrived = false;
  sx->n_diags = 0;
  sg->done = false;
  sg->resumed = false;
  sg->steps = 0;
  sg->cur = NULL;
  sg->n_frames = 0;
  ip_frame *f = push_frame(sg, l->kernel_fn, sg->all, NULL, l->byval_bytes);
  if (!f) {
    /* checked before the launch (check_private), so only a machine short of
       memory gets here: a fault, never a subgroup that silently did nothing */
    ip_fault(sg, IP_FAULT_STACK_OVERFLOW, sg->all, 0, "out of memory for the kernel's frame (%llu bytes)",
             (unsigned long long)l->kernel_fn->base.regs_per_lane * S);
    sg->done = true;
    return;
  }
  memset(f->regs, 0, (size_t)l->kernel_fn->base.regs_per_lane * S);
  const ld_function *fn = l->k->fn;
  for (uint32_t a = 0; a < fn->n_params && a < l->k->n_args; a++) {
    uint32_t off = l->slot_of[fn->params[a]];
    uint32_t sz = ip_value_size(l->m->values[fn->params[a]].type, l->ptr_size);
    uint32_t n = l->arg_len[a] < sz ? l->arg_len[a] : sz;
    if (l->byval_off[a] != UINT64_MAX) {
      /* by-value struct: the lane's own copy, the parameter its address */
      const ld_addr_layout *al = &l->m->layout;
      for (uint32_t k = 0; k < sg->n_lanes; k++) {
        if (sg->priv[k]) memcpy(sg->priv[k] + l->byval_off[a], l->arg_ptr[a], l->arg_len[a]);
        uint64_t p = ip_addr_make(al, al->priv_base + k, l->byval_off[a]);
        memcpy(f->regs + (size_t)off * S + (size_t)k * sz, &p, sz < 8 ? sz : 8);
      }
      continue;
    }
    for (uint32_t k = 0; k < sg->n_lanes; k++)
      memcpy(f->regs + (size_t)off * S + (size_t)k * sz, l->arg_ptr[a], n);
  }
}

void ip_wg_init(ip_launch *l, ip_wgx *x, uint64_t wg_linear) {
  ip_wg *wg = &x->wg;
  const ip_ndrange *nd = &l->nd;
  wg->launch = l;
  x->wg_linear = wg_linear;
  uint64_t g = wg_linear;
  for (int d = 0; d < 3; d++) {
    wg->group[d] = (uint32_t)(g % nd->groups[d]);
    g /= nd->groups[d];
    size_t start = (size_t)wg->group[d] * nd->local[d];
    wg->local_size[d] = nd->global[d] - start < nd->local[d] ? nd->global[d] - start : nd->local[d];
  }
  wg->n_items = (uint32_t)(wg->local_size[0] * wg->local_size[1] * wg->local_size[2]);
  uint32_t S = nd->sg_size;
  wg->n_subgroups = (wg->n_items + S - 1) / S;
  if (wg->n_subgroups > x->cap_sgs) {
    ip_sg *ns = realloc(wg->sgs, wg->n_subgroups * sizeof *ns);
    ip_sgx *nx = realloc(x->sgx, wg->n_subgroups * sizeof *nx);
    if (ns) wg->sgs = ns;
    if (nx) x->sgx = nx;
    if (ns && nx) {
      memset(ns + x->cap_sgs, 0, (wg->n_subgroups - x->cap_sgs) * sizeof *ns);
      memset(nx + x->cap_sgs, 0, (wg->n_subgroups - x->cap_sgs) * sizeof *nx);
      x->cap_sgs = wg->n_subgroups;
    }
  }
  if (!x->local_block && l->local_block_size) x->local_block = malloc(l->local_block_size);
  if (x->local_block) memset(x->local_block, 0, l->local_block_size);
  if (!wg->local && l->n_local) wg->local = calloc(l->n_local, sizeof *wg->local);
  wg->n_local = wg->local ? l->n_local : 0;
  for (uint32_t i = 0; i < wg->n_local; i++) {
    wg->local[i].base = x->local_block ? x->local_block + l->local_off[i] : NULL;
    wg->local[i].size = x->local_block ? l->local_size[i] : 0;
    wg->local[i].writable = true;
    wg->local[i].space = SpvStorageClassWorkgroup;
  }
  size_t scr = (size_t)wg->n_items * IP_WG_SCRATCH;
  if (scr > x->local_block_size || !wg->scratch) {
    free(wg->scratch);
    wg->scratch = calloc(1, scr ? scr : 16);
    x->local_block_size = scr;
  }
  wg->out_len = 0;
  wg->rendezvous_waiting = 0;
  wg->rendezvous_insn = NULL;
  x->n_diags = 0;
  x->pending = false;
  x->n_faults = x->n_ub = x->seq = 0;
  x->barrier_div_reported = false;
  x->rendezvous_gen = x->async_done_gen = 0;
  x->n_events = 0;
  x->events_waited = 0;
  x->rr = 0;
  for (uint32_t i = 0; i < wg->n_subgroups && i < x->cap_sgs; i++) init_sg(l, x, i);
  if (wg->n_subgroups > x->cap_sgs) wg->n_subgroups = x->cap_sgs;
  if (l->checks) ip_check_wg_begin(wg);
}

void ip_wg_fini(ip_wgx *x) {
  ip_wg *wg = &x->wg;
  for (uint32_t i = 0; i < x->cap_sgs; i++) {
    ip_sg *sg = &wg->sgs[i];
    ip_sgx *sx = &x->sgx[i];
    for (uint32_t k = 0; k < sg->cap_frames; k++) free(sg->frames[k].stack);
    free(sg->frames);
    for (uint32_t k = 0; k < sx->n_frame_buf; k++) free(sx->frame_buf[k]);
    free(sx->frame_buf);
    free(sx->frame_cap);
    free(sx->phi_tmp);
    free(sx->priv_block);
  }
  free(wg->sgs);
  free(x->sgx);
  free(x->local_block);
  free(wg->local);
  free(wg->scratch);
  free(wg->out);
  free(x->diags);
  memset(x, 0, sizeof *x);
}

/* An async copy's event that no wait_group_events waited for, once every
 * subgroup has finished (a stepped work-group -- the debugger's, the JIT's
 * diagnostic one -- commits once, at its end): reported at the copy. */
static void check_events_waited(ip_wgx *x) {
  ip_wg *wg = &x->wg;
  if (!x->n_events || !wg->n_subgroups) return;
  for (uint32_t i = 0; i < wg->n_subgroups && !x->stepping; i++)
    if (!wg->sgs[i].done) return;
  uint32_t n = x->n_events < 64 ? x->n_events : 64;
  ip_sg *sg = &wg->sgs[0];
  const ip_op *saved = sg->cur;
  for (uint32_t k = 0; k < n; k++) {
    if ((x->events_waited >> k) & 1 || !x->event_op[k]) continue;
    sg->cur = x->event_op[k];
    ip_fault(sg, IP_FAULT_EVENT, sg->all, 0,
             "the event of this async_work_group_copy is never waited for (wait_group_events)");
  }
  sg->cur = saved;
  x->n_events = 0;
  x->events_waited = 0;
}

void ip_wg_commit(ip_launch *l, ip_wgx *x) {
  check_events_waited(x);
  if (l->checks) ip_check_wg_end(&x->wg);
  ip_flush_pending_diag(x);
  pthread_mutex_lock(&l->mu);
  l->rep.n_faults += x->n_faults;
  l->rep.n_ub += x->n_ub;
  if (x->n_diags) {
    if (l->n_all + x->n_diags > l->cap_all) {
      uint32_t nc = l->cap_all ? l->cap_all : 64;
      while (nc < l->n_all + x->n_diags) nc *= 2;
      ip_wdiag *na = realloc(l->all, nc * sizeof *na);
      if (na) { l->all = na; l->cap_all = nc; }
    }
    if (l->n_all + x->n_diags <= l->cap_all) {
      memcpy(l->all + l->n_all, x->diags, x->n_diags * sizeof *x->diags);
      l->n_all += x->n_diags;
    }
  }
  x->n_diags = 0;
  x->n_faults = x->n_ub = 0;
  pthread_mutex_unlock(&l->mu);
  /* a buffered stepping work-group that printed nothing does not commit:
   * the range runner marks its group complete when the chunk is done */
  if (!x->direct_out && !(x->stepping && !x->wg.out_len)) {
    ip_wg *wg = &x->wg;
    char *buf = NULL;
    if (wg->out_len) {
      buf = malloc(wg->out_len);
      if (buf) memcpy(buf, wg->out, wg->out_len);
    }
    ip_out_commit(l, x->wg_linear, buf, buf ? wg->out_len : 0);
    wg->out_len = 0;
  }
}

/* ------------------------------------------------------ stepping API */

ip_wg *ip_wg_begin(ip_launch *l, const uint32_t group[3], char *err, size_t err_size) {
  for (int d = 0; d < 3; d++)
    if (group[d] >= l->nd.groups[d]) {
      snprintf(err, err_size, "work-group (%u,%u,%u) is outside the NDRange (%zu,%zu,%zu groups)",
               group[0], group[1], group[2], l->nd.groups[0], l->nd.groups[1], l->nd.groups[2]);
      return NULL;
    }
  ip_wgx *x = calloc(1, sizeof *x);
  if (!x) { snprintf(err, err_size, "out of memory"); return NULL; }
  /* During a ranged run (another backend's chunk, possibly on several
   * threads) printf text is buffered and ordered by work-group. */
  x->direct_out = !(__atomic_load_n(&l->running, __ATOMIC_ACQUIRE) && l->out_pending);
  x->stepping = true;
  if (l->t_start == 0) l->t_start = ip_now();
  uint64_t lin = ((uint64_t)group[2] * l->nd.groups[1] + group[1]) * l->nd.groups[0] + group[0];
  ip_wg_init(l, x, lin);
  return &x->wg;
}

void ip_wg_end(ip_wg *wg) {
  if (!wg) return;
  ip_wgx *x = ip_wgx_of(wg);
  ip_wg_commit(wg->launch, x);
  ip_wg_fini(x);
  free(x);
}

uint32_t ip_wg_subgroup_count(const ip_wg *wg) { return wg->n_subgroups; }
ip_sg *ip_wg_subgroup(ip_wg *wg, uint32_t i) { return i < wg->n_subgroups ? &wg->sgs[i] : NULL; }

ip_step ip_sg_step(ip_sg *sg) {
  if (sg->done) return IP_STEP_DONE;
  ip_sgx *sx = ip_sgx_of(sg);
  ip_wgx *x = ip_wgx_of(sg->wg);
  if (sx->arrived) {
    ip_wg_release(x);
    if (sx->arrived) return IP_STEP_BLOCKED;
  }
  uint64_t n0 = sx->n_diags;
  ip_step r = sg_advance(sg, 1);
  ip_flush_pending_diag(x);
  if (r == IP_STEP_BLOCKED || r == IP_STEP_STOPPED) return r;
  if (sx->n_diags != n0) return IP_STEP_FAULT;
  return IP_STEP_OK;
}

ip_step ip_wg_step(ip_wg *wg) {
  ip_wgx *x = ip_wgx_of(wg);
  /* Released subgroups finish their rendezvous first (see ip_wg_run_all). */
  for (uint32_t i = 0; i < wg->n_subgroups; i++)
    if (!wg->sgs[i].done && wg->sgs[i].resumed) return ip_sg_step(&wg->sgs[i]);
  for (int attempt = 0; attempt < 2; attempt++) {
    for (uint32_t k = 0; k < wg->n_subgroups; k++) {
      uint32_t i = (x->rr + k) % wg->n_subgroups;
      if (wg->sgs[i].done || x->sgx[i].arrived) continue;
      x->rr = i + 1;
      return ip_sg_step(&wg->sgs[i]);
    }
    if (!ip_wg_release(x)) return IP_STEP_DONE;
  }
  return IP_STEP_BLOCKED;
}

ip_step ip_wg_run(ip_wg *wg) {
  return (ip_step)ip_wg_run_all(ip_wgx_of(wg));
}

uint32_t ip_sg_id(const ip_sg *sg) { return sg->id; }
uint32_t ip_sg_lane_count(const ip_sg *sg) { return sg->n_lanes; }
bool ip_sg_done(const ip_sg *sg) { return sg->done; }
uint32_t ip_sg_lane_local_linear(const ip_sg *sg, uint32_t lane) {
  return lane < IP_MAX_LANES ? sg->local_linear[lane] : 0;
}

ip_mask ip_sg_active(const ip_sg *sg) {
  if (sg->done || !sg->n_frames) return (ip_mask){{0, 0}};
  const ip_frame *f = &sg->frames[sg->n_frames - 1];
  return f->depth ? f->stack[f->depth - 1].mask : (ip_mask){{0, 0}};
}

uint32_t ip_sg_depth(const ip_sg *sg) { return sg->done ? 0 : sg->n_frames; }

static const ip_frame *frame_at(const ip_sg *sg, uint32_t depth) {
  if (sg->done || depth >= sg->n_frames) return NULL;
  return &sg->frames[sg->n_frames - 1 - depth];
}

const ld_function *ip_sg_frame_function(const ip_sg *sg, uint32_t depth) {
  const ip_frame *f = frame_at(sg, depth);
  return f ? f->fn->fn : NULL;
}

const ld_insn *ip_sg_frame_insn(const ip_sg *sg, uint32_t depth) {
  const ip_frame *f = frame_at(sg, depth);
  if (!f || !f->depth) return NULL;
  const ip_simt *t = &f->stack[f->depth - 1];
  if (!t->pc_block || t->pc_index >= f->fn->block_n_ops[t->pc_block->index]) return NULL;
  return f->fn->block_ops[t->pc_block->index][t->pc_index].insn;
}

const ld_insn *ip_sg_current(const ip_sg *sg) { return ip_sg_frame_insn(sg, 0); }

uint32_t ip_sg_read(const ip_sg *sg, uint32_t depth, uint32_t lane, uint32_t id, void *out) {
  const ip_launch *l = sg->launch;
  const ld_module *m = l->m;
  if (id == 0 || id >= m->bound || lane >= sg->size) return 0;
  const ld_value *v = &m->values[id];
  uint32_t sz = ip_value_size(v->type, l->ptr_size);
  uint32_t n = sz > 128 ? 128 : sz;
  switch (v->kind) {
  case LD_V_CONSTANT: case LD_V_UNDEF:
    if (v->u.bytes) memcpy(out, v->u.bytes, n); else memset(out, 0, n);
    return sz;
  case LD_V_VARIABLE:
    memcpy(out, &l->var_addr[v->u.var->index], l->ptr_size);
    return l->ptr_size;
  case LD_V_PARAM: case LD_V_RESULT: {
    const ip_frame *f = frame_at(sg, depth);
    if (!f || v->owner != f->fn->fn || !sz) return 0;
    memcpy(out, f->regs + (size_t)l->slot_of[id] * sg->size + (size_t)lane * sz, n);
    return sz;
  }
  default:
    return 0;
  }
}
