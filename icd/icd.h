/* icd.h - the objects of the spirv-sg OpenCL ICD (internal to icd/).
 *
 * Every object starts with the ocl-icd dispatch pointer (the loader calls
 * through it) and a magic word, so that a handle of the wrong kind or a
 * freed one is answered with CL_INVALID_<OBJECT> rather than a crash.
 * Objects are reference counted; a child holds a reference on its parent
 * (queue, memory object, program -> context; kernel -> program; sub-buffer
 * -> buffer; event -> queue).  Commands run when they are enqueued, in order,
 * on the calling thread (docs/icd.md). */
#ifndef SG_ICD_H
#define SG_ICD_H

#include <pthread.h>
#include <stdbool.h>
#include "icd_stubs.h"
#include "spirv_sg.h"

enum {
  ICD_MAGIC_PLATFORM = 0x5067504c, ICD_MAGIC_DEVICE, ICD_MAGIC_CONTEXT, ICD_MAGIC_QUEUE,
  ICD_MAGIC_MEM, ICD_MAGIC_PROGRAM, ICD_MAGIC_KERNEL, ICD_MAGIC_EVENT, ICD_MAGIC_SAMPLER,
};

#define ICD_HEAD struct _cl_icd_dispatch *dispatch; uint32_t magic; int refs

struct _cl_platform_id { ICD_HEAD; };
struct _cl_device_id { ICD_HEAD; };

typedef struct icd_callback {
  void (CL_CALLBACK *fn)();
  void *user;
  cl_int type;                 /* events: the status it waits for */
  struct icd_callback *next;
} icd_callback;

struct _cl_context {
  ICD_HEAD;
  cl_context_properties props[8];
  size_t n_props;               /* entries including the closing 0; 0 = none given */
  void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
  void *notify_user;
  icd_callback *destructors;
};

struct _cl_command_queue {
  ICD_HEAD;
  cl_context ctx;
  cl_command_queue_properties props;
  cl_queue_properties props_array[8];
  size_t n_props_array;
};

struct _cl_mem {
  ICD_HEAD;
  cl_context ctx;
  cl_mem_object_type type;
  cl_mem_flags flags;
  size_t size;
  unsigned char *data;          /* the bytes kernels see */
  bool owns_data;
  void *host_ptr;               /* CL_MEM_USE_HOST_PTR */
  cl_mem parent;                /* sub-buffers */
  size_t offset;
  unsigned map_count;
  icd_callback *destructors;
  /* images */
  cl_image_format format;
  cl_image_desc desc;
  size_t elem_size;
};

typedef struct icd_kernel_source {
  struct _cl_program *prog;
} icd_kernel_source;

struct _cl_program {
  ICD_HEAD;
  cl_context ctx;
  char *source;                 /* from source, else NULL */
  unsigned char *il;            /* SPIR-V: given, or compiled from source */
  size_t il_size;
  bool from_binary;
  sg_module *mod;               /* after a successful build */
  cl_build_status status;
  cl_program_binary_type binary_type;
  char *options;
  char *log;
  size_t log_len, log_cap;
  bool uniform_wg;              /* -cl-uniform-work-group-size or -cl-std=CL1.x */
  int n_kernels;                /* live kernels: a build is refused while > 0 */
  sg_spec_value *spec;
  uint32_t n_spec;
};

typedef struct icd_arg {
  bool set;
  sg_arg_kind kind;
  cl_mem mem;                   /* BUFFER / IMAGE (NULL: a null pointer) */
  unsigned char *value;         /* VALUE bytes */
  size_t size;                  /* VALUE bytes, LOCAL bytes */
  cl_uint sampler;
} icd_arg;

struct _cl_kernel {
  ICD_HEAD;
  cl_program prog;
  const sg_kernel_info *info;
  icd_arg *args;
};

struct _cl_event {
  ICD_HEAD;
  cl_context ctx;
  cl_command_queue queue;       /* NULL for user events */
  cl_command_type type;
  cl_int status;
  cl_ulong t_queued, t_submit, t_start, t_end;
  icd_callback *callbacks;
};

struct _cl_sampler {
  ICD_HEAD;
  cl_context ctx;
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
};

extern struct _cl_icd_dispatch icd_dispatch;
extern struct _cl_platform_id icd_platform;
extern struct _cl_device_id icd_device;
extern pthread_mutex_t icd_lock;

/* The choices read from the environment once (docs/icd.md). */
typedef struct icd_env {
  sg_backend backend;
  uint32_t subgroup_size;       /* 0 = the kernel's required size, else 16 */
  uint32_t threads;
  sg_ub_mode ub;
  bool stop_on_fault;
  bool verbose;
  double wait_timeout;          /* seconds a wait for a user event may take */
} icd_env;
const icd_env *icd_getenv(void);

#define ICD_VALID(obj, M) ((obj) != NULL && (obj)->magic == (M) && (obj)->refs > 0)

/* Copies n bytes of src out as a clGet*Info answer. */
cl_int icd_put(size_t size, void *value, size_t *size_ret, const void *src, size_t n);
#define ICD_PUT(T, v) do { T put_v_ = (T)(v); return icd_put(size, value, size_ret, &put_v_, sizeof put_v_); } while (0)
#define ICD_PUT_STR(s) do { const char *put_s_ = (s); return icd_put(size, value, size_ret, put_s_, strlen(put_s_) + 1); } while (0)

cl_ulong icd_now_ns(void);
/* Checks an event wait list as every clEnqueue* must. */
cl_int icd_check_wait_list(cl_command_queue q, cl_uint n, const cl_event *list);
/* A completed event for a command that just ran (NULL when out is NULL). */
cl_int icd_event_done(cl_command_queue q, cl_command_type type, cl_ulong t_queued,
                      cl_ulong t_start, cl_event *out);

/* A command's work, run at enqueue time or later (deferred behind an
 * incomplete event): returns CL_SUCCESS or a negative CL error (the event's
 * final status when deferred). */
typedef cl_int (*icd_run_fn)(void *payload);
/* Runs a checked command now, or defers it (icd.c, "deferred commands"):
 * payload (payload_size bytes) is copied when deferred; release (may be
 * NULL) frees what the payload owns once it ran; mems are retained while the
 * command waits.  A blocking command waits for its end. */
cl_int icd_submit(cl_command_queue q, cl_command_type type, cl_uint nw, const cl_event *wl, cl_event *out,
                  cl_bool blocking, icd_run_fn run, const void *payload, size_t payload_size,
                  void (*release)(void *), cl_mem *mems, unsigned n_mems);
/* clCreateBuffer's flag checks (CL_INVALID_VALUE, CL_INVALID_HOST_PTR). */
cl_int icd_check_mem_flags(cl_mem_flags f, const void *host_ptr);

/* icd_image.c */
/* clGetDeviceInfo's image queries. */
cl_int icd_image_device_info(cl_device_info param, size_t size, void *value, size_t *size_ret);
cl_int icd_image_kernel_arg(uint32_t arg_image_type, size_t size, const void *value, cl_context ctx, cl_mem *out);
void icd_image_launch_arg(cl_mem m, sg_arg *a);
void icd_image_fill(struct _cl_icd_dispatch *d);

#endif
