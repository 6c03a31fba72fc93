/* ip_mem.c - memory regions, address resolution, built-in values,
 * diagnostics recording and printf output buffering.
 *
 * Address encoding (ld.h, "addresses"): region << shift | offset.  Region
 * numbers used here:
 *   0                         null
 *   1 + k                     k-th global-class module variable (UniformConstant,
 *                             CrossWorkgroup), by class ordinal
 *   1 + n_global_vars + j     j-th argument whose loader kind is BUFFER or IMAGE,
 *                             in argument order (a NULL argument keeps its number
 *                             but maps nothing)
 *   local_base + k            Workgroup module variables, then LOCAL arguments
 *   builtin_base + k          Input built-ins (read-only, computed per lane)
 *   priv_base + lane          lane's private memory (Function variables)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "ip_check.h"

const ip_addr_layout *ip_layout(const ip_sg *sg) { return &sg->m->layout; }

static const ld_kernel_arg *kernel_arg(const ip_launch *l, uint32_t i) { return &l->k->args[i]; }

int ip_regions_init(ip_launch *l, char *err, size_t err_size) {
  const ld_module *m = l->m;
  const ld_addr_layout *a = &m->layout;
  uint32_t nv = m->n_variables;
  l->var_addr = calloc(nv ? nv : 1, sizeof *l->var_addr);
  l->gvar_mem = calloc(nv ? nv : 1, sizeof *l->gvar_mem);
  l->gregions = calloc(a->local_base, sizeof *l->gregions);
  l->region_arg = calloc(a->local_base, sizeof *l->region_arg);
  l->region_name = calloc(a->local_base, sizeof *l->region_name);
  l->input_vars = calloc(m->n_input_vars + 1, sizeof *l->input_vars);
  l->local_vars = calloc(m->n_local_vars + 1, sizeof *l->local_vars);
  uint32_t n_local_args = 0, n_buf = 0;
  for (uint32_t i = 0; i < l->k->n_args; i++) {
    if (kernel_arg(l, i)->kind == LD_ARG_LOCAL) n_local_args++;
    if (kernel_arg(l, i)->kind == LD_ARG_BUFFER || kernel_arg(l, i)->kind == LD_ARG_IMAGE) n_buf++;
  }
  l->n_local = m->n_local_vars + n_local_args;
  l->local_size = calloc(l->n_local + 1, sizeof *l->local_size);
  l->local_off = calloc(l->n_local + 1, sizeof *l->local_off);
  l->local_name = calloc(l->n_local + 1, sizeof *l->local_name);
  if (!l->var_addr || !l->gvar_mem || !l->gregions || !l->region_arg || !l->region_name ||
      !l->input_vars || !l->local_vars || !l->local_size || !l->local_off || !l->local_name)
    return IP_ERR_NOMEM;
  if (1 + (uint64_t)m->n_global_vars + n_buf > a->local_base ||
      l->n_local > a->builtin_base - a->local_base) {
    snprintf(err, err_size, "too many memory objects for the %u-bit address encoding", m->addr_bits);
    return IP_ERR_UNSUPPORTED;
  }
  for (uint32_t i = 0; i < nv; i++) {
    const ld_variable *v = m->variables[i];
    l->var_addr[v->index < nv ? v->index : i] = v->address;
    switch (v->storage) {
    case SpvStorageClassUniformConstant: case SpvStorageClassCrossWorkgroup: {
      uint32_t r = 1 + v->class_ordinal;
      if (r >= a->local_base) break;
      uint64_t sz = v->pointee && v->pointee->size ? v->pointee->size : 0;
      l->gvar_mem[i] = calloc(1, sz ? sz : 1);
      if (!l->gvar_mem[i]) return IP_ERR_NOMEM;
      l->gregions[r].base = l->gvar_mem[i];
      l->gregions[r].size = sz;
      l->gregions[r].writable = v->storage == SpvStorageClassCrossWorkgroup;
      l->gregions[r].space = (uint8_t)v->storage;
      l->region_name[r] = v->name ? v->name : ld_id_name(m, v->id);
      break;
    }
    case SpvStorageClassWorkgroup:
      if (v->class_ordinal < m->n_local_vars) {
        l->local_vars[v->class_ordinal] = v;
        l->local_size[v->class_ordinal] = v->pointee ? v->pointee->size : 0;
        l->local_name[v->class_ordinal] = v->name ? v->name : "local variable";
      }
      break;
    case SpvStorageClassInput:
      if (v->class_ordinal < m->n_input_vars) l->input_vars[v->class_ordinal] = v;
      break;
    default: break;
    }
  }
  uint32_t bo = 0, lo = m->n_local_vars;
  for (uint32_t i = 0; i < l->k->n_args; i++) {
    const ld_kernel_arg *ka = kernel_arg(l, i);
    const ip_arg *ia = &l->args[i];
    if (ka->kind == LD_ARG_BUFFER || ka->kind == LD_ARG_IMAGE) {
      uint32_t r = 1 + m->n_global_vars + bo++;
      l->region_arg[r] = ia;
      l->region_name[r] = ka->name;
      if (ia->kind == IP_ARG_BUFFER || ia->kind == IP_ARG_IMAGE) {
        l->gregions[r].base = ia->data;
        l->gregions[r].size = ia->data ? ia->size : 0;
        l->gregions[r].writable = !(ka->kind == LD_ARG_BUFFER && ka->is_const) &&
                                  ia->access != IP_ACCESS_READ_ONLY;
        l->gregions[r].write_only = ia->kind == IP_ARG_BUFFER && ia->access == IP_ACCESS_WRITE_ONLY;
        l->gregions[r].space = SpvStorageClassCrossWorkgroup;
      }
    } else if (ka->kind == LD_ARG_LOCAL) {
      l->local_size[lo] = ia->size;
      l->local_name[lo] = ka->name;
      lo++;
    }
  }
  uint64_t off = 0;
  for (uint32_t i = 0; i < l->n_local; i++) {
    off = (off + 127) & ~(uint64_t)127;
    l->local_off[i] = (size_t)off;
    off += l->local_size[i];
    if (off > IP_MAX_LOCAL_BYTES) {
      snprintf(err, err_size, "__local memory of a work-group: %s needs %llu bytes, the total "
               "reaches %llu, more than the limit of %llu bytes (1 GiB)", l->local_name[i],
               (unsigned long long)l->local_size[i], (unsigned long long)off,
               (unsigned long long)IP_MAX_LOCAL_BYTES);
      return IP_ERR_ARGS;
    }
  }
  l->local_block_size = (size_t)off;
  /* one block now, so that an allocation failure is an error here and not
   * faults in the kernel (each work-group thread allocates its own later) */
  if (off) {
    void *probe = malloc((size_t)off);
    if (!probe) {
      snprintf(err, err_size, "cannot allocate %llu bytes of __local memory",
               (unsigned long long)off);
      return IP_ERR_NOMEM;
    }
    free(probe);
  }
  ip_regions_reset(l);
  return IP_OK;
}

void ip_regions_reset(ip_launch *l) {
  const ld_module *m = l->m;
  for (uint32_t i = 0; i < m->n_variables; i++) {
    const ld_variable *v = m->variables[i];
    if (!l->gvar_mem[i] || !v->pointee) continue;
    if (v->init) memcpy(l->gvar_mem[i], v->init, v->pointee->size);
    else memset(l->gvar_mem[i], 0, v->pointee->size);
  }
}

void ip_regions_free(ip_launch *l) {
  if (l->gvar_mem)
    for (uint32_t i = 0; i < l->m->n_variables; i++) free(l->gvar_mem[i]);
  free(l->gvar_mem); free(l->var_addr); free(l->gregions); free(l->region_arg);
  free(l->region_name); free(l->input_vars); free(l->local_vars);
  free(l->local_size); free(l->local_off); free(l->local_name);
}

/* ------------------------------------------------------------ built-ins */

static void put_vals(void *out, uint32_t size, const uint64_t *v, uint32_t n) {
  uint8_t *o = out;
  memset(o, 0, size);
  uint32_t comp = n == 1 ? (size >= 8 ? 8 : size) : (n == 3 && size >= 24) ? 8 : 4;
  if (n == 3 && size < 12) comp = size / 3 ? size / 3 : 1;
  for (uint32_t i = 0; i < n && (i + 1) * comp <= size; i++) memcpy(o + i * comp, &v[i], comp);
}

bool ip_builtin_value(const ip_sg *sg, uint32_t lane, SpvBuiltIn b, void *out, uint32_t size) {
  const ip_launch *l = sg->launch;
  const ip_ndrange *nd = &l->nd;
  const ip_wg *wg = sg->wg;
  uint64_t v[4] = {0, 0, 0, 0};
  uint32_t n = 3;
  switch (b) {
  case SpvBuiltInGlobalInvocationId:
    for (int d = 0; d < 3; d++)
      v[d] = (uint64_t)wg->group[d] * nd->local[d] + sg->local_id[lane][d] + nd->offset[d];
    break;
  case SpvBuiltInLocalInvocationId:
    for (int d = 0; d < 3; d++) v[d] = sg->local_id[lane][d];
    break;
  case SpvBuiltInWorkgroupId:
    for (int d = 0; d < 3; d++) v[d] = wg->group[d];
    break;
  case SpvBuiltInNumWorkgroups:
    for (int d = 0; d < 3; d++) v[d] = nd->groups[d];
    break;
  case SpvBuiltInGlobalSize:
    for (int d = 0; d < 3; d++) v[d] = nd->global[d];
    break;
  case SpvBuiltInEnqueuedWorkgroupSize:
    for (int d = 0; d < 3; d++) v[d] = nd->local[d];
    break;
  case SpvBuiltInWorkgroupSize:
    for (int d = 0; d < 3; d++) v[d] = wg->local_size[d];
    break;
  case SpvBuiltInGlobalOffset:
    for (int d = 0; d < 3; d++) v[d] = nd->offset[d];
    break;
  case SpvBuiltInGlobalLinearId: {
    uint64_t g[3];
    for (int d = 0; d < 3; d++) g[d] = (uint64_t)wg->group[d] * nd->local[d] + sg->local_id[lane][d];
    v[0] = (g[2] * nd->global[1] + g[1]) * nd->global[0] + g[0];
    n = 1;
    break;
  }
  case SpvBuiltInLocalInvocationIndex: v[0] = sg->local_linear[lane]; n = 1; break;
  case SpvBuiltInWorkDim: v[0] = nd->dim; n = 1; break;
  case SpvBuiltInSubgroupSize: v[0] = sg->n_lanes; n = 1; break;
  case SpvBuiltInSubgroupMaxSize: v[0] = sg->size; n = 1; break;
  case SpvBuiltInNumSubgroups: v[0] = wg->n_subgroups; n = 1; break;
  case SpvBuiltInNumEnqueuedSubgroups: {
    uint64_t items = (uint64_t)nd->local[0] * nd->local[1] * nd->local[2];
    v[0] = (items + sg->size - 1) / sg->size;
    n = 1;
    break;
  }
  case SpvBuiltInSubgroupId: v[0] = sg->id; n = 1; break;
  case SpvBuiltInSubgroupLocalInvocationId: v[0] = lane; n = 1; break;
  case SpvBuiltInSubgroupEqMask: case SpvBuiltInSubgroupGeMask: case SpvBuiltInSubgroupGtMask:
  case SpvBuiltInSubgroupLeMask: case SpvBuiltInSubgroupLtMask: {
    uint32_t w[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < sg->size; k++) {
      bool on = b == SpvBuiltInSubgroupEqMask ? k == lane : b == SpvBuiltInSubgroupGeMask ? k >= lane
              : b == SpvBuiltInSubgroupGtMask ? k > lane : b == SpvBuiltInSubgroupLeMask ? k <= lane : k < lane;
      if (on) w[k >> 5] |= 1u << (k & 31);
    }
    memset(out, 0, size);
    memcpy(out, w, size < 16 ? size : 16);
    return true;
  }
  default:
    memset(out, 0, size);
    return false;
  }
  put_vals(out, size, v, n);
  return true;
}

/* ------------------------------------------------------------ addresses */

static const char *access_name(ip_access a) {
  return a == IP_READ ? "read" : a == IP_WRITE ? "write" : "atomic access";
}

void ip_describe_addr(const ip_sg *sg, uint64_t addr, char *buf, size_t size) {
  const ip_launch *l = sg->launch;
  const ip_addr_layout *a = &sg->m->layout;
  uint32_t r = ip_addr_region(a, addr);
  unsigned long long off = ip_addr_offset(a, addr);
  if (r == 0) { snprintf(buf, size, "null pointer+%llu", off); return; }
  if (r < a->local_base) {
    const ip_region *g = &l->gregions[r];
    const char *what = l->region_arg[r] ? (l->region_arg[r]->kind == IP_ARG_IMAGE ? "image" : "buffer")
                                        : "variable";
    if (!l->region_name[r]) { snprintf(buf, size, "unmapped address 0x%llx", (unsigned long long)addr); return; }
    snprintf(buf, size, "%s '%s'+%llu (size %llu)", what, l->region_name[r], off,
             (unsigned long long)g->size);
    return;
  }
  if (r < a->builtin_base) {
    uint32_t i = r - a->local_base;
    if (i >= l->n_local) { snprintf(buf, size, "unmapped local address 0x%llx", (unsigned long long)addr); return; }
    snprintf(buf, size, "local '%s'+%llu (size %llu)", l->local_name[i] ? l->local_name[i] : "?", off,
             (unsigned long long)l->local_size[i]);
    return;
  }
  if (r < a->priv_base) {
    uint32_t i = r - a->builtin_base;
    const char *bn = i < sg->m->n_input_vars && l->input_vars[i] ? spv_builtin_name((uint32_t)l->input_vars[i]->builtin) : NULL;
    snprintf(buf, size, "built-in '%s'+%llu", bn ? bn : "?", off);
    return;
  }
  snprintf(buf, size, "private memory of lane %u+%llu (size %llu)", r - a->priv_base, off,
           (unsigned long long)l->priv_size);
}

const ip_region *ip_region_of(const ip_sg *sg, uint32_t lane, uint64_t addr) {
  (void)lane;
  const ip_launch *l = sg->launch;
  const ip_addr_layout *a = &sg->m->layout;
  uint32_t r = ip_addr_region(a, addr);
  if (r == 0) return NULL;
  if (r < a->local_base) return l->gregions[r].base ? &l->gregions[r] : NULL;
  if (r < a->builtin_base) {
    uint32_t i = r - a->local_base;
    return i < sg->wg->n_local ? &sg->wg->local[i] : NULL;
  }
  return NULL;
}

static int mem_fault(ip_sg *sg, ip_diag_kind kind, uint32_t lane, uint64_t addr, uint64_t size,
                     ip_access acc, const char *extra) {
  char where[160];
  ip_describe_addr(sg, addr, where, sizeof where);
  ip_mask m = {{0, 0}};
  ip_mask_set(&m, lane);
  return ip_fault(sg, kind, m, addr, "%s of %llu bytes at %s%s", access_name(acc),
                  (unsigned long long)size, where, extra);
}

/* The end of the private object (a by-value argument's copy or a Function
 * variable of a live frame) that holds byte off of a lane's private memory;
 * 0 when none does (padding, a returned frame's area). */
static uint64_t priv_object_end(const ip_sg *sg, uint64_t off) {
  const ip_launch *l = sg->launch;
  if (off < l->byval_bytes) {
    for (uint32_t i = 0; i < l->k->n_args; i++) {
      uint64_t b = l->byval_off[i];
      if (b != UINT64_MAX && off >= b && off < b + l->k->args[i].value_size)
        return b + l->k->args[i].value_size;
    }
    return 0;
  }
  for (uint32_t d = sg->n_frames; d-- > 0;) {
    const ip_frame *f = &sg->frames[d];
    if (off < f->private_base || off >= f->private_base + f->fn->private_bytes) continue;
    uint64_t rel = off - f->private_base;
    for (uint32_t v = 0; v < f->fn->n_vars; v++) {
      uint64_t vo = f->fn->var_ext[2 * v], vs = f->fn->var_ext[2 * v + 1];
      if (rel >= vo && rel < vo + vs) return f->private_base + vo + vs;
    }
    return 0;
  }
  return 0;
}

void *ip_mem(ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size, uint32_t align,
             ip_access access) {
  const ip_launch *l = sg->launch;
  const ip_addr_layout *a = &sg->m->layout;
  uint32_t r = (uint32_t)(addr >> a->shift);
  uint64_t off = addr & a->offset_mask;
  uint8_t *base;
  uint64_t rsize;
  bool writable = true, write_only = false;
  if (r >= a->priv_base) {
    uint32_t k = r - a->priv_base;
    if (k >= sg->size || !sg->priv[k]) goto unmapped;
    base = sg->priv[k];
    rsize = l->priv_size;
    if (sg->n_frames && base == ip_sgx_of(sg)->priv_block + (size_t)k * l->priv_size) {
      /* in bounds of the one variable it starts in (a private array indexed
       * past its end is out of bounds, not the next variable); only in the
       * interpreter's own private memory, whose layout the frames describe
       * (the JIT lends its own to the handlers it borrows) */
      uint64_t end = priv_object_end(sg, off);
      if (!end || size > end - off) goto unmapped;
    }
  } else if (r < a->local_base) {
    if (r == 0) {
      mem_fault(sg, IP_FAULT_NULL_POINTER, lane, addr, size, access, "");
      return NULL;
    }
    const ip_region *g = &l->gregions[r];
    if (!g->base) goto unmapped;
    base = g->base;
    rsize = g->size;
    writable = g->writable;
    write_only = g->write_only;
  } else if (r < a->builtin_base) {
    uint32_t k = r - a->local_base;
    if (k >= sg->wg->n_local) goto unmapped;
    base = sg->wg->local[k].base;
    rsize = sg->wg->local[k].size;
  } else {
    uint32_t k = r - a->builtin_base;
    if (k >= sg->m->n_input_vars || !l->input_vars[k]) goto unmapped;
    const ld_variable *v = l->input_vars[k];
    uint32_t sz = v->pointee ? v->pointee->size : 0;
    if (sz > 32) sz = 32;
    base = ip_sgx_of(sg)->bi[lane];
    ip_builtin_value(sg, lane, (SpvBuiltIn)v->builtin, base, sz);
    rsize = sz;
    writable = false;
  }
  if (off > rsize || size > rsize - off) {
    mem_fault(sg, IP_FAULT_OUT_OF_BOUNDS, lane, addr, size, access, "");
    return NULL;
  }
  if (access != IP_READ && !writable) {
    mem_fault(sg, IP_FAULT_WRITE_READONLY, lane, addr, size, access, "");
    return NULL;
  }
  if (access != IP_WRITE && write_only) {
    mem_fault(sg, IP_FAULT_READ_WRITEONLY, lane, addr, size, access, "");
    return NULL;
  }
  /* Misaligned but in bounds: reported, then performed on the bytes that
   * are there, as Oclgrind does (a host reads them; only the report
   * matters).  Out-of-bounds and read-only accesses stay suppressed. */
  if (align > 1 && (off & (align - 1))) {
    char ex[48];
    snprintf(ex, sizeof ex, " (needs %u-byte alignment)", align);
    mem_fault(sg, IP_FAULT_MISALIGNED, lane, addr, size, access, ex);
  }
  if (__builtin_expect(l->checks != NULL, 0)) ip_check_mem(sg, lane, addr, size, access, base + off);
  return base + off;
unmapped:
  mem_fault(sg, IP_FAULT_OUT_OF_BOUNDS, lane, addr, size, access, "");
  return NULL;
}

bool ip_sg_read_memory(const ip_sg *sg, uint32_t lane, uint64_t addr, void *out, size_t n) {
  const ip_launch *l = sg->launch;
  const ip_addr_layout *a = &sg->m->layout;
  uint32_t r = ip_addr_region(a, addr);
  uint64_t off = ip_addr_offset(a, addr);
  const uint8_t *base = NULL;
  uint64_t rsize = 0;
  uint8_t tmp[32];
  if (r == 0) return false;
  if (r >= a->priv_base) {
    uint32_t k = r - a->priv_base;
    if (k >= sg->size || !sg->priv[k]) return false;
    base = sg->priv[k]; rsize = l->priv_size;
  } else if (r < a->local_base) {
    base = l->gregions[r].base; rsize = l->gregions[r].size;
  } else if (r < a->builtin_base) {
    uint32_t k = r - a->local_base;
    if (k >= sg->wg->n_local) return false;
    base = sg->wg->local[k].base; rsize = sg->wg->local[k].size;
  } else {
    uint32_t k = r - a->builtin_base;
    if (k >= sg->m->n_input_vars || !l->input_vars[k]) return false;
    const ld_variable *v = l->input_vars[k];
    uint32_t sz = v->pointee && v->pointee->size <= 32 ? v->pointee->size : 32;
    ip_builtin_value(sg, lane, (SpvBuiltIn)v->builtin, tmp, sz);
    base = tmp; rsize = sz;
  }
  if (!base || off > rsize || n > rsize - off) return false;
  memcpy(out, base + off, n);
  return true;
}

/* ---------------------------------------------------------- diagnostics */

void ip_flush_pending_diag(ip_wgx *x) {
  if (!x->pending) return;
  x->pending = false;
  ip_launch *l = x->wg.launch;
  if (l->desc.on_diag && x->n_diags) {
    pthread_mutex_lock(&l->mu);
    l->desc.on_diag(l->desc.diag_user, &x->diags[x->n_diags - 1].d);
    pthread_mutex_unlock(&l->mu);
  }
}

static uint32_t mask_last(ip_mask m) {
  if (m.w[1]) return 127u - (uint32_t)__builtin_clzll(m.w[1]);
  if (m.w[0]) return 63u - (uint32_t)__builtin_clzll(m.w[0]);
  return 0;
}

static int record(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, uint64_t addr,
                  const char *fmt, va_list ap) {
  ip_wgx *x = ip_wgx_of(sg->wg);
  ip_launch *l = sg->launch;
  bool ub = ip_diag_is_ub(kind);
  const ld_insn *insn = sg->cur ? sg->cur->insn : NULL;
  bool stop = ub ? l->desc.ub == IP_UB_ERROR : l->desc.stop_on_fault;
  if (ub) {
    if (l->desc.ub == IP_UB_IGNORE) return IP_NEXT;
    x->n_ub++;
    for (uint32_t i = 0; i < x->n_diags; i++)
      if (x->diags[i].d.kind == kind && x->diags[i].d.insn == insn) {
        if (stop) { __atomic_store_n(&l->stop, 1, __ATOMIC_RELAXED); return IP_HALT; }
        return IP_NEXT;
      }
  } else {
    x->n_faults++;
  }
  ip_sgx_of(sg)->n_diags++;
  if (x->pending && x->n_diags) {
    ip_diag *last = &x->diags[x->n_diags - 1].d;
    if (last->kind == kind && last->insn == insn && last->subgroup == sg->id && !ip_diag_is_check(kind) &&
        !ip_mask_empty(lanes) && ip_mask_first(lanes) > mask_last(last->lanes)) {
      last->lanes = ip_mask_or(last->lanes, lanes);
      goto out;
    }
  }
  ip_flush_pending_diag(x);
  if (x->n_diags < IP_MAX_DIAGS) {
    if (x->n_diags == x->cap_diags) {
      uint32_t nc = x->cap_diags ? x->cap_diags * 2 : 16;
      ip_wdiag *nd = realloc(x->diags, nc * sizeof *nd);
      if (!nd) goto out;
      x->diags = nd;
      x->cap_diags = nc;
    }
    ip_wdiag *w = &x->diags[x->n_diags++];
    memset(w, 0, sizeof *w);
    w->wg_linear = x->wg_linear;
    w->seq = x->seq++;
    w->d.kind = kind;
    w->d.kernel = l->k->name;
    memcpy(w->d.group, sg->wg->group, sizeof w->d.group);
    w->d.subgroup = sg->id;
    w->d.lanes = lanes;
    w->d.insn = insn;
    w->d.address = addr;
    vsnprintf(w->d.message, sizeof w->d.message, fmt, ap);
    x->pending = true;
  }
out:
  if (stop) { __atomic_store_n(&l->stop, 1, __ATOMIC_RELAXED); return IP_HALT; }
  return IP_NEXT;
}

int ip_fault(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, uint64_t addr, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = record(sg, kind, lanes, addr, fmt, ap);
  va_end(ap);
  return r;
}

int ip_ub(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = record(sg, kind, lanes, 0, fmt, ap);
  va_end(ap);
  return r;
}

/* --------------------------------------------------------------- output */

static void sink(ip_launch *l, const char *text, size_t len) {
  if (!len) return;
  if (l->desc.out) l->desc.out(l->desc.out_user, text, len);
  else { fwrite(text, 1, len, stdout); fflush(stdout); }
}

void ip_out_write(ip_sg *sg, const char *text, size_t len) {
  ip_wgx *x = ip_wgx_of(sg->wg);
  ip_wg *wg = sg->wg;
  if (x->direct_out) {
    pthread_mutex_lock(&sg->launch->mu);
    sink(sg->launch, text, len);
    pthread_mutex_unlock(&sg->launch->mu);
    return;
  }
  if (wg->out_len + len + 1 > wg->out_cap) {
    size_t nc = wg->out_cap ? wg->out_cap * 2 : 256;
    while (nc < wg->out_len + len + 1) nc *= 2;
    char *nb = realloc(wg->out, nc);
    if (!nb) return;
    wg->out = nb;
    wg->out_cap = nc;
  }
  memcpy(wg->out + wg->out_len, text, len);
  wg->out_len += len;
}

/* Output of work-group wg_linear, in linear work-group order.  Takes the buffer. */
void ip_out_commit(ip_launch *l, uint64_t wg_linear, char *buf, size_t len) {
  pthread_mutex_lock(&l->mu);
  if (!l->out_pending || wg_linear >= l->n_groups) {
    sink(l, buf, len);
    free(buf);
    pthread_mutex_unlock(&l->mu);
    return;
  }
  l->out_pending[wg_linear] = buf;
  l->out_pending_len[wg_linear] = len;
  l->out_ready[wg_linear] = 1;
  while (l->out_next < l->n_groups && l->out_ready[l->out_next]) {
    sink(l, l->out_pending[l->out_next], l->out_pending_len[l->out_next]);
    free(l->out_pending[l->out_next]);
    l->out_pending[l->out_next] = NULL;
    l->out_next++;
  }
  pthread_mutex_unlock(&l->mu);
}
