/* icd.c - the spirv-sg OpenCL ICD: platform, device, context, queue, event
 * and memory objects.  Programs and kernels are in icd_program.c.
 *
 * Arguments are checked first, in the order the OpenCL 3.0 specification
 * lists each entry's errors, and answered with the code it names.  Commands
 * execute synchronously at enqueue time on the calling thread, which makes
 * every queue in-order (an out-of-order queue is accepted and runs in order)
 * and every returned event CL_COMPLETE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "icd.h"

#define EXPORT __attribute__((visibility("default")))

struct _cl_icd_dispatch icd_dispatch;
struct _cl_platform_id icd_platform = {&icd_dispatch, ICD_MAGIC_PLATFORM, 1};
struct _cl_device_id icd_device = {&icd_dispatch, ICD_MAGIC_DEVICE, 1};
pthread_mutex_t icd_lock = PTHREAD_MUTEX_INITIALIZER;

/* ------------------------------------------------------------ environment */

static icd_env env_cache;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static bool env_true(const char *v)
{
  return v && *v && strcmp(v, "0") != 0 && strcasecmp(v, "no") != 0 && strcasecmp(v, "false") != 0;
}

static void read_env(void)
{
  icd_env *e = &env_cache;
  const char *v;
  e->verbose = env_true(getenv("SPIRV_SG_ICD_VERBOSE"));
  if ((v = getenv("SPIRV_SG_BACKEND")) && *v) {
    if (!strcmp(v, "interp"))
      e->backend = SG_BACKEND_INTERP;
    else if (!strcmp(v, "jit"))
      e->backend = SG_BACKEND_JIT;
    else if (!strcmp(v, "auto"))
      e->backend = SG_BACKEND_AUTO;
    else
      fprintf(stderr, "spirv-sg: warning: SPIRV_SG_BACKEND='%s' is not interp, jit or auto; using auto\n", v);
  }
  if ((v = getenv("SPIRV_SG_SUBGROUP_SIZE")) && *v) {
    char *end;
    unsigned long s = strtoul(v, &end, 10);
    if (*end || s < 1 || s > 128)
      fprintf(stderr, "spirv-sg: warning: SPIRV_SG_SUBGROUP_SIZE='%s' is not 1..128; ignored\n", v);
    else
      e->subgroup_size = (uint32_t)s;
  }
  e->threads = 1;
  if ((v = getenv("SPIRV_SG_THREADS")) && *v) {
    char *end;
    unsigned long t = strtoul(v, &end, 10);
    if (*end || t < 1 || t > 1024)
      fprintf(stderr, "spirv-sg: warning: SPIRV_SG_THREADS='%s' is not 1..1024; ignored\n", v);
    else
      e->threads = (uint32_t)t;
  }
  if ((v = getenv("SPIRV_SG_UB")) && *v) {
    if (!strcmp(v, "warn"))
      e->ub = SG_UB_WARN;
    else if (!strcmp(v, "error"))
      e->ub = SG_UB_ERROR;
    else if (!strcmp(v, "ignore"))
      e->ub = SG_UB_IGNORE;
    else
      fprintf(stderr, "spirv-sg: warning: SPIRV_SG_UB='%s' is not warn, error or ignore; using warn\n", v);
  }
  e->stop_on_fault = env_true(getenv("SPIRV_SG_STOP_ON_FAULT"));
  e->wait_timeout = 10;
  if ((v = getenv("SPIRV_SG_WAIT_TIMEOUT")) && *v) {
    char *end;
    double t = strtod(v, &end);
    if (*end || !(t >= 0 && t <= 1e6))
      fprintf(stderr, "spirv-sg: warning: SPIRV_SG_WAIT_TIMEOUT='%s' is not 0..1000000 seconds; ignored\n", v);
    else
      e->wait_timeout = t;
  }
}

const icd_env *icd_getenv(void)
{
  pthread_once(&env_once, read_env);
  return &env_cache;
}

void icd_unimplemented(const char *name)
{
  if (icd_getenv()->verbose)
    fprintf(stderr, "spirv-sg: %s is not implemented (CL_INVALID_OPERATION)\n", name);
}

/* ---------------------------------------------------------------- helpers */

cl_int icd_put(size_t size, void *value, size_t *size_ret, const void *src, size_t n)
{
  if (value) {
    if (size < n)
      return CL_INVALID_VALUE;
    memcpy(value, src, n);
  }
  if (size_ret)
    *size_ret = n;
  return CL_SUCCESS;
}

cl_ulong icd_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

#define SET_ERR(e) do { if (errcode_ret) *errcode_ret = (e); } while (0)

static void retain(int *refs) { __atomic_add_fetch(refs, 1, __ATOMIC_ACQ_REL); }
static bool release(int *refs) { return __atomic_sub_fetch(refs, 1, __ATOMIC_ACQ_REL) == 0; }

static void run_callbacks(icd_callback *cb, void *obj)
{
  /* destructor callbacks run in reverse order of registration (LIFO): the
   * list is kept newest first */
  for (; cb; cb = cb->next)
    ((void (CL_CALLBACK *)(void *, void *))cb->fn)(obj, cb->user);
}

static void free_callbacks(icd_callback *cb)
{
  while (cb) {
    icd_callback *n = cb->next;
    free(cb);
    cb = n;
  }
}

/* --------------------------------------------------------------- platform */

#define PLATFORM_NAME "spirv-sg"
#define ICD_SUFFIX "SG"

/* What the loader and the interpreter implement (docs/semantics.md): the
 * cl_khr_subgroup_* family, the Intel subgroup extensions (block I/O for
 * 8/16/32/64-bit), required subgroup sizes 1..128, SPIR-V 1.0-1.6 input. */
static const char *const extensions[] = {
  "cl_khr_icd", "cl_khr_byte_addressable_store", "cl_khr_global_int32_base_atomics",
  "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics",
  "cl_khr_local_int32_extended_atomics", "cl_khr_int64_base_atomics",
  "cl_khr_int64_extended_atomics", "cl_khr_fp64", "cl_khr_il_program",
  "cl_khr_subgroups", "cl_khr_subgroup_extended_types",
  "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
  "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle",
  "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_clustered_reduce",
  "cl_khr_subgroup_rotate", "cl_intel_subgroups", "cl_intel_subgroups_short",
  "cl_intel_subgroups_char", "cl_intel_subgroups_long",
  "cl_intel_required_subgroup_size",
};
#define N_EXT (sizeof extensions / sizeof extensions[0])
static const size_t sub_group_sizes[] = {1, 2, 4, 8, 16, 32, 64, 128};

static const char *ext_string(void)
{
  static char buf[1024];
  if (!buf[0])
    for (size_t i = 0; i < N_EXT; i++) {
      strcat(buf, extensions[i]);
      strcat(buf, " ");
    }
  return buf;
}

static cl_int ext_with_version(size_t size, void *value, size_t *size_ret)
{
  cl_name_version nv[N_EXT];
  memset(nv, 0, sizeof nv);
  for (size_t i = 0; i < N_EXT; i++) {
    nv[i].version = CL_MAKE_VERSION(1, 0, 0);
    snprintf(nv[i].name, sizeof nv[i].name, "%s", extensions[i]);
  }
  return icd_put(size, value, size_ret, nv, sizeof nv);
}

static cl_int CL_API_CALL icd_GetPlatformIDs(cl_uint n, cl_platform_id *out, cl_uint *n_out)
{
  if ((n == 0 && out) || (!out && !n_out))
    return CL_INVALID_VALUE;
  if (out)
    out[0] = &icd_platform;
  if (n_out)
    *n_out = 1;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetPlatformInfo(cl_platform_id p, cl_platform_info param,
                                              size_t size, void *value, size_t *size_ret)
{
  if (p && p != &icd_platform)
    return CL_INVALID_PLATFORM;
  switch (param) {
  case CL_PLATFORM_PROFILE: ICD_PUT_STR("FULL_PROFILE");
  case CL_PLATFORM_VERSION: ICD_PUT_STR("OpenCL 3.0 spirv-sg " SG_VERSION_STRING);
  case CL_PLATFORM_NUMERIC_VERSION: ICD_PUT(cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_PLATFORM_NAME: ICD_PUT_STR(PLATFORM_NAME);
  case CL_PLATFORM_VENDOR: ICD_PUT_STR("spirv-sg project");
  case CL_PLATFORM_EXTENSIONS: ICD_PUT_STR(ext_string());
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION: return ext_with_version(size, value, size_ret);
  case CL_PLATFORM_HOST_TIMER_RESOLUTION: ICD_PUT(cl_ulong, 0);
  case CL_PLATFORM_ICD_SUFFIX_KHR: ICD_PUT_STR(ICD_SUFFIX);
  default: return CL_INVALID_VALUE;
  }
}

/* ----------------------------------------------------------------- device */

static cl_int CL_API_CALL icd_GetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n,
                                           cl_device_id *out, cl_uint *n_out)
{
  if (p && p != &icd_platform)
    return CL_INVALID_PLATFORM;
  const cl_device_type all = CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                             CL_DEVICE_TYPE_CUSTOM | CL_DEVICE_TYPE_DEFAULT;
  if (type != CL_DEVICE_TYPE_ALL && (type & ~all))
    return CL_INVALID_DEVICE_TYPE;
  if ((n == 0 && out) || (!out && !n_out))
    return CL_INVALID_VALUE;
  if (type != CL_DEVICE_TYPE_ALL && !(type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)))
    return CL_DEVICE_NOT_FOUND;
  if (out)
    out[0] = &icd_device;
  if (n_out)
    *n_out = 1;
  return CL_SUCCESS;
}

static uint32_t device_sg_size(void)
{
  uint32_t s = icd_getenv()->subgroup_size;
  return s ? s : SG_DEFAULT_SUBGROUP_SIZE;
}

static cl_int CL_API_CALL icd_GetDeviceInfo(cl_device_id d, cl_device_info param, size_t size,
                                            void *value, size_t *size_ret)
{
  if (d != &icd_device)
    return CL_INVALID_DEVICE;
  const cl_ulong mem = 1ull << 32;
  switch (param) {
  case CL_DEVICE_TYPE: ICD_PUT(cl_device_type, CL_DEVICE_TYPE_CPU);
  case CL_DEVICE_VENDOR_ID: ICD_PUT(cl_uint, 0);
  case CL_DEVICE_MAX_COMPUTE_UNITS: ICD_PUT(cl_uint, icd_getenv()->threads);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: ICD_PUT(cl_uint, 3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t s[3] = {SG_DEVICE_MAX_WORK_GROUP_SIZE, SG_DEVICE_MAX_WORK_GROUP_SIZE, SG_DEVICE_MAX_WORK_GROUP_SIZE};
    return icd_put(size, value, size_ret, s, sizeof s);
  }
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: ICD_PUT(size_t, SG_DEVICE_MAX_WORK_GROUP_SIZE);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    ICD_PUT(cl_uint, 1);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    ICD_PUT(cl_uint, 0);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY: ICD_PUT(cl_uint, 1);
  case CL_DEVICE_ADDRESS_BITS: ICD_PUT(cl_uint, 64);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: ICD_PUT(cl_ulong, mem / 4);
  case CL_DEVICE_IMAGE_SUPPORT: case CL_DEVICE_MAX_READ_IMAGE_ARGS: case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: case CL_DEVICE_MAX_SAMPLERS:
  case CL_DEVICE_IMAGE2D_MAX_WIDTH: case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_WIDTH: case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH: case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return icd_image_device_info(param, size, value, size_ret);
  case CL_DEVICE_MAX_PARAMETER_SIZE: ICD_PUT(size_t, 1024);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN: ICD_PUT(cl_uint, 1024);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: ICD_PUT(cl_uint, 128);
  case CL_DEVICE_SINGLE_FP_CONFIG:
    ICD_PUT(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                 CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA |
                                 CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    ICD_PUT(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                 CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA);
  case CL_DEVICE_HALF_FP_CONFIG: ICD_PUT(cl_device_fp_config, 0);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: ICD_PUT(cl_device_mem_cache_type, CL_NONE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: ICD_PUT(cl_uint, 64);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: ICD_PUT(cl_ulong, 0);
  case CL_DEVICE_GLOBAL_MEM_SIZE: ICD_PUT(cl_ulong, mem);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: ICD_PUT(cl_ulong, 64 * 1024);
  case CL_DEVICE_MAX_CONSTANT_ARGS: ICD_PUT(cl_uint, 8);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: ICD_PUT(size_t, 64 * 1024);
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: ICD_PUT(size_t, 0);
  case CL_DEVICE_LOCAL_MEM_TYPE: ICD_PUT(cl_device_local_mem_type, CL_GLOBAL);
  case CL_DEVICE_LOCAL_MEM_SIZE: ICD_PUT(cl_ulong, 64 * 1024);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT: ICD_PUT(cl_bool, CL_FALSE);
  case CL_DEVICE_HOST_UNIFIED_MEMORY: ICD_PUT(cl_bool, CL_TRUE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION: ICD_PUT(size_t, 1);
  case CL_DEVICE_ENDIAN_LITTLE: ICD_PUT(cl_bool, CL_TRUE);
  case CL_DEVICE_AVAILABLE: case CL_DEVICE_COMPILER_AVAILABLE: case CL_DEVICE_LINKER_AVAILABLE:
    ICD_PUT(cl_bool, CL_TRUE);
  case CL_DEVICE_EXECUTION_CAPABILITIES: ICD_PUT(cl_device_exec_capabilities, CL_EXEC_KERNEL);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    ICD_PUT(cl_command_queue_properties, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: ICD_PUT(cl_command_queue_properties, 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE: case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES: case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
  case CL_DEVICE_MAX_PIPE_ARGS: case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT: case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    ICD_PUT(cl_uint, 0);
  case CL_DEVICE_BUILT_IN_KERNELS: ICD_PUT_STR("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return icd_put(size, value, size_ret, NULL, 0);
  case CL_DEVICE_PLATFORM: ICD_PUT(cl_platform_id, &icd_platform);
  case CL_DEVICE_NAME: ICD_PUT_STR("spirv-sg subgroup interpreter and JIT");
  case CL_DEVICE_VENDOR: ICD_PUT_STR("spirv-sg project");
  case CL_DRIVER_VERSION: ICD_PUT_STR(SG_VERSION_STRING);
  case CL_DEVICE_PROFILE: ICD_PUT_STR("FULL_PROFILE");
  case CL_DEVICE_VERSION: ICD_PUT_STR("OpenCL 3.0 spirv-sg");
  case CL_DEVICE_NUMERIC_VERSION: ICD_PUT(cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION: ICD_PUT_STR("OpenCL C 1.2 spirv-sg");
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
    cl_name_version nv[4] = {{CL_MAKE_VERSION(1, 0, 0), "OpenCL C"}, {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
                             {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"}, {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}};
    return icd_put(size, value, size_ret, nv, sizeof nv);
  }
  case CL_DEVICE_OPENCL_C_FEATURES: {
    static const char *const f[] = {"__opencl_c_subgroups", "__opencl_c_int64", "__opencl_c_fp64",
                                    "__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_scope_device"};
    cl_name_version nv[5];
    memset(nv, 0, sizeof nv);
    for (int i = 0; i < 5; i++) {
      nv[i].version = CL_MAKE_VERSION(3, 0, 0);
      snprintf(nv[i].name, sizeof nv[i].name, "%s", f[i]);
    }
    return icd_put(size, value, size_ret, nv, sizeof nv);
  }
  case CL_DEVICE_EXTENSIONS: ICD_PUT_STR(ext_string());
  case CL_DEVICE_EXTENSIONS_WITH_VERSION: return ext_with_version(size, value, size_ret);
  case CL_DEVICE_IL_VERSION: ICD_PUT_STR("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5 SPIR-V_1.6");
  case CL_DEVICE_ILS_WITH_VERSION: {
    cl_name_version nv[7];
    memset(nv, 0, sizeof nv);
    for (int i = 0; i < 7; i++) {
      nv[i].version = CL_MAKE_VERSION(1, (cl_uint)i, 0);
      snprintf(nv[i].name, sizeof nv[i].name, "SPIR-V");
    }
    return icd_put(size, value, size_ret, nv, sizeof nv);
  }
  case CL_DEVICE_PRINTF_BUFFER_SIZE: ICD_PUT(size_t, 1024 * 1024);
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: ICD_PUT(cl_bool, CL_TRUE);
  case CL_DEVICE_PARENT_DEVICE: ICD_PUT(cl_device_id, NULL);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: ICD_PUT(cl_uint, 0);
  case CL_DEVICE_PARTITION_PROPERTIES: case CL_DEVICE_PARTITION_TYPE:
    return icd_put(size, value, size_ret, NULL, 0);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: ICD_PUT(cl_device_affinity_domain, 0);
  case CL_DEVICE_REFERENCE_COUNT: ICD_PUT(cl_uint, 1);
  case CL_DEVICE_SVM_CAPABILITIES: ICD_PUT(cl_device_svm_capabilities, 0);
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    ICD_PUT(cl_uint, SG_DEVICE_MAX_WORK_GROUP_SIZE / sub_group_sizes[0]);
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: ICD_PUT(cl_bool, CL_FALSE);
  case CL_DEVICE_SUB_GROUP_SIZES_INTEL:
    return icd_put(size, value, size_ret, sub_group_sizes, sizeof sub_group_sizes);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    ICD_PUT(cl_device_atomic_capabilities, CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                           CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: ICD_PUT(cl_bool, CL_TRUE);
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: ICD_PUT(cl_bool, CL_FALSE);
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: ICD_PUT(cl_bool, CL_FALSE);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: ICD_PUT(cl_device_device_enqueue_capabilities, 0);
  case CL_DEVICE_PIPE_SUPPORT: ICD_PUT(cl_bool, CL_FALSE);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: ICD_PUT(size_t, device_sg_size());
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: ICD_PUT_STR("v0000-01-01-00");
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL icd_RetainDevice(cl_device_id d)
{
  return d == &icd_device ? CL_SUCCESS : CL_INVALID_DEVICE;
}

static cl_int CL_API_CALL icd_CreateSubDevices(cl_device_id d, const cl_device_partition_property *p,
                                               cl_uint n, cl_device_id *out, cl_uint *n_out)
{
  (void)p;
  (void)n;
  (void)out;
  (void)n_out;
  return d == &icd_device ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}

/* ---------------------------------------------------------------- context */

static cl_int check_context_props(const cl_context_properties *props, size_t *n)
{
  *n = 0;
  if (!props)
    return CL_SUCCESS;
  size_t i = 0;
  bool seen_platform = false;
  for (; props[i]; i += 2) {
    if (props[i] == CL_CONTEXT_PLATFORM) {
      if (seen_platform)
        return CL_INVALID_PROPERTY;
      seen_platform = true;
      if ((cl_platform_id)props[i + 1] != &icd_platform)
        return CL_INVALID_PLATFORM;
    } else if (props[i] == CL_CONTEXT_INTEROP_USER_SYNC) {
    } else {
      return CL_INVALID_PROPERTY;
    }
    if (i + 2 >= 8)
      return CL_INVALID_PROPERTY;
  }
  *n = i + 1;
  return CL_SUCCESS;
}

static cl_context new_context(const cl_context_properties *props, size_t n_props,
                              void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                              void *user, cl_int *errcode_ret)
{
  cl_context c = calloc(1, sizeof *c);
  if (!c) {
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  c->dispatch = &icd_dispatch;
  c->magic = ICD_MAGIC_CONTEXT;
  c->refs = 1;
  if (n_props)
    memcpy(c->props, props, n_props * sizeof *props);
  c->n_props = n_props;
  c->notify = notify;
  c->notify_user = user;
  SET_ERR(CL_SUCCESS);
  return c;
}

static cl_context CL_API_CALL icd_CreateContext(const cl_context_properties *props, cl_uint n_dev,
                                                const cl_device_id *devs,
                                                void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                                void *user, cl_int *errcode_ret)
{
  size_t np;
  cl_int e = check_context_props(props, &np);
  if (e != CL_SUCCESS) {
    SET_ERR(e);
    return NULL;
  }
  if (!devs || n_dev == 0 || (!notify && user)) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  for (cl_uint i = 0; i < n_dev; i++)
    if (devs[i] != &icd_device) {
      SET_ERR(CL_INVALID_DEVICE);
      return NULL;
    }
  return new_context(props, np, notify, user, errcode_ret);
}

static cl_context CL_API_CALL icd_CreateContextFromType(const cl_context_properties *props, cl_device_type type,
                                                        void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                                        void *user, cl_int *errcode_ret)
{
  size_t np;
  cl_int e = check_context_props(props, &np);
  if (e == CL_SUCCESS && !notify && user)
    e = CL_INVALID_VALUE;
  if (e == CL_SUCCESS) {
    cl_uint n = 0;
    e = icd_GetDeviceIDs(&icd_platform, type, 0, NULL, &n);
  }
  if (e != CL_SUCCESS) {
    SET_ERR(e);
    return NULL;
  }
  return new_context(props, np, notify, user, errcode_ret);
}

static cl_int CL_API_CALL icd_RetainContext(cl_context c)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT))
    return CL_INVALID_CONTEXT;
  retain(&c->refs);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_ReleaseContext(cl_context c)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT))
    return CL_INVALID_CONTEXT;
  if (release(&c->refs)) {
    run_callbacks(c->destructors, c);
    free_callbacks(c->destructors);
    c->magic = 0;
    free(c);
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetContextInfo(cl_context c, cl_context_info param, size_t size,
                                             void *value, size_t *size_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT))
    return CL_INVALID_CONTEXT;
  switch (param) {
  case CL_CONTEXT_REFERENCE_COUNT: ICD_PUT(cl_uint, c->refs);
  case CL_CONTEXT_NUM_DEVICES: ICD_PUT(cl_uint, 1);
  case CL_CONTEXT_DEVICES: ICD_PUT(cl_device_id, &icd_device);
  case CL_CONTEXT_PROPERTIES: return icd_put(size, value, size_ret, c->props, c->n_props * sizeof c->props[0]);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL icd_SetContextDestructorCallback(cl_context c, void (CL_CALLBACK *fn)(cl_context, void *),
                                                          void *user)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT))
    return CL_INVALID_CONTEXT;
  if (!fn)
    return CL_INVALID_VALUE;
  icd_callback *cb = calloc(1, sizeof *cb);
  if (!cb)
    return CL_OUT_OF_HOST_MEMORY;
  cb->fn = (void (CL_CALLBACK *)())fn;
  cb->user = user;
  cb->next = c->destructors;
  c->destructors = cb;
  return CL_SUCCESS;
}

/* ------------------------------------------------------------------ queue */

static cl_command_queue new_queue(cl_context c, cl_device_id d, cl_command_queue_properties props,
                                  const cl_queue_properties *arr, size_t n_arr, cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  if (d != &icd_device) {
    SET_ERR(CL_INVALID_DEVICE);
    return NULL;
  }
  if (props & ~(cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
                                             CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  if (props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
    SET_ERR(CL_INVALID_QUEUE_PROPERTIES);
    return NULL;
  }
  cl_command_queue q = calloc(1, sizeof *q);
  if (!q) {
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  q->dispatch = &icd_dispatch;
  q->magic = ICD_MAGIC_QUEUE;
  q->refs = 1;
  q->ctx = c;
  q->props = props;
  if (n_arr)
    memcpy(q->props_array, arr, n_arr * sizeof *arr);
  q->n_props_array = n_arr;
  retain(&c->refs);
  SET_ERR(CL_SUCCESS);
  return q;
}

static cl_command_queue CL_API_CALL icd_CreateCommandQueue(cl_context c, cl_device_id d,
                                                           cl_command_queue_properties props, cl_int *errcode_ret)
{
  return new_queue(c, d, props, NULL, 0, errcode_ret);
}

static cl_command_queue CL_API_CALL icd_CreateCommandQueueWithProperties(cl_context c, cl_device_id d,
                                                                         const cl_queue_properties *props,
                                                                         cl_int *errcode_ret)
{
  cl_command_queue_properties p = 0;
  size_t i = 0;
  if (props) {
    for (; props[i]; i += 2) {
      if (props[i] == CL_QUEUE_PROPERTIES)
        p = (cl_command_queue_properties)props[i + 1];
      else if (props[i] == CL_QUEUE_SIZE) {
        SET_ERR(CL_INVALID_QUEUE_PROPERTIES);  /* on-device queues only */
        return NULL;
      } else {
        SET_ERR(CL_INVALID_VALUE);
        return NULL;
      }
      if (i + 2 >= 8) {
        SET_ERR(CL_INVALID_VALUE);
        return NULL;
      }
    }
    i++;
  }
  return new_queue(c, d, p, props, i, errcode_ret);
}

static cl_int CL_API_CALL icd_RetainCommandQueue(cl_command_queue q)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  retain(&q->refs);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_ReleaseCommandQueue(cl_command_queue q)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (release(&q->refs)) {
    cl_context c = q->ctx;
    q->magic = 0;
    free(q);
    icd_ReleaseContext(c);
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param, size_t size,
                                                  void *value, size_t *size_ret)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  switch (param) {
  case CL_QUEUE_CONTEXT: ICD_PUT(cl_context, q->ctx);
  case CL_QUEUE_DEVICE: ICD_PUT(cl_device_id, &icd_device);
  case CL_QUEUE_REFERENCE_COUNT: ICD_PUT(cl_uint, q->refs);
  case CL_QUEUE_PROPERTIES: ICD_PUT(cl_command_queue_properties, q->props);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return icd_put(size, value, size_ret, q->props_array, q->n_props_array * sizeof q->props_array[0]);
  case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;
  case CL_QUEUE_DEVICE_DEFAULT: ICD_PUT(cl_command_queue, NULL);
  default: return CL_INVALID_VALUE;
  }
}

/* Commands ran when enqueued: flush and finish have nothing left to do. */
static cl_int CL_API_CALL icd_Flush(cl_command_queue q)
{
  return ICD_VALID(q, ICD_MAGIC_QUEUE) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

/* ----------------------------------------------------------------- events */

static cl_event new_event(cl_context ctx, cl_command_queue q, cl_command_type type)
{
  cl_event e = calloc(1, sizeof *e);
  if (!e)
    return NULL;
  e->dispatch = &icd_dispatch;
  e->magic = ICD_MAGIC_EVENT;
  e->refs = 1;
  e->ctx = ctx;
  e->queue = q;
  e->type = type;
  retain(&ctx->refs);
  if (q)
    retain(&q->refs);
  return e;
}

cl_int icd_check_wait_list(cl_command_queue q, cl_uint n, const cl_event *list)
{
  if ((n > 0) != (list != NULL))
    return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; i++) {
    if (!ICD_VALID(list[i], ICD_MAGIC_EVENT))
      return CL_INVALID_EVENT_WAIT_LIST;
    if (q && list[i]->ctx != q->ctx)
      return CL_INVALID_CONTEXT;
    /* an incomplete event (a user event, or a command deferred behind
     * one) is waited for: icd_submit defers the command */
    if (__atomic_load_n(&list[i]->status, __ATOMIC_ACQUIRE) < 0)
      return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return CL_SUCCESS;
}

static void fire_callbacks(cl_event e)
{
  for (icd_callback *cb = e->callbacks; cb; cb = cb->next)
    if (cb->type >= e->status || e->status < 0)
      if (cb->fn) {
        void (CL_CALLBACK *fn)(cl_event, cl_int, void *) = (void (CL_CALLBACK *)(cl_event, cl_int, void *))cb->fn;
        cb->fn = NULL;
        fn(e, e->status, cb->user);
      }
}

cl_int icd_event_done(cl_command_queue q, cl_command_type type, cl_ulong t_queued, cl_ulong t_start,
                      cl_event *out)
{
  if (!out)
    return CL_SUCCESS;
  cl_event e = new_event(q->ctx, q, type);
  if (!e)
    return CL_OUT_OF_HOST_MEMORY;
  e->status = CL_COMPLETE;
  e->t_queued = t_queued;
  e->t_submit = t_start;
  e->t_start = t_start;
  e->t_end = icd_now_ns();
  *out = e;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_ReleaseEvent(cl_event e);
static cl_int CL_API_CALL icd_ReleaseMemObject(cl_mem m);

/* --------------------------------------------------- deferred commands
 * A command whose wait list holds an incomplete event (a user event, or a
 * command deferred behind one), or whose queue already holds deferred
 * commands, is not run at enqueue time: it joins one list, in enqueue order,
 * with its event CL_QUEUED.  When an event completes (clSetUserEventStatus,
 * or a deferred command finishing) the list is drained on that thread: each
 * command whose wait list is complete and which is the first of its queue
 * runs; one whose wait list holds a failed event fails with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST without running.
 *
 * Waiting (clFinish, clWaitForEvents, a blocking command) for a command that
 * waits on a user event can only end when another thread sets the event.  A
 * single-threaded program that waits first would deadlock on any OpenCL
 * platform; here the wait gives up after SPIRV_SG_WAIT_TIMEOUT seconds
 * (docs/icd.md) with a message on stderr and an error code. */

typedef struct icd_cmd {
  struct icd_cmd *next;
  cl_command_queue q;
  cl_event ev;                  /* the command's event (one reference) */
  cl_event *wait;               /* retained */
  cl_uint n_wait;
  cl_mem *mems;                 /* retained */
  unsigned n_mems;
  icd_run_fn run;
  void (*release)(void *);
  void *payload;
  bool running;
} icd_cmd;

static pthread_mutex_t pend_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pend_cond;
static pthread_once_t pend_once = PTHREAD_ONCE_INIT;
static icd_cmd *pend_head;
static unsigned pend_running;   /* deferred commands running now */
static unsigned long pend_progress;  /* deferred commands started or ended so far */

static void pend_init(void)
{
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&pend_cond, &a);
  pthread_condattr_destroy(&a);
}

static cl_int ev_status(cl_event e) { return __atomic_load_n(&e->status, __ATOMIC_ACQUIRE); }
static void ev_set_status(cl_event e, cl_int s) { __atomic_store_n(&e->status, s, __ATOMIC_RELEASE); }

/* Does q hold a deferred command? (pend_lock held) */
static bool queue_busy(cl_command_queue q)
{
  for (icd_cmd *c = pend_head; c; c = c->next)
    if (c->q == q)
      return true;
  return false;
}

static void unlink_cmd(icd_cmd *c)
{
  for (icd_cmd **p = &pend_head; *p; p = &(*p)->next)
    if (*p == c) {
      *p = c->next;
      return;
    }
}

/* Drops what a finished (run, failed or cancelled) command holds; its event
 * has its final status.  Called without pend_lock: releases and callbacks
 * may re-enter the API. */
static void finish_cmd(icd_cmd *c)
{
  fire_callbacks(c->ev);
  if (c->release)
    c->release(c->payload);
  free(c->payload);
  for (cl_uint i = 0; i < c->n_wait; i++)
    icd_ReleaseEvent(c->wait[i]);
  for (unsigned i = 0; i < c->n_mems; i++)
    icd_ReleaseMemObject(c->mems[i]);
  free(c->wait);
  free(c->mems);
  icd_ReleaseEvent(c->ev);
  free(c);
}

/* Runs every deferred command that can run now, in order. */
static void drain(void)
{
  pthread_once(&pend_once, pend_init);
  pthread_mutex_lock(&pend_lock);
  for (;;) {
    icd_cmd *pick = NULL;
    bool failed = false;   /* the picked command's wait list holds a failed event */
    for (icd_cmd *c = pend_head; c && !pick; c = c->next) {
      if (c->running)
        continue;
      bool first = true;
      for (icd_cmd *d = pend_head; d != c; d = d->next)
        first &= d->q != c->q;
      if (!first)
        continue;
      bool ready = true;
      failed = false;
      for (cl_uint i = 0; i < c->n_wait; i++) {
        cl_int s = ev_status(c->wait[i]);
        failed |= s < 0;
        ready &= s <= 0;
      }
      if (failed || ready)
        pick = c;
    }
    if (!pick)
      break;
    if (failed) {
      unlink_cmd(pick);
      ev_set_status(pick->ev, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } else {
      pick->running = true;
      pend_running++;
      pend_progress++;
      pick->ev->t_submit = pick->ev->t_start = icd_now_ns();
      ev_set_status(pick->ev, CL_RUNNING);
      pthread_mutex_unlock(&pend_lock);
      cl_int r = pick->run(pick->payload);
      pthread_mutex_lock(&pend_lock);
      unlink_cmd(pick);
      pend_running--;
      pend_progress++;
      pick->ev->t_end = icd_now_ns();
      ev_set_status(pick->ev, r == CL_SUCCESS ? CL_COMPLETE : r < 0 ? r : CL_OUT_OF_RESOURCES);
    }
    pthread_cond_broadcast(&pend_cond);
    pthread_mutex_unlock(&pend_lock);
    finish_cmd(pick);
    pthread_mutex_lock(&pend_lock);
  }
  pthread_mutex_unlock(&pend_lock);
}

static double wait_timeout(void)
{
  return icd_getenv()->wait_timeout;
}

static struct timespec deadline_in(double s)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  cl_ulong ns = (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec + (cl_ulong)(s * 1e9);
  ts.tv_sec = (time_t)(ns / 1000000000u);
  ts.tv_nsec = (long)(ns % 1000000000u);
  return ts;
}

/* Waits on pend_cond until *dl; false once it has passed with no deferred
 * command run meanwhile: the deadline starts again while deferred commands
 * run or have run (a long kernel is not a deadlock).  (pend_lock held) */
static bool wait_until(struct timespec *dl, unsigned long *seen)
{
  if (pthread_cond_timedwait(&pend_cond, &pend_lock, dl) == 0 ||
      icd_now_ns() < (cl_ulong)dl->tv_sec * 1000000000u + (cl_ulong)dl->tv_nsec)
    return true;
  if (pend_running || pend_progress != *seen) {
    *seen = pend_progress;
    *dl = deadline_in(wait_timeout());
    return true;
  }
  return false;
}

static void report_timeout(const char *what)
{
  fprintf(stderr, "spirv-sg: %s waits for a command that waits for a user event no thread completed in %g s "
                  "(SPIRV_SG_WAIT_TIMEOUT): giving up\n", what, wait_timeout());
}

cl_int icd_submit(cl_command_queue q, cl_command_type type, cl_uint nw, const cl_event *wl, cl_event *out,
                  cl_bool blocking, icd_run_fn run, const void *payload, size_t payload_size,
                  void (*release)(void *), cl_mem *mems, unsigned n_mems)
{
  pthread_once(&pend_once, pend_init);
  cl_ulong t = icd_now_ns();
  pthread_mutex_lock(&pend_lock);
  bool defer = queue_busy(q);
  for (cl_uint i = 0; i < nw && !defer; i++)
    defer = ev_status(wl[i]) > 0;
  if (!defer) {
    pthread_mutex_unlock(&pend_lock);
    cl_int r = run((void *)payload);
    if (release)
      release((void *)payload);
    if (r != CL_SUCCESS)
      return r;
    return icd_event_done(q, type, t, t, out);
  }
  icd_cmd *c = calloc(1, sizeof *c);
  cl_event e = new_event(q->ctx, q, type);
  void *p = malloc(payload_size ? payload_size : 1);
  cl_event *w = calloc(nw ? nw : 1, sizeof *w);
  cl_mem *ms = calloc(n_mems ? n_mems : 1, sizeof *ms);
  if (!c || !e || !p || !w || !ms) {
    pthread_mutex_unlock(&pend_lock);
    free(c);
    free(p);
    free(w);
    free(ms);
    if (e)
      icd_ReleaseEvent(e);
    if (release)
      release((void *)payload);
    return CL_OUT_OF_HOST_MEMORY;
  }
  if (payload_size)
    memcpy(p, payload, payload_size);
  e->status = CL_QUEUED;
  e->t_queued = t;
  for (cl_uint i = 0; i < nw; i++) {
    w[i] = wl[i];
    retain(&w[i]->refs);
  }
  for (unsigned i = 0; i < n_mems; i++) {
    ms[i] = mems[i];
    retain(&ms[i]->refs);
  }
  *c = (icd_cmd){NULL, q, e, w, nw, ms, n_mems, run, release, p, false};
  icd_cmd **tail = &pend_head;
  while (*tail)
    tail = &(*tail)->next;
  *tail = c;
  if (out) {
    retain(&e->refs);
    *out = e;
  }
  if (!blocking) {
    pthread_mutex_unlock(&pend_lock);
    return CL_SUCCESS;
  }
  /* a blocking command: wait for it; a command still queued at the
   * deadline is taken back (it must not touch the caller's memory later) */
  retain(&e->refs);
  struct timespec dl = deadline_in(wait_timeout());
  unsigned long seen = pend_progress;
  while (ev_status(e) > 0) {
    if (!wait_until(&dl, &seen) && ev_status(e) > 0 && !c->running) {
      unlink_cmd(c);
      ev_set_status(e, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      pthread_cond_broadcast(&pend_cond);
      pthread_mutex_unlock(&pend_lock);
      report_timeout("a blocking command");
      finish_cmd(c);
      icd_ReleaseEvent(e);
      return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
  }
  cl_int s = ev_status(e);
  pthread_mutex_unlock(&pend_lock);
  icd_ReleaseEvent(e);
  return s == CL_COMPLETE ? CL_SUCCESS : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
}

static cl_int CL_API_CALL icd_Finish(cl_command_queue q)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  pthread_once(&pend_once, pend_init);
  drain();
  pthread_mutex_lock(&pend_lock);
  struct timespec dl = deadline_in(wait_timeout());
  unsigned long seen = pend_progress;
  bool ok = true;
  while (ok && queue_busy(q))
    ok = wait_until(&dl, &seen) || !queue_busy(q);
  pthread_mutex_unlock(&pend_lock);
  if (!ok) {
    report_timeout("clFinish");
    return CL_OUT_OF_RESOURCES;
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_WaitForEvents(cl_uint n, const cl_event *list)
{
  if (n == 0 || !list)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++)
    if (!ICD_VALID(list[i], ICD_MAGIC_EVENT))
      return CL_INVALID_EVENT;
  for (cl_uint i = 1; i < n; i++)
    if (list[i]->ctx != list[0]->ctx)
      return CL_INVALID_CONTEXT;
  pthread_once(&pend_once, pend_init);
  drain();
  pthread_mutex_lock(&pend_lock);
  struct timespec dl = deadline_in(wait_timeout());
  unsigned long seen = pend_progress;
  cl_int err = CL_SUCCESS;
  for (cl_uint i = 0; i < n && err == CL_SUCCESS; i++) {
    while (ev_status(list[i]) > 0)
      if (!wait_until(&dl, &seen) && ev_status(list[i]) > 0) {
        pthread_mutex_unlock(&pend_lock);
        report_timeout("clWaitForEvents");
        return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
      }
    if (ev_status(list[i]) < 0)
      err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  pthread_mutex_unlock(&pend_lock);
  return err;
}

static cl_int CL_API_CALL icd_GetEventInfo(cl_event e, cl_event_info param, size_t size, void *value,
                                           size_t *size_ret)
{
  if (!ICD_VALID(e, ICD_MAGIC_EVENT))
    return CL_INVALID_EVENT;
  switch (param) {
  case CL_EVENT_COMMAND_QUEUE: ICD_PUT(cl_command_queue, e->queue);
  case CL_EVENT_CONTEXT: ICD_PUT(cl_context, e->ctx);
  case CL_EVENT_COMMAND_TYPE: ICD_PUT(cl_command_type, e->type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: ICD_PUT(cl_int, ev_status(e));
  case CL_EVENT_REFERENCE_COUNT: ICD_PUT(cl_uint, e->refs);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL icd_GetEventProfilingInfo(cl_event e, cl_profiling_info param, size_t size,
                                                    void *value, size_t *size_ret)
{
  if (!ICD_VALID(e, ICD_MAGIC_EVENT))
    return CL_INVALID_EVENT;
  if (!e->queue || !(e->queue->props & CL_QUEUE_PROFILING_ENABLE) || e->status != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (param) {
  case CL_PROFILING_COMMAND_QUEUED: ICD_PUT(cl_ulong, e->t_queued);
  case CL_PROFILING_COMMAND_SUBMIT: ICD_PUT(cl_ulong, e->t_submit);
  case CL_PROFILING_COMMAND_START: ICD_PUT(cl_ulong, e->t_start);
  case CL_PROFILING_COMMAND_END: case CL_PROFILING_COMMAND_COMPLETE: ICD_PUT(cl_ulong, e->t_end);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL icd_RetainEvent(cl_event e)
{
  if (!ICD_VALID(e, ICD_MAGIC_EVENT))
    return CL_INVALID_EVENT;
  retain(&e->refs);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_ReleaseEvent(cl_event e)
{
  if (!ICD_VALID(e, ICD_MAGIC_EVENT))
    return CL_INVALID_EVENT;
  if (release(&e->refs)) {
    cl_context c = e->ctx;
    cl_command_queue q = e->queue;
    free_callbacks(e->callbacks);
    e->magic = 0;
    free(e);
    if (q)
      icd_ReleaseCommandQueue(q);
    icd_ReleaseContext(c);
  }
  return CL_SUCCESS;
}

static cl_event CL_API_CALL icd_CreateUserEvent(cl_context c, cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  cl_event e = new_event(c, NULL, CL_COMMAND_USER);
  if (!e) {
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  e->status = CL_SUBMITTED;
  SET_ERR(CL_SUCCESS);
  return e;
}

static cl_int CL_API_CALL icd_SetUserEventStatus(cl_event e, cl_int status)
{
  if (!ICD_VALID(e, ICD_MAGIC_EVENT) || e->type != CL_COMMAND_USER)
    return CL_INVALID_EVENT;
  if (status != CL_COMPLETE && status >= 0)
    return CL_INVALID_VALUE;
  if (e->status == CL_COMPLETE || e->status < 0)
    return CL_INVALID_OPERATION;
  pthread_once(&pend_once, pend_init);
  pthread_mutex_lock(&pend_lock);
  ev_set_status(e, status);
  pthread_cond_broadcast(&pend_cond);
  pthread_mutex_unlock(&pend_lock);
  fire_callbacks(e);
  /* the commands that waited for it run now, on this thread */
  drain();
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_SetEventCallback(cl_event e, cl_int type,
                                               void (CL_CALLBACK *fn)(cl_event, cl_int, void *), void *user)
{
  if (!ICD_VALID(e, ICD_MAGIC_EVENT))
    return CL_INVALID_EVENT;
  if (!fn || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE))
    return CL_INVALID_VALUE;
  icd_callback *cb = calloc(1, sizeof *cb);
  if (!cb)
    return CL_OUT_OF_HOST_MEMORY;
  cb->fn = (void (CL_CALLBACK *)())fn;
  cb->user = user;
  cb->type = type;
  cb->next = e->callbacks;
  e->callbacks = cb;
  fire_callbacks(e);
  return CL_SUCCESS;
}

/* The work of the simple commands, as icd_submit payloads. */
static cl_int run_nothing(void *p)
{
  (void)p;
  return CL_SUCCESS;
}

typedef struct cmd_copy { unsigned char *dst; const unsigned char *src; size_t n; } cmd_copy;
static cl_int run_copy(void *p)
{
  const cmd_copy *c = p;
  memmove(c->dst, c->src, c->n);
  return CL_SUCCESS;
}

static cl_int marker(cl_command_queue q, cl_command_type type, cl_uint n, const cl_event *list, cl_event *out)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  cl_int err = icd_check_wait_list(q, n, list);
  if (err != CL_SUCCESS)
    return err;
  /* a marker or barrier with an empty wait list waits for every earlier
   * command: in order, that is the queue's deferred ones, if any */
  return icd_submit(q, type, n, list, out, CL_FALSE, run_nothing, NULL, 0, NULL, NULL, 0);
}

static cl_int CL_API_CALL icd_EnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list,
                                                        cl_event *out)
{
  return marker(q, CL_COMMAND_MARKER, n, list, out);
}

static cl_int CL_API_CALL icd_EnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list,
                                                         cl_event *out)
{
  return marker(q, CL_COMMAND_BARRIER, n, list, out);
}

static cl_int CL_API_CALL icd_EnqueueMarker(cl_command_queue q, cl_event *out)
{
  if (!out)
    return ICD_VALID(q, ICD_MAGIC_QUEUE) ? CL_INVALID_VALUE : CL_INVALID_COMMAND_QUEUE;
  return marker(q, CL_COMMAND_MARKER, 0, NULL, out);
}

static cl_int CL_API_CALL icd_EnqueueBarrier(cl_command_queue q)
{
  return marker(q, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

static cl_int CL_API_CALL icd_EnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (n == 0 || !list)
    return CL_INVALID_VALUE;
  cl_int err = icd_check_wait_list(q, n, list);
  if (err != CL_SUCCESS)
    return err == CL_INVALID_EVENT_WAIT_LIST ? CL_INVALID_EVENT : err;
  return icd_submit(q, CL_COMMAND_BARRIER, n, list, NULL, CL_FALSE, run_nothing, NULL, 0, NULL, NULL, 0);
}

/* ----------------------------------------------------------------- memory */

cl_int icd_check_mem_flags(cl_mem_flags f, const void *host_ptr)
{
  const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |
                             CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY |
                             CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (f & ~known)
    return CL_INVALID_VALUE;
  if (__builtin_popcountll(f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)) > 1 ||
      __builtin_popcountll(f & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) > 1 ||
      ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
    return CL_INVALID_VALUE;
  if ((f & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ? !host_ptr : host_ptr != NULL)
    return CL_INVALID_HOST_PTR;
  return CL_SUCCESS;
}

static cl_mem CL_API_CALL icd_CreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host_ptr,
                                           cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  cl_int e = icd_check_mem_flags(flags, NULL);
  if (e == CL_INVALID_HOST_PTR)
    e = CL_SUCCESS;
  if (e != CL_SUCCESS) {
    SET_ERR(e);
    return NULL;
  }
  if (size == 0 || size > (1ull << 30)) {
    SET_ERR(CL_INVALID_BUFFER_SIZE);
    return NULL;
  }
  if ((e = icd_check_mem_flags(flags, host_ptr)) != CL_SUCCESS) {
    SET_ERR(e);
    return NULL;
  }
  cl_mem m = calloc(1, sizeof *m);
  if (!m) {
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  m->dispatch = &icd_dispatch;
  m->magic = ICD_MAGIC_MEM;
  m->refs = 1;
  m->ctx = c;
  m->type = CL_MEM_OBJECT_BUFFER;
  m->flags = flags;
  m->size = size;
  if (flags & CL_MEM_USE_HOST_PTR) {
    m->data = host_ptr;
    m->host_ptr = host_ptr;
  } else {
    /* aligned for every OpenCL type (CL_DEVICE_MEM_BASE_ADDR_ALIGN), zeroed,
     * large buffers on huge pages (sg_alloc_buffer) */
    m->data = sg_alloc_buffer(size);
    if (!m->data) {
      free(m);
      SET_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE);
      return NULL;
    }
    m->owns_data = true;
    if (flags & CL_MEM_COPY_HOST_PTR)
      memcpy(m->data, host_ptr, size);
  }
  retain(&c->refs);
  SET_ERR(CL_SUCCESS);
  return m;
}

static cl_mem CL_API_CALL icd_CreateBufferWithProperties(cl_context c, const cl_mem_properties *props,
                                                         cl_mem_flags flags, size_t size, void *host_ptr,
                                                         cl_int *errcode_ret)
{
  if (props && props[0] != 0) {
    SET_ERR(ICD_VALID(c, ICD_MAGIC_CONTEXT) ? CL_INVALID_PROPERTY : CL_INVALID_CONTEXT);
    return NULL;
  }
  return icd_CreateBuffer(c, flags, size, host_ptr, errcode_ret);
}

static cl_mem CL_API_CALL icd_CreateSubBuffer(cl_mem b, cl_mem_flags flags, cl_buffer_create_type type,
                                              const void *info, cl_int *errcode_ret)
{
  if (!ICD_VALID(b, ICD_MAGIC_MEM) || b->type != CL_MEM_OBJECT_BUFFER || b->parent) {
    SET_ERR(CL_INVALID_MEM_OBJECT);
    return NULL;
  }
  const cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_mem_flags host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if ((flags & ~(access | host)) || icd_check_mem_flags(flags, NULL) != CL_SUCCESS ||
      ((b->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((b->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((b->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((b->flags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((b->flags & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  const cl_buffer_region *r = info;
  if (r->size == 0) {
    SET_ERR(CL_INVALID_BUFFER_SIZE);
    return NULL;
  }
  if (r->origin > b->size || r->size > b->size - r->origin) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  if (r->origin % 128) {
    SET_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    return NULL;
  }
  cl_mem m = calloc(1, sizeof *m);
  if (!m) {
    SET_ERR(CL_OUT_OF_HOST_MEMORY);
    return NULL;
  }
  *m = (struct _cl_mem){0};
  m->dispatch = &icd_dispatch;
  m->magic = ICD_MAGIC_MEM;
  m->refs = 1;
  m->ctx = b->ctx;
  m->type = CL_MEM_OBJECT_BUFFER;
  /* access and host flags inherit from the parent when not given; the
   * host-pointer flags always do */
  m->flags = (flags & access ? flags & access : b->flags & access) | (flags & host ? flags & host : b->flags & host) |
             (b->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR));
  m->size = r->size;
  m->data = b->data + r->origin;
  m->host_ptr = b->host_ptr ? (unsigned char *)b->host_ptr + r->origin : NULL;
  m->parent = b;
  m->offset = r->origin;
  retain(&b->refs);
  retain(&b->ctx->refs);
  SET_ERR(CL_SUCCESS);
  return m;
}

static cl_int CL_API_CALL icd_RetainMemObject(cl_mem m)
{
  if (!ICD_VALID(m, ICD_MAGIC_MEM))
    return CL_INVALID_MEM_OBJECT;
  retain(&m->refs);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_ReleaseMemObject(cl_mem m)
{
  if (!ICD_VALID(m, ICD_MAGIC_MEM))
    return CL_INVALID_MEM_OBJECT;
  if (release(&m->refs)) {
    run_callbacks(m->destructors, m);
    free_callbacks(m->destructors);
    cl_context c = m->ctx;
    cl_mem parent = m->parent;
    if (m->owns_data)
      free(m->data);
    m->magic = 0;
    free(m);
    if (parent)
      icd_ReleaseMemObject(parent);
    icd_ReleaseContext(c);
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_SetMemObjectDestructorCallback(cl_mem m, void (CL_CALLBACK *fn)(cl_mem, void *),
                                                            void *user)
{
  if (!ICD_VALID(m, ICD_MAGIC_MEM))
    return CL_INVALID_MEM_OBJECT;
  if (!fn)
    return CL_INVALID_VALUE;
  icd_callback *cb = calloc(1, sizeof *cb);
  if (!cb)
    return CL_OUT_OF_HOST_MEMORY;
  cb->fn = (void (CL_CALLBACK *)())fn;
  cb->user = user;
  cb->next = m->destructors;
  m->destructors = cb;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_GetMemObjectInfo(cl_mem m, cl_mem_info param, size_t size, void *value,
                                               size_t *size_ret)
{
  if (!ICD_VALID(m, ICD_MAGIC_MEM))
    return CL_INVALID_MEM_OBJECT;
  switch (param) {
  case CL_MEM_TYPE: ICD_PUT(cl_mem_object_type, m->type);
  case CL_MEM_FLAGS: ICD_PUT(cl_mem_flags, m->flags);
  case CL_MEM_SIZE: ICD_PUT(size_t, m->size);
  case CL_MEM_HOST_PTR: ICD_PUT(void *, m->host_ptr);
  case CL_MEM_MAP_COUNT: ICD_PUT(cl_uint, m->map_count);
  case CL_MEM_REFERENCE_COUNT: ICD_PUT(cl_uint, m->refs);
  case CL_MEM_CONTEXT: ICD_PUT(cl_context, m->ctx);
  case CL_MEM_ASSOCIATED_MEMOBJECT: ICD_PUT(cl_mem, m->parent);
  case CL_MEM_OFFSET: ICD_PUT(size_t, m->offset);
  case CL_MEM_USES_SVM_POINTER: ICD_PUT(cl_bool, CL_FALSE);
  case CL_MEM_PROPERTIES: return icd_put(size, value, size_ret, NULL, 0);
  default: return CL_INVALID_VALUE;
  }
}

/* The checks every buffer command shares: queue, buffer in its context,
 * wait list. */
static cl_int check_buffer_cmd(cl_command_queue q, cl_mem m, cl_uint n, const cl_event *list)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!ICD_VALID(m, ICD_MAGIC_MEM) || m->type != CL_MEM_OBJECT_BUFFER)
    return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx)
    return CL_INVALID_CONTEXT;
  return icd_check_wait_list(q, n, list);
}

static cl_int CL_API_CALL icd_EnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t off,
                                                size_t n, void *ptr, cl_uint nw, const cl_event *wl, cl_event *ev)
{
  cl_int err = check_buffer_cmd(q, m, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (!ptr || off > m->size || n > m->size - off)
    return CL_INVALID_VALUE;
  if (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
    return CL_INVALID_OPERATION;
  cmd_copy c = {ptr, m->data + off, n};
  return icd_submit(q, CL_COMMAND_READ_BUFFER, nw, wl, ev, blocking, run_copy, &c, sizeof c, NULL, &m, 1);
}

static cl_int CL_API_CALL icd_EnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t off,
                                                 size_t n, const void *ptr, cl_uint nw, const cl_event *wl,
                                                 cl_event *ev)
{
  cl_int err = check_buffer_cmd(q, m, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (!ptr || off > m->size || n > m->size - off)
    return CL_INVALID_VALUE;
  if (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
    return CL_INVALID_OPERATION;
  cmd_copy c = {m->data + off, ptr, n};
  return icd_submit(q, CL_COMMAND_WRITE_BUFFER, nw, wl, ev, blocking, run_copy, &c, sizeof c, NULL, &m, 1);
}

/* One rectangle copy between two (row, slice)-pitched regions. */
static void copy_rect(unsigned char *dst, const size_t dorg[3], size_t drow, size_t dslice,
                      const unsigned char *src, const size_t sorg[3], size_t srow, size_t sslice,
                      const size_t region[3])
{
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memmove(dst + dorg[0] + (dorg[1] + y) * drow + (dorg[2] + z) * dslice,
              src + sorg[0] + (sorg[1] + y) * srow + (sorg[2] + z) * sslice, region[0]);
}

typedef struct cmd_rect {
  unsigned char *dst;
  size_t dorg[3], drow, dslice;
  const unsigned char *src;
  size_t sorg[3], srow, sslice, region[3];
} cmd_rect;
static cl_int run_rect(void *p)
{
  const cmd_rect *c = p;
  copy_rect(c->dst, c->dorg, c->drow, c->dslice, c->src, c->sorg, c->srow, c->sslice, c->region);
  return CL_SUCCESS;
}
static cmd_rect make_rect(unsigned char *dst, const size_t dorg[3], size_t drow, size_t dslice,
                          const unsigned char *src, const size_t sorg[3], size_t srow, size_t sslice,
                          const size_t region[3])
{
  cmd_rect c = {dst, {dorg[0], dorg[1], dorg[2]}, drow, dslice, src, {sorg[0], sorg[1], sorg[2]}, srow, sslice,
                {region[0], region[1], region[2]}};
  return c;
}

/* Fills in default pitches and checks the rectangle lies inside size bytes. */
static bool rect_ok(const size_t org[3], const size_t region[3], size_t *row, size_t *slice, size_t size)
{
  if (region[0] == 0 || region[1] == 0 || region[2] == 0)
    return false;
  if (*row == 0)
    *row = region[0];
  else if (*row < region[0])
    return false;
  if (*slice == 0)
    *slice = region[1] * *row;
  else if (*slice < region[1] * *row || *slice % *row)
    return false;
  size_t last = org[0] + region[0] - 1 + (org[1] + region[1] - 1) * *row + (org[2] + region[2] - 1) * *slice;
  return last < size;
}

static cl_int CL_API_CALL icd_EnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                    const size_t *borg, const size_t *horg, const size_t *region,
                                                    size_t brow, size_t bslice, size_t hrow, size_t hslice,
                                                    void *ptr, cl_uint nw, const cl_event *wl, cl_event *ev)
{
  cl_int err = check_buffer_cmd(q, m, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (!ptr || !borg || !horg || !region || !rect_ok(borg, region, &brow, &bslice, m->size))
    return CL_INVALID_VALUE;
  if (!rect_ok(horg, region, &hrow, &hslice, SIZE_MAX))
    return CL_INVALID_VALUE;
  cmd_rect c = make_rect(ptr, horg, hrow, hslice, m->data, borg, brow, bslice, region);
  return icd_submit(q, CL_COMMAND_READ_BUFFER_RECT, nw, wl, ev, blocking, run_rect, &c, sizeof c, NULL, &m, 1);
}

static cl_int CL_API_CALL icd_EnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                     const size_t *borg, const size_t *horg, const size_t *region,
                                                     size_t brow, size_t bslice, size_t hrow, size_t hslice,
                                                     const void *ptr, cl_uint nw, const cl_event *wl, cl_event *ev)
{
  cl_int err = check_buffer_cmd(q, m, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (!ptr || !borg || !horg || !region || !rect_ok(borg, region, &brow, &bslice, m->size))
    return CL_INVALID_VALUE;
  if (!rect_ok(horg, region, &hrow, &hslice, SIZE_MAX))
    return CL_INVALID_VALUE;
  cmd_rect c = make_rect(m->data, borg, brow, bslice, ptr, horg, hrow, hslice, region);
  return icd_submit(q, CL_COMMAND_WRITE_BUFFER_RECT, nw, wl, ev, blocking, run_rect, &c, sizeof c, NULL, &m, 1);
}

/* Do [a, a+n) and [b, b+m) of the same allocation overlap? */
static bool overlap(const unsigned char *a, size_t n, const unsigned char *b, size_t m)
{
  return a < b + m && b < a + n;
}

static cl_int CL_API_CALL icd_EnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t soff,
                                                size_t doff, size_t n, cl_uint nw, const cl_event *wl,
                                                cl_event *ev)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!ICD_VALID(src, ICD_MAGIC_MEM) || !ICD_VALID(dst, ICD_MAGIC_MEM) || src->type != CL_MEM_OBJECT_BUFFER ||
      dst->type != CL_MEM_OBJECT_BUFFER)
    return CL_INVALID_MEM_OBJECT;
  if (src->ctx != q->ctx || dst->ctx != q->ctx)
    return CL_INVALID_CONTEXT;
  if (n == 0 || soff > src->size || n > src->size - soff || doff > dst->size || n > dst->size - doff)
    return CL_INVALID_VALUE;
  cl_int err = icd_check_wait_list(q, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (overlap(src->data + soff, n, dst->data + doff, n) &&
      (src == dst || src->parent == dst || dst->parent == src || (src->parent && src->parent == dst->parent)))
    return CL_MEM_COPY_OVERLAP;
  cmd_copy c = {dst->data + doff, src->data + soff, n};
  cl_mem mems[2] = {src, dst};
  return icd_submit(q, CL_COMMAND_COPY_BUFFER, nw, wl, ev, CL_FALSE, run_copy, &c, sizeof c, NULL, mems, 2);
}

static cl_int CL_API_CALL icd_EnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
                                                    const size_t *sorg, const size_t *dorg, const size_t *region,
                                                    size_t srow, size_t sslice, size_t drow, size_t dslice,
                                                    cl_uint nw, const cl_event *wl, cl_event *ev)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!ICD_VALID(src, ICD_MAGIC_MEM) || !ICD_VALID(dst, ICD_MAGIC_MEM) || src->type != CL_MEM_OBJECT_BUFFER ||
      dst->type != CL_MEM_OBJECT_BUFFER)
    return CL_INVALID_MEM_OBJECT;
  if (src->ctx != q->ctx || dst->ctx != q->ctx)
    return CL_INVALID_CONTEXT;
  if (!sorg || !dorg || !region || !rect_ok(sorg, region, &srow, &sslice, src->size) ||
      !rect_ok(dorg, region, &drow, &dslice, dst->size))
    return CL_INVALID_VALUE;
  cl_int err = icd_check_wait_list(q, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  cmd_rect c = make_rect(dst->data, dorg, drow, dslice, src->data, sorg, srow, sslice, region);
  cl_mem mems[2] = {src, dst};
  return icd_submit(q, CL_COMMAND_COPY_BUFFER_RECT, nw, wl, ev, CL_FALSE, run_rect, &c, sizeof c, NULL, mems, 2);
}

typedef struct cmd_fill { unsigned char *dst; size_t n, psize; unsigned char pattern[128]; } cmd_fill;
static cl_int run_fill(void *p)
{
  const cmd_fill *c = p;
  for (size_t i = 0; i < c->n; i += c->psize)
    memcpy(c->dst + i, c->pattern, c->psize);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL icd_EnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern, size_t psize,
                                                size_t off, size_t n, cl_uint nw, const cl_event *wl,
                                                cl_event *ev)
{
  cl_int err = check_buffer_cmd(q, m, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (!pattern || psize == 0 || psize > 128 || (psize & (psize - 1)) || off > m->size || n > m->size - off ||
      off % psize || n % psize)
    return CL_INVALID_VALUE;
  cmd_fill c = {m->data + off, n, psize, {0}};
  memcpy(c.pattern, pattern, psize);
  return icd_submit(q, CL_COMMAND_FILL_BUFFER, nw, wl, ev, CL_FALSE, run_fill, &c, sizeof c, NULL, &m, 1);
}

static void *CL_API_CALL icd_EnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
                                              size_t off, size_t n, cl_uint nw, const cl_event *wl, cl_event *ev,
                                              cl_int *errcode_ret)
{
  cl_int err = check_buffer_cmd(q, m, nw, wl);
  if (err == CL_SUCCESS && (off > m->size || n == 0 || n > m->size - off ||
                            (flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ||
                            ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)))))
    err = CL_INVALID_VALUE;
  if (err == CL_SUCCESS &&
      (((m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) && (flags & CL_MAP_READ)) ||
       ((m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) &&
        (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))))
    err = CL_INVALID_OPERATION;
  /* the map itself moves nothing; the command orders it in the queue */
  if (err == CL_SUCCESS)
    err = icd_submit(q, CL_COMMAND_MAP_BUFFER, nw, wl, ev, blocking, run_nothing, NULL, 0, NULL, &m, 1);
  SET_ERR(err);
  if (err != CL_SUCCESS)
    return NULL;
  /* the buffer lives in host memory (a CL_MEM_USE_HOST_PTR one in the
   * user's): a map is a pointer into it */
  __atomic_add_fetch(&m->map_count, 1, __ATOMIC_ACQ_REL);
  return m->data + off;
}

static cl_int CL_API_CALL icd_EnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *ptr, cl_uint nw,
                                                    const cl_event *wl, cl_event *ev)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!ICD_VALID(m, ICD_MAGIC_MEM))
    return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx)
    return CL_INVALID_CONTEXT;
  cl_int err = icd_check_wait_list(q, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (!ptr || (unsigned char *)ptr < m->data || (unsigned char *)ptr > m->data + m->size || m->map_count == 0)
    return CL_INVALID_VALUE;
  __atomic_sub_fetch(&m->map_count, 1, __ATOMIC_ACQ_REL);
  return icd_submit(q, CL_COMMAND_UNMAP_MEM_OBJECT, nw, wl, ev, CL_FALSE, run_nothing, NULL, 0, NULL, &m, 1);
}

static cl_int CL_API_CALL icd_EnqueueMigrateMemObjects(cl_command_queue q, cl_uint n, const cl_mem *mems,
                                                       cl_mem_migration_flags flags, cl_uint nw,
                                                       const cl_event *wl, cl_event *ev)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (n == 0 || !mems ||
      (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++) {
    if (!ICD_VALID(mems[i], ICD_MAGIC_MEM))
      return CL_INVALID_MEM_OBJECT;
    if (mems[i]->ctx != q->ctx)
      return CL_INVALID_CONTEXT;
  }
  cl_int err = icd_check_wait_list(q, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  return icd_submit(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, nw, wl, ev, CL_FALSE, run_nothing, NULL, 0, NULL, NULL, 0);
}

/* --------------------------------------------------------------- samplers */

static cl_sampler CL_API_CALL icd_CreateSampler(cl_context c, cl_bool norm, cl_addressing_mode am,
                                                cl_filter_mode fm, cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  (void)norm;
  (void)am;
  (void)fm;
  SET_ERR(CL_INVALID_OPERATION);  /* no image support */
  return NULL;
}

/* --------------------------------------------------------------- entries */

void icd_program_fill(struct _cl_icd_dispatch *d);

static void *CL_API_CALL icd_GetExtensionFunctionAddress(const char *name);

static cl_int CL_API_CALL icd_IcdGetPlatformIDs(cl_uint n, cl_platform_id *out, cl_uint *n_out)
{
  return icd_GetPlatformIDs(n, out, n_out);
}

static pthread_once_t fill_once = PTHREAD_ONCE_INIT;

static void fill(void)
{
  struct _cl_icd_dispatch *d = &icd_dispatch;
  icd_fill_stubs(d);
#define SET(name) d->cl##name = icd_##name
  SET(GetPlatformIDs); SET(GetPlatformInfo); SET(GetDeviceIDs); SET(GetDeviceInfo);
  SET(CreateSubDevices);
  d->clRetainDevice = icd_RetainDevice;
  d->clReleaseDevice = icd_RetainDevice;
  SET(CreateContext); SET(CreateContextFromType); SET(RetainContext); SET(ReleaseContext);
  SET(GetContextInfo); SET(SetContextDestructorCallback);
  SET(CreateCommandQueue); SET(CreateCommandQueueWithProperties); SET(RetainCommandQueue);
  SET(ReleaseCommandQueue); SET(GetCommandQueueInfo); SET(Flush);
  SET(Finish);
  SET(WaitForEvents); SET(GetEventInfo); SET(GetEventProfilingInfo); SET(RetainEvent); SET(ReleaseEvent);
  SET(CreateUserEvent); SET(SetUserEventStatus); SET(SetEventCallback);
  SET(EnqueueMarkerWithWaitList); SET(EnqueueBarrierWithWaitList); SET(EnqueueMarker); SET(EnqueueBarrier);
  SET(EnqueueWaitForEvents);
  SET(CreateBuffer); SET(CreateBufferWithProperties); SET(CreateSubBuffer); SET(RetainMemObject);
  SET(ReleaseMemObject); SET(SetMemObjectDestructorCallback); SET(GetMemObjectInfo);
  SET(EnqueueReadBuffer); SET(EnqueueWriteBuffer); SET(EnqueueReadBufferRect); SET(EnqueueWriteBufferRect);
  SET(EnqueueCopyBuffer); SET(EnqueueCopyBufferRect); SET(EnqueueFillBuffer); SET(EnqueueMapBuffer);
  SET(EnqueueUnmapMemObject); SET(EnqueueMigrateMemObjects);
  SET(CreateSampler); SET(GetExtensionFunctionAddress);
#undef SET
  icd_program_fill(d);
  icd_image_fill(d);
}

static void *CL_API_CALL icd_GetExtensionFunctionAddress(const char *name)
{
  pthread_once(&fill_once, fill);
  if (!name)
    return NULL;
  if (!strcmp(name, "clIcdGetPlatformIDsKHR"))
    return (void *)icd_IcdGetPlatformIDs;
  if (!strcmp(name, "clGetKernelSubGroupInfoKHR"))
    return (void *)icd_dispatch.clGetKernelSubGroupInfoKHR;
  if (!strcmp(name, "clCreateProgramWithILKHR"))
    return (void *)icd_dispatch.clCreateProgramWithIL;
  return NULL;
}

/* The three symbols the ICD loader looks up in a vendor library (ocl-icd:
 * clGetExtensionFunctionAddress, then clIcdGetPlatformIDsKHR through it);
 * everything else is reached through the dispatch table. */
EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
  return icd_GetExtensionFunctionAddress(name);
}

EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *out, cl_uint *n_out)
{
  pthread_once(&fill_once, fill);
  return icd_GetPlatformIDs(n, out, n_out);
}

EXPORT void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id p, const char *name)
{
  if (p != &icd_platform)
    return NULL;
  return icd_GetExtensionFunctionAddress(name);
}

EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p, cl_platform_info param, size_t size, void *value,
                                            size_t *size_ret)
{
  pthread_once(&fill_once, fill);
  return icd_GetPlatformInfo(p, param, size, value, size_ret);
}
