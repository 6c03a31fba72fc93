/* fuzz_diff.c - differential fuzzing: the interpreter and the JIT on every
 * module that loads; any difference in results or reports is a bug.
 *
 * The first kernel runs twice with the same launch (work_dim 1, global 32,
 * subgroup size 4 or 16 from the input's hash unless the module requires
 * one, buffers of 256 bytes filled with the same pattern, by-value
 * arguments and local memory as fuzz_run, one thread, UB warnings, no
 * stop-on-fault): once on interp/ (ip_launch_run), once on jit/
 * (jit_kernel_run through its public header, jit/jit.h).  Compared: every
 * buffer's bytes, the fault count, the UB count, and the kind of the first
 * diagnostic.  Not compared: runs that hit a step or time limit (the JIT
 * counts branches, the interpreter instructions) and kernels the JIT
 * declines (it falls back with a reason: nothing to compare).  A difference
 * prints both sides and aborts, so that libFuzzer saves the input. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "jit.h"

#define BUF_BYTES 256u
#define MAX_ARGS 32u

static void on_msg(void *user, ld_severity sev, const char *text)
{
  (void)user;
  (void)sev;
  if (!text || !text[0] || strchr(text, '\n'))
    abort();
}

static void no_print(void *user, const char *text, size_t len)
{
  (void)user;
  (void)text;
  (void)len;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  return 0;
}

typedef struct side {
  ip_arg args[MAX_ARGS];
  uint64_t n_faults, n_ub;
  int first_kind;      /* -1: no diagnostic */
  bool limited;        /* a step or time limit was hit */
  bool ran;
} side;

/* false: an argument kind this target does not set up (images, samplers) */
static bool make_args(const ld_kernel *k, side *s, uint32_t h)
{
  for (uint32_t i = 0; i < k->n_args; i++) {
    const ld_kernel_arg *ka = &k->args[i];
    ip_arg *a = &s->args[i];
    switch (ka->kind) {
    case LD_ARG_BUFFER:
      a->kind = IP_ARG_BUFFER;
      a->size = BUF_BYTES;
      a->data = malloc(BUF_BYTES);
      if (a->data)
        for (uint32_t b = 0; b < BUF_BYTES; b++)
          ((uint8_t *)a->data)[b] = (uint8_t)(b * 7 + h);
      break;
    case LD_ARG_LOCAL:
      a->kind = IP_ARG_LOCAL;
      a->size = BUF_BYTES;
      break;
    case LD_ARG_IMAGE: case LD_ARG_SAMPLER:
      return false;
    default:
      a->kind = IP_ARG_VALUE;
      a->size = ka->value_size;
      a->data = calloc(1, ka->value_size ? ka->value_size : 1);
      if (a->data && ka->value_size)
        ((uint8_t *)a->data)[0] = (uint8_t)(h >> 4) & 15;   /* small scalars */
      break;
    }
  }
  return true;
}

static ip_result jit_chunk(void *user, ip_launch *l, uint64_t first, uint64_t count)
{
  return jit_kernel_run(user, l, first, count);
}

static void run_side(const ld_module *m, const ld_kernel *k, side *s, uint32_t h, jit_kernel *jk)
{
  ip_launch_desc d;
  memset(&d, 0, sizeof d);
  d.kernel = k->name;
  d.work_dim = 1;
  d.global_size[0] = 32;
  d.subgroup_size = k->subgroup_size ? 0 : (h & 1) ? 16 : 4;
  d.args = s->args;
  d.n_args = k->n_args;
  d.threads = 1;
  d.ub = IP_UB_WARN;
  d.step_limit = 200000;
  d.time_limit = 2.0;
  d.out = no_print;
  ip_launch *l = NULL;
  char err[256];
  s->first_kind = -1;
  if (ip_launch_create(m, &d, &l, err, sizeof err) != IP_OK)
    return;
  if (jk) {
    /* as sg_run does (src/backend.c): the range runner settles the report */
    ip_launch_reset(l);
    (void)ip_launch_run_range_with(l, 0, ip_launch_group_count(l), 0, jit_chunk, jk);
  } else {
    (void)ip_launch_run(l);
  }
  const ip_report *rep = ip_launch_report(l);
  s->ran = true;
  s->n_faults = rep->n_faults;
  s->n_ub = rep->n_ub;
  if (rep->n_diags)
    s->first_kind = (int)rep->diags[0].kind;
  for (uint32_t i = 0; i < rep->n_diags; i++)
    if (rep->diags[i].kind == IP_FAULT_STEP_LIMIT || rep->diags[i].kind == IP_FAULT_TIME_LIMIT)
      s->limited = true;
  /* without stop-on-fault or ub=error, only a limit stops a run early; its
     record is missing when the diagnostics before it filled the list
     (IP_MAX_DIAGS: a faulting loop that runs into the step limit) */
  if (rep->stopped)
    s->limited = true;
  ip_launch_free(l);
}

static void free_side(const ld_kernel *k, side *s)
{
  for (uint32_t i = 0; i < k->n_args && i < MAX_ARGS; i++)
    free(s->args[i].data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ld_options o;
  memset(&o, 0, sizeof o);
  o.validate = LD_VALIDATE_OFF;
  o.message = on_msg;
  o.max_insns = 20000;
  ld_module *m = NULL;
  if (ld_module_load_bytes(data, size, &o, &m) != LD_OK)
    return 0;
  uint32_t h = fuzz_hash(data, size);
  const ld_kernel *k = m->n_kernels ? &m->kernels[0] : NULL;
  side a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  if (k && k->n_args <= MAX_ARGS && make_args(k, &a, h) && make_args(k, &b, h)) {
    jit_options jo;
    memset(&jo, 0, sizeof jo);
    jo.cache_dir = "";      /* every input compiles afresh */
    jo.opt_level = 0;       /* fast compiles; the semantics do not depend on it */
    char err[512];
    uint32_t S = k->subgroup_size ? k->subgroup_size : (h & 1) ? 16 : 4;
    /* libFuzzer's -timeout is a SIGALRM every second; inside libgccjit it
       interrupts the waitpid of the gcc driver, which then exits the process
       ("failed to get exit status: Interrupted system call").  The alarm
       waits until the compile is over. */
    sigset_t alrm, old;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alrm, &old);
    jit_kernel *jk = jit_kernel_compile(m, k->name, S, &jo, NULL, err, sizeof err);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (jk) {
      run_side(m, k, &a, h, NULL);
      run_side(m, k, &b, h, jk);
      bool differ = a.ran != b.ran;
      if (a.ran && b.ran && !a.limited && !b.limited) {
        differ |= a.n_faults != b.n_faults || a.n_ub != b.n_ub || a.first_kind != b.first_kind;
        for (uint32_t i = 0; i < k->n_args; i++)
          if (a.args[i].kind == IP_ARG_BUFFER && a.args[i].data && b.args[i].data &&
              memcmp(a.args[i].data, b.args[i].data, BUF_BYTES) != 0) {
            fprintf(stderr, "fuzz_diff: buffer argument %u differs\n", i);
            differ = true;
          }
      }
      if (differ) {
        fprintf(stderr, "fuzz_diff: kernel %s: interp %llu faults, %llu UB, first %s; "
                "jit %llu faults, %llu UB, first %s\n", k->name,
                (unsigned long long)a.n_faults, (unsigned long long)a.n_ub,
                a.first_kind >= 0 ? ip_diag_kind_name((ip_diag_kind)a.first_kind) : "-",
                (unsigned long long)b.n_faults, (unsigned long long)b.n_ub,
                b.first_kind >= 0 ? ip_diag_kind_name((ip_diag_kind)b.first_kind) : "-");
        abort();
      }
      jit_kernel_free(jk);
    }
  }
  if (k) {
    free_side(k, &a);
    free_side(k, &b);
  }
  ld_module_free(m);
  return 0;
}
