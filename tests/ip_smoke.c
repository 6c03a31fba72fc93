/* ip_smoke.c - smoke tests of the interpreter machine (interp/): control flow,
 * divergence, calls, private and local memory, barriers, atomics, faults,
 * threads.  Usage: ip_smoke COMPILE_CL_SH [--bench]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ip.h"

static const char *compile_sh;
static int failures;

#define CHECK(c, ...) do { if (!(c)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static void msg(void *u, ld_severity s, const char *t) { (void)u; if (s == LD_ERROR) fprintf(stderr, "load: %s\n", t); }

static ld_module *build(const char *src, const char *opt) {
  char cl[] = "/tmp/ipsmokeXXXXXX.cl";
  int fd = mkstemps(cl, 3);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  fputs(src, f);
  fclose(f);
  char spv[300], cmd[1024];
  snprintf(spv, sizeof spv, "%s.spv", cl);
  snprintf(cmd, sizeof cmd, "%s %s %s %s", compile_sh, cl, spv, opt);
  if (system(cmd) != 0) { remove(cl); return NULL; }
  FILE *g = fopen(spv, "rb");
  fseek(g, 0, SEEK_END);
  long n = ftell(g);
  fseek(g, 0, SEEK_SET);
  void *b = malloc((size_t)n);
  if (fread(b, 1, (size_t)n, g) != (size_t)n) n = 0;
  fclose(g);
  remove(cl);
  remove(spv);
  ld_options o = {0};
  o.message = msg;
  ld_module *m = NULL;
  ld_module_load_bytes(b, (size_t)n, &o, &m);
  free(b);
  return m;
}

static ip_arg buf(void *p, size_t n) { ip_arg a = {0}; a.kind = IP_ARG_BUFFER; a.data = p; a.size = n; return a; }
static ip_arg val(void *p, size_t n) { ip_arg a = {0}; a.kind = IP_ARG_VALUE; a.data = p; a.size = n; return a; }
static ip_arg loc(size_t n) { ip_arg a = {0}; a.kind = IP_ARG_LOCAL; a.size = n; return a; }

static char outbuf[1 << 16];
static size_t outlen;
static void out_fn(void *u, const char *t, size_t n) {
  (void)u;
  if (outlen + n < sizeof outbuf) { memcpy(outbuf + outlen, t, n); outlen += n; outbuf[outlen] = 0; }
}

static ip_result run(ld_module *m, const char *k, size_t g, size_t l, ip_arg *args, uint32_t n,
                     uint32_t threads, uint32_t sgs, const ip_report **rep, ip_launch **keep) {
  ip_launch_desc d = {0};
  d.kernel = k;
  d.work_dim = 1;
  d.global_size[0] = g;
  d.local_size[0] = l;
  d.args = args;
  d.n_args = n;
  d.threads = threads;
  d.subgroup_size = sgs;
  d.out = out_fn;
  ip_launch *L;
  char err[256];
  ip_result r = ip_launch_create(m, &d, &L, err, sizeof err);
  if (r != IP_OK) { printf("create %s: %s\n", k, err); return r; }
  r = ip_launch_run(L);
  *rep = ip_launch_report(L);
  for (uint32_t i = 0; i < (*rep)->n_diags && i < 5; i++) {
    char t[512];
    ip_diag_format(m, &(*rep)->diags[i], t, sizeof t);
    printf("  [%s] %s\n", k, t);
  }
  *keep = L;
  return r;
}

static const char *SRC =
"int __attribute__((noinline)) sum(int *p, int n) { int t = 0; for (int k = 0; k < n; k++) t += p[k]; return t; }\n"
"int __attribute__((noinline)) g(int x) { if (x > 5) return x * 2; return x - 1; }\n"
"kernel void diverge(global int *out) {\n"
"  int i = get_global_id(0); int s = 0;\n"
"  for (int j = 0; j < i % 7; j++) { if (j & 1) s += j; else s -= 1; }\n"
"  if (i & 1) s *= 3; else s += 100;\n"
"  out[i] = s;\n"
"}\n"
"kernel void calls(global int *out) {\n"
"  int i = get_global_id(0); int arr[8];\n"
"  for (int k = 0; k < 8; k++) arr[k] = i + k;\n"
"  out[i] = sum(arr, i % 8) + g(i);\n"
"}\n"
"kernel void locals(global int *out, local int *tmp) {\n"
"  __local int sh[64];\n"
"  int l = get_local_id(0); int gr = get_group_id(0); int n = get_local_size(0);\n"
"  sh[l] = l * 2 + gr; tmp[l] = l;\n"
"  barrier(CLK_LOCAL_MEM_FENCE);\n"
"  out[get_global_id(0)] = sh[(l + 1) % n] + tmp[n - 1 - l];\n"
"}\n"
"kernel void atom(global int *c, global uint *mx) {\n"
"  int i = get_global_id(0);\n"
"  atomic_add(&c[0], 1); atomic_max(&mx[0], (uint)i * 7u % 101u);\n"
"  if (i % 3 == 0) atomic_inc(&c[1]);\n"
"}\n"
"kernel void sw(global int *out) {\n"
"  int i = get_global_id(0); int r;\n"
"  switch (i % 5) { case 0: r = 10; break; case 1: r = 20; break; case 3: r = i; break; default: r = -1; }\n"
"  out[i] = r;\n"
"}\n"
"kernel void oob(global int *out) { int i = get_global_id(0); out[i + 60] = i; }\n"
"kernel void loop(global int *out, int n) {\n"
"  int i = get_global_id(0); int s = 0;\n"
"  for (int j = 0; j < n; j++) s += j ^ i;\n"
"  out[i] = s;\n"
"}\n"
"kernel void early(global int *out) {\n"
"  int i = get_global_id(0);\n"
"  if (i % 4 == 1) return;\n"
"  int s = 0; for (int j = 0; j <= i; j++) { if (j == 9) break; s += j; }\n"
"  out[i] = s;\n"
"}\n"
"kernel void gids(global int *out) {\n"
"  int i = get_global_id(0);\n"
"  out[i] = get_local_id(0) + 1000 * get_group_id(0) + 100000 * get_sub_group_id() + 10000000 * get_sub_group_local_id();\n"
"}\n"
"kernel void pr(global int *out) { int i = get_global_id(0); if (i % 5 == 0) printf(\"i=%d\\n\", i); }\n"
"kernel void bdiv(global int *out, local int *t) { int l = get_local_id(0); if (l < 8) { t[l] = 1; barrier(CLK_LOCAL_MEM_FENCE); } out[l] = t[0]; }\n"
"kernel void bar2(global int *out, local int *t) {\n"
"  int l = get_local_id(0); int n = get_local_size(0);\n"
"  for (int r = 0; r < 3; r++) { t[l] = l + r; barrier(CLK_LOCAL_MEM_FENCE); out[get_global_id(0) * 3 + r] = t[(l + r) % n]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
"}\n";

static int ref_diverge(int i) {
  int s = 0;
  for (int j = 0; j < i % 7; j++) { if (j & 1) s += j; else s -= 1; }
  if (i & 1) s *= 3; else s += 100;
  return s;
}

static void tests(const char *opt) {
  ld_module *m = build(SRC, opt);
  CHECK(m, "build %s", opt);
  if (!m) return;
  const ip_report *rep;
  ip_launch *L;
  int out[256];
  enum { N = 100 };
  printf("== %s\n", opt);

  for (uint32_t th = 1; th <= 4; th += 3) {
    memset(out, 0, sizeof out);
    ip_arg a[1] = {buf(out, N * 4)};
    ip_result r = run(m, "diverge", N, 16, a, 1, th, 0, &rep, &L);
    CHECK(r == IP_OK, "diverge run %d", r);
    int bad = 0;
    for (int i = 0; i < N; i++) if (out[i] != ref_diverge(i)) bad++;
    CHECK(bad == 0, "diverge %s threads %u: %d wrong (out[3]=%d want %d)", opt, th, bad, out[3], ref_diverge(3));
    ip_launch_free(L);
  }
  {
    memset(out, 0, sizeof out);
    ip_arg a[1] = {buf(out, N * 4)};
    ip_result r = run(m, "calls", N, 0, a, 1, 1, 8, &rep, &L);
    CHECK(r == IP_OK, "calls run %d", r);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      int t = 0;
      for (int k = 0; k < i % 8; k++) t += i + k;
      t += i > 5 ? i * 2 : i - 1;
      if (out[i] != t) bad++;
    }
    CHECK(bad == 0, "calls %s: %d wrong (out[9]=%d)", opt, bad, out[9]);
    CHECK(rep->local_size[0] == 100, "chosen local size %zu", rep->local_size[0]);
    ip_launch_free(L);
  }
  {
    memset(out, 0, sizeof out);
    ip_arg a[2] = {buf(out, 128 * 4), loc(64 * 4)};
    ip_result r = run(m, "locals", 128, 64, a, 2, 1, 16, &rep, &L);
    CHECK(r == IP_OK, "locals run %d", r);
    int bad = 0;
    for (int i = 0; i < 128; i++) {
      int l = i % 64, gr = i / 64;
      if (out[i] != ((l + 1) % 64) * 2 + gr + (63 - l)) bad++;
    }
    CHECK(bad == 0, "locals %s: %d wrong (out[0]=%d)", opt, bad, out[0]);
    ip_launch_free(L);
  }
  {
    memset(out, 0, sizeof out);
    ip_arg a[2] = {buf(out, 48 * 4), loc(16 * 4)};
    ip_result r = run(m, "bar2", 16, 16, a, 2, 1, 4, &rep, &L);
    CHECK(r == IP_OK, "bar2 run %d", r);
    int bad = 0;
    for (int i = 0; i < 16; i++) for (int rr = 0; rr < 3; rr++)
      if (out[i * 3 + rr] != (i + rr) % 16 + rr) bad++;
    CHECK(bad == 0, "bar2 %s: %d wrong", opt, bad);
    ip_launch_free(L);
  }
  {
    int c[2] = {0, 0};
    unsigned mx = 0;
    ip_arg a[2] = {buf(c, 8), buf(&mx, 4)};
    ip_result r = run(m, "atom", 1000, 50, a, 2, 4, 0, &rep, &L);
    CHECK(r == IP_OK, "atom run %d", r);
    unsigned want = 0;
    for (unsigned i = 0; i < 1000; i++) if (i * 7 % 101 > want) want = i * 7 % 101;
    CHECK(c[0] == 1000 && c[1] == 334 && mx == want, "atom %s: %d %d %u", opt, c[0], c[1], mx);
    ip_launch_free(L);
  }
  {
    memset(out, 0, sizeof out);
    ip_arg a[1] = {buf(out, N * 4)};
    ip_result r = run(m, "sw", N, 20, a, 1, 1, 0, &rep, &L);
    CHECK(r == IP_OK, "sw run %d", r);
    int bad = 0;
    for (int i = 0; i < N; i++) {
      int w = i % 5 == 0 ? 10 : i % 5 == 1 ? 20 : i % 5 == 3 ? i : -1;
      if (out[i] != w) bad++;
    }
    CHECK(bad == 0, "sw %s: %d wrong", opt, bad);
    ip_launch_free(L);
  }
  {
    memset(out, 0, sizeof out);
    ip_arg a[1] = {buf(out, 64 * 4)};
    ip_result r = run(m, "oob", 8, 8, a, 1, 1, 8, &rep, &L);
    CHECK(r == IP_FAULTED && rep->n_faults >= 1 && rep->n_diags == 1 &&
          rep->diags[0].kind == IP_FAULT_OUT_OF_BOUNDS, "oob %d %llu", r, (unsigned long long)rep->n_faults);
    CHECK(out[60] == 0 && out[63] == 3, "oob writes in bounds kept");
    if (rep->n_diags) {
      char t[512];
      ip_diag_format(m, &rep->diags[0], t, sizeof t);
      CHECK(strstr(t, "lanes 4-7") && strstr(t, "buffer 'out'"), "oob format: %s", t);
    }
    ip_launch_free(L);
  }
  {
    memset(out, -1, sizeof out);
    ip_arg a[1] = {buf(out, 40 * 4)};
    ip_result r = run(m, "early", 40, 0, a, 1, 1, 16, &rep, &L);
    CHECK(r == IP_OK, "early run");
    int bad = 0;
    for (int i = 0; i < 40; i++) {
      int w = -1;
      if (i % 4 != 1) { w = 0; for (int j = 0; j <= i; j++) { if (j == 9) break; w += j; } }
      if (out[i] != w) bad++;
    }
    CHECK(bad == 0, "early %s: %d wrong", opt, bad);
    ip_launch_free(L);
  }
  {
    memset(out, 0, sizeof out);
    ip_arg a[1] = {buf(out, 37 * 4)};
    ip_result r = run(m, "gids", 37, 12, a, 1, 1, 8, &rep, &L);
    CHECK(r == IP_OK, "gids run");
    int bad = 0;
    for (int i = 0; i < 37; i++) {
      int l = i % 12, gr = i / 12;
      if (out[i] != l + 1000 * gr + 100000 * (l / 8) + 10000000 * (l % 8)) bad++;
    }
    CHECK(bad == 0, "gids %s: %d wrong (out[9]=%d)", opt, bad, out[9]);
    ip_launch_free(L);
  }
  {
    char o1[4096];
    ip_arg a[1] = {buf(out, 4)};
    outlen = 0; outbuf[0] = 0;
    run(m, "pr", 200, 10, a, 1, 1, 0, &rep, &L);
    ip_launch_free(L);
    memcpy(o1, outbuf, sizeof o1 - 1); o1[sizeof o1 - 1] = 0;
    outlen = 0; outbuf[0] = 0;
    run(m, "pr", 200, 10, a, 1, 4, 0, &rep, &L);
    ip_launch_free(L);
    CHECK(strlen(o1) > 20 && strcmp(o1, outbuf) == 0 && strncmp(o1, "i=0\ni=5\n", 8) == 0, "printf order: '%.30s' vs '%.30s'", o1, outbuf);
  }
  {
    ip_arg a[2] = {buf(out, 64 * 4), loc(64)};
    ip_result r = run(m, "bdiv", 16, 16, a, 2, 1, 4, &rep, &L);
    CHECK(r == IP_FAULTED && rep->n_diags >= 1 && rep->diags[0].kind == IP_FAULT_BARRIER_DIVERGENCE, "bdiv %d", r);
    ip_launch_free(L);
  }
  {
    /* stepping: one work-group of "diverge", instruction by instruction */
    ip_launch_desc d = {0};
    ip_arg a[1] = {buf(out, N * 4)};
    memset(out, 0, sizeof out);
    d.kernel = "diverge"; d.work_dim = 1; d.global_size[0] = 32; d.local_size[0] = 16;
    d.args = a; d.n_args = 1; d.subgroup_size = 8;
    char err[256];
    ip_launch *SL;
    CHECK(ip_launch_create(m, &d, &SL, err, sizeof err) == IP_OK, "create %s", err);
    uint32_t grp[3] = {1, 0, 0};
    ip_wg *wg = ip_wg_begin(SL, grp, err, sizeof err);
    CHECK(wg && ip_wg_subgroup_count(wg) == 2, "wg begin");
    int steps = 0;
    ip_sg *sg0 = ip_wg_subgroup(wg, 0);
    CHECK(ip_sg_current(sg0) != NULL && ip_sg_depth(sg0) == 1, "sg current");
    while (ip_wg_step(wg) != IP_STEP_DONE && steps < 100000) steps++;
    ip_wg_end(wg);
    ip_launch_free(SL);
    int bad = 0;
    for (int i = 16; i < 32; i++) if (out[i] != ref_diverge(i)) bad++;
    CHECK(bad == 0 && out[0] == 0 && steps > 10, "stepping: %d wrong, %d steps", bad, steps);
    d.subgroup_size = 200;
    CHECK(ip_launch_create(m, &d, &SL, err, sizeof err) == IP_ERR_ARGS, "bad sg size accepted");
  }
  ld_module_free(m);
}

static void bench(void) {
  ld_module *m = build(SRC, "-O2");
  if (!m) return;
  static int out[4096];
  int n = 20000;
  ip_arg a[2] = {buf(out, sizeof out), val(&n, 4)};
  const ip_report *rep;
  ip_launch *L;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  run(m, "loop", 4096, 64, a, 2, 1, 16, &rep, &L);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  printf("bench loop -O2 S=16: %llu insns, %llu lane-insns in %.3f s: %.1f M lane-insns/s, %.1f M insns/s\n",
         (unsigned long long)rep->insns, (unsigned long long)rep->lane_insns, s,
         (double)rep->lane_insns / s / 1e6, (double)rep->insns / s / 1e6);
  ip_launch_free(L);
  ld_module_free(m);
}

int main(int argc, char **argv) {
  compile_sh = argc > 1 ? argv[1] : "tests/compile_cl.sh";
  if (argc > 2 && strcmp(argv[2], "--bench") == 0) { bench(); return 0; }
  tests("-O0");
  tests("-O2");
  printf("%s (%d failures)\n", failures ? "FAILED" : "ok", failures);
  return failures ? 1 : 0;
}
