/* fuzz_run.c - a SPIR-V module through the reference interpreter with a small
 * fixed launch: it must never crash, hang or touch memory outside its regions.
 *
 * The module is loaded without validation (the IR is the same as with
 * validation: warn mode only adds a warning), then its first kernels run with
 *   work_dim 1, global 16/32/64, subgroup size 1/4/16 (from the input's hash;
 *   the module's required size when it has one), local size chosen,
 *   buffers and local memory 256 bytes (malloc'd exactly, so ASan sees any
 *   access past them), by-value arguments zero, images 4x4 RGBA8 (x4 slices
 *   for 3D, x2 layers for arrays) in 256 bytes, samplers nearest/no address,
 *   step limit 100000 per subgroup, time limit 1 s, one thread, UB mode and
 *   stop-on-fault from the hash too. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "ip.h"

#define BUF_BYTES 256u
#define MAX_KERNELS 2u

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

static void image_desc(const ld_type *t, ip_image_desc *d)
{
  memset(d, 0, sizeof *d);
  d->channel_order = CL_RGBA;
  d->channel_type = CL_UNORM_INT8;
  d->width = 4;
  d->height = 4;
  d->depth = 1;
  d->row_pitch = 16;
  d->slice_pitch = 64;
  const ld_type *img = t;
  if (img && img->kind == LD_T_POINTER)
    img = img->elem;
  if (img && img->kind == LD_T_SAMPLED_IMAGE)
    img = img->elem;
  SpvDim dim = img && img->kind == LD_T_IMAGE ? img->dim : SpvDim2D;
  bool arrayed = img && img->kind == LD_T_IMAGE && img->arrayed;
  switch (dim) {
  case SpvDim1D:
    d->image_type = arrayed ? CL_MEM_OBJECT_IMAGE1D_ARRAY : CL_MEM_OBJECT_IMAGE1D;
    d->height = 1;
    d->slice_pitch = 16;
    break;
  case SpvDim3D:
    d->image_type = CL_MEM_OBJECT_IMAGE3D;
    d->depth = 4;
    break;
  case SpvDimBuffer:
    d->image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    d->height = 1;
    d->slice_pitch = 16;
    break;
  default:
    d->image_type = arrayed ? CL_MEM_OBJECT_IMAGE2D_ARRAY : CL_MEM_OBJECT_IMAGE2D;
    break;
  }
  if (arrayed)
    d->array_size = 2;
}

static void run_kernel(const ld_module *m, const ld_kernel *k, uint32_t h)
{
  static const size_t globals[3] = {16, 32, 64};
  static const uint32_t sizes[3] = {1, 4, 16};
  ip_arg *args = calloc(k->n_args ? k->n_args : 1, sizeof *args);
  if (!args)
    return;
  for (uint32_t i = 0; i < k->n_args; i++) {
    const ld_kernel_arg *ka = &k->args[i];
    ip_arg *a = &args[i];
    switch (ka->kind) {
    case LD_ARG_BUFFER:
      a->kind = IP_ARG_BUFFER;
      a->size = BUF_BYTES;
      a->data = calloc(1, BUF_BYTES);
      break;
    case LD_ARG_LOCAL:
      a->kind = IP_ARG_LOCAL;
      a->size = BUF_BYTES;
      break;
    case LD_ARG_IMAGE:
      a->kind = IP_ARG_IMAGE;
      a->size = BUF_BYTES;
      a->data = calloc(1, BUF_BYTES);
      image_desc(ka->type, &a->image);
      break;
    case LD_ARG_SAMPLER:
      a->kind = IP_ARG_SAMPLER;
      a->sampler = 0x10; /* CLK_FILTER_NEAREST */
      break;
    default:
      a->kind = IP_ARG_VALUE;
      a->size = ka->value_size;
      a->data = calloc(1, ka->value_size ? ka->value_size : 1);
      break;
    }
  }
  ip_launch_desc d;
  memset(&d, 0, sizeof d);
  d.kernel = k->name;
  d.work_dim = 1;
  d.global_size[0] = globals[h % 3];
  d.subgroup_size = k->subgroup_size ? 0 : sizes[(h / 3) % 3];
  d.args = args;
  d.n_args = k->n_args;
  d.threads = 1;
  d.ub = (ip_ub_mode)((h >> 8) % 3);
  d.stop_on_fault = (h >> 10) & 1;
  d.step_limit = 100000;
  d.time_limit = 1.0;
  d.out = no_print;
  ip_launch *l = NULL;
  char err[256];
  if (ip_launch_create(m, &d, &l, err, sizeof err) == IP_OK) {
    ip_result res = ip_launch_run(l);
    const ip_report *r = ip_launch_report(l);
    if (getenv("SG_FUZZ_VERBOSE"))
      fprintf(stderr, "fuzz_run: kernel %s: result %d, %llu insns, %u diags\n", k->name,
              (int)res, (unsigned long long)r->insns, r->n_diags);
    char line[512];
    for (uint32_t i = 0; i < r->n_diags; i++)
      ip_diag_format(m, &r->diags[i], line, sizeof line);
  } else if (getenv("SG_FUZZ_VERBOSE")) {
    fprintf(stderr, "fuzz_run: kernel %s: %s\n", k->name, err);
  }
  if (!l && !err[0]) {
    abort();   /* failure: no launch and one line of explanation */
  }
  ip_launch_free(l);
  for (uint32_t i = 0; i < k->n_args; i++)
    free(args[i].data);
  free(args);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  ld_options o;
  memset(&o, 0, sizeof o);
  o.validate = LD_VALIDATE_OFF;
  o.message = on_msg;
  ld_module *m = NULL;
  if (ld_module_load_bytes(data, size, &o, &m) != LD_OK) {
    if (getenv("SG_FUZZ_VERBOSE"))
      fprintf(stderr, "fuzz_run: the module does not load\n");
    return 0;
  }
  uint32_t h = fuzz_hash(data, size);
  for (uint32_t i = 0; i < m->n_kernels && i < MAX_KERNELS; i++)
    run_kernel(m, &m->kernels[i], h);
  ld_module_free(m);
  return 0;
}
