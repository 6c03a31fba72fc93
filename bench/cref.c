/* cref.c - the benchmark kernels as plain C (compiled with gcc -O3
 * -march=native), the reference for bench/run.py's JIT-vs-C column and for
 * checking every backend's output.
 *
 * usage: sgbench-cref KERNEL SIZE REPS [OUTPUT-FILE...]
 *        sgbench-cref memcpy BYTES REPS
 *        sgbench-cref streams BYTES REPS THREADS
 * Inputs are the ones bench/run.py gives the kernels (see there): in[i] = i.
 * SIZE is the element count (transpose, gemm: the matrix side).  Prints one
 * JSON object: best and median time of REPS runs, and, when output files
 * (raw bytes another backend wrote, in the kernel's output-argument order)
 * are given, "check": "ok" or the first mismatch.  streams: the memory
 * system's ceiling for the kernels' access patterns, on THREADS threads over
 * buffers of BYTES: a read-only stream (a sum), a copy with ordinary stores
 * (each destination line is read for ownership, then written back) and a
 * copy with non-temporal stores (movntdq, the widest the CPU has: no read
 * for ownership), in the widest vectors (64 bytes with AVX-512); best
 * of REPS, as picoseconds per 4-byte element and bytes per second of memory
 * traffic (4, 12 and 8 bytes per element). */
#include <sys/mman.h>
#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* As spirv-sg's tools allocate kernel buffers (sg_alloc_buffer): from 4 MiB
 * on, 2 MiB-aligned on transparent huge pages, so that neither side of the
 * comparison pays 4 KiB-page TLB misses the other does not. */
static void *xalloc(size_t n)
{
  size_t huge = (size_t)2 << 20;
  if (n >= 2 * huge) {
    void *q = NULL;
    size_t r = (n + huge - 1) & ~(huge - 1);
    if (posix_memalign(&q, huge, r)) {
      fprintf(stderr, "sgbench-cref: out of memory (%zu bytes)\n", n);
      exit(2);
    }
    madvise(q, r, MADV_HUGEPAGE);
    memset(q, 0, n);
    return q;
  }
  void *p = aligned_alloc(64, (n + 63) / 64 * 64);
  if (!p) {
    fprintf(stderr, "sgbench-cref: out of memory (%zu bytes)\n", n);
    exit(2);
  }
  memset(p, 0, n);
  return p;
}

typedef struct out { void *p; size_t bytes; int is_float; } out;

/* ---------------------------------------------------------------- kernels */

static void k_saxpy(size_t n, const float *x, float *y, float a)
{
  for (size_t i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static void k_reduce(size_t n, const uint32_t *in, uint32_t *out)
{
  for (size_t g = 0; g < n / 16; g++) {
    uint32_t s = 0;
    for (int j = 0; j < 16; j++)
      s += in[g * 16 + j];
    out[g] = s;
  }
}

static void k_scan(size_t n, const uint32_t *in, uint32_t *out)
{
  for (size_t base = 0; base < n; base += 256) {
    uint32_t p = 0;
    for (int j = 0; j < 256; j++) {
      p += in[base + j];
      out[base + j] = p;
    }
  }
}

static void k_compact(size_t n, const uint32_t *in, uint32_t *out, uint32_t *counts)
{
  for (size_t g = 0; g < n / 16; g++) {
    uint32_t c = 0;
    for (int j = 0; j < 16; j++) {
      uint32_t x = in[g * 16 + j];
      out[g * 16 + c] = x;          /* branch-free: overwritten unless kept */
      c += ((x * 2654435761u) >> 16) & 1u;
    }
    counts[g] = c;
  }
}

static void k_transpose(size_t w, const float *in, float *out)
{
  /* 16x16 blocks, as the kernel does */
  for (size_t y0 = 0; y0 < w; y0 += 16)
    for (size_t x0 = 0; x0 < w; x0 += 16)
      for (size_t y = y0; y < y0 + 16; y++)
        for (size_t x = x0; x < x0 + 16; x++)
          out[x * w + y] = in[y * w + x];
}

static void k_gemm(size_t n, const float *A, const float *B, float *C)
{
  /* i-k-j order with a row accumulator; per element the sum runs over k in
   * order, as in the kernels */
  float *acc = xalloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    memset(acc, 0, n * sizeof(float));
    for (size_t k = 0; k < n; k++) {
      float a = A[i * n + k];
      const float *b = B + k * n;
      for (size_t j = 0; j < n; j++)
        acc[j] += a * b[j];
    }
    memcpy(C + i * n, acc, n * sizeof(float));
  }
  free(acc);
}

static void k_hist(size_t n, const uint32_t *in, uint32_t *bins)
{
  memset(bins, 0, 256 * sizeof(uint32_t));
  for (size_t i = 0; i < n; i++)
    bins[(in[i] * 2654435761u) >> 24]++;
}

/* noinline: inlined into main, whose dispatch grew with collatz, GCC made
 * the loop 2.3x slower (9.5 ms against 4.0 ms at 16M elements) */
__attribute__((noinline)) static void k_stencil(size_t n, const uint32_t *in, uint32_t *out)
{
  out[0] = in[15] + 2u * in[0] + in[1];
  for (size_t i = 1; i + 1 < n; i++)
    out[i] = in[i - 1] + 2u * in[i] + in[i + 1];
  out[n - 1] = in[n - 2] + 2u * in[n - 1] + in[n - 16];
}

__attribute__((noinline)) static void k_collatz(size_t n, const uint32_t *in, uint32_t *out)
{
  for (size_t i = 0; i < n; i++) {
    uint64_t x = (uint64_t)in[i] + 1;
    uint32_t s = 0;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x >> 1;
      s++;
    }
    out[i] = s;
  }
}

/* cref_nocontract.c (built with -ffp-contract=off) */
void k_horner(size_t n, const uint32_t *in, double *out);

/* ------------------------------------------------------------------ check */

static int check(const out *o, const char *path, char *msg, size_t msz)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, msz, "cannot read %s", path);
    return 0;
  }
  unsigned char *got = xalloc(o->bytes + 1);
  size_t r = fread(got, 1, o->bytes + 1, f);
  fclose(f);
  int ok = 1;
  if (r != o->bytes) {
    snprintf(msg, msz, "%s: %zu bytes, expected %zu", path, r, o->bytes);
    ok = 0;
  } else if (memcmp(got, o->p, o->bytes) != 0) {
    size_t n = o->bytes / 4;
    for (size_t i = 0; i < n && ok; i++) {
      if (o->is_float) {
        float g, w;
        memcpy(&g, got + 4 * i, 4);
        memcpy(&w, (unsigned char *)o->p + 4 * i, 4);
        /* the kernels may contract a*b+c into fma and sum in another order */
        if (!(fabsf(g - w) <= 1e-5f * fabsf(w) + 1e-6f)) {
          snprintf(msg, msz, "element %zu is %.9g, expected %.9g", i, g, w);
          ok = 0;
        }
      } else {
        uint32_t g, w;
        memcpy(&g, got + 4 * i, 4);
        memcpy(&w, (unsigned char *)o->p + 4 * i, 4);
        if (g != w) {
          snprintf(msg, msz, "element %zu is %u, expected %u", i, g, w);
          ok = 0;
        }
      }
    }
  }
  free(got);
  return ok;
}

/* streams: one thread's share of the buffers, and what it does to them */
typedef struct {
  const uint32_t *src;
  uint32_t *dst;
  size_t n;        /* elements, a multiple of 16 */
  int mode;        /* 0 read, 1 copy, 2 copy with non-temporal stores */
  uint32_t sum;
} stream_part;

#if defined(__AVX512F__)
typedef __m512i svec;
#define SV_LOAD(p) _mm512_load_si512((const void *)(p))
#define SV_ADD(a, b) _mm512_add_epi32(a, b)
#define SV_STORE(p, v) _mm512_store_si512((void *)(p), v)
#define SV_STREAM(p, v) _mm512_stream_si512((void *)(p), v)
#define SV_ZERO() _mm512_setzero_si512()
#define SV_LOW(v) ((uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(v)))
#elif defined(__AVX2__)
typedef __m256i svec;
#define SV_LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define SV_ADD(a, b) _mm256_add_epi32(a, b)
#define SV_STORE(p, v) _mm256_store_si256((__m256i *)(p), v)
#define SV_STREAM(p, v) _mm256_stream_si256((__m256i *)(p), v)
#define SV_ZERO() _mm256_setzero_si256()
#define SV_LOW(v) ((uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(v)))
#else
typedef __m128i svec;
#define SV_LOAD(p) _mm_load_si128((const __m128i *)(p))
#define SV_ADD(a, b) _mm_add_epi32(a, b)
#define SV_STORE(p, v) _mm_store_si128((__m128i *)(p), v)
#define SV_STREAM(p, v) _mm_stream_si128((__m128i *)(p), v)
#define SV_ZERO() _mm_setzero_si128()
#define SV_LOW(v) ((uint32_t)_mm_cvtsi128_si32(v))
#endif

static void *stream_run(void *arg)
{
  stream_part *p = arg;
  const size_t w = sizeof(svec) / 4;
  svec acc = SV_ZERO();
  for (size_t i = 0; i < p->n; i += w) {
    svec v = SV_LOAD(p->src + i);
    if (p->mode == 0)
      acc = SV_ADD(acc, v);
    else if (p->mode == 1)
      SV_STORE(p->dst + i, v);
    else
      SV_STREAM(p->dst + i, v);
  }
  _mm_sfence();
  p->sum = SV_LOW(acc);
  return NULL;
}

static int streams(size_t bytes, int reps, int threads)
{
  if (threads < 1 || threads > 256)
    return 2;
  size_t n = bytes / 4 / (64u * (size_t)threads) * (64u * (size_t)threads);
  uint32_t *src = xalloc(n * 4), *dst = xalloc(n * 4);
  memset(src, 1, n * 4);
  memset(dst, 2, n * 4);
  static const char *const names[3] = {"read", "copy", "copy_nt"};
  static const double traffic[3] = {4, 12, 8};
  pthread_t *th = xalloc(sizeof *th * (size_t)threads);
  stream_part *pt = xalloc(sizeof *pt * (size_t)threads);
  uint32_t sink = 0;
  printf("{\"kernel\": \"streams\", \"threads\": %d, \"elements\": %zu", threads, n);
  for (int mode = 0; mode < 3; mode++) {
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
      double t0 = now_ms();
      for (int t = 0; t < threads; t++) {
        pt[t] = (stream_part){src + n / threads * t, dst + n / threads * t, n / threads, mode, 0};
        if (pthread_create(&th[t], NULL, stream_run, &pt[t]))
          return 1;
      }
      for (int t = 0; t < threads; t++) {
        pthread_join(th[t], NULL);
        sink += pt[t].sum;
      }
      double d = now_ms() - t0;
      if (d < best)
        best = d;
    }
    printf(", \"%s_ps_per_el\": %.6g, \"%s_bytes_per_s\": %.6g", names[mode], best * 1e9 / n, names[mode],
           traffic[mode] * n / (best / 1e3));
  }
  printf(", \"sink\": %u}\n", sink + dst[n / 2]);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: sgbench-cref KERNEL SIZE REPS [OUTPUT-FILE...] | memcpy BYTES REPS | streams BYTES REPS THREADS\n");
    return 2;
  }
  const char *k = argv[1];
  size_t size = strtoull(argv[2], NULL, 10);
  int reps = atoi(argv[3]);
  if (size < 16 || reps < 1 || reps > 1000) {
    fprintf(stderr, "sgbench-cref: bad SIZE or REPS\n");
    return 2;
  }
  double *t = xalloc(sizeof(double) * reps);
  out outs[2];
  int nout = 0;

  if (!strcmp(k, "streams"))
    return streams(size, reps, argc > 4 ? atoi(argv[4]) : 1);
  if (!strcmp(k, "memcpy")) {
    char *a = xalloc(size), *b = xalloc(size);
    memset(a, 1, size);
    memset(b, 2, size);
    for (int r = 0; r < reps; r++) {
      double t0 = now_ms();
      memcpy(r & 1 ? a : b, r & 1 ? b : a, size);
      t[r] = now_ms() - t0;
    }
    qsort(t, reps, sizeof(double), cmp_double);
    /* read + write bytes per second, as the kernels' figures count them */
    printf("{\"kernel\": \"memcpy\", \"best_ms\": %.6f, \"median_ms\": %.6f, "
           "\"rw_bytes_per_s\": %.6g, \"sink\": %d}\n",
           t[0], t[reps / 2], 2.0 * size / (t[0] / 1e3), a[size / 2] + b[size / 3]);
    return 0;
  }

  size_t n = size, bytes = size * 4;
  if (!strcmp(k, "transpose") || !strcmp(k, "gemm")) {
    n = size * size;
    bytes = n * 4;
  }
  uint32_t *u_in = xalloc(bytes);
  float *f_in = xalloc(bytes);
  for (size_t i = 0; i < n; i++) {
    u_in[i] = (uint32_t)i;
    f_in[i] = (float)i;
  }
  for (int r = 0; r < reps; r++) {
    double t0 = 0;
    if (!strcmp(k, "saxpy")) {
      if (!nout) outs[nout++] = (out){xalloc(bytes), bytes, 1};
      float *y = outs[0].p;
      for (size_t i = 0; i < n; i++)
        y[i] = 1.0f;
      t0 = now_ms();
      k_saxpy(n, f_in, y, 2.0f);
    } else if (!strcmp(k, "reduce")) {
      if (!nout) outs[nout++] = (out){xalloc(bytes / 16), bytes / 16, 0};
      t0 = now_ms();
      k_reduce(n, u_in, outs[0].p);
    } else if (!strcmp(k, "scan")) {
      if (!nout) outs[nout++] = (out){xalloc(bytes), bytes, 0};
      t0 = now_ms();
      k_scan(n, u_in, outs[0].p);
    } else if (!strcmp(k, "compact")) {
      if (!nout) {
        outs[nout++] = (out){xalloc(bytes), bytes, 0};
        outs[nout++] = (out){xalloc(bytes / 16), bytes / 16, 0};
      }
      t0 = now_ms();
      k_compact(n, u_in, outs[0].p, outs[1].p);
    } else if (!strcmp(k, "transpose")) {
      if (!nout) outs[nout++] = (out){xalloc(bytes), bytes, 1};
      t0 = now_ms();
      k_transpose(size, f_in, outs[0].p);
    } else if (!strcmp(k, "gemm")) {
      if (!nout) outs[nout++] = (out){xalloc(bytes), bytes, 1};
      t0 = now_ms();
      k_gemm(size, f_in, f_in, outs[0].p);
    } else if (!strcmp(k, "hist")) {
      if (!nout) outs[nout++] = (out){xalloc(1024), 1024, 0};
      t0 = now_ms();
      k_hist(n, u_in, outs[0].p);
    } else if (!strcmp(k, "stencil")) {
      if (!nout) outs[nout++] = (out){xalloc(bytes), bytes, 0};
      t0 = now_ms();
      k_stencil(n, u_in, outs[0].p);
    } else if (!strcmp(k, "collatz")) {
      if (!nout) outs[nout++] = (out){xalloc(bytes), bytes, 0};
      t0 = now_ms();
      k_collatz(n, u_in, outs[0].p);
    } else if (!strcmp(k, "horner")) {
      if (!nout) outs[nout++] = (out){xalloc(2 * bytes), 2 * bytes, 0};
      t0 = now_ms();
      k_horner(n, u_in, outs[0].p);
    } else {
      fprintf(stderr, "sgbench-cref: unknown kernel '%s'\n", k);
      return 2;
    }
    t[r] = now_ms() - t0;
  }
  /* compaction leaves garbage behind each slice's kept elements; the kernels
   * leave the zeros they were given */
  if (!strcmp(k, "compact")) {
    uint32_t *o = outs[0].p, *c = outs[1].p;
    for (size_t g = 0; g < n / 16; g++)
      for (uint32_t j = c[g]; j < 16; j++)
        o[g * 16 + j] = 0;
  }
  qsort(t, reps, sizeof(double), cmp_double);
  char msg[256] = "none";
  int files = argc - 4;
  if (files > 0) {
    strcpy(msg, "ok");
    if (files != nout)
      snprintf(msg, sizeof msg, "%d output files given, the kernel has %d", files, nout);
    else
      for (int i = 0; i < nout; i++)
        if (!check(&outs[i], argv[4 + i], msg, sizeof msg))
          break;
  }
  printf("{\"kernel\": \"%s\", \"size\": %zu, \"best_ms\": %.6f, \"median_ms\": %.6f, \"check\": \"",
         k, size, t[0], t[reps / 2]);
  for (const char *p = msg; *p; p++)
    if (*p != '"' && *p != '\\')
      putchar(*p);
  printf("\"}\n");
  return 0;
}
