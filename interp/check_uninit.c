/* check_uninit.c - the uninitialized-value detector (--uninitialized).
 *
 * Shadow state, one byte per byte (nonzero = not initialized), as Oclgrind's
 * Uninitialized plugin keeps it:
 *   - registers: a shadow register file per call depth, parallel to the
 *     frame's registers;
 *   - private memory (each lane's Function variables: uninitialized at their
 *     OpVariable unless it has an initializer) and local memory
 *     (uninitialized when the work-group starts);
 *   - global buffers are initialized (the host wrote them), except those a
 *     run file declares `noinit` (uninitialized until written, for the whole
 *     launch); program-scope variables are initialized.
 * Propagation: loads read the memory shadow, stores write it, copies
 * (OpCopyMemory*, async copies) copy it, OpUndef is uninitialized.
 * Composites are exact per byte (insert, extract, construct, vector
 * shuffle), elementwise vector operations per component, so partially
 * initialized vectors and structs are fine until an uninitialized part is
 * used; any other instruction's result is uninitialized when an operand is.
 * Subgroup collectives read other lanes: their result is uninitialized when
 * the operand is in any active lane.
 * Reports (once per instruction): an uninitialized value deciding a branch
 * (OpBranchConditional, OpSwitch), forming an address (the pointer of a
 * load, store, atomic or copy), or stored to global memory; struct padding
 * is never reported (Oclgrind's rule), and memcpy-style copies copy the
 * shadow without a report (Oclgrind's memcpy).
 */
#include <stdio.h>
#include <stdlib.h>
#include "ip_check.h"

#define MAXV 4096u                       /* larger operands are taken as initialized */
static const uint8_t zero_sh[MAXV];

typedef struct un_sg {
  uint8_t **depth;                        /* shadow registers per call depth */
  size_t *cap;
  uint32_t n_depth;
  uint8_t *priv;                          /* priv_size * S */
  size_t priv_cap;
} un_sg;

typedef struct un_state {
  ip_launch *l;
  un_sg *sgs;
  uint32_t n_sgs;
  uint8_t *local;
  size_t local_cap;
  uint8_t poison[MAXV];
  uint8_t *tmp;                           /* phi parallel copy */
  size_t tmp_cap;
  const uint8_t *copy_src;                /* pending copy: the read's shadow (NULL: clean) */
  uint64_t copy_n;
  const ld_insn **seen;                   /* reported instructions */
  uint32_t n_seen, cap_seen;
  uint8_t **gsh;                          /* [local_base]: shadow of 'noinit' buffers */
} un_state;

static void *un_create(ip_launch *l, uint32_t bits) {
  (void)bits;
  un_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->l = l;
  memset(s->poison, 0xff, sizeof s->poison);
  s->gsh = calloc(l->m->layout.local_base ? l->m->layout.local_base : 1, sizeof *s->gsh);
  if (!s->gsh) { free(s); return NULL; }
  return s;
}

static void un_free_sgs(un_state *s) {
  for (uint32_t i = 0; i < s->n_sgs; i++) {
    for (uint32_t d = 0; d < s->sgs[i].n_depth; d++) free(s->sgs[i].depth[d]);
    free(s->sgs[i].depth);
    free(s->sgs[i].cap);
    free(s->sgs[i].priv);
  }
  free(s->sgs);
  s->sgs = NULL;
  s->n_sgs = 0;
}

static void free_gsh(un_state *s) {
  for (uint32_t r = 0; r < s->l->m->layout.local_base; r++) { free(s->gsh[r]); s->gsh[r] = NULL; }
}

static void un_destroy(void *st) {
  un_state *s = st;
  free_gsh(s);
  free(s->gsh);
  un_free_sgs(s);
  free(s->local); free(s->tmp); free(s->seen);
  free(s);
}

static void un_reset(void *st) {
  un_state *s = st;
  s->n_seen = 0;
  free_gsh(s);   /* 'noinit' buffers are uninitialized again */
}

static void un_wg_begin(void *st, ip_wg *wg) {
  un_state *s = st;
  ip_launch *l = wg->launch;
  if (wg->n_subgroups > s->n_sgs) {
    un_sg *n = realloc(s->sgs, wg->n_subgroups * sizeof *n);
    if (!n) return;
    memset(n + s->n_sgs, 0, (wg->n_subgroups - s->n_sgs) * sizeof *n);
    s->sgs = n;
    s->n_sgs = wg->n_subgroups;
  }
  size_t pn = (size_t)l->priv_size * l->nd.sg_size;
  for (uint32_t i = 0; i < wg->n_subgroups; i++) {
    un_sg *u = &s->sgs[i];
    if (pn > u->priv_cap) {
      free(u->priv);
      u->priv = malloc(pn);
      u->priv_cap = u->priv ? pn : 0;
    }
    /* private memory is zeroed by the machine, but an OpVariable makes it
     * uninitialized; what no variable covers stays initialized */
    if (u->priv) memset(u->priv, 0, u->priv_cap);
    for (uint32_t d = 0; d < u->n_depth; d++)
      if (u->depth[d]) memset(u->depth[d], 0, u->cap[d]);
  }
  if (l->local_block_size > s->local_cap) {
    free(s->local);
    s->local = malloc(l->local_block_size);
    s->local_cap = s->local ? l->local_block_size : 0;
  }
  if (s->local) memset(s->local, 0xff, s->local_cap);
}

/* Shadow registers of sg's frame at stack index fi (0 = kernel). */
static uint8_t *sregs(un_state *s, ip_sg *sg, uint32_t fi) {
  if (sg->id >= s->n_sgs || fi >= sg->n_frames) return NULL;
  un_sg *u = &s->sgs[sg->id];
  if (fi >= u->n_depth) {
    uint32_t nd = fi + 4;
    uint8_t **d = realloc(u->depth, nd * sizeof *d);
    if (!d) return NULL;
    u->depth = d;
    size_t *c = realloc(u->cap, nd * sizeof *c);
    if (!c) return NULL;
    u->cap = c;
    for (uint32_t i = u->n_depth; i < nd; i++) { d[i] = NULL; c[i] = 0; }
    u->n_depth = nd;
  }
  size_t need = (size_t)sg->frames[fi].fn->regs_per_lane * sg->size;
  if (need > u->cap[fi]) {
    uint8_t *n = calloc(1, need ? need : 1);
    if (!n) return NULL;
    free(u->depth[fi]);
    u->depth[fi] = n;
    u->cap[fi] = need;
  }
  return u->depth[fi];
}

static uint8_t *top_sregs(un_state *s, ip_sg *sg) { return sregs(s, sg, sg->n_frames - 1); }

/* Shadow of operand i of op for lane (NULL: none, take as initialized). */
static const uint8_t *in_sh(un_state *s, ip_sg *sg, const ip_op *op, uint32_t i, uint32_t lane) {
  const ip_opnd *o = &op->in[i];
  if (o->size > MAXV) return NULL;
  if (o->cbase) {
    const ld_module *m = sg->m;
    return o->id < m->bound && m->values[o->id].kind == LD_V_UNDEF ? s->poison : zero_sh;
  }
  uint8_t *r = top_sregs(s, sg);
  return r ? r + (size_t)o->off * sg->size + (size_t)lane * o->size : NULL;
}

static uint8_t *res_sh(un_state *s, ip_sg *sg, const ip_op *op, uint32_t lane) {
  uint8_t *r = top_sregs(s, sg);
  return r ? r + (size_t)op->res_off * sg->size + (size_t)lane * op->res_size : NULL;
}

static bool any(const uint8_t *p, uint64_t n) {
  if (!p) return false;
  for (uint64_t i = 0; i < n; i++) if (p[i]) return true;
  return false;
}

/* Shadow of memory at addr for lane (NULL: always initialized). */
static uint8_t *mem_sh(un_state *s, ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size,
                       bool *is_global) {
  const ip_addr_layout *a = ip_layout(sg);
  ip_launch *l = s->l;
  uint32_t r = ip_addr_region(a, addr);
  uint64_t off = ip_addr_offset(a, addr);
  *is_global = r != 0 && r < a->local_base;
  if (r >= a->priv_base) {
    uint32_t k = r - a->priv_base;
    if (sg->id >= s->n_sgs || !s->sgs[sg->id].priv || k >= sg->size || off + size > l->priv_size) return NULL;
    (void)lane;
    return s->sgs[sg->id].priv + (size_t)k * l->priv_size + off;
  }
  if (r >= a->local_base && r < a->builtin_base) {
    uint32_t k = r - a->local_base;
    if (!s->local || k >= l->n_local || l->local_off[k] + off + size > s->local_cap) return NULL;
    return s->local + l->local_off[k] + off;
  }
  if (r != 0 && r < a->local_base && l->region_arg[r] && l->region_arg[r]->noinit) {
    const ip_region *g = &l->gregions[r];
    if (off + size > g->size) return NULL;
    if (!s->gsh[r]) {
      s->gsh[r] = malloc(g->size ? g->size : 1);
      if (!s->gsh[r]) return NULL;
      memset(s->gsh[r], 0xff, g->size);
    }
    return s->gsh[r] + off;
  }
  return NULL;
}

static bool first_time(un_state *s, const ld_insn *in) {
  for (uint32_t i = 0; i < s->n_seen; i++) if (s->seen[i] == in) return false;
  if (s->n_seen == s->cap_seen) {
    uint32_t nc = s->cap_seen ? s->cap_seen * 2 : 16;
    const ld_insn **n = realloc(s->seen, nc * sizeof *n);
    if (!n) return false;
    s->seen = n;
    s->cap_seen = nc;
  }
  s->seen[s->n_seen++] = in;
  return true;
}

static void report(un_state *s, ip_sg *sg, ip_mask lanes, uint64_t addr, const char *what,
                   const char *fmt, const char *detail) {
  if (ip_mask_empty(lanes) || !first_time(s, sg->cur->insn)) return;
  ip_diag_access a;
  ip_check_access(sg, ip_mask_first(lanes), sg->cur->insn, what, &a);
  ip_check_report(sg, IP_CHECK_UNINITIALIZED, lanes, addr, &a, 1, fmt, detail);
}

/* Marks the data bytes (not padding) of type t at base in mask. */
static void data_bytes(const ld_type *t, uint64_t base, uint8_t *mask, uint64_t n) {
  if (!t) return;
  if (t->kind == LD_T_STRUCT) {
    for (uint32_t i = 0; i < t->n_members; i++) data_bytes(t->members[i], base + t->offsets[i], mask, n);
    return;
  }
  if (t->kind == LD_T_ARRAY && t->elem && t->elem->size) {
    for (uint32_t i = 0; i < t->count; i++) data_bytes(t->elem, base + (uint64_t)i * t->elem->size, mask, n);
    return;
  }
  uint64_t sz = t->size;
  if (t->kind == LD_T_VECTOR && t->count == 3 && t->elem) sz = 3 * (uint64_t)t->elem->size;
  for (uint64_t i = base; i < base + sz && i < n; i++) mask[i] = 1;
}

/* Is any data byte of a t-typed value with shadow sh uninitialized? */
static bool data_uninit(const ld_type *t, const uint8_t *sh, uint64_t n) {
  if (!any(sh, n)) return false;
  if (!t || (t->kind != LD_T_STRUCT && t->kind != LD_T_ARRAY && !(t->kind == LD_T_VECTOR && t->count == 3)))
    return true;
  uint8_t *mask = calloc(1, n);
  if (!mask) return true;
  data_bytes(t, 0, mask, n);
  bool r = false;
  for (uint64_t i = 0; i < n && !r; i++) r = mask[i] && sh[i];
  free(mask);
  return r;
}

/* ---------------------------------------------------------------- memory */

static void un_mem(void *st, ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size, ip_access acc,
                   uint8_t *host) {
  (void)host;
  un_state *s = st;
  const ip_op *op = sg->cur;
  if (!op) return;
  SpvOp o = op->insn->op;
  bool glob;
  uint8_t *m = mem_sh(s, sg, lane, addr, size, &glob);
  if (o == SpvOpCopyMemory || o == SpvOpCopyMemorySized || o == SpvOpGroupAsyncCopy) {
    if (acc == IP_READ) { s->copy_src = m; s->copy_n = size; return; }
    if (m) {
      if (s->copy_src && s->copy_n == size) memmove(m, s->copy_src, size);
      else memset(m, 0, size);
    }
    s->copy_src = NULL;
    return;
  }
  if (o == SpvOpLoad && acc == IP_READ) {
    uint8_t *r = res_sh(s, sg, op, lane);
    if (r && size <= op->res_size) { if (m) memcpy(r, m, size); else memset(r, 0, size); }
    return;
  }
  if (o == SpvOpStore && acc == IP_WRITE && op->n_in >= 2) {
    const uint8_t *v = in_sh(s, sg, op, 1, lane);
    if (m) { if (v) memcpy(m, v, size); else memset(m, 0, size); }
    if (glob && v && data_uninit(op->in[1].type, v, size)) {
      ip_mask lm = {{0, 0}};
      ip_mask_set(&lm, lane);
      char where[160];
      ip_describe_addr(sg, addr, where, sizeof where);
      report(s, sg, lm, addr, "store", "an uninitialized value is stored to global memory at %s", where);
    }
    return;
  }
  if (acc != IP_READ && m) memset(m, 0, size);   /* atomics, vstore, block writes ... */
}

/* ------------------------------------------------------------ propagation */

/* Offset and type of the part of t selected by literal indices. */
static bool part_of(const ld_type *t, const uint32_t *idx, uint32_t n, uint64_t *off, const ld_type **out) {
  uint64_t o = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!t) return false;
    if (t->kind == LD_T_STRUCT) {
      if (idx[i] >= t->n_members) return false;
      o += t->offsets[idx[i]];
      t = t->members[idx[i]];
    } else if (t->elem) {
      o += (uint64_t)idx[i] * t->elem->size;
      t = t->elem;
    } else {
      return false;
    }
  }
  *off = o;
  *out = t;
  return true;
}

static void set_result(un_state *s, ip_sg *sg, const ip_op *op, bool poisoned) {
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = res_sh(s, sg, op, l);
    if (r) memset(r, poisoned ? 0xff : 0, op->res_size);
  }
}

/* Result uninitialized where an operand is (per component for elementwise
 * vector operations). */
static void generic(un_state *s, ip_sg *sg, const ip_op *op) {
  const ld_type *rt = op->insn->type;
  uint32_t nc = rt && rt->kind == LD_T_VECTOR ? rt->count : 0;
  bool elementwise = nc > 1;
  for (uint32_t i = 0; i < op->n_in && elementwise; i++) {
    const ld_type *t = op->in[i].type;
    if (!t || t->kind != LD_T_VECTOR || t->count != nc) elementwise = false;
  }
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = res_sh(s, sg, op, l);
    if (!r) continue;
    if (elementwise) {
      uint32_t rs = op->res_size / nc;
      for (uint32_t c = 0; c < nc; c++) {
        bool p = false;
        for (uint32_t i = 0; i < op->n_in && !p; i++) {
          uint32_t es = op->in[i].size / nc;
          const uint8_t *sh = in_sh(s, sg, op, i, l);
          p = sh && any(sh + c * es, es);
        }
        memset(r + c * rs, p ? 0xff : 0, rs);
      }
      continue;
    }
    bool p = false;
    for (uint32_t i = 0; i < op->n_in && !p; i++) p = any(in_sh(s, sg, op, i, l), op->in[i].size);
    memset(r, p ? 0xff : 0, op->res_size);
  }
}

static bool is_collective(const ip_sg *sg, const ip_op *op) {
  uint32_t f;
  return ip_check_sync_of(sg, op, &f) == IP_SYNC_SUBGROUP && op->res_size;
}

static void un_after(void *st, ip_sg *sg, const ip_op *op) {
  un_state *s = st;
  const ld_insn *in = op->insn;
  SpvOp o = in->op;
  switch (o) {
  case SpvOpLoad: case SpvOpStore: case SpvOpCopyMemory: case SpvOpCopyMemorySized:
  case SpvOpPhi: case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch:
  case SpvOpReturn: case SpvOpReturnValue:
    return;   /* done in the memory event / before the jump */
  case SpvOpUndef:
    set_result(s, sg, op, true);
    return;
  case SpvOpVariable: {
    const ld_type *pt = in->type ? in->type->elem : NULL;
    uint64_t vsz = pt ? pt->size : 0;
    IP_FOR_LANES(sg->mask, l) {
      uint8_t *r = res_sh(s, sg, op, l);
      if (r) memset(r, 0, op->res_size);
      bool g;
      uint8_t *m = mem_sh(s, sg, l, ip_load_uint(ip_res(sg, op, l), op->res_size), vsz, &g);
      if (m) memset(m, op->n_in >= 1 ? 0 : 0xff, vsz);
    }
    return;
  }
  case SpvOpFunctionCall: {
    if (sg->n_frames < 2 || sg->frames[sg->n_frames - 1].call_op != op) return;
    const ld_function *fn = sg->frames[sg->n_frames - 1].fn->fn;
    uint8_t *callee = top_sregs(s, sg), *caller = sregs(s, sg, sg->n_frames - 2);
    if (!callee || !caller) return;
    for (uint32_t i = 0; i < fn->n_params && i + 1 < op->n_in; i++) {
      const ip_opnd *a = &op->in[i + 1];
      uint32_t off = s->l->slot_of[fn->params[i]];
      IP_FOR_LANES(sg->mask, l) {
        uint8_t *d = callee + (size_t)off * sg->size + (size_t)l * a->size;
        const ld_module *m = sg->m;
        if (a->cbase) memset(d, a->id < m->bound && m->values[a->id].kind == LD_V_UNDEF ? 0xff : 0, a->size);
        else memcpy(d, caller + (size_t)a->off * sg->size + (size_t)l * a->size, a->size);
      }
    }
    return;
  }
  case SpvOpCompositeExtract: {
    uint64_t off;
    const ld_type *pt;
    if (in->n_ops < 2 || !part_of(op->in[0].type, in->ops + 1, in->n_ops - 1, &off, &pt)) break;
    IP_FOR_LANES(sg->mask, l) {
      uint8_t *r = res_sh(s, sg, op, l);
      const uint8_t *c = in_sh(s, sg, op, 0, l);
      if (!r) continue;
      if (c && off + op->res_size <= op->in[0].size) memcpy(r, c + off, op->res_size);
      else memset(r, 0, op->res_size);
    }
    return;
  }
  case SpvOpCompositeInsert: {
    uint64_t off;
    const ld_type *pt;
    if (in->n_ops < 3 || op->n_in < 2 || !part_of(in->type, in->ops + 2, in->n_ops - 2, &off, &pt)) break;
    IP_FOR_LANES(sg->mask, l) {
      uint8_t *r = res_sh(s, sg, op, l);
      const uint8_t *c = in_sh(s, sg, op, 1, l), *v = in_sh(s, sg, op, 0, l);
      if (!r) continue;
      if (c) memmove(r, c, op->res_size); else memset(r, 0, op->res_size);
      if (off + op->in[0].size <= op->res_size) {
        if (v) memcpy(r + off, v, op->in[0].size); else memset(r + off, 0, op->in[0].size);
      }
    }
    return;
  }
  case SpvOpCompositeConstruct: {
    const ld_type *t = in->type;
    IP_FOR_LANES(sg->mask, l) {
      uint8_t *r = res_sh(s, sg, op, l);
      if (!r) continue;
      memset(r, 0, op->res_size);
      uint64_t pos = 0;
      for (uint32_t i = 0; i < op->n_in; i++) {
        uint64_t at = t && t->kind == LD_T_STRUCT && i < t->n_members ? t->offsets[i] : pos;
        const uint8_t *c = in_sh(s, sg, op, i, l);
        if (c && at + op->in[i].size <= op->res_size) memcpy(r + at, c, op->in[i].size);
        pos = at + op->in[i].size;
      }
    }
    return;
  }
  case SpvOpVectorShuffle: {
    const ld_type *t1 = op->n_in >= 2 ? op->in[0].type : NULL;
    const ld_type *rt = in->type;
    if (!t1 || t1->kind != LD_T_VECTOR || !rt || !rt->elem) break;
    uint32_t es = rt->elem->size, n1 = t1->count;
    IP_FOR_LANES(sg->mask, l) {
      uint8_t *r = res_sh(s, sg, op, l);
      if (!r) continue;
      memset(r, 0, op->res_size);
      for (uint32_t k = 0; k + 2 < in->n_ops && (k + 1) * es <= op->res_size; k++) {
        uint32_t c = in->ops[2 + k];
        if (c == 0xffffffffu) continue;
        const uint8_t *src = in_sh(s, sg, op, c < n1 ? 0 : 1, l);
        uint32_t ci = c < n1 ? c : c - n1;
        if (src && (ci + 1) * es <= op->in[c < n1 ? 0 : 1].size) memcpy(r + k * es, src + ci * es, es);
      }
    }
    return;
  }
  case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic: {
    /* the addressed component only (a partially initialized vector indexed
     * at run time); an uninitialized index taints the whole result */
    bool ins = o == SpvOpVectorInsertDynamic;
    const ld_type *vt = op->in[0].type;
    uint32_t ii = ins ? 2 : 1;
    if (!vt || vt->kind != LD_T_VECTOR || !vt->elem || op->n_in <= ii) break;
    uint32_t es = vt->elem->size;
    IP_FOR_LANES(sg->mask, l) {
      uint8_t *r = res_sh(s, sg, op, l);
      const uint8_t *v = in_sh(s, sg, op, 0, l), *ix = in_sh(s, sg, op, ii, l);
      if (!r) continue;
      if (ix && any(ix, op->in[ii].size)) { memset(r, 0xff, op->res_size); continue; }
      uint64_t c = ip_in_uint(sg, op, ii, l);
      if (!ins) {
        if (v && (c + 1) * es <= op->in[0].size) memcpy(r, v + c * es, es < op->res_size ? es : op->res_size);
        else memset(r, 0, op->res_size);
        continue;
      }
      if (v) memmove(r, v, op->res_size); else memset(r, 0, op->res_size);
      const uint8_t *x = in_sh(s, sg, op, 1, l);
      if ((c + 1) * es <= op->res_size) { if (x) memcpy(r + c * es, x, es); else memset(r + c * es, 0, es); }
    }
    return;
  }
  case SpvOpSelect: {
    if (op->n_in < 3 || op->in[0].size != 1) break;
    IP_FOR_LANES(sg->mask, l) {
      uint8_t *r = res_sh(s, sg, op, l);
      if (!r) continue;
      const uint8_t *c = in_sh(s, sg, op, 0, l);
      if (c && c[0]) { memset(r, 0xff, op->res_size); continue; }
      const uint8_t *v = in_sh(s, sg, op, (ip_in(sg, op, 0, l)[0] & 1) ? 1 : 2, l);
      if (v) memcpy(r, v, op->res_size); else memset(r, 0, op->res_size);
    }
    return;
  }
  default:
    break;
  }
  if (!op->res_size) return;
  if ((o >= SpvOpAtomicLoad && o <= SpvOpAtomicXor) || o == SpvOpAtomicFlagTestAndSet ||
      o == SpvOpAtomicFAddEXT || o == SpvOpAtomicFMinEXT || o == SpvOpAtomicFMaxEXT) {
    set_result(s, sg, op, false);   /* atomics read initialized memory (Oclgrind) */
    return;
  }
  if (is_collective(sg, op)) {
    bool p = false;
    IP_FOR_LANES(sg->mask, l)
      for (uint32_t i = 0; i < op->n_in && !p; i++) p = any(in_sh(s, sg, op, i, l), op->in[i].size);
    set_result(s, sg, op, p);
    return;
  }
  generic(s, sg, op);
}

/* ------------------------------------------------------ checks and jumps */

static const ld_block *label_block(const ld_module *m, uint32_t id) {
  return id < m->bound && m->values[id].kind == LD_V_LABEL ? m->values[id].u.block : NULL;
}

/* Phi shadows for the lanes taking from -> to (a parallel copy). */
static void phi_edge(un_state *s, ip_sg *sg, const ld_block *from, const ld_block *to, ip_mask lanes) {
  if (!to || !to->n_phis || ip_mask_empty(lanes)) return;
  const ip_fn *fn = sg->frames[sg->n_frames - 1].fn;
  const ip_op *phis = fn->block_ops[to->index] - to->n_phis;
  size_t need = 0;
  for (uint32_t k = 0; k < to->n_phis; k++) need += (size_t)phis[k].res_size * sg->size;
  if (need > s->tmp_cap) {
    free(s->tmp);
    s->tmp = malloc(need);
    s->tmp_cap = s->tmp ? need : 0;
    if (!s->tmp) return;
  }
  size_t pos = 0;
  for (uint32_t k = 0; k < to->n_phis; k++) {
    const ip_op *p = &phis[k];
    memset(s->tmp + pos, 0, (size_t)p->res_size * sg->size);
    for (uint32_t j = 0; j < p->n_in; j++) {
      if (2 * j + 1 >= p->insn->n_ops || p->insn->ops[2 * j + 1] != from->label) continue;
      IP_FOR_LANES(lanes, l) {
        const uint8_t *v = in_sh(s, sg, p, j, l);
        if (v && p->in[j].size <= p->res_size) memcpy(s->tmp + pos + (size_t)l * p->res_size, v, p->in[j].size);
      }
      break;
    }
    pos += (size_t)p->res_size * sg->size;
  }
  pos = 0;
  for (uint32_t k = 0; k < to->n_phis; k++) {
    const ip_op *p = &phis[k];
    IP_FOR_LANES(lanes, l) {
      uint8_t *r = res_sh(s, sg, p, l);
      if (r) memcpy(r, s->tmp + pos + (size_t)l * p->res_size, p->res_size);
    }
    pos += (size_t)p->res_size * sg->size;
  }
}

static ip_mask lanes_where(un_state *s, ip_sg *sg, const ip_op *op, uint32_t i) {
  ip_mask m = {{0, 0}};
  IP_FOR_LANES(sg->mask, l) if (any(in_sh(s, sg, op, i, l), op->in[i].size)) ip_mask_set(&m, l);
  return m;
}

static void un_before(void *st, ip_sg *sg, const ip_op *op) {
  un_state *s = st;
  const ld_insn *in = op->insn;
  const ld_module *m = sg->m;
  const ld_block *blk = in->block;
  switch (in->op) {
  case SpvOpBranch:
    if (in->n_ops >= 1) phi_edge(s, sg, blk, label_block(m, in->ops[0]), sg->mask);
    return;
  case SpvOpBranchConditional: {
    if (op->n_in < 1 || in->n_ops < 3) return;
    report(s, sg, lanes_where(s, sg, op, 0), 0, "branch",
           "an uninitialized value decides a branch%s", "");
    ip_mask t = {{0, 0}};
    IP_FOR_LANES(sg->mask, l) if (ip_in(sg, op, 0, l)[0] & 1) ip_mask_set(&t, l);
    const ld_block *bt = label_block(m, in->ops[1]), *bf = label_block(m, in->ops[2]);
    if (bt == bf) { phi_edge(s, sg, blk, bt, sg->mask); return; }
    phi_edge(s, sg, blk, bt, t);
    phi_edge(s, sg, blk, bf, ip_mask_andnot(sg->mask, t));
    return;
  }
  case SpvOpSwitch: {
    if (op->n_in < 1 || in->n_ops < 2) return;
    report(s, sg, lanes_where(s, sg, op, 0), 0, "branch",
           "an uninitialized value decides a switch%s", "");
    const ld_type *st2 = op->in[0].type;
    uint32_t width = st2 && st2->width ? st2->width : 32, lw = width > 32 ? 2 : 1;
    uint64_t wm = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
    uint32_t n = (in->n_ops - 2) / (lw + 1);
    ip_mask left = sg->mask;
    for (uint32_t c = 0; c < n; c++) {
      const uint32_t *w = &in->ops[2 + c * (lw + 1)];
      uint64_t v = w[0] | (lw == 2 ? (uint64_t)w[1] << 32 : 0);
      ip_mask mm = {{0, 0}};
      IP_FOR_LANES(left, l) if ((ip_in_uint(sg, op, 0, l) & wm) == (v & wm)) ip_mask_set(&mm, l);
      phi_edge(s, sg, blk, label_block(m, w[lw]), mm);
      left = ip_mask_andnot(left, mm);
    }
    phi_edge(s, sg, blk, label_block(m, in->ops[1]), left);
    return;
  }
  case SpvOpReturnValue: {
    if (sg->n_frames < 2 || op->n_in < 1) return;
    const ip_frame *f = &sg->frames[sg->n_frames - 1];
    const ip_op *call = f->call_op;
    uint8_t *caller = sregs(s, sg, sg->n_frames - 2);
    if (!call || !call->res_size || !caller) return;
    IP_FOR_LANES(sg->mask, l) {
      const uint8_t *v = in_sh(s, sg, op, 0, l);
      uint8_t *d = caller + (size_t)call->res_off * sg->size + (size_t)l * call->res_size;
      uint32_t n = call->res_size < op->in[0].size ? call->res_size : op->in[0].size;
      if (v) memcpy(d, v, n); else memset(d, 0, n);
    }
    return;
  }
  case SpvOpLoad: case SpvOpStore: case SpvOpCopyMemory: case SpvOpCopyMemorySized:
    if (in->op == SpvOpLoad) set_result(s, sg, op, false);   /* faulting lanes read zeros */
    if (op->n_in >= 1)
      report(s, sg, lanes_where(s, sg, op, 0), 0, "address",
             "an uninitialized value forms the address of a %s", in->op == SpvOpLoad ? "load" : in->op == SpvOpStore ? "store" : "copy");
    if ((in->op == SpvOpCopyMemory || in->op == SpvOpCopyMemorySized) && op->n_in >= 2)
      report(s, sg, lanes_where(s, sg, op, 1), 0, "address",
             "an uninitialized value forms the address of a %s", "copy");
    s->copy_src = NULL;
    return;
  default:
    if (((in->op >= SpvOpAtomicLoad && in->op <= SpvOpAtomicXor) || in->op == SpvOpAtomicFlagTestAndSet ||
         in->op == SpvOpAtomicFlagClear || in->op == SpvOpAtomicFAddEXT) && op->n_in >= 1)
      report(s, sg, lanes_where(s, sg, op, 0), 0, "address",
             "an uninitialized value forms the address of an %s", "atomic");
    return;
  }
}

const ip_check_plugin ip_check_uninit = {
  .name = "uninitialized",
  .bit = IP_DETECT_UNINIT,
  .create = un_create,
  .destroy = un_destroy,
  .launch_reset = un_reset,
  .wg_begin = un_wg_begin,
  .mem = un_mem,
  .before = un_before,
  .after = un_after,
};
