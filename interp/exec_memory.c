/* exec_memory.c - variables, loads, stores, access chains, pointer casts,
 * atomics, memory copies and async copies.
 *
 * Alignment rule: ld_natural_align / ld_access_align (loader/ld.h), which
 * the JIT uses too.
 * Atomics execute lane by lane in increasing lane order, as real host atomics
 * (work-groups may run on several threads).
 */
#include <stdio.h>
#include <stdlib.h>
#include "ip_core.h"

static inline void put_uint(void *p, uint32_t size, uint64_t v) {
  uint8_t b[8];
  memcpy(b, &v, 8);
  memset(p, 0, size);
  memcpy(p, b, size < 8 ? size : 8);
}

static inline int64_t sext(uint64_t v, uint32_t bits) {
  if (bits >= 64 || bits == 0) return (int64_t)v;
  uint64_t m = (uint64_t)1 << (bits - 1);
  v &= ((uint64_t)1 << bits) - 1;
  return (int64_t)((v ^ m) - m);
}

/* ------------------------------------------------------ loads, stores */

/* OpLoad */
static int op_load(ip_sg *sg, const ip_op *op) {
  const uint32_t sz = op->res_size, al = op->aux;
  IP_FOR_LANES(sg->mask, l) {
    const void *p = ip_mem(sg, l, ip_in_uint(sg, op, 0, l), sz, al, IP_READ);
    if (p) memcpy(ip_res(sg, op, l), p, sz);
    else memset(ip_res(sg, op, l), 0, sz);
  }
  return IP_NEXT;
}

/* OpLoad of a built-in variable: computed per lane. */
static int op_load_builtin(ip_sg *sg, const ip_op *op) {
  IP_FOR_LANES(sg->mask, l) ip_builtin_value(sg, l, (SpvBuiltIn)op->aux, ip_res(sg, op, l), op->res_size);
  return IP_NEXT;
}

/* OpStore */
static int op_store(ip_sg *sg, const ip_op *op) {
  const uint32_t sz = op->in[1].size, al = op->aux;
  IP_FOR_LANES(sg->mask, l) {
    void *p = ip_mem(sg, l, ip_in_uint(sg, op, 0, l), sz, al, IP_WRITE);
    if (p) memcpy(p, ip_in(sg, op, 1, l), sz);
  }
  return IP_NEXT;
}

/* OpVariable (Function storage): the lane's private slot, initialized. */
static int op_variable(ip_sg *sg, const ip_op *op) {
  const ip_addr_layout *a = ip_layout(sg);
  const ip_frame *f = ip_top_frame(sg);
  uint32_t psz = op->res_size;
  const ld_type *pt = op->insn->type ? op->insn->type->elem : NULL;
  uint32_t vsz = pt ? pt->size : 0;
  IP_FOR_LANES(sg->mask, l) {
    uint64_t addr = ip_addr_make(a, a->priv_base + l, f->private_base + op->aux);
    put_uint(ip_res(sg, op, l), psz, addr);
    if (op->n_in >= 1 && vsz && sg->priv[l] && f->private_base + op->aux + vsz <= sg->launch->priv_size) {
      uint32_t n = op->in[0].size < vsz ? op->in[0].size : vsz;
      memcpy(sg->priv[l] + f->private_base + op->aux, ip_in(sg, op, 0, l), n);
    }
  }
  return IP_NEXT;
}

/* OpCopyMemory / OpCopyMemorySized */
static int op_copy_memory(ip_sg *sg, const ip_op *op) {
  bool sized = op->insn->op == SpvOpCopyMemorySized;
  const ld_type *pt = op->in[0].type ? op->in[0].type->elem : NULL;
  uint32_t al = sized ? 1 : ld_natural_align(pt);
  IP_FOR_LANES(sg->mask, l) {
    uint64_t n = sized ? ip_in_uint(sg, op, 2, l) : (pt ? pt->size : 0);
    if (!n) continue;
    const void *s = ip_mem(sg, l, ip_in_uint(sg, op, 1, l), n, al, IP_READ);
    if (!s) continue;
    void *d = ip_mem(sg, l, ip_in_uint(sg, op, 0, l), n, al, IP_WRITE);
    if (d) memmove(d, s, n);
  }
  return IP_NEXT;
}

/* ------------------------------------------------------ access chains */

typedef struct ac_step { uint32_t in_idx, bits; uint64_t stride; } ac_step;
typedef struct ac_info { uint64_t const_off; uint32_t n; ac_step steps[]; } ac_info;

/* Op*AccessChain: base + constant part + sum(index * stride). */
static int op_access_chain(ip_sg *sg, const ip_op *op) {
  const ac_info *ac = op->aux_ptr;
  const uint32_t psz = op->res_size;
  const uint64_t pmask = psz >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (psz * 8)) - 1);
  IP_FOR_LANES(sg->mask, l) {
    uint64_t p = ip_in_uint(sg, op, 0, l) + ac->const_off;
    for (uint32_t i = 0; i < ac->n; i++) {
      const ac_step *s = &ac->steps[i];
      p += (uint64_t)sext(ip_in_uint(sg, op, s->in_idx, l), s->bits) * s->stride;
    }
    put_uint(ip_res(sg, op, l), psz, p & pmask);
  }
  return IP_NEXT;
}

static bool const_index(const ld_module *m, uint32_t id, int64_t *out) {
  if (id >= m->bound) return false;
  const ld_value *v = &m->values[id];
  if (v->kind != LD_V_CONSTANT || !v->type || v->type->kind != LD_T_INT || !v->u.bytes) return false;
  *out = sext(ip_load_uint(v->u.bytes, v->type->size), v->type->width);
  return true;
}

static ac_info *build_chain(const ld_module *m, const ld_insn *in) {
  bool ptr_chain = in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain;
  if (in->n_ops < 1 || in->ops[0] >= m->bound) return NULL;
  const ld_type *bt = m->values[in->ops[0]].type;
  if (!bt || bt->kind != LD_T_POINTER) return NULL;
  const ld_type *cur = bt->elem;
  ac_info *ac = calloc(1, sizeof *ac + in->n_ops * sizeof(ac_step));
  if (!ac) return NULL;
  for (uint32_t i = 1; i < in->n_ops; i++) {
    uint32_t id = in->ops[i];
    int64_t cv = 0;
    bool is_const = const_index(m, id, &cv);
    uint64_t stride;
    if (i == 1 && ptr_chain) {
      stride = cur ? cur->size : 0;
    } else {
      if (!cur) goto fail;
      if (cur->kind == LD_T_STRUCT) {
        if (!is_const || cv < 0 || (uint64_t)cv >= cur->n_members) goto fail;
        ac->const_off += cur->offsets[cv];
        cur = cur->members[cv];
        continue;
      }
      if (cur->kind != LD_T_ARRAY && cur->kind != LD_T_RUNTIME_ARRAY && cur->kind != LD_T_VECTOR) goto fail;
      cur = cur->elem;
      stride = cur ? cur->size : 0;
    }
    if (is_const) {
      ac->const_off += (uint64_t)cv * stride;
    } else {
      const ld_type *it = id < m->bound ? m->values[id].type : NULL;
      ac_step *s = &ac->steps[ac->n++];
      s->in_idx = i;
      s->bits = it && it->width ? it->width : 32;
      s->stride = stride;
    }
  }
  return ac;
fail:
  free(ac);
  return NULL;
}

/* --------------------------------------------------------- pointer ops */

static uint32_t addr_class(const ip_addr_layout *a, uint64_t p) {
  uint32_t r = ip_addr_region(a, p);
  if (r == 0) return UINT32_MAX;
  if (r < a->local_base) return SpvStorageClassCrossWorkgroup;
  if (r < a->builtin_base) return SpvStorageClassWorkgroup;
  if (r < a->priv_base) return SpvStorageClassInput;
  return SpvStorageClassFunction;
}

/* Pointer <-> integer and pointer <-> pointer conversions: the bits, resized. */
static int op_ptr_copy(ip_sg *sg, const ip_op *op) {
  IP_FOR_LANES(sg->mask, l) {
    uint32_t n = op->in[0].size < op->res_size ? op->in[0].size : op->res_size;
    uint8_t *r = ip_res(sg, op, l);
    const uint8_t *s = ip_in(sg, op, 0, l);
    if (r != s) { memmove(r, s, n); if (n < op->res_size) memset(r + n, 0, op->res_size - n); }
  }
  return IP_NEXT;
}

/* OpGenericCastToPtrExplicit: null unless the address is in the class. */
static int op_generic_explicit(ip_sg *sg, const ip_op *op) {
  const ip_addr_layout *a = ip_layout(sg);
  IP_FOR_LANES(sg->mask, l) {
    uint64_t p = ip_in_uint(sg, op, 0, l);
    put_uint(ip_res(sg, op, l), op->res_size, addr_class(a, p) == op->aux ? p : 0);
  }
  return IP_NEXT;
}

/* OpGenericPtrMemSemantics */
static int op_generic_sem(ip_sg *sg, const ip_op *op) {
  const ip_addr_layout *a = ip_layout(sg);
  IP_FOR_LANES(sg->mask, l) {
    uint32_t c = addr_class(a, ip_in_uint(sg, op, 0, l));
    uint64_t s = c == SpvStorageClassWorkgroup ? SpvMemorySemanticsWorkgroupMemoryMask
               : c == SpvStorageClassCrossWorkgroup ? SpvMemorySemanticsCrossWorkgroupMemoryMask : 0;
    put_uint(ip_res(sg, op, l), op->res_size, s);
  }
  return IP_NEXT;
}

/* OpPtrEqual / OpPtrNotEqual / OpPtrDiff */
static int op_ptr_cmp(ip_sg *sg, const ip_op *op) {
  SpvOp o = op->insn->op;
  IP_FOR_LANES(sg->mask, l) {
    uint64_t x = ip_in_uint(sg, op, 0, l), y = ip_in_uint(sg, op, 1, l);
    if (o == SpvOpPtrEqual) *ip_res(sg, op, l) = x == y;
    else if (o == SpvOpPtrNotEqual) *ip_res(sg, op, l) = x != y;
    else {
      int64_t d = (int64_t)(x - y);
      int64_t es = op->aux ? (int64_t)op->aux : 1;
      put_uint(ip_res(sg, op, l), op->res_size, (uint64_t)(d / es));
    }
  }
  return IP_NEXT;
}

/* ------------------------------------------------------------- atomics */

enum { A_LOAD, A_STORE, A_XCHG, A_CMPXCHG, A_INC, A_DEC, A_ADD, A_SUB, A_SMIN, A_UMIN,
       A_SMAX, A_UMAX, A_AND, A_OR, A_XOR, A_FLAG_SET, A_FLAG_CLEAR, A_FADD, A_FMIN, A_FMAX };

static pthread_mutex_t atomic_mu = PTHREAD_MUTEX_INITIALIZER;

static double to_f(uint64_t v, uint32_t sz) {
  if (sz == 8) { double d; memcpy(&d, &v, 8); return d; }
  if (sz == 4) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
  return ip_half_to_double((uint16_t)v);
}
static uint64_t from_f(double d, uint32_t sz) {
  if (sz == 8) { uint64_t v; memcpy(&v, &d, 8); return v; }
  if (sz == 4) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); return u; }
  return ip_double_to_half(d);
}

static uint64_t combine(int k, uint64_t old, uint64_t v, uint32_t sz) {
  uint32_t bits = sz * 8;
  switch (k) {
  case A_XCHG: case A_STORE: return v;
  case A_INC: return old + 1;
  case A_DEC: return old - 1;
  case A_ADD: return old + v;
  case A_SUB: return old - v;
  case A_SMIN: return sext(old, bits) < sext(v, bits) ? old : v;
  case A_SMAX: return sext(old, bits) > sext(v, bits) ? old : v;
  case A_UMIN: return old < v ? old : v;
  case A_UMAX: return old > v ? old : v;
  case A_AND: return old & v;
  case A_OR: return old | v;
  case A_XOR: return old ^ v;
  case A_FLAG_SET: return 1;
  case A_FLAG_CLEAR: return 0;
  case A_FADD: return from_f(to_f(old, sz) + to_f(v, sz), sz);
  case A_FMIN: { double a = to_f(old, sz), b = to_f(v, sz); return a != a ? v : b != b ? old : (b < a ? v : old); }
  case A_FMAX: { double a = to_f(old, sz), b = to_f(v, sz); return a != a ? v : b != b ? old : (b > a ? v : old); }
  default: return old;
  }
}

/* One atomic read-modify-write; returns the old value. */
static uint64_t atomic_rmw(int k, void *p, uint32_t sz, uint64_t v, uint64_t cmp) {
  uint64_t mask = sz >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (sz * 8)) - 1);
  v &= mask; cmp &= mask;
  if (((uintptr_t)p & (sz - 1)) == 0 && (sz == 4 || sz == 8 || sz == 2)) {
    if (sz == 4) {
      uint32_t *q = p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
      if (k == A_LOAD) return old;
      if (k == A_CMPXCHG) { uint32_t e = (uint32_t)cmp; __atomic_compare_exchange_n(q, &e, (uint32_t)v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return e; }
      for (;;) {
        uint32_t nv = (uint32_t)combine(k, old, v, 4);
        if (__atomic_compare_exchange_n(q, &old, nv, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
      }
    }
    if (sz == 8) {
      uint64_t *q = p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
      if (k == A_LOAD) return old;
      if (k == A_CMPXCHG) { uint64_t e = cmp; __atomic_compare_exchange_n(q, &e, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return e; }
      for (;;) {
        uint64_t nv = combine(k, old, v, 8);
        if (__atomic_compare_exchange_n(q, &old, nv, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
      }
    }
    uint16_t *q = p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
    if (k == A_LOAD) return old;
    if (k == A_CMPXCHG) { uint16_t e = (uint16_t)cmp; __atomic_compare_exchange_n(q, &e, (uint16_t)v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return e; }
    for (;;) {
      uint16_t nv = (uint16_t)combine(k, old, v, 2);
      if (__atomic_compare_exchange_n(q, &old, nv, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
    }
  }
  /* odd host alignment or size: serialize */
  pthread_mutex_lock(&atomic_mu);
  uint64_t old = 0;
  memcpy(&old, p, sz > 8 ? 8 : sz);
  uint64_t nv = k == A_LOAD ? old : k == A_CMPXCHG ? (old == cmp ? v : old) : combine(k, old, v, sz);
  memcpy(p, &nv, sz > 8 ? 8 : sz);
  pthread_mutex_unlock(&atomic_mu);
  return old;
}

/* OpAtomic*: lane by lane, increasing lane order. */
static int op_atomic(ip_sg *sg, const ip_op *op) {
  int k = (int)op->aux;
  uint32_t vi = k == A_CMPXCHG ? 4 : 3;
  uint32_t sz = k == A_STORE ? op->in[3].size : (k == A_FLAG_SET || k == A_FLAG_CLEAR) ? 4 : op->res_size;
  if (sz == 0 || sz > 8) sz = 4;
  IP_FOR_LANES(sg->mask, l) {
    uint64_t v = (k == A_LOAD || k == A_INC || k == A_DEC || (k >= A_FLAG_SET && k <= A_FLAG_CLEAR) || vi >= op->n_in)
                 ? 0 : ip_in_uint(sg, op, vi, l);
    uint64_t cmp = k == A_CMPXCHG && op->n_in > 5 ? ip_in_uint(sg, op, 5, l) : 0;
    void *p = ip_mem(sg, l, ip_in_uint(sg, op, 0, l), sz, sz, IP_ATOMIC);
    uint64_t old = 0;
    if (p) old = atomic_rmw(k == A_STORE ? A_XCHG : k, p, sz, v, cmp);
    if (op->res_size) {
      if (k == A_FLAG_SET) *ip_res(sg, op, l) = old != 0;
      else put_uint(ip_res(sg, op, l), op->res_size, old);
    }
  }
  return IP_NEXT;
}

/* -------------------------------------------------------- async copies */

/* OpGroupAsyncCopy: a work-group collective; done once, eagerly, when every
 * subgroup has arrived, with the first active lane's operands. */
static int op_async_copy(ip_sg *sg, const ip_op *op) {
  uint32_t l0 = ip_mask_first(sg->mask);
  uint32_t scope = (uint32_t)ip_in_uint(sg, op, 0, l0);
  ip_wgx *x = ip_wgx_of(sg->wg);
  bool do_copy = true;
  if (scope == SpvScopeWorkgroup) {
    /* OpenCL C: "must be encountered by all work-items in a work-group
     * executing the kernel with the same argument values" (Oclgrind:
     * work-group divergence).  Checked on arrival, once. */
    if (!sg->resumed && !ip_sgx_of(sg)->arrived) {
      ip_mask live = ip_live_lanes(sg);
      if (!ip_mask_eq(sg->mask, live)) {
        int r = ip_fault(sg, IP_FAULT_BARRIER_DIVERGENCE, ip_mask_andnot(live, sg->mask), 0,
                         "async_work_group_copy not reached by every work-item of the subgroup");
        if (r == IP_HALT) return r;
      }
    }
    if (!ip_wg_rendezvous(sg)) return IP_SUSPEND;
    do_copy = x->async_done_gen != x->rendezvous_gen;
    x->async_done_gen = x->rendezvous_gen;
  }
  uint64_t given = 0;
  if (op->n_in > 5 && op->in[5].size) memcpy(&given, ip_in(sg, op, 5, l0), op->in[5].size < 8 ? op->in[5].size : 8);
  if (do_copy && !given) {
    /* a new event (a given one is returned as is: the copies share it) */
    x->n_events++;
    if (x->n_events <= 64) x->event_op[x->n_events - 1] = op;
  }
  if (do_copy) {
    const ip_addr_layout *a = ip_layout(sg);
    uint64_t dst = ip_in_uint(sg, op, 1, l0), src = ip_in_uint(sg, op, 2, l0);
    uint64_t n = ip_in_uint(sg, op, 3, l0), stride = ip_in_uint(sg, op, 4, l0);
    const ld_type *et = op->in[1].type ? op->in[1].type->elem : NULL;
    uint32_t es = et && et->size ? et->size : 1, al = ld_natural_align(et);
    bool to_local = addr_class(a, dst) == SpvStorageClassWorkgroup;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t so = to_local ? i * stride : i, dof = to_local ? i : i * stride;
      const void *s = ip_mem(sg, l0, src + so * es, es, al, IP_READ);
      if (!s) break;
      void *d = ip_mem(sg, l0, dst + dof * es, es, al, IP_WRITE);
      if (!d) break;
      memmove(d, s, es);
    }
  }
  uint64_t ev = given ? given : 2 * (uint64_t)x->n_events + 1;
  IP_FOR_LANES(sg->mask, l) put_uint(ip_res(sg, op, l), op->res_size, ev);
  return IP_NEXT;
}

/* OpGroupWaitEvents: every event must come from an async copy of this
 * work-group; the call is a work-group function like the copy. */
static int op_wait_events(ip_sg *sg, const ip_op *op) {
  if (op->n_in < 3 || ip_mask_empty(sg->mask)) return IP_NEXT;
  ip_wgx *x = ip_wgx_of(sg->wg);
  ip_mask live = ip_live_lanes(sg);
  if (!ip_mask_eq(sg->mask, live)) {
    int r = ip_fault(sg, IP_FAULT_BARRIER_DIVERGENCE, ip_mask_andnot(live, sg->mask), 0,
                     "wait_group_events not reached by every work-item of the subgroup");
    if (r == IP_HALT) return r;
  }
  const ld_type *pt = op->in[2].type;
  uint32_t es = pt && pt->kind == LD_T_POINTER && pt->elem && pt->elem->size ? pt->elem->size : 8;
  if (es > 8) es = 8;
  IP_FOR_LANES(sg->mask, l) {
    uint64_t n = ip_in_uint(sg, op, 1, l), list = ip_in_uint(sg, op, 2, l);
    for (uint64_t i = 0; i < n && i < 4096; i++) {
      const void *p = ip_mem(sg, l, list + i * es, es, 1, IP_READ);
      if (!p) break;
      uint64_t ev = 0;
      memcpy(&ev, p, es);
      uint64_t k = ev >> 1;
      if (!(ev & 1) || k == 0 || k > x->n_events) {
        ip_mask one = {{0, 0}};
        ip_mask_set(&one, l);
        int r = ip_fault(sg, IP_FAULT_EVENT, one, 0,
                         "wait_group_events on an invalid event (event %llu of the list: 0x%llx, "
                         "not returned by an async copy of this work-group)",
                         (unsigned long long)i, (unsigned long long)ev);
        if (r == IP_HALT) return r;
        continue;
      }
      if (k <= 64) x->events_waited |= (uint64_t)1 << (k - 1);
    }
  }
  return IP_NEXT;
}

/* ---------------------------------------------------------------- lookup */

static bool is_pointer(const ld_type *t) { return t && t->kind == LD_T_POINTER; }

ip_handler *ip_lookup_memory(const ld_module *m, const ld_insn *in, ip_op *op) {
  switch (in->op) {
  case SpvOpVariable: return op_variable;
  case SpvOpLoad:
    if (op->n_in < 1) return NULL;
    if (in->ops[0] < m->bound && m->values[in->ops[0]].kind == LD_V_VARIABLE) {
      const ld_variable *v = m->values[in->ops[0]].u.var;
      if (v->storage == SpvStorageClassInput && v->builtin >= 0 && op->res_size <= 32) {
        op->aux = (uint32_t)v->builtin;
        return op_load_builtin;
      }
    }
    op->aux = ld_access_align(in->type, in, 1);
    return op_load;
  case SpvOpStore:
    if (op->n_in < 2) return NULL;
    op->aux = ld_access_align(op->in[1].type, in, 2);
    return op_store;
  case SpvOpCopyMemory: case SpvOpCopyMemorySized:
    return op_copy_memory;
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: {
    ac_info *ac = build_chain(m, in);
    if (!ac) return NULL;
    op->aux_ptr = ac;
    return op_access_chain;
  }
  case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
  case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
    return op_ptr_copy;
  case SpvOpBitcast:
    if (is_pointer(in->type) || (op->n_in && is_pointer(op->in[0].type))) return op_ptr_copy;
    return NULL;
  case SpvOpGenericCastToPtrExplicit:
    if (in->n_ops < 2) return NULL;
    op->aux = in->ops[1];
    return op_generic_explicit;
  case SpvOpGenericPtrMemSemantics: return op_generic_sem;
  case SpvOpPtrEqual: case SpvOpPtrNotEqual: return op_ptr_cmp;
  case SpvOpPtrDiff:
    op->aux = op->n_in && op->in[0].type && op->in[0].type->elem ? op->in[0].type->elem->size : 1;
    return op_ptr_cmp;
  case SpvOpAtomicLoad: op->aux = A_LOAD; return op_atomic;
  case SpvOpAtomicStore: op->aux = A_STORE; return op_atomic;
  case SpvOpAtomicExchange: op->aux = A_XCHG; return op_atomic;
  case SpvOpAtomicCompareExchange: case SpvOpAtomicCompareExchangeWeak: op->aux = A_CMPXCHG; return op_atomic;
  case SpvOpAtomicIIncrement: op->aux = A_INC; return op_atomic;
  case SpvOpAtomicIDecrement: op->aux = A_DEC; return op_atomic;
  case SpvOpAtomicIAdd: op->aux = A_ADD; return op_atomic;
  case SpvOpAtomicISub: op->aux = A_SUB; return op_atomic;
  case SpvOpAtomicSMin: op->aux = A_SMIN; return op_atomic;
  case SpvOpAtomicUMin: op->aux = A_UMIN; return op_atomic;
  case SpvOpAtomicSMax: op->aux = A_SMAX; return op_atomic;
  case SpvOpAtomicUMax: op->aux = A_UMAX; return op_atomic;
  case SpvOpAtomicAnd: op->aux = A_AND; return op_atomic;
  case SpvOpAtomicOr: op->aux = A_OR; return op_atomic;
  case SpvOpAtomicXor: op->aux = A_XOR; return op_atomic;
  case SpvOpAtomicFlagTestAndSet: op->aux = A_FLAG_SET; return op_atomic;
  case SpvOpAtomicFlagClear: op->aux = A_FLAG_CLEAR; return op_atomic;
  case SpvOpAtomicFAddEXT: op->aux = A_FADD; return op_atomic;
  case SpvOpAtomicFMinEXT: op->aux = A_FMIN; return op_atomic;
  case SpvOpAtomicFMaxEXT: op->aux = A_FMAX; return op_atomic;
  case SpvOpGroupAsyncCopy: return op_async_copy;
  case SpvOpGroupWaitEvents: return op_wait_events;
  default: return NULL;
  }
}
