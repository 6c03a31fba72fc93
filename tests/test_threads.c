/* Launches on several threads through the public API (spirv_sg.h): the
 * process-wide worker pool (interp/ip_launch.c) reused launch after launch,
 * launches from several host threads at once (one has the pool, the others
 * start threads of their own), a forked child (its pool starts empty), on
 * the interpreter and the JIT, and an exit() while a never-ending launch
 * runs on the pool (the exit must not wait for it).  Expected values: swap.cl's out[i] =
 * 10 * in[i ^ 1] (sub_group_shuffle_xor by 1). */
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "spirv_sg.h"

static int n_pass, n_fail;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
#define CHECK(cond, ...) do { \
    pthread_mutex_lock(&mu); \
    if (cond) n_pass++; \
    else { n_fail++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
    pthread_mutex_unlock(&mu); \
  } while (0)

static sg_module *mod;

/* One launch of n work-items (work-groups of 64) on `threads` threads;
 * true if every output is right. */
static bool launch(sg_backend backend, uint32_t threads, size_t n, uint32_t salt) {
  int32_t *in = malloc(n * sizeof *in), *out = calloc(n, sizeof *out);
  if (!in || !out) { free(in); free(out); return false; }
  for (size_t i = 0; i < n; i++) in[i] = (int32_t)(i * 7 + salt);
  sg_arg args[2];
  memset(args, 0, sizeof args);
  args[0].kind = args[1].kind = SG_ARG_BUFFER;
  args[0].data = in; args[0].size = n * sizeof *in;
  args[1].data = out; args[1].size = n * sizeof *out;
  sg_run_desc d;
  memset(&d, 0, sizeof d);
  d.kernel = "swap";
  d.work_dim = 1;
  d.global_size[0] = n;
  d.local_size[0] = 64;
  d.args = args;
  d.n_args = 2;
  d.backend = backend;
  d.threads = threads;
  d.jit_opt_level = -1;
  sg_report *rep = NULL;
  char err[512] = "";
  sg_result r = sg_run(mod, &d, &rep, err, sizeof err);
  bool ok = r == SG_SUCCESS && rep && !rep->fallback_reason;
  size_t bad = 0;
  for (size_t i = 0; ok && i < n; i++) bad += out[i] != 10 * in[i ^ 1];
  if (!ok || bad)
    printf("  %s, %u threads, %zu items: result %d (%s)%s, %zu wrong outputs\n",
           backend == SG_BACKEND_JIT ? "jit" : "interp", threads, n, (int)r, err,
           rep && rep->fallback_reason ? " fell back" : "", bad);
  sg_report_destroy(rep);
  free(in);
  free(out);
  return ok && !bad;
}

/* The exit test: a launch that never ends (an infinite loop under a huge
 * step limit) on two threads, from a second host thread. */
static sg_module *loop_mod;
static void *endless(void *arg) {
  (void)arg;
  uint32_t in[8] = {7, 7, 7, 7, 7, 7, 7, 7}, out[8] = {0};
  sg_arg args[2];
  memset(args, 0, sizeof args);
  args[0].kind = args[1].kind = SG_ARG_BUFFER;
  args[0].data = in; args[0].size = sizeof in;
  args[1].data = out; args[1].size = sizeof out;
  sg_run_desc d;
  memset(&d, 0, sizeof d);
  d.kernel = "infinite_loop";
  d.work_dim = 1;
  d.global_size[0] = 8;
  d.local_size[0] = 4;
  d.subgroup_size = 4;
  d.args = args;
  d.n_args = 2;
  d.backend = SG_BACKEND_INTERP;
  d.threads = 2;
  d.step_limit = (uint64_t)1 << 50;
  d.jit_opt_level = -1;
  sg_report *rep = NULL;
  char err[256];
  sg_run(loop_mod, &d, &rep, err, sizeof err);
  sg_report_destroy(rep);
  return NULL;
}

static void *host(void *arg) {
  uint32_t id = (uint32_t)(uintptr_t)arg;
  for (uint32_t i = 0; i < 6; i++) {
    sg_backend b = (i + id) % 2 ? SG_BACKEND_JIT : SG_BACKEND_INTERP;
    size_t n = 64 * (size_t)(16 + 8 * id + i);
    CHECK(launch(b, 2 + (i % 2), n, id * 100 + i), "host thread %u, launch %u", id, i);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_threads PATH/TO/swap.cl PATH/TO/infinite_loop.spvasm\n");
    return 2;
  }
  if (sg_module_load_file(argv[1], NULL, &mod) != SG_SUCCESS || !mod) {
    printf("cannot load %s\n", argv[1]);
    return 1;
  }
  /* launch after launch on the pool, the thread count changing */
  for (uint32_t i = 0; i < 12; i++) {
    sg_backend b = i % 2 ? SG_BACKEND_JIT : SG_BACKEND_INTERP;
    uint32_t t = 2 + i % 3;
    CHECK(launch(b, t, 64 * (size_t)(8 + i), i), "sequential launch %u (%u threads)", i, t);
  }
  /* four host threads launching at once */
  pthread_t th[4];
  uint32_t started = 0;
  for (uint32_t i = 0; i < 4; i++)
    if (pthread_create(&th[i], NULL, host, (void *)(uintptr_t)i) == 0) started++;
  for (uint32_t i = 0; i < started; i++) pthread_join(th[i], NULL);
  CHECK(started == 4, "started %u of 4 host threads", started);
  /* a forked child: the pool's threads are not in it */
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    bool ok = launch(SG_BACKEND_INTERP, 2, 64 * 20, 5) && launch(SG_BACKEND_JIT, 2, 64 * 24, 6);
    fflush(stdout);
    _exit(ok ? 0 : 1);
  }
  int st = 0;
  CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
        "launches in a forked child (status %d)", st);
  /* and the parent's pool still works */
  CHECK(launch(SG_BACKEND_JIT, 2, 64 * 30, 7), "launch after the fork");
  /* exit() while another thread's launch runs on the pool: the exit does
   * not wait for that launch (it never ends) */
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    if (sg_module_load_file(argv[2], NULL, &loop_mod) != SG_SUCCESS || !loop_mod) _exit(3);
    pthread_t t;
    if (pthread_create(&t, NULL, endless, NULL)) _exit(4);
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    exit(7);
  }
  int waited = 0;
  st = 0;
  pid_t got = 0;
  while (pid > 0 && waited < 200 && (got = waitpid(pid, &st, WNOHANG)) == 0) {
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    waited++;
  }
  if (pid > 0 && got == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
  }
  CHECK(got == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
        "exit() during a never-ending launch on the pool: the process ends (status %d, %.1f s)", st, waited / 10.0);
  sg_module_destroy(mod);
  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail != 0;
}
