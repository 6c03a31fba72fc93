/* test_jit.c - compiles small OpenCL C kernels (-O0 and -O2), runs them with
 * the JIT and the interpreter, checks both against values computed here, and
 * prints compile times cold and from the cache.  With --asm, also checks that
 * the emitted code for elementwise arithmetic and reductions uses SIMD and
 * prints the assembly of the named kernel.
 *
 * usage: test_jit COMPILE_CL_SH [--asm] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "jit.h"

static const char *SRC =
  "kernel void saxpy(global float *y, global const float *x, float a, int n) {\n"
  "  int i = get_global_id(0);\n"
  "  if (i < n) y[i] = a * x[i] + y[i];\n"
  "}\n"
  "kernel void vadd(global int *c, global const int *a, global const int *b) {\n"
  "  int i = get_global_id(0);\n"
  "  c[i] = a[i] + b[i] * 3;\n"
  "}\n"
  "kernel void sgsum(global const int *in, global const float *fin, global int *out, global float *fo) {\n"
  "  int i = get_global_id(0);\n"
  "  int v = in[i];\n"
  "  out[i] = sub_group_reduce_add(v) + 1000 * sub_group_scan_inclusive_add(v);\n"
  "  fo[i] = sub_group_reduce_add(fin[i]);\n"
  "}\n"
  "int helper(int x) { return x > 3 ? x * 2 : -x; }\n"
  "kernel void branchy(global int *out) {\n"
  "  int i = get_global_id(0);\n"
  "  int acc = 0;\n"
  "  for (int k = 0; k < (i % 5); k++) { if (k & 1) acc += helper(k + i); else acc -= k; }\n"
  "  if (i % 3 == 0) acc += 100000 * sub_group_reduce_add(i);\n"
  "  out[i] = acc;\n"
  "}\n"
  "kernel void oob(global int *out, int n) {\n"
  "  int i = get_global_id(0);\n"
  "  out[i + n] = i;\n"
  "}\n";

#define N 256
#define S 16
static int failures;
static char g_cache[256];

#define CHECK(c, ...) do { if (!(c)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static void logw(void *u, const char *t, size_t n) { (void)u; fwrite(t, 1, n, stdout); }

static ld_module *load(const char *script, const char *opt) {
  char cl[] = "/tmp/tjitXXXXXX.cl";
  int fd = mkstemps(cl, 3);
  if (fd < 0) return NULL;
  if (write(fd, SRC, strlen(SRC)) != (ssize_t)strlen(SRC)) { close(fd); return NULL; }
  close(fd);
  char spv[64], cmd[512];
  snprintf(spv, sizeof spv, "%s.spv", cl);
  snprintf(cmd, sizeof cmd, "sh %s %s %s %s", script, cl, spv, opt);
  int rc = system(cmd);
  unlink(cl);
  if (rc) { printf("compile failed: %s\n", cmd); return NULL; }
  FILE *f = fopen(spv, "rb");
  if (!f) return NULL;
  static uint8_t buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  unlink(spv);
  ld_options lo;
  memset(&lo, 0, sizeof lo);
  ld_module *m = NULL;
  if (ld_module_load_bytes(buf, n, &lo, &m) != LD_OK) { printf("load failed\n"); return NULL; }
  return m;
}

typedef struct run_out { ip_result r; uint64_t faults; bool jit; double ms; bool cached; } run_out;

/* Runs kernel on args with backend jit (true) or the interpreter. */
static run_out run(ld_module *m, const char *kernel, ip_arg *args, uint32_t n_args, bool jit, bool dump_asm) {
  run_out o = {IP_ERR_ARGS, 0, jit, 0, false};
  ip_launch_desc d;
  memset(&d, 0, sizeof d);
  d.kernel = kernel;
  d.work_dim = 1;
  d.global_size[0] = N; d.global_size[1] = d.global_size[2] = 1;
  d.local_size[0] = 64; d.local_size[1] = d.local_size[2] = 1;
  d.subgroup_size = S;
  d.args = args;
  d.n_args = n_args;
  ip_launch *l = NULL;
  char err[256];
  if (ip_launch_create(m, &d, &l, err, sizeof err) != IP_OK) { printf("launch: %s\n", err); return o; }
  if (jit) {
    jit_options jo;
    memset(&jo, 0, sizeof jo);
    jo.cache_dir = g_cache;
    jo.opt_level = 2;
    jo.dump_asm = dump_asm;
    jo.log = logw;
    jit_stats st;
    jit_kernel *k = jit_kernel_compile(m, kernel, S, &jo, &st, err, sizeof err);
    if (!k) { printf("jit fallback for %s: %s\n", kernel, err); ip_launch_free(l); return o; }
    o.ms = st.compile_ms;
    o.cached = st.from_cache;
    if (dump_asm) {
      const char *a = jit_kernel_asm(k);
      bool simd = a && (strstr(a, "%zmm") || strstr(a, "%ymm") || strstr(a, "addps") || strstr(a, "paddd"));
      CHECK(simd, "%s: no SIMD instructions in the assembly", kernel);
      printf("---- assembly of %s (%zu bytes)\n%s---- end\n", kernel, a ? strlen(a) : 0, a ? a : "");
    }
    const ip_ndrange *nd = ip_launch_ndrange(l);
    o.r = jit_kernel_run(k, l, 0, nd->groups[0] * nd->groups[1] * nd->groups[2]);
    jit_kernel_free(k);
  } else {
    o.r = ip_launch_run(l);
  }
  o.faults = ip_launch_report(l)->n_faults;
  ip_launch_free(l);
  return o;
}

static ip_arg buf_arg(void *p, size_t n) { ip_arg a; memset(&a, 0, sizeof a); a.kind = IP_ARG_BUFFER; a.data = p; a.size = n; return a; }
static ip_arg val_arg(void *p, size_t n) { ip_arg a; memset(&a, 0, sizeof a); a.kind = IP_ARG_VALUE; a.data = p; a.size = n; return a; }

static void test_module(const char *script, const char *opt, bool asm_) {
  printf("== %s\n", opt);
  ld_module *m = load(script, opt);
  CHECK(m, "module %s", opt);
  if (!m) return;
  for (int be = 0; be < 2; be++) {
    bool jit = be == 1;
    const char *bn = jit ? "jit" : "interp";
    /* saxpy */
    {
      float y[N], x[N], a = 1.5f, e[N];
      int n = N - 3;
      for (int i = 0; i < N; i++) { x[i] = (float)i * 0.25f; y[i] = 1.0f / (float)(i + 1); }
      for (int i = 0; i < N; i++) e[i] = i < n ? a * x[i] + y[i] : y[i];
      ip_arg args[4] = {buf_arg(y, sizeof y), buf_arg(x, sizeof x), val_arg(&a, 4), val_arg(&n, 4)};
      run_out o = run(m, "saxpy", args, 4, jit, false);
      CHECK(o.r == IP_OK, "%s saxpy %s: result %d", opt, bn, o.r);
      CHECK(!memcmp(y, e, sizeof y), "%s saxpy %s: wrong values (y[5]=%g want %g)", opt, bn, y[5], e[5]);
      if (jit) printf("%s saxpy: compile %.1f ms%s\n", opt, o.ms, o.cached ? " (from cache)" : "");
    }
    /* vadd */
    {
      int c[N], a[N], b[N];
      for (int i = 0; i < N; i++) { a[i] = i * 7 - 100; b[i] = 3 - i; c[i] = -1; }
      ip_arg args[3] = {buf_arg(c, sizeof c), buf_arg(a, sizeof a), buf_arg(b, sizeof b)};
      run_out o = run(m, "vadd", args, 3, jit, asm_ && jit);
      int bad = 0;
      for (int i = 0; i < N; i++) bad += c[i] != a[i] + b[i] * 3;
      CHECK(o.r == IP_OK && !bad, "%s vadd %s: result %d, %d wrong", opt, bn, o.r, bad);
    }
    /* sgsum */
    {
      int in[N], out[N];
      float fin[N], fo[N];
      for (int i = 0; i < N; i++) { in[i] = (i * 37) % 11 - 5; fin[i] = 1.0f / (float)(i % 7 + 1); }
      ip_arg args[4] = {buf_arg(in, sizeof in), buf_arg(fin, sizeof fin), buf_arg(out, sizeof out), buf_arg(fo, sizeof fo)};
      run_out o = run(m, "sgsum", args, 4, jit, asm_ && jit);
      int bad = 0, fbad = 0;
      for (int g = 0; g < N; g += S) {
        int s = 0, sc = 0;
        float fs = -0.0f;
        for (int l = 0; l < S; l++) { s += in[g + l]; fs += fin[g + l]; }
        for (int l = 0; l < S; l++) {
          sc += in[g + l];
          bad += out[g + l] != s + 1000 * sc;
          fbad += memcmp(&fo[g + l], &fs, 4) != 0;
        }
      }
      CHECK(o.r == IP_OK && !bad && !fbad, "%s sgsum %s: result %d, %d/%d wrong", opt, bn, o.r, bad, fbad);
    }
    /* branchy */
    {
      int out[N];
      memset(out, 0, sizeof out);
      ip_arg args[1] = {buf_arg(out, sizeof out)};
      run_out o = run(m, "branchy", args, 1, jit, false);
      int bad = 0;
      for (int i = 0; i < N; i++) {
        int acc = 0;
        for (int k = 0; k < i % 5; k++) { if (k & 1) { int x = k + i; acc += x > 3 ? x * 2 : -x; } else acc -= k; }
        if (i % 3 == 0) {
          int s = 0;
          for (int q = i / S * S; q < i / S * S + S; q++) if (q % 3 == 0) s += q;
          acc += 100000 * s;
        }
        bad += out[i] != acc;
      }
      CHECK(o.r == IP_OK && !bad, "%s branchy %s: result %d, %d wrong (out[3]=%d)", opt, bn, o.r, bad, out[3]);
    }
    /* out of bounds: the last 5 work-items write past the end */
    {
      int out[N];
      int n = 5;
      memset(out, 0, sizeof out);
      ip_arg args[2] = {buf_arg(out, sizeof out), val_arg(&n, 4)};
      run_out o = run(m, "oob", args, 2, jit, false);
      int bad = 0;
      for (int i = 0; i < N; i++) bad += out[i] != (i >= n ? i - n : 0);
      CHECK(o.r == IP_FAULTED && o.faults >= 1 && !bad, "%s oob %s: result %d, faults %llu, %d wrong", opt, bn, o.r,
            (unsigned long long)o.faults, bad);
    }
  }
  ld_module_free(m);
}

static void timing(const char *script) {
  ld_module *m = load(script, "-O2");
  if (!m) return;
  jit_options jo;
  memset(&jo, 0, sizeof jo);
  jo.cache_dir = g_cache;
  const char *ks[] = {"vadd", "sgsum", "oob"};
  for (int i = 0; i < 3; i++) {
    char err[256];
    jit_stats st;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -f %s/jit-*.bin", g_cache);
    if (system(cmd)) {}
    jit_kernel *k = jit_kernel_compile(m, ks[i], S, &jo, &st, err, sizeof err);
    double cold = st.compile_ms;
    uint32_t stm = st.ir_statements;
    jit_kernel_free(k);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    k = jit_kernel_compile(m, ks[i], S, &jo, &st, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double warm = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
    CHECK(k && st.from_cache, "%s not loaded from the cache", ks[i]);
    printf("compile %-8s cold %7.1f ms (%u gccjit statements), from cache %.3f ms\n", ks[i], cold, stm, warm);
    jit_kernel_free(k);
  }
  /* a corrupt cache entry is detected and rebuilt */
  char cmd[400];
  snprintf(cmd, sizeof cmd, "for f in %s/jit-*.bin; do printf 'garbage' | dd of=$f bs=1 seek=200 conv=notrunc 2>/dev/null; done", g_cache);
  if (system(cmd)) {}
  char err[256];
  jit_stats st;
  jit_kernel *k = jit_kernel_compile(m, "sgsum", S, &jo, &st, err, sizeof err);
  CHECK(k && !st.from_cache, "corrupt cache entry was trusted");
  jit_kernel_free(k);
  ld_module_free(m);
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: test_jit COMPILE_CL_SH [--asm]\n"); return 2; }
  bool asm_ = argc > 2 && !strcmp(argv[2], "--asm");
  snprintf(g_cache, sizeof g_cache, "/tmp/test_jit_cache.%d", (int)getpid());
  test_module(argv[1], "-O2", asm_);
  test_module(argv[1], "-O0", false);
  timing(argv[1]);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", g_cache);
  if (system(cmd)) {}
  printf(failures ? "test_jit: %d failures\n" : "test_jit: all passed\n", failures);
  return failures ? 1 : 0;
}
