/* ip_check.c - the detector set of a launch and the event raisers
 * (ip_check.h).  Each event is passed to every enabled plugin in turn. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "ip_check.h"

static const ip_check_plugin *const plugins[] = {&ip_check_race, &ip_check_uninit};

int ip_checks_create(ip_launch *l, char *err, size_t err_size) {
  uint32_t bits = l->desc.checks;
  if (!bits) return IP_OK;
  ip_checks *c = calloc(1, sizeof *c);
  if (!c) return IP_ERR_NOMEM;
  l->checks = c;
  for (size_t i = 0; i < sizeof plugins / sizeof *plugins; i++) {
    if (!(bits & plugins[i]->bit)) continue;
    void *st = plugins[i]->create(l, bits);
    if (!st) {
      snprintf(err, err_size, "out of memory for the %s detector", plugins[i]->name);
      return IP_ERR_NOMEM;
    }
    c->p[c->n] = plugins[i];
    c->st[c->n++] = st;
  }
  return IP_OK;
}

void ip_checks_free(ip_launch *l) {
  ip_checks *c = l->checks;
  if (!c) return;
  for (uint32_t i = 0; i < c->n; i++) c->p[i]->destroy(c->st[i]);
  free(c);
  l->checks = NULL;
}

void ip_checks_reset(ip_launch *l) {
  ip_checks *c = l->checks;
  if (!c) return;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->p[i]->launch_reset) c->p[i]->launch_reset(c->st[i]);
}

void ip_check_wg_begin(ip_wg *wg) {
  ip_checks *c = wg->launch->checks;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->p[i]->wg_begin) c->p[i]->wg_begin(c->st[i], wg);
}

void ip_check_wg_end(ip_wg *wg) {
  ip_checks *c = wg->launch->checks;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->p[i]->wg_end) c->p[i]->wg_end(c->st[i], wg);
}

void ip_check_mem(ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size, ip_access acc,
                  uint8_t *host) {
  ip_checks *c = sg->launch->checks;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->p[i]->mem) c->p[i]->mem(c->st[i], sg, lane, addr, size, acc, host);
}

void ip_check_before(ip_sg *sg, const ip_op *op) {
  ip_checks *c = sg->launch->checks;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->p[i]->before) c->p[i]->before(c->st[i], sg, op);
}

void ip_check_after(ip_sg *sg, const ip_op *op) {
  ip_checks *c = sg->launch->checks;
  for (uint32_t i = 0; i < c->n; i++)
    if (c->p[i]->after) c->p[i]->after(c->st[i], sg, op);
}

/* Subgroup collectives order the lanes of the subgroup (OpenCL C 3.0,
 * "sub-group functions": every work-item of the subgroup must reach them). */
static bool is_subgroup_collective(SpvOp o) {
  return (o >= SpvOpGroupAll && o <= SpvOpGroupSMax) ||
         (o >= SpvOpGroupNonUniformElect && o <= SpvOpGroupNonUniformQuadSwap) ||
         (o >= SpvOpSubgroupBallotKHR && o <= SpvOpSubgroupReadInvocationKHR) ||
         (o >= SpvOpGroupIAddNonUniformAMD && o <= SpvOpGroupSMaxNonUniformAMD) ||
         (o >= SpvOpSubgroupShuffleINTEL && o <= SpvOpSubgroupImageMediaBlockWriteINTEL) ||
         (o >= SpvOpGroupIMulKHR && o <= SpvOpGroupLogicalXorKHR);
}

ip_sync ip_check_sync_of(const ip_sg *sg, const ip_op *op, uint32_t *fence) {
  SpvOp o = op->insn->op;
  *fence = 0;
  if (o == SpvOpControlBarrier && op->n_in >= 3) {
    uint32_t l0 = ip_mask_first(sg->mask);
    if (l0 >= IP_MAX_LANES) l0 = 0;
    uint32_t scope = (uint32_t)ip_in_uint(sg, op, 0, l0);
    if (scope == SpvScopeWorkgroup || scope == SpvScopeDevice || scope == SpvScopeCrossDevice) {
      *fence = (uint32_t)ip_in_uint(sg, op, 2, l0);
      return IP_SYNC_WORKGROUP;
    }
    return scope == SpvScopeSubgroup ? IP_SYNC_SUBGROUP : IP_SYNC_NONE;
  }
  if (o == SpvOpGroupWaitEvents) return IP_SYNC_WAIT_EVENTS;
  return is_subgroup_collective(o) ? IP_SYNC_SUBGROUP : IP_SYNC_NONE;
}

void ip_check_access(const ip_sg *sg, uint32_t lane, const ld_insn *insn, const char *what,
                     ip_diag_access *out) {
  memset(out, 0, sizeof *out);
  out->what = what;
  memcpy(out->group, sg->wg->group, sizeof out->group);
  out->subgroup = sg->id;
  out->lane = lane;
  if (lane < IP_MAX_LANES) memcpy(out->local_id, sg->local_id[lane], sizeof out->local_id);
  out->insn = insn;
}

void ip_check_access_format(const ld_module *m, const ip_diag_access *a, char *buf, size_t size) {
  char where[160] = "";
  if (a->insn) {
    const char *w = m ? ld_insn_where(m, a->insn) : NULL;
    char wb[140];
    snprintf(wb, sizeof wb, "%s", w ? w : "?");
    char *paren = strstr(wb, " (Op");
    if (paren) *paren = 0;
    snprintf(where, sizeof where, ", %s at %s", spv_opcode_name(a->insn->op), wb);
  }
  snprintf(buf, size, "%s by work-item (%u,%u,%u) of work-group (%u,%u,%u) (subgroup %u, lane %u)%s",
           a->what ? a->what : "access", a->local_id[0], a->local_id[1], a->local_id[2],
           a->group[0], a->group[1], a->group[2], a->subgroup, a->lane, where);
}

void ip_check_report(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, uint64_t addr,
                     const ip_diag_access *acc, uint32_t n_acc, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ip_wgx *x = ip_wgx_of(sg->wg);
  uint32_t before = x->n_diags;
  ip_fault(sg, kind, lanes, addr, "%s", msg);
  if (x->n_diags > before && n_acc) {
    ip_diag *d = &x->diags[x->n_diags - 1].d;
    d->n_access = n_acc > 2 ? 2 : n_acc;
    memcpy(d->access, acc, d->n_access * sizeof *acc);
  }
}
