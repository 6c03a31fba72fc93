/* backend.h - backend selection helpers for sg_run (src/api.c): the JIT on
 * split work-group ranges and threads, a background compile, and the
 * "compiled before" probe.  Not public.  Policy: docs/semantics.md, "Backend
 * selection". */
#ifndef SG_BACKEND_H
#define SG_BACKEND_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "ld.h"
#include "ip.h"
#include "jit.h"

/* Subgroup-instructions the interpreter executes (summed over --repeat
 * launches of one sg_run) before --backend=auto starts the JIT compile. */
#define SG_JIT_DEFAULT_THRESHOLD 2000000ull

/* One JIT compile, synchronous or on a background thread. */
typedef struct sg_jit_job {
  const ld_module *m;
  const char *kernel;
  uint32_t S;
  jit_options opt;
  pthread_t th;
  bool started, joined;
  int done;                  /* atomic: the compile has finished */
  jit_kernel *k;             /* the result (NULL: failed, see err) */
  char err[512];
  jit_stats stats;
  double ms;                 /* wall time of the compile */
  const char *refuse;        /* set before starting: no compile, this is the reason */
} sg_jit_job;

void sg_jit_job_init(sg_jit_job *j, const ld_module *m, const char *kernel, uint32_t S,
                     int opt_level);
/* Starts the compile; async: on a thread (falls back to synchronous when no
 * thread can be made).  Does nothing when already started. */
void sg_jit_job_start(sg_jit_job *j, bool async);
bool sg_jit_job_ready(sg_jit_job *j);
/* Waits for a started compile (no-op otherwise). */
void sg_jit_job_wait(sg_jit_job *j);
/* Waits, then frees the compiled kernel. */
void sg_jit_job_fini(sg_jit_job *j);

/* The non-compiling cache probe: true when this kernel (module hash, name,
 * S, -O level) was JIT-compiled successfully before on this machine, i.e. a
 * marker file hot-<key> exists in the JIT cache folder (jit.h: cache_dir
 * NULL = $XDG_CACHE_HOME/spirv-sg or ~/.cache/spirv-sg).  The compile then
 * most likely loads from the JIT's cache in well under a millisecond.  A
 * stale marker only costs a background compile. */
bool sg_jit_seen(const sg_jit_job *j);
/* Leaves the marker after a successful compile. */
void sg_jit_mark(const sg_jit_job *j);

/* Runs work-groups [first, first+count) of l's current run natively, split
 * into chunks over the launch's threads (ip_launch_run_range_with);
 * auto_threads: the thread count is the default, not -j (small ranges then
 * run on one thread). */
ip_result sg_jit_run_range(jit_kernel *k, ip_launch *l, uint32_t threads, uint64_t first,
                           uint64_t count, bool auto_threads);

#endif
