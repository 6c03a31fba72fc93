/* jit.h - the libgccjit backend: lane-vectorized native code for hot kernels.
 *
 * A compiled kernel executes whole subgroups (all S lanes together, active
 * mask for divergence, same reconvergence rules as interp/), loops over
 * subgroups and work-groups inside the compiled code, and reports faults and
 * UB with the same ip_diag records as the interpreter.  Anything it cannot
 * compile falls back to the interpreter with one logged reason.
 *
 * Ownership: jit_kernel_compile() returns an object owning the compiled code
 * (a dlopen'ed shared object, possibly from the on-disk cache);
 * jit_kernel_free(NULL) is a no-op.
 */
#ifndef JIT_H
#define JIT_H

#include "ip.h"

typedef struct jit_kernel jit_kernel;

typedef struct jit_options {
  const char *cache_dir;     /* NULL: $XDG_CACHE_HOME/spirv-sg or ~/.cache/spirv-sg; "" disables */
  int opt_level;             /* 0..3, default 2 */
  bool dump_asm;             /* keep the assembly for inspection */
  bool full_only;            /* every subgroup of the launches it runs has S lanes
                              * (jit_launch_full): a convergent kernel compiles
                              * only its whole-subgroup variant */
  bool linear_x;             /* with full_only: the lanes of every subgroup hold
                              * consecutive x local ids (jit_launch_linear_x), so
                              * accesses at lane-affine addresses skip the
                              * consecutive-address test */
  uint64_t step_limit;       /* the launches' step limit (0: the default, 2^32): a
                              * convergent kernel without loops whose every path
                              * takes fewer branches counts none */
  ip_write_fn log;           /* fallback reasons and cache events, may be NULL */
  void *log_user;
} jit_options;

typedef struct jit_stats {
  double compile_ms;         /* 0 when loaded from the cache */
  bool from_cache;
  uint32_t ir_statements;
  uint32_t interp_insns;     /* instructions run by the interpreter's handler (rt_interp) */
  bool convergent;           /* no varying branch: compiled without the SIMT stack */
  uint32_t masked_loops;     /* loops whose lanes leave at different trips, compiled
                              * under a lane mask (jit_kernel.mloops) */
  uint32_t wide_fields;      /* 128-byte lane values kept in two vector locals (J.fmap_part) */
} jit_stats;

/* Compiles kernel `name` of m for subgroup size S (and the module's spec
 * constant values, already folded into m).  Returns NULL with a reason in
 * err when the kernel cannot be compiled (the caller falls back). */
jit_kernel *jit_kernel_compile(const ld_module *m, const char *name, uint32_t sg_size,
                               const jit_options *opt, jit_stats *out_stats,
                               char *err, size_t err_size);
/* Runs work-groups [first, first+count) in linear work-group order of the
 * launch l (created by ip_launch_create, which checked the arguments);
 * diagnostics go into l's report exactly as the interpreter's do. */
ip_result jit_kernel_run(jit_kernel *k, ip_launch *l, uint64_t first, uint64_t count);
/* True if every subgroup of every work-group of nd has nd->sg_size lanes
 * (the enqueued work-group size is a multiple of it and the global size a
 * multiple of the work-group size): jit_options.full_only may be set. */
bool jit_launch_full(const ip_ndrange *nd);
/* True if the lanes of every subgroup of nd hold consecutive x local ids:
 * the work-groups are 1-D (local y and z are 1) or the local x size is a
 * multiple of the subgroup size (and no remainder work-group breaks it). */
bool jit_launch_linear_x(const ip_ndrange *nd);
/* The assembly text of the compiled kernel (needs dump_asm), or NULL. */
const char *jit_kernel_asm(const jit_kernel *k);
void jit_kernel_free(jit_kernel *k);

#endif
