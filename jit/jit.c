/* jit.c - the JIT's public API: the compile driver, target flags, the disk cache.
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
 * Convergent kernels (plan_convergent: no varying branch by the loader's
 * uniformity analysis) need no SIMT stack: branches follow lane 0, calls and
 * returns are jumps.  A varying branch around one then-block that rejoins
 * at the branch's reconvergence point is if-converted: the head sets the top
 * entry's mask words and mask[] to the lanes taking the block (skipping it
 * when none does), the block's end restores them (jit_seg.ifc).  A block
 * only lane K can take (`get_sub_group_local_id() == K`, ifc_lane_bound)
 * is emitted for lane K alone (J.one_lane): its lane loops run that lane,
 * its mask bit is known set, and its loads and stores are the per-lane
 * checked accesses, with no subgroup-wide range test.  Such a
 * kernel also compiles sg_kernel_full, the variant sg_groups runs for a
 * whole subgroup (J.full: mask reads are constants, no blends, no mask in
 * the memory checks, no zeroing at a first start, and a suspension keeps
 * only the values used in another segment than their own: J.fkeep);
 * launches whose subgroups are all whole compile only that variant
 * (jit_options.full_only).  The kernel functions are internal with one
 * call site per variant (a kernel that suspends passes the start point,
 * first run or resume, as a variable), and GCC inlines the kernel into
 * the loop over subgroups when it is small enough.
 *
 * Masked loops (plan_mloops, jit_kernel.mloops).  A loop whose varying
 * branches all leave it for one exit block, where they reconverge, keeps
 * the kernel convergent: the way in pushes one entry of the entering
 * lanes (a varying guard's taken lanes, IFC_MGUARD), each trip runs under
 * the word of the lanes still in it (J.cur_tw, and J.cur_mv, the same as a
 * 0/1 vector that the blends read), which the top entry holds too; a
 * leaving branch drops its leavers; when none is left the entry goes and
 * the exit block's phis pick each lane's edge (pred[] per lane).  An exit
 * chain of plain blocks runs after the loop under the entered lanes; a
 * guard's region need not loop (an early-exit staircase).  Then-blocks
 * inside are if-converted under the loop's word; regions nest (an inner
 * loop's region inside an outer's: jit_kernel.mloops[].parent, seg.mloop
 * the innermost), each with its own entry and word.  Float compares are
 * recomputed at their branch (remat), so an exit test is one vector
 * compare into a mask register (taken_words).
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
 * What is the same for every subgroup reaches the kernel functions as
 * parameters that sg_groups reads once: the region table, the kernel
 * arguments' components, and a local copy of jit_wgs that rt_wg's values
 * refresh per work-group (a local the host never sees, so GCC keeps its
 * fields in registers across the subgroups), and the subgroup's index (its
 * loop counter: no load of c->sg_id on the way to the built-ins' values).
 * With k->linear_x a lane's local id is lane 0's plus (l, 0, 0): one read,
 * no lane array.  A kernel that runs only whole subgroups and never
 * suspends (k->lean_stack) does not rebuild its stack per subgroup: rt_wg
 * sets each context's entry {entry, -1, all} when the work-group's shape
 * is set, a normal return leaves it in place, and a subgroup whose lanes
 * all left otherwise (OpUnreachable) restores it as it finishes.  Such a
 * kernel, when it also counts no steps, finds its context and heap frame
 * only where a slow path needs them (wg->sgs[sgi]); and it returns
 * JIT_RET_HOST when a host helper ran (J.hc), the only case in which
 * sg_groups reads the stop flag after the subgroup.
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
 * cost model.  In the kernel functions every frame field has a local; a
 * value's lane array of one scalar component in 16, 32 or 64 bytes is a
 * local of vector type read and written through its array type
 * (vector_local_type), which GCC keeps in a register also across the join
 * with a slow path that refills it from the heap frame.  Kernels above JIT_BIG_KERNEL statements compile at -O1 with
 * the loop vectorizer and one register-allocation region, without the
 * passes that cost compile time and bring them no speed (BIG_OFF in
 * jit_emit.c: the dominator optimizer, tree constant and copy propagation,
 * IPA summaries, ...): less compile time, and faster code for large
 * kernels.
 *
 * Promoted private arrays (promo_plan): in a kernel that never suspends,
 * when every Function variable is an array of scalars reached only by
 * one-index chains that are loaded and stored (or copied whole), each lives
 * in a local T a[N][S] of the kernel function; an access with an index out
 * of range in some active lane (and every whole copy) copies the arrays to
 * private memory, runs the ordinary access there and copies them back.
 * With every lane active and an index the same in every lane, the range
 * test is one compare of lane 0's index; a chain used only by such loads
 * and stores computes its lanes' pointers only on that slow path
 * (promo_skip_chain).
 * Phis of a convergent kernel's block that no if-converted block enters
 * test lane 0's predecessor once (every lane came the same way); in
 * sg_kernel_full a branch whose targets have only such phis writes lane 0's
 * pred[] alone (pred_lane0_only).
 *
 * Affine values (shadow_plan, jit_emit.c).  In a convergent kernel that
 * never suspends, an integer, bool or global pointer value defined where
 * every lane runs, whose lane stride s the loader's analysis knows
 * (ld_uni_lane_stride: uniform values, the subgroup local id, the x ids
 * under linear_x, and sums, products by constants and access chains of
 * those), is one scalar: lane 0's value v0, computed once; a lane that
 * reads it gets v0 + l*s (V()).  So do the id vector built-ins under
 * linear_x, the uniform vector built-ins, uniform phis and a callee's
 * uniform parameters.  Only values whose every use reads through V() are
 * kept so (not a stored value, not a cross-lane operand); a host call that
 * reads the heap frame gets the lanes written there (spill_val).  A branch
 * on such a bool is a plain branch on the scalar, without the lockstep
 * check (rt_diverged) that other uniform branches keep: the lanes cannot
 * disagree.  saxpy's global id, x + i and y + i are three scalars, and
 * each access's fast path needs only lane 0's address.  An OpSelect of
 * two values of the same lane stride s on a varying condition (i >= 16 ?
 * i - 16 : i) tests whether every lane's condition is the same; if so the
 * result is lane 0's pick plus l * s, else the per-lane blend
 * (emit_select_uniform).  When the condition compares two lane-affine
 * values, its two end lanes decide (cond_ends: a compare of two linear
 * sequences changes its answer at most once while neither wraps, which a
 * compare of lane 0's operand with a constant rules out).
 *
 * Recomputed values (remat_plan, jit_emit.c).  In sg_kernel_full, a cheap
 * pure integer, bool or pointer instruction (arithmetic, compares, selects,
 * conversions, access chains into global, local or constant memory) whose
 * uses all sit later in its own block, with no call, barrier or work-group
 * collective between (never live across a suspension), and read it at
 * their own lane (elementwise operations, access chains, a load's or
 * store's pointer, a branch condition, a ballot's predicate) has no lane
 * array: V() recomputes it from its operands.  If-converted
 * then-blocks qualify too: their readers need only the active lanes.  The
 * clamped index of stencil and the address made from it cost two lane
 * arrays per subgroup; now the window test computes lane 0's address alone,
 * and only the per-lane path computes lanes.  compact's predicate is no
 * longer a byte array, which had made GCC compute it four lanes at a time.
 *
 * Memory.  A subgroup-wide fast path first: all lanes active, all addresses
 * in one region, in bounds and aligned -> unchecked per-lane accesses (one
 * memcpy when the addresses are consecutive; consecutive addresses are
 * tested first, against lane 0's address plus l * size where the lanes'
 * pointers already are, and then lane 0's address and the span's end are
 * the whole check; in a convergent kernel an address whose lane stride
 * (ld_uni_lane_stride, loader) is the element size needs no test, and only
 * lane 0's address is computed on the way in; in sg_kernel_full such an
 * access first tries its window, the region its last checked subgroup
 * reached, kept across a sg_groups call: one subtract, rotate and compare,
 * mem_fast_window, whose hit also prefetches the span 2 KiB on, where
 * later subgroups walk: SPIRV_SG_JIT_PREFETCH; not in a kernel that stores
 * consecutive spans to global memory, win_prefetch_off; a store's window
 * also decides whether its whole 64-byte lines go past the cache, with
 * non-temporal stores and no read for ownership: a region at least
 * wgs.nt_min bytes large, which the kernel never reads, in a kernel
 * without atomics, nt_plan, fenced by the host after each range); a Function variable of the
 * instance itself is each lane's own private bytes; an access through any
 * other pointer to Function storage (a private array indexed at run time)
 * checks once that every active lane addresses its own private memory, in
 * bounds, then reaches it directly (mem_priv).  Otherwise the per-lane
 * path (jit_rt_ldst, host) asks the interpreter's own ip_mem for every access
 * the region table does not prove legal (same fault kinds, same ip_diag
 * records; loads yield zero, stores are dropped).  A store by part of the
 * subgroup loops over the set bits of the top entry's mask word (no
 * branch on each lane's bit, which a data-dependent mask mispredicts).
 * Stream compaction's store, `if (keep) out[base + pos] = x` with pos the
 * exclusive bit count of a ballot made where every lane runs, is one
 * AVX-512 compress and masked vector store (compress_store): the plan
 * proves the address is a uniform value plus pos * size (cp_aff), the code
 * tests that the mask equals the ballot's bits (then pos is each active
 * lane's rank) and that the span of popcount(mask) elements is in bounds,
 * writable and aligned; anything else takes the store above.
 *
 * Subgroup operations.  Group/GroupNonUniform IAdd and FAdd (reduce, scans)
 * are inline cross-lane loops combining active lanes in increasing lane
 * order; other arithmetic group operations call the shared reference
 * ip_group_arith_eval through rt_group.  Intel shuffles, OpGroupBroadcast,
 * ballot and ballot bit count, buffer block reads/writes and 32/64-bit
 * integer atomics have inline fast paths taken when the interpreter would
 * record no diagnostic (whole subgroup active, indices in range, uniform
 * operands, aligned in-bounds memory; atomics: every active lane's address
 * valid, and on local memory a plain lane-ordered read-modify-write, since
 * one thread runs all of a work-group; an Intel shuffle whose index is
 * the same in every lane reads the source lane once and broadcasts it);
 * Float -> integer conversions without decorations, OpBitCount and the
 * commonest OpenCL.std built-ins (jit_plan.c: ocl_std_native) are elementwise
 * code like arithmetic.  Otherwise, and for every other
 * instruction, the interpreter's own handler runs on the subgroup's lanes
 * (rt_interp copies operands in and the result out), so UB and faults are
 * recorded exactly as the interpreter records them.
 *
 * Anything else makes jit_kernel_compile return NULL with one reason.
 *
 * WHERE THINGS ARE (stage by stage; emission mirrors interp/exec_*.c)
 *
 *   jit.c               the public API: jit_kernel_compile (plan, cache
 *                       look-up, build, compile, load), target flags (-m),
 *                       the disk cache (keys, entries, load_so)
 *   jit_plan.c, .h      the plan: what compiles (native_ok, generic_ok,
 *                       op_supported), segments and inlined instances
 *                       (plan_inst), image and sampler handles, private
 *                       memory offsets (plan_offsets), plan_convergent, the
 *                       frame layout of the value slots (enum_slots)
 *   jit_emit.h          the code generator's state (J) and small helpers:
 *                       ci, cast, bin, cmp, assign, local, V, res_lv,
 *                       lane loops, fuse_open, mblend, sel, fld/spill/fill,
 *                       SIMT stack entries, the cross-lane fast-path checks
 *   jit_emit.c          je_build (frame and context structs, sg_kernel and
 *                       its dispatch), emit_seg (the switch over opcodes),
 *                       emit_xlane (cross-lane families), emit_generic (the
 *                       interpreter fallback), work-group rendezvous,
 *                       emit_groups (sg_groups: the work-group loops)
 *   jit_emit_arith.c    elementwise operations, OpenCL.std native
 *                       operations, built-in variables
 *   jit_emit_memory.c   access chains, loads and stores (fast path and
 *                       checked per-lane path), private memory, atomics
 *   jit_emit_control.c  the SIMT stack in compiled code, terminators
 *                       (branches, switches, returns), OpPhi
 *   jit_emit_subgroup.c group arithmetic (reduce, scans), the collectives'
 *                       partial-subgroup check, broadcast, ballots
 *   jit_emit_intel.c    Intel shuffles (lane permutes), block reads/writes
 *   jit_run.c           the host side of a launch (rt_* helpers), sharing
 *                       jit_internal.h with the compiler
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "jit_stamp.h"
#include "jit_emit.h"

#define JIT_ABI_VERSION 13u
#define JIT_CACHE_MAGIC "SGJIT001"

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

/* The tuning switches for the cache key: a hash of every SPIRV_SG_JIT_*
 * variable except those that do not change the generated code (ASM, DUMP,
 * TIME_REPORT, THRESHOLD, NT_MIN), sorted, as NAME=VALUE (docs/semantics.md lists
 * them). */
extern char **environ;
static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }
static uint64_t tuning_key(void) {
  static const char *const skip[] = {"SPIRV_SG_JIT_ASM=", "SPIRV_SG_JIT_DUMP=", "SPIRV_SG_JIT_TIME_REPORT=",
                                     "SPIRV_SG_JIT_THRESHOLD=", "SPIRV_SG_JIT_NT_MIN="};
  size_t n = 0, cap = 0;
  for (char **e = environ; e && *e; e++) cap++;
  const char **v = malloc((cap + 1) * sizeof *v);
  if (!v) return 1;   /* out of memory: a key no tuned object has */
  for (char **e = environ; e && *e; e++) {
    if (strncmp(*e, "SPIRV_SG_JIT_", 13)) continue;
    bool keep = true;
    for (size_t q = 0; q < sizeof skip / sizeof *skip; q++)
      if (!strncmp(*e, skip[q], strlen(skip[q]))) keep = false;
    if (keep) v[n++] = *e;
  }
  qsort(v, n, sizeof *v, cmp_str);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t q = 0; q < n; q++) h = fnv64(h, v[q], strlen(v[q]) + 1);
  free(v);
  return n ? h : 0;
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
  /* -### prints the cc1 command line without running cc1 (2 ms, not 10) */
  FILE *p = popen("gcc -march=native -### -E - </dev/null 2>&1", "r");
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
      if (tok[0] == '"') {   /* -### quotes some arguments: "-march=znver3" */
        tok++;
        size_t tl = strlen(tok);
        if (tl && tok[tl - 1] == '"') tok[tl - 1] = 0;
      }
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
  uint32_t n_interp, n_wide;
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
  k->groups = (jit_groups_fn)dlsym(k->dl, "sg_groups");
  if (!k->groups) { snprintf(err, es, "compiled object lacks sg_groups"); dlclose(k->dl); k->dl = NULL; return false; }
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
  free(k->defer_of);
  free(k->arg_off);
  free(k->asm_text);
  free(k->lc_args);
  free(k->lc_reg);
  free(k->lc_local_size);
  pthread_mutex_destroy(&k->lc_mu);
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
  pthread_mutex_init(&k->lc_mu, NULL);
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
  plan_defer(k);
  k->conv = plan_convergent(k);
  k->full_only = k->conv && opt && opt->full_only;
  k->linear_x = k->full_only && opt->linear_x;
  k->lean_stack = k->full_only && !plan_may_suspend(k) && !getenv("SPIRV_SG_JIT_STACK_EACH");
  if (k->conv && plan_acyclic(k)) {
    /* each segment runs once per subgroup; returns and the ends of
     * if-converted blocks count as branches too */
    k->max_branches = k->n_seg + k->n_inst;
    uint64_t lim = opt && opt->step_limit ? opt->step_limit : (uint64_t)1 << 32;
    k->no_steps = lim >= k->max_branches && !getenv("SPIRV_SG_JIT_STEPS");
  }
  layout_u lu = {k, ((uint64_t)12 * sg_size + 7) / 8 * 8 + (uint64_t)8 * sg_size};
  if (!enum_slots(k, layout_cb, &lu, &e)) goto fail;
  k->frame_size = (uint32_t)((lu.off + 63) & ~(uint64_t)63);

  char cdir[4096];
  cache_dir_of(opt, cdir, sizeof cdir);
  const char *mflags = target_flags(cdir);
  int ol = opt_level_of(opt);
  /* cache key */
  char keytxt[1024];
  /* the source stamp keeps objects of another code generator out */
  uint32_t n_ifc = 0;   /* if-converted branches (none when SPIRV_SG_JIT_CONV=force) */
  for (uint32_t s = 0; s < k->n_seg; s++) n_ifc += k->seg[s].ifc == IFC_HEAD;
  snprintf(keytxt, sizeof keytxt, "abi=%u|pa=%d|src=%s|k=%s|S=%u|O=%d|conv=%d|ifc=%u|ml=%u|full=%d|lx=%d|lean=%d|nst=%d|tune=%016llx|gccjit=%d.%d.%d|",
           JIT_ABI_VERSION, (int)jit_pa_ok(), JIT_SOURCE_STAMP, name, sg_size, ol, (int)k->conv, n_ifc, k->n_mloops, (int)k->full_only,
           (int)k->linear_x, (int)k->lean_stack, (int)k->no_steps, (unsigned long long)tuning_key(),
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
        k->n_wide = h.n_wide;
        if (st) { st->from_cache = true; st->compile_ms = 0; st->interp_insns = h.n_interp; st->convergent = k->conv; st->masked_loops = k->n_mloops; st->wide_fields = k->n_wide; }
        return k;
      }
      logf_(opt, "jit: cache entry %s is %s; rebuilding", cpath, ok ? "unloadable" : "corrupt or stale");
      free(buf);
    }
  }
  /* compile */
  uint32_t n_stmts = 0;
  gcc_jit_context *cx = je_build(k, opt, mflags, &e, &n_stmts);
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
    h.n_wide = k->n_wide;
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
  if (st) { st->compile_ms = now_ms() - t0; st->from_cache = false; st->ir_statements = n_stmts; st->interp_insns = k->n_interp; st->convergent = k->conv; st->masked_loops = k->n_mloops; st->wide_fields = k->n_wide; }
  return k;
fail:
  logf_(opt, "jit: %s falls back to the interpreter: %s", name, err);
  jit_kernel_free(k);
  return NULL;
}
