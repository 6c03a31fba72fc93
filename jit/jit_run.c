/* jit_run.c - the host side of a JIT launch: the per-work-group set-up the
 * compiled loop asks for (rt_wg), the rare SIMT-stack cases the compiled code
 * leaves to the host (divergent switch, step and time limits, stack
 * overflow), the region table, and fault reporting through the interpreter's
 * own ip_mem.  The loops over work-groups and subgroups, branches, calls,
 * returns and barriers run in the compiled code (jit_emit*.c).
 *
 * Only contracted interfaces are used: arguments are read with ip_sg_read and
 * the launch-wide regions with ip_region_of on a work-group set up with
 * ip_wg_begin; faults are recorded by ip_mem on such a work-group (same
 * kinds, messages and records as the interpreter).  jit_kernel_run is
 * reentrant: callers may run disjoint work-group ranges on several threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jit_internal.h"
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__)
#define JIT_PA_ASM 1
#include <cpuid.h>
#else
#define JIT_PA_ASM 0
#endif
#include "ip_core.h"

/* wgs.nt_min: the smallest region a non-temporal store writes to (J.nt_ok),
 * SPIRV_SG_JIT_NT_MIN bytes, else the size of the last-level cache that
 * cpu0 shares (sysfs; 32 MiB if the system does not say): a smaller output
 * may still be in the cache when the next launch or the host reads it.
 * Not sysconf(_SC_LEVEL3_CACHE_SIZE): glibc gives the whole package's L3
 * there (384 MiB on an EPYC whose cores share 32 MiB). */
static uint64_t nt_min_value;
static bool nt_min_set;   /* SPIRV_SG_JIT_NT_MIN gave it */
static void nt_min_init(void);
/* Read once per process: each range of every launch asks (sysfs reads took
 * a 4M-element reduce at -j 2 from 0.40 to 0.65 ms).  alone: the range is
 * the launch's only thread, which rarely saturates the memory bus, so no
 * non-temporal stores unless the variable asks for them (stencil 1.03x
 * the time with them at -j1, 0.90x at -j2). */
static uint64_t jit_nt_min(bool alone) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, nt_min_init);
  return alone && !nt_min_set ? ~(uint64_t)0 : nt_min_value;
}
static uint64_t nt_min_read(void) {
  const char *e = getenv("SPIRV_SG_JIT_NT_MIN");
  if (e && *e) {
    char *end = NULL;
    unsigned long long v = strtoull(e, &end, 10);
    if (end && !*end) { nt_min_set = true; return (uint64_t)v; }
  }
  uint64_t best = 0;
  for (int i = 0; i < 8; i++) {
    char path[96], buf[32] = "";
    unsigned level = 0;
    unsigned long long kb = 0;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    bool ok = fscanf(f, "%u", &level) == 1;
    fclose(f);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    if (!ok || level < 2 || !(f = fopen(path, "r"))) continue;
    ok = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    char *end = NULL;
    if (ok) kb = strtoull(buf, &end, 10);
    if (!ok || !kb || !end) continue;
    uint64_t bytes = *end == 'M' ? (uint64_t)kb << 20 : *end == 'G' ? (uint64_t)kb << 30 : (uint64_t)kb << 10;
    if (bytes > best) best = bytes;
  }
  return best ? best : (uint64_t)32 << 20;
}
static void nt_min_init(void) { nt_min_value = nt_min_read(); }

typedef jit_ctx jit_sgctx;

typedef struct jit_run {
  jit_wgs w;                 /* first: the compiled loop's view */
  jit_kernel *k;
  ip_launch *l;
  const ip_ndrange *nd;
  jit_region *regions;
  uint32_t n_table;
  uint32_t reg_hi;           /* launch-wide region entries written: [1, reg_hi) */
  uint8_t *args;
  uint32_t n_local;
  uint8_t **local_mem;
  uint64_t *local_size;
  uint32_t group[3];
  uint64_t next_gi;          /* the work-group after the last rt_wg's (its ids: group[] stepped) */
  uint64_t shape[3];         /* work-group size the contexts and lid table were set up for */
  uint32_t n_alloc;          /* subgroup contexts allocated */
  ip_wg *dwg;                /* work-group used to record diagnostics */
  const ip_op **iop;         /* [k->n_insns] the interpreter's op of an insn (rt_interp) */
  uint32_t *iregs;           /* [k->n_insns] regs_per_lane of its function */
  uint8_t *tmp;              /* rt_interp register buffer */
  size_t tmp_cap;
  uint32_t dgroup[3];
  uint64_t next_time;        /* steps value of the next time-limit check */
  bool div_checked;          /* this work-group's barrier-divergence fault is reported */
  uint64_t n_wg;             /* work-groups set up (rt_wg) */
  uint32_t shape_n_sg;       /* subgroups of a work-group of size shape */
} jit_run;

static int32_t *f_mask(const jit_kernel *k, uint8_t *f) { (void)k; return (int32_t *)(void *)f; }
static int32_t *f_tgt(const jit_kernel *k, uint8_t *f) { return (int32_t *)(void *)(f + 4 * k->S); }

static void stop_run(jit_run *r) { r->w.stop = 1; }

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
  if (s->sp >= (int32_t)JIT_MAX_STACK) return false;
  s->stack[s->sp].pc = pc;
  s->stack[s->sp].rpc = rpc;
  s->stack[s->sp].mask = m;
  s->sp++;
  return true;
}

static ip_sg *diag_sg(jit_run *r, uint32_t sgid);

static ip_mask top_mask(const jit_ctx *c) { return c->sp > 0 ? c->stack[c->sp - 1].mask : (ip_mask){{0, 0}}; }

/* The diagnostic subgroup sgid made to look as the interpreter's at
 * instruction index insn (0: none) with lanes act, for ip_fault / ip_mem;
 * scope_leave restores it.  NULL without a work-group to record in. */
typedef struct insn_scope { ip_sg *sg; ip_op op; const ip_op *cur; ip_mask mask; } insn_scope;
static ip_sg *scope_enter(jit_run *r, uint32_t sgid, int32_t insn, ip_mask act, insn_scope *sc) {
  ip_sg *sg = sc->sg = diag_sg(r, sgid);
  if (!sg) return NULL;
  memset(&sc->op, 0, sizeof sc->op);
  sc->op.insn = insn > 0 && (uint32_t)insn < r->k->n_insns ? r->k->insns[insn] : NULL;
  sc->cur = sg->cur;
  sc->mask = sg->mask;
  sg->cur = &sc->op;
  sg->mask = act;
  return sg;
}
static void scope_leave(insn_scope *sc) {
  sc->sg->cur = sc->cur;
  sc->sg->mask = sc->mask;
}

/* One fault record, as the interpreter makes it, for lanes act of subgroup
 * sgid at instruction index insn (0: none).  Returns ip_fault's result
 * (IP_HALT: the launch stops), or IP_HALT without a work-group to record in. */
static int record_fault(jit_run *r, uint32_t sgid, int32_t insn, ip_mask act, ip_diag_kind kind, const char *msg) {
  insn_scope sc;
  ip_sg *sg = scope_enter(r, sgid, insn, act, &sc);
  if (!sg) return IP_HALT;
  int rc = ip_fault(sg, kind, act, 0, "%s", msg);
  scope_leave(&sc);
  return rc;
}

/* A runaway loop: the same fault the interpreter records (IP_FAULT_STEP_LIMIT
 * or IP_FAULT_TIME_LIMIT), then the launch stops.  The compiled code counts
 * branches taken (the interpreter counts instructions; docs/semantics.md,
 * JIT) and calls rt_limit when the count reaches step_check. */
static int32_t limit_fault(jit_run *r, jit_sgctx *s, ip_mask act, ip_diag_kind kind, const char *msg) {
  record_fault(r, s->sg_id, 0, act, kind, msg);
  __atomic_store_n(&r->l->stop, 1, __ATOMIC_RELAXED);
  stop_run(r);
  s->sp = 0;
  return -1;
}

static bool past_time_limit(const ip_launch *L) {
  return L->desc.time_limit > 0 && ip_now() - L->t_start > L->desc.time_limit;
}
static void time_fault(jit_run *r, jit_sgctx *s, ip_mask act) {
  char msg[160];
  snprintf(msg, sizeof msg, "time limit of %g s reached (--timeout SECONDS)", r->l->desc.time_limit);
  limit_fault(r, s, act, IP_FAULT_TIME_LIMIT, msg);
}

/* The step check's fast path: the compiled code's branch count reached
 * step_check.  It reads no memory the compiled code writes and writes none
 * the compiled code reads (the asm statement that calls it through
 * jit_pa_call tells GCC it touches no memory: a "memory" clobber made every
 * store to a lane loop's scratch array in a masked loop live, collatz's x two
 * 64-byte stores a trip).  The next step_check, or 0 where the launch stops;
 * the compiled code then calls jit_rt_limit with its state in memory, which
 * records why. */
int64_t jit_rt_limit_check(jit_ctx *c, uint64_t steps) {
  ip_launch *L = c->run->l;
  if (steps >= L->step_limit || past_time_limit(L) || __atomic_load_n(&L->stop, __ATOMIC_RELAXED)) return 0;
  uint64_t next = steps + 65536;
  return (int64_t)(next < L->step_limit ? next : L->step_limit);
}

int32_t jit_rt_limit(jit_ctx *c, uint8_t *frame, int32_t seg) {
  (void)frame; (void)seg;
  int64_t next = jit_rt_limit_check(c, c->steps);
  if (next) { c->step_check = (uint64_t)next; return 0; }
  /* why, in jit_rt_limit_check's order (each test stays true once true) */
  jit_run *r = c->run;
  ip_launch *L = r->l;
  ip_mask act = top_mask(c);
  if (c->steps >= L->step_limit) {
    char msg[160];
    /* the interpreter's message, with the JIT's unit (docs/semantics.md, JIT) */
    snprintf(msg, sizeof msg, "step limit of %llu branches per subgroup reached (the JIT counts branches; raise "
             "it with --step-limit N)", (unsigned long long)L->step_limit);
    limit_fault(r, c, act, IP_FAULT_STEP_LIMIT, msg);
  } else if (past_time_limit(L)) {
    time_fault(r, c, act);
  } else {
    stop_run(r);
  }
  return 1;
}

/* jit_pa_call: calls the function at %rax with the arguments in %rdi,
 * %rsi, %rdx, %rcx, %r8 and %r9 and returns its %rax, keeping every other
 * register: the general ones it pushes, the x87, SSE, AVX and AVX-512 state
 * (and the mask registers) it saves with XSAVE.  The compiled code calls it
 * from an asm statement on cold paths (host_call in jit_emit.c: the step
 * check of a branch, which calls jit_rt_limit once per 65,536 branches).  To
 * GCC that statement clobbers only %rax and memory, so a loop's induction
 * variables and vectors stay in registers across it: an ordinary call on a
 * side path made GCC keep every value live across it on the stack, on the
 * hot path too (a store and a load per iteration: gemm's inner loop).  It is
 * LLVM's preserve_all convention, which GCC 12 lacks.  The caller has moved
 * %rsp past its red zone; the stack is aligned here. */
#if JIT_PA_ASM
__asm__(".text\n"
        ".p2align 4\n"
        ".globl jit_pa_call\n"
        ".hidden jit_pa_call\n"
        ".type jit_pa_call, @function\n"
        "jit_pa_call:\n"
        "  endbr64\n"
        "  push %rbp\n"
        "  mov %rsp, %rbp\n"
        "  push %rcx\n  push %rdx\n  push %rsi\n  push %rdi\n"
        "  push %r8\n  push %r9\n  push %r10\n  push %r11\n"
        "  mov %rax, %r11\n"
        "  and $-64, %rsp\n"
        "  sub $4096, %rsp\n"
        /* the XSAVE header past the legacy area: zero but for what XSAVE
         * writes (XRSTOR faults on a nonzero reserved field) */
        "  movq $0, 512(%rsp)\n  movq $0, 520(%rsp)\n  movq $0, 528(%rsp)\n  movq $0, 536(%rsp)\n"
        "  movq $0, 544(%rsp)\n  movq $0, 552(%rsp)\n  movq $0, 560(%rsp)\n  movq $0, 568(%rsp)\n"
        "  mov $0xe7, %eax\n"   /* x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM */
        "  xor %edx, %edx\n"
        "  xsave64 (%rsp)\n"
        "  mov -16(%rbp), %rdx\n"
        "  call *%r11\n"
        "  mov %rax, %r11\n"
        "  mov $0xe7, %eax\n"
        "  xor %edx, %edx\n"
        "  xrstor64 (%rsp)\n"
        "  mov %r11, %rax\n"
        "  lea -64(%rbp), %rsp\n"
        "  pop %r11\n  pop %r10\n  pop %r9\n  pop %r8\n"
        "  pop %rdi\n  pop %rsi\n  pop %rdx\n  pop %rcx\n"
        "  pop %rbp\n"
        "  ret\n"
        ".size jit_pa_call, .-jit_pa_call\n");
void jit_pa_call(void);   /* not a C function: see above */
#endif

bool jit_pa_ok(void) {
#if JIT_PA_ASM
  static int ok = -1;
  int v = __atomic_load_n(&ok, __ATOMIC_RELAXED);
  if (v < 0) {
    unsigned a, b, c, d;
    /* XSAVE enabled by the OS (OSXSAVE, CPUID.1:ECX bit 27) */
    v = __get_cpuid(1, &a, &b, &c, &d) && (c >> 27 & 1) && !getenv("SPIRV_SG_JIT_NO_PA");
    __atomic_store_n(&ok, v, __ATOMIC_RELAXED);
  }
  return v;
#else
  return false;
#endif
}

int32_t jit_rt_overflow(jit_ctx *c, uint8_t *frame, int32_t seg) {
  (void)frame; (void)seg;
  jit_run *r = c->run;
  ip_mask act = top_mask(c);
  char msg[96];
  snprintf(msg, sizeof msg, "divergence deeper than the JIT's %u-entry stack", JIT_MAX_STACK);
  record_fault(r, c->sg_id, 0, act, IP_FAULT_UNSUPPORTED, msg);
  stop_run(r);
  c->sp = 0;
  return 1;
}

/* A switch whose active lanes take different targets (tgt[] holds each
 * lane's successor index): the top entry splits as in the interpreter.
 * Returns the next segment (mask[] rewritten) or -1. */
int32_t jit_rt_branch(jit_ctx *c, uint8_t *frame, int32_t seg) {
  jit_sgctx *s = c;
  const jit_kernel *k = c->run->k;
  const jit_seg *sg = &k->seg[seg];
  if (s->sp == 0) return -1;
  jit_entry_s *top = &s->stack[s->sp - 1];
  ip_mask act = top->mask;
  int32_t *tgt = f_tgt(k, frame);
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
    if (!push(s, sg->succ[q], R, m[q])) return jit_rt_overflow(c, frame, seg) ? -1 : -1;
  }
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
  ip_mask one = {{0, 0}};
  ip_mask_set(&one, (uint32_t)lane);
  insn_scope sc;
  ip_sg *sg = scope_enter(r, s->sg_id, insn, one, &sc);
  if (!sg) return NULL;
  void *p = ip_mem(sg, (uint32_t)lane, addr, (uint64_t)size, (uint32_t)align, (ip_access)access);
  scope_leave(&sc);
  if (ip_launch_report(r->l)->stopped) stop_run(r);
  if (!p) return NULL;
  if (reg < a->local_base) return p;   /* launch-wide memory: the same bytes */
  return NULL;
}

/* A branch of a kernel compiled as convergent (no varying branch by the
 * loader's uniformity analysis) found its active lanes disagreeing: the
 * analysis was wrong.  A fault names the branch; the launch stops rather
 * than run on with a wrong mask. */
int32_t jit_rt_diverged(jit_ctx *c, uint8_t *frame, int32_t insn) {
  (void)frame;
  jit_run *r = c->run;
  record_fault(r, c->sg_id, insn, top_mask(c), IP_FAULT_UNSUPPORTED,
               "JIT internal error: a branch proved uniform diverged; rerun with --backend interp");
  stop_run(r);
  c->sp = 0;
  return 1;
}

/* OpUnreachable reached by the active lanes: the interpreter's fault record
 * (the compiled code then removes the lanes, as ip_kill does). */
int32_t jit_rt_unreachable(jit_ctx *c, uint8_t *frame, int32_t insn) {
  (void)frame;
  jit_run *r = c->run;
  ip_mask act = top_mask(c);
  int rc = record_fault(r, c->sg_id, insn, act, IP_FAULT_UNREACHABLE, "OpUnreachable executed");
  if (rc == IP_HALT || ip_launch_report(r->l)->stopped) { stop_run(r); return 1; }
  return 0;
}

/* The per-lane path of a load or store (the compiled fast path did not
 * apply): every active lane's address is in the frame's addr[] scratch, the
 * value's lane array at slot_off; packed = n | cb << 5 | write << 9 | align << 10. */
void jit_rt_ldst(jit_ctx *c, uint8_t *frame, int32_t insn, int32_t slot_off, int32_t size, int32_t packed) {
  jit_run *r = c->run;
  const jit_kernel *k = r->k;
  const ld_addr_layout *a = &k->m->layout;
  uint32_t S = k->S, n = (uint32_t)packed & 31, cb = ((uint32_t)packed >> 5) & 15;
  bool write = ((uint32_t)packed >> 9) & 1;
  uint32_t align = (uint32_t)packed >> 10;
  const int32_t *mask = f_mask(k, frame);
  const uint8_t *ap = frame + (12 * (size_t)S + 7) / 8 * 8;
  for (uint32_t l = 0; l < S; l++) {
    if (!mask[l]) continue;
    uint64_t addr;
    memcpy(&addr, ap + 8 * (size_t)l, 8);
    uint32_t reg = ip_addr_region(a, addr);
    uint64_t off = ip_addr_offset(a, addr);
    uint8_t *p = NULL;
    const jit_region *R = reg < r->n_table ? &r->regions[reg] : NULL;
    if (R && R->base && off + (uint64_t)size <= (write ? R->wsize : R->size) && (align < 2 || (addr & (align - 1)) == 0))
      p = R->base + off;
    else
      p = jit_rt_mem(c, insn, (int32_t)l, addr, size, (int32_t)align, write ? IP_WRITE : IP_READ);
    for (uint32_t q = 0; q < n; q++) {
      uint8_t *v = frame + slot_off + ((size_t)q * S + l) * cb;
      if (write) { if (p) memcpy(p + (size_t)q * cb, v, cb); }
      else if (p) memcpy(v, p + (size_t)q * cb, cb);
      else memset(v, 0, cb);
    }
  }
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
  if (v->type && (v->type->kind == LD_T_IMAGE || v->type->kind == LD_T_SAMPLER)) {
    /* an inlined function's image or sampler parameter, or one loaded from a
     * variable (jit_plan.c: plan_handle_load): its kernel argument */
    if (!to_interp) return;
    for (uint32_t q = 0; q < k->n_handles; q++)
      if (k->handles[q].inst == inst && k->handles[q].id == id)
        for (uint32_t l = 0; l < S; l++) memcpy(dst + (size_t)l * size, r->args + k->arg_off[k->handles[q].arg], size);
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
  uint32_t bu = jit_blob_unit(t);
  if (bu) {   /* an aggregate: n units of bu bytes (jit_internal.h) */
    n = t->size / bu;
    for (uint32_t l = 0; l < S; l++) {
      if (!to_interp && !ip_mask_test(act, l)) continue;
      for (uint32_t c = 0; c < n && (size_t)(c + 1) * bu <= size; c++) {
        uint8_t *fp = s->frame + fo + ((size_t)c * S + l) * bu, *ip = dst + (size_t)l * size + (size_t)c * bu;
        if (to_interp) memcpy(ip, fp, bu); else memcpy(fp, ip, bu);
      }
    }
    return;
  }
  uint32_t cb = ct->kind == LD_T_POINTER ? m->addr_bits / 8 : ct->kind == LD_T_BOOL ? 1 : ct->kind == LD_T_EVENT ? 8 :
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

/* Runs the interpreter's handler of insn idx on subgroup s's active lanes
 * (its frame's mask): operands in, results back.  `resumed`: the second call
 * of a rendezvous handler.  Returns the handler's code, -1 if it could not
 * run (the launch is stopped). */
static int run_handler(jit_run *r, jit_sgctx *s, int32_t idx, bool resumed) {
  const jit_kernel *k = r->k;
  if (idx <= 0 || (uint32_t)idx >= k->n_insns) { stop_run(r); return -1; }
  ip_sg *sg = diag_sg(r, s->sg_id);
  const ip_op *op = find_op(r, idx);
  if (!sg || !op || !op->fn) { stop_run(r); return -1; }
  uint32_t inst = k->insn_inst[idx];
  size_t need = (size_t)r->iregs[idx] * k->S + 16;
  if (need > r->tmp_cap) {
    uint8_t *nt = realloc(r->tmp, need);
    if (!nt) { stop_run(r); return -1; }
    r->tmp = nt;
    r->tmp_cap = need;
  }
  ip_mask act = {{0, 0}};
  int32_t *mask = f_mask(k, s->frame);
  for (uint32_t l = 0; l < k->S; l++) if (mask[l]) ip_mask_set(&act, l);
  /* lanes that left the kernel: in no stack entry (handlers ask ip_live_lanes) */
  ip_mask live = {{0, 0}};
  for (int32_t e = 0; e < s->sp; e++) live = ip_mask_or(live, s->stack[e].mask);
  ip_sgx_of(sg)->exited = ip_mask_andnot(sg->all, live);
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
  for (uint32_t l = 0; l < k->S; l++) sg->priv[l] = s->priv + (size_t)l * r->w.priv_stride;
  uint8_t *saved_regs = sg->regs;
  const ip_op *saved_cur = sg->cur;
  ip_mask saved_mask = sg->mask;
  sg->regs = r->tmp;
  sg->cur = op;
  sg->mask = act;
  sg->resumed = resumed;
  int rc = op->fn(sg, op);
  sg->resumed = false;
  sg->regs = saved_regs;
  sg->cur = saved_cur;
  sg->mask = saved_mask;
  memcpy(sg->priv, saved_priv, sizeof saved_priv);
  for (uint32_t i = 0; i < nl && i < r->n_local; i++) wg->local[i].base = saved_local[i];
  if (op->res_size && k->insns[idx]->result && rc != IP_SUSPEND)
    xfer(r, s, inst, k->insns[idx]->result, NULL, op->res_off, op->res_size, r->tmp, false, act);
  if (rc == IP_HALT || ip_launch_report(r->l)->stopped) { stop_run(r); return IP_HALT; }
  if (rc == IP_JUMPED || (rc == IP_SUSPEND && resumed)) {
    ip_fault(sg, IP_FAULT_UNSUPPORTED, act, 0, "the JIT cannot run this instruction");
    stop_run(r);
    return IP_HALT;
  }
  return rc;
}

int32_t jit_rt_interp(jit_ctx *c, uint8_t *frame, int32_t idx) {
  (void)frame;
  int rc = run_handler(c->run, c, idx, false);
  if (rc == IP_SUSPEND) {
    ip_sg *sg = diag_sg(c->run, c->sg_id);
    if (sg) ip_fault(sg, IP_FAULT_UNSUPPORTED, sg->mask, 0, "the JIT cannot run this instruction");
    stop_run(c->run);
    return 1;
  }
  return rc < 0 || rc == IP_HALT;
}

/* A work-group collective, arrival: the handler deposits this subgroup's
 * values and asks to wait (1), or completes at once (0); 2: stop. */
int32_t jit_rt_wgc(jit_ctx *c, uint8_t *frame, int32_t idx) {
  (void)frame;
  int rc = run_handler(c->run, c, idx, false);
  if (rc < 0 || rc == IP_HALT) return 2;
  if (rc == IP_SUSPEND) { c->wgc_insn = idx; c->run->w.wgc_used = 1; return 1; }
  return 0;
}

/* After a round of the compiled loop in which some subgroups stopped at a
 * barrier or collective: if others have finished, the interpreter's release
 * fault (once per work-group), on the first waiting subgroup, naming the
 * instruction it waits at. */
static int32_t rt_release(jit_wgs *w) {
  jit_run *r = (jit_run *)w;
  if (r->div_checked) return w->stop;
  uint32_t n = (uint32_t)w->n_sg, unfinished = 0, first = n;
  for (uint32_t i = 0; i < n; i++)
    if (w->sgs[i]->sp > 0) { unfinished++; if (first == n) first = i; }
  if (unfinished == n || first == n) return w->stop;
  r->div_checked = true;
  ip_sg *sg = diag_sg(r, first);
  if (!sg) { stop_run(r); return 1; }
  ip_wgx *x = ip_wgx_of(sg->wg);
  if (x->barrier_div_reported) return w->stop;
  x->barrier_div_reported = true;
  char msg[128];
  snprintf(msg, sizeof msg, "work-group barrier reached by %u of %u subgroups (the others have finished)",
           unfinished, n);
  int rc = record_fault(r, first, w->sgs[first]->susp_insn, sg->all, IP_FAULT_BARRIER_DIVERGENCE, msg);
  if (rc == IP_HALT || ip_launch_report(r->l)->stopped) { stop_run(r); return 1; }
  return w->stop;
}

/* After a rendezvous, the first subgroup to resume releases the work-group
 * as the interpreter does (every unfinished subgroup waits at a barrier or a
 * collective; finished ones are reported) and runs the second half of every
 * waiting collective in subgroup order, before any subgroup runs on: the
 * results land in each subgroup's frame.  Later subgroups find nothing to do. */
int32_t jit_rt_wgc_done(jit_ctx *c, uint8_t *frame, int32_t idx) {
  (void)frame; (void)idx;
  if (!c->wgc_insn) return 0;
  jit_run *r = c->run;
  jit_wgs *w = &r->w;
  if (!diag_sg(r, c->sg_id)) { stop_run(r); return 1; }
  ip_wg *wg = r->dwg;
  ip_wgx *x = ip_wgx_of(wg);
  uint32_t n = (uint32_t)w->n_sg < wg->n_subgroups ? (uint32_t)w->n_sg : wg->n_subgroups;
  for (uint32_t i = 0; i < n; i++) {
    wg->sgs[i].done = w->sgs[i]->sp <= 0;
    wg->sgs[i].resumed = false;
    x->sgx[i].arrived = !wg->sgs[i].done;
    /* the instruction a release fault names */
    wg->sgs[i].cur = w->sgs[i]->wgc_insn ? find_op(r, w->sgs[i]->wgc_insn) : NULL;
  }
  ip_wg_release(x);
  for (uint32_t i = 0; i < n; i++) {
    wg->sgs[i].resumed = false;
    wg->sgs[i].cur = NULL;
    jit_sgctx *o = w->sgs[i];
    int32_t q = o->wgc_insn;
    if (!q) continue;
    o->wgc_insn = 0;
    int rc = run_handler(r, o, q, true);
    if (rc < 0 || rc == IP_HALT) return 1;
  }
  return 0;
}

int32_t jit_rt_coll(jit_ctx *c, uint8_t *frame, int32_t idx) {
  jit_sgctx *s = (jit_sgctx *)c;
  const jit_kernel *k = c->run->k;
  int32_t *mask = f_mask(k, frame);
  ip_mask act = {{0, 0}};
  for (uint32_t l = 0; l < k->S; l++) if (mask[l]) ip_mask_set(&act, l);
  if (act.w[0] == s->all[0] && act.w[1] == s->all[1]) return 0;
  return jit_rt_interp(c, frame, idx) ? 1 : 2;
}

/* ------------------------------------------------------------------ run */

/* The region table: 1 << (addr_bits - shift) entries (1.5 MiB with 64-bit
 * addresses), of which a run writes few: launch-wide regions up to
 * reg_hi, the local ones, and the private ones of a subgroup's lanes
 * (emit_priv_regions).  A process-wide pool keeps zeroed tables between
 * runs (a launch makes several runs per thread, one per chunk of
 * work-groups, and its threads are new ones): tbl_take hands one out,
 * tbl_give zeroes those entries and keeps it.  A fresh 1.5 MiB calloc
 * costs a thread about 0.65 ms (its pages faulted in), once per thread and
 * launch before the pool. */
enum { TBL_KEEP = 64 };
static struct { pthread_mutex_t mu; jit_region *t[TBL_KEEP]; uint32_t n[TBL_KEEP]; uint32_t count; bool exit_set; }
  tbl_pool = {PTHREAD_MUTEX_INITIALIZER, {0}, {0}, 0, false};
/* At exit, or when the library is unloaded (atexit in a shared object runs
 * at dlclose). */
static void tbl_exit(void) {
  pthread_mutex_lock(&tbl_pool.mu);
  for (uint32_t i = 0; i < tbl_pool.count; i++) free(tbl_pool.t[i]);
  tbl_pool.count = 0;
  pthread_mutex_unlock(&tbl_pool.mu);
}
static jit_region *tbl_take(uint32_t n) {
  jit_region *t = NULL;
  pthread_mutex_lock(&tbl_pool.mu);
  if (!tbl_pool.exit_set) {
    tbl_pool.exit_set = true;
    atexit(tbl_exit);
  }
  for (uint32_t i = tbl_pool.count; i-- > 0;)
    if (tbl_pool.n[i] == n) {
      t = tbl_pool.t[i];
      tbl_pool.t[i] = tbl_pool.t[tbl_pool.count - 1];
      tbl_pool.n[i] = tbl_pool.n[tbl_pool.count - 1];
      tbl_pool.count--;
      break;
    }
  pthread_mutex_unlock(&tbl_pool.mu);
  return t ? t : calloc(n, sizeof(jit_region));
}
static void tbl_give(jit_run *r) {
  jit_region *t = r->regions;
  if (!t) return;
  r->regions = NULL;
  const ld_addr_layout *a = &r->k->m->layout;
  uint32_t n = r->n_table;
  uint32_t hi = r->reg_hi < n ? r->reg_hi : n;
  memset(t, 0, (size_t)hi * sizeof *t);
  for (uint32_t i = 0; i < r->n_local && a->local_base + i < n; i++) memset(&t[a->local_base + i], 0, sizeof *t);
  if (a->priv_base < n) {
    uint32_t np = n - a->priv_base < r->k->S ? n - a->priv_base : r->k->S;
    memset(&t[a->priv_base], 0, (size_t)np * sizeof *t);
  }
  pthread_mutex_lock(&tbl_pool.mu);
  if (tbl_pool.count < TBL_KEEP) {
    tbl_pool.t[tbl_pool.count] = t;
    tbl_pool.n[tbl_pool.count++] = n;
    t = NULL;
  }
  pthread_mutex_unlock(&tbl_pool.mu);
  free(t);
}

static void run_free(jit_run *r) {
  if (r->dwg) ip_wg_end(r->dwg);
  for (uint32_t i = 0; i < r->n_alloc; i++) {
    if (!r->w.sgs[i]) continue;
    free(r->w.sgs[i]->frame);
    free(r->w.sgs[i]->priv);
    free(r->w.sgs[i]);
  }
  free(r->w.sgs);
  free(r->w.lid);
  free(r->iop);
  free(r->iregs);
  free(r->tmp);
  for (uint32_t i = 0; i < r->n_local; i++) free(r->local_mem[i]);
  free(r->local_mem);
  free(r->local_size);
  tbl_give(r);
  free(r->args);
}

static jit_sgctx *sg_new(jit_run *r, uint32_t id) {
  const jit_kernel *k = r->k;
  jit_sgctx *s = aligned_alloc(64, (sizeof *s + 63) & ~(size_t)63);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  s->frame = aligned_alloc(64, k->frame_size);
  s->priv = calloc(k->S, r->w.priv_stride);
  if (!s->frame || !s->priv) {
    free(s->frame); free(s->priv); free(s);
    return NULL;
  }
  memset(s->frame, 0, k->frame_size);
  s->regions = r->regions;
  s->wg = &r->w;
  s->args = r->args;
  s->rt_branch = jit_rt_branch;
  s->rt_mem = jit_rt_mem;
  s->rt_group = jit_rt_group;
  s->rt_interp = jit_rt_interp;
  s->rt_coll = jit_rt_coll;
  s->rt_limit = jit_rt_limit;
  s->rt_overflow = jit_rt_overflow;
  s->rt_ldst = jit_rt_ldst;
  s->rt_unreachable = jit_rt_unreachable;
  s->rt_wgc = jit_rt_wgc;
  s->rt_wgc_done = jit_rt_wgc_done;
  s->rt_diverged = jit_rt_diverged;
#if JIT_PA_ASM
  s->rt_pa_call = jit_pa_call;
#endif
  s->rt_limit_check = jit_rt_limit_check;
  s->sg_id = id;
  s->run = r;
  return s;
}

/* Work-group gi: built-in values, subgroup contexts for its shape (edge
 * work-groups are smaller), zeroed local and private memory.  Called by the
 * compiled loop once per work-group; returns the subgroup count or -1. */
static int64_t rt_wg(jit_wgs *w, uint64_t gi) {
  jit_run *r = (jit_run *)w;
  const jit_kernel *k = r->k;
  const ip_ndrange *nd = r->nd;
  if (w->stop || __atomic_load_n(&r->l->stop, __ATOMIC_RELAXED)) { stop_run(r); return -1; }
  bool time_up = false;
  if (gi && gi == r->next_gi) {   /* the next one: step the ids (no division) */
    if (++r->group[0] == nd->groups[0]) {
      r->group[0] = 0;
      if (++r->group[1] == nd->groups[1]) { r->group[1] = 0; r->group[2]++; }
    }
  } else {
    r->group[0] = (uint32_t)(gi % nd->groups[0]);
    r->group[1] = (uint32_t)(gi / nd->groups[0] % nd->groups[1]);
    r->group[2] = (uint32_t)(gi / nd->groups[0] / nd->groups[1]);
  }
  r->next_gi = gi + 1;
  /* the time limit, every 64 work-groups of this thread (the interpreter
   * checks it as each subgroup starts): rt_limit sees it only when one
   * subgroup takes 65536 branches, and never in a kernel without loops
   * (k->no_steps), so a huge NDRange of short work-groups stops here */
  if (r->l->desc.time_limit > 0 && (r->n_wg++ & 63) == 0 && past_time_limit(r->l))
    time_up = true;
  for (int d = 0; d < 3; d++) {
    w->group[d] = r->group[d];
    size_t lo = (size_t)r->group[d] * nd->local[d];
    size_t rem = nd->global[d] > lo ? nd->global[d] - lo : 0;
    w->wsize[d] = rem < nd->local[d] ? rem : nd->local[d];
    if (w->wsize[d] == 0) w->wsize[d] = 1;
  }
  uint64_t items = w->wsize[0] * w->wsize[1] * w->wsize[2];
  uint32_t S = k->S;
  bool reshape = memcmp(r->shape, w->wsize, sizeof r->shape) != 0;
  uint32_t n_sg = reshape ? (uint32_t)((items + S - 1) / S) : r->shape_n_sg;
  if (reshape) {
    if (n_sg > r->n_alloc) {
      jit_sgctx **ns = realloc(w->sgs, n_sg * sizeof *ns);
      if (!ns) { stop_run(r); return -1; }
      w->sgs = ns;
      for (uint32_t i = r->n_alloc; i < n_sg; i++) w->sgs[i] = NULL;
      for (uint32_t i = r->n_alloc; i < n_sg; i++) {
        w->sgs[i] = sg_new(r, i);
        if (!w->sgs[i]) { r->n_alloc = i; stop_run(r); return -1; }
      }
      r->n_alloc = n_sg;
    }
    uint64_t cap = (uint64_t)n_sg * S;
    if (cap > w->lid_cap) {
      uint32_t *nl = realloc(w->lid, 3 * cap * sizeof *nl);
      if (!nl) { stop_run(r); return -1; }
      w->lid = nl;
    }
    w->lid_cap = cap;
    for (uint64_t lin = 0; lin < cap; lin++) {
      w->lid[lin] = (uint32_t)(lin % w->wsize[0]);
      w->lid[cap + lin] = (uint32_t)(lin / w->wsize[0] % w->wsize[1]);
      w->lid[2 * cap + lin] = (uint32_t)(lin / (w->wsize[0] * w->wsize[1]));
    }
    for (uint32_t i = 0; i < n_sg; i++) {
      jit_sgctx *s = w->sgs[i];
      uint64_t left = items - (uint64_t)i * S;
      s->n_lanes = (uint32_t)(left < S ? left : S);
      ip_mask all = ip_mask_first_n(s->n_lanes);
      s->all[0] = all.w[0];
      s->all[1] = all.w[1];
      if (k->lean_stack) {   /* the compiled code keeps it (jit_kernel.lean_stack) */
        s->stack[0] = (jit_entry_s){k->inst[0].block_seg[0], -1, all};
        s->sp = 1;
      }
    }
    memcpy(r->shape, w->wsize, sizeof r->shape);
    r->shape_n_sg = n_sg;
  }
  w->n_sg = n_sg;
  for (uint32_t i = 0; i < r->n_local; i++) memset(r->local_mem[i], 0, r->local_size[i]);
  if (k->priv_bytes)
    for (uint32_t i = 0; i < n_sg; i++) memset(w->sgs[i]->priv, 0, (size_t)S * w->priv_stride);
  if (w->wgc_used)   /* some subgroup waited at a work-group collective */
    for (uint32_t i = 0; i < n_sg; i++) w->sgs[i]->wgc_insn = 0;
  w->wgc_used = 0;
  r->div_checked = false;
  if (time_up) {   /* as jit_rt_limit reports it, at the first subgroup */
    time_fault(r, w->sgs[0], ip_mask_first_n(w->sgs[0]->n_lanes));
    return -1;
  }
  return n_sg;
}

bool jit_launch_full(const ip_ndrange *nd) {
  if (!nd || !nd->sg_size) return false;
  uint64_t items = (uint64_t)nd->local[0] * nd->local[1] * nd->local[2];
  if (!items || items % nd->sg_size) return false;
  for (int d = 0; d < 3; d++)
    if (!nd->local[d] || nd->global[d] % nd->local[d]) return false;
  return true;
}

bool jit_launch_linear_x(const ip_ndrange *nd) {
  if (!nd || !nd->sg_size) return false;
  if (nd->local[1] <= 1 && nd->local[2] <= 1) return true;
  /* every work-group's x size (a remainder one's too) a multiple of S */
  return nd->local[0] % nd->sg_size == 0 && (nd->global[0] % nd->local[0]) % nd->sg_size == 0;
}

/* Deferred atomics (jit_kernel.defer): while other threads run the launch,
 * slot s's argument gets a zeroed private copy of its buffer for this run's
 * additions, if the buffer is at most JIT_DEFER_MAX_BYTES and no other
 * pointer argument points into it; defer_end adds the copy into the buffer
 * (atomically: other runs add theirs at the same time).  The additions a
 * run's per-lane slow path makes go to the buffer itself. */
static void defer_begin(jit_run *r, uint32_t s) {
  const jit_kernel *k = r->k;
  const ld_addr_layout *a = &k->m->layout;
  const ld_function *kf = k->k->fn;
  uint32_t arg = k->defer[s].arg;
  uint64_t p, q;
  memcpy(&p, r->args + k->arg_off[arg], sizeof p);
  uint64_t reg = p >> a->shift;
  if (reg == 0 || reg >= a->local_base || reg >= r->n_table) return;
  const jit_region *R = &r->regions[reg];
  if (!R->base || !R->size || R->wsize != R->size || R->size > JIT_DEFER_MAX_BYTES) return;
  for (uint32_t b = 0; b < kf->n_params; b++) {
    const ld_type *t = k->m->values[kf->params[b]].type;
    if (b == arg || !t || t->kind != LD_T_POINTER) continue;
    memcpy(&q, r->args + k->arg_off[b], sizeof q);
    if (q >> a->shift == reg) return;
  }
  uint8_t *copy = calloc(1, R->size);
  if (!copy) return;
  r->w.defer_reg[s] = reg;
  r->w.defer_base[s] = copy;
}
static void defer_end(jit_run *r, uint32_t s) {
  uint8_t *copy = r->w.defer_base[s];
  if (!copy) return;
  const jit_region *R = &r->regions[r->w.defer_reg[s]];
  uint32_t w = r->k->defer[s].width;
  for (uint64_t o = 0; o + w <= R->size; o += w) {
    if (w == 4) {
      uint32_t v;
      memcpy(&v, copy + o, 4);
      if (v) __atomic_fetch_add((uint32_t *)(void *)(R->base + o), v, __ATOMIC_SEQ_CST);
    } else {
      uint64_t v;
      memcpy(&v, copy + o, 8);
      if (v) __atomic_fetch_add((uint64_t *)(void *)(R->base + o), v, __ATOMIC_SEQ_CST);
    }
  }
  free(copy);
  r->w.defer_base[s] = NULL;
  r->w.defer_reg[s] = 0;
}

ip_result jit_kernel_run(jit_kernel *k, ip_launch *l, uint64_t first, uint64_t count) {
  if (!k || !l || !k->groups) return IP_ERR_ARGS;
  jit_run run, *r = &run;
  memset(r, 0, sizeof *r);
  r->k = k;
  r->l = l;
  r->w.run = r;
  r->w.rt_wg = rt_wg;
  r->w.rt_release = rt_release;
  r->nd = ip_launch_ndrange(l);
  const ip_ndrange *nd = r->nd;
  const ld_module *m = k->m;
  const ld_addr_layout *a = &m->layout;
  if (!nd || nd->sg_size != k->S) return IP_ERR_ARGS;
  if (k->full_only && !jit_launch_full(nd)) return IP_ERR_ARGS;   /* compiled for another launch shape */
  if (k->linear_x && !jit_launch_linear_x(nd)) return IP_ERR_ARGS;
  if (k->no_steps && l->step_limit < k->max_branches) return IP_ERR_ARGS;   /* compiled for a higher limit */
  uint64_t total = (uint64_t)nd->groups[0] * nd->groups[1] * nd->groups[2];
  if (first >= total || count == 0) return IP_OK;
  if (count > total - first) count = total - first;
  ip_result res = IP_OK;
  for (int d = 0; d < 3; d++) {
    r->w.local[d] = nd->local[d];
    r->w.global[d] = nd->global[d];
    r->w.offset[d] = nd->offset[d];
    r->w.groups[d] = nd->groups[d];
  }
  r->w.dim = nd->dim;
  uint64_t enq = (uint64_t)nd->local[0] * nd->local[1] * nd->local[2];
  r->w.enq_sg = (enq + k->S - 1) / k->S;
  r->w.step_check = l->step_limit < 65536 ? l->step_limit : 65536;
  r->w.alone = ip_launch_range_threads(l) == 1;   /* plain global atomics (emit_atomic) */
  r->w.nt_min = jit_nt_min(r->w.alone);

  /* region table, arguments and local sizes from a work-group of the interpreter */
  r->n_table = 1u << (m->addr_bits - a->shift);
  r->regions = tbl_take(r->n_table);
  r->args = calloc(1, k->args_bytes + 16);
  r->iop = calloc(k->n_insns + 1, sizeof *r->iop);
  r->iregs = calloc(k->n_insns + 1, sizeof *r->iregs);
  if (!r->regions || !r->args || !r->iop || !r->iregs) { res = IP_ERR_NOMEM; goto out; }
  r->w.regions = r->regions;
  r->w.args = r->args;
  r->w.priv_stride = (k->priv_bytes > l->priv_size ? k->priv_bytes : l->priv_size);
  r->w.priv_stride = (r->w.priv_stride + 15) & ~(uint64_t)15;
  if (!r->w.priv_stride) r->w.priv_stride = 16;
  /* launch-wide values: copied from the launch cache, or (a launch's first
   * run) read from a work-group of the interpreter and cached */
  uint64_t serial = ip_launch_serial(l);
  pthread_mutex_lock(&k->lc_mu);
  bool cached = serial && k->lc_serial == serial;
  if (cached) {
    memcpy(r->args, k->lc_args, k->args_bytes);
    uint32_t hi = k->lc_reg_hi < r->n_table ? k->lc_reg_hi : r->n_table;
    if (hi) memcpy(r->regions, k->lc_reg, (size_t)hi * sizeof *r->regions);
    r->reg_hi = hi;
    r->n_local = k->lc_n_local;
    r->local_size = calloc(r->n_local + 1, sizeof *r->local_size);
    if (r->local_size && r->n_local) memcpy(r->local_size, k->lc_local_size, r->n_local * sizeof *r->local_size);
  }
  pthread_mutex_unlock(&k->lc_mu);
  if (!cached) {
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
    /* launch-wide regions: the global-class variables, then the buffer and
     * image arguments (ld.h) */
    uint64_t greg = 1 + (uint64_t)m->n_global_vars + k->k->n_args;
    for (uint32_t reg = 1; sg0 && reg < a->local_base && reg < r->n_table && reg < greg; reg++) {
      const ip_region *R = ip_region_of(sg0, 0, ip_addr_make(a, reg, 0));
      if (!R) continue;
      r->regions[reg].base = R->base;
      r->regions[reg].size = R->size;
      r->regions[reg].wsize = R->writable ? R->size : 0;
      r->reg_hi = reg + 1;
    }
    r->n_local = wg->n_local;
    r->local_size = calloc(r->n_local + 1, sizeof *r->local_size);
    for (uint32_t i = 0; r->local_size && i < r->n_local; i++) r->local_size[i] = wg->local[i].size;
    ip_wg_end(wg);
    /* for the launch's other runs (a failed allocation only skips this) */
    uint8_t *ca = malloc(k->args_bytes + 16);
    jit_region *cr = malloc(((size_t)r->reg_hi + 1) * sizeof *cr);
    uint64_t *cl = malloc(((size_t)r->n_local + 1) * sizeof *cl);
    if (ca && cr && cl && r->local_size) {
      memcpy(ca, r->args, k->args_bytes);
      memcpy(cr, r->regions, (size_t)r->reg_hi * sizeof *cr);
      if (r->n_local) memcpy(cl, r->local_size, r->n_local * sizeof *cl);
      pthread_mutex_lock(&k->lc_mu);
      free(k->lc_args); free(k->lc_reg); free(k->lc_local_size);
      k->lc_args = ca; k->lc_reg = cr; k->lc_local_size = cl;
      k->lc_reg_hi = r->reg_hi;
      k->lc_n_local = r->n_local;
      k->lc_serial = serial;
      pthread_mutex_unlock(&k->lc_mu);
    } else {
      free(ca); free(cr); free(cl);
    }
  }
  r->local_mem = calloc(r->n_local + 1, sizeof *r->local_mem);
  if (!r->local_mem || !r->local_size) { res = IP_ERR_NOMEM; goto out; }
  for (uint32_t i = 0; i < r->n_local; i++) {
    r->local_mem[i] = calloc(1, r->local_size[i] ? r->local_size[i] : 1);
    if (!r->local_mem[i]) { res = IP_ERR_NOMEM; goto out; }
    uint32_t reg = a->local_base + i;
    if (reg < r->n_table) {
      r->regions[reg].base = r->local_mem[i];
      r->regions[reg].size = r->regions[reg].wsize = r->local_size[i];
    }
  }
  /* the loops over work-groups and subgroups are compiled code */
  for (uint32_t s = 0; s < k->n_defer && !r->w.alone; s++) defer_begin(r, s);
  k->groups(&r->w, first, count);
#if defined(__x86_64__) || defined(__i386__)
  /* the non-temporal stores (J.nt_ok) are weakly ordered: complete them
   * before this thread signals the end of its range */
  __asm__ __volatile__("sfence" ::: "memory");
#endif
  for (uint32_t s = 0; s < k->n_defer; s++) defer_end(r, s);
out:
  run_free(r);   /* commits the diagnostic work-group */
  if (res == IP_OK && (r->w.stop || ip_launch_report(l)->n_faults)) res = IP_FAULTED;
  return res;
}
