/* jit.c - lowering the loader's IR to libgccjit, compiling, caching.
 *
 * DESIGN
 *
 * Lane values.  A compiled kernel runs one subgroup of S lanes per call.  Every
 * SSA value (result or callee parameter) of every inlined function instance
 * owns a field in a per-subgroup frame struct: T v[S] for a scalar, T v[n][S]
 * for an n-component vector (structure of arrays, so a component is one
 * contiguous lane array).  Instructions become lane loops
 *     for (l = 0; l < S; l++) r[l] = blend(mask[l], a[l] + b[l], r[l]);
 * which GCC auto-vectorizes (every lane is written, so no masked store is
 * needed).  Constants and kernel arguments are
 * uniform rvalues / locals.  bool is one byte; integers are held unsigned in
 * their container (8/16/32/64) and cast to signed for signed operations;
 * pointers are the encoded addresses of ld.h (u64 or u32).
 *
 * Divergence.  The frame starts with int32 mask[S] (active lanes), tgt[S]
 * (each lane's successor index at a switch), pred[S] (each lane's last
 * predecessor segment, for OpPhi) and u64 addr[S] (addresses of the memory
 * access being made).  Blocks are cut into segments at calls and work-group
 * barriers; every segment is a label and a case of a dispatch switch.  The
 * SIMT stack of the interpreter (IPDOM stack: entries {pc, rpc, mask},
 * reconvergence at ld_block.reconverge, function exit when NULL) lives in
 * jit_ctx and the compiled code drives it: a branch whose active lanes agree
 * jumps straight to the target's label (unless the target is the top entry's
 * reconvergence point); a divergent two-way branch splits the top entry
 * exactly as the interpreter does (false side pushed first, so the true side
 * runs first); the "settle" block pops finished entries, rewrites mask[] and
 * dispatches.  Only a divergent OpSwitch calls the host (rt_branch).  Every
 * branch counts toward the step limit; rt_limit checks it (and the time
 * limit) every 65536 branches.
 *
 * Functions.  Every OpFunctionCall is inlined as a new instance (own value
 * fields, own private-memory area, zeroed at the call as the interpreter
 * does); the call pushes an entry for the callee whose reconvergence point is
 * the caller's continuation segment; OpReturn removes the returning lanes from
 * the instance's entries.  Recursion falls back.  Image and sampler
 * parameters are resolved at plan time to the kernel argument they carry.
 *
 * Loops and barriers.  sg_groups() loops over the launch's work-groups (one
 * host call per work-group, rt_wg, sets up its built-in values and zeroes
 * local memory) and over their subgroups.  The frame holds all state, so
 * sg_kernel() is resumable: a work-group barrier moves the top entry to the
 * continuation segment and returns JIT_RET_SUSPEND; the loop runs every
 * subgroup up to the barrier, then resumes the waiting ones in order.
 * Work-group collectives (Workgroup-scope group operations, async copies)
 * are rendezvous too: on arrival rt_wgc runs the interpreter's handler,
 * which deposits the subgroup's values in the work-group scratch and asks to
 * wait; the segment after the collective starts with rt_wgc_done, where the
 * first resuming subgroup releases the work-group (ip_wg_release) and runs
 * the handler's second half for every waiting subgroup, in order, writing
 * results into their frames before any of them runs on (the interpreter's
 * order).  Built-in variables are computed inline from jit_wgs and the lane.
 *
 * Other values.  Events are opaque 8-byte lane values; structs and arrays
 * are lane values of up to 16 units in their memory layout (jit_blob_unit):
 * loads, stores, phis and selects move them natively, member access runs the
 * interpreter's handler.  Images and samplers are never lane values: each
 * use is resolved at plan time to the kernel argument it carries, through
 * calls and through a Function variable that holds one (clang -O0).
 *
 * Lane loops.  Each instruction is a loop over the S lanes with a branch-free
 * bitwise blend under mask[] (mblend), which GCC vectorizes with the dynamic
 * cost model.  Kernels above JIT_BIG_KERNEL statements compile at -O1 with
 * the vectorizer (less compile time, and faster code for large kernels).
 *
 * Memory.  A subgroup-wide fast path first: all lanes active, all addresses
 * in one region, in bounds and aligned -> unchecked per-lane accesses (one
 * memcpy when the addresses are consecutive); a Function variable of the
 * instance itself is each lane's own private bytes.  Otherwise the per-lane
 * path (jit_rt_ldst, host) asks the interpreter's own ip_mem for every access
 * the region table does not prove legal (same fault kinds, same ip_diag
 * records; loads yield zero, stores are dropped).
 *
 * Subgroup operations.  Group/GroupNonUniform IAdd and FAdd (reduce, scans)
 * are inline cross-lane loops combining active lanes in increasing lane
 * order; other arithmetic group operations call the shared reference
 * ip_group_arith_eval through rt_group.  Intel shuffles, OpGroupBroadcast,
 * ballot and ballot bit count, buffer block reads/writes and 32/64-bit
 * integer atomics have inline fast paths taken when the interpreter would
 * record no diagnostic (whole subgroup active, indices in range, uniform
 * operands, aligned in-bounds memory); otherwise, and for every other
 * instruction, the interpreter's own handler runs on the subgroup's lanes
 * (rt_interp copies operands in and the result out), so UB and faults are
 * recorded exactly as the interpreter records them.
 *
 * Anything else makes jit_kernel_compile return NULL with one reason.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgccjit.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "spv.h"
#include "jit_stamp.h"
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "jit_internal.h"
#include <spirv/unified1/OpenCL.std.h>

#define JIT_ABI_VERSION 6u
/* IR statements above which a kernel compiles at -O1 -ftree-vectorize: for
 * transpose (940) and gemm (1764) of bench/ that compiles in 60% of the time
 * of -O2 and runs 1.4-1.8x faster; small kernels keep -O2 (reduce, scan,
 * saxpy ran 10-35% slower at -O1). */
#define JIT_BIG_KERNEL 600u
#define JIT_CACHE_MAGIC "SGJIT001"

/* ------------------------------------------------------------- utilities */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void logf_(const jit_options *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(const jit_options *o, const char *fmt, ...) {
  if (!o || !o->log) return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n > sizeof buf - 2) n = (int)sizeof buf - 2;
  buf[n++] = '\n';
  o->log(o->log_user, buf, (size_t)n);
}

static uint64_t fnv64(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 0x100000001b3ull; }
  return h;
}

/* ------------------------------------------------------ target flags (-m) */

static pthread_mutex_t g_flags_lock = PTHREAD_MUTEX_INITIALIZER;
static char *g_mflags;           /* space-separated -m flags for this CPU */

static uint64_t cpu_hash(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  uint64_t h = 0xcbf29ce484222325ull;
  if (!f) return h;
  char line[4096];
  int seen = 0;
  while (fgets(line, sizeof line, f) && seen < 2) {
    if (!strncmp(line, "model name", 10) || !strncmp(line, "flags", 5)) {
      h = fnv64(h, line, strlen(line));
      seen++;
    }
  }
  fclose(f);
  return h;
}

static char *detect_mflags(void) {
  FILE *p = popen("gcc -march=native -E -v - </dev/null 2>&1", "r");
  if (!p) return strdup("");
  char *line = NULL, *out = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, p) > 0) {
    if (!strstr(line, "cc1") || !strstr(line, "-march=")) continue;
    size_t n = strlen(line);
    out = malloc(n + 1);
    if (!out) break;
    out[0] = 0;
    for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
      if (tok[0] == '-' && tok[1] == 'm' && strncmp(tok, "-march=native", 13)) {
        if (out[0]) strcat(out, " ");
        strcat(out, tok);
      }
    }
    break;
  }
  free(line);
  pclose(p);
  return out ? out : strdup("");
}

static void cache_dir_of(const jit_options *o, char *buf, size_t size) {
  buf[0] = 0;
  if (o && o->cache_dir) { snprintf(buf, size, "%s", o->cache_dir); return; }
  const char *x = getenv("XDG_CACHE_HOME");
  if (x && *x) { snprintf(buf, size, "%s/spirv-sg", x); return; }
  const char *h = getenv("HOME");
  if (h && *h) snprintf(buf, size, "%s/.cache/spirv-sg", h);
}

static void mkdirs(const char *dir) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", dir);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') { *p = 0; mkdir(tmp, 0755); *p = '/'; }
  mkdir(tmp, 0755);
}

/* The -m flags, from memory, the cache dir (keyed by the CPU) or gcc. */
static const char *target_flags(const char *cdir) {
  pthread_mutex_lock(&g_flags_lock);
  if (!g_mflags) {
    uint64_t ch = cpu_hash();
    char path[4200];
    path[0] = 0;
    if (cdir[0]) {
      snprintf(path, sizeof path, "%s/mflags-%016llx.txt", cdir, (unsigned long long)ch);
      FILE *f = fopen(path, "r");
      if (f) {
        char buf[8192];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = 0;
        if (n > 0 && !strncmp(buf, "-m", 2)) {
          buf[strcspn(buf, "\n")] = 0;
          g_mflags = strdup(buf);
        }
      }
    }
    if (!g_mflags) {
      g_mflags = detect_mflags();
      if (path[0] && g_mflags && g_mflags[0]) {
        mkdirs(cdir);
        char tmp[4300];
        snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
        FILE *f = fopen(tmp, "w");
        if (f) {
          fprintf(f, "%s\n", g_mflags);
          if (fclose(f) == 0) rename(tmp, path); else unlink(tmp);
        }
      }
    }
  }
  pthread_mutex_unlock(&g_flags_lock);
  return g_mflags ? g_mflags : "";
}

/* ------------------------------------------------------------------ plan */

typedef struct plan_err { char *buf; size_t size; bool failed; } plan_err;

static bool failf(plan_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool failf(plan_err *e, const char *fmt, ...) {
  if (e->failed) return false;
  e->failed = true;
  va_list ap;
  va_start(ap, fmt);
  if (e->size) vsnprintf(e->buf, e->size, fmt, ap);
  va_end(ap);
  return false;
}

static const char *opname(SpvOp op) {
  static __thread char b[32];
  snprintf(b, sizeof b, "opcode %u", (unsigned)op);
  return b;
}

/* Shape of a lane value: component type and count; false if not a lane value. */
/* Integer lane types of 1, 2, 4, 8 bytes standing for aggregates' units
 * (jit_blob_unit) and for events (opaque 8-byte values, as in the
 * interpreter's ip_value_size). */
static const ld_type blob_units[4] = {
  {.kind = LD_T_INT, .size = 1, .align = 1, .width = 8, .n_comp = 1},
  {.kind = LD_T_INT, .size = 2, .align = 2, .width = 16, .n_comp = 1},
  {.kind = LD_T_INT, .size = 4, .align = 4, .width = 32, .n_comp = 1},
  {.kind = LD_T_INT, .size = 8, .align = 8, .width = 64, .n_comp = 1}};

static bool lane_shape(const ld_type *t, const ld_type **comp, uint32_t *n) {
  *comp = t;   /* defined even when t is not a lane value */
  *n = 1;
  if (!t) return false;
  switch (t->kind) {
  case LD_T_STRUCT: case LD_T_ARRAY: {
    uint32_t u = jit_blob_unit(t);
    if (!u) return false;
    *comp = &blob_units[u == 8 ? 3 : u == 4 ? 2 : u == 2 ? 1 : 0];
    *n = t->size / u;
    return true;
  }
  case LD_T_EVENT:
    *comp = &blob_units[3]; return true;
  case LD_T_BOOL: case LD_T_INT: case LD_T_POINTER:
    *comp = t; *n = 1; return true;
  case LD_T_FLOAT:
    if (t->width != 16 && t->width != 32 && t->width != 64) return false;
    *comp = t; *n = 1; return true;
  case LD_T_VECTOR:
    if (!t->elem || t->elem->kind == LD_T_VECTOR || t->count == 0 || t->count > 16) return false;
    if (t->elem->kind == LD_T_FLOAT && t->elem->width != 16 && t->elem->width != 32 && t->elem->width != 64) return false;
    *comp = t->elem; *n = t->count; return true;
  default:
    return false;
  }
}

static uint32_t comp_bytes(const jit_kernel *k, const ld_type *c) {
  if (c->kind == LD_T_POINTER) return k->m->addr_bits / 8;
  if (c->kind == LD_T_BOOL) return 1;
  uint32_t w = c->width;
  return w <= 8 ? 1 : w <= 16 ? 2 : w <= 32 ? 4 : 8;
}

static int32_t new_seg(jit_kernel *k, uint32_t inst, const ld_block *b, uint32_t first) {
  if (k->n_seg == k->cap_seg) {
    uint32_t nc = k->cap_seg ? k->cap_seg * 2 : 64;
    jit_seg *ns = realloc(k->seg, nc * sizeof *ns);
    if (!ns) return -1;
    k->seg = ns;
    k->cap_seg = nc;
  }
  jit_seg *s = &k->seg[k->n_seg];
  memset(s, 0, sizeof *s);
  s->inst = inst;
  s->blk = b;
  s->first = first;
  s->n_succ = -1;
  s->rpc = -1;
  return (int32_t)k->n_seg++;
}

static bool is_wg_barrier(const ld_module *m, const ld_insn *in) {
  if (in->op != SpvOpControlBarrier || in->n_ops < 1) return false;
  const ld_value *v = &m->values[in->ops[0]];
  if (v->kind != LD_V_CONSTANT) return true;
  uint32_t scope;
  memcpy(&scope, v->u.bytes, 4);
  return scope != SpvScopeSubgroup;
}

static bool builtin_supported(int32_t b) {
  switch (b) {
  case SpvBuiltInGlobalInvocationId: case SpvBuiltInLocalInvocationId:
  case SpvBuiltInWorkgroupId: case SpvBuiltInNumWorkgroups: case SpvBuiltInWorkgroupSize:
  case SpvBuiltInEnqueuedWorkgroupSize: case SpvBuiltInGlobalSize: case SpvBuiltInGlobalOffset:
  case SpvBuiltInGlobalLinearId: case SpvBuiltInLocalInvocationIndex:
  case SpvBuiltInSubgroupSize: case SpvBuiltInSubgroupMaxSize: case SpvBuiltInNumSubgroups:
  case SpvBuiltInNumEnqueuedSubgroups: case SpvBuiltInSubgroupId:
  case SpvBuiltInSubgroupLocalInvocationId: case SpvBuiltInWorkDim:
  case SpvBuiltInSubgroupEqMask: case SpvBuiltInSubgroupGeMask: case SpvBuiltInSubgroupGtMask:
  case SpvBuiltInSubgroupLeMask: case SpvBuiltInSubgroupLtMask:
    return true;
  default:
    return false;
  }
}

static uint32_t const_u32(const ld_module *m, uint32_t id, bool *ok) {
  const ld_value *v = &m->values[id];
  if (v->kind != LD_V_CONSTANT || !v->type || v->type->kind != LD_T_INT) { *ok = false; return 0; }
  uint64_t x = 0;
  memcpy(&x, v->u.bytes, v->type->size < 8 ? v->type->size : 8);
  return (uint32_t)x;
}

static bool is_half(const ld_type *t) {
  if (t && t->kind == LD_T_VECTOR) t = t->elem;
  return t && t->kind == LD_T_FLOAT && t->width == 16;
}

/* Operations the lowering compiles inline (the plan checks operand shapes
 * loosely; the code generator rejects the rest).  Everything else that the
 * interpreter executes per instruction goes through rt_interp (generic_ok). */
static bool native_ok_(const ld_module *m, const ld_insn *in, plan_err *e);
/* True if the result carries a decoration that changes a conversion's
 * semantics (FPRoundingMode, SaturatedConversion): such instructions run the
 * interpreter's handler, which implements both exactly. */
static bool has_conversion_decoration(const ld_module *m, uint32_t id) {
  if (!id) return false;
  for (uint32_t i = 0; i < m->n_decorations; i++) {
    const ld_decoration *d = &m->decorations[i];
    if (d->target == id && d->member < 0 &&
        (d->decoration == SpvDecorationFPRoundingMode || d->decoration == SpvDecorationSaturatedConversion))
      return true;
  }
  return false;
}

static bool native_ok(const ld_module *m, const ld_insn *in) {
  char buf[8];
  plan_err e = {buf, sizeof buf, false};
  if (has_conversion_decoration(m, in->result)) return false;
  switch (in->op) {   /* pure data movement: fine on half containers */
  case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpCompositeConstruct:
    /* members of an aggregate: the interpreter's handler */
    if (jit_blob_unit(in->type) || (in->n_ops > 0 && jit_blob_unit(m->values[in->ops[0]].type)) ||
        (in->op == SpvOpCompositeInsert && in->n_ops > 1 && jit_blob_unit(m->values[in->ops[1]].type)))
      return false;
    break;
  case SpvOpLoad: case SpvOpStore: case SpvOpPhi: case SpvOpSelect: case SpvOpCopyObject:
  case SpvOpVectorShuffle:
    break;
  case SpvOpBitcast: {
    const ld_type *at, *rt; uint32_t an, rn;
    if (!lane_shape(in->type, &rt, &rn) || !lane_shape(m->values[in->ops[0]].type, &at, &an)) return false;
    if (an != rn) return false;
    break;
  }
  default:
    if (is_half(in->type)) return false;
    for (uint32_t i = 0; i < in->n_ops && i < 4; i++)
      if (in->ops[i] < m->bound && is_half(m->values[in->ops[i]].type) &&
          m->values[in->ops[i]].kind != LD_V_TYPE) return false;
  }
  if (in->n_ops > 0 && in->ops[0] < m->bound) {
    const ld_type *at = m->values[in->ops[0]].type;
    if (at && at->kind == LD_T_INT && at->width != 8 && at->width != 16 && at->width != 32 && at->width != 64 &&
        in->op != SpvOpUConvert && in->op != SpvOpIEqual && in->op != SpvOpINotEqual &&
        in->op != SpvOpCopyObject && in->op != SpvOpBitwiseAnd && in->op != SpvOpBitwiseOr &&
        in->op != SpvOpBitwiseXor && in->op != SpvOpULessThan && in->op != SpvOpUGreaterThan &&
        in->op != SpvOpSwitch && in->op != SpvOpPhi && in->op != SpvOpStore && in->op != SpvOpSelect &&
        in->op != SpvOpLoad)
      return false;
  }
  return native_ok_(m, in, &e);
}

/* Group-scope operations the generic path must not take (rendezvous). */
static bool wg_scoped(const ld_module *m, const ld_insn *in) {
  bool grp = (in->op >= SpvOpGroupAsyncCopy && in->op <= SpvOpGroupSMax && in->op != SpvOpGroupWaitEvents) ||
             (in->op >= SpvOpGroupNonUniformElect && in->op <= SpvOpGroupNonUniformQuadSwap) ||
             in->op == SpvOpGroupNonUniformRotateKHR;
  if (!grp || in->n_ops < 1) return false;
  bool ok = true;
  uint32_t scope = const_u32(m, in->ops[0], &ok);
  return !ok || scope != SpvScopeSubgroup;
}

/* One instruction executed by the interpreter's own handler (rt_interp). */
static bool is_handle(const ld_type *t) { return t && (t->kind == LD_T_IMAGE || t->kind == LD_T_SAMPLER); }

static bool generic_ok(const ld_module *m, const ld_insn *in, const ld_function *kernel_fn, plan_err *e) {
  switch (in->op) {
  case SpvOpVariable: case SpvOpFunctionCall: case SpvOpPhi: case SpvOpControlBarrier:
  case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
  case SpvOpReturnValue: case SpvOpKill: case SpvOpUnreachable: case SpvOpLabel:
    return failf(e, "%s: %s not compiled yet", ld_insn_where(m, in), opname(in->op));
  default: break;
  }
  const ld_type *c; uint32_t n;
  if (in->result && in->type && in->type->kind != LD_T_VOID && !lane_shape(in->type, &c, &n))
    return failf(e, "%s: result of unsupported type (kind %d)", ld_insn_where(m, in), (int)in->type->kind);
  uint32_t first = in->op == SpvOpExtInst ? 2 : 0;
  for (uint32_t i = first; i < in->n_ops; i++) {
    uint32_t id = in->ops[i];
    if (id >= m->bound) continue;
    const ld_value *v = &m->values[id];
    if (v->kind != LD_V_RESULT && v->kind != LD_V_PARAM) continue;
    if (v->owner == NULL) continue;
    if (v->kind == LD_V_RESULT && v->u.insn->op == SpvOpVariable) continue;
    /* an image or sampler kernel argument: the handler reads it from the
     * packed arguments (jit_run.c: xfer) */
    (void)kernel_fn;   /* inlined functions' handle parameters are resolved at the call (plan_inst) */
    if (is_handle(v->type))
      continue;   /* a parameter, or a load planning resolves (plan_handle_load) */
    if (!v->type || !lane_shape(v->type, &c, &n))
      return failf(e, "%s: operand of unsupported type (kind %d)", ld_insn_where(m, in),
                   v->type ? (int)v->type->kind : -1);
  }
  return true;
}

static bool op_supported(const ld_module *m, const ld_insn *in, const ld_function *kernel_fn, plan_err *e) {
  if (native_ok(m, in)) return true;
  return generic_ok(m, in, kernel_fn, e);
}

static bool native_ok_(const ld_module *m, const ld_insn *in, plan_err *e) {
  switch (in->op) {
  case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
  case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpMemoryBarrier: case SpvOpControlBarrier:
  case SpvOpPhi: case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch:
  case SpvOpReturn: case SpvOpReturnValue: case SpvOpFunctionCall: case SpvOpUnreachable:
  case SpvOpLoad: case SpvOpStore: case SpvOpVariable:
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpSNegate: case SpvOpNot:
  case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFNegate:
  case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
  case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
  case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual:
  case SpvOpULessThan: case SpvOpULessThanEqual: case SpvOpSGreaterThan:
  case SpvOpSGreaterThanEqual: case SpvOpSLessThan: case SpvOpSLessThanEqual:
  case SpvOpFOrdEqual: case SpvOpFOrdNotEqual: case SpvOpFOrdLessThan: case SpvOpFOrdGreaterThan:
  case SpvOpFOrdLessThanEqual: case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordEqual:
  case SpvOpFUnordNotEqual: case SpvOpFUnordLessThan: case SpvOpFUnordGreaterThan:
  case SpvOpFUnordLessThanEqual: case SpvOpFUnordGreaterThanEqual:
  case SpvOpIsNan:
  case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot: case SpvOpLogicalEqual:
  case SpvOpLogicalNotEqual: case SpvOpSelect:
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpConvertUToF:
  case SpvOpConvertSToF: case SpvOpBitcast: case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
  case SpvOpPtrCastToGeneric:
  case SpvOpCompositeExtract: case SpvOpCompositeInsert: case SpvOpCompositeConstruct:
  case SpvOpVectorShuffle: case SpvOpCopyObject:
    return true;
  case SpvOpGroupIAdd: case SpvOpGroupFAdd: case SpvOpGroupFMin: case SpvOpGroupUMin:
  case SpvOpGroupSMin: case SpvOpGroupFMax: case SpvOpGroupUMax: case SpvOpGroupSMax:
  case SpvOpGroupNonUniformIAdd: case SpvOpGroupNonUniformFAdd: case SpvOpGroupNonUniformIMul:
  case SpvOpGroupNonUniformFMul: case SpvOpGroupNonUniformSMin: case SpvOpGroupNonUniformUMin:
  case SpvOpGroupNonUniformFMin: case SpvOpGroupNonUniformSMax: case SpvOpGroupNonUniformUMax:
  case SpvOpGroupNonUniformFMax: case SpvOpGroupNonUniformBitwiseAnd:
  case SpvOpGroupNonUniformBitwiseOr: case SpvOpGroupNonUniformBitwiseXor:
  case SpvOpGroupNonUniformLogicalAnd: case SpvOpGroupNonUniformLogicalOr:
  case SpvOpGroupNonUniformLogicalXor: {
    bool ok = true;
    uint32_t scope = const_u32(m, in->ops[0], &ok);
    if (!ok || scope != SpvScopeSubgroup)
      return failf(e, "%s: group operation not at Subgroup scope", ld_insn_where(m, in));
    uint32_t gop = in->ops[1];
    if (gop != SpvGroupOperationReduce && gop != SpvGroupOperationInclusiveScan &&
        gop != SpvGroupOperationExclusiveScan)
      return failf(e, "%s: group operation %u not compiled yet", ld_insn_where(m, in), gop);
    const ld_type *c; uint32_t n;
    if (!lane_shape(in->type, &c, &n) || n != 1)
      return failf(e, "%s: vector group operation not compiled yet", ld_insn_where(m, in));
    return true;
  }
  case SpvOpExtInst:
    if (in->ext_set == LD_EXT_OPENCL_DEBUGINFO_100 || in->ext_set == LD_EXT_NONSEMANTIC) return true;
    if (in->ext_set == LD_EXT_OPENCL_STD && in->ext_op == OpenCLstd_Mad && in->n_ops == 5 &&
        in->type && !is_half(in->type) &&
        (in->type->kind == LD_T_FLOAT || (in->type->kind == LD_T_VECTOR && in->type->elem->kind == LD_T_FLOAT)))
      return true;
    return failf(e, "%s: OpExtInst %u not compiled yet", ld_insn_where(m, in), in->ext_op);
  default:
    return failf(e, "%s: %s not compiled yet", ld_insn_where(m, in), opname(in->op));
  }
}

static int32_t plan_inst(jit_kernel *k, const ld_function *fn, uint32_t parent, int32_t cont,
                         plan_err *e);

static uint32_t add_insn_index(jit_kernel *k, const ld_insn *in) {
  if (k->n_insns == k->cap_insns) {
    uint32_t nc = k->cap_insns ? k->cap_insns * 2 : 256;
    const ld_insn **ni = realloc(k->insns, nc * sizeof *ni);
    if (!ni) return 0;
    k->insns = ni;
    uint32_t *nn = realloc(k->insn_inst, nc * sizeof *nn);
    if (!nn) return 0;
    k->insn_inst = nn;
    k->cap_insns = nc;
  }
  k->insns[k->n_insns] = in;
  k->insn_inst[k->n_insns] = 0;
  return k->n_insns++;
}

/* The kernel argument behind handle value id of instance inst, or -1. */
static int32_t handle_arg(const jit_kernel *k, uint32_t inst, uint32_t id) {
  const ld_value *v = &k->m->values[id];
  if (v->kind != LD_V_PARAM && v->kind != LD_V_RESULT) return -1;
  if (inst == 0 && v->kind == LD_V_PARAM) {
    const ld_function *kf = k->k->fn;
    for (uint32_t a = 0; a < kf->n_params; a++) if (kf->params[a] == id) return (int32_t)a;
    return -1;
  }
  for (uint32_t q = 0; q < k->n_handles; q++)
    if (k->handles[q].inst == inst && k->handles[q].id == id) return (int32_t)k->handles[q].arg;
  return -1;
}

/* A call's image and sampler arguments: each must be a kernel argument
 * (possibly passed down through callers); recorded for the callee instance. */
static bool plan_handles(jit_kernel *k, uint32_t caller, const ld_insn *call, const ld_function *callee,
                         uint32_t callee_inst, plan_err *e) {
  for (uint32_t a = 0; a < callee->n_params && a + 1 < call->n_ops; a++) {
    if (!is_handle(k->m->values[callee->params[a]].type)) continue;
    int32_t arg = handle_arg(k, caller, call->ops[1 + a]);
    if (arg < 0) return failf(e, "%s: image or sampler argument that is not a kernel argument", ld_insn_where(k->m, call));
    if (k->n_handles >= 64) return failf(e, "more than 64 image or sampler parameters");
    k->handles[k->n_handles].inst = callee_inst;
    k->handles[k->n_handles].id = callee->params[a];
    k->handles[k->n_handles].arg = (uint32_t)arg;
    k->n_handles++;
  }
  return true;
}

/* True if id is one of in's id operands (literal operands do not count). */
typedef struct { const uint32_t *ops; uint32_t id; bool hit; } use_q;
static void use_cb(void *u_, uint32_t w, spv_operand_class cls) {
  use_q *u = u_;
  if (cls == SPV_OPND_ID && u->ops[w] == u->id) u->hit = true;
}
static bool insn_uses(const ld_insn *in, uint32_t id) {
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  if (!d) {   /* unknown opcode: any matching word counts */
    for (uint32_t q = 0; q < in->n_ops; q++) if (in->ops[q] == id) return true;
    return false;
  }
  uint16_t skip = (uint16_t)(d->has_type + d->has_result);
  use_q u = {in->ops, id, false};
  if (!spv_walk_operands(in->ops, in->n_ops, 0, d->operands + skip, (uint16_t)(d->n_operands - skip), use_cb, &u))
    for (uint32_t q = 0; q < in->n_ops; q++) if (in->ops[q] == id) return true;
  return u.hit;
}

/* An image or sampler loaded from a Function variable (clang -O0 keeps
 * handle arguments in such variables): resolved to the kernel argument when
 * the variable is only stored to and loaded from, every store storing the
 * same resolvable handle.  The loads and stores then emit nothing. */
static bool plan_handle_load(jit_kernel *k, uint32_t inst, const ld_function *fn, const ld_insn *load,
                             plan_err *e) {
  const ld_module *m = k->m;
  uint32_t var = load->ops[0];
  const ld_value *vv = &m->values[var];
  int32_t arg = -1;
  bool ok = vv->kind == LD_V_RESULT && vv->u.insn->op == SpvOpVariable;
  for (uint32_t b = 0; ok && b < fn->n_blocks; b++)
    for (uint32_t i = 0; ok && i < fn->blocks[b].n_insns; i++) {
      const ld_insn *in = &fn->blocks[b].insns[i];
      if (in->op == SpvOpLoad && in->ops[0] == var) continue;
      if (in->op == SpvOpStore && in->ops[0] == var && in->n_ops >= 2) {
        int32_t a = handle_arg(k, inst, in->ops[1]);
        if (a < 0 || (arg >= 0 && a != arg)) ok = false;
        arg = a;
        continue;
      }
      if (in->op == SpvOpLifetimeStart || in->op == SpvOpLifetimeStop) continue;
      if (insn_uses(in, var)) ok = false;
    }
  if (!ok || arg < 0)
    return failf(e, "%s: image or sampler loaded from a variable that does not hold one kernel argument",
                 ld_insn_where(m, load));
  if (k->n_handles >= 64) return failf(e, "more than 64 image or sampler parameters");
  k->handles[k->n_handles].inst = inst;
  k->handles[k->n_handles].id = load->result;
  k->handles[k->n_handles].arg = (uint32_t)arg;
  k->n_handles++;
  return true;
}

/* A load or store of an image or sampler (plan_handle_load). */
static bool handle_ldst(const ld_module *m, const ld_insn *in) {
  if (in->op == SpvOpLoad) return is_handle(in->type);
  if (in->op == SpvOpStore && in->n_ops >= 2 && in->ops[1] < m->bound) return is_handle(m->values[in->ops[1]].type);
  return false;
}

static int32_t plan_inst(jit_kernel *k, const ld_function *fn, uint32_t parent, int32_t cont,
                         plan_err *e) {
  const ld_module *m = k->m;
  if (fn->is_import || fn->n_blocks == 0)
    return failf(e, "call to imported function %s", fn->name ? fn->name : "?"), -1;
  if (fn->max_call_depth == UINT32_MAX)
    return failf(e, "recursive function %s", fn->name ? fn->name : "?"), -1;
  if (k->n_inst >= JIT_MAX_INST) return failf(e, "more than %u inlined calls", JIT_MAX_INST), -1;
  uint32_t ii = k->n_inst++;
  jit_inst *I = &k->inst[ii];
  I->fn = fn;
  I->parent = parent;
  I->cont = cont;
  I->block_seg = calloc(fn->n_blocks, sizeof(int32_t));
  I->term_seg = calloc(fn->n_blocks, sizeof(int32_t));
  if (!I->block_seg || !I->term_seg) return failf(e, "out of memory"), -1;
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    I->block_seg[b] = I->term_seg[b] = -1;
    if (!fn->blocks[b].reachable && b != 0) continue;
    I->block_seg[b] = new_seg(k, ii, &fn->blocks[b], 0);
  }
  /* Private memory: this instance's Function variables. */
  uint64_t priv = (k->priv_bytes + 15) & ~(uint64_t)15;
  k->inst[ii].priv_off = priv;
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    const ld_block *blk = &fn->blocks[b];
    if (k->inst[ii].block_seg[b] < 0) continue;
    int32_t cur = k->inst[ii].block_seg[b];
    for (uint32_t i = 0; i < blk->n_insns; i++) {
      const ld_insn *in = &blk->insns[i];
      if (!op_supported(m, in, k->k->fn, e)) return -1;
      if (in->op == SpvOpVariable) {
        if (in->n_ops > 1) return failf(e, "%s: OpVariable with initializer", ld_insn_where(m, in)), -1;
        const ld_type *pt = in->type && in->type->elem ? in->type->elem : NULL;
        if (!pt || !pt->size) return failf(e, "%s: OpVariable of unsized type", ld_insn_where(m, in)), -1;
        uint32_t al = pt->align ? pt->align : 1;
        priv = (priv + al - 1) / al * al + pt->size;
      }
      if (in->op == SpvOpLoad && is_handle(in->type) && !plan_handle_load(k, ii, fn, in, e)) return -1;
      if (in->op == SpvOpLoad) {
        const ld_value *pv = &m->values[in->ops[0]];
        if (pv->kind == LD_V_VARIABLE && pv->u.var->storage == SpvStorageClassInput) {
          const ld_variable *var = pv->u.var;
          if (!builtin_supported(var->builtin))
            return failf(e, "%s: built-in %d not compiled yet", ld_insn_where(m, in), var->builtin), -1;
          const ld_type *c; uint32_t n;
          if (!lane_shape(var->pointee, &c, &n) || n > 4) return failf(e, "built-in of odd type"), -1;
        }
      }
      if (in->op == SpvOpFunctionCall) {
        int32_t next = new_seg(k, ii, blk, i + 1);
        const ld_value *cv = &m->values[in->ops[0]];
        if (cv->kind != LD_V_FUNCTION) return failf(e, "call of a non-function"), -1;
        if (!plan_handles(k, ii, in, cv->u.fn, k->n_inst, e)) return -1;
        k->priv_bytes = priv;
        if (plan_inst(k, cv->u.fn, ii, next, e) < 0) return -1;
        priv = k->priv_bytes;
        cur = next;
      } else if (is_wg_barrier(m, in) || wg_scoped(m, in)) {
        /* a work-group rendezvous: the subgroup suspends here and resumes at
         * the next segment (a collective's results are fetched there) */
        int32_t next = new_seg(k, ii, blk, i + 1);
        k->seg[cur].n_succ = 1;
        k->seg[cur].succ[0] = next;
        k->seg[next].after_wgc = true;
        cur = next;
      }
    }
    k->inst[ii].term_seg[b] = cur;
    jit_seg *s = &k->seg[cur];
    if (blk->n_succs > 64) return failf(e, "switch with more than 64 targets"), -1;
    s->n_succ = (int32_t)blk->n_succs;
    for (uint32_t q = 0; q < blk->n_succs; q++) {
      int32_t t = k->inst[ii].block_seg[blk->succs[q]->index];
      if (t < 0) return failf(e, "branch to an unreachable block"), -1;
      s->succ[q] = t;
    }
    s->rpc = blk->reconverge ? k->inst[ii].block_seg[blk->reconverge->index] : cont;
  }
  k->priv_bytes = priv;
  return (int32_t)ii;
}

/* ------------------------------------------------------------- codegen */

typedef struct jloop_ { gcc_jit_block *cond, *after; } jloop_;
typedef struct J {
  jit_kernel *k;
  const ld_module *m;
  uint32_t S;
  gcc_jit_context *cx;
  gcc_jit_function *fn;
  gcc_jit_block *b;
  gcc_jit_rvalue *c, *f;        /* ctx*, frame* */
  gcc_jit_lvalue *lane, *next;
  gcc_jit_type *t_void, *t_bool, *t_i32, *t_u[4], *t_s[4], *t_f32, *t_f64, *t_u8p, *t_vp, *t_ptr;
  gcc_jit_struct *frame_st, *ctx_st, *reg_st;
  gcc_jit_field *f_mask, *f_tgt, *f_pred, *f_addr;
  gcc_jit_field *c_regions, *c_wg, *c_args, *c_branch, *c_mem, *c_group, *c_interp, *c_coll, *c_limit, *c_overflow, *c_ldst, *c_unreach, *c_wgc, *c_wgc_done;
  gcc_jit_field *c_frame, *c_priv, *c_steps, *c_step_check, *c_all, *c_sg_id, *c_n_lanes, *c_sp, *c_susp, *c_base, *c_stack;
  gcc_jit_field *e_pc, *e_rpc, *e_m;
  gcc_jit_field *w_group, *w_wsize, *w_local, *w_global, *w_offset, *w_groups, *w_dim, *w_n_sg, *w_enq_sg,
                *w_lid_cap, *w_lid, *w_sgs, *w_rt_wg, *w_priv_stride, *w_step_check, *w_stop, *w_rt_release;
  gcc_jit_function *fn_kernel;
  const char *mflags;
  gcc_jit_lvalue *fast_base, *contig;
  jloop_ open_lp;               /* the open lane loop (fuse_open) */
  bool open;
  gcc_jit_block *slow;
  gcc_jit_block *settle;
  gcc_jit_type *t_ctxp, *t_wgsp, *t_framep;
  gcc_jit_field *r_base, *r_size, *r_wsize;
  gcc_jit_field **slot;         /* [n_inst * bound] */
  gcc_jit_field **phitmp;       /* [n_inst * bound] */
  uint64_t *privoff;            /* [n_inst * bound] Function variable offsets */
  gcc_jit_lvalue **argl;        /* [bound * 16] uniform kernel argument components */
  gcc_jit_block **segb;
  int blkn;
  plan_err *e;
  uint32_t n_stmts;
} J;

static gcc_jit_type *scal(J *j, const ld_type *c) {
  switch (c->kind) {
  case LD_T_BOOL: return j->t_u[0];
  case LD_T_INT: {
    uint32_t w = c->width;
    return w <= 8 ? j->t_u[0] : w <= 16 ? j->t_u[1] : w <= 32 ? j->t_u[2] : j->t_u[3];
  }
  case LD_T_FLOAT: return c->width == 64 ? j->t_f64 : c->width == 16 ? j->t_u[1] : j->t_f32;
  case LD_T_POINTER: return j->t_ptr;
  default: return NULL;
  }
}
static gcc_jit_type *sscal(J *j, const ld_type *c) {
  uint32_t w = c->kind == LD_T_POINTER ? j->m->addr_bits : c->width;
  return w <= 8 ? j->t_s[0] : w <= 16 ? j->t_s[1] : w <= 32 ? j->t_s[2] : j->t_s[3];
}

static gcc_jit_block *nb(J *j) {
  char name[32];
  snprintf(name, sizeof name, "b%d", j->blkn++);
  return gcc_jit_function_new_block(j->fn, name);
}
static gcc_jit_rvalue *ci(J *j, gcc_jit_type *t, long v) { return gcc_jit_context_new_rvalue_from_long(j->cx, t, v); }
static gcc_jit_rvalue *cast(J *j, gcc_jit_rvalue *v, gcc_jit_type *t) { return gcc_jit_context_new_cast(j->cx, NULL, v, t); }
static gcc_jit_rvalue *bin(J *j, enum gcc_jit_binary_op op, gcc_jit_type *t, gcc_jit_rvalue *a, gcc_jit_rvalue *b) {
  return gcc_jit_context_new_binary_op(j->cx, NULL, op, t, a, b);
}
static gcc_jit_rvalue *cmp(J *j, enum gcc_jit_comparison op, gcc_jit_rvalue *a, gcc_jit_rvalue *b) {
  return gcc_jit_context_new_comparison(j->cx, NULL, op, a, b);
}
static void assign(J *j, gcc_jit_lvalue *l, gcc_jit_rvalue *r) {
  gcc_jit_block_add_assignment(j->b, NULL, l, r);
  j->n_stmts++;
}
static gcc_jit_lvalue *local(J *j, gcc_jit_type *t) {
  char name[32];
  snprintf(name, sizeof name, "t%d", j->blkn++);
  return gcc_jit_function_new_local(j->fn, NULL, t, name);
}
static gcc_jit_lvalue *fld(J *j, gcc_jit_field *fl) {   /* f->fl */
  return gcc_jit_rvalue_dereference_field(j->f, NULL, fl);
}
static gcc_jit_lvalue *lane_arr(J *j, gcc_jit_field *fl, gcc_jit_rvalue *lane) {
  return gcc_jit_context_new_array_access(j->cx, NULL, gcc_jit_lvalue_as_rvalue(fld(j, fl)), lane);
}
static gcc_jit_rvalue *L(J *j) { return gcc_jit_lvalue_as_rvalue(j->lane); }
static gcc_jit_rvalue *lane_arr_r(J *j, gcc_jit_field *fl) { return gcc_jit_lvalue_as_rvalue(lane_arr(j, fl, L(j))); }
static gcc_jit_rvalue *MASK(J *j) {
  return cmp(j, GCC_JIT_COMPARISON_NE, gcc_jit_lvalue_as_rvalue(lane_arr(j, j->f_mask, L(j))), ci(j, j->t_i32, 0));
}

typedef jloop_ jloop;
static void fuse_close(J *j);
static void loop_begin_raw(J *j, jloop *lp) {
  lp->cond = nb(j);
  gcc_jit_block *body = nb(j);
  lp->after = nb(j);
  assign(j, j->lane, ci(j, j->t_i32, 0));
  gcc_jit_block_end_with_jump(j->b, NULL, lp->cond);
  gcc_jit_block_end_with_conditional(lp->cond, NULL, cmp(j, GCC_JIT_COMPARISON_LT, L(j), ci(j, j->t_i32, (long)j->S)), body, lp->after);
  j->b = body;
}
/* Every explicit lane loop first closes the open lane loop (fuse_open). */
static void loop_begin(J *j, jloop *lp) {
  fuse_close(j);
  loop_begin_raw(j, lp);
}
static void loop_range(J *j, jloop *lp, uint32_t lo, uint32_t hi) {
  fuse_close(j);
  lp->cond = nb(j);
  gcc_jit_block *body = nb(j);
  lp->after = nb(j);
  assign(j, j->lane, ci(j, j->t_i32, (long)lo));
  gcc_jit_block_end_with_jump(j->b, NULL, lp->cond);
  gcc_jit_block_end_with_conditional(lp->cond, NULL, cmp(j, GCC_JIT_COMPARISON_LT, L(j), ci(j, j->t_i32, (long)hi)), body, lp->after);
  j->b = body;
}
static void loop_end(J *j, jloop *lp) {
  gcc_jit_block_add_assignment_op(j->b, NULL, j->lane, GCC_JIT_BINARY_OP_PLUS, ci(j, j->t_i32, 1));
  gcc_jit_block_end_with_jump(j->b, NULL, lp->cond);
  j->b = lp->after;
}
/* The open lane loop: an instruction's lane-local code (elementwise
 * operations, access chains, built-in reads, a block's phis) opens it with
 * fuse_open, and the next instruction that emits code closes it, as does
 * any explicit loop; so all components of one instruction share a loop. */
static void fuse_open(J *j) {
  if (j->open) return;
  loop_begin_raw(j, &j->open_lp);
  j->open = true;
}
static void fuse_close(J *j) {
  if (!j->open) return;
  j->open = false;
  loop_end(j, &j->open_lp);
}

/* t = a; if (cond) t = b;  -> rvalue t (blocks GCC if-converts) */
static gcc_jit_rvalue *sel(J *j, gcc_jit_rvalue *cond, gcc_jit_rvalue *yes, gcc_jit_rvalue *no, gcc_jit_type *t) {
  gcc_jit_lvalue *tmp = local(j, t);
  assign(j, tmp, no);
  gcc_jit_block *bt = nb(j), *bj = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cond, bt, bj);
  j->b = bt;
  assign(j, tmp, yes);
  gcc_jit_block_end_with_jump(j->b, NULL, bj);
  j->b = bj;
  return gcc_jit_lvalue_as_rvalue(tmp);
}

/* mask[l] ? yes : no, branch-free (bitwise blend on the value's bits, so the
 * lane loops vectorize and NaN payloads pass unchanged). */
static gcc_jit_rvalue *mblend(J *j, gcc_jit_rvalue *yes, gcc_jit_rvalue *no, gcc_jit_type *T) {
  bool isf = T == j->t_f32 || T == j->t_f64;
  gcc_jit_type *I = T == j->t_f32 ? j->t_u[2] : T == j->t_f64 ? j->t_u[3] : T;
  gcc_jit_type *W = (I == j->t_u[0] || I == j->t_u[1] || I == j->t_s[0] || I == j->t_s[1]) ? j->t_u[2] : I;
  if (I == j->t_i32) W = j->t_u[2];
  gcc_jit_rvalue *y = isf ? gcc_jit_context_new_bitcast(j->cx, NULL, yes, I) : yes;
  gcc_jit_rvalue *n = isf ? gcc_jit_context_new_bitcast(j->cx, NULL, no, I) : no;
  y = cast(j, y, W);
  n = cast(j, n, W);
  gcc_jit_rvalue *m = bin(j, GCC_JIT_BINARY_OP_MINUS, W, ci(j, W, 0), cast(j, gcc_jit_lvalue_as_rvalue(lane_arr(j, j->f_mask, L(j))), W));
  gcc_jit_rvalue *r = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, W, n,
                          bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, W, bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, W, n, y), m));
  r = cast(j, r, I);
  return isf ? gcc_jit_context_new_bitcast(j->cx, NULL, r, T) : r;
}

static size_t vidx(J *j, uint32_t inst, uint32_t id) { return (size_t)inst * j->m->bound + id; }

/* Lane l's component c of a slot. */
static gcc_jit_lvalue *slot_lv(J *j, gcc_jit_field *fl, uint32_t n, uint32_t c, gcc_jit_rvalue *lane) {
  gcc_jit_rvalue *arr = gcc_jit_lvalue_as_rvalue(fld(j, fl));
  if (n > 1) arr = gcc_jit_lvalue_as_rvalue(gcc_jit_context_new_array_access(j->cx, NULL, arr, ci(j, j->t_i32, c)));
  return gcc_jit_context_new_array_access(j->cx, NULL, arr, lane);
}

static gcc_jit_lvalue *res_lv(J *j, uint32_t inst, uint32_t id, uint32_t c) {
  const ld_type *ct; uint32_t n;
  lane_shape(j->m->values[id].type, &ct, &n);
  return slot_lv(j, j->slot[vidx(j, inst, id)], n, c, L(j));
}

static gcc_jit_rvalue *const_comp(J *j, const ld_type *ct, const uint8_t *p) {
  gcc_jit_type *t = scal(j, ct);
  uint32_t nb_ = comp_bytes(j->k, ct);
  if (ct->kind == LD_T_FLOAT && ct->width != 16) {
    if (ct->width == 32) { float f; memcpy(&f, p, 4); return gcc_jit_context_new_rvalue_from_double(j->cx, t, f); }
    double d; memcpy(&d, p, 8); return gcc_jit_context_new_rvalue_from_double(j->cx, t, d);
  }
  uint64_t v = 0;
  memcpy(&v, p, nb_);
  if (nb_ == 8) return cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)v), t);
  return gcc_jit_context_new_rvalue_from_long(j->cx, t, (long)v);
}

/* Component c of value id in instance inst, for the current lane. */
static gcc_jit_rvalue *V(J *j, uint32_t inst, uint32_t id, uint32_t c) {
  const ld_value *v = &j->m->values[id];
  const ld_type *ct; uint32_t n;
  if (!lane_shape(v->type, &ct, &n) || c >= n) {
    failf(j->e, "value %s of unsupported type", ld_id_name(j->m, id));
    return ci(j, j->t_i32, 0);
  }
  switch (v->kind) {
  case LD_V_CONSTANT:
    return const_comp(j, ct, v->u.bytes + (size_t)c * ct->size);
  case LD_V_UNDEF: {
    uint8_t z[8] = {0};
    return const_comp(j, ct, z);
  }
  case LD_V_VARIABLE:
    return cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)v->u.var->address), j->t_ptr);
  case LD_V_PARAM:
    if (inst == 0) return gcc_jit_lvalue_as_rvalue(j->argl[(size_t)id * 16 + c]);
    return gcc_jit_lvalue_as_rvalue(res_lv(j, inst, id, c));
  case LD_V_RESULT:
    if (v->u.insn->op == SpvOpVariable) {
      const ld_addr_layout *a = &j->m->layout;
      gcc_jit_rvalue *r = bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_u[3], cast(j, L(j), j->t_u[3]),
                              ci(j, j->t_u[3], (long)a->priv_base));
      r = bin(j, GCC_JIT_BINARY_OP_LSHIFT, j->t_u[3], r, ci(j, j->t_u[3], (long)a->shift));
      r = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[3], r, ci(j, j->t_u[3], (long)j->privoff[vidx(j, inst, id)]));
      return cast(j, r, j->t_ptr);
    }
    if (!j->slot[vidx(j, inst, id)]) { failf(j->e, "no slot for %s", ld_id_name(j->m, id)); return ci(j, j->t_i32, 0); }
    return gcc_jit_lvalue_as_rvalue(res_lv(j, inst, id, c));
  default:
    failf(j->e, "value %s of kind %d not compiled", ld_id_name(j->m, id), (int)v->kind);
    return ci(j, j->t_i32, 0);
  }
}

static bool odd_width(const ld_type *ct) {
  return ct->kind == LD_T_INT && ct->width != 8 && ct->width != 16 && ct->width != 32 && ct->width != 64;
}
static gcc_jit_rvalue *fixw(J *j, const ld_type *ct, gcc_jit_rvalue *r) {
  if (!odd_width(ct)) return r;
  return bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, scal(j, ct), r, ci(j, scal(j, ct), (long)((1ull << ct->width) - 1)));
}
static gcc_jit_rvalue *b2u8(J *j, gcc_jit_rvalue *b) { return cast(j, b, j->t_u[0]); }

/* Component c of an elementwise instruction, for the current lane. */
static gcc_jit_rvalue *elementwise(J *j, uint32_t inst, const ld_insn *in, uint32_t c) {
  const ld_module *m = j->m;
  const ld_type *rt, *at = NULL; uint32_t rn, an = 0;
  lane_shape(in->type, &rt, &rn);
  gcc_jit_type *T = scal(j, rt);
  uint32_t a0 = in->n_ops > 0 ? in->ops[0] : 0;
  if (a0) lane_shape(m->values[a0].type, &at, &an);
  gcc_jit_rvalue *a = NULL, *b = NULL;
  if (in->op != SpvOpCompositeExtract && in->op != SpvOpCompositeInsert &&
      in->op != SpvOpCompositeConstruct && in->op != SpvOpVectorShuffle && in->op != SpvOpSelect &&
      in->op != SpvOpExtInst) {
    if (!at) { failf(j->e, "%s: operand of unsupported type", ld_insn_where(m, in)); return ci(j, T, 0); }
    if (odd_width(at) && in->op != SpvOpUConvert && in->op != SpvOpIEqual && in->op != SpvOpINotEqual &&
        in->op != SpvOpCopyObject && in->op != SpvOpBitwiseAnd && in->op != SpvOpBitwiseOr &&
        in->op != SpvOpBitwiseXor && in->op != SpvOpULessThan && in->op != SpvOpUGreaterThan) {
      failf(j->e, "%s: %u-bit integer operation", ld_insn_where(m, in), at->width);
      return ci(j, T, 0);
    }
    a = V(j, inst, a0, an == 1 ? 0 : c);
    if (in->n_ops > 1 && in->op != SpvOpBitcast) {
      const ld_type *bt; uint32_t bn;
      if (lane_shape(m->values[in->ops[1]].type, &bt, &bn)) b = V(j, inst, in->ops[1], bn == 1 ? 0 : c);
    }
  }
  gcc_jit_type *AT = at ? scal(j, at) : NULL;
  gcc_jit_type *AS = at ? sscal(j, at) : NULL;
  enum gcc_jit_binary_op bop;
  enum gcc_jit_comparison cop;
  switch (in->op) {
  case SpvOpCopyObject: case SpvOpPtrCastToGeneric: return cast(j, a, T);
  case SpvOpIAdd: bop = GCC_JIT_BINARY_OP_PLUS; goto ibin;
  case SpvOpISub: bop = GCC_JIT_BINARY_OP_MINUS; goto ibin;
  case SpvOpIMul: bop = GCC_JIT_BINARY_OP_MULT; goto ibin;
  case SpvOpBitwiseAnd: bop = GCC_JIT_BINARY_OP_BITWISE_AND; goto ibin;
  case SpvOpBitwiseOr: bop = GCC_JIT_BINARY_OP_BITWISE_OR; goto ibin;
  case SpvOpBitwiseXor: bop = GCC_JIT_BINARY_OP_BITWISE_XOR; goto ibin;
  ibin:
    if (T == j->t_u[0] || T == j->t_u[1]) /* avoid int promotion surprises: compute in u32 */
      return fixw(j, rt, cast(j, bin(j, bop, j->t_u[2], cast(j, a, j->t_u[2]), cast(j, b, j->t_u[2])), T));
    return fixw(j, rt, bin(j, bop, T, a, cast(j, b, T)));
  case SpvOpSNegate:
    return fixw(j, rt, bin(j, GCC_JIT_BINARY_OP_MINUS, T, ci(j, T, 0), a));
  case SpvOpNot:
    return fixw(j, rt, gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, T, a));
  case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: {
    uint32_t w = comp_bytes(j->k, rt) * 8;
    gcc_jit_rvalue *sh = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, cast(j, b, T), ci(j, T, w - 1));
    if (in->op == SpvOpShiftLeftLogical) return bin(j, GCC_JIT_BINARY_OP_LSHIFT, T, a, sh);
    if (in->op == SpvOpShiftRightLogical) return bin(j, GCC_JIT_BINARY_OP_RSHIFT, T, a, sh);
    gcc_jit_type *ST = sscal(j, rt);
    return cast(j, bin(j, GCC_JIT_BINARY_OP_RSHIFT, ST, cast(j, a, ST), cast(j, sh, ST)), T);
  }
  case SpvOpFAdd: bop = GCC_JIT_BINARY_OP_PLUS; goto fbin;
  case SpvOpFSub: bop = GCC_JIT_BINARY_OP_MINUS; goto fbin;
  case SpvOpFMul: bop = GCC_JIT_BINARY_OP_MULT; goto fbin;
  case SpvOpFDiv: bop = GCC_JIT_BINARY_OP_DIVIDE; goto fbin;
  fbin:
    return bin(j, bop, T, a, b);
  case SpvOpFNegate:
    return gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_MINUS, T, a);
  case SpvOpIEqual: case SpvOpLogicalEqual: cop = GCC_JIT_COMPARISON_EQ; goto ucmp;
  case SpvOpINotEqual: case SpvOpLogicalNotEqual: cop = GCC_JIT_COMPARISON_NE; goto ucmp;
  case SpvOpUGreaterThan: cop = GCC_JIT_COMPARISON_GT; goto ucmp;
  case SpvOpUGreaterThanEqual: cop = GCC_JIT_COMPARISON_GE; goto ucmp;
  case SpvOpULessThan: cop = GCC_JIT_COMPARISON_LT; goto ucmp;
  case SpvOpULessThanEqual: cop = GCC_JIT_COMPARISON_LE; goto ucmp;
  ucmp:
    return b2u8(j, cmp(j, cop, a, cast(j, b, AT)));
  case SpvOpSGreaterThan: cop = GCC_JIT_COMPARISON_GT; goto scmp;
  case SpvOpSGreaterThanEqual: cop = GCC_JIT_COMPARISON_GE; goto scmp;
  case SpvOpSLessThan: cop = GCC_JIT_COMPARISON_LT; goto scmp;
  case SpvOpSLessThanEqual: cop = GCC_JIT_COMPARISON_LE; goto scmp;
  scmp:
    return b2u8(j, cmp(j, cop, cast(j, a, AS), cast(j, b, AS)));
  case SpvOpFOrdEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_EQ, a, b));
  case SpvOpFOrdLessThan: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, a, b));
  case SpvOpFOrdGreaterThan: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, a, b));
  case SpvOpFOrdLessThanEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_LE, a, b));
  case SpvOpFOrdGreaterThanEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_GE, a, b));
  case SpvOpFOrdNotEqual:
    return bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, a, b)),
               b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, a, b)));
  case SpvOpFUnordNotEqual: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, b));
  case SpvOpFUnordEqual: case SpvOpFUnordLessThan: case SpvOpFUnordGreaterThan:
  case SpvOpFUnordLessThanEqual: case SpvOpFUnordGreaterThanEqual: {
    gcc_jit_rvalue *ord;
    if (in->op == SpvOpFUnordEqual)
      ord = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[0], b2u8(j, cmp(j, GCC_JIT_COMPARISON_LT, a, b)),
                b2u8(j, cmp(j, GCC_JIT_COMPARISON_GT, a, b)));
    else
      ord = b2u8(j, cmp(j, in->op == SpvOpFUnordLessThan ? GCC_JIT_COMPARISON_GE :
                           in->op == SpvOpFUnordGreaterThan ? GCC_JIT_COMPARISON_LE :
                           in->op == SpvOpFUnordLessThanEqual ? GCC_JIT_COMPARISON_GT : GCC_JIT_COMPARISON_LT, a, b));
    return bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[0], ord, ci(j, j->t_u[0], 1));
  }
  case SpvOpIsNan: return b2u8(j, cmp(j, GCC_JIT_COMPARISON_NE, a, a));
  case SpvOpLogicalAnd: return bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, a, b);
  case SpvOpLogicalOr: return bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, T, a, b);
  case SpvOpLogicalNot: return bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, T, a, ci(j, T, 1));
  case SpvOpUConvert: case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
    return fixw(j, rt, cast(j, a, T));
  case SpvOpSConvert:
    return fixw(j, rt, cast(j, cast(j, cast(j, a, AS), sscal(j, rt)), T));
  case SpvOpFConvert: case SpvOpConvertUToF: return cast(j, a, T);
  case SpvOpConvertSToF: return cast(j, cast(j, a, AS), T);
  case SpvOpBitcast:
    if (an != rn || comp_bytes(j->k, at) != comp_bytes(j->k, rt)) {
      failf(j->e, "%s: bitcast changing the component count", ld_insn_where(m, in));
      return ci(j, T, 0);
    }
    if (AT == T) return a;
    if ((rt->kind == LD_T_FLOAT) != (at->kind == LD_T_FLOAT)) return gcc_jit_context_new_bitcast(j->cx, NULL, a, T);
    return cast(j, a, T);
  case SpvOpSelect: {
    const ld_type *ct; uint32_t cn;
    lane_shape(m->values[in->ops[0]].type, &ct, &cn);
    gcc_jit_rvalue *cond = V(j, inst, in->ops[0], cn == 1 ? 0 : c);
    gcc_jit_rvalue *x = V(j, inst, in->ops[1], c), *y = V(j, inst, in->ops[2], c);
    return sel(j, cmp(j, GCC_JIT_COMPARISON_NE, cond, ci(j, j->t_u[0], 0)), x, y, T);
  }
  case SpvOpExtInst:   /* OpenCL.std mad: x * y + z, not contracted (as the interpreter) */
    if (in->ext_op == OpenCLstd_Mad && in->n_ops == 5)
      return bin(j, GCC_JIT_BINARY_OP_PLUS, T,
                 bin(j, GCC_JIT_BINARY_OP_MULT, T, V(j, inst, in->ops[2], c), V(j, inst, in->ops[3], c)),
                 V(j, inst, in->ops[4], c));
    break;
  case SpvOpCompositeExtract: {
    if (in->n_ops != 2) break;
    return V(j, inst, in->ops[0], in->ops[1]);
  }
  case SpvOpCompositeInsert: {
    if (in->n_ops != 3) break;
    return c == in->ops[2] ? V(j, inst, in->ops[0], 0) : V(j, inst, in->ops[1], c);
  }
  case SpvOpCompositeConstruct: {
    uint32_t k = 0;
    for (uint32_t i = 0; i < in->n_ops; i++) {
      const ld_type *et; uint32_t en;
      if (!lane_shape(m->values[in->ops[i]].type, &et, &en)) break;
      if (c < k + en) return V(j, inst, in->ops[i], c - k);
      k += en;
    }
    break;
  }
  case SpvOpVectorShuffle: {
    const ld_type *t1; uint32_t n1;
    lane_shape(m->values[in->ops[0]].type, &t1, &n1);
    uint32_t sidx = in->ops[2 + c];
    if (sidx == 0xFFFFFFFFu) return ci(j, T, 0);
    return sidx < n1 ? V(j, inst, in->ops[0], sidx) : V(j, inst, in->ops[1], sidx - n1);
  }
  default: break;
  }
  failf(j->e, "%s: %s not compiled yet", ld_insn_where(m, in), opname(in->op));
  return ci(j, T, 0);
}

/* Pointer arithmetic of the access chains (u64 result). */
static gcc_jit_rvalue *access_chain(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_rvalue *p = cast(j, V(j, inst, in->ops[0], 0), U);
  const ld_type *t = m->values[in->ops[0]].type->elem;
  uint32_t i = 1;
  bool ptrac = in->op == SpvOpPtrAccessChain || in->op == SpvOpInBoundsPtrAccessChain;
  for (; i < in->n_ops && t; i++) {
    uint32_t id = in->ops[i];
    const ld_type *it = m->values[id].type;
    uint64_t stride;
    if (ptrac && i == 1) stride = t->size;
    else if (t->kind == LD_T_STRUCT) {
      bool ok = true;
      uint32_t mi = const_u32(m, id, &ok);
      if (!ok || mi >= t->n_members) { failf(j->e, "%s: bad struct index", ld_insn_where(m, in)); return p; }
      p = bin(j, GCC_JIT_BINARY_OP_PLUS, U, p, ci(j, U, (long)t->offsets[mi]));
      t = t->members[mi];
      continue;
    } else if (t->kind == LD_T_ARRAY || t->kind == LD_T_RUNTIME_ARRAY || t->kind == LD_T_VECTOR) {
      stride = t->elem->size;
      if (t->kind == LD_T_VECTOR) stride = t->elem->size;
      t = t->elem;
    } else { failf(j->e, "%s: access chain into a scalar", ld_insn_where(m, in)); return p; }
    if (!it || it->kind != LD_T_INT) { failf(j->e, "%s: non-integer index", ld_insn_where(m, in)); return p; }
    gcc_jit_rvalue *x = V(j, inst, id, 0);
    x = cast(j, cast(j, cast(j, x, sscal(j, it)), j->t_s[3]), U);
    p = bin(j, GCC_JIT_BINARY_OP_PLUS, U, p, bin(j, GCC_JIT_BINARY_OP_MULT, U, x, ci(j, U, (long)stride)));
  }
  return p;
}

static gcc_jit_rvalue *ctxf(J *j, gcc_jit_field *fl) {
  return gcc_jit_lvalue_as_rvalue(gcc_jit_rvalue_dereference_field(j->c, NULL, fl));
}
static gcc_jit_lvalue *cfl(J *j, gcc_jit_field *fl) { return gcc_jit_rvalue_dereference_field(j->c, NULL, fl); }
static gcc_jit_lvalue *wfl(J *j, gcc_jit_field *fl) { return gcc_jit_rvalue_dereference_field(ctxf(j, j->c_wg), NULL, fl); }
static gcc_jit_rvalue *R_(gcc_jit_lvalue *l) { return gcc_jit_lvalue_as_rvalue(l); }
static gcc_jit_rvalue *SP(J *j) { return ctxf(j, j->c_sp); }
static gcc_jit_lvalue *stack_at(J *j, gcc_jit_rvalue *i) {
  return gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_stack), i);
}
static gcc_jit_lvalue *top_e(J *j) { return stack_at(j, bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, SP(j), ci(j, j->t_i32, 1))); }
static gcc_jit_lvalue *ent_f(J *j, gcc_jit_lvalue *e, gcc_jit_field *fl) { (void)j; return gcc_jit_lvalue_access_field(e, NULL, fl); }
static gcc_jit_lvalue *ent_m(J *j, gcc_jit_lvalue *e, int w) {
  return gcc_jit_context_new_array_access(j->cx, NULL, R_(ent_f(j, e, j->e_m)), ci(j, j->t_i32, w));
}
static gcc_jit_lvalue *arr_at(J *j, gcc_jit_rvalue *arr, int i) {
  return gcc_jit_context_new_array_access(j->cx, NULL, arr, ci(j, j->t_i32, i));
}
static uint32_t n_words(J *j) { return j->S > 64 ? 2 : 1; }

/* Per-lane checked access (inside a lane loop, under the mask): returns an
 * rvalue u8* that is NULL after a fault. */
static gcc_jit_rvalue *checked_ptr(J *j, uint32_t insn_idx, gcc_jit_rvalue *addr, uint32_t size,
                                   uint32_t align, bool write) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_lvalue *A = local(j, U), *P = local(j, j->t_u8p);
  assign(j, A, cast(j, addr, U));
  gcc_jit_rvalue *Ar = gcc_jit_lvalue_as_rvalue(A);
  gcc_jit_rvalue *r = bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, Ar, ci(j, U, (long)a->shift));
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, Ar, ci(j, U, (long)a->offset_mask));
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions), r);
  gcc_jit_rvalue *lim = gcc_jit_lvalue_as_rvalue(gcc_jit_lvalue_access_field(reg, NULL, write ? j->r_wsize : j->r_size));
  gcc_jit_rvalue *ok = cmp(j, GCC_JIT_COMPARISON_LE, bin(j, GCC_JIT_BINARY_OP_PLUS, U, off, ci(j, U, size)), lim);
  if (align > 1)
    ok = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, ok,
             cmp(j, GCC_JIT_COMPARISON_EQ, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, Ar, ci(j, U, align - 1)), ci(j, U, 0)));
  gcc_jit_block *fast = nb(j), *slow = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, ok, fast, slow);
  j->b = fast;
  gcc_jit_rvalue *base = gcc_jit_lvalue_as_rvalue(gcc_jit_lvalue_access_field(reg, NULL, j->r_base));
  assign(j, P, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, base, off), NULL));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = slow;
  gcc_jit_rvalue *args[7] = {j->c, ci(j, j->t_i32, (long)insn_idx), L(j), Ar, ci(j, j->t_i32, size),
                             ci(j, j->t_i32, align), ci(j, j->t_i32, write ? IP_WRITE : IP_READ)};
  assign(j, P, cast(j, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_mem), 7, args), j->t_u8p));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  return gcc_jit_lvalue_as_rvalue(P);
}

static gcc_jit_lvalue *typed_at(J *j, gcc_jit_rvalue *p, uint32_t byte_off, gcc_jit_type *t) {
  gcc_jit_rvalue *q = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, p, ci(j, j->t_i32, byte_off)), NULL);
  return gcc_jit_rvalue_dereference(cast(j, q, gcc_jit_type_get_pointer(t)), NULL);
}

static uint32_t mem_align(const ld_insn *in, uint32_t first_mo, const ld_type *t) {
  uint32_t al = t->align ? t->align : 1;
  if (in->n_ops > first_mo && (in->ops[first_mo] & SpvMemoryAccessAlignedMask) && in->n_ops > first_mo + 1)
    if (in->ops[first_mo + 1] && in->ops[first_mo + 1] < al) al = in->ops[first_mo + 1];   /* as interp/exec_memory.c: Aligned lowers it (packed structs) */
  return al & (al - 1) ? 1 : al;
}

/* True if pointer id is a Function variable of this instance itself (not an
 * access chain into it) and `size` bytes fit in it: each lane's access is to
 * its own private bytes, always in bounds and aligned. */
static bool private_direct(J *j, uint32_t inst, uint32_t id, uint32_t size) {
  const ld_value *v = &j->m->values[id];
  if (v->kind != LD_V_RESULT || v->u.insn->op != SpvOpVariable) return false;
  const ld_type *pt = v->u.insn->type ? v->u.insn->type->elem : NULL;
  if (!pt || size > pt->size) return false;
  (void)inst;
  return j->k->priv_bytes > 0;
}
static gcc_jit_rvalue *priv_ptr(J *j, uint32_t inst, uint32_t id) {
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_u[3],
      bin(j, GCC_JIT_BINARY_OP_MULT, j->t_u[3], cast(j, L(j), j->t_u[3]), R_(wfl(j, j->w_priv_stride))),
      ci(j, j->t_u[3], (long)j->privoff[vidx(j, inst, id)]));
  return gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_priv), off), NULL);
}

/* The subgroup-wide fast path of a memory access: computes every lane's
 * address into addr[], then tests that all S lanes are active, all addresses
 * lie in one region, in bounds (readable or writable) and aligned.  Returns the
 * join block; j->b is the fast block (j->fast_base holds the region base) and
 * j->slow the per-lane checked path.  NULL: no fast path (j->b unchanged). */
static gcc_jit_block *mem_fast(J *j, uint32_t inst, uint32_t ptr, uint32_t size, uint32_t align, bool write,
                               bool want_contig) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  gcc_jit_lvalue *bad = local(j, U), *hi = local(j, U), *a0 = local(j, U);
  j->contig = NULL;   /* consecutive addresses: tested only when fast_contig can use it */
  if (want_contig) {
    j->contig = local(j, U);
    assign(j, j->contig, ci(j, U, 0));
  }
  loop_begin(j, &lp);
  assign(j, lane_arr(j, j->f_addr, L(j)), cast(j, V(j, inst, ptr, 0), U));
  loop_end(j, &lp);
  assign(j, a0, R_(arr_at(j, R_(fld(j, j->f_addr)), 0)));
  assign(j, bad, ci(j, U, 0));
  assign(j, hi, ci(j, U, 0));
  gcc_jit_rvalue *reg0 = bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(a0), ci(j, U, (long)a->shift));
  loop_begin(j, &lp);
  gcc_jit_rvalue *ad = R_(lane_arr(j, j->f_addr, L(j)));
  gcc_jit_rvalue *b = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, ad, ci(j, U, (long)a->shift)), reg0);
  if (align > 1) b = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, b, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, ad, ci(j, U, align - 1)));
  assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad), b));
  if (want_contig)
    assign(j, j->contig, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(j->contig), bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, ad,
        bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(a0), bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), ci(j, U, size))))));
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, ad, ci(j, U, (long)a->offset_mask));
  assign(j, hi, sel(j, cmp(j, GCC_JIT_COMPARISON_GT, off, R_(hi)), off, R_(hi), U));
  loop_end(j, &lp);
  /* every lane active */
  uint64_t full0 = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
  uint64_t full1 = j->S > 64 ? (j->S >= 128 ? ~0ull : (1ull << (j->S - 64)) - 1) : 0;
  gcc_jit_rvalue *m0 = cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_m(j, top_e(j), 0)), cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)full0), U));
  gcc_jit_rvalue *m1 = cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_m(j, top_e(j), 1)), cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)full1), U));
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions), reg0);
  gcc_jit_rvalue *lim = R_(gcc_jit_lvalue_access_field(reg, NULL, write ? j->r_wsize : j->r_size));
  gcc_jit_rvalue *inb = cmp(j, GCC_JIT_COMPARISON_LE, bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(hi), ci(j, U, size)), lim);
  gcc_jit_block *c1 = nb(j), *c2 = nb(j), *c3 = nb(j), *fast = nb(j), *slow = nb(j), *after = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, m0, c1, slow);
  gcc_jit_block_end_with_conditional(c1, NULL, m1, c2, slow);
  gcc_jit_block_end_with_conditional(c2, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)), c3, slow);
  gcc_jit_block_end_with_conditional(c3, NULL, inb, fast, slow);
  j->b = fast;
  j->fast_base = local(j, j->t_u8p);
  assign(j, j->fast_base, R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_base)));
  j->slow = slow;
  return after;
}
/* In the fast block: when the lanes' addresses are consecutive elements and
 * the value is one lane array (a scalar slot), one memcpy moves the whole
 * subgroup.  Returns the block for the general fast loop (j->b), or NULL if
 * not applicable. */
static void fast_contig(J *j, gcc_jit_field *slot, uint32_t bytes, bool write, gcc_jit_block *after) {
  if (!slot || !j->contig) return;
  gcc_jit_block *cp = nb(j), *gen = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(j->contig), ci(j, j->t_u[3], 0)), cp, gen);
  j->b = cp;
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[3], R_(arr_at(j, R_(fld(j, j->f_addr)), 0)),
                            ci(j, j->t_u[3], (long)a->offset_mask));
  gcc_jit_rvalue *mp = cast(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(j->fast_base), off), NULL), j->t_vp);
  gcc_jit_rvalue *fp = cast(j, gcc_jit_lvalue_get_address(fld(j, slot), NULL), j->t_vp);
  gcc_jit_function *mc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_memcpy");
  gcc_jit_rvalue *args[3] = {write ? mp : fp, write ? fp : mp,
      gcc_jit_context_new_rvalue_from_long(j->cx, gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_SIZE_T), (long)bytes * j->S)};
  gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, mc, 3, args));
  gcc_jit_block_end_with_jump(j->b, NULL, after);
  j->b = gen;
}
/* The lane-array field holding value id of instance inst, if it is one. */
static gcc_jit_field *value_slot(J *j, uint32_t inst, uint32_t id) {
  const ld_value *v = &j->m->values[id];
  if (v->kind == LD_V_RESULT && v->u.insn->op != SpvOpVariable) return j->slot[vidx(j, inst, id)];
  if (v->kind == LD_V_PARAM && inst != 0) return j->slot[vidx(j, inst, id)];
  return NULL;
}

/* The per-lane slow path out of line (jit_rt_ldst); addr[] holds the addresses. */
static void ldst_call(J *j, uint32_t idx, uint32_t slot_off, uint32_t size, uint32_t n, uint32_t cb, bool write,
                      uint32_t align) {
  int32_t packed = (int32_t)(n | cb << 5 | (write ? 1u : 0u) << 9 | align << 10);
  gcc_jit_rvalue *args[6] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx), ci(j, j->t_i32, (long)slot_off),
                             ci(j, j->t_i32, (long)size), ci(j, j->t_i32, packed)};
  gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_ldst), 6, args));
  j->n_stmts++;
}

/* Lane l's host pointer in the fast path. */
static gcc_jit_rvalue *fast_ptr(J *j, uint32_t size) {
  const ld_addr_layout *a = &j->m->layout;
  gcc_jit_type *U = j->t_u[3];
  (void)size;
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(lane_arr(j, j->f_addr, L(j))), ci(j, U, (long)a->offset_mask));
  return gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(j->fast_base), off), NULL);
}

/* A built-in Input variable: every component computed per lane from the
 * work-group values (jit_wgs) and the lane's linear local index. */
static void emit_builtin(J *j, uint32_t inst, const ld_insn *in, SpvBuiltIn bi, const ld_type *ct, uint32_t n) {
  gcc_jit_type *U = j->t_u[3], *T = scal(j, ct);
  gcc_jit_rvalue *sgid = cast(j, ctxf(j, j->c_sg_id), U);
  if (bi >= SpvBuiltInSubgroupEqMask && bi <= SpvBuiltInSubgroupLtMask) {
    /* word c holds lanes k in [32c, 32c+32) of [0, S) with k ==/>=/>/<=/< l */
    gcc_jit_type *SI = j->t_s[3];
    fuse_open(j);
    gcc_jit_rvalue *l = cast(j, L(j), SI);
    for (uint32_t c = 0; c < n; c++) {
      int64_t base = 32 * (int64_t)c;
      /* lowbits(x): the x lowest bits of a word, x clamped to [0, 32] */
      #define LOWBITS(x_) sel(j, cmp(j, GCC_JIT_COMPARISON_LE, (x_), ci(j, SI, 0)), ci(j, U, 0), \
          sel(j, cmp(j, GCC_JIT_COMPARISON_GE, (x_), ci(j, SI, 32)), ci(j, U, 0xffffffffL), \
              bin(j, GCC_JIT_BINARY_OP_MINUS, U, bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, ci(j, U, 1), cast(j, (x_), U)), ci(j, U, 1)), U), U)
      int64_t fulln = (int64_t)j->S - base;
      uint64_t full = fulln <= 0 ? 0 : fulln >= 32 ? 0xffffffffull : (1ull << fulln) - 1;
      gcc_jit_rvalue *x = bin(j, GCC_JIT_BINARY_OP_MINUS, SI, l, ci(j, SI, (long)base));
      gcc_jit_rvalue *x1 = bin(j, GCC_JIT_BINARY_OP_PLUS, SI, x, ci(j, SI, 1));
      gcc_jit_rvalue *v;
      switch (bi) {
      case SpvBuiltInSubgroupEqMask: v = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, LOWBITS(x1), LOWBITS(x)); break;
      case SpvBuiltInSubgroupGeMask:
        v = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, LOWBITS(x), ci(j, U, 0xffffffffL)); break;
      case SpvBuiltInSubgroupGtMask:
        v = bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, LOWBITS(x1), ci(j, U, 0xffffffffL)); break;
      case SpvBuiltInSubgroupLeMask: v = LOWBITS(x1); break;
      default: v = LOWBITS(x); break;
      }
      #undef LOWBITS
      v = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, v, ci(j, U, (long)full));
      assign(j, res_lv(j, inst, in->result, c), cast(j, v, T));
    }
    return;
  }
  gcc_jit_lvalue *lidp[3] = {NULL, NULL, NULL};
  bool need_lid = bi == SpvBuiltInGlobalInvocationId || bi == SpvBuiltInLocalInvocationId ||
                  bi == SpvBuiltInGlobalLinearId;
  if (need_lid) {
    gcc_jit_type *u32p = gcc_jit_type_get_pointer(j->t_u[2]);
    gcc_jit_rvalue *cap = R_(wfl(j, j->w_lid_cap));
    gcc_jit_rvalue *first = bin(j, GCC_JIT_BINARY_OP_MULT, U, sgid, ci(j, U, (long)j->S));
    for (int d = 0; d < 3; d++) {
      lidp[d] = local(j, u32p);
      gcc_jit_rvalue *o = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_MULT, U, cap, ci(j, U, d)), first);
      assign(j, lidp[d], gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, R_(wfl(j, j->w_lid)), o), NULL));
    }
  }
  gcc_jit_lvalue *uni[3] = {NULL, NULL, NULL};   /* lane-invariant part of each component */
  /* the lane-invariant parts first, outside the lane loop (read once, and
   * the loop stays vectorizable: frame stores could alias jit_wgs) */
  for (uint32_t c = 0; c < n; c++) {
    gcc_jit_rvalue *v = NULL;
    gcc_jit_rvalue *gc = R_(arr_at(j, R_(wfl(j, j->w_group)), (int)c));
    switch (bi) {
    case SpvBuiltInGlobalInvocationId:
      v = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_MULT, U, gc, R_(arr_at(j, R_(wfl(j, j->w_local)), (int)c))),
              R_(arr_at(j, R_(wfl(j, j->w_offset)), (int)c)));
      break;
    case SpvBuiltInWorkgroupId: v = gc; break;
    case SpvBuiltInNumWorkgroups: v = R_(arr_at(j, R_(wfl(j, j->w_groups)), (int)c)); break;
    case SpvBuiltInWorkgroupSize: v = R_(arr_at(j, R_(wfl(j, j->w_wsize)), (int)c)); break;
    case SpvBuiltInEnqueuedWorkgroupSize: v = R_(arr_at(j, R_(wfl(j, j->w_local)), (int)c)); break;
    case SpvBuiltInGlobalSize: v = R_(arr_at(j, R_(wfl(j, j->w_global)), (int)c)); break;
    case SpvBuiltInGlobalOffset: v = R_(arr_at(j, R_(wfl(j, j->w_offset)), (int)c)); break;
    case SpvBuiltInSubgroupSize: v = cast(j, ctxf(j, j->c_n_lanes), U); break;
    case SpvBuiltInSubgroupMaxSize: v = ci(j, U, (long)j->S); break;
    case SpvBuiltInNumSubgroups: v = R_(wfl(j, j->w_n_sg)); break;
    case SpvBuiltInNumEnqueuedSubgroups: v = R_(wfl(j, j->w_enq_sg)); break;
    case SpvBuiltInSubgroupId: v = sgid; break;
    case SpvBuiltInWorkDim: v = R_(wfl(j, j->w_dim)); break;
    case SpvBuiltInGlobalLinearId: {
      gcc_jit_lvalue *gb[3];
      for (int d = 0; d < 3; d++) {
        gb[d] = local(j, U);
        assign(j, gb[d], bin(j, GCC_JIT_BINARY_OP_MULT, U, R_(arr_at(j, R_(wfl(j, j->w_group)), d)),
                             R_(arr_at(j, R_(wfl(j, j->w_local)), d))));
      }
      gcc_jit_lvalue *g0 = local(j, U), *g1 = local(j, U);
      assign(j, g0, R_(arr_at(j, R_(wfl(j, j->w_global)), 0)));
      assign(j, g1, R_(arr_at(j, R_(wfl(j, j->w_global)), 1)));
      fuse_open(j);
      gcc_jit_rvalue *x[3];
      for (int d = 0; d < 3; d++)
        x[d] = bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(gb[d]),
                   cast(j, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(lidp[d]), L(j))), U));
      gcc_jit_rvalue *lin = bin(j, GCC_JIT_BINARY_OP_PLUS, U,
          bin(j, GCC_JIT_BINARY_OP_MULT, U, bin(j, GCC_JIT_BINARY_OP_PLUS, U,
              bin(j, GCC_JIT_BINARY_OP_MULT, U, x[2], R_(g1)), x[1]), R_(g0)), x[0]);
      assign(j, res_lv(j, inst, in->result, c), cast(j, lin, T));
      continue;
    }
    default: v = ci(j, U, 0); break;   /* LocalInvocationId, LocalInvocationIndex, SubgroupLocalInvocationId: per lane */
    }
    if (c < 3) { uni[c] = local(j, U); assign(j, uni[c], v); }
  }
  if (bi == SpvBuiltInGlobalLinearId) return;
  for (uint32_t c = 0; c < n; c++) {
    fuse_open(j);
    gcc_jit_rvalue *lv = c < 3 ? R_(uni[c]) : ci(j, U, 0);
    gcc_jit_rvalue *lane = cast(j, L(j), U);
    if (c < 3 && (bi == SpvBuiltInGlobalInvocationId || bi == SpvBuiltInLocalInvocationId))
      lv = bin(j, GCC_JIT_BINARY_OP_PLUS, U, lv, cast(j, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(lidp[c]), L(j))), U));
    else if (bi == SpvBuiltInLocalInvocationIndex)
      lv = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_MULT, U, sgid, ci(j, U, (long)j->S)), lane);
    else if (bi == SpvBuiltInSubgroupLocalInvocationId)
      lv = lane;
    assign(j, res_lv(j, inst, in->result, c), cast(j, lv, T));
  }
}

static void emit_load(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  if (!lane_shape(in->type, &ct, &n)) { failf(j->e, "%s: load of an aggregate", ld_insn_where(m, in)); return; }
  gcc_jit_type *T = scal(j, ct);
  uint32_t cb = comp_bytes(j->k, ct);
  const ld_value *pv = &m->values[in->ops[0]];
  jloop lp;
  if (pv->kind == LD_V_VARIABLE && pv->u.var->storage == SpvStorageClassInput) {
    emit_builtin(j, inst, in, (SpvBuiltIn)pv->u.var->builtin, ct, n);
    return;
  }
  uint32_t idx = add_insn_index(j->k, in);
  uint32_t al = mem_align(in, 1, in->type);
  gcc_jit_block *after = NULL;
  if (private_direct(j, inst, in->ops[0], in->type->size)) {
    /* a Function variable of this instance: each lane's own private bytes */
    loop_begin(j, &lp);
    gcc_jit_rvalue *p = priv_ptr(j, inst, in->ops[0]);
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_lvalue *r = res_lv(j, inst, in->result, c);
      assign(j, r, mblend(j, R_(typed_at(j, p, c * cb, T)), R_(r), T));
    }
    loop_end(j, &lp);
    return;
  }
  bool contig = n == 1 && cb == in->type->size && value_slot(j, inst, in->result);
  after = mem_fast(j, inst, in->ops[0], in->type->size, al, false, contig);
  if (after) {
    /* j->b: every lane active, same region, in bounds, aligned */
    if (contig) fast_contig(j, value_slot(j, inst, in->result), cb, false, after);
    loop_begin(j, &lp);
    gcc_jit_rvalue *p = fast_ptr(j, in->type->size);
    for (uint32_t c = 0; c < n; c++)
      assign(j, res_lv(j, inst, in->result, c), R_(typed_at(j, p, c * cb, T)));
    loop_end(j, &lp);
    gcc_jit_block_end_with_jump(j->b, NULL, after);
    j->b = j->slow;
    if (value_slot(j, inst, in->result)) {
      ldst_call(j, idx, j->k->slot_off[vidx(j, inst, in->result)], in->type->size, n, cb, false, al);
      gcc_jit_block_end_with_jump(j->b, NULL, after);
      j->b = after;
      return;
    }
  }
  loop_begin(j, &lp);
  gcc_jit_lvalue *tmp[16];
  for (uint32_t c = 0; c < n; c++) {
    tmp[c] = local(j, T);
    assign(j, tmp[c], gcc_jit_lvalue_as_rvalue(res_lv(j, inst, in->result, c)));
  }
  gcc_jit_block *act = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, MASK(j), act, join);
  j->b = act;
  gcc_jit_rvalue *p = checked_ptr(j, idx, V(j, inst, in->ops[0], 0), in->type->size, al, false);
  gcc_jit_block *ld = nb(j), *zero = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, p, gcc_jit_context_null(j->cx, j->t_u8p)), ld, zero);
  j->b = ld;
  for (uint32_t c = 0; c < n; c++) assign(j, tmp[c], gcc_jit_lvalue_as_rvalue(typed_at(j, p, c * cb, T)));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = zero;
  for (uint32_t c = 0; c < n; c++) assign(j, tmp[c], ci(j, T, 0));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  for (uint32_t c = 0; c < n; c++) assign(j, res_lv(j, inst, in->result, c), gcc_jit_lvalue_as_rvalue(tmp[c]));
  loop_end(j, &lp);
  if (after) { gcc_jit_block_end_with_jump(j->b, NULL, after); j->b = after; }
}

static void emit_store(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  const ld_type *vt = m->values[in->ops[1]].type;
  if (!lane_shape(vt, &ct, &n)) { failf(j->e, "%s: store of an aggregate", ld_insn_where(m, in)); return; }
  gcc_jit_type *T = scal(j, ct);
  uint32_t cb = comp_bytes(j->k, ct);
  uint32_t idx = add_insn_index(j->k, in);
  uint32_t al = mem_align(in, 2, vt);
  jloop lp;
  if (private_direct(j, inst, in->ops[0], vt->size)) {
    /* a Function variable of this instance: blend into each lane's own bytes */
    loop_begin(j, &lp);
    gcc_jit_rvalue *p = priv_ptr(j, inst, in->ops[0]);
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_lvalue *d = typed_at(j, p, c * cb, T);
      assign(j, d, mblend(j, V(j, inst, in->ops[1], c), R_(d), T));
    }
    loop_end(j, &lp);
    return;
  }
  bool contig = n == 1 && cb == vt->size && value_slot(j, inst, in->ops[1]);
  gcc_jit_block *after = mem_fast(j, inst, in->ops[0], vt->size, al, true, contig);
  if (after) {
    if (contig) fast_contig(j, value_slot(j, inst, in->ops[1]), cb, true, after);
    loop_begin(j, &lp);
    gcc_jit_rvalue *p = fast_ptr(j, vt->size);
    for (uint32_t c = 0; c < n; c++) assign(j, typed_at(j, p, c * cb, T), V(j, inst, in->ops[1], c));
    loop_end(j, &lp);
    gcc_jit_block_end_with_jump(j->b, NULL, after);
    j->b = j->slow;
    if (value_slot(j, inst, in->ops[1])) {
      ldst_call(j, idx, j->k->slot_off[vidx(j, inst, in->ops[1])], vt->size, n, cb, true, al);
      gcc_jit_block_end_with_jump(j->b, NULL, after);
      j->b = after;
      return;
    }
  }
  loop_begin(j, &lp);
  gcc_jit_block *act = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, MASK(j), act, join);
  j->b = act;
  gcc_jit_rvalue *p = checked_ptr(j, idx, V(j, inst, in->ops[0], 0), vt->size, al, true);
  gcc_jit_block *st = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, p, gcc_jit_context_null(j->cx, j->t_u8p)), st, join);
  j->b = st;
  for (uint32_t c = 0; c < n; c++) assign(j, typed_at(j, p, c * cb, T), V(j, inst, in->ops[1], c));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  loop_end(j, &lp);
  if (after) { gcc_jit_block_end_with_jump(j->b, NULL, after); j->b = after; }
}

static void ret_done(J *j, gcc_jit_block *b);
/* Reduce / scans of IAdd and FAdd inline; other arithmetic via the reference. */
static void emit_group_(J *j, uint32_t inst, const ld_insn *in);
static gcc_jit_block *emit_coll_check(J *j, uint32_t inst, const ld_insn *in);
static void emit_group(J *j, uint32_t inst, const ld_insn *in) {
  gcc_jit_block *after = NULL;
  if (in->op >= SpvOpGroupIAdd && in->op <= SpvOpGroupSMax) after = emit_coll_check(j, inst, in);
  emit_group_(j, inst, in);
  if (after) { gcc_jit_block_end_with_jump(j->b, NULL, after); j->b = after; }
}
static void emit_group_(J *j, uint32_t inst, const ld_insn *in) {
  const ld_type *ct; uint32_t n;
  lane_shape(in->type, &ct, &n);
  gcc_jit_type *T = scal(j, ct);
  uint32_t gop = in->ops[1], x = in->ops[2];
  bool iadd = in->op == SpvOpGroupIAdd || in->op == SpvOpGroupNonUniformIAdd;
  bool fadd = in->op == SpvOpGroupFAdd || in->op == SpvOpGroupNonUniformFAdd;
  jloop lp;
  if (!iadd && !fadd) {
    /* materialize the operand, then call the shared reference */
    gcc_jit_field *xs = j->phitmp[vidx(j, inst, in->result)];
    loop_begin(j, &lp);
    assign(j, slot_lv(j, xs, 1, 0, L(j)), V(j, inst, x, 0));
    loop_end(j, &lp);
    uint32_t idx = add_insn_index(j->k, in);
    gcc_jit_rvalue *args[5] = {
      j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx),
      cast(j, gcc_jit_lvalue_get_address(fld(j, xs), NULL), j->t_vp),
      cast(j, gcc_jit_lvalue_get_address(fld(j, j->slot[vidx(j, inst, in->result)]), NULL), j->t_vp)};
    gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_group), 5, args));
    return;
  }
  if (iadd && gop != SpvGroupOperationReduce) {
    /* integer scans in log2(S) vector steps (wrapping addition is
     * associative, so the sum equals the interpreter's lane-order sum):
     * a[S + l] holds the running sum, a[0..S) zeros */
    gcc_jit_type *AT = gcc_jit_context_new_array_type(j->cx, NULL, T, (int)(2 * j->S));
    gcc_jit_lvalue *buf[2] = {local(j, AT), local(j, AT)};
    loop_begin(j, &lp);
    gcc_jit_rvalue *mk = bin(j, GCC_JIT_BINARY_OP_MINUS, T, ci(j, T, 0), cast(j, lane_arr_r(j, j->f_mask), T));
    gcc_jit_rvalue *xm = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, V(j, inst, x, 0), mk);
    for (int q = 0; q < 2; q++)
      assign(j, gcc_jit_context_new_array_access(j->cx, NULL, R_(buf[q]), L(j)), ci(j, T, 0));
    assign(j, gcc_jit_context_new_array_access(j->cx, NULL, R_(buf[0]),
                                               bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, L(j), ci(j, j->t_i32, (long)j->S))), xm);
    loop_end(j, &lp);
    int cur = 0;
    for (uint32_t k = 1; k < j->S; k *= 2) {
      loop_begin(j, &lp);
      gcc_jit_rvalue *li = bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, L(j), ci(j, j->t_i32, (long)j->S));
      gcc_jit_rvalue *lk = bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, li, ci(j, j->t_i32, (long)k));
      assign(j, gcc_jit_context_new_array_access(j->cx, NULL, R_(buf[1 - cur]), li),
             fixw(j, ct, bin(j, GCC_JIT_BINARY_OP_PLUS, T, R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(buf[cur]), li)),
                             R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(buf[cur]), lk)))));
      loop_end(j, &lp);
      cur = 1 - cur;
    }
    loop_begin(j, &lp);
    gcc_jit_rvalue *li = bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, L(j), ci(j, j->t_i32, (long)j->S));
    gcc_jit_rvalue *incl = R_(gcc_jit_context_new_array_access(j->cx, NULL, R_(buf[cur]), li));
    gcc_jit_rvalue *v = incl;
    if (gop == SpvGroupOperationExclusiveScan) {
      gcc_jit_rvalue *mk2 = bin(j, GCC_JIT_BINARY_OP_MINUS, T, ci(j, T, 0), cast(j, lane_arr_r(j, j->f_mask), T));
      v = fixw(j, ct, bin(j, GCC_JIT_BINARY_OP_MINUS, T, incl, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, V(j, inst, x, 0), mk2)));
    }
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    assign(j, r, mblend(j, v, R_(r), T));
    loop_end(j, &lp);
    return;
  }
  gcc_jit_lvalue *acc = local(j, T);
  /* identity: 0 for integers, -0.0 for floats (x + -0.0 == x for every x) */
  assign(j, acc, fadd ? gcc_jit_context_new_rvalue_from_double(j->cx, T, -0.0) : ci(j, T, 0));
  gcc_jit_lvalue *have = local(j, j->t_i32);
  assign(j, have, ci(j, j->t_i32, 0));
  loop_begin(j, &lp);
  gcc_jit_rvalue *xv = V(j, inst, x, 0);
  gcc_jit_rvalue *old = gcc_jit_lvalue_as_rvalue(acc);
  if (gop == SpvGroupOperationExclusiveScan) {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    gcc_jit_rvalue *ev = old;
    if (fadd)   /* the first active lane gets the identity +0.0, not the -0.0 seed */
      ev = sel(j, cmp(j, GCC_JIT_COMPARISON_NE, gcc_jit_lvalue_as_rvalue(have), ci(j, j->t_i32, 0)), old,
               gcc_jit_context_new_rvalue_from_double(j->cx, T, 0.0), T);
    assign(j, r, mblend(j, ev, gcc_jit_lvalue_as_rvalue(r), T));
    assign(j, have, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_i32, gcc_jit_lvalue_as_rvalue(have),
                        gcc_jit_lvalue_as_rvalue(lane_arr(j, j->f_mask, L(j)))));
  }
  if (iadd) {
    gcc_jit_rvalue *m = bin(j, GCC_JIT_BINARY_OP_MINUS, T, ci(j, T, 0),
                            cast(j, gcc_jit_lvalue_as_rvalue(lane_arr(j, j->f_mask, L(j))), T));
    assign(j, acc, fixw(j, ct, bin(j, GCC_JIT_BINARY_OP_PLUS, T, old, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, T, xv, m))));
  } else {
    assign(j, acc, sel(j, MASK(j), bin(j, GCC_JIT_BINARY_OP_PLUS, T, old, xv), old, T));
  }
  if (gop == SpvGroupOperationInclusiveScan) {
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    assign(j, r, mblend(j, gcc_jit_lvalue_as_rvalue(acc), gcc_jit_lvalue_as_rvalue(r), T));
  }
  loop_end(j, &lp);
  if (gop == SpvGroupOperationReduce) {
    loop_begin(j, &lp);
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    assign(j, r, mblend(j, gcc_jit_lvalue_as_rvalue(acc), gcc_jit_lvalue_as_rvalue(r), T));
    loop_end(j, &lp);
  }
}

/* Any other instruction: the interpreter's own handler on this subgroup's
 * lanes (jit_run.c: jit_rt_interp copies operands in and the result out). */
static void emit_generic(J *j, uint32_t inst, const ld_insn *in) {
  uint32_t idx = add_insn_index(j->k, in);
  j->k->n_interp++;
  if (idx < j->k->cap_insns) j->k->insn_inst[idx] = inst;
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
  gcc_jit_rvalue *rc = gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_interp), 3, args);
  gcc_jit_block *stop = nb(j), *go = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, rc, ci(j, j->t_i32, 0)), stop, go);
  gcc_jit_block_end_with_return(stop, NULL, ci(j, j->t_i32, JIT_RET_DONE));
  j->b = go;
  j->n_stmts++;
}

/* Collectives the interpreter diagnoses when reached by only some lanes:
 * rt_coll runs the interpreter's handler in that case (returns 2) and the
 * inline code is skipped; 0: all lanes active, 1: stop.  Returns the block
 * to continue the inline path in (j->b), after the skip block is wired. */
static gcc_jit_block *emit_coll_check(J *j, uint32_t inst, const ld_insn *in) {
  uint32_t idx = add_insn_index(j->k, in);
  if (idx < j->k->cap_insns) j->k->insn_inst[idx] = inst;
  gcc_jit_block *go = nb(j), *part = nb(j), *stop = nb(j), *after = nb(j), *c2 = nb(j);
  gcc_jit_rvalue *full0 = cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_m(j, top_e(j), 0)), R_(arr_at(j, ctxf(j, j->c_all), 0)));
  gcc_jit_rvalue *full1 = cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_m(j, top_e(j), 1)), R_(arr_at(j, ctxf(j, j->c_all), 1)));
  gcc_jit_block_end_with_conditional(j->b, NULL, full0, c2, part);
  gcc_jit_block_end_with_conditional(c2, NULL, full1, go, part);
  j->b = part;
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
  gcc_jit_lvalue *rc = local(j, j->t_i32);
  assign(j, rc, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_coll), 3, args));
  gcc_jit_block *chk = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, 1)), stop, chk);
  ret_done(j, stop);
  gcc_jit_block_end_with_conditional(chk, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, 0)), go, after);
  j->b = go;
  return after;
}

/* ------------------------------------------------- SIMT stack in compiled code
 *
 * The stack (jit_ctx.stack, sp) and mask[] follow the interpreter's rules:
 * a uniform branch keeps the top entry and jumps straight to the target's
 * label, unless the target is the top entry's reconvergence point; a
 * divergent two-way branch moves the top entry to the reconvergence point (or
 * pops it when it already reconverges there) and pushes the false, then the
 * true side; "settle" pops empty or reconverged entries, writes mask[] from
 * the new top and dispatches on its segment.  Divergent switches call the
 * host (rt_branch). */

/* Continue at segment T with the current lanes. */
static void go_seg(J *j, int32_t T) {
  gcc_jit_block *direct = nb(j), *rec = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(ent_f(j, top_e(j), j->e_rpc)),
                                                      ci(j, j->t_i32, T)), direct, rec);
  gcc_jit_block_end_with_jump(direct, NULL, j->segb[T]);
  j->b = rec;
  assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, T));
  gcc_jit_block_end_with_jump(j->b, NULL, j->settle);
}

static void ret_done(J *j, gcc_jit_block *b) { gcc_jit_block_end_with_return(b, NULL, ci(j, j->t_i32, JIT_RET_DONE)); }

/* Every branch: active lanes remember the segment (for OpPhi); the branch
 * counts toward the step limit (rt_limit checks it, and the time limit). */
static void branch_prologue(J *j, int32_t seg) {
  jloop lp;
  loop_begin(j, &lp);
  gcc_jit_lvalue *p = lane_arr(j, j->f_pred, L(j));
  assign(j, p, mblend(j, ci(j, j->t_i32, seg), R_(p), j->t_i32));
  loop_end(j, &lp);
  gcc_jit_lvalue *st = cfl(j, j->c_steps);
  assign(j, st, bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_u[3], R_(st), ci(j, j->t_u[3], 1)));
  gcc_jit_block *lim = nb(j), *go = nb(j), *stop = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_GE, R_(st), ctxf(j, j->c_step_check)), lim, go);
  j->b = lim;
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, seg)};
  gcc_jit_rvalue *rc = gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_limit), 3, args);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, rc, ci(j, j->t_i32, 0)), stop, go);
  ret_done(j, stop);
  j->b = go;
}

/* Fails the launch when fewer than `need` stack entries are free. */
static void stack_room(J *j, int32_t seg, int need) {
  gcc_jit_block *full = nb(j), *go = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_GT,
      bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, SP(j), ci(j, j->t_i32, need)), ci(j, j->t_i32, JIT_MAX_STACK)), full, go);
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, seg)};
  gcc_jit_block_add_eval(full, NULL, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_overflow), 3, args));
  ret_done(j, full);
  j->b = go;
}

static void push_entry(J *j, int32_t pc, int32_t rpc, gcc_jit_rvalue *m0, gcc_jit_rvalue *m1) {
  gcc_jit_lvalue *e = stack_at(j, SP(j));
  assign(j, ent_f(j, e, j->e_pc), ci(j, j->t_i32, pc));
  assign(j, ent_f(j, e, j->e_rpc), ci(j, j->t_i32, rpc));
  assign(j, ent_m(j, e, 0), m0);
  assign(j, ent_m(j, e, 1), m1);
  assign(j, cfl(j, j->c_sp), bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, SP(j), ci(j, j->t_i32, 1)));
}

/* The settle block: pop, write mask[], dispatch on the top's segment. */
static void emit_settle(J *j) {
  gcc_jit_block *disp = j->segb[j->k->n_seg];
  gcc_jit_block *chk = nb(j), *pop = nb(j), *wr = nb(j), *done = nb(j), *chk2 = nb(j);
  gcc_jit_block_end_with_conditional(j->settle, NULL, cmp(j, GCC_JIT_COMPARISON_LE, SP(j), ci(j, j->t_i32, 0)), done, chk);
  ret_done(j, done);
  j->b = chk;
  gcc_jit_rvalue *any = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[3], R_(ent_m(j, top_e(j), 0)), R_(ent_m(j, top_e(j), 1)));
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, any, ci(j, j->t_u[3], 0)), pop, chk2);
  gcc_jit_block_end_with_conditional(chk2, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_f(j, top_e(j), j->e_pc)),
                                                     R_(ent_f(j, top_e(j), j->e_rpc))), pop, wr);
  j->b = pop;
  assign(j, cfl(j, j->c_sp), bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, SP(j), ci(j, j->t_i32, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, j->settle);
  j->b = wr;
  for (uint32_t w = 0; w < n_words(j); w++) {
    gcc_jit_lvalue *mw = local(j, j->t_u[3]);
    assign(j, mw, R_(ent_m(j, top_e(j), (int)w)));
    jloop lp;
    loop_range(j, &lp, 64 * w, j->S < 64 * w + 64 ? j->S : 64 * w + 64);
    gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, L(j), ci(j, j->t_i32, 64 * w)), j->t_u[3]);
    assign(j, lane_arr(j, j->f_mask, L(j)),
           cast(j, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[3], bin(j, GCC_JIT_BINARY_OP_RSHIFT, j->t_u[3], R_(mw), sh),
                       ci(j, j->t_u[3], 1)), j->t_i32));
    loop_end(j, &lp);
  }
  assign(j, j->next, R_(ent_f(j, top_e(j), j->e_pc)));
  gcc_jit_block_end_with_jump(j->b, NULL, disp);
}

/* The top entry's lanes leave stack entries [first, sp) (a return from an
 * instance, or lanes that terminate); then settle. */
static void leave_lanes(J *j, gcc_jit_rvalue *first) {
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_lvalue *a0 = local(j, U), *a1 = local(j, U), *i = local(j, j->t_i32);
  assign(j, a0, gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, R_(ent_m(j, top_e(j), 0))));
  assign(j, a1, gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, R_(ent_m(j, top_e(j), 1))));
  assign(j, i, first);
  gcc_jit_block *cond = nb(j), *body = nb(j);
  gcc_jit_block_end_with_jump(j->b, NULL, cond);
  gcc_jit_block_end_with_conditional(cond, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(i), SP(j)), body, j->settle);
  j->b = body;
  gcc_jit_lvalue *e = stack_at(j, R_(i));
  assign(j, ent_m(j, e, 0), bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(ent_m(j, e, 0)), R_(a0)));
  assign(j, ent_m(j, e, 1), bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(ent_m(j, e, 1)), R_(a1)));
  assign(j, i, bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, R_(i), ci(j, j->t_i32, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, cond);
}

static void emit_terminator(J *j, uint32_t inst, const ld_insn *in, int32_t seg) {
  const ld_module *m = j->m;
  fuse_close(j);
  const jit_seg *sg = &j->k->seg[seg];
  gcc_jit_block *disp = j->segb[j->k->n_seg];     /* the dispatch block */
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  switch (in->op) {
  case SpvOpBranchConditional: {
    branch_prologue(j, seg);
    if (sg->n_succ == 1) { go_seg(j, sg->succ[0]); return; }
    if (sg->n_succ != 2) { failf(j->e, "%s: conditional branch with %d targets", ld_insn_where(m, in), sg->n_succ); return; }
    /* lanes taking the true target, as mask words */
    gcc_jit_lvalue *tw[2], *fw[2];
    for (uint32_t w = 0; w < 2; w++) {
      tw[w] = local(j, U); fw[w] = local(j, U);
      assign(j, tw[w], ci(j, U, 0));
    }
    for (uint32_t w = 0; w < n_words(j); w++) {
      loop_range(j, &lp, 64 * w, j->S < 64 * w + 64 ? j->S : 64 * w + 64);
      gcc_jit_rvalue *t = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, cast(j, lane_arr_r(j, j->f_mask), U),
                              cast(j, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, in->ops[0], 0), ci(j, j->t_u[0], 0)), U));
      gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, L(j), ci(j, j->t_i32, 64 * w)), U);
      assign(j, tw[w], bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(tw[w]), bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, t, sh)));
      loop_end(j, &lp);
    }
    for (uint32_t w = 0; w < 2; w++)
      assign(j, fw[w], bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(ent_m(j, top_e(j), (int)w)),
                           gcc_jit_context_new_unary_op(j->cx, NULL, GCC_JIT_UNARY_OP_BITWISE_NEGATE, U, R_(tw[w]))));
    gcc_jit_block *allt = nb(j), *c2 = nb(j), *allf = nb(j), *div = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ,
        bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(fw[0]), R_(fw[1])), ci(j, U, 0)), allt, c2);
    gcc_jit_block_end_with_conditional(c2, NULL, cmp(j, GCC_JIT_COMPARISON_EQ,
        bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(tw[0]), R_(tw[1])), ci(j, U, 0)), allf, div);
    j->b = allt; go_seg(j, sg->succ[0]);
    j->b = allf; go_seg(j, sg->succ[1]);
    j->b = div;
    int32_t R = sg->rpc;
    gcc_jit_block *popb = nb(j), *mov = nb(j), *psh = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_f(j, top_e(j), j->e_rpc)),
                                                       ci(j, j->t_i32, R)), popb, mov);
    j->b = popb;
    assign(j, cfl(j, j->c_sp), bin(j, GCC_JIT_BINARY_OP_MINUS, j->t_i32, SP(j), ci(j, j->t_i32, 1)));
    gcc_jit_block_end_with_jump(j->b, NULL, psh);
    j->b = mov;
    assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, R));
    gcc_jit_block_end_with_jump(j->b, NULL, psh);
    j->b = psh;
    stack_room(j, seg, 2);
    if (sg->succ[1] != R) push_entry(j, sg->succ[1], R, R_(fw[0]), R_(fw[1]));
    if (sg->succ[0] != R) push_entry(j, sg->succ[0], R, R_(tw[0]), R_(tw[1]));
    gcc_jit_block_end_with_jump(j->b, NULL, j->settle);
    return;
  }
  case SpvOpSwitch: {
    branch_prologue(j, seg);
    const ld_block *blk = in->block;
    const ld_type *st = m->values[in->ops[0]].type;
    uint32_t wpl = st->width > 32 ? 2 : 1;
    gcc_jit_lvalue *mn = local(j, j->t_i32), *mx = local(j, j->t_i32);
    assign(j, mn, ci(j, j->t_i32, 1 << 20));
    assign(j, mx, ci(j, j->t_i32, -1));
    loop_begin(j, &lp);
    gcc_jit_type *T = scal(j, st);
    gcc_jit_rvalue *sv = V(j, inst, in->ops[0], 0);
    gcc_jit_lvalue *t = local(j, j->t_i32);
    uint32_t def = 0;
    for (uint32_t q = 0; q < blk->n_succs; q++) if (blk->succs[q]->label == in->ops[1]) def = q;
    assign(j, t, ci(j, j->t_i32, def));
    for (uint32_t o = 2; o + wpl < in->n_ops; o += wpl + 1) {
      uint64_t lit = in->ops[o];
      if (wpl == 2) lit |= (uint64_t)in->ops[o + 1] << 32;
      uint32_t label = in->ops[o + wpl];
      uint32_t q = 0;
      for (; q < blk->n_succs; q++) if (blk->succs[q]->label == label) break;
      gcc_jit_rvalue *lv = wpl == 2 ? cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)lit), T)
                                    : ci(j, T, (long)lit);
      assign(j, t, sel(j, cmp(j, GCC_JIT_COMPARISON_EQ, sv, lv), ci(j, j->t_i32, q), R_(t), j->t_i32));
    }
    assign(j, lane_arr(j, j->f_tgt, L(j)), R_(t));
    gcc_jit_rvalue *tv = R_(t);
    assign(j, mn, sel(j, cmp(j, GCC_JIT_COMPARISON_LT, tv, R_(mn)), sel(j, MASK(j), tv, R_(mn), j->t_i32), R_(mn), j->t_i32));
    assign(j, mx, sel(j, cmp(j, GCC_JIT_COMPARISON_GT, tv, R_(mx)), sel(j, MASK(j), tv, R_(mx), j->t_i32), R_(mx), j->t_i32));
    loop_end(j, &lp);
    gcc_jit_block *uni = nb(j), *slow = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(mn), R_(mx)), uni, slow);
    if (sg->n_succ > 0) {
      gcc_jit_case **cases = calloc((size_t)sg->n_succ, sizeof *cases);
      if (!cases) { failf(j->e, "out of memory"); return; }
      for (int32_t q = 0; q < sg->n_succ; q++) {
        gcc_jit_block *bq = nb(j);
        cases[q] = gcc_jit_context_new_case(j->cx, ci(j, j->t_i32, q), ci(j, j->t_i32, q), bq);
        j->b = bq;
        go_seg(j, sg->succ[q]);
      }
      gcc_jit_block_end_with_switch(uni, NULL, R_(mn), slow, sg->n_succ, cases);
      free(cases);
    } else {
      gcc_jit_block_end_with_jump(uni, NULL, slow);
    }
    j->b = slow;
    gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, seg)};
    assign(j, j->next, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_branch), 3, args));
    gcc_jit_block_end_with_jump(j->b, NULL, disp);
    return;
  }
  case SpvOpBranch:
    branch_prologue(j, seg);
    if (sg->n_succ != 1) { failf(j->e, "%s: branch without a target", ld_insn_where(m, in)); return; }
    go_seg(j, sg->succ[0]);
    return;
  case SpvOpReturn: case SpvOpReturnValue: {
    const jit_inst *I = &j->k->inst[inst];
    if (in->op == SpvOpReturnValue && inst != 0) {
      const ld_insn *call = NULL;
      /* the call instruction: last insn of the segment before the continuation */
      const jit_seg *cs = &j->k->seg[I->cont];
      call = &cs->blk->insns[cs->first - 1];
      const ld_type *ct; uint32_t n;
      if (lane_shape(call->type, &ct, &n)) {
        loop_begin(j, &lp);
        for (uint32_t c = 0; c < n; c++) {
          gcc_jit_lvalue *r = res_lv(j, I->parent, call->result, c);
          assign(j, r, mblend(j, V(j, inst, in->ops[0], c), gcc_jit_lvalue_as_rvalue(r), scal(j, ct)));
        }
        loop_end(j, &lp);
      } else {
        failf(j->e, "%s: return of an aggregate", ld_insn_where(m, in));
      }
    }
    /* the returning lanes leave every entry of this instance */
    leave_lanes(j, inst == 0 ? ci(j, j->t_i32, 0) : R_(arr_at(j, ctxf(j, j->c_base), (int)inst)));
    return;
  }
  case SpvOpUnreachable: {
    /* a fault for the active lanes, which then terminate (ip_kill): they
     * leave every stack entry */
    uint32_t idx = add_insn_index(j->k, in);
    gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
    gcc_jit_rvalue *rc = gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, j->c_unreach), 3, args);
    gcc_jit_block *stop = nb(j), *go = nb(j);
    gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, rc, ci(j, j->t_i32, 0)), stop, go);
    ret_done(j, stop);
    j->b = go;
    leave_lanes(j, ci(j, j->t_i32, 0));
    return;
  }
  default:
    failf(j->e, "%s: terminator %s not compiled yet", ld_insn_where(m, in), opname(in->op));
    return;
  }
}

static void emit_phis(J *j, uint32_t inst, const ld_block *blk) {
  if (!blk->n_phis) return;
  const jit_inst *I = &j->k->inst[inst];
  fuse_open(j);
  gcc_jit_rvalue *pred = gcc_jit_lvalue_as_rvalue(lane_arr(j, j->f_pred, L(j)));
  for (uint32_t p = 0; p < blk->n_phis; p++) {
    const ld_insn *in = &blk->insns[p];
    const ld_type *ct; uint32_t n;
    if (!lane_shape(in->type, &ct, &n)) { failf(j->e, "%s: phi of an aggregate", ld_insn_where(j->m, in)); return; }
    gcc_jit_field *dst = blk->n_phis > 1 ? j->phitmp[vidx(j, inst, in->result)] : j->slot[vidx(j, inst, in->result)];
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_lvalue *r = slot_lv(j, dst, n, c, L(j));
      gcc_jit_rvalue *v = gcc_jit_lvalue_as_rvalue(res_lv(j, inst, in->result, c));
      for (uint32_t o = 0; o + 1 < in->n_ops; o += 2) {
        const ld_value *lab = &j->m->values[in->ops[o + 1]];
        if (lab->kind != LD_V_LABEL) continue;
        int32_t ts = I->term_seg[lab->u.block->index];
        if (ts < 0) continue;
        v = sel(j, cmp(j, GCC_JIT_COMPARISON_EQ, pred, ci(j, j->t_i32, ts)), V(j, inst, in->ops[o], c), v, scal(j, ct));
      }
      assign(j, r, mblend(j, v, gcc_jit_lvalue_as_rvalue(r), scal(j, ct)));
    }
  }
  if (blk->n_phis > 1)
    for (uint32_t p = 0; p < blk->n_phis; p++) {
      const ld_insn *in = &blk->insns[p];
      const ld_type *ct; uint32_t n;
      lane_shape(in->type, &ct, &n);
      for (uint32_t c = 0; c < n; c++)
        assign(j, res_lv(j, inst, in->result, c),
               gcc_jit_lvalue_as_rvalue(slot_lv(j, j->phitmp[vidx(j, inst, in->result)], n, c, L(j))));
    }
}

/* --------------------------------------------- cross-lane fast paths
 *
 * Shuffles, broadcast, ballot and block reads run inline when every lane of
 * the subgroup is active and the operands are such that the interpreter would
 * record no diagnostic (indices in range, uniform where the rule says so);
 * otherwise the same instruction runs the interpreter's handler (emit_generic),
 * which records the UB exactly as the interpreter does. */

static gcc_jit_rvalue *all_active(J *j) {
  gcc_jit_type *U = j->t_u[3];
  uint64_t full0 = j->S >= 64 ? ~0ull : (1ull << j->S) - 1;
  uint64_t full1 = j->S > 64 ? (j->S >= 128 ? ~0ull : (1ull << (j->S - 64)) - 1) : 0;
  gcc_jit_rvalue *m0 = cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_m(j, top_e(j), 0)),
                           cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)full0), U));
  gcc_jit_rvalue *m1 = cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_m(j, top_e(j), 1)),
                           cast(j, gcc_jit_context_new_rvalue_from_long(j->cx, j->t_s[3], (long)full1), U));
  return bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, m0, m1);
}

/* True if component reads of value id can be gathered from another lane:
 * a lane array, or a value that is the same in every lane. */
static bool gatherable(J *j, uint32_t inst, uint32_t id) {
  const ld_value *v = &j->m->values[id];
  if (v->kind == LD_V_CONSTANT || v->kind == LD_V_UNDEF || v->kind == LD_V_VARIABLE) return true;
  if (v->kind == LD_V_PARAM && inst == 0) return true;
  return value_slot(j, inst, id) != NULL;
}
/* Component c of value id in lane `src` (an rvalue lane index). */
static gcc_jit_rvalue *gather_v(J *j, uint32_t inst, uint32_t id, uint32_t c, gcc_jit_rvalue *src) {
  gcc_jit_field *f = value_slot(j, inst, id);
  if (!f) return V(j, inst, id, c);
  const ld_type *ct; uint32_t n;
  lane_shape(j->m->values[id].type, &ct, &n);
  return R_(slot_lv(j, f, n, c, src));
}

/* if (cond) { fast: j->b } else { generic }  -> returns the join block; the
 * caller fills j->b (fast) and jumps to the join. */
static gcc_jit_block *fast_or_generic(J *j, uint32_t inst, const ld_insn *in, gcc_jit_rvalue *cond) {
  gcc_jit_block *fast = nb(j), *slow = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cond, fast, slow);
  j->b = slow;
  emit_generic(j, inst, in);
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = fast;
  return join;
}

static bool has_flag(const char *flags, const char *f) {
  size_t n = strlen(f);
  for (const char *p = flags ? strstr(flags, f) : NULL; p; p = strstr(p + 1, f))
    if ((p == flags || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) return true;
  return false;
}

/* Lane permutes in one instruction: res[l] = x[idx[l]] (vpermd) or, with a
 * second table, x/y[idx[l]] for idx in [0, 2S) (vpermi2d), 32-bit lanes,
 * S = 16 (zmm, AVX-512F) or 8 (ymm, AVX2 / AVX-512VL).  GCC has no permute
 * in libgccjit and does not turn the gather loop into one, so the template is
 * extended asm.  idx: int32 lane array (frame field); false if not applicable. */
static bool can_permute(J *j, bool two) {
  return (j->S == 16 && has_flag(j->mflags, "-mavx512f")) ||
         (j->S == 8 && has_flag(j->mflags, "-mavx2") && (!two || has_flag(j->mflags, "-mavx512vl")));
}
static void emit_permute(J *j, gcc_jit_field *xs, gcc_jit_field *ys, gcc_jit_field *idx, gcc_jit_field *res,
                         uint32_t n) {
  gcc_jit_type *vt = gcc_jit_type_get_aligned(gcc_jit_type_get_vector(j->t_u[2], j->S), 4);
  gcc_jit_type *vp = gcc_jit_type_get_pointer(vt);
  for (uint32_t c = 0; c < n; c++) {
    gcc_jit_lvalue *xv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(slot_lv(j, xs, n, c, ci(j, j->t_i32, 0)), NULL), vp), NULL);
    gcc_jit_lvalue *rv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(slot_lv(j, res, n, c, ci(j, j->t_i32, 0)), NULL), vp), NULL);
    gcc_jit_lvalue *iv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(lane_arr(j, idx, ci(j, j->t_i32, 0)), NULL), vp), NULL);
    if (!ys) {
      gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, "vpermd %1, %2, %0");
      gcc_jit_extended_asm_add_output_operand(a, NULL, "=v", rv);
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(xv));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(iv));
    } else {
      gcc_jit_lvalue *yv = gcc_jit_rvalue_dereference(cast(j, gcc_jit_lvalue_get_address(slot_lv(j, ys, n, c, ci(j, j->t_i32, 0)), NULL), vp), NULL);
      gcc_jit_lvalue *t = local(j, vt);
      assign(j, t, R_(iv));
      gcc_jit_extended_asm *a = gcc_jit_block_add_extended_asm(j->b, NULL, "vpermi2d %2, %1, %0");
      gcc_jit_extended_asm_add_output_operand(a, NULL, "+v", t);
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(xv));
      gcc_jit_extended_asm_add_input_operand(a, NULL, "v", R_(yv));
      assign(j, rv, R_(t));
    }
    j->n_stmts++;
  }
}

static bool emit_xlane(J *j, uint32_t inst, const ld_insn *in) {
  const ld_module *m = j->m;
  const ld_type *ct; uint32_t n;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  jloop lp;
  SpvOp op = in->op;
  switch (op) {
  case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleXorINTEL:
  case SpvOpSubgroupShuffleDownINTEL: case SpvOpSubgroupShuffleUpINTEL: {
    bool two = op == SpvOpSubgroupShuffleDownINTEL || op == SpvOpSubgroupShuffleUpINTEL;
    if (in->n_ops < (two ? 3u : 2u) || !lane_shape(in->type, &ct, &n) || !value_slot(j, inst, in->result)) return false;
    uint32_t x = in->ops[0], y = two ? in->ops[1] : 0, d = in->ops[two ? 2 : 1];
    if (!gatherable(j, inst, x) || (two && !gatherable(j, inst, y))) return false;
    const ld_type *dt; uint32_t dn;
    if (!lane_shape(m->values[d].type, &dt, &dn) || dn != 1 || dt->kind != LD_T_INT) return false;
    /* source lane (and operand: bit 8) of every lane into tgt[]; bad: any out of range */
    gcc_jit_lvalue *bad = local(j, U);
    assign(j, bad, ci(j, U, 0));
    int64_t S = j->S;
    loop_begin(j, &lp);
    gcc_jit_rvalue *dv = cast(j, V(j, inst, d, 0), U);
    gcc_jit_rvalue *l64 = cast(j, L(j), U);
    gcc_jit_rvalue *src, *oob;
    if (op == SpvOpSubgroupShuffleINTEL || op == SpvOpSubgroupShuffleXorINTEL) {
      gcc_jit_rvalue *v = op == SpvOpSubgroupShuffleINTEL ? dv : bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, l64, dv);
      oob = cast(j, cmp(j, GCC_JIT_COMPARISON_GE, v, ci(j, U, S)), U);
      src = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, v, ci(j, U, 255));
    } else if (op == SpvOpSubgroupShuffleDownINTEL) {
      /* idx = l + delta: [0,S) current, [S,2S) next */
      gcc_jit_rvalue *idx = bin(j, GCC_JIT_BINARY_OP_PLUS, U, l64, dv);
      oob = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, cast(j, cmp(j, GCC_JIT_COMPARISON_GE, dv, ci(j, U, 2 * S)), U),
                cast(j, cmp(j, GCC_JIT_COMPARISON_GE, idx, ci(j, U, 2 * S)), U));
      gcc_jit_rvalue *nx = cast(j, cmp(j, GCC_JIT_COMPARISON_GE, idx, ci(j, U, S)), U);
      src = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U,
                bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, idx,
                    bin(j, GCC_JIT_BINARY_OP_MULT, U, nx, ci(j, U, S))), ci(j, U, 255)),
                bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, nx, ci(j, U, 8)));
    } else {
      /* idx = l - delta: [0,S) current, [-S,0) previous[idx + S] */
      gcc_jit_rvalue *idx = bin(j, GCC_JIT_BINARY_OP_PLUS, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, l64, dv), ci(j, U, S));
      /* idx + S in [0, 2S) unless delta > 2S (or wrapped) */
      oob = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, cast(j, cmp(j, GCC_JIT_COMPARISON_GT, dv, ci(j, U, 2 * S)), U),
                cast(j, cmp(j, GCC_JIT_COMPARISON_GE, idx, ci(j, U, 2 * S)), U));
      gcc_jit_rvalue *prev = cast(j, cmp(j, GCC_JIT_COMPARISON_LT, idx, ci(j, U, S)), U);
      /* from: 0 = previous (ops[0]), 1 = current (ops[1]) */
      src = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U,
                bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, idx,
                    bin(j, GCC_JIT_BINARY_OP_MULT, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, ci(j, U, 1), prev), ci(j, U, S))), ci(j, U, 255)),
                bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, bin(j, GCC_JIT_BINARY_OP_MINUS, U, ci(j, U, 1), prev), ci(j, U, 8)));
    }
    assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad), oob));
    assign(j, lane_arr(j, j->f_tgt, L(j)), cast(j, src, I));
    loop_end(j, &lp);
    gcc_jit_block *join = fast_or_generic(j, inst, in, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, all_active(j),
                                                           cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0))));
    gcc_jit_field *xs = value_slot(j, inst, x), *ys = two ? value_slot(j, inst, y) : NULL;
    gcc_jit_field *rs = value_slot(j, inst, in->result);
    if (comp_bytes(j->k, ct) == 4 && xs && (!two || ys) && can_permute(j, two)) {
      /* permute index: source lane, + S for the second table */
      loop_begin(j, &lp);
      gcc_jit_lvalue *tl = lane_arr(j, j->f_tgt, L(j));
      assign(j, tl, bin(j, GCC_JIT_BINARY_OP_PLUS, I, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, I, R_(tl), ci(j, I, 255)),
                        bin(j, GCC_JIT_BINARY_OP_MULT, I, bin(j, GCC_JIT_BINARY_OP_RSHIFT, I, R_(tl), ci(j, I, 8)), ci(j, I, (long)j->S))));
      loop_end(j, &lp);
      emit_permute(j, xs, ys, j->f_tgt, rs, n);
      gcc_jit_block_end_with_jump(j->b, NULL, join);
      j->b = join;
      return true;
    }
    loop_begin(j, &lp);
    gcc_jit_rvalue *t = R_(lane_arr(j, j->f_tgt, L(j)));
    gcc_jit_rvalue *sl = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, I, t, ci(j, I, 255));
    gcc_jit_rvalue *hi = bin(j, GCC_JIT_BINARY_OP_RSHIFT, I, t, ci(j, I, 8));
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_rvalue *v = gather_v(j, inst, x, c, sl);
      if (two) v = sel(j, cmp(j, GCC_JIT_COMPARISON_NE, hi, ci(j, I, 0)), gather_v(j, inst, y, c, sl), v, scal(j, ct));
      assign(j, res_lv(j, inst, in->result, c), v);
    }
    loop_end(j, &lp);
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = join;
    return true;
  }
  case SpvOpGroupBroadcast: {
    bool ok = true;
    if (in->n_ops < 3 || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup || !ok) return false;
    if (!lane_shape(in->type, &ct, &n) || !value_slot(j, inst, in->result)) return false;
    uint32_t x = in->ops[1], d = in->ops[2];
    const ld_type *dt; uint32_t dn;
    if (!gatherable(j, inst, x) || !lane_shape(m->values[d].type, &dt, &dn) || dt->kind != LD_T_INT || dn != 1) return false;
    /* the id: the same in every lane and < S (a vector id: 1D only) */
    gcc_jit_lvalue *bad = local(j, U), *id0 = local(j, U);
    assign(j, bad, ci(j, U, 0));
    {
      gcc_jit_lvalue *save = j->lane;
      assign(j, j->lane, ci(j, I, 0));
      assign(j, id0, cast(j, V(j, inst, d, 0), U));
      j->lane = save;
    }
    loop_begin(j, &lp);
    assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad),
                       bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, cast(j, V(j, inst, d, 0), U), R_(id0))));
    for (uint32_t c = 1; c < dn; c++)
      assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad), cast(j, V(j, inst, d, c), U)));
    loop_end(j, &lp);
    gcc_jit_rvalue *cond = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, all_active(j),
        bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)),
            cmp(j, GCC_JIT_COMPARISON_LT, R_(id0), ci(j, U, (long)j->S))));
    gcc_jit_block *join = fast_or_generic(j, inst, in, cond);
    gcc_jit_rvalue *src = cast(j, R_(id0), I);
    loop_begin(j, &lp);
    for (uint32_t c = 0; c < n; c++) assign(j, res_lv(j, inst, in->result, c), gather_v(j, inst, x, c, src));
    loop_end(j, &lp);
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = join;
    return true;
  }
  case SpvOpGroupNonUniformBallot: {
    bool ok = true;
    if (in->n_ops < 2 || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup || !ok) return false;
    if (!lane_shape(in->type, &ct, &n) || n != 4 || ct->kind != LD_T_INT || ct->width != 32) return false;
    gcc_jit_lvalue *w[4];
    for (uint32_t q = 0; q < 4; q++) { w[q] = local(j, j->t_u[2]); assign(j, w[q], ci(j, j->t_u[2], 0)); }
    for (uint32_t q = 0; q < 4 && 32 * q < j->S; q++) {
      loop_range(j, &lp, 32 * q, j->S < 32 * q + 32 ? j->S : 32 * q + 32);
      gcc_jit_rvalue *b = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[2], cast(j, lane_arr_r(j, j->f_mask), j->t_u[2]),
                              cast(j, cmp(j, GCC_JIT_COMPARISON_NE, V(j, inst, in->ops[1], 0), ci(j, j->t_u[0], 0)), j->t_u[2]));
      gcc_jit_rvalue *sh = cast(j, bin(j, GCC_JIT_BINARY_OP_MINUS, I, L(j), ci(j, I, 32 * q)), j->t_u[2]);
      assign(j, w[q], bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[2], R_(w[q]), bin(j, GCC_JIT_BINARY_OP_LSHIFT, j->t_u[2], b, sh)));
      loop_end(j, &lp);
    }
    loop_begin(j, &lp);
    for (uint32_t c = 0; c < 4; c++) {
      gcc_jit_lvalue *r = res_lv(j, inst, in->result, c);
      assign(j, r, mblend(j, R_(w[c]), R_(r), j->t_u[2]));
    }
    loop_end(j, &lp);
    return true;
  }
  case SpvOpGroupNonUniformBallotBitCount: {
    bool ok = true;
    if (in->n_ops < 3 || const_u32(m, in->ops[0], &ok) != SpvScopeSubgroup || !ok) return false;
    uint32_t gop = in->ops[1], b = in->ops[2];
    if (gop != SpvGroupOperationReduce && gop != SpvGroupOperationInclusiveScan && gop != SpvGroupOperationExclusiveScan)
      return false;
    const ld_type *bt; uint32_t bn;
    if (!lane_shape(in->type, &ct, &n) || n != 1 || !lane_shape(m->values[b].type, &bt, &bn) || bn != 4 ||
        bt->width != 32 || !value_slot(j, inst, in->result))
      return false;
    /* the ballot must be the same in every active lane */
    gcc_jit_lvalue *f[4], *bad = local(j, j->t_u[2]), *fl = local(j, I);
    /* first active lane */
    assign(j, fl, ci(j, I, 0));
    {
      gcc_jit_lvalue *e0 = local(j, U);
      assign(j, e0, R_(ent_m(j, top_e(j), 0)));
      /* lanes < 64 cover every subgroup size the fast path takes */
      gcc_jit_function *ctz = gcc_jit_context_get_builtin_function(j->cx, "__builtin_ctzll");
      gcc_jit_rvalue *a1[1] = {R_(e0)};
      gcc_jit_block *nz = nb(j), *jn = nb(j);
      gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_NE, R_(e0), ci(j, U, 0)), nz, jn);
      j->b = nz;
      assign(j, fl, cast(j, gcc_jit_context_new_call(j->cx, NULL, ctz, 1, a1), I));
      gcc_jit_block_end_with_jump(j->b, NULL, jn);
      j->b = jn;
    }
    for (uint32_t q = 0; q < 4; q++) {
      f[q] = local(j, j->t_u[2]);
      gcc_jit_lvalue *save = j->lane;
      j->lane = fl;
      assign(j, f[q], cast(j, V(j, inst, b, q), j->t_u[2]));
      j->lane = save;
    }
    assign(j, bad, ci(j, j->t_u[2], 0));
    loop_begin(j, &lp);
    for (uint32_t q = 0; q < 4; q++)
      assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, j->t_u[2], R_(bad),
          bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, j->t_u[2], cast(j, lane_arr_r(j, j->f_mask), j->t_u[2]),
              bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, j->t_u[2], cast(j, V(j, inst, b, q), j->t_u[2]), R_(f[q])))));
    loop_end(j, &lp);
    gcc_jit_block *join = fast_or_generic(j, inst, in, bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool,
        cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, j->t_u[2], 0)), cmp(j, GCC_JIT_COMPARISON_LE, ci(j, I, (long)j->S), ci(j, I, 64))));
    /* per lane: popcount of the bits below the limit (S for reduce) */
    gcc_jit_function *pc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_popcountll");
    gcc_jit_rvalue *bits = bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, cast(j, R_(f[0]), U),
                               bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, cast(j, R_(f[1]), U), ci(j, U, 32)));
    gcc_jit_lvalue *bl = local(j, U);
    assign(j, bl, bits);
    if (j->S < 64) assign(j, bl, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(bl), ci(j, U, (long)((1ull << j->S) - 1))));
    loop_begin(j, &lp);
    gcc_jit_rvalue *l64 = cast(j, L(j), U);
    gcc_jit_rvalue *lim;
    if (gop == SpvGroupOperationReduce) lim = ci(j, U, -1);
    else {
      /* inclusive: bits [0, l]; exclusive: [0, l) */
      gcc_jit_rvalue *k = gop == SpvGroupOperationInclusiveScan ? bin(j, GCC_JIT_BINARY_OP_PLUS, U, l64, ci(j, U, 1)) : l64;
      /* (1 << k) - 1 for k < 64, all ones for k == 64 */
      lim = sel(j, cmp(j, GCC_JIT_COMPARISON_GE, k, ci(j, U, 64)), ci(j, U, -1),
                bin(j, GCC_JIT_BINARY_OP_MINUS, U, bin(j, GCC_JIT_BINARY_OP_LSHIFT, U, ci(j, U, 1),
                    bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, k, ci(j, U, 63))), ci(j, U, 1)), U);
    }
    gcc_jit_rvalue *a1[1] = {bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(bl), lim)};
    gcc_jit_rvalue *cnt = cast(j, gcc_jit_context_new_call(j->cx, NULL, pc, 1, a1), scal(j, ct));
    gcc_jit_lvalue *r = res_lv(j, inst, in->result, 0);
    assign(j, r, mblend(j, cnt, R_(r), scal(j, ct)));
    loop_end(j, &lp);
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = join;
    return true;
  }
  case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
  case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor: {
    /* 32/64-bit integer read-modify-writes: lane by lane in increasing lane
     * order, sequentially consistent, as the interpreter; the fast path is
     * the whole subgroup active with every address valid and aligned */
    bool noval = op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement;
    if (in->n_ops < (noval ? 3u : 4u) || !lane_shape(in->type, &ct, &n) || n != 1 || ct->kind != LD_T_INT ||
        (ct->width != 32 && ct->width != 64) || !value_slot(j, inst, in->result))
      return false;
    uint32_t sz = ct->width / 8;
    const char *fnm = op == SpvOpAtomicAnd ? "and" : op == SpvOpAtomicOr ? "or" : op == SpvOpAtomicXor ? "xor" :
                      (op == SpvOpAtomicISub || op == SpvOpAtomicIDecrement) ? "sub" : "add";
    char bname[40];
    snprintf(bname, sizeof bname, "__atomic_fetch_%s_%u", fnm, sz);
    gcc_jit_function *af = gcc_jit_context_get_builtin_function(j->cx, bname);
    if (!af) return false;
    gcc_jit_block *after = mem_fast(j, inst, in->ops[0], sz, sz, true, false);
    if (!after) return false;
    gcc_jit_block *fast = j->b, *slow = j->slow;
    j->b = slow;
    emit_generic(j, inst, in);
    gcc_jit_block_end_with_jump(j->b, NULL, after);
    j->b = fast;
    loop_begin(j, &lp);
    gcc_jit_type *T = scal(j, ct);
    /* the builtins take and return int / long long */
    gcc_jit_type *BT = gcc_jit_context_get_type(j->cx, sz == 4 ? GCC_JIT_TYPE_INT : GCC_JIT_TYPE_LONG_LONG);
    gcc_jit_rvalue *v = noval ? ci(j, BT, 1) : cast(j, cast(j, V(j, inst, in->ops[3], 0), T), BT);
    gcc_jit_rvalue *args[3] = {cast(j, fast_ptr(j, sz), gcc_jit_type_get_volatile(j->t_vp)), v,
                               ci(j, j->t_i32, 5 /* __ATOMIC_SEQ_CST */)};
    assign(j, res_lv(j, inst, in->result, 0), cast(j, gcc_jit_context_new_call(j->cx, NULL, af, 3, args), T));
    loop_end(j, &lp);
    gcc_jit_block_end_with_jump(j->b, NULL, after);
    j->b = after;
    return true;
  }
  case SpvOpSubgroupBlockReadINTEL: case SpvOpSubgroupBlockWriteINTEL: {
    /* buffer block I/O: lane l, element k at p + (l + k*S) * es; the fast
     * path is the whole subgroup active, one pointer, aligned, in bounds */
    bool wr = op == SpvOpSubgroupBlockWriteINTEL;
    uint32_t ptr = in->ops[0];
    const ld_type *vt = wr ? (in->n_ops >= 2 ? m->values[in->ops[1]].type : NULL) : in->type;
    if (!vt || !lane_shape(vt, &ct, &n) || ct->kind != LD_T_INT || comp_bytes(j->k, ct) != ct->size) return false;
    gcc_jit_field *vs = wr ? value_slot(j, inst, in->ops[1]) : value_slot(j, inst, in->result);
    if (!vs) return false;
    const ld_addr_layout *a = &m->layout;
    uint64_t bytes = (uint64_t)n * j->S * ct->size;
    gcc_jit_lvalue *bad = local(j, U), *p0 = local(j, U);
    {
      gcc_jit_lvalue *save = j->lane;
      j->lane = local(j, I);
      assign(j, j->lane, ci(j, I, 0));
      assign(j, p0, cast(j, V(j, inst, ptr, 0), U));
      j->lane = save;
    }
    assign(j, bad, ci(j, U, 0));
    loop_begin(j, &lp);
    assign(j, bad, bin(j, GCC_JIT_BINARY_OP_BITWISE_OR, U, R_(bad),
                       bin(j, GCC_JIT_BINARY_OP_BITWISE_XOR, U, cast(j, V(j, inst, ptr, 0), U), R_(p0))));
    loop_end(j, &lp);
    gcc_jit_rvalue *reg0 = bin(j, GCC_JIT_BINARY_OP_RSHIFT, U, R_(p0), ci(j, U, (long)a->shift));
    gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, R_(p0), ci(j, U, (long)a->offset_mask));
    gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions), reg0);
    gcc_jit_rvalue *lim = R_(gcc_jit_lvalue_access_field(reg, NULL, wr ? j->r_wsize : j->r_size));
    gcc_jit_rvalue *cond = bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, all_active(j),
        bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool, cmp(j, GCC_JIT_COMPARISON_EQ, R_(bad), ci(j, U, 0)),
            bin(j, GCC_JIT_BINARY_OP_LOGICAL_AND, j->t_bool,
                cmp(j, GCC_JIT_COMPARISON_EQ, bin(j, GCC_JIT_BINARY_OP_BITWISE_AND, U, off, ci(j, U, wr ? 15 : 3)), ci(j, U, 0)),
                cmp(j, GCC_JIT_COMPARISON_LE, bin(j, GCC_JIT_BINARY_OP_PLUS, U, off, ci(j, U, (long)bytes)), lim))));
    gcc_jit_block *join = fast_or_generic(j, inst, in, cond);
    gcc_jit_rvalue *mp = cast(j, gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL,
        R_(gcc_jit_lvalue_access_field(reg, NULL, j->r_base)), off), NULL), j->t_vp);
    gcc_jit_rvalue *fp = cast(j, gcc_jit_lvalue_get_address(fld(j, vs), NULL), j->t_vp);
    gcc_jit_function *mc = gcc_jit_context_get_builtin_function(j->cx, "__builtin_memcpy");
    gcc_jit_rvalue *args[3] = {wr ? mp : fp, wr ? fp : mp,
        gcc_jit_context_new_rvalue_from_long(j->cx, gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_SIZE_T), (long)bytes)};
    gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, mc, 3, args));
    gcc_jit_block_end_with_jump(j->b, NULL, join);
    j->b = join;
    return true;
  }
  default:
    return false;
  }
}

/* Zeroes instance inst's Function variables in the active lanes' private memory. */
static void zero_private(J *j, uint32_t inst) {
  const jit_inst *I = &j->k->inst[inst];
  if (I->priv_end <= I->priv_off) return;
  jloop lp;
  loop_begin(j, &lp);
  gcc_jit_block *act = nb(j), *join = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, MASK(j), act, join);
  j->b = act;
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_u[3],
      bin(j, GCC_JIT_BINARY_OP_MULT, j->t_u[3], cast(j, L(j), j->t_u[3]), R_(wfl(j, j->w_priv_stride))),
      ci(j, j->t_u[3], (long)I->priv_off));
  gcc_jit_rvalue *p = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_priv), off), NULL);
  gcc_jit_function *ms = gcc_jit_context_get_builtin_function(j->cx, "__builtin_memset");
  gcc_jit_rvalue *args[3] = {cast(j, p, j->t_vp), ci(j, j->t_i32, 0),
      gcc_jit_context_new_rvalue_from_long(j->cx, gcc_jit_context_get_type(j->cx, GCC_JIT_TYPE_SIZE_T), (long)(I->priv_end - I->priv_off))};
  gcc_jit_block_add_eval(j->b, NULL, gcc_jit_context_new_call(j->cx, NULL, ms, 3, args));
  gcc_jit_block_end_with_jump(j->b, NULL, join);
  j->b = join;
  loop_end(j, &lp);
}

/* Instructions that emit no code: they do not close the open lane loop.
 * (Fusing consecutive elementwise instructions into one loop was measured
 * slower: one statement GCC cannot if-convert keeps the whole loop scalar.) */
static bool emits_nothing(const ld_insn *in) {
  switch (in->op) {
  case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
  case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpMemoryBarrier: case SpvOpVariable:
    return true;
  default:
    return false;
  }
}

/* Calls a work-group collective helper (rt_wgc / rt_wgc_done): 0 goes on in
 * j->b, 1 goes to `susp` (NULL: stop), anything else stops the subgroup. */
static void wgc_call(J *j, gcc_jit_field *fn, uint32_t idx, gcc_jit_block *susp) {
  gcc_jit_rvalue *args[3] = {j->c, cast(j, j->f, j->t_u8p), ci(j, j->t_i32, (long)idx)};
  gcc_jit_lvalue *rc = local(j, j->t_i32);
  assign(j, rc, gcc_jit_context_new_call_through_ptr(j->cx, NULL, ctxf(j, fn), 3, args));
  gcc_jit_block *go = nb(j), *other = nb(j), *stop = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, 0)), go, other);
  if (susp)
    gcc_jit_block_end_with_conditional(other, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, j->t_i32, 1)), susp, stop);
  else
    gcc_jit_block_end_with_jump(other, NULL, stop);
  ret_done(j, stop);
  j->b = go;
  j->n_stmts++;
}

static void emit_seg(J *j, int32_t si) {
  jit_kernel *k = j->k;
  const jit_seg *s = &k->seg[si];
  const ld_block *blk = s->blk;
  uint32_t inst = s->inst;
  j->b = j->segb[si];
  gcc_jit_block *disp = j->segb[k->n_seg];
  uint32_t i = s->first;
  if (i == 0) { emit_phis(j, inst, blk); i = blk->n_phis; }
  if (s->after_wgc) wgc_call(j, j->c_wgc_done, 0, NULL);
  for (; i < blk->n_insns && !j->e->failed; i++) {
    const ld_insn *in = &blk->insns[i];
    if (!emits_nothing(in)) fuse_close(j);
    jloop lp;
    if (wg_scoped(j->m, in)) {
      /* a work-group collective: arrive (the interpreter's handler deposits
       * this subgroup's values), suspend until every subgroup has arrived,
       * then fetch the results at the next segment (rt_wgc_done) */
      uint32_t idx = add_insn_index(k, in);
      k->n_interp++;
      if (idx < k->cap_insns) k->insn_inst[idx] = inst;
      gcc_jit_block *susp = nb(j);
      assign(j, cfl(j, j->c_susp), ci(j, j->t_i32, (long)idx));
      wgc_call(j, j->c_wgc, idx, susp);
      gcc_jit_block_end_with_jump(j->b, NULL, j->segb[s->succ[0]]);
      j->b = susp;
      assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, s->succ[0]));
      gcc_jit_block_end_with_return(j->b, NULL, ci(j, j->t_i32, JIT_RET_SUSPEND));
      return;
    }
    switch (in->op) {
    case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
    case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpMemoryBarrier: case SpvOpVariable:
      continue;
    case SpvOpExtInst:
      if (in->ext_set == LD_EXT_OPENCL_DEBUGINFO_100 || in->ext_set == LD_EXT_NONSEMANTIC) continue;
      if (!native_ok(j->m, in)) { emit_generic(j, inst, in); continue; }
      goto elementwise_op;
    case SpvOpControlBarrier:
      if (!is_wg_barrier(j->m, in)) {
        gcc_jit_block *after = emit_coll_check(j, inst, in);
        gcc_jit_block_end_with_jump(j->b, NULL, after);
        j->b = after;
        continue;
      }
      /* a work-group barrier: the top entry resumes at the continuation
       * segment once every subgroup has arrived (the compiled loop).  With
       * every lane of the subgroup here nothing can be diagnosed; otherwise
       * the interpreter's handler runs first (rt_wgc: a barrier in
       * divergent code, unless the missing lanes have returned). */
      {
        uint32_t idx = add_insn_index(k, in);
        if (idx < k->cap_insns) k->insn_inst[idx] = inst;
        assign(j, cfl(j, j->c_susp), ci(j, j->t_i32, (long)idx));
        gcc_jit_block *susp = nb(j), *slow = nb(j), *chk = nb(j);
        gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_m(j, top_e(j), 0)),
                                           R_(arr_at(j, ctxf(j, j->c_all), 0))), chk, slow);
        gcc_jit_block_end_with_conditional(chk, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(ent_m(j, top_e(j), 1)),
                                           R_(arr_at(j, ctxf(j, j->c_all), 1))), susp, slow);
        j->b = slow;
        wgc_call(j, j->c_wgc, idx, susp);
        gcc_jit_block_end_with_jump(j->b, NULL, j->segb[k->seg[si].succ[0]]);
        j->b = susp;
        assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, k->seg[si].succ[0]));
        gcc_jit_block_end_with_return(j->b, NULL, ci(j, j->t_i32, JIT_RET_SUSPEND));
      }
      return;
    case SpvOpFunctionCall: {
      const ld_function *callee = j->m->values[in->ops[0]].u.fn;
      /* the callee instance is the one whose continuation is the next segment */
      uint32_t ci_ = 0;
      int32_t cont = -1;
      for (uint32_t q = 0; q < k->n_seg; q++)
        if (k->seg[q].inst == inst && k->seg[q].blk == blk && k->seg[q].first == i + 1) cont = (int32_t)q;
      for (uint32_t q = 1; q < k->n_inst; q++)
        if (k->inst[q].parent == inst && k->inst[q].cont == cont) ci_ = q;
      if (!ci_) { failf(j->e, "internal: call instance"); return; }
      loop_begin(j, &lp);
      for (uint32_t a = 0; a < callee->n_params && a + 1 < in->n_ops; a++) {
        const ld_type *ct; uint32_t n;
        if (is_handle(j->m->values[callee->params[a]].type)) continue;   /* plan_handles */
        if (!lane_shape(j->m->values[callee->params[a]].type, &ct, &n)) {
          failf(j->e, "%s: aggregate argument", ld_insn_where(j->m, in)); return;
        }
        /* every lane: a parameter is read only inside this call of the
         * instance, by the lanes that make it */
        for (uint32_t c = 0; c < n; c++)
          assign(j, res_lv(j, ci_, callee->params[a], c), V(j, inst, in->ops[1 + a], c));
      }
      loop_end(j, &lp);
      /* the callee's Function variables start zeroed (as in the interpreter) */
      zero_private(j, ci_);
      /* the caller's entry continues after the call; the callee's entry
       * (same lanes) reconverges there */
      assign(j, ent_f(j, top_e(j), j->e_pc), ci(j, j->t_i32, cont));
      stack_room(j, si, 1);
      gcc_jit_lvalue *m0 = local(j, j->t_u[3]), *m1 = local(j, j->t_u[3]);
      assign(j, m0, R_(ent_m(j, top_e(j), 0)));
      assign(j, m1, R_(ent_m(j, top_e(j), 1)));
      assign(j, arr_at(j, ctxf(j, j->c_base), (int)ci_), SP(j));
      push_entry(j, k->inst[ci_].block_seg[0], cont, R_(m0), R_(m1));
      gcc_jit_block_end_with_jump(j->b, NULL, j->segb[k->inst[ci_].block_seg[0]]);
      (void)disp;
      return;
    }
    case SpvOpLoad: if (!handle_ldst(j->m, in)) emit_load(j, inst, in); continue;
    case SpvOpStore: if (!handle_ldst(j->m, in)) emit_store(j, inst, in); continue;
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain:
      fuse_open(j);
      assign(j, res_lv(j, inst, in->result, 0), cast(j, access_chain(j, inst, in), j->t_ptr));
      continue;
    case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
    case SpvOpReturnValue: case SpvOpUnreachable:
      emit_terminator(j, inst, in, si);
      return;
    default:
      if (!native_ok(j->m, in)) {
        if (!emit_xlane(j, inst, in)) emit_generic(j, inst, in);
        continue;
      }
      if (in->op >= SpvOpGroupIAdd && in->op <= SpvOpGroupSMax) { emit_group(j, inst, in); continue; }
      if (in->op >= SpvOpGroupNonUniformIAdd && in->op <= SpvOpGroupNonUniformLogicalXor) { emit_group(j, inst, in); continue; }
    elementwise_op:
      {
        const ld_type *ct; uint32_t n;
        if (!lane_shape(in->type, &ct, &n)) { failf(j->e, "%s: result of unsupported type", ld_insn_where(j->m, in)); return; }
        /* compute every component into temporaries, then masked assignment */
        fuse_open(j);
        gcc_jit_lvalue *tmp[16];
        for (uint32_t c = 0; c < n; c++) {
          tmp[c] = local(j, scal(j, ct));
          assign(j, tmp[c], elementwise(j, inst, in, c));
        }
        for (uint32_t c = 0; c < n; c++) {
          gcc_jit_lvalue *r = res_lv(j, inst, in->result, c);
          assign(j, r, mblend(j, gcc_jit_lvalue_as_rvalue(tmp[c]), gcc_jit_lvalue_as_rvalue(r), scal(j, ct)));
        }
      }
      continue;
    }
  }
  if (!j->e->failed) failf(j->e, "block without terminator");
}

/* Slots: enumerates every (instance, id) needing a field, in a fixed order. */
typedef void (*slot_cb)(void *u, uint32_t inst, uint32_t id, bool phitmp, const ld_type *t);
static bool enum_slots(jit_kernel *k, slot_cb cb, void *u, plan_err *e) {
  const ld_module *m = k->m;
  for (uint32_t ii = 0; ii < k->n_inst; ii++) {
    const ld_function *fn = k->inst[ii].fn;
    if (ii > 0)
      for (uint32_t p = 0; p < fn->n_params; p++)
        if (!is_handle(m->values[fn->params[p]].type)) cb(u, ii, fn->params[p], false, m->values[fn->params[p]].type);
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      if (k->inst[ii].block_seg[b] < 0) continue;
      const ld_block *blk = &fn->blocks[b];
      for (uint32_t i = 0; i < blk->n_insns; i++) {
        const ld_insn *in = &blk->insns[i];
        if (!in->result || !in->type || in->op == SpvOpVariable) continue;
        if (in->op == SpvOpExtInst &&
            (in->ext_set == LD_EXT_OPENCL_DEBUGINFO_100 || in->ext_set == LD_EXT_NONSEMANTIC)) continue;
        if (in->type->kind == LD_T_VOID) continue;
        if (in->op == SpvOpLoad && is_handle(in->type)) continue;   /* plan_handle_load */
        const ld_type *ct; uint32_t n;
        if (!lane_shape(in->type, &ct, &n))
          return failf(e, "%s: value of unsupported type (kind %d)", ld_insn_where(m, in), (int)in->type->kind);
        cb(u, ii, in->result, false, in->type);
        bool grp_ref = (in->op >= SpvOpGroupFMin && in->op <= SpvOpGroupSMax) ||
                       (in->op >= SpvOpGroupNonUniformIMul && in->op <= SpvOpGroupNonUniformLogicalXor &&
                        in->op != SpvOpGroupNonUniformFAdd);
        if ((in->op == SpvOpPhi && blk->n_phis > 1) || grp_ref) cb(u, ii, in->result, true, in->type);
      }
    }
  }
  return true;
}

typedef struct layout_u { jit_kernel *k; uint64_t off; } layout_u;
static void layout_cb(void *u_, uint32_t inst, uint32_t id, bool tmp, const ld_type *t) {
  layout_u *u = u_;
  const ld_type *ct; uint32_t n;
  lane_shape(t, &ct, &n);
  uint32_t cb = comp_bytes(u->k, ct);
  u->off = (u->off + cb - 1) / cb * cb;
  if (!tmp && u->k->slot_off) u->k->slot_off[(size_t)inst * u->k->m->bound + id] = (uint32_t)u->off;
  u->off += (uint64_t)cb * n * u->k->S;
}

typedef struct field_u { J *j; int n; gcc_jit_field **fields; } field_u;
static void field_cb(void *u_, uint32_t inst, uint32_t id, bool tmp, const ld_type *t) {
  field_u *u = u_;
  J *j = u->j;
  const ld_type *ct; uint32_t n;
  lane_shape(t, &ct, &n);
  gcc_jit_type *ft = gcc_jit_context_new_array_type(j->cx, NULL, scal(j, ct), (int)j->S);
  if (n > 1) ft = gcc_jit_context_new_array_type(j->cx, NULL, ft, (int)n);
  char name[48];
  snprintf(name, sizeof name, "%s%u_%u", tmp ? "t" : "v", inst, id);
  gcc_jit_field *f = gcc_jit_context_new_field(j->cx, NULL, ft, name);
  u->fields[u->n++] = f;
  if (tmp) j->phitmp[vidx(j, inst, id)] = f; else j->slot[vidx(j, inst, id)] = f;
}
static void count_cb(void *u_, uint32_t inst, uint32_t id, bool tmp, const ld_type *t) {
  (void)inst; (void)id; (void)tmp; (void)t;
  (*(int *)u_)++;
}

/* The private-memory regions of subgroup j->c's lanes (region table entries
 * priv_base + lane). */
static void emit_priv_regions(J *j) {
  jit_kernel *k = j->k;
  const ld_addr_layout *a = &k->m->layout;
  if (!k->priv_bytes) return;
  uint64_t n_table = (uint64_t)1 << (k->m->addr_bits - a->shift);
  if (a->priv_base >= n_table) return;
  uint64_t hi = n_table - a->priv_base < j->S ? n_table - a->priv_base : j->S;
  gcc_jit_type *U = j->t_u[3];
  jloop lp;
  loop_range(j, &lp, 0, (uint32_t)hi);
  gcc_jit_lvalue *reg = gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_regions),
      bin(j, GCC_JIT_BINARY_OP_PLUS, j->t_i32, L(j), ci(j, j->t_i32, (long)a->priv_base)));
  gcc_jit_rvalue *off = bin(j, GCC_JIT_BINARY_OP_MULT, U, cast(j, L(j), U), R_(wfl(j, j->w_priv_stride)));
  assign(j, gcc_jit_lvalue_access_field(reg, NULL, j->r_base),
         gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(j->cx, NULL, ctxf(j, j->c_priv), off), NULL));
  assign(j, gcc_jit_lvalue_access_field(reg, NULL, j->r_size), ci(j, U, (long)k->priv_bytes));
  assign(j, gcc_jit_lvalue_access_field(reg, NULL, j->r_wsize), ci(j, U, (long)k->priv_bytes));
  loop_end(j, &lp);
}

/* sg_groups(w, first, count): the loops over work-groups and their
 * subgroups.  rt_wg (host) sets up each work-group; every subgroup runs
 * until it finishes or reaches a work-group barrier; while some wait at a
 * barrier, the waiting ones are resumed in subgroup order. */
static void emit_groups(J *j) {
  jit_kernel *k = j->k;
  gcc_jit_context *cx = j->cx;
  gcc_jit_type *U = j->t_u[3], *I = j->t_i32;
  gcc_jit_param *prm[3] = {
    gcc_jit_context_new_param(cx, NULL, j->t_wgsp, "w"),
    gcc_jit_context_new_param(cx, NULL, U, "first"),
    gcc_jit_context_new_param(cx, NULL, U, "count")};
  gcc_jit_function *fn = gcc_jit_context_new_function(cx, NULL, GCC_JIT_FUNCTION_EXPORTED, I, "sg_groups", 3, prm, 0);
  j->fn = fn;
  gcc_jit_rvalue *w = gcc_jit_param_as_rvalue(prm[0]);
  gcc_jit_lvalue *gi = gcc_jit_function_new_local(fn, NULL, U, "gi");
  gcc_jit_lvalue *end = gcc_jit_function_new_local(fn, NULL, U, "end");
  gcc_jit_lvalue *n = gcc_jit_function_new_local(fn, NULL, j->t_s[3], "n");
  gcc_jit_lvalue *i = gcc_jit_function_new_local(fn, NULL, I, "i");
  gcc_jit_lvalue *pend = gcc_jit_function_new_local(fn, NULL, I, "pend");
  gcc_jit_lvalue *rc = gcc_jit_function_new_local(fn, NULL, I, "rc");
  gcc_jit_lvalue *cp = gcc_jit_function_new_local(fn, NULL, j->t_ctxp, "cp");
  gcc_jit_lvalue *fp = gcc_jit_function_new_local(fn, NULL, j->t_framep, "fp");
  j->lane = gcc_jit_function_new_local(fn, NULL, I, "l");
  j->c = R_(cp);
  j->f = R_(fp);
  int32_t entry = k->inst[0].block_seg[0];
  gcc_jit_block *b0 = nb(j), *gl = nb(j), *gbody = nb(j), *ret0 = nb(j), *ret1 = nb(j), *sinit = nb(j);
  gcc_jit_block *sl = nb(j), *sbody = nb(j), *rr = nb(j), *rr_init = nb(j), *rl = nb(j), *rbody = nb(j);
  gcc_jit_block *rrun = nb(j), *rnext = nb(j), *gnext = nb(j);
  gcc_jit_rvalue *stop = cmp(j, GCC_JIT_COMPARISON_NE, R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_stop)), ci(j, I, 0));
  gcc_jit_rvalue *nn = cast(j, R_(n), I);

  j->b = b0;
  assign(j, gi, gcc_jit_param_as_rvalue(prm[1]));
  assign(j, end, bin(j, GCC_JIT_BINARY_OP_PLUS, U, gcc_jit_param_as_rvalue(prm[1]), gcc_jit_param_as_rvalue(prm[2])));
  gcc_jit_block_end_with_jump(j->b, NULL, gl);
  gcc_jit_block_end_with_conditional(gl, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(gi), R_(end)), gbody, ret0);
  gcc_jit_block_end_with_return(ret0, NULL, ci(j, I, 0));
  gcc_jit_block_end_with_return(ret1, NULL, ci(j, I, 1));
  j->b = gbody;
  gcc_jit_rvalue *wa[2] = {w, R_(gi)};
  assign(j, n, gcc_jit_context_new_call_through_ptr(cx, NULL, R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_rt_wg)), 2, wa));
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(n), ci(j, j->t_s[3], 0)), ret1, sinit);
  j->b = sinit;
  assign(j, i, ci(j, I, 0));
  assign(j, pend, ci(j, I, 0));
  gcc_jit_block_end_with_jump(j->b, NULL, sl);
  gcc_jit_block_end_with_conditional(sl, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(i), nn), sbody, rr);

  /* first run of subgroup i */
  j->b = sbody;
  gcc_jit_rvalue *sgs = R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_sgs));
  assign(j, cp, R_(gcc_jit_context_new_array_access(cx, NULL, sgs, R_(i))));
  assign(j, fp, cast(j, ctxf(j, j->c_frame), j->t_framep));
  emit_priv_regions(j);
  {
    jloop lp;
    loop_begin(j, &lp);
    assign(j, lane_arr(j, j->f_mask, L(j)),
           cast(j, cmp(j, GCC_JIT_COMPARISON_LT, cast(j, L(j), j->t_u[2]), ctxf(j, j->c_n_lanes)), I));
    assign(j, lane_arr(j, j->f_pred, L(j)), ci(j, I, -1));
    loop_end(j, &lp);
  }
  gcc_jit_lvalue *e0 = stack_at(j, ci(j, I, 0));
  assign(j, ent_f(j, e0, j->e_pc), ci(j, I, entry));
  assign(j, ent_f(j, e0, j->e_rpc), ci(j, I, -1));
  assign(j, ent_m(j, e0, 0), R_(arr_at(j, ctxf(j, j->c_all), 0)));
  assign(j, ent_m(j, e0, 1), R_(arr_at(j, ctxf(j, j->c_all), 1)));
  assign(j, cfl(j, j->c_sp), ci(j, I, 1));
  assign(j, cfl(j, j->c_steps), ci(j, U, 0));
  assign(j, cfl(j, j->c_step_check), R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_step_check)));
  zero_private(j, 0);
  gcc_jit_rvalue *ka[3] = {R_(cp), R_(fp), ci(j, I, entry)};
  assign(j, rc, gcc_jit_context_new_call(cx, NULL, j->fn_kernel, 3, ka));
  gcc_jit_block *s_ok = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, stop, ret1, s_ok);
  j->b = s_ok;
  assign(j, pend, bin(j, GCC_JIT_BINARY_OP_PLUS, I, R_(pend),
                      cast(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, I, JIT_RET_SUSPEND)), I)));
  assign(j, i, bin(j, GCC_JIT_BINARY_OP_PLUS, I, R_(i), ci(j, I, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, sl);

  /* resume rounds while some subgroup waits at a barrier; before each, the
   * host reports subgroups that finished without arriving (rt_release) */
  gcc_jit_block *rel = nb(j);
  gcc_jit_block_end_with_conditional(rr, NULL, cmp(j, GCC_JIT_COMPARISON_EQ, R_(pend), ci(j, I, 0)), gnext, rel);
  {
    gcc_jit_rvalue *wr[1] = {w};
    gcc_jit_rvalue *relrc = gcc_jit_context_new_call_through_ptr(cx, NULL,
        R_(gcc_jit_rvalue_dereference_field(w, NULL, j->w_rt_release)), 1, wr);
    gcc_jit_block_end_with_conditional(rel, NULL, cmp(j, GCC_JIT_COMPARISON_NE, relrc, ci(j, I, 0)), ret1, rr_init);
  }
  j->b = rr_init;
  assign(j, pend, ci(j, I, 0));
  assign(j, i, ci(j, I, 0));
  gcc_jit_block_end_with_jump(j->b, NULL, rl);
  gcc_jit_block_end_with_conditional(rl, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(i), nn), rbody, rr);
  j->b = rbody;
  assign(j, cp, R_(gcc_jit_context_new_array_access(cx, NULL, sgs, R_(i))));
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LE, ctxf(j, j->c_sp), ci(j, I, 0)), rnext, rrun);
  j->b = rrun;
  assign(j, fp, cast(j, ctxf(j, j->c_frame), j->t_framep));
  emit_priv_regions(j);
  gcc_jit_rvalue *ra[3] = {R_(cp), R_(fp), ci(j, I, -1)};
  assign(j, rc, gcc_jit_context_new_call(cx, NULL, j->fn_kernel, 3, ra));
  gcc_jit_block *r_ok = nb(j);
  gcc_jit_block_end_with_conditional(j->b, NULL, stop, ret1, r_ok);
  j->b = r_ok;
  assign(j, pend, bin(j, GCC_JIT_BINARY_OP_PLUS, I, R_(pend),
                      cast(j, cmp(j, GCC_JIT_COMPARISON_EQ, R_(rc), ci(j, I, JIT_RET_SUSPEND)), I)));
  gcc_jit_block_end_with_jump(j->b, NULL, rnext);
  j->b = rnext;
  assign(j, i, bin(j, GCC_JIT_BINARY_OP_PLUS, I, R_(i), ci(j, I, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, rl);
  j->b = gnext;
  assign(j, gi, bin(j, GCC_JIT_BINARY_OP_PLUS, U, R_(gi), ci(j, U, 1)));
  gcc_jit_block_end_with_jump(j->b, NULL, gl);
}

/* GCC's level for the objects: the options' 0..3, else -O2. */
static int opt_level_of(const jit_options *o) {
  return o && o->opt_level >= 0 && o->opt_level <= 3 ? o->opt_level : 2;
}

/* Builds the gccjit context for the planned kernel. */
static gcc_jit_context *build(jit_kernel *k, const jit_options *o, const char *mflags, plan_err *e,
                              uint32_t *n_stmts) {
  J jj, *j = &jj;
  memset(j, 0, sizeof *j);
  j->k = k; j->m = k->m; j->S = k->S; j->e = e;
  j->mflags = mflags;
  gcc_jit_context *cx = gcc_jit_context_acquire();
  if (!cx) { failf(e, "gcc_jit_context_acquire failed"); return NULL; }
  j->cx = cx;
  int opt = opt_level_of(o);
  gcc_jit_context_set_int_option(cx, GCC_JIT_INT_OPTION_OPTIMIZATION_LEVEL, opt);
  /* never contract: results match the interpreter's bit for bit */
  gcc_jit_context_add_command_line_option(cx, "-ffp-contract=off");
  gcc_jit_context_add_command_line_option(cx, "-fno-math-errno");
  gcc_jit_context_add_command_line_option(cx, "-fno-strict-aliasing");
  /* GCC 12's -O2 default (very-cheap) leaves most lane loops scalar */
  gcc_jit_context_add_command_line_option(cx, "-fvect-cost-model=dynamic");
  gcc_jit_context_add_command_line_option(cx, "-fPIC");
  /* GCC's per-pass compile times on stderr (for tuning; docs/semantics.md) */
  if (getenv("SPIRV_SG_JIT_TIME_REPORT")) gcc_jit_context_add_command_line_option(cx, "-ftime-report");
  if (mflags && *mflags) {
    char *dup = strdup(mflags);
    for (char *t = dup ? strtok(dup, " ") : NULL; t; t = strtok(NULL, " "))
      gcc_jit_context_add_command_line_option(cx, t);
    free(dup);
  }
  gcc_jit_context_set_bool_allow_unreachable_blocks(cx, 1);
  j->t_void = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_VOID);
  j->t_bool = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_BOOL);
  j->t_i32 = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT32_T);
  j->t_u[0] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_UINT8_T);
  j->t_u[1] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_UINT16_T);
  j->t_u[2] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_UINT32_T);
  j->t_u[3] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_UINT64_T);
  j->t_s[0] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT8_T);
  j->t_s[1] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT16_T);
  j->t_s[2] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT32_T);
  j->t_s[3] = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_INT64_T);
  j->t_f32 = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_FLOAT);
  j->t_f64 = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_DOUBLE);
  j->t_vp = gcc_jit_context_get_type(cx, GCC_JIT_TYPE_VOID_PTR);
  j->t_u8p = gcc_jit_type_get_pointer(j->t_u[0]);
  j->t_ptr = k->m->addr_bits == 32 ? j->t_u[2] : j->t_u[3];

  size_t nslots = (size_t)k->n_inst * k->m->bound;
  j->slot = calloc(nslots, sizeof *j->slot);
  j->phitmp = calloc(nslots, sizeof *j->phitmp);
  j->privoff = k->privoff;
  j->argl = calloc((size_t)k->m->bound * 16, sizeof *j->argl);
  j->segb = calloc(k->n_seg + 2, sizeof *j->segb);
  int nf = 4;
  enum_slots(k, count_cb, &nf, e);
  gcc_jit_field **fields = calloc((size_t)nf + 1, sizeof *fields);
  if (!j->slot || !j->phitmp || !j->privoff || !j->argl || !j->segb || !fields) { failf(e, "out of memory"); goto out; }

  /* frame struct */
  gcc_jit_type *lanei = gcc_jit_context_new_array_type(cx, NULL, j->t_i32, (int)k->S);
  j->f_mask = gcc_jit_context_new_field(cx, NULL, lanei, "mask");
  j->f_tgt = gcc_jit_context_new_field(cx, NULL, lanei, "tgt");
  j->f_pred = gcc_jit_context_new_field(cx, NULL, lanei, "pred");
  j->f_addr = gcc_jit_context_new_field(cx, NULL, gcc_jit_context_new_array_type(cx, NULL, j->t_u[3], (int)k->S), "addr");
  fields[0] = j->f_mask; fields[1] = j->f_tgt; fields[2] = j->f_pred; fields[3] = j->f_addr;
  field_u fu = {j, 4, fields};
  enum_slots(k, field_cb, &fu, e);
  if (e->failed) goto out;
  j->frame_st = gcc_jit_context_new_struct_type(cx, NULL, "frame", fu.n, fields);

  /* region, stack entry, work-group and context structs (host layout in jit_internal.h) */
  gcc_jit_type *U = j->t_u[3];
  gcc_jit_type *u64x3 = gcc_jit_context_new_array_type(cx, NULL, U, 3);
  gcc_jit_type *u64x2 = gcc_jit_context_new_array_type(cx, NULL, U, 2);
  gcc_jit_field *rf[3] = {
    j->r_base = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "base"),
    j->r_size = gcc_jit_context_new_field(cx, NULL, U, "size"),
    j->r_wsize = gcc_jit_context_new_field(cx, NULL, U, "wsize")};
  j->reg_st = gcc_jit_context_new_struct_type(cx, NULL, "region", 3, rf);
  gcc_jit_field *ef[3] = {
    j->e_pc = gcc_jit_context_new_field(cx, NULL, j->t_i32, "pc"),
    j->e_rpc = gcc_jit_context_new_field(cx, NULL, j->t_i32, "rpc"),
    j->e_m = gcc_jit_context_new_field(cx, NULL, u64x2, "m")};
  gcc_jit_struct *ent_st = gcc_jit_context_new_struct_type(cx, NULL, "entry", 3, ef);
  j->ctx_st = gcc_jit_context_new_opaque_struct(cx, NULL, "ctx");
  gcc_jit_struct *wgs_st = gcc_jit_context_new_opaque_struct(cx, NULL, "wgs");
  gcc_jit_type *ctxp = j->t_ctxp = gcc_jit_type_get_pointer(gcc_jit_struct_as_type(j->ctx_st));
  gcc_jit_type *wgsp = j->t_wgsp = gcc_jit_type_get_pointer(gcc_jit_struct_as_type(wgs_st));
  gcc_jit_type *pb[3] = {ctxp, j->t_u8p, j->t_i32};
  gcc_jit_type *branch_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_i32, 3, pb, 0);
  gcc_jit_type *pm[7] = {ctxp, j->t_i32, j->t_i32, U, j->t_i32, j->t_i32, j->t_i32};
  gcc_jit_type *mem_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_vp, 7, pm, 0);
  gcc_jit_type *pg[5] = {ctxp, j->t_u8p, j->t_i32, j->t_vp, j->t_vp};
  gcc_jit_type *group_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_void, 5, pg, 0);
  gcc_jit_type *pw[2] = {wgsp, U};
  gcc_jit_type *wg_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_s[3], 2, pw, 0);
  gcc_jit_type *pr[1] = {wgsp};
  gcc_jit_type *rel_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_i32, 1, pr, 0);
  gcc_jit_field *wf[18] = {
    j->w_group = gcc_jit_context_new_field(cx, NULL, u64x3, "group"),
    j->w_wsize = gcc_jit_context_new_field(cx, NULL, u64x3, "wsize"),
    j->w_local = gcc_jit_context_new_field(cx, NULL, u64x3, "local"),
    j->w_global = gcc_jit_context_new_field(cx, NULL, u64x3, "global"),
    j->w_offset = gcc_jit_context_new_field(cx, NULL, u64x3, "offset"),
    j->w_groups = gcc_jit_context_new_field(cx, NULL, u64x3, "groups"),
    j->w_dim = gcc_jit_context_new_field(cx, NULL, U, "dim"),
    j->w_n_sg = gcc_jit_context_new_field(cx, NULL, U, "n_sg"),
    j->w_enq_sg = gcc_jit_context_new_field(cx, NULL, U, "enq_sg"),
    j->w_lid_cap = gcc_jit_context_new_field(cx, NULL, U, "lid_cap"),
    j->w_lid = gcc_jit_context_new_field(cx, NULL, gcc_jit_type_get_pointer(j->t_u[2]), "lid"),
    j->w_sgs = gcc_jit_context_new_field(cx, NULL, gcc_jit_type_get_pointer(ctxp), "sgs"),
    j->w_rt_wg = gcc_jit_context_new_field(cx, NULL, wg_t, "rt_wg"),
    j->w_priv_stride = gcc_jit_context_new_field(cx, NULL, U, "priv_stride"),
    j->w_step_check = gcc_jit_context_new_field(cx, NULL, U, "step_check"),
    j->w_stop = gcc_jit_context_new_field(cx, NULL, j->t_i32, "stop"),
    gcc_jit_context_new_field(cx, NULL, j->t_i32, "pad"),
    j->w_rt_release = gcc_jit_context_new_field(cx, NULL, rel_t, "rt_release")};
  gcc_jit_struct_set_fields(wgs_st, NULL, 18, wf);
  gcc_jit_type *pl[6] = {ctxp, j->t_u8p, j->t_i32, j->t_i32, j->t_i32, j->t_i32};
  gcc_jit_type *ldst_t = gcc_jit_context_new_function_ptr_type(cx, NULL, j->t_void, 6, pl, 0);
  gcc_jit_field *cf[26] = {
    j->c_regions = gcc_jit_context_new_field(cx, NULL, gcc_jit_type_get_pointer(gcc_jit_struct_as_type(j->reg_st)), "regions"),
    j->c_wg = gcc_jit_context_new_field(cx, NULL, wgsp, "wg"),
    j->c_args = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "args"),
    j->c_branch = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_branch"),
    j->c_mem = gcc_jit_context_new_field(cx, NULL, mem_t, "rt_mem"),
    j->c_group = gcc_jit_context_new_field(cx, NULL, group_t, "rt_group"),
    j->c_interp = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_interp"),
    j->c_coll = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_coll"),
    j->c_limit = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_limit"),
    j->c_overflow = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_overflow"),
    j->c_ldst = gcc_jit_context_new_field(cx, NULL, ldst_t, "rt_ldst"),
    j->c_unreach = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_unreachable"),
    j->c_wgc = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_wgc"),
    j->c_wgc_done = gcc_jit_context_new_field(cx, NULL, branch_t, "rt_wgc_done"),
    j->c_frame = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "frame"),
    j->c_priv = gcc_jit_context_new_field(cx, NULL, j->t_u8p, "priv"),
    j->c_steps = gcc_jit_context_new_field(cx, NULL, U, "steps"),
    j->c_step_check = gcc_jit_context_new_field(cx, NULL, U, "step_check"),
    j->c_all = gcc_jit_context_new_field(cx, NULL, u64x2, "all"),
    j->c_sg_id = gcc_jit_context_new_field(cx, NULL, j->t_u[2], "sg_id"),
    j->c_n_lanes = gcc_jit_context_new_field(cx, NULL, j->t_u[2], "n_lanes"),
    j->c_sp = gcc_jit_context_new_field(cx, NULL, j->t_i32, "sp"),
    j->c_susp = gcc_jit_context_new_field(cx, NULL, j->t_i32, "susp_insn"),
    j->c_base = gcc_jit_context_new_field(cx, NULL, gcc_jit_context_new_array_type(cx, NULL, j->t_i32, JIT_MAX_INST), "base"),
    j->c_stack = gcc_jit_context_new_field(cx, NULL, gcc_jit_context_new_array_type(cx, NULL, gcc_jit_struct_as_type(ent_st), JIT_MAX_STACK), "stack"),
    gcc_jit_context_new_field(cx, NULL, j->t_vp, "run")};
  gcc_jit_struct_set_fields(j->ctx_st, NULL, 26, cf);
  j->t_framep = gcc_jit_type_get_pointer(gcc_jit_struct_as_type(j->frame_st));

  gcc_jit_param *prm[3] = {
    gcc_jit_context_new_param(cx, NULL, ctxp, "c"),
    gcc_jit_context_new_param(cx, NULL, j->t_framep, "f"),
    gcc_jit_context_new_param(cx, NULL, j->t_i32, "start")};
  j->fn = j->fn_kernel = gcc_jit_context_new_function(cx, NULL, GCC_JIT_FUNCTION_EXPORTED, j->t_i32, "sg_kernel", 3, prm, 0);
  j->c = gcc_jit_param_as_rvalue(prm[0]);
  j->f = gcc_jit_param_as_rvalue(prm[1]);
  j->lane = gcc_jit_function_new_local(j->fn, NULL, j->t_i32, "l");
  j->next = gcc_jit_function_new_local(j->fn, NULL, j->t_i32, "next");

  gcc_jit_block *entry = nb(j);
  for (uint32_t s = 0; s < k->n_seg; s++) j->segb[s] = nb(j);
  gcc_jit_block *disp = j->segb[k->n_seg] = nb(j);
  gcc_jit_block *done = nb(j);
  j->settle = nb(j);

  /* entry: kernel arguments into locals (uniform) */
  j->b = entry;
  const ld_function *kf = k->k->fn;
  for (uint32_t a = 0; a < kf->n_params; a++) {
    const ld_type *ct; uint32_t n;
    uint32_t id = kf->params[a];
    const ld_type *at = k->m->values[id].type;
    if (is_handle(at)) continue;   /* read by handlers only */
    if (!lane_shape(at, &ct, &n)) { failf(e, "kernel argument %u of unsupported type", a); goto out; }
    gcc_jit_type *T = scal(j, ct);
    for (uint32_t c = 0; c < n; c++) {
      gcc_jit_lvalue *lv = local(j, T);
      j->argl[(size_t)id * 16 + c] = lv;
      gcc_jit_rvalue *p = gcc_jit_lvalue_get_address(gcc_jit_context_new_array_access(
          cx, NULL, ctxf(j, j->c_args), ci(j, j->t_i32, (long)(k->arg_off[a] + c * comp_bytes(k, ct)))), NULL);
      assign(j, lv, gcc_jit_lvalue_as_rvalue(gcc_jit_rvalue_dereference(cast(j, p, gcc_jit_type_get_pointer(T)), NULL)));
    }
  }
  assign(j, j->next, gcc_jit_param_as_rvalue(prm[2]));
  /* start < 0: resume after a barrier at the stack's top */
  gcc_jit_block_end_with_conditional(j->b, NULL, cmp(j, GCC_JIT_COMPARISON_LT, R_(j->next), ci(j, j->t_i32, 0)), j->settle, disp);

  for (uint32_t s = 0; s < k->n_seg && !e->failed; s++) emit_seg(j, (int32_t)s);
  if (e->failed) goto out;
  emit_settle(j);

  gcc_jit_case **cases = calloc(k->n_seg + 1, sizeof *cases);
  if (!cases) { failf(e, "out of memory"); goto out; }
  for (uint32_t s = 0; s < k->n_seg; s++)
    cases[s] = gcc_jit_context_new_case(cx, ci(j, j->t_i32, s), ci(j, j->t_i32, s), j->segb[s]);
  gcc_jit_block_end_with_switch(disp, NULL, gcc_jit_lvalue_as_rvalue(j->next), done, (int)k->n_seg, cases);
  free(cases);
  gcc_jit_block_end_with_return(done, NULL, ci(j, j->t_i32, JIT_RET_DONE));
  emit_groups(j);
  if (e->failed) goto out;
  /* Large kernels: -O1 plus the vectorizer (JIT_BIG_KERNEL). */
  if (j->n_stmts > JIT_BIG_KERNEL && opt >= 2) {
    gcc_jit_context_set_int_option(cx, GCC_JIT_INT_OPTION_OPTIMIZATION_LEVEL, 1);
    gcc_jit_context_add_command_line_option(cx, "-ftree-vectorize");
  }
  *n_stmts = j->n_stmts;
out:
  free(j->slot); free(j->phitmp); free(j->argl); free(j->segb); free(fields);
  if (e->failed) { gcc_jit_context_release(cx); return NULL; }
  return cx;
}


/* Function variable offsets (per instance, the plan's order) and frame
 * offsets of every value field (the gccjit struct has the same C layout). */
static bool plan_offsets(jit_kernel *k, plan_err *e) {
  size_t nslots = (size_t)k->n_inst * k->m->bound;
  k->privoff = calloc(nslots ? nslots : 1, sizeof *k->privoff);
  k->slot_off = malloc((nslots ? nslots : 1) * sizeof *k->slot_off);
  if (!k->privoff || !k->slot_off) return failf(e, "out of memory");
  memset(k->slot_off, 0xff, nslots * sizeof *k->slot_off);
  for (uint32_t ii = 0; ii < k->n_inst; ii++) {
    uint64_t priv = k->inst[ii].priv_off;
    const ld_function *fn = k->inst[ii].fn;
    for (uint32_t b = 0; b < fn->n_blocks; b++) {
      if (k->inst[ii].block_seg[b] < 0) continue;
      for (uint32_t i = 0; i < fn->blocks[b].n_insns; i++) {
        const ld_insn *in = &fn->blocks[b].insns[i];
        if (in->op != SpvOpVariable) continue;
        const ld_type *pt = in->type->elem;
        uint32_t al = pt->align ? pt->align : 1;
        priv = (priv + al - 1) / al * al;
        k->privoff[(size_t)ii * k->m->bound + in->result] = priv;
        priv += pt->size;
        if (priv > k->inst[ii].priv_end) k->inst[ii].priv_end = priv;
      }
    }
  }
  return true;
}

/* ---------------------------------------------------------------- cache */

/* Restores the insn index table of a cached object. */
static int cmp_insn_word(const void *a, const void *b) {
  uint32_t x = (*(const ld_insn *const *)a)->word_offset, y = (*(const ld_insn *const *)b)->word_offset;
  return x < y ? -1 : x > y;
}

/* Rebuilds the instruction index table of a cached object.  Entries name
 * instructions by word offset, which is unique in the module: they are looked
 * up over every function (an entry may belong to an inlined callee). */
static bool cache_insns(jit_kernel *k, const uint8_t *p, size_t len) {
  uint32_t n;
  if (len < 4) return false;
  memcpy(&n, p, 4);
  if (n == 0 || len != 4 + (size_t)8 * n) return false;
  const ld_module *m = k->m;
  size_t total = 0;
  for (uint32_t f = 0; f < m->n_functions; f++)
    for (uint32_t b = 0; b < m->functions[f]->n_blocks; b++) total += m->functions[f]->blocks[b].n_insns;
  const ld_insn **all = malloc((total + 1) * sizeof *all);
  if (!all) return false;
  size_t na = 0;
  for (uint32_t f = 0; f < m->n_functions; f++)
    for (uint32_t b = 0; b < m->functions[f]->n_blocks; b++)
      for (uint32_t q = 0; q < m->functions[f]->blocks[b].n_insns; q++)
        all[na++] = &m->functions[f]->blocks[b].insns[q];
  qsort(all, na, sizeof *all, cmp_insn_word);
  bool ok = true;
  k->n_insns = 0;
  for (uint32_t i = 0; i < n && ok; i++) {
    uint32_t inst, w;
    memcpy(&inst, p + 4 + 8 * i, 4);
    memcpy(&w, p + 8 + 8 * i, 4);
    if (i == 0) { add_insn_index(k, NULL); continue; }
    if (inst >= k->n_inst) { ok = false; break; }
    ld_insn key = {.word_offset = w};
    const ld_insn *kp = &key;
    const ld_insn **hit = bsearch(&kp, all, na, sizeof *all, cmp_insn_word);
    if (!hit) { ok = false; break; }
    uint32_t idx = add_insn_index(k, *hit);
    if (idx != i) { ok = false; break; }
    k->insn_inst[idx] = inst;
  }
  free(all);
  return ok;
}


typedef struct cache_hdr {
  char magic[8];
  uint64_t key[2];
  uint64_t so_len;
  uint64_t sum;
  uint32_t frame_size, abi;
  uint32_t n_interp, pad;
} cache_hdr;

static bool read_file(const char *path, uint8_t **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t cap = 1 << 16, n = 0;
  uint8_t *b = malloc(cap);
  while (b) {
    size_t r = fread(b + n, 1, cap - n, f);
    n += r;
    if (n < cap) break;
    uint8_t *nb_ = realloc(b, cap * 2);
    if (!nb_) { free(b); b = NULL; break; }
    b = nb_; cap *= 2;
  }
  fclose(f);
  if (!b) return false;
  *out = b; *len = n;
  return true;
}

static bool load_so(jit_kernel *k, const uint8_t *so, size_t len, char *err, size_t es) {
  int fd = memfd_create("sgjit", MFD_CLOEXEC);
  if (fd < 0) { snprintf(err, es, "memfd_create: %s", strerror(errno)); return false; }
  size_t w = 0;
  while (w < len) {
    ssize_t r = write(fd, so + w, len - w);
    if (r <= 0) { close(fd); snprintf(err, es, "write: %s", strerror(errno)); return false; }
    w += (size_t)r;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  k->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  close(fd);
  if (!k->dl) { snprintf(err, es, "dlopen: %s", dlerror()); return false; }
  k->entry = (jit_entry_fn)dlsym(k->dl, "sg_kernel");
  k->groups = (jit_groups_fn)dlsym(k->dl, "sg_groups");
  if (!k->entry || !k->groups) { snprintf(err, es, "compiled object lacks sg_kernel or sg_groups"); dlclose(k->dl); k->dl = NULL; return false; }
  return true;
}

/* ------------------------------------------------------------------ API */

void jit_kernel_free(jit_kernel *k) {
  if (!k) return;
  for (uint32_t i = 0; i < k->n_inst; i++) { free(k->inst[i].block_seg); free(k->inst[i].term_seg); }
  free(k->inst);
  free(k->seg);
  free(k->insns);
  free(k->insn_inst);
  free(k->slot_off);
  free(k->privoff);
  free(k->arg_off);
  free(k->asm_text);
  if (k->dl) dlclose(k->dl);
  free(k);
}

const char *jit_kernel_asm(const jit_kernel *k) { return k ? k->asm_text : NULL; }

jit_kernel *jit_kernel_compile(const ld_module *m, const char *name, uint32_t sg_size,
                               const jit_options *opt, jit_stats *st, char *err, size_t err_size) {
  double t0 = now_ms();
  char dummy[8];
  if (!err || !err_size) { err = dummy; err_size = sizeof dummy; }
  err[0] = 0;
  if (st) memset(st, 0, sizeof *st);
  plan_err e = {err, err_size, false};
  if (!m || !name) { failf(&e, "no module or kernel"); return NULL; }
  if (sg_size == 0 || sg_size > IP_MAX_LANES) { failf(&e, "subgroup size %u out of range", sg_size); return NULL; }
  const ld_kernel *lk = ld_find_kernel(m, name);
  if (!lk) { failf(&e, "no kernel named %s", name); return NULL; }
  jit_kernel *k = calloc(1, sizeof *k);
  if (!k) { failf(&e, "out of memory"); return NULL; }
  k->m = m; k->k = lk; k->S = sg_size;
  k->inst = calloc(JIT_MAX_INST, sizeof *k->inst);
  k->arg_off = calloc(lk->fn->n_params + 1, sizeof *k->arg_off);
  if (!k->inst || !k->arg_off) { failf(&e, "out of memory"); goto fail; }
  add_insn_index(k, NULL);   /* index 0: none */
  if (plan_inst(k, lk->fn, 0, -1, &e) < 0) goto fail;
  for (uint32_t a = 0; a < lk->fn->n_params; a++) {
    const ld_type *t = m->values[lk->fn->params[a]].type;
    k->arg_off[a] = k->args_bytes;
    k->args_bytes += ((t ? t->size : 0) + 15) & ~15u;
  }
  if (!plan_offsets(k, &e)) goto fail;
  layout_u lu = {k, ((uint64_t)12 * sg_size + 7) / 8 * 8 + (uint64_t)8 * sg_size};
  if (!enum_slots(k, layout_cb, &lu, &e)) goto fail;
  k->frame_size = (uint32_t)((lu.off + 63) & ~(uint64_t)63);

  char cdir[4096];
  cache_dir_of(opt, cdir, sizeof cdir);
  const char *mflags = target_flags(cdir);
  int ol = opt_level_of(opt);
  /* cache key */
  char keytxt[512];
  /* the source stamp keeps objects of another code generator out */
  snprintf(keytxt, sizeof keytxt, "abi=%u|src=%s|k=%s|S=%u|O=%d|gccjit=%d.%d.%d|", JIT_ABI_VERSION,
           JIT_SOURCE_STAMP, name, sg_size, ol,
           gcc_jit_version_major(), gcc_jit_version_minor(), gcc_jit_version_patchlevel());
  uint64_t key[2];
  key[0] = fnv64(fnv64(fnv64(0xcbf29ce484222325ull, m->hash, 32), keytxt, strlen(keytxt)), mflags, strlen(mflags));
  key[1] = fnv64(fnv64(fnv64(0x84222325cbf29ce4ull, keytxt, strlen(keytxt)), m->hash, 32), mflags, strlen(mflags));
  char cpath[4300] = "";
  /* SPIRV_SG_JIT_ASM=FILE (spirv-sgrun --jit-asm FILE): compile afresh and
   * write the assembly there */
  const char *asm_out = getenv("SPIRV_SG_JIT_ASM");
  if (asm_out && !*asm_out) asm_out = NULL;
  bool want_asm = (opt && opt->dump_asm) || asm_out;
  if (cdir[0]) snprintf(cpath, sizeof cpath, "%s/jit-%016llx%016llx.bin", cdir, (unsigned long long)key[0], (unsigned long long)key[1]);
  if (cpath[0] && !want_asm) {
    uint8_t *buf; size_t len;
    if (read_file(cpath, &buf, &len)) {
      cache_hdr h;
      bool ok = len >= sizeof h;
      if (ok) memcpy(&h, buf, sizeof h);
      ok = ok && !memcmp(h.magic, JIT_CACHE_MAGIC, 8) && h.key[0] == key[0] && h.key[1] == key[1] &&
           h.so_len <= len - sizeof h && h.abi == JIT_ABI_VERSION && h.frame_size == k->frame_size &&
           fnv64(0xcbf29ce484222325ull, buf + sizeof h, len - sizeof h) == h.sum;
      /* after the object: the insn index table (u32 count, then inst and word offset) */
      if (ok) ok = cache_insns(k, buf + sizeof h + h.so_len, len - sizeof h - h.so_len);
      char lerr[256];
      if (ok && load_so(k, buf + sizeof h, h.so_len, lerr, sizeof lerr)) {
        free(buf);
        logf_(opt, "jit: %s (S=%u) loaded from cache %s", name, sg_size, cpath);
        k->n_interp = h.n_interp;
        if (st) { st->from_cache = true; st->compile_ms = 0; st->interp_insns = h.n_interp; }
        return k;
      }
      logf_(opt, "jit: cache entry %s is %s; rebuilding", cpath, ok ? "unloadable" : "corrupt or stale");
      free(buf);
    }
  }
  /* compile */
  uint32_t n_stmts = 0;
  gcc_jit_context *cx = build(k, opt, mflags, &e, &n_stmts);
  if (!cx) goto fail;
  char tdir[] = "/tmp/sgjitXXXXXX";
  if (!mkdtemp(tdir)) { failf(&e, "mkdtemp: %s", strerror(errno)); gcc_jit_context_release(cx); goto fail; }
  char sopath[64], asmpath[64];
  snprintf(sopath, sizeof sopath, "%s/k.so", tdir);
  snprintf(asmpath, sizeof asmpath, "%s/k.s", tdir);
  /* SPIRV_SG_JIT_DUMP=FILE: the generated code, as C-like source, for debugging */
  const char *dump_out = getenv("SPIRV_SG_JIT_DUMP");
  if (dump_out && *dump_out) gcc_jit_context_dump_to_file(cx, dump_out, 0);
  gcc_jit_context_compile_to_file(cx, GCC_JIT_OUTPUT_KIND_DYNAMIC_LIBRARY, sopath);
  const char *ge = gcc_jit_context_get_first_error(cx);
  if (ge) { failf(&e, "libgccjit: %s", ge); gcc_jit_context_release(cx); rmdir(tdir); goto fail; }
  if (want_asm) {
    gcc_jit_context_compile_to_file(cx, GCC_JIT_OUTPUT_KIND_ASSEMBLER, asmpath);
    uint8_t *ab; size_t al;
    if (read_file(asmpath, &ab, &al)) {
      k->asm_text = malloc(al + 1);
      if (k->asm_text) { memcpy(k->asm_text, ab, al); k->asm_text[al] = 0; }
      free(ab);
    }
    unlink(asmpath);
    if (asm_out && k->asm_text) {
      FILE *af = fopen(asm_out, "w");
      if (af) {
        fprintf(af, "# spirv-sg JIT: kernel %s, subgroup size %u\n", name, sg_size);
        fputs(k->asm_text, af);
        fclose(af);
        logf_(opt, "jit: assembly of %s written to %s", name, asm_out);
      } else {
        logf_(opt, "jit: cannot write %s: %s", asm_out, strerror(errno));
      }
    }
  }
  gcc_jit_context_release(cx);
  uint8_t *so; size_t solen;
  bool rd = read_file(sopath, &so, &solen);
  unlink(sopath);
  rmdir(tdir);
  if (!rd) { failf(&e, "cannot read the compiled object"); goto fail; }
  char lerr[256];
  if (!load_so(k, so, solen, lerr, sizeof lerr)) { failf(&e, "%s", lerr); free(so); goto fail; }
  if (cpath[0]) {
    cache_hdr h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, JIT_CACHE_MAGIC, 8);
    h.key[0] = key[0]; h.key[1] = key[1];
    h.so_len = solen;
    h.sum = fnv64(0xcbf29ce484222325ull, so, solen);
    h.frame_size = k->frame_size;
    h.abi = JIT_ABI_VERSION;
    h.n_interp = k->n_interp;
    mkdirs(cdir);
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s.%d.%lx.tmp", cpath, (int)getpid(), (unsigned long)pthread_self());
    FILE *f = fopen(tmp, "wb");
    if (f) {
      size_t tl = 4 + (size_t)8 * k->n_insns;
      uint8_t *tab = malloc(tl);
      bool ok = tab != NULL;
      if (ok) {
        memcpy(tab, &k->n_insns, 4);
        for (uint32_t i = 0; i < k->n_insns; i++) {
          uint32_t w = k->insns[i] ? k->insns[i]->word_offset : 0;
          memcpy(tab + 4 + 8 * i, &k->insn_inst[i], 4);
          memcpy(tab + 8 + 8 * i, &w, 4);
        }
        h.sum = fnv64(fnv64(0xcbf29ce484222325ull, so, solen), tab, tl);
      }
      ok = ok && fwrite(&h, sizeof h, 1, f) == 1 && fwrite(so, 1, solen, f) == solen && fwrite(tab, 1, tl, f) == tl;
      free(tab);
      if (fclose(f) == 0 && ok && rename(tmp, cpath) == 0) logf_(opt, "jit: cached %s", cpath);
      else unlink(tmp);
    }
  }
  free(so);
  if (st) { st->compile_ms = now_ms() - t0; st->from_cache = false; st->ir_statements = n_stmts; st->interp_insns = k->n_interp; }
  return k;
fail:
  logf_(opt, "jit: %s falls back to the interpreter: %s", name, err);
  jit_kernel_free(k);
  return NULL;
}
