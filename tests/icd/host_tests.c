/* host_tests.c - OpenCL host programs run on the spirv-sg ICD through the
 * ICD loader (-lOpenCL), built against the installed headers only: no
 * header of this project.  usage: host_tests REDUCE.spv
 *
 * Expected values are computed here in plain C, or are hand-computed
 * answers (subgroup queries) and the error codes the OpenCL 3.0
 * specification names.  Ends with "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L  /* nanosleep */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS  /* as real host programs do: clCreateCommandQueue, clEnqueueTask */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS  /* clCreateImage2D */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int n_pass, n_fail;
#define CHECK(cond, ...) do { \
    if (cond) n_pass++; \
    else { n_fail++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)
#define CHECK_ERR(expr, want) do { cl_int e_ = (expr); \
    CHECK(e_ == (want), "%s = %d, expected %s (%d)", #expr, e_, #want, (int)(want)); } while (0)

static cl_platform_id plat;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;

static cl_program build_src(const char *src, const char *opts, cl_int *out_err)
{
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (!p) {
    *out_err = err;
    return NULL;
  }
  *out_err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
  return p;
}

static char *read_file(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)len + 1);
  if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *n = (size_t)len;
  return b;
}

/* ------------------------------------------------------------ platform */

static void test_platform(void)
{
  char name[256] = "", ext[4096] = "", ver[256] = "";
  CHECK_ERR(clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name, name, NULL), CL_SUCCESS);
  CHECK(!strcmp(name, "spirv-sg"), "platform name '%s'", name);
  CHECK_ERR(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
  static const char *const want[] = {"cl_khr_il_program", "cl_khr_subgroups", "cl_khr_subgroup_ballot",
                                     "cl_khr_subgroup_shuffle", "cl_intel_subgroups",
                                     "cl_intel_required_subgroup_size", "cl_intel_subgroups_short"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    CHECK(strstr(ext, want[i]) != NULL, "extension %s missing", want[i]);
  CHECK_ERR(clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof ver, ver, NULL), CL_SUCCESS);
  CHECK(!strncmp(ver, "OpenCL 3.0", 10), "device version '%s'", ver);
  size_t sizes[16];
  size_t n = 0;
  CHECK_ERR(clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &n), CL_SUCCESS);
  CHECK(n >= 3 * sizeof(size_t), "CL_DEVICE_SUB_GROUP_SIZES_INTEL: %zu bytes", n);
  cl_uint maxsg = 0;
  CHECK_ERR(clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof maxsg, &maxsg, NULL), CL_SUCCESS);
  CHECK(maxsg >= 64, "CL_DEVICE_MAX_NUM_SUB_GROUPS %u", maxsg);
  char il[256] = "";
  CHECK_ERR(clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof il, il, NULL), CL_SUCCESS);
  CHECK(strstr(il, "SPIR-V_1.0") && strstr(il, "SPIR-V_1.6"), "IL version '%s'", il);
}

/* ------------------------------------------------------ vector add (source) */

static const char *vadd_src =
  "kernel void vadd(global const float *a, global const float *b, global float *c) {\n"
  "  size_t i = get_global_id(0);\n"
  "  c[i] = a[i] + b[i];\n"
  "}\n";

static void test_vadd(void)
{
  enum { N = 1000 };
  float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)i;
    c[i] = -1;
  }
  cl_int err;
  cl_program p = build_src(vadd_src, "-cl-std=CL1.2", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_build_status st = CL_BUILD_NONE;
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
  CHECK(st == CL_BUILD_SUCCESS, "build status %d", st);
  cl_kernel k = clCreateKernel(p, "vadd", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, sizeof b, b, &err);
  cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR, sizeof c, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  clSetKernelArg(k, 0, sizeof ba, &ba);
  clSetKernelArg(k, 1, sizeof bb, &bb);
  clSetKernelArg(k, 2, sizeof bc, &bc);
  size_t g = N, l = 100;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_ERR(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += c[i] != a[i] + b[i];
  CHECK(bad == 0, "vadd: %d wrong", bad);
  /* kernel queries */
  char kname[64] = "";
  cl_uint nargs = 0;
  CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof kname, kname, NULL), CL_SUCCESS);
  CHECK(!strcmp(kname, "vadd"), "kernel name '%s'", kname);
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
  CHECK(nargs == 3, "num args %u", nargs);
  char names[64] = "";
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL), CL_SUCCESS);
  CHECK(!strcmp(names, "vadd"), "kernel names '%s'", names);
  size_t wg = 0;
  CHECK_ERR(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), CL_SUCCESS);
  CHECK(wg == 1024, "kernel work-group size %zu", wg);
  /* the program's binary is SPIR-V, and builds again as a binary */
  size_t bsize = 0;
  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bsize, &bsize, NULL);
  unsigned char *bin = malloc(bsize);
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
  CHECK(bsize > 20 && bin[0] == 0x03 && bin[1] == 0x02 && bin[2] == 0x23 && bin[3] == 0x07, "binary is not SPIR-V");
  cl_int bst;
  cl_program p2 = clCreateProgramWithBinary(ctx, 1, &dev, &bsize, (const unsigned char **)&bin, &bst, &err);
  CHECK_ERR(err, CL_SUCCESS);
  CHECK_ERR(clBuildProgram(p2, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  free(bin);
  clReleaseProgram(p2);
  clReleaseMemObject(ba);
  clReleaseMemObject(bb);
  clReleaseMemObject(bc);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ------------------------------------------------ subgroup reduction (IL) */

static void test_reduce_il(const char *spv)
{
  size_t n = 0;
  char *il = read_file(spv, &n);
  CHECK(il != NULL, "cannot read %s", spv);
  if (!il)
    return;
  cl_int err;
  cl_program p = clCreateProgramWithIL(ctx, il, n, &err);
  CHECK_ERR(err, CL_SUCCESS);
  CHECK_ERR(clBuildProgram(p, 1, &dev, "", NULL, NULL), CL_SUCCESS);
  size_t iln = 0;
  CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &iln), CL_SUCCESS);
  CHECK(iln == n, "CL_PROGRAM_IL size %zu, expected %zu", iln, n);
  cl_kernel k = clCreateKernel(p, "sg_sum", &err);
  CHECK_ERR(err, CL_SUCCESS);
  enum { N = 256, L = 64, S = 16 };
  cl_uint in[N], out[N / S], want[N / S];
  for (int i = 0; i < N; i++)
    in[i] = (cl_uint)(i * 7 + 3);
  /* subgroups of S consecutive work-items (one dimension) */
  memset(want, 0, sizeof want);
  for (int i = 0; i < N; i++)
    want[i / S] += in[i];
  cl_mem bi = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
  clSetKernelArg(k, 0, sizeof bi, &bi);
  clSetKernelArg(k, 1, sizeof bo, &bo);
  size_t g = N, l = L;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N / S; i++)
    bad += out[i] != want[i];
  CHECK(bad == 0, "subgroup sums: %d wrong (out[0] %u want %u)", bad, out[0], want[0]);

  /* clGetKernelSubGroupInfo, every query, against hand-computed answers for
   * S = 16 and a maximum work-group size of 1024 */
  size_t loc[3] = {40, 1, 1}, r = 0, rs[3] = {9, 9, 9}, cnt;
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), loc,
                                    sizeof r, &r, NULL), CL_SUCCESS);
  CHECK(r == 16, "MAX_SUB_GROUP_SIZE_FOR_NDRANGE(40) = %zu, expected 16", r);
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(size_t), loc,
                                    sizeof r, &r, NULL), CL_SUCCESS);
  CHECK(r == 3, "SUB_GROUP_COUNT_FOR_NDRANGE(40) = %zu, expected 3 (16+16+8)", r);
  size_t loc2[2] = {8, 8};
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof loc2, loc2,
                                    sizeof r, &r, NULL), CL_SUCCESS);
  CHECK(r == 4, "SUB_GROUP_COUNT_FOR_NDRANGE(8x8) = %zu, expected 4", r);
  cnt = 3;
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof cnt, &cnt,
                                    sizeof rs, rs, NULL), CL_SUCCESS);
  CHECK(rs[0] == 48 && rs[1] == 1 && rs[2] == 1, "LOCAL_SIZE_FOR_SUB_GROUP_COUNT(3) = %zu,%zu,%zu, expected 48,1,1",
        rs[0], rs[1], rs[2]);
  cnt = 65;
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof cnt, &cnt,
                                    sizeof rs, rs, NULL), CL_SUCCESS);
  CHECK(rs[0] == 0, "LOCAL_SIZE_FOR_SUB_GROUP_COUNT(65) = %zu, expected 0 (65*16 > 1024)", rs[0]);
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof r, &r, NULL), CL_SUCCESS);
  CHECK(r == 64, "MAX_NUM_SUB_GROUPS = %zu, expected 64 (1024/16)", r);
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL, sizeof r, &r, NULL),
            CL_SUCCESS);
  CHECK(r == 0, "COMPILE_NUM_SUB_GROUPS = %zu, expected 0", r);
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 0, NULL, sizeof r, &r, NULL),
            CL_INVALID_VALUE);
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, 0x7777, 0, NULL, sizeof r, &r, NULL), CL_INVALID_VALUE);
  clReleaseMemObject(bi);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(il);
}

/* ------------------------------------------------ intel_reqd_sub_group_size */

static const char *reqd_src =
  "__attribute__((intel_reqd_sub_group_size(8)))\n"
  "kernel void sizes(global uint *out) {\n"
  "  size_t i = get_global_id(0);\n"
  "  out[2 * i] = get_max_sub_group_size();\n"
  "  out[2 * i + 1] = get_sub_group_id();\n"
  "}\n";

static void test_reqd(void)
{
  cl_int err;
  cl_program p = build_src(reqd_src, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "sizes", &err);
  CHECK_ERR(err, CL_SUCCESS);
  enum { N = 32 };
  cl_uint out[2 * N];
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
  clSetKernelArg(k, 0, sizeof bo, &bo);
  size_t g = N, l = N;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[2 * i] != 8 || out[2 * i + 1] != (cl_uint)(i / 8);
  CHECK(bad == 0, "reqd_sub_group_size(8): %d wrong (out %u,%u)", bad, out[0], out[1]);
  size_t r = 0, loc = 32;
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL, sizeof r, &r, NULL),
            CL_SUCCESS);
  CHECK(r == 8, "COMPILE_SUB_GROUP_SIZE_INTEL = %zu", r);
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof loc, &loc, sizeof r, &r,
                                    NULL), CL_SUCCESS);
  CHECK(r == 4, "SUB_GROUP_COUNT_FOR_NDRANGE(32) with size 8 = %zu", r);
  CHECK_ERR(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof r, &r, NULL), CL_SUCCESS);
  CHECK(r == 128, "MAX_NUM_SUB_GROUPS with size 8 = %zu", r);
  char attr[128] = "";
  clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attr, attr, NULL);
  CHECK(strstr(attr, "intel_reqd_sub_group_size(8)") != NULL, "attributes '%s'", attr);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ------------------------------------------------------------ a fault */

static const char *fault_src =
  "kernel void oob(global int *out) {\n"
  "  size_t i = get_global_id(0);\n"
  "  out[i + 4] = (int)i;\n"
  "}\n";

static void test_fault(void)
{
  cl_int err;
  cl_program p = build_src(fault_src, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "oob", &err);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * sizeof(cl_int), NULL, &err);
  clSetKernelArg(k, 0, sizeof bo, &bo);
  size_t g = 8, l = 8;
  /* the out-of-bounds writes are reported on stderr (the driver checks),
   * and the program gets CL_SUCCESS, as on Oclgrind */
  fprintf(stderr, "host_tests: the next report is expected\n");
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  CHECK_ERR(clFinish(q), CL_SUCCESS);
  cl_int out[8];
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(out[4] == 0 && out[7] == 3, "in-bounds writes: out[4]=%d out[7]=%d", out[4], out[7]);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ------------------------------------------------------- a build error */

static void test_build_error(void)
{
  cl_int err;
  cl_program p = build_src("kernel void broken(global int *o) {\n  o[0] = undeclared_thing;\n}\n", NULL, &err);
  CHECK_ERR(err, CL_BUILD_PROGRAM_FAILURE);
  char log[8192] = "";
  CHECK_ERR(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL), CL_SUCCESS);
  CHECK(strstr(log, "undeclared_thing") && strstr(log, "error"), "build log: '%s'", log);
  CHECK(strstr(log, ":2:") != NULL, "build log has no line number: '%s'", log);
  cl_build_status st;
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
  CHECK(st == CL_BUILD_ERROR, "status %d", st);
  CHECK(clCreateKernel(p, "broken", &err) == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE, "kernel of a failed build: %d", err);
  /* build options reach the compiler: -D */
  cl_program p2 = build_src("kernel void k(global int *o) { o[0] = VALUE; }\n", "-D VALUE=42 -cl-mad-enable", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_kernel k = clCreateKernel(p2, "k", &err);
  cl_int v = 0;
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof v, NULL, &err);
  clSetKernelArg(k, 0, sizeof bo, &bo);
  CHECK_ERR(clEnqueueTask(q, k, 0, NULL, NULL), CL_SUCCESS);
  clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL);
  CHECK(v == 42, "-D VALUE=42 gave %d", v);
  CHECK_ERR(clBuildProgram(p2, 1, &dev, NULL, NULL, NULL), CL_INVALID_OPERATION);  /* a kernel is attached */
  cl_program p3 = clCreateProgramWithSource(ctx, 1, &vadd_src, NULL, &err);
  CHECK_ERR(clBuildProgram(p3, 1, &dev, "-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(p3);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p2);
  clReleaseProgram(p);
}

/* ---------------------------------------------------- bad arguments */

static const char *args_src =
  "typedef struct { int a; float b; int c[2]; } pod;\n"
  "kernel void args(global int *out, local int *tmp, pod s, int n) {\n"
  "  size_t l = get_local_id(0);\n"
  "  tmp[l] = (int)l * n;\n"
  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
  "  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l] + (n > 100 ? s.a + (int)s.b + s.c[1] : 0);\n"
  "}\n";

typedef struct { cl_int a; cl_float b; cl_int c[2]; } pod;

static void test_args(void)
{
  cl_int err;
  cl_program p = build_src(args_src, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "args", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL, &err);
  pod s = {100, 20.5f, {7, 1000}};
  cl_int n = 3;
  size_t g = 64, l = 16;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  CHECK_ERR(clSetKernelArg(k, 4, sizeof n, &n), CL_INVALID_ARG_INDEX);
  CHECK_ERR(clSetKernelArg(k, 0, 4, &bo), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 1, 64, &n), CL_INVALID_ARG_VALUE);
  CHECK_ERR(clSetKernelArg(k, 1, 0, NULL), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 2, sizeof s - 4, &s), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 3, sizeof n, NULL), CL_INVALID_ARG_VALUE);
  cl_mem notmem = (cl_mem)(void *)ctx;
  CHECK_ERR(clSetKernelArg(k, 0, sizeof notmem, &notmem), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clSetKernelArg(k, 0, sizeof bo, &bo), CL_SUCCESS);
  CHECK_ERR(clSetKernelArg(k, 1, 16 * sizeof(cl_int), NULL), CL_SUCCESS);
  CHECK_ERR(clSetKernelArg(k, 2, sizeof s, &s), CL_SUCCESS);
  CHECK_ERR(clSetKernelArg(k, 3, sizeof n, &n), CL_SUCCESS);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 0, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, &l, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t big = 2048;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &big, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
  size_t l2[2] = {64, 32}, g2[2] = {64, 32};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, g2, l2, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  cl_event bogus = (cl_event)(void *)ctx;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, &bogus, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_ERR(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_ERR(clEnqueueNDRangeKernel(q, NULL, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_KERNEL);
  /* local memory and a by-value struct */
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  cl_int out[64];
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < 64; i++)
    bad += out[i] != (15 - i % 16) * 3;
  CHECK(bad == 0, "local memory: %d wrong (out[0] = %d)", bad, out[0]);
  /* Reading a by-value struct (n > 100 adds its fields): the ICD passes its
   * bytes, the backends copy the ByVal parameter. */
  n = 1000;
  clSetKernelArg(k, 3, sizeof n, &n);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  bad = 0;
  for (int i = 0; i < 64; i++)
    bad += out[i] != (15 - i % 16) * 1000 + 100 + 20 + 1000;
  CHECK(bad == 0, "by-value struct: %d wrong (out[0] = %d)", bad, out[0]);
  cl_ulong lm = 0;
  CHECK_ERR(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL), CL_SUCCESS);
  CHECK(lm == 64, "CL_KERNEL_LOCAL_MEM_SIZE %lu", (unsigned long)lm);
  char tn[64] = "";
  CHECK_ERR(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof tn, tn, NULL), CL_SUCCESS);
  CHECK(!strcmp(tn, "n"), "arg 3 name '%s'", tn);

  /* API argument errors elsewhere */
  CHECK(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err) == NULL && err == CL_INVALID_BUFFER_SIZE,
        "zero-size buffer: %d", err);
  CHECK(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &err) == NULL && err == CL_INVALID_HOST_PTR,
        "USE_HOST_PTR without a pointer: %d", err);
  CHECK(clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, NULL, &err) == NULL && err == CL_INVALID_VALUE,
        "READ_ONLY|WRITE_ONLY: %d", err);
  CHECK(clCreateBuffer(NULL, 0, 16, NULL, &err) == NULL && err == CL_INVALID_CONTEXT, "null context: %d", err);
  cl_int buf[4];
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 250, 16, buf, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadBuffer(q, NULL, CL_TRUE, 0, 16, buf, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK(clCreateKernel(p, "nope", &err) == NULL && err == CL_INVALID_KERNEL_NAME, "bad kernel name: %d", err);
  cl_program unbuilt = clCreateProgramWithSource(ctx, 1, &vadd_src, NULL, &err);
  CHECK(clCreateKernel(unbuilt, "vadd", &err) == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE, "unbuilt: %d", err);
  clReleaseProgram(unbuilt);
  CHECK(clCreateProgramWithIL(ctx, "not spir-v at all......", 24, &err) == NULL && err == CL_INVALID_VALUE,
        "bad IL: %d", err);
  CHECK_ERR(clGetDeviceInfo(dev, 0x7777, 0, NULL, NULL), CL_INVALID_VALUE);
  char small[2];
  CHECK_ERR(clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof small, small, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 0, NULL, &(cl_uint){0}), CL_DEVICE_NOT_FOUND);
  CHECK_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clRetainKernel((cl_kernel)(void *)bo), CL_INVALID_KERNEL);
  /* entry points that are not implemented answer with an error */
  CHECK(clCreatePipe(ctx, 0, 4, 4, NULL, &err) == NULL && err != CL_SUCCESS, "clCreatePipe: %d", err);
  CHECK(clSVMAlloc(ctx, 0, 64, 0) == NULL, "clSVMAlloc");
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ---------------------------------------- two queues, events, offsets */

static const char *ids_src =
  "kernel void ids(global int *out, int base) {\n"
  "  size_t g = get_global_id(0);\n"
  "  out[g - get_global_offset(0)] = base + (int)g * 1000 + (int)get_local_size(0);\n"
  "}\n";

static int cb_count;
static void CL_CALLBACK on_done(cl_event e, cl_int st, void *user)
{
  (void)e;
  if (st == CL_COMPLETE)
    cb_count += *(int *)user;
}

static void test_queues(void)
{
  cl_int err;
  cl_command_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE |
                                         CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_program p = build_src(ids_src, "-cl-std=CL3.0", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "ids", &err);
  enum { N = 100 };
  cl_int zero[N], out[N];
  memset(zero, 0, sizeof zero);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(cl_int), NULL, &err);
  cl_int base = 5;
  clSetKernelArg(k, 1, sizeof base, &base);
  /* q writes, q2 runs the kernel on a sub-buffer after that write, q reads */
  cl_event ew, ek, er;
  CHECK_ERR(clEnqueueWriteBuffer(q, bo, CL_FALSE, 0, sizeof zero, zero, 0, NULL, &ew), CL_SUCCESS);
  cl_buffer_region reg = {128, N * sizeof(cl_int)};
  cl_mem sub = clCreateSubBuffer(bo, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_buffer_region badreg = {4, 16};
  CHECK(clCreateSubBuffer(bo, 0, CL_BUFFER_CREATE_TYPE_REGION, &badreg, &err) == NULL &&
        err == CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer: %d", err);
  clSetKernelArg(k, 0, sizeof sub, &sub);
  /* offset 7, non-uniform work-groups: 100 items in groups of 16 (the last has 4) */
  size_t off = 7, g = N, l = 16;
  CHECK_ERR(clEnqueueNDRangeKernel(q2, k, 1, &off, &g, &l, 1, &ew, &ek), CL_SUCCESS);
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_FALSE, 128, sizeof out, out, 1, &ek, &er), CL_SUCCESS);
  CHECK_ERR(clWaitForEvents(1, &er), CL_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 5 + (i + 7) * 1000 + (i >= 96 ? 4 : 16);
  CHECK(bad == 0, "offset + non-uniform: %d wrong (out[99] = %d)", bad, out[99]);
  cl_int st = 0;
  CHECK_ERR(clGetEventInfo(ek, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
  CHECK(st == CL_COMPLETE, "event status %d", st);
  cl_command_type ct = 0;
  clGetEventInfo(ek, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL);
  CHECK(ct == CL_COMMAND_NDRANGE_KERNEL, "command type %x", ct);
  cl_ulong t0 = 0, t1 = 0;
  CHECK_ERR(clGetEventProfilingInfo(ek, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL), CL_SUCCESS);
  CHECK_ERR(clGetEventProfilingInfo(ek, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL), CL_SUCCESS);
  CHECK(t0 > 0 && t1 >= t0, "profiling %lu..%lu", (unsigned long)t0, (unsigned long)t1);
  CHECK_ERR(clGetEventProfilingInfo(ew, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  int two = 2;
  CHECK_ERR(clSetEventCallback(ek, CL_COMPLETE, on_done, &two), CL_SUCCESS);
  CHECK(cb_count == 2, "callback count %d", cb_count);
  /* the non-uniform launch is refused for an OpenCL C 1.2 program */
  cl_program p12 = build_src(ids_src, "-cl-std=CL1.2", &err);
  cl_kernel k12 = clCreateKernel(p12, "ids", &err);
  clSetKernelArg(k12, 0, sizeof sub, &sub);
  clSetKernelArg(k12, 1, sizeof base, &base);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k12, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* fill, copy, map */
  cl_int pat = 0x01020304;
  CHECK_ERR(clEnqueueFillBuffer(q, bo, &pat, sizeof pat, 0, 64, 0, NULL, NULL), CL_SUCCESS);
  CHECK_ERR(clEnqueueCopyBuffer(q2, bo, bo, 0, 512, 64, 0, NULL, NULL), CL_SUCCESS);
  CHECK_ERR(clEnqueueCopyBuffer(q2, bo, bo, 0, 32, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  cl_int *m = clEnqueueMapBuffer(q, bo, CL_TRUE, CL_MAP_READ, 512, 64, 0, NULL, NULL, &err);
  CHECK(m && err == CL_SUCCESS && m[0] == pat && m[15] == pat, "map after fill+copy");
  CHECK_ERR(clEnqueueUnmapMemObject(q, bo, m, 0, NULL, NULL), CL_SUCCESS);
  cl_event ue = clCreateUserEvent(ctx, &err);
  CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_SUCCESS);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, &ue, NULL), CL_SUCCESS);
  CHECK_ERR(clFinish(q2), CL_SUCCESS);
  CHECK_ERR(clFlush(q), CL_SUCCESS);
  clReleaseEvent(ue);
  clReleaseKernel(k12);
  clReleaseProgram(p12);
  clReleaseEvent(ew);
  clReleaseEvent(ek);
  clReleaseEvent(er);
  clReleaseMemObject(sub);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q2);
}

/* --------------------------- separate compilation, Import/Export linkage */

static void test_link(void)
{
  cl_int err;
  const char *a = "int helper(int x);\n"
                  "kernel void k(global int *o) { o[get_global_id(0)] = helper((int)get_global_id(0)); }\n";
  const char *b = "#include \"mul.h\"\nint helper(int x) { return x * MUL + 1; }\n";
  const char *h = "#define MUL 3\n";
  const char *hname = "mul.h";
  cl_program pa = clCreateProgramWithSource(ctx, 1, &a, NULL, &err);
  cl_program pb = clCreateProgramWithSource(ctx, 1, &b, NULL, &err);
  cl_program ph = clCreateProgramWithSource(ctx, 1, &h, NULL, &err);
  CHECK_ERR(clCompileProgram(pa, 1, &dev, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  CHECK_ERR(clCompileProgram(pb, 1, &dev, "", 1, &ph, &hname, NULL, NULL), CL_SUCCESS);
  cl_program_binary_type bt = 0;
  clGetProgramBuildInfo(pa, dev, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
  CHECK(bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "binary type after compile %x", (unsigned)bt);
  CHECK(clCreateKernel(pa, "k", &err) == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE, "kernel of an object: %d", err);
  cl_program in[2] = {pa, pb};
  cl_program l = clLinkProgram(ctx, 1, &dev, "", 2, in, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_kernel k = clCreateKernel(l, "k", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16 * sizeof(cl_int), NULL, &err);
  clSetKernelArg(k, 0, sizeof bo, &bo);
  size_t g = 16;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  cl_int out[16];
  clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    bad += out[i] != i * 3 + 1;
  CHECK(bad == 0, "linked helper: %d wrong (out[5] = %d)", bad, out[5]);
  /* an unresolved import: CL_LINK_PROGRAM_FAILURE, the reason in the log */
  cl_program l2 = clLinkProgram(ctx, 1, &dev, NULL, 1, &pa, NULL, NULL, &err);
  CHECK_ERR(err, CL_LINK_PROGRAM_FAILURE);
  char log[2048] = "";
  clGetProgramBuildInfo(l2, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  CHECK(strstr(log, "helper") != NULL, "link log: '%s'", log);
  CHECK(clLinkProgram(ctx, 1, &dev, "-bogus", 2, in, NULL, NULL, &err) == NULL && err == CL_INVALID_LINKER_OPTIONS,
        "bad link option: %d", err);
  clReleaseProgram(l2);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(l);
  clReleaseProgram(pa);
  clReleaseProgram(pb);
  clReleaseProgram(ph);
}


/* ------------------------------------------------------------- images */

/* Intel image block I/O (cl_intel_subgroups): each subgroup of 16 reads a
 * 16-uint run of rows y and y+1 of an R/UNSIGNED_INT32 image (lane l gets
 * the pixel at x0 + l; block_read2: row y+1 as the second component) and
 * writes a function of them to another image.  The coordinate's x is in
 * bytes.  Then read_imagef / write_imagef on RGBA/UNORM_INT8 -> RGBA/FLOAT. */
static const char *img_src =
  "__attribute__((intel_reqd_sub_group_size(16)))\n"
  "kernel void blk(read_only image2d_t src, write_only image2d_t dst) {\n"
  "  int x0 = get_group_id(0) * 16, y = get_global_id(1) * 2;\n"
  "  uint2 v = intel_sub_group_block_read2(src, (int2)(x0 * 4, y));\n"
  "  uint l = get_sub_group_local_id();\n"
  "  intel_sub_group_block_write(dst, (int2)(x0 * 4, y), v.x * 3u + l);\n"
  "  intel_sub_group_block_write(dst, (int2)(x0 * 4, y + 1), v.y + v.x);\n"
  "}\n"
  "kernel void flt(read_only image2d_t src, write_only image2d_t dst) {\n"
  "  int2 c = (int2)(get_global_id(0), get_global_id(1));\n"
  "  float4 v = read_imagef(src, c);\n"
  "  write_imagef(dst, c, v.wzyx * 2.0f + (float4)(0.5f, 0.0f, 0.0f, 0.0f));\n"
  "}\n";

static void test_images(void)
{
  cl_int err;
  cl_bool img = CL_FALSE;
  CHECK_ERR(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL), CL_SUCCESS);
  CHECK(img == CL_TRUE, "CL_DEVICE_IMAGE_SUPPORT %u", img);
  size_t maxw = 0, max3d = 1;
  clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof maxw, &maxw, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof max3d, &max3d, NULL);
  CHECK(maxw == 16384 && max3d == 0, "image limits: 2D %zu, 3D %zu", maxw, max3d);
  /* formats: 2D only; R/UINT32, RGBA/UNORM_INT8 and RGBA/FLOAT among them,
   * BGRA/FLOAT not (8-bit types only) */
  cl_uint nf = 0, n3 = 7;
  CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nf), CL_SUCCESS);
  CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE3D, 0, NULL, &n3), CL_SUCCESS);
  CHECK(n3 == 0, "3D formats: %u", n3);
  cl_image_format *fmts = calloc(nf ? nf : 1, sizeof *fmts);
  CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, nf, fmts, NULL), CL_SUCCESS);
  int seen = 0;
  for (cl_uint i = 0; i < nf; i++) {
    cl_channel_order o = fmts[i].image_channel_order;
    cl_channel_type t = fmts[i].image_channel_data_type;
    seen |= (o == CL_R && t == CL_UNSIGNED_INT32) | (o == CL_RGBA && t == CL_UNORM_INT8) << 1 |
            (o == CL_RGBA && t == CL_FLOAT) << 2 | (o == CL_BGRA && t == CL_FLOAT) << 3;
  }
  CHECK(seen == 7, "supported formats (%u): mask %d", nf, seen);
  free(fmts);
  CHECK_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, NULL, &nf), CL_INVALID_VALUE);

  /* creation errors */
  enum { W = 32, H = 4 };
  cl_image_format fu = {CL_R, CL_UNSIGNED_INT32};
  cl_image_desc d2 = {CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0, 0, 0, 0, 0, {NULL}};
  cl_image_format bad_order = {0x7777, CL_FLOAT}, bgra_f = {CL_BGRA, CL_FLOAT};
  CHECK(clCreateImage(ctx, 0, &bad_order, &d2, NULL, &err) == NULL && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        "bad order: %d", err);
  CHECK(clCreateImage(ctx, 0, &bgra_f, &d2, NULL, &err) == NULL && err == CL_IMAGE_FORMAT_NOT_SUPPORTED,
        "BGRA/FLOAT: %d", err);
  cl_image_desc d3 = {CL_MEM_OBJECT_IMAGE3D, 4, 4, 4, 0, 0, 0, 0, 0, {NULL}};
  CHECK(clCreateImage(ctx, 0, &fu, &d3, NULL, &err) == NULL && err == CL_IMAGE_FORMAT_NOT_SUPPORTED, "3D: %d", err);
  cl_image_desc dbad = {0x7777, 4, 4, 1, 0, 0, 0, 0, 0, {NULL}};
  CHECK(clCreateImage(ctx, 0, &fu, &dbad, NULL, &err) == NULL && err == CL_INVALID_IMAGE_DESCRIPTOR,
        "bad type: %d", err);
  cl_image_desc dzero = {CL_MEM_OBJECT_IMAGE2D, 0, 4, 0, 0, 0, 0, 0, 0, {NULL}};
  CHECK(clCreateImage(ctx, 0, &fu, &dzero, NULL, &err) == NULL && err == CL_INVALID_IMAGE_DESCRIPTOR,
        "zero width: %d", err);
  cl_image_desc dbig = {CL_MEM_OBJECT_IMAGE2D, 16385, 4, 0, 0, 0, 0, 0, 0, {NULL}};
  CHECK(clCreateImage(ctx, 0, &fu, &dbig, NULL, &err) == NULL && err == CL_INVALID_IMAGE_SIZE, "too wide: %d", err);
  CHECK(clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fu, &d2, NULL, &err) == NULL && err == CL_INVALID_HOST_PTR,
        "COPY_HOST_PTR without a pointer: %d", err);
  CHECK(clCreateImage(ctx, 0, NULL, &d2, NULL, &err) == NULL && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        "no format: %d", err);

  /* the block I/O kernel: source with a row pitch of W + 8 pixels (COPY_HOST_PTR) */
  static cl_uint host[H][W + 8], out[H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W + 8; x++)
      host[y][x] = (cl_uint)(y * 1000 + x * 7 + 5);
  cl_image_desc dp = d2;
  dp.image_row_pitch = (W + 8) * sizeof(cl_uint);
  cl_mem src = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fu, &dp, host, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_mem dst = clCreateImage2D(ctx, CL_MEM_WRITE_ONLY, &fu, W, H, 0, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  size_t v = 0;
  cl_image_format gf = {0, 0};
  CHECK_ERR(clGetImageInfo(src, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL), CL_SUCCESS);
  CHECK(v == W * sizeof(cl_uint), "row pitch %zu (copied tightly)", v);
  CHECK_ERR(clGetImageInfo(src, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, NULL), CL_SUCCESS);
  CHECK(v == 4, "element size %zu", v);
  CHECK_ERR(clGetImageInfo(dst, CL_IMAGE_HEIGHT, sizeof v, &v, NULL), CL_SUCCESS);
  CHECK(v == H, "height %zu", v);
  CHECK_ERR(clGetImageInfo(dst, CL_IMAGE_FORMAT, sizeof gf, &gf, NULL), CL_SUCCESS);
  CHECK(gf.image_channel_order == CL_R && gf.image_channel_data_type == CL_UNSIGNED_INT32, "format %x %x",
        gf.image_channel_order, gf.image_channel_data_type);
  cl_mem_object_type mt = 0;
  clGetMemObjectInfo(dst, CL_MEM_TYPE, sizeof mt, &mt, NULL);
  CHECK(mt == CL_MEM_OBJECT_IMAGE2D, "CL_MEM_TYPE %x", mt);
  cl_program p = build_src(img_src, "", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "blk", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  CHECK_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_ARG_VALUE);
  CHECK_ERR(clSetKernelArg(k, 0, 3, &src), CL_INVALID_ARG_SIZE);
  CHECK_ERR(clSetKernelArg(k, 0, sizeof src, &src), CL_SUCCESS);
  CHECK_ERR(clSetKernelArg(k, 1, sizeof dst, &dst), CL_SUCCESS);
  size_t g[2] = {W, H / 2}, l[2] = {16, 1};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL), CL_SUCCESS);
  size_t org[3] = {0, 0, 0}, reg[3] = {W, H, 1};
  CHECK_ERR(clEnqueueReadImage(q, dst, CL_TRUE, org, reg, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  int bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      cl_uint a = host[y & ~1][x], b = host[y | 1][x];
      bad += out[y][x] != (y % 2 == 0 ? a * 3 + (cl_uint)(x % 16) : b + a);
    }
  CHECK(bad == 0, "image block read/write: %d wrong (out[0][1] = %u, out[1][0] = %u)", bad, out[0][1], out[1][0]);
  /* a part of an image: write a 3x2 rectangle at (5, 1), read it back with a pitch */
  cl_uint rect[2][4] = {{1, 2, 3, 99}, {4, 5, 6, 99}}, back[2][4] = {{0}};
  size_t ro[3] = {5, 1, 0}, rr[3] = {3, 2, 1};
  CHECK_ERR(clEnqueueWriteImage(q, dst, CL_TRUE, ro, rr, sizeof rect[0], 0, rect, 0, NULL, NULL), CL_SUCCESS);
  CHECK_ERR(clEnqueueReadImage(q, dst, CL_TRUE, org, reg, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(out[1][5] == 1 && out[1][7] == 3 && out[2][6] == 5 && out[1][8] != 99 && out[0][5] != 1,
        "write rectangle: %u %u %u %u", out[1][5], out[1][7], out[2][6], out[1][8]);
  CHECK_ERR(clEnqueueReadImage(q, dst, CL_TRUE, ro, rr, sizeof back[0], 0, back, 0, NULL, NULL), CL_SUCCESS);
  CHECK(back[0][0] == 1 && back[1][2] == 6 && back[0][3] == 0, "read rectangle: %u %u %u", back[0][0], back[1][2],
        back[0][3]);
  /* read / write errors */
  size_t past[3] = {W - 1, 0, 0}, two[3] = {2, 1, 1}, deep[3] = {1, 1, 2};
  CHECK_ERR(clEnqueueReadImage(q, dst, CL_TRUE, past, two, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadImage(q, dst, CL_TRUE, org, deep, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadImage(q, dst, CL_TRUE, org, two, 0, 4, back, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadImage(q, dst, CL_TRUE, org, two, 4, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clEnqueueReadImage(q, buf, CL_TRUE, org, two, 0, 0, back, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, 4, back, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_ERR(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  clReleaseKernel(k);

  /* read_imagef / write_imagef: RGBA UNORM_INT8 in, RGBA FLOAT out */
  enum { FW = 8, FH = 3 };
  static unsigned char px[FH][FW][4];
  static float fo[FH][FW][4];
  for (int y = 0; y < FH; y++)
    for (int x = 0; x < FW; x++)
      for (int c = 0; c < 4; c++)
        px[y][x][c] = (unsigned char)(y * 80 + x * 30 + c * 7);
  cl_image_format f8 = {CL_RGBA, CL_UNORM_INT8}, ff = {CL_RGBA, CL_FLOAT};
  cl_image_desc df = {CL_MEM_OBJECT_IMAGE2D, FW, FH, 0, 0, 0, 0, 0, 0, {NULL}};
  cl_mem a8 = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, &f8, &df, px, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_mem af = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &ff, &df, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  k = clCreateKernel(p, "flt", &err);
  CHECK_ERR(err, CL_SUCCESS);
  clSetKernelArg(k, 0, sizeof a8, &a8);
  clSetKernelArg(k, 1, sizeof af, &af);
  size_t gf2[2] = {FW, FH};
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, gf2, NULL, 0, NULL, NULL), CL_SUCCESS);
  size_t fr[3] = {FW, FH, 1};
  CHECK_ERR(clEnqueueReadImage(q, af, CL_TRUE, org, fr, 0, 0, fo, 0, NULL, NULL), CL_SUCCESS);
  bad = 0;
  for (int y = 0; y < FH; y++)
    for (int x = 0; x < FW; x++)
      for (int c = 0; c < 4; c++) {
        float want = px[y][x][3 - c] / 255.0f * 2.0f + (c == 0 ? 0.5f : 0.0f);
        float got = fo[y][x][c];
        bad += !(got > want - 1e-5f && got < want + 1e-5f);
      }
  CHECK(bad == 0, "read_imagef / write_imagef: %d wrong (fo[1][2] = %g %g %g %g)", bad, fo[1][2][0], fo[1][2][1],
        fo[1][2][2], fo[1][2][3]);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(a8);
  clReleaseMemObject(af);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseMemObject(buf);
}

/* ------------------------------------------------------- user events */

/* Sets a user event from another thread, 50 ms later. */
static void *set_later(void *ev)
{
  struct timespec ts = {0, 50 * 1000 * 1000};
  nanosleep(&ts, NULL);
  clSetUserEventStatus((cl_event)ev, CL_COMPLETE);
  return NULL;
}

/* A command waiting for a user event is queued, and runs when the event
 * completes; commands after it in the (in-order) queue wait too. */
static void test_user_events(void)
{
  cl_int err;
  cl_program p = build_src(ids_src, "", &err);
  cl_kernel k = clCreateKernel(p, "ids", &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16 * sizeof(cl_int), NULL, &err);
  cl_int base = 7, zero[16] = {0}, host[16], out[16];
  clEnqueueWriteBuffer(q, bo, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
  clSetKernelArg(k, 0, sizeof bo, &bo);
  clSetKernelArg(k, 1, sizeof base, &base);
  cl_event ue = clCreateUserEvent(ctx, &err);
  CHECK_ERR(err, CL_SUCCESS);
  cl_event ek = NULL, er = NULL, em = NULL;
  size_t g = 16, l = 4;
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, &ue, &ek), CL_SUCCESS);
  /* the argument changes after the enqueue: the launch keeps its own */
  base = 100;
  clSetKernelArg(k, 1, sizeof base, &base);
  for (int i = 0; i < 16; i++)
    host[i] = -1;
  /* a non-blocking read behind it (no wait list: the queue is in order) */
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_FALSE, 0, sizeof host, host, 0, NULL, &er), CL_SUCCESS);
  CHECK_ERR(clEnqueueMarkerWithWaitList(q, 0, NULL, &em), CL_SUCCESS);
  cl_int st = 0;
  clGetEventInfo(ek, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  CHECK(st == CL_QUEUED, "kernel behind a user event: status %d", st);
  clGetEventInfo(er, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  CHECK(st == CL_QUEUED && host[0] == -1, "read behind it: status %d, host[0] %d", st, host[0]);
  /* another queue is not held up */
  cl_command_queue q2 = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK_ERR(clEnqueueReadBuffer(q2, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(out[3] == 0, "second queue read before the event: %d", out[3]);
  cb_count = 0;
  int one = 1;
  CHECK_ERR(clSetEventCallback(ek, CL_COMPLETE, on_done, &one), CL_SUCCESS);
  CHECK(cb_count == 0, "callback before completion");
  /* the event completes: the kernel, the read and the marker run */
  CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_SUCCESS);
  CHECK_ERR(clWaitForEvents(1, &er), CL_SUCCESS);
  clGetEventInfo(em, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  CHECK(st == CL_COMPLETE && cb_count == 1, "after the user event: marker %d, callbacks %d", st, cb_count);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    bad += host[i] != 7 + i * 1000 + 4;
  CHECK(bad == 0, "deferred kernel and read: %d wrong (host[1] = %d)", bad, host[1]);
  CHECK_ERR(clFinish(q), CL_SUCCESS);
  clReleaseEvent(ek);
  clReleaseEvent(er);
  clReleaseEvent(em);
  clReleaseEvent(ue);

  /* a failed user event: its dependents fail without running */
  ue = clCreateUserEvent(ctx, &err);
  cl_int marker = 55;
  CHECK_ERR(clEnqueueFillBuffer(q, bo, &marker, sizeof marker, 0, sizeof marker, 1, &ue, &ek), CL_SUCCESS);
  CHECK_ERR(clSetUserEventStatus(ue, -5), CL_SUCCESS);
  clGetEventInfo(ek, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  CHECK(st == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "dependent of a failed event: %d", st);
  CHECK_ERR(clWaitForEvents(1, &ek), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(out[0] == 7 + 4, "the failed fill did not run: %d", out[0]);
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, 4, out, 1, &ue, NULL), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(ek);
  clReleaseEvent(ue);

  /* waiting for a user event nobody sets: no deadlock, an error after
   * SPIRV_SG_WAIT_TIMEOUT (set small by the test driver) */
  ue = clCreateUserEvent(ctx, &err);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, &ue, &ek), CL_SUCCESS);
  CHECK_ERR(clFinish(q), CL_OUT_OF_RESOURCES);
  CHECK_ERR(clWaitForEvents(1, &ek), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  /* set late, it still runs what waited (the blocking read was taken back) */
  CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_SUCCESS);
  CHECK_ERR(clFinish(q), CL_SUCCESS);
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(out[2] == 100 + 2000 + 4, "late kernel: %d", out[2]);
  CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_INVALID_OPERATION);
  clReleaseEvent(ek);
  clReleaseEvent(ue);

  /* another thread sets the event while this one waits in a blocking read:
   * the read returns with the kernel's results */
  ue = clCreateUserEvent(ctx, &err);
  base = 300;
  clSetKernelArg(k, 1, sizeof base, &base);
  CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 1, &ue, NULL), CL_SUCCESS);
  pthread_t th;
  CHECK(pthread_create(&th, NULL, set_later, ue) == 0, "pthread_create");
  CHECK_ERR(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), CL_SUCCESS);
  pthread_join(th, NULL);
  CHECK(out[5] == 300 + 5000 + 4, "kernel run by the other thread: %d", out[5]);
  CHECK_ERR(clFinish(q), CL_SUCCESS);
  clReleaseEvent(ue);
  clReleaseCommandQueue(q2);
  clReleaseMemObject(bo);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: host_tests REDUCE.spv\n");
    return 2;
  }
  cl_uint np = 0;
  if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np != 1) {
    printf("FAIL: expected exactly one platform, got %u\n", np);
    printf("0 passed, 1 failed\n");
    return 1;
  }
  cl_int err;
  CHECK_ERR(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), CL_SUCCESS);
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK_ERR(err, CL_SUCCESS);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK_ERR(err, CL_SUCCESS);
  test_platform();
  test_vadd();
  test_reduce_il(argv[1]);
  test_reqd();
  test_fault();
  test_build_error();
  test_args();
  test_queues();
  test_link();
  test_images();
  test_user_events();
  CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);
  CHECK_ERR(clReleaseContext(ctx), CL_SUCCESS);
  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
