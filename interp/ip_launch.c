/* ip_launch.c - launch creation (argument and NDRange checks), running
 * work-groups (optionally on several threads), the report and diagnostic
 * formatting.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include "ip_check.h"

static uint64_t serial_next = 0;
static uint64_t new_serial(void) { return __atomic_add_fetch(&serial_next, 1, __ATOMIC_RELAXED); }

const char *ip_diag_kind_name(ip_diag_kind k) {
  switch (k) {
  case IP_FAULT_OUT_OF_BOUNDS: return "out-of-bounds access";
  case IP_FAULT_MISALIGNED: return "misaligned access";
  case IP_FAULT_NULL_POINTER: return "null pointer access";
  case IP_FAULT_WRITE_READONLY: return "write to read-only memory";
  case IP_FAULT_DIVISION_BY_ZERO: return "division by zero";
  case IP_FAULT_UNREACHABLE: return "unreachable executed";
  case IP_FAULT_STEP_LIMIT: return "step limit";
  case IP_FAULT_TIME_LIMIT: return "time limit";
  case IP_FAULT_BARRIER_DIVERGENCE: return "barrier divergence";
  case IP_FAULT_STACK_OVERFLOW: return "stack overflow";
  case IP_FAULT_UNSUPPORTED: return "unsupported instruction";
  case IP_FAULT_BAD_ARGUMENT: return "bad argument";
  case IP_CHECK_DATA_RACE: return "data race";
  case IP_CHECK_LOCKSTEP: return "lockstep assumption";
  case IP_CHECK_UNINITIALIZED: return "uninitialized value";
  case IP_FAULT_READ_WRITEONLY: return "read from write-only memory";
  case IP_FAULT_EVENT: return "invalid event use";
  case IP_UB_INDEX_OUT_OF_RANGE: return "index out of range";
  case IP_UB_INACTIVE_LANE: return "read of an inactive lane";
  case IP_UB_NONUNIFORM: return "non-uniform operand";
  case IP_UB_PARTIAL_COLLECTIVE: return "collective in divergent code";
  case IP_UB_BLOCK_PARTIAL_SUBGROUP: return "block I/O in a partial subgroup";
  case IP_UB_BLOCK_ALIGNMENT: return "misaligned block I/O";
  case IP_UB_IMAGE_BLOCK_X: return "image block x not a multiple of 4";
  case IP_UB_CLUSTER_SIZE: return "bad cluster size";
  case IP_UB_OTHER: return "undefined behaviour";
  }
  return "diagnostic";
}

static const char *arg_kind_name(int k) {
  switch (k) {
  case LD_ARG_BUFFER: return "a buffer";
  case LD_ARG_LOCAL: return "local memory";
  case LD_ARG_VALUE: return "a value";
  case LD_ARG_IMAGE: return "an image";
  case LD_ARG_SAMPLER: return "a sampler";
  default: return "an unsupported kind";
  }
}

static const char *ip_arg_kind_name(ip_arg_kind k) {
  switch (k) {
  case IP_ARG_BUFFER: return "a buffer";
  case IP_ARG_NULL: return "a null pointer";
  case IP_ARG_LOCAL: return "local memory";
  case IP_ARG_VALUE: return "a value";
  case IP_ARG_IMAGE: return "an image";
  case IP_ARG_SAMPLER: return "a sampler";
  }
  return "?";
}

static int check_args(const ld_kernel *k, const ip_launch_desc *d, char *err, size_t es) {
  if (d->n_args != k->n_args) {
    snprintf(err, es, "kernel '%s' takes %u arguments but %u were given", k->name, k->n_args, d->n_args);
    return IP_ERR_ARGS;
  }
  for (uint32_t i = 0; i < k->n_args; i++) {
    const ld_kernel_arg *ka = &k->args[i];
    const ip_arg *a = &d->args[i];
    bool ok;
    switch (ka->kind) {
    case LD_ARG_BUFFER: ok = a->kind == IP_ARG_BUFFER || a->kind == IP_ARG_NULL; break;
    case LD_ARG_LOCAL: ok = a->kind == IP_ARG_LOCAL; break;
    case LD_ARG_VALUE: ok = a->kind == IP_ARG_VALUE; break;
    case LD_ARG_IMAGE: ok = a->kind == IP_ARG_IMAGE; break;
    case LD_ARG_SAMPLER: ok = a->kind == IP_ARG_SAMPLER || a->kind == IP_ARG_VALUE; break;
    default:
      snprintf(err, es, "argument %u ('%s') of kernel '%s' has a type that is not supported", i,
               ka->name, k->name);
      return IP_ERR_UNSUPPORTED;
    }
    if (!ok) {
      snprintf(err, es, "argument %u ('%s') of kernel '%s' is %s but %s was given", i, ka->name,
               k->name, arg_kind_name(ka->kind), ip_arg_kind_name(a->kind));
      return IP_ERR_ARGS;
    }
    if (a->kind == IP_ARG_VALUE && ka->kind == LD_ARG_VALUE && a->size != ka->value_size) {
      snprintf(err, es, "argument %u ('%s') of kernel '%s' takes %u bytes but %zu were given", i,
               ka->name, k->name, ka->value_size, a->size);
      return IP_ERR_ARGS;
    }
    if (a->kind == IP_ARG_VALUE && !a->data) {
      snprintf(err, es, "argument %u ('%s'): no data for a by-value argument", i, ka->name);
      return IP_ERR_ARGS;
    }
    if (a->kind == IP_ARG_LOCAL && a->size == 0) {
      snprintf(err, es, "argument %u ('%s') of kernel '%s': local memory size must be > 0", i,
               ka->name, k->name);
      return IP_ERR_ARGS;
    }
    if ((a->kind == IP_ARG_BUFFER || a->kind == IP_ARG_IMAGE) && !a->data && a->size) {
      snprintf(err, es, "argument %u ('%s'): size %zu but no data", i, ka->name, a->size);
      return IP_ERR_ARGS;
    }
  }
  return IP_OK;
}

/* Local size 0: the kernel's reqd_work_group_size if any, else with
 * SubgroupsPerWorkgroup N a work-group of N*S in dim 0, else in dim 0 the
 * largest divisor of the global size that is <= 256; 1 in the others. */
/* More work-groups than this is a mistake, not a run (2^48 groups of one
 * work-item is a year at a billion per second); far from 2^64, so counts
 * and group-index arithmetic never wrap. */
#define IP_MAX_GROUPS ((uint64_t)1 << 48)

static int check_ndrange(const ld_kernel *k, const ip_launch_desc *d, ip_ndrange *nd,
                         const ld_module *m, char *err, size_t es) {
  if (d->work_dim < 1 || d->work_dim > 3) {
    snprintf(err, es, "work_dim must be 1, 2 or 3 (got %u)", d->work_dim);
    return IP_ERR_ARGS;
  }
  memset(nd, 0, sizeof *nd);
  nd->dim = d->work_dim;
  uint32_t S = d->subgroup_size;
  if (S == 0) S = k->subgroup_size ? k->subgroup_size : IP_DEFAULT_SUBGROUP_SIZE;
  else if (k->subgroup_size && k->subgroup_size != S) {
    snprintf(err, es, "kernel requires subgroup size %u (intel_reqd_sub_group_size) but %u was requested",
             k->subgroup_size, S);
    return IP_ERR_ARGS;
  }
  if (S < 1 || S > IP_MAX_LANES) {
    snprintf(err, es, "subgroup size must be between 1 and %u (got %u)", IP_MAX_LANES, S);
    return IP_ERR_ARGS;
  }
  bool choose = false;
  for (uint32_t i = 0; i < d->work_dim; i++) if (d->local_size[i] == 0) choose = true;
  bool reqd = k->local_size[0] != 0;
  for (uint32_t i = 0; i < 3; i++) {
    bool used = i < d->work_dim;
    nd->global[i] = used ? d->global_size[i] : 1;
    nd->offset[i] = used ? d->global_offset[i] : 0;
    if (used && nd->global[i] == 0) {
      snprintf(err, es, "global size in dimension %u must be > 0", i);
      return IP_ERR_ARGS;
    }
    if (choose) {
      if (reqd) nd->local[i] = k->local_size[i] ? k->local_size[i] : 1;
      else if (i == 0 && k->subgroups_per_wg) nd->local[0] = (size_t)k->subgroups_per_wg * S;
      else if (i == 0) {
        size_t g = nd->global[0], best = 1;
        for (size_t c = g < 256 ? g : 256; c >= 1; c--) if (g % c == 0) { best = c; break; }
        nd->local[0] = best;
      } else nd->local[i] = 1;
      if (!used) nd->local[i] = 1;
    } else {
      nd->local[i] = used ? d->local_size[i] : 1;
    }
    if (reqd && used && !choose && k->local_size[i] && nd->local[i] != k->local_size[i]) {
      snprintf(err, es, "kernel '%s' requires work-group size (%u,%u,%u) (reqd_work_group_size)",
               k->name, k->local_size[0], k->local_size[1], k->local_size[2]);
      return IP_ERR_ARGS;
    }
    if (nd->local[i] == 0) {
      snprintf(err, es, "local size in dimension %u must be > 0", i);
      return IP_ERR_ARGS;
    }
    /* rounded up without global + local - 1, which wraps for huge sizes */
    nd->groups[i] = nd->global[i] / nd->local[i] + (nd->global[i] % nd->local[i] != 0);
    size_t last;
    if (__builtin_add_overflow(nd->offset[i], nd->global[i] - 1, &last)) {
      snprintf(err, es, "global offset %llu + global size %llu in dimension %u exceeds the "
               "largest work-item id (2^64 - 1)", (unsigned long long)nd->offset[i],
               (unsigned long long)nd->global[i], i);
      return IP_ERR_ARGS;
    }
  }
  /* every product checked: a wrapped count would run nothing and succeed */
  uint64_t items, n_groups;
  if (__builtin_mul_overflow((uint64_t)nd->local[0], (uint64_t)nd->local[1], &items) ||
      __builtin_mul_overflow(items, (uint64_t)nd->local[2], &items) || items > (1u << LD_MAX_WG_LOG2)) {
    snprintf(err, es, "work-group of %llu x %llu x %llu work-items is too large (limit 2^%d = %u)",
             (unsigned long long)nd->local[0], (unsigned long long)nd->local[1],
             (unsigned long long)nd->local[2], LD_MAX_WG_LOG2, 1u << LD_MAX_WG_LOG2);
    return IP_ERR_ARGS;
  }
  if (__builtin_mul_overflow((uint64_t)nd->groups[0], (uint64_t)nd->groups[1], &n_groups) ||
      __builtin_mul_overflow(n_groups, (uint64_t)nd->groups[2], &n_groups) ||
      n_groups > IP_MAX_GROUPS) {
    snprintf(err, es, "NDRange of %llu x %llu x %llu work-groups is too large (limit 2^48 "
             "work-groups)", (unsigned long long)nd->groups[0], (unsigned long long)nd->groups[1],
             (unsigned long long)nd->groups[2]);
    return IP_ERR_ARGS;
  }
  nd->sg_size = S;
  /* SubgroupsPerWorkgroup (compile_num_sub_groups): the work-group must hold
   * exactly that many subgroups. */
  uint64_t nsg = (items + S - 1) / S;
  if (k->subgroups_per_wg && nsg != k->subgroups_per_wg) {
    snprintf(err, es, "kernel '%s' requires %u subgroups per work-group (SubgroupsPerWorkgroup) "
             "but a work-group of %llu work-items with subgroup size %u has %llu",
             k->name, k->subgroups_per_wg, (unsigned long long)items, S, (unsigned long long)nsg);
    return IP_ERR_ARGS;
  }
  (void)m;
  return IP_OK;
}

static void out_free(ip_launch *l);

void ip_launch_free(ip_launch *l) {
  if (!l) return;
  ip_checks_free(l);
  ip_prepare_free(l);
  if (l->gregions) ip_regions_free(l);
  free(l->args);
  free(l->arg_ptr);
  free(l->arg_len);
  free(l->arg_word);
  free(l->byval_off);
  free(l->all);
  free(l->diag_out);
  out_free(l);
  pthread_mutex_destroy(&l->mu);
  free(l);
}

/* Private memory, checked before the launch (a failed allocation mid-run
 * would look like out-of-bounds faults, a huge one kills the process): per
 * work-item, then per work-group (the interpreter gives each subgroup S
 * lanes' worth, the JIT the same), then the threads cut to what fits. */
static int check_private(ip_launch *l, char *err, size_t err_size) {
  uint64_t item = l->priv_size;
  if (item > IP_MAX_PRIVATE_BYTES) {
    snprintf(err, err_size, "private memory of a work-item: %llu bytes (variables of the kernel and its callees, "
             "by-value arguments), more than the limit of %llu bytes (1 GiB)", (unsigned long long)item,
             (unsigned long long)IP_MAX_PRIVATE_BYTES);
    return IP_ERR_ARGS;
  }
  uint64_t items = (uint64_t)l->nd.local[0] * l->nd.local[1] * l->nd.local[2];
  uint64_t S = l->nd.sg_size ? l->nd.sg_size : 1;
  uint64_t lanes = (items + S - 1) / S * S;   /* <= 2^24 + 127: no overflow below */
  uint64_t wg = lanes * item;
  uint64_t total = l->desc.max_private_total ? l->desc.max_private_total : IP_MAX_PRIVATE_TOTAL;
  if (wg > total) {
    char gib[32] = "";
    if (total % ((uint64_t)1 << 30) == 0)
      snprintf(gib, sizeof gib, " (%llu GiB)", (unsigned long long)(total >> 30));
    snprintf(err, err_size, "private memory of a work-group: %llu work-items x %llu bytes = %llu bytes, more "
             "than the limit of %llu bytes%s for the work-items run at once (--max-private-memory BYTES raises "
             "it; smaller --local or --subgroup-size help)",
             (unsigned long long)lanes, (unsigned long long)item, (unsigned long long)wg,
             (unsigned long long)total, gib);
    return IP_ERR_ARGS;
  }
  /* the kernel's frame: its registers for the S lanes of each subgroup */
  uint64_t regs = (uint64_t)l->kernel_fn->base.regs_per_lane * S * (lanes / S);
  if (wg + regs > total) {
    snprintf(err, err_size, "registers of the kernel's frames: %llu work-items x %llu bytes = %llu bytes, with %llu "
             "bytes of private memory more than the limit of %llu bytes for the work-items run at once "
             "(--max-private-memory BYTES raises it; smaller --local or --subgroup-size help)",
             (unsigned long long)lanes, (unsigned long long)l->kernel_fn->base.regs_per_lane,
             (unsigned long long)regs, (unsigned long long)wg, (unsigned long long)total);
    return IP_ERR_ARGS;
  }
  wg += regs;
  uint64_t fit = wg ? total / wg : 1;
  if (l->desc.threads > fit) l->desc.threads = (uint32_t)fit;
  /* one work-group's worth now, so that an allocation failure is an error
   * here (each thread allocates its own later) */
  void *probe = malloc((size_t)wg);
  if (!probe) {
    snprintf(err, err_size, "cannot allocate %llu bytes of private memory (%llu work-items x %llu bytes)",
             (unsigned long long)wg, (unsigned long long)lanes, (unsigned long long)item);
    return IP_ERR_NOMEM;
  }
  free(probe);
  return IP_OK;
}

uint32_t ip_launch_max_threads(const ip_launch *l) { return l->desc.threads > 1 ? l->desc.threads : 1; }
uint64_t ip_launch_step_limit(const ip_launch *l) { return l->step_limit; }

ip_result ip_launch_create(const ld_module *m, const ip_launch_desc *desc, ip_launch **out,
                           char *err, size_t err_size) {
  *out = NULL;
  if (err_size) err[0] = 0;
  if (!m || !desc) { snprintf(err, err_size, "no module or launch description"); return IP_ERR_ARGS; }
  const ld_kernel *k = NULL;
  if (desc->kernel) k = ld_find_kernel(m, desc->kernel);
  else if (m->n_kernels == 1) k = &m->kernels[0];
  if (!k) {
    snprintf(err, err_size, "no kernel named '%s' in the module", desc->kernel ? desc->kernel : "(none)");
    return IP_ERR_KERNEL;
  }
  int rc = check_args(k, desc, err, err_size);
  if (rc != IP_OK) return (ip_result)rc;
  ip_launch *l = calloc(1, sizeof *l);
  if (!l) return IP_ERR_NOMEM;
  pthread_mutex_init(&l->mu, NULL);
  l->serial = new_serial();
  l->m = m;
  l->k = k;
  l->desc = *desc;
  l->desc.kernel = k->name;
  rc = check_ndrange(k, desc, &l->nd, m, err, err_size);
  if (rc != IP_OK) { ip_launch_free(l); return (ip_result)rc; }
  l->ptr_size = m->addr_bits / 8;
  l->args = calloc(k->n_args + 1, sizeof *l->args);
  l->arg_ptr = calloc(k->n_args + 1, sizeof *l->arg_ptr);
  l->arg_len = calloc(k->n_args + 1, sizeof *l->arg_len);
  l->arg_word = calloc(k->n_args + 1, sizeof *l->arg_word);
  l->byval_off = calloc(k->n_args + 1, sizeof *l->byval_off);
  if (!l->args || !l->arg_ptr || !l->arg_len || !l->arg_word || !l->byval_off) {
    ip_launch_free(l);
    return IP_ERR_NOMEM;
  }
  if (k->n_args) memcpy(l->args, desc->args, k->n_args * sizeof *l->args);
  l->desc.args = l->args;
  l->step_limit = desc->step_limit ? desc->step_limit : IP_DEFAULT_STEP_LIMIT;
  rc = ip_regions_init(l, err, err_size);
  if (rc != IP_OK) { ip_launch_free(l); return (ip_result)rc; }
  rc = ip_prepare_all(l, err, err_size);
  if (rc != IP_OK) { ip_launch_free(l); return (ip_result)rc; }
  /* detectors keep unlocked shadow state: one work-group at a time */
  if (l->desc.checks) l->desc.threads = 1;
  for (uint32_t i = 0; i < k->n_args; i++) {
    const ld_kernel_arg *ka = &k->args[i];
    l->byval_off[i] = UINT64_MAX;
    if (ka->kind == LD_ARG_VALUE && ka->type && ka->type->kind == LD_T_POINTER) {
      l->byval_off[i] = l->byval_bytes;
      l->byval_bytes += ((uint64_t)ka->value_size + 15) & ~(uint64_t)15;
    }
  }
  l->priv_size += l->byval_bytes;
  rc = check_private(l, err, err_size);
  if (rc != IP_OK) { ip_launch_free(l); return (ip_result)rc; }
  /* kernel parameter values */
  const ld_addr_layout *a = &m->layout;
  uint32_t bo = 0, lo = m->n_local_vars;
  for (uint32_t i = 0; i < k->n_args; i++) {
    const ld_kernel_arg *ka = &k->args[i];
    const ip_arg *ia = &l->args[i];
    l->arg_ptr[i] = (const uint8_t *)&l->arg_word[i];
    l->arg_len[i] = 8;
    if (ka->kind == LD_ARG_BUFFER || ka->kind == LD_ARG_IMAGE) {
      uint32_t r = 1 + m->n_global_vars + bo++;
      l->arg_word[i] = ia->kind == IP_ARG_NULL || !ia->data ? 0 : ip_addr_make(a, r, 0);
    } else if (ka->kind == LD_ARG_LOCAL) {
      l->arg_word[i] = ip_addr_make(a, a->local_base + lo++, 0);
    } else if (ia->kind == IP_ARG_SAMPLER) {
      l->arg_word[i] = ia->sampler;
    } else {
      l->arg_ptr[i] = ia->data;
      l->arg_len[i] = (uint32_t)ia->size;
    }
  }
  rc = ip_checks_create(l, err, err_size);
  if (rc != IP_OK) { ip_launch_free(l); return (ip_result)rc; }
  l->rep.subgroup_size = l->nd.sg_size;
  memcpy(l->rep.local_size, l->nd.local, sizeof l->rep.local_size);
  l->n_groups = (uint64_t)l->nd.groups[0] * l->nd.groups[1] * l->nd.groups[2];
  *out = l;
  return IP_OK;
}

const ip_ndrange *ip_launch_ndrange(const ip_launch *l) { return &l->nd; }

static int cmp_wdiag(const void *a, const void *b) {
  const ip_wdiag *x = a, *y = b;
  if (x->wg_linear != y->wg_linear) return x->wg_linear < y->wg_linear ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts the merged diagnostics (work-group, then sequence), keeps the first
 * record of each UB site and kind, and publishes at most IP_MAX_DIAGS. */
static void finish_report(ip_launch *l) {
  if (l->n_all) qsort(l->all, l->n_all, sizeof *l->all, cmp_wdiag);
  free(l->diag_out);
  l->diag_out = calloc(l->n_all + 1, sizeof *l->diag_out);
  uint32_t n = 0;
  for (uint32_t i = 0; i < l->n_all && n < IP_MAX_DIAGS && l->diag_out; i++) {
    const ip_diag *d = &l->all[i].d;
    if (ip_diag_is_ub(d->kind)) {
      bool dup = false;
      for (uint32_t j = 0; j < n && !dup; j++)
        dup = l->diag_out[j].kind == d->kind && l->diag_out[j].insn == d->insn;
      if (dup) continue;
    }
    l->diag_out[n++] = *d;
  }
  l->rep.diags = l->diag_out;
  l->rep.n_diags = n;
  l->rep.insns = l->insns;
  l->rep.lane_insns = l->lane_insns;
  l->rep.stopped = l->stop != 0;
  l->dirty = false;
}

static void *worker(void *arg) {
  ip_launch *l = arg;
  ip_wgx x;
  memset(&x, 0, sizeof x);
  for (;;) {
    if (__atomic_load_n(&l->stop, __ATOMIC_RELAXED)) break;
    uint64_t g = __atomic_fetch_add(&l->next_wg, 1, __ATOMIC_RELAXED);
    if (g >= l->range_end) break;
    ip_wg_init(l, &x, g);
    ip_wg_run_all(&x);
    ip_wg_commit(l, &x);
  }
  ip_wg_fini(&x);
  return NULL;
}

static void out_free(ip_launch *l) {
  if (l->out_pending)
    for (uint64_t g = 0; g < l->n_groups; g++) free(l->out_pending[g]);
  free(l->out_pending); free(l->out_pending_len); free(l->out_ready);
  l->out_pending = NULL; l->out_pending_len = NULL; l->out_ready = NULL;
}

static uint32_t launch_threads(const ip_launch *l, uint64_t count) {
  uint32_t nt = l->desc.threads > 1 ? l->desc.threads : 1;
  if (nt > 256) nt = 256;
  if ((uint64_t)nt > count) nt = (uint32_t)(count ? count : 1);
  /* a kernel that may print needs the reordering buffers to keep its
   * output in work-group order; without them (out of memory) one thread */
  if (!l->out_pending && l->m->has_printf) nt = 1;
  return nt;
}

uint64_t ip_launch_group_count(const ip_launch *l) { return l ? l->n_groups : 0; }
uint32_t ip_launch_range_threads(const ip_launch *l) { return l ? l->range_threads : 0; }
uint64_t ip_launch_serial(const ip_launch *l) { return l ? l->serial : 0; }

void ip_launch_reset(ip_launch *l) {
  if (!l) return;
  l->serial = new_serial();
  l->stop = 0;
  l->insns = l->lane_insns = 0;
  l->rep.n_faults = l->rep.n_ub = 0;
  l->rep.stopped = false;
  l->n_all = 0;
  l->next_wg = 0;
  l->range_end = 0;
  l->out_next = 0;
  l->t_start = ip_now();
  ip_regions_reset(l);
  ip_checks_reset(l);
  out_free(l);
  /* Reordering buffers when work-groups may finish out of order and some
   * may print (a launch's set-up time: 1.1 MB to allocate and fault in for
   * 65536 work-groups). */
  if (l->desc.threads > 1 && l->n_groups > 1 && l->n_groups <= ((uint64_t)1 << 26) && l->m->has_printf) {
    l->out_pending = calloc(l->n_groups, sizeof *l->out_pending);
    l->out_pending_len = calloc(l->n_groups, sizeof *l->out_pending_len);
    l->out_ready = calloc(l->n_groups, 1);
    if (!l->out_pending || !l->out_pending_len || !l->out_ready) out_free(l);
  }
  l->dirty = true;
  finish_report(l);
}

/* After a range: every group below `end` has finished (or was skipped by a
 * stop), so emit what is buffered in order and move past the gaps (groups
 * that printed nothing through another backend, or did not run). */
static void out_settle(ip_launch *l, uint64_t end) {
  pthread_mutex_lock(&l->mu);
  if (l->out_pending) {
    if (end > l->n_groups) end = l->n_groups;
    for (; l->out_next < end; l->out_next++) {
      uint64_t g = l->out_next;
      if (!l->out_ready[g]) continue;
      if (l->out_pending[g]) {
        if (l->desc.out) l->desc.out(l->desc.out_user, l->out_pending[g], l->out_pending_len[g]);
        else { fwrite(l->out_pending[g], 1, l->out_pending_len[g], stdout); fflush(stdout); }
        free(l->out_pending[g]);
        l->out_pending[g] = NULL;
      }
    }
  }
  pthread_mutex_unlock(&l->mu);
}

/* A chunk run by another backend is complete: its groups count as
 * committed for ordering even if they printed nothing. */
static void out_chunk_done(ip_launch *l, uint64_t first, uint64_t count) {
  pthread_mutex_lock(&l->mu);
  if (l->out_pending) {
    for (uint64_t g = first; g < first + count && g < l->n_groups; g++) l->out_ready[g] = 1;
    while (l->out_next < l->n_groups && l->out_ready[l->out_next]) {
      uint64_t g = l->out_next++;
      if (!l->out_pending[g]) continue;
      if (l->desc.out) l->desc.out(l->desc.out_user, l->out_pending[g], l->out_pending_len[g]);
      else { fwrite(l->out_pending[g], 1, l->out_pending_len[g], stdout); fflush(stdout); }
      free(l->out_pending[g]);
      l->out_pending[g] = NULL;
    }
  }
  pthread_mutex_unlock(&l->mu);
}

static ip_result range_result(ip_launch *l) {
  l->dirty = true;
  finish_report(l);
  if (l->rep.n_faults || (l->desc.ub == IP_UB_ERROR && l->rep.n_ub)) return IP_FAULTED;
  return IP_OK;
}

/* Clamps [first, first+count) to the launch; false when nothing is left to run. */
static bool range_begin(ip_launch *l, uint64_t *first, uint64_t *count) {
  if (*first >= l->n_groups) return false;
  if (*count > l->n_groups - *first) *count = l->n_groups - *first;
  if (!*count || __atomic_load_n(&l->stop, __ATOMIC_RELAXED)) return false;
  /* groups skipped before this range never print */
  if (l->out_next < *first) out_settle(l, *first);
  return true;
}

/* Worker threads: a process-wide pool that stays between launches, so a
 * launch does not pay for starting threads (and, in them, fresh stacks and
 * malloc arenas, whose first use faults pages in: about 0.1 ms a launch on
 * two threads).  The calling thread runs fn too, with nt - 1 pool threads.
 * One launch uses the pool at a time; another that runs meanwhile (an
 * application's second host thread, or a nested call) starts threads of
 * its own, as before the pool.  At exit (and at dlclose of a library that
 * holds this code) the pool's idle threads are stopped and joined (an exit
 * while a launch runs on the pool does not wait for it); a forked child
 * starts with an empty pool. */
enum { POOL_MAX = 256 };
static struct {
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  pthread_t th[POOL_MAX];
  uint64_t start_gen[POOL_MAX];
  uint32_t n;           /* threads started */
  uint32_t want;        /* pool threads taking part in the current job */
  uint32_t running;     /* of those, not finished */
  uint64_t gen;         /* current job */
  void *(*fn)(void *);
  void *arg;
  bool busy, quit, hooks;
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .go = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static void *pool_main(void *p) {
  uint32_t id = (uint32_t)(uintptr_t)p;
  pthread_mutex_lock(&pool.mu);
  uint64_t seen = pool.start_gen[id];
  for (;;) {
    while (pool.gen == seen && !pool.quit) pthread_cond_wait(&pool.go, &pool.mu);
    if (pool.quit) break;
    seen = pool.gen;
    if (id >= pool.want) continue;
    void *(*fn)(void *) = pool.fn;
    void *arg = pool.arg;
    pthread_mutex_unlock(&pool.mu);
    fn(arg);
    pthread_mutex_lock(&pool.mu);
    if (--pool.running == 0) pthread_cond_broadcast(&pool.done);
  }
  pthread_mutex_unlock(&pool.mu);
  return NULL;
}
static void pool_exit(void) {
  pthread_mutex_lock(&pool.mu);
  pool.quit = true;
  pthread_cond_broadcast(&pool.go);
  uint32_t n = pool.n;
  if (pool.busy) {
    /* exit() while another thread's launch runs on the pool: do not wait
     * for that launch (a runaway kernel would hang the exit); its threads
     * end with the process */
    pthread_mutex_unlock(&pool.mu);
    return;
  }
  pthread_mutex_unlock(&pool.mu);
  pthread_t self = pthread_self();
  for (uint32_t i = 0; i < n; i++)
    if (!pthread_equal(pool.th[i], self)) pthread_join(pool.th[i], NULL);
  pthread_mutex_lock(&pool.mu);
  pool.n = 0;
  pthread_mutex_unlock(&pool.mu);
}
static void pool_child(void) {
  pthread_mutex_init(&pool.mu, NULL);
  pthread_cond_init(&pool.go, NULL);
  pthread_cond_init(&pool.done, NULL);
  pool.n = pool.want = pool.running = 0;
  pool.busy = false;
}
/* false: the pool is busy (or stopped); nothing ran */
static bool pool_run(uint32_t nt, void *(*fn)(void *), void *arg) {
  pthread_mutex_lock(&pool.mu);
  if (pool.busy || pool.quit) {
    pthread_mutex_unlock(&pool.mu);
    return false;
  }
  if (!pool.hooks) {
    pool.hooks = true;
    atexit(pool_exit);
    pthread_atfork(NULL, NULL, pool_child);
  }
  pool.busy = true;
  uint32_t helpers = nt - 1;
  while (pool.n < helpers && pool.n < POOL_MAX) {
    pool.start_gen[pool.n] = pool.gen;
    if (pthread_create(&pool.th[pool.n], NULL, pool_main, (void *)(uintptr_t)pool.n)) break;
    pool.n++;
  }
  if (helpers > pool.n) helpers = pool.n;
  pool.want = pool.running = helpers;
  pool.fn = fn;
  pool.arg = arg;
  pool.gen++;
  pthread_cond_broadcast(&pool.go);
  pthread_mutex_unlock(&pool.mu);
  fn(arg);
  pthread_mutex_lock(&pool.mu);
  while (pool.running) pthread_cond_wait(&pool.done, &pool.mu);
  pool.busy = false;
  pthread_mutex_unlock(&pool.mu);
  return true;
}

static void run_threads(ip_launch *l, uint32_t nt, void *(*fn)(void *), void *arg) {
  (void)l;
  if (nt <= 1) { fn(arg); return; }
  if (!getenv("SPIRV_SG_NO_POOL") && pool_run(nt, fn, arg)) return;
  pthread_t *th = calloc(nt, sizeof *th);
  uint32_t started = 0;
  for (uint32_t i = 0; th && i < nt; i++)
    if (pthread_create(&th[i], NULL, fn, arg) == 0) started++;
    else break;
  if (!started) fn(arg);
  for (uint32_t i = 0; i < started; i++) pthread_join(th[i], NULL);
  free(th);
}

ip_result ip_launch_run_range(ip_launch *l, uint64_t first, uint64_t count) {
  if (!l) return IP_ERR_ARGS;
  if (!range_begin(l, &first, &count)) return range_result(l);
  l->next_wg = first;
  l->range_end = first + count;
  __atomic_store_n(&l->running, 1, __ATOMIC_RELEASE);
  run_threads(l, launch_threads(l, count), worker, l);
  __atomic_store_n(&l->running, 0, __ATOMIC_RELEASE);
  out_settle(l, first + count);
  return range_result(l);
}

typedef struct range_job {
  ip_launch *l;
  ip_range_fn fn;
  void *user;
  uint64_t next, end, chunk;
  int err;                  /* atomic: first negative result */
} range_job;

static void *range_worker(void *arg) {
  range_job *j = arg;
  ip_launch *l = j->l;
  for (;;) {
    if (__atomic_load_n(&l->stop, __ATOMIC_RELAXED) || __atomic_load_n(&j->err, __ATOMIC_RELAXED)) break;
    uint64_t g = __atomic_fetch_add(&j->next, j->chunk, __ATOMIC_RELAXED);
    if (g >= j->end) break;
    uint64_t n = j->end - g < j->chunk ? j->end - g : j->chunk;
    ip_result r = j->fn(j->user, l, g, n);
    if (r < 0) {
      int z = 0;
      __atomic_compare_exchange_n(&j->err, &z, (int)r, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
      __atomic_store_n(&l->stop, 1, __ATOMIC_RELAXED);
    }
    out_chunk_done(l, g, n);
  }
  return NULL;
}

ip_result ip_launch_run_range_with(ip_launch *l, uint64_t first, uint64_t count, uint64_t chunk,
                                   ip_range_fn fn, void *user) {
  if (!l || !fn) return IP_ERR_ARGS;
  if (!range_begin(l, &first, &count)) return range_result(l);
  range_job j = {l, fn, user, first, first + count, chunk ? chunk : count, 0};
  uint32_t nt = launch_threads(l, (count + j.chunk - 1) / j.chunk);
  if (nt == 1 && !chunk) j.chunk = count;
  l->range_threads = nt;
  __atomic_store_n(&l->running, 1, __ATOMIC_RELEASE);
  run_threads(l, nt, range_worker, &j);
  __atomic_store_n(&l->running, 0, __ATOMIC_RELEASE);
  l->range_threads = 0;
  out_settle(l, first + count);
  ip_result r = range_result(l);
  return j.err ? (ip_result)j.err : r;
}

ip_result ip_launch_run(ip_launch *l) {
  if (!l) return IP_ERR_ARGS;
  ip_launch_reset(l);
  return ip_launch_run_range(l, 0, l->n_groups);
}

const ip_report *ip_launch_report(const ip_launch *l) {
  if (!l) return NULL;
  ip_launch *w = (ip_launch *)l;
  if (__atomic_load_n(&w->running, __ATOMIC_ACQUIRE)) {
    /* mid-range (another backend polling for a stop): only the flag */
    __atomic_store_n(&w->rep.stopped, __atomic_load_n(&w->stop, __ATOMIC_RELAXED) != 0, __ATOMIC_RELAXED);
    return &w->rep;
  }
  if (w->dirty || (!w->rep.diags && w->n_all)) finish_report(w);
  return &w->rep;
}

static void format_lanes(ip_mask m, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = 0;
  uint32_t l = ip_mask_first(m);
  bool first = true;
  while (l < IP_MAX_LANES && n < size) {
    uint32_t e = l;
    while (e + 1 < IP_MAX_LANES && ip_mask_test(m, e + 1)) e++;
    int w = e > l ? snprintf(buf + n, size - n, "%s%u-%u", first ? "" : ",", l, e)
                  : snprintf(buf + n, size - n, "%s%u", first ? "" : ",", l);
    if (w < 0) break;
    n += (size_t)w;
    first = false;
    l = e + 1 < IP_MAX_LANES ? ip_mask_next(m, e) : IP_MAX_LANES;
  }
  if (first) snprintf(buf, size, "none");
}

void ip_diag_format(const ld_module *m, const ip_diag *d, char *buf, size_t size) {
  char lanes[200];
  format_lanes(d->lanes, lanes, sizeof lanes);
  char where[200] = "";
  if (d->insn) {
    const char *w = m ? ld_insn_where(m, d->insn) : NULL;
    char wb[160];
    snprintf(wb, sizeof wb, "%s", w ? w : "?");
    char *paren = strstr(wb, " (Op");   /* "word N (OpX)": the name is printed already */
    if (paren) *paren = 0;
    snprintf(where, sizeof where, ", %s at %s", spv_opcode_name(d->insn->op), wb);
  }
  snprintf(buf, size, "%s: %s: %s in kernel '%s', work-group (%u,%u,%u), subgroup %u, lanes %s%s",
           ip_diag_is_ub(d->kind) ? "ub" : "fault", ip_diag_kind_name(d->kind), d->message,
           d->kernel ? d->kernel : "?", d->group[0], d->group[1], d->group[2], d->subgroup, lanes,
           where);
}
