/* clhost.c - a minimal OpenCL host program for bench/run.py: builds one
 * kernel from source on the PoCL platform (or the first platform when PoCL
 * is absent), runs it REPS times and times clEnqueueNDRangeKernel +
 * clFinish.
 *
 * usage: sgbench-clhost FILE.cl KERNEL REPS GLOBAL LOCAL [--write I=PATH]... ARG...
 *   GLOBAL, LOCAL: X[,Y]; ARG: f32range:N u32range:N f32fill:V:N zero:N
 *   (buffers of N 4-byte elements; range: element i is i) or u32:V f32:V.
 *   --write writes buffer argument I after the first launch.
 * Prints one JSON object on stdout; errors are one line on stderr, exit 2. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ARGS 8

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

static void die(const char *what, cl_int err)
{
  fprintf(stderr, "sgbench-clhost: %s failed (OpenCL error %d)\n", what, (int)err);
  exit(2);
}

static int parse_dims(const char *s, size_t d[2])
{
  char *e;
  d[0] = strtoull(s, &e, 10);
  d[1] = 1;
  if (*e == ',')
    d[1] = strtoull(e + 1, &e, 10);
  return *e == 0 && d[0] && d[1] ? (strchr(s, ',') ? 2 : 1) : 0;
}

static char *read_file(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc(len + 1);
  if (!p || fread(p, 1, len, f) != (size_t)len) {
    fclose(f);
    free(p);
    return NULL;
  }
  fclose(f);
  p[len] = 0;
  *n = len;
  return p;
}

int main(int argc, char **argv)
{
  if (argc < 7) {
    fprintf(stderr, "usage: sgbench-clhost FILE.cl KERNEL REPS GLOBAL LOCAL [--write I=PATH]... ARG...\n");
    return 2;
  }
  int reps = atoi(argv[3]);
  size_t gsz[2], lsz[2];
  int dim = parse_dims(argv[4], gsz);
  if (reps < 1 || !dim || parse_dims(argv[5], lsz) != dim) {
    fprintf(stderr, "sgbench-clhost: bad REPS, GLOBAL or LOCAL\n");
    return 2;
  }
  const char *write_path[MAX_ARGS] = {0};
  int ai = 6;
  while (ai + 1 < argc && !strcmp(argv[ai], "--write")) {
    int i = atoi(argv[ai + 1]);
    const char *eq = strchr(argv[ai + 1], '=');
    if (i < 0 || i >= MAX_ARGS || !eq) {
      fprintf(stderr, "sgbench-clhost: bad --write %s\n", argv[ai + 1]);
      return 2;
    }
    write_path[i] = eq + 1;
    ai += 2;
  }
  size_t srclen;
  char *src = read_file(argv[1], &srclen);
  if (!src) {
    fprintf(stderr, "sgbench-clhost: cannot read %s\n", argv[1]);
    return 2;
  }

  cl_int err;
  cl_uint np = 0;
  cl_platform_id plats[8], plat = NULL;
  if ((err = clGetPlatformIDs(8, plats, &np)) != CL_SUCCESS || np == 0) {
    fprintf(stderr, "sgbench-clhost: no OpenCL platform\n");
    return 3;
  }
  char pname[256] = "";
  for (cl_uint i = 0; i < np && i < 8; i++) {
    char nm[256] = "";
    clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof nm, nm, NULL);
    if (!plat || strstr(nm, "Portable") || strstr(nm, "pocl")) {
      plat = plats[i];
      strcpy(pname, nm);
    }
  }
  cl_device_id dev;
  if ((err = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) != CL_SUCCESS)
    die("clGetDeviceIDs", err);
  char dname[256] = "";
  cl_uint units = 0;
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (!ctx)
    die("clCreateContext", err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  if (!q)
    die("clCreateCommandQueue", err);

  double t0 = now_ms();
  const char *srcs[1] = {src};
  cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, &srclen, &err);
  if (!prog)
    die("clCreateProgramWithSource", err);
  err = clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    for (char *p = log; *p; p++)
      if (*p == '\n')
        *p = ' ';
    fprintf(stderr, "sgbench-clhost: build failed: %.300s\n", log);
    return 2;
  }
  cl_kernel kern = clCreateKernel(prog, argv[2], &err);
  if (!kern)
    die("clCreateKernel", err);
  double build_ms = now_ms() - t0;

  cl_mem bufs[MAX_ARGS] = {0};
  size_t bufbytes[MAX_ARGS] = {0};
  int nargs = 0;
  for (; ai < argc; ai++, nargs++) {
    if (nargs >= MAX_ARGS) {
      fprintf(stderr, "sgbench-clhost: too many arguments\n");
      return 2;
    }
    const char *a = argv[ai];
    if (!strncmp(a, "u32:", 4) || !strncmp(a, "f32:", 4)) {
      uint32_t u = (uint32_t)strtoul(a + 4, NULL, 10);
      float f = strtof(a + 4, NULL);
      err = clSetKernelArg(kern, nargs, 4, a[0] == 'u' ? (void *)&u : (void *)&f);
      if (err != CL_SUCCESS)
        die("clSetKernelArg", err);
      continue;
    }
    const char *c = strrchr(a, ':');
    size_t n = c ? strtoull(c + 1, NULL, 10) : 0;
    if (!n) {
      fprintf(stderr, "sgbench-clhost: bad argument '%s'\n", a);
      return 2;
    }
    uint32_t *h = malloc(n * 4);
    if (!h) {
      fprintf(stderr, "sgbench-clhost: out of memory\n");
      return 2;
    }
    if (!strncmp(a, "u32range:", 9))
      for (size_t i = 0; i < n; i++)
        h[i] = (uint32_t)i;
    else if (!strncmp(a, "f32range:", 9))
      for (size_t i = 0; i < n; i++) {
        float f = (float)i;
        memcpy(&h[i], &f, 4);
      }
    else if (!strncmp(a, "f32fill:", 8)) {
      float f = strtof(a + 8, NULL);
      for (size_t i = 0; i < n; i++)
        memcpy(&h[i], &f, 4);
    } else if (!strncmp(a, "zero:", 5))
      memset(h, 0, n * 4);
    else {
      fprintf(stderr, "sgbench-clhost: bad argument '%s'\n", a);
      return 2;
    }
    bufbytes[nargs] = n * 4;
    bufs[nargs] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, h, &err);
    free(h);
    if (!bufs[nargs])
      die("clCreateBuffer", err);
    if ((err = clSetKernelArg(kern, nargs, sizeof(cl_mem), &bufs[nargs])) != CL_SUCCESS)
      die("clSetKernelArg", err);
  }

  double *t = malloc(sizeof(double) * reps);
  if (!t)
    return 2;
  for (int r = 0; r < reps; r++) {
    double s = now_ms();
    if ((err = clEnqueueNDRangeKernel(q, kern, dim, NULL, gsz, lsz, 0, NULL, NULL)) != CL_SUCCESS)
      die("clEnqueueNDRangeKernel", err);
    if ((err = clFinish(q)) != CL_SUCCESS)
      die("clFinish", err);
    t[r] = now_ms() - s;
    if (r == 0)
      for (int i = 0; i < MAX_ARGS; i++) {
        if (!write_path[i] || !bufs[i])
          continue;
        void *h = malloc(bufbytes[i]);
        FILE *f = fopen(write_path[i], "wb");
        if (!h || !f)
          die("writing an output", 0);
        if ((err = clEnqueueReadBuffer(q, bufs[i], CL_TRUE, 0, bufbytes[i], h, 0, NULL, NULL)) != CL_SUCCESS)
          die("clEnqueueReadBuffer", err);
        fwrite(h, 1, bufbytes[i], f);
        fclose(f);
        free(h);
      }
  }
  double first = t[0];
  qsort(t, reps, sizeof(double), cmp_double);
  printf("{\"platform\": \"%s\", \"device\": \"%s\", \"compute_units\": %u, \"build_ms\": %.3f, "
         "\"first_ms\": %.6f, \"best_ms\": %.6f, \"median_ms\": %.6f}\n",
         pname, dname, units, build_ms, first, t[0], t[reps / 2]);
  for (int i = 0; i < MAX_ARGS; i++)
    if (bufs[i])
      clReleaseMemObject(bufs[i]);
  clReleaseKernel(kern);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(t);
  free(src);
  return 0;
}
