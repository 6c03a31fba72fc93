/* backend.c - see backend.h. */
#include "backend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void sg_jit_job_init(sg_jit_job *j, const ld_module *m, const char *kernel, uint32_t S,
                     int opt_level)
{
  memset(j, 0, sizeof *j);
  j->m = m;
  j->kernel = kernel;
  j->S = S;
  j->opt.cache_dir = NULL;
  j->opt.opt_level = opt_level < 0 ? 2 : opt_level;
}

/* A struct argument passed by value (ByVal pointer to Function storage):
 * the interpreter gives each work-item its own copy in private memory; the
 * JIT takes kernel arguments as uniform values and has no such copy yet. */
static const char *byval_arg(const ld_module *m, const char *kernel)
{
  const ld_kernel *k = kernel ? ld_find_kernel(m, kernel) : m->n_kernels == 1 ? &m->kernels[0] : NULL;
  for (uint32_t i = 0; k && i < k->n_args; i++)
    if (k->args[i].kind == LD_ARG_VALUE && k->args[i].type && k->args[i].type->kind == LD_T_POINTER)
      return k->args[i].name;
  return NULL;
}

static void *compile_main(void *arg)
{
  sg_jit_job *j = arg;
  double t0 = now_ms();
  const char *bv = byval_arg(j->m, j->kernel);
  if (j->refuse)
    snprintf(j->err, sizeof j->err, "%s", j->refuse);
  else if (bv)
    snprintf(j->err, sizeof j->err, "argument '%s' is a struct passed by value: interpreter only", bv);
  else
    j->k = jit_kernel_compile(j->m, j->kernel, j->S, &j->opt, &j->stats, j->err, sizeof j->err);
  j->ms = now_ms() - t0;
  if (j->k)
    sg_jit_mark(j);
  else if (!j->err[0])
    snprintf(j->err, sizeof j->err, "the JIT cannot compile this kernel");
  __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

void sg_jit_job_start(sg_jit_job *j, bool async)
{
  if (j->started)
    return;
  j->started = true;
  if (async && pthread_create(&j->th, NULL, compile_main, j) == 0)
    return;
  compile_main(j);
  j->joined = true;
}

bool sg_jit_job_ready(sg_jit_job *j)
{
  return j->started && __atomic_load_n(&j->done, __ATOMIC_ACQUIRE);
}

void sg_jit_job_wait(sg_jit_job *j)
{
  if (j->started && !j->joined) {
    pthread_join(j->th, NULL);
    j->joined = true;
  }
}

void sg_jit_job_fini(sg_jit_job *j)
{
  sg_jit_job_wait(j);
  jit_kernel_free(j->k);
  j->k = NULL;
}

/* ------------------------------------------------------- the marker probe */

static uint64_t fnv64(uint64_t h, const void *p, size_t n)
{
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static bool marker_path(const sg_jit_job *j, char *buf, size_t size, char *dir, size_t dsize)
{
  const char *x = getenv("XDG_CACHE_HOME");
  const char *h = getenv("HOME");
  if (x && *x)
    snprintf(dir, dsize, "%s/spirv-sg", x);
  else if (h && *h)
    snprintf(dir, dsize, "%s/.cache/spirv-sg", h);
  else
    return false;
  char key[300];
  snprintf(key, sizeof key, "k=%s|S=%u|O=%d", j->kernel, j->S, j->opt.opt_level);
  uint64_t v = fnv64(fnv64(0xcbf29ce484222325ull, j->m->hash, sizeof j->m->hash), key, strlen(key));
  int n = snprintf(buf, size, "%s/hot-%016llx", dir, (unsigned long long)v);
  return n > 0 && (size_t)n < size;
}

bool sg_jit_seen(const sg_jit_job *j)
{
  char path[4200], dir[4096];
  if (!marker_path(j, path, sizeof path, dir, sizeof dir))
    return false;
  return access(path, F_OK) == 0;
}

void sg_jit_mark(const sg_jit_job *j)
{
  char path[4200], dir[4096];
  if (!marker_path(j, path, sizeof path, dir, sizeof dir) || access(path, F_OK) == 0)
    return;
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);   /* the JIT made the folder */
  if (fd >= 0)
    close(fd);
}

/* ------------------------------------------------------------ JIT ranges */

static ip_result run_chunk(void *user, ip_launch *l, uint64_t first, uint64_t count)
{
  return jit_kernel_run(user, l, first, count);
}

ip_result sg_jit_run_range(jit_kernel *k, ip_launch *l, uint32_t threads, uint64_t first,
                           uint64_t count, bool auto_threads)
{
  /* a few chunks per thread balance uneven work-groups; one call when alone.
   * With the default thread count, a range of fewer than 16 work-groups per
   * thread runs on one: starting threads and their per-chunk set-up costs
   * more than such a launch (an explicit -j N is always honoured). */
  uint64_t chunk = 0;
  if (auto_threads && count < (uint64_t)threads * 16)
    threads = 1;
  if (threads > 1) {
    chunk = count / ((uint64_t)threads * 4);
    if (chunk < 1)
      chunk = 1;
  }
  return ip_launch_run_range_with(l, first, count, chunk, run_chunk, k);
}
