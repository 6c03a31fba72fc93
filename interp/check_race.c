/* check_race.c - the access-history detectors: data races (--data-races) and
 * lockstep assumptions (--lockstep).  Both read one shadow: for every byte of
 * global and local memory, the last write and the last reads of two
 * different work-items (a later writer differs from one of them).  A new access is checked against
 * them and classified (docs/semantics.md, "Detectors"):
 *
 *   - same work-item, or both atomic: ordered;
 *   - different work-groups (global memory only): a data race, since nothing
 *     orders work-groups but the end of the kernel;
 *   - same work-group: ordered when a work-group barrier whose fence covers
 *     the memory (CLK_LOCAL_MEM_FENCE for local, CLK_GLOBAL_MEM_FENCE for
 *     global; Oclgrind's rule) lies between them; else, for two lanes of one
 *     subgroup, ordered when a sub_group_barrier or subgroup collective lies
 *     between them, otherwise a lockstep assumption (but two stores of one
 *     instruction are a data race: no lockstep decides which wins); for
 *     lanes of different subgroups, a data race;
 *   - an async copy's accesses (OpGroupAsyncCopy, done when the work-group
 *     reaches it) race with plain accesses of the work-group until
 *     wait_group_events.
 * A write of the value the memory already holds does not race with a write
 * (Oclgrind's "uniform writes"), so `flag = 1` from every work-item is fine.
 * Each pair of instructions is reported once per launch.
 *
 * Barrier counts are per subgroup: every subgroup passes the same barriers
 * in the same order, and the machine resumes all subgroups released by a
 * barrier before any runs on, so counts compare across subgroups.
 */
#include <stdio.h>
#include <stdlib.h>
#include "ip_check.h"

enum { RF_ATOMIC = 1, RF_ASYNC = 2 };
#define ASYNC_ITEM UINT32_MAX

typedef struct rc_rec {
  const ld_insn *insn;
  uint32_t wg;          /* linear work-group + 1; 0: no access recorded */
  uint32_t item;        /* linear local id (ASYNC_ITEM for an async copy) */
  uint32_t epoch;       /* barriers with the memory's fence passed (async: waits) */
  uint32_t sub;         /* subgroup synchronizations passed */
  uint8_t flags, lane;
  uint16_t sg;
} rc_rec;

typedef struct rc_cell { rc_rec w, r, r2; } rc_cell;   /* last write, last two readers */

typedef struct rc_sgst { uint32_t le, ge, se, we; } rc_sgst;

typedef struct rc_pending {   /* a write-write conflict decided after the write */
  uint8_t *host;
  uint64_t size, addr;
  uint8_t old[16];
  rc_rec p, a;
  ip_diag_kind kind;
} rc_pending;

typedef struct rc_state {
  ip_launch *l;
  bool races, lockstep;
  rc_cell **global;         /* [local_base]: lazily, one cell per byte */
  uint64_t *global_n;
  rc_cell *local;           /* the current work-group's local memory */
  size_t local_n;
  rc_sgst *sgs;
  uint32_t n_sgs;
  uint64_t wg1;             /* current work-group linear + 1 */
  rc_pending pend[2 * IP_MAX_LANES];
  uint32_t n_pend;
  const void **seen;        /* reported pairs: 2 insns + kind, open addressing */
  uint32_t seen_cap, seen_n;
} rc_state;

static void *rc_create(ip_launch *l, uint32_t bits) {
  rc_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->l = l;
  s->races = bits & IP_DETECT_RACES;
  s->lockstep = bits & IP_DETECT_LOCKSTEP;
  uint32_t nb = l->m->layout.local_base;
  s->global = calloc(nb ? nb : 1, sizeof *s->global);
  s->global_n = calloc(nb ? nb : 1, sizeof *s->global_n);
  if (!s->global || !s->global_n) { free(s->global); free(s->global_n); free(s); return NULL; }
  return s;
}

static void rc_reset(void *st) {
  rc_state *s = st;
  uint32_t nb = s->l->m->layout.local_base;
  for (uint32_t i = 0; i < nb; i++) { free(s->global[i]); s->global[i] = NULL; s->global_n[i] = 0; }
  free(s->seen);
  s->seen = NULL;
  s->seen_cap = s->seen_n = 0;
}

static void rc_destroy(void *st) {
  rc_state *s = st;
  rc_reset(s);
  free(s->global); free(s->global_n); free(s->local); free(s->sgs);
  free(s);
}

static void rc_wg_begin(void *st, ip_wg *wg) {
  rc_state *s = st;
  ip_launch *l = wg->launch;
  s->wg1 = ip_wgx_of(wg)->wg_linear + 1;
  if (l->local_block_size && s->local_n != l->local_block_size) {
    free(s->local);
    s->local = calloc(l->local_block_size, sizeof *s->local);
    s->local_n = s->local ? l->local_block_size : 0;
  } else if (s->local) {
    memset(s->local, 0, s->local_n * sizeof *s->local);
  }
  if (wg->n_subgroups > s->n_sgs) {
    free(s->sgs);
    s->sgs = calloc(wg->n_subgroups, sizeof *s->sgs);
    s->n_sgs = s->sgs ? wg->n_subgroups : 0;
  }
  if (s->sgs) memset(s->sgs, 0, s->n_sgs * sizeof *s->sgs);
  s->n_pend = 0;
}

/* Once per unordered pair of instructions and kind. */
static bool first_report(rc_state *s, const ld_insn *a, const ld_insn *b, ip_diag_kind kind) {
  if ((uintptr_t)a > (uintptr_t)b) { const ld_insn *t = a; a = b; b = t; }
  if (s->seen_n * 2 >= s->seen_cap) {
    uint32_t nc = s->seen_cap ? s->seen_cap * 2 : 64;
    const void **ns = calloc((size_t)nc * 3, sizeof *ns);
    if (!ns) return true;
    for (uint32_t i = 0; i < s->seen_cap; i++) {
      if (!s->seen[i * 3 + 2]) continue;
      uintptr_t h = ((uintptr_t)s->seen[i * 3] * 31 + (uintptr_t)s->seen[i * 3 + 1]) * 7 + (uintptr_t)s->seen[i * 3 + 2];
      uint32_t j = (uint32_t)(h % nc);
      while (ns[j * 3 + 2]) j = (j + 1) % nc;
      memcpy(&ns[j * 3], &s->seen[i * 3], 3 * sizeof *ns);
    }
    free(s->seen);
    s->seen = ns;
    s->seen_cap = nc;
  }
  const void *k = (const void *)(uintptr_t)kind;
  uintptr_t h = ((uintptr_t)a * 31 + (uintptr_t)b) * 7 + (uintptr_t)k;
  uint32_t j = (uint32_t)(h % s->seen_cap);
  while (s->seen[j * 3 + 2]) {
    if (s->seen[j * 3] == a && s->seen[j * 3 + 1] == b && s->seen[j * 3 + 2] == k) return false;
    j = (j + 1) % s->seen_cap;
  }
  s->seen[j * 3] = a; s->seen[j * 3 + 1] = b; s->seen[j * 3 + 2] = k;
  s->seen_n++;
  return true;
}

/* 0: ordered; else the kind of the conflict between earlier p and new a. */
static ip_diag_kind classify(const rc_rec *p, const rc_rec *a, uint32_t a_we) {
  if (!p->wg) return 0;
  if ((p->flags & a->flags & RF_ATOMIC)) return 0;
  if (p->wg != a->wg) return IP_CHECK_DATA_RACE;
  if (p->item == a->item) return 0;
  if (p->flags & RF_ASYNC) return (a->flags & RF_ASYNC) || p->epoch != a_we ? 0 : IP_CHECK_DATA_RACE;
  if (a->flags & RF_ASYNC) return 0;
  if (p->epoch < a->epoch) return 0;
  if (p->sg == a->sg) return p->sub < a->sub ? 0 : IP_CHECK_LOCKSTEP;
  return IP_CHECK_DATA_RACE;
}

static const char *rec_what(const rc_rec *r, bool write) {
  if (r->flags & RF_ASYNC) return write ? "async copy write" : "async copy read";
  if (r->flags & RF_ATOMIC) return "atomic access";
  return write ? "write" : "read";
}

/* The access record p as a report access (its work-group from its number). */
static void rec_access(const rc_state *s, const rc_rec *p, bool write, ip_diag_access *o) {
  const ip_ndrange *nd = &s->l->nd;
  memset(o, 0, sizeof *o);
  o->what = rec_what(p, write);
  uint64_t g = p->wg - 1;
  size_t ls[3];
  for (int d = 0; d < 3; d++) {
    o->group[d] = (uint32_t)(g % nd->groups[d]);
    g /= nd->groups[d];
    size_t start = (size_t)o->group[d] * nd->local[d];
    ls[d] = nd->global[d] - start < nd->local[d] ? nd->global[d] - start : nd->local[d];
  }
  uint32_t item = p->item == ASYNC_ITEM ? 0 : p->item;
  o->local_id[0] = (uint32_t)(item % ls[0]);
  o->local_id[1] = (uint32_t)((item / ls[0]) % ls[1]);
  o->local_id[2] = (uint32_t)(item / (ls[0] * ls[1]));
  o->subgroup = p->sg;
  o->lane = p->lane;
  o->insn = p->insn;
}

static void report(rc_state *s, ip_sg *sg, ip_diag_kind kind, const rc_rec *p, bool p_write,
                   const rc_rec *a, bool a_write, uint64_t addr, uint64_t size) {
  if (kind == IP_CHECK_DATA_RACE ? !s->races : !s->lockstep) return;
  if (!first_report(s, p->insn, a->insn, kind)) return;
  ip_diag_access acc[2];
  rec_access(s, a, a_write, &acc[0]);
  rec_access(s, p, p_write, &acc[1]);
  char where[160], other[400];
  ip_describe_addr(sg, addr, where, sizeof where);
  ip_check_access_format(sg->m, &acc[1], other, sizeof other);
  ip_mask lanes = {{0, 0}};
  ip_mask_set(&lanes, a->lane);
  if (kind == IP_CHECK_LOCKSTEP)
    ip_check_report(sg, kind, lanes, addr, acc, 2,
                    "lanes %u and %u of subgroup %u communicate through memory unsynchronized: "
                    "%s of %llu bytes at %s after %s; correct only if lanes run in lockstep "
                    "(fix: sub_group_barrier() between them, or a subgroup collective such as sub_group_shuffle)",
                    p->lane, a->lane, a->sg, rec_what(a, a_write), (unsigned long long)size, where, other);
  else
    ip_check_report(sg, kind, lanes, addr, acc, 2, "%s of %llu bytes at %s races with %s",
                    rec_what(a, a_write), (unsigned long long)size, where, other);
}

static rc_cell *cells_of(rc_state *s, ip_sg *sg, uint64_t addr, uint64_t size, bool *is_local) {
  const ip_addr_layout *a = ip_layout(sg);
  uint32_t r = ip_addr_region(a, addr);
  uint64_t off = ip_addr_offset(a, addr);
  ip_launch *l = s->l;
  if (r == 0 || r >= a->builtin_base) return NULL;   /* private and built-ins never race */
  if (r >= a->local_base) {
    uint32_t k = r - a->local_base;
    if (!s->local || k >= l->n_local || l->local_off[k] + off + size > s->local_n) return NULL;
    *is_local = true;
    return s->local + l->local_off[k] + off;
  }
  const ip_region *g = &l->gregions[r];
  if (!g->writable || off + size > g->size) return NULL;   /* read-only memory never races */
  if (!s->global[r]) {
    s->global[r] = calloc(g->size ? g->size : 1, sizeof(rc_cell));
    if (!s->global[r]) return NULL;
    s->global_n[r] = g->size;
  }
  *is_local = false;
  return s->global[r] + off;
}

static void rc_mem(void *st, ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size, ip_access acc,
                   uint8_t *host) {
  rc_state *s = st;
  bool is_local = false;
  rc_cell *c = cells_of(s, sg, addr, size, &is_local);
  if (!c || sg->id >= s->n_sgs) return;
  const rc_sgst *q = &s->sgs[sg->id];
  bool async = sg->cur && sg->cur->insn->op == SpvOpGroupAsyncCopy;
  rc_rec a = {sg->cur ? sg->cur->insn : NULL, (uint32_t)s->wg1, sg->local_linear[lane],
              is_local ? q->le : q->ge, q->se, 0, (uint8_t)lane, (uint16_t)sg->id};
  if (async) { a.flags = RF_ASYNC; a.item = ASYNC_ITEM; a.epoch = q->we; }
  else if (acc == IP_ATOMIC) a.flags = RF_ATOMIC;
  bool write = acc != IP_READ;
  bool done = false;   /* one report per access */
  for (uint64_t i = 0; i < size; i++) {
    rc_cell *x = &c[i];
    if (!done) {
      ip_diag_kind k = classify(&x->w, &a, q->we);
      /* lanes of one subgroup storing to one place in one instruction do not
       * communicate: which store wins is a plain race, lockstep or not */
      if (k == IP_CHECK_LOCKSTEP && write && x->w.insn == a.insn) k = IP_CHECK_DATA_RACE;
      if (k && write && !(x->w.flags & RF_ATOMIC) && !(a.flags & RF_ATOMIC) && size <= 16 &&
          s->n_pend && s->pend[s->n_pend - 1].host == host && s->pend[s->n_pend - 1].size == size) {
        done = true;   /* the same location, already pending from another lane */
      } else if (k && write && !(x->w.flags & RF_ATOMIC) && !(a.flags & RF_ATOMIC) && size <= 16 &&
                 s->n_pend < sizeof s->pend / sizeof *s->pend) {
        /* write after write: a race only if the value changes (decided after the write) */
        rc_pending *pd = &s->pend[s->n_pend++];
        pd->host = host; pd->size = size; pd->addr = addr;
        memcpy(pd->old, host, size);
        pd->p = x->w; pd->a = a; pd->kind = k;
        done = true;
      } else if (k) {
        report(s, sg, k, &x->w, true, &a, write, addr, size);
        done = true;
      }
      if (!done && write) {
        k = classify(&x->r, &a, q->we);
        const rc_rec *p = &x->r;
        if (!k) { k = classify(&x->r2, &a, q->we); p = &x->r2; }
        if (k) { report(s, sg, k, p, false, &a, true, addr, size); done = true; }
      }
    }
    if (write) {
      x->w = a;
      x->r.wg = x->r2.wg = 0;
    } else {
      /* keep the last two readers that are different work-items: a later
       * writer differs from at least one of them */
      if (x->r.wg && (x->r.item != a.item || x->r.wg != a.wg)) x->r2 = x->r;
      x->r = a;
    }
  }
}

static void rc_after(void *st, ip_sg *sg, const ip_op *op) {
  rc_state *s = st;
  for (uint32_t i = 0; i < s->n_pend; i++) {
    rc_pending *pd = &s->pend[i];
    if (memcmp(pd->host, pd->old, pd->size) != 0)
      report(s, sg, pd->kind, &pd->p, true, &pd->a, true, pd->addr, pd->size);
  }
  s->n_pend = 0;
  uint32_t fence;
  ip_sync k = ip_check_sync_of(sg, op, &fence);
  if (k == IP_SYNC_NONE || sg->id >= s->n_sgs) return;
  rc_sgst *q = &s->sgs[sg->id];
  q->se++;
  if (k == IP_SYNC_WORKGROUP) {
    if (fence & SpvMemorySemanticsWorkgroupMemoryMask) q->le++;
    if (fence & SpvMemorySemanticsCrossWorkgroupMemoryMask) q->ge++;
  } else if (k == IP_SYNC_WAIT_EVENTS) {
    q->we++;
  }
}

const ip_check_plugin ip_check_race = {
  .name = "data-race",
  .bit = IP_DETECT_RACES | IP_DETECT_LOCKSTEP,
  .create = rc_create,
  .destroy = rc_destroy,
  .launch_reset = rc_reset,
  .wg_begin = rc_wg_begin,
  .mem = rc_mem,
  .after = rc_after,
};
