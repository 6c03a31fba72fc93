/* icd_image.c - 2D images in the spirv-sg OpenCL ICD: what the Intel image
 * block I/O (intel_sub_group_block_read/write on image2d_t) and sampler-less
 * read_image* / write_image* need.
 *
 * Only CL_MEM_OBJECT_IMAGE2D is supported: the other image types answer
 * clGetSupportedImageFormats with no formats and clCreateImage with
 * CL_IMAGE_FORMAT_NOT_SUPPORTED, as the specification has it for a format
 * the device does not list.  The formats are those the interpreter converts
 * (interp/exec_image.c), restricted to the channel order / type pairs the
 * OpenCL 3.0 specification allows (5.3.1.1).  Pixels live in host memory with
 * a row pitch (a CL_MEM_USE_HOST_PTR image is the user's memory, with the
 * user's pitch); kernels see them in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "icd.h"

#define SET_ERR(e) do { if (errcode_ret) *errcode_ret = (e); } while (0)

/* The largest 2D image (CL_DEVICE_IMAGE2D_MAX_WIDTH / HEIGHT: the
 * specification's minimum for a device with images); the bytes are bounded
 * by the buffer limit as well (1 GiB, clCreateBuffer). */
#define IMAGE2D_MAX 16384u
#define IMAGE_MAX_BYTES (1ull << 30)

static unsigned channel_bytes(cl_channel_type t)
{
  switch (t) {
  case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
  default: return 0;
  }
}

static unsigned channel_count(cl_channel_order o)
{
  switch (o) {
  case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: return 1;
  case CL_RG: case CL_RA: return 2;
  case CL_RGBA: case CL_BGRA: case CL_ARGB: case CL_ABGR: return 4;
  default: return 0;
  }
}

/* Orders and types the specification defines at all: a value outside these
 * is CL_INVALID_IMAGE_FORMAT_DESCRIPTOR; a defined one we lack is
 * CL_IMAGE_FORMAT_NOT_SUPPORTED. */
static bool order_defined(cl_channel_order o)
{
  return (o >= CL_R && o <= CL_ABGR) || o == CL_DEPTH || o == CL_DEPTH_STENCIL;
}
static bool type_defined(cl_channel_type t)
{
  return (t >= CL_SNORM_INT8 && t <= CL_FLOAT) || t == CL_UNORM_INT24 || t == CL_UNORM_INT_101010_2;
}

/* Whether (order, type) is one of ours: R, RG, RA, A and RGBA with every
 * channel type; BGRA, ARGB, ABGR with the 8-bit ones; INTENSITY and
 * LUMINANCE with the normalized and float ones. */
static bool format_supported(const cl_image_format *f)
{
  cl_channel_type t = f->image_channel_data_type;
  if (!channel_bytes(t))
    return false;
  switch (f->image_channel_order) {
  case CL_R: case CL_RG: case CL_RA: case CL_A: case CL_RGBA: return true;
  case CL_BGRA: case CL_ARGB: case CL_ABGR: return channel_bytes(t) == 1;
  case CL_INTENSITY: case CL_LUMINANCE:
    return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
           t == CL_HALF_FLOAT || t == CL_FLOAT;
  default: return false;
  }
}

static bool image_type_defined(cl_mem_object_type t)
{
  return t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
         t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE1D_BUFFER;
}

cl_int icd_image_device_info(cl_device_info param, size_t size, void *value, size_t *size_ret)
{
  switch (param) {
  case CL_DEVICE_IMAGE_SUPPORT: ICD_PUT(cl_bool, CL_TRUE);
  /* the specification's minimums for a device with images; samplers are
   * not supported (sampled reads are not interpreted) */
  case CL_DEVICE_MAX_READ_IMAGE_ARGS: ICD_PUT(cl_uint, 128);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: ICD_PUT(cl_uint, 64);
  case CL_DEVICE_MAX_SAMPLERS: ICD_PUT(cl_uint, 0);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH: case CL_DEVICE_IMAGE2D_MAX_HEIGHT: ICD_PUT(size_t, IMAGE2D_MAX);
  /* 2D only: no 3D, array or buffer images */
  case CL_DEVICE_IMAGE3D_MAX_WIDTH: case CL_DEVICE_IMAGE3D_MAX_HEIGHT: case CL_DEVICE_IMAGE3D_MAX_DEPTH:
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    ICD_PUT(size_t, 0);
  /* images from buffers (cl_khr_image2d_from_buffer) are not supported */
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: ICD_PUT(cl_uint, 0);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL icd_GetSupportedImageFormats(cl_context c, cl_mem_flags flags, cl_mem_object_type type,
                                                       cl_uint n, cl_image_format *out, cl_uint *n_out)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT))
    return CL_INVALID_CONTEXT;
  if (icd_check_mem_flags(flags, NULL) == CL_INVALID_VALUE || !image_type_defined(type) || (n == 0 && out))
    return CL_INVALID_VALUE;
  cl_uint k = 0;
  if (type == CL_MEM_OBJECT_IMAGE2D)
    for (cl_channel_order o = CL_R; o <= CL_ABGR; o++)
      for (cl_channel_type t = CL_SNORM_INT8; t <= CL_FLOAT; t++) {
        cl_image_format f = {o, t};
        if (!format_supported(&f))
          continue;
        if (out && k < n)
          out[k] = f;
        k++;
      }
  if (n_out)
    *n_out = k;
  return CL_SUCCESS;
}

static cl_mem CL_API_CALL icd_CreateImage(cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                                          const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
  if (!ICD_VALID(c, ICD_MAGIC_CONTEXT)) {
    SET_ERR(CL_INVALID_CONTEXT);
    return NULL;
  }
  if (icd_check_mem_flags(flags, NULL) == CL_INVALID_VALUE) {
    SET_ERR(CL_INVALID_VALUE);
    return NULL;
  }
  if (!fmt || !order_defined(fmt->image_channel_order) || !type_defined(fmt->image_channel_data_type)) {
    SET_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    return NULL;
  }
  if (!desc || !image_type_defined(desc->image_type) || desc->num_mip_levels || desc->num_samples ||
      (!host_ptr && desc->image_row_pitch)) {
    SET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
    return NULL;
  }
  if (desc->image_type != CL_MEM_OBJECT_IMAGE2D) {
    /* a defined type we do not support: no format is listed for it */
    SET_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    return NULL;
  }
  if (desc->mem_object) {
    /* a 2D image from a buffer (cl_khr_image2d_from_buffer): not supported */
    SET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
    return NULL;
  }
  size_t elem = (size_t)channel_count(fmt->image_channel_order) * channel_bytes(fmt->image_channel_data_type);
  size_t w = desc->image_width, h = desc->image_height;
  if (w == 0 || h == 0) {
    SET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
    return NULL;
  }
  size_t pitch = desc->image_row_pitch;
  if (pitch && elem && (pitch < w * elem || pitch % elem)) {
    SET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
    return NULL;
  }
  if (w > IMAGE2D_MAX || h > IMAGE2D_MAX) {
    SET_ERR(CL_INVALID_IMAGE_SIZE);
    return NULL;
  }
  cl_int e = icd_check_mem_flags(flags, host_ptr);
  if (e != CL_SUCCESS) {
    SET_ERR(e);
    return NULL;
  }
  if (!format_supported(fmt)) {
    SET_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    return NULL;
  }
  size_t tight = w * elem;
  if (!pitch)
    pitch = tight;
  size_t bytes = (flags & CL_MEM_USE_HOST_PTR) ? pitch * h : tight * h;
  if (bytes > IMAGE_MAX_BYTES) {
    SET_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE);
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
  m->type = CL_MEM_OBJECT_IMAGE2D;
  m->flags = flags;
  m->size = bytes;
  m->format = *fmt;
  m->desc = *desc;
  m->desc.image_depth = 0;
  m->desc.image_array_size = 0;
  m->desc.image_slice_pitch = 0;
  m->elem_size = elem;
  if (flags & CL_MEM_USE_HOST_PTR) {
    /* kernels work on the user's pixels, with the user's row pitch */
    m->data = host_ptr;
    m->host_ptr = host_ptr;
    m->desc.image_row_pitch = pitch;
  } else {
    if (posix_memalign((void **)&m->data, 128, bytes) != 0) {
      free(m);
      SET_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE);
      return NULL;
    }
    m->owns_data = true;
    m->desc.image_row_pitch = tight;
    if (flags & CL_MEM_COPY_HOST_PTR)
      for (size_t y = 0; y < h; y++)
        memcpy(m->data + y * tight, (const unsigned char *)host_ptr + y * pitch, tight);
    else
      memset(m->data, 0, bytes);
  }
  __atomic_add_fetch(&c->refs, 1, __ATOMIC_ACQ_REL);
  SET_ERR(CL_SUCCESS);
  return m;
}

static cl_mem CL_API_CALL icd_CreateImageWithProperties(cl_context c, const cl_mem_properties *props,
                                                        cl_mem_flags flags, const cl_image_format *fmt,
                                                        const cl_image_desc *desc, void *host_ptr,
                                                        cl_int *errcode_ret)
{
  if (props && props[0] != 0) {
    SET_ERR(ICD_VALID(c, ICD_MAGIC_CONTEXT) ? CL_INVALID_PROPERTY : CL_INVALID_CONTEXT);
    return NULL;
  }
  return icd_CreateImage(c, flags, fmt, desc, host_ptr, errcode_ret);
}

/* The OpenCL 1.1 entry point. */
static cl_mem CL_API_CALL icd_CreateImage2D(cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                                            size_t w, size_t h, size_t pitch, void *host_ptr, cl_int *errcode_ret)
{
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  d.image_row_pitch = pitch;
  return icd_CreateImage(c, flags, fmt, &d, host_ptr, errcode_ret);
}

static cl_mem CL_API_CALL icd_CreateImage3D(cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                                            size_t w, size_t h, size_t depth, size_t row_pitch, size_t slice_pitch,
                                            void *host_ptr, cl_int *errcode_ret)
{
  cl_image_desc d;
  memset(&d, 0, sizeof d);
  d.image_type = CL_MEM_OBJECT_IMAGE3D;
  d.image_width = w;
  d.image_height = h;
  d.image_depth = depth;
  d.image_row_pitch = row_pitch;
  d.image_slice_pitch = slice_pitch;
  return icd_CreateImage(c, flags, fmt, &d, host_ptr, errcode_ret);
}

static bool is_image(cl_mem m)
{
  return ICD_VALID(m, ICD_MAGIC_MEM) && m->type == CL_MEM_OBJECT_IMAGE2D;
}

static cl_int CL_API_CALL icd_GetImageInfo(cl_mem m, cl_image_info param, size_t size, void *value,
                                           size_t *size_ret)
{
  if (!is_image(m))
    return CL_INVALID_MEM_OBJECT;
  switch (param) {
  case CL_IMAGE_FORMAT: ICD_PUT(cl_image_format, m->format);
  case CL_IMAGE_ELEMENT_SIZE: ICD_PUT(size_t, m->elem_size);
  case CL_IMAGE_ROW_PITCH: ICD_PUT(size_t, m->desc.image_row_pitch);
  case CL_IMAGE_SLICE_PITCH: ICD_PUT(size_t, 0);
  case CL_IMAGE_WIDTH: ICD_PUT(size_t, m->desc.image_width);
  case CL_IMAGE_HEIGHT: ICD_PUT(size_t, m->desc.image_height);
  case CL_IMAGE_DEPTH: case CL_IMAGE_ARRAY_SIZE: ICD_PUT(size_t, 0);
  case CL_IMAGE_BUFFER: ICD_PUT(cl_mem, NULL);
  case CL_IMAGE_NUM_MIP_LEVELS: case CL_IMAGE_NUM_SAMPLES: ICD_PUT(cl_uint, 0);
  default: return CL_INVALID_VALUE;
  }
}

/* The checks clEnqueueReadImage and clEnqueueWriteImage share, in the
 * specification's order; *row gets its default (region width in bytes). */
static cl_int check_image_rw(cl_command_queue q, cl_mem m, const size_t *org, const size_t *region, size_t *row,
                             size_t slice, const void *ptr, cl_uint nw, const cl_event *wl)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!is_image(m))
    return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx)
    return CL_INVALID_CONTEXT;
  if (!org || !region || !ptr)
    return CL_INVALID_VALUE;
  if (region[0] == 0 || region[1] == 0 || region[2] != 1 || org[2] != 0 || slice != 0 ||
      org[0] > m->desc.image_width || region[0] > m->desc.image_width - org[0] ||
      org[1] > m->desc.image_height || region[1] > m->desc.image_height - org[1])
    return CL_INVALID_VALUE;
  if (*row == 0)
    *row = region[0] * m->elem_size;
  else if (*row < region[0] * m->elem_size)
    return CL_INVALID_VALUE;
  return icd_check_wait_list(q, nw, wl);
}

typedef struct image_rw {
  cl_mem m;
  size_t org[2], region[2], row;
  unsigned char *host;
  bool write;
} image_rw;

static cl_int run_image_rw(void *p)
{
  const image_rw *c = p;
  cl_mem m = c->m;
  size_t pitch = m->desc.image_row_pitch, n = c->region[0] * m->elem_size;
  for (size_t y = 0; y < c->region[1]; y++) {
    unsigned char *img = m->data + (c->org[1] + y) * pitch + c->org[0] * m->elem_size;
    unsigned char *host = c->host + y * c->row;
    if (c->write)
      memmove(img, host, n);
    else
      memmove(host, img, n);
  }
  return CL_SUCCESS;
}

static cl_int enqueue_image_rw(cl_command_queue q, cl_mem m, bool write, cl_bool blocking, const size_t *org,
                               const size_t *region, size_t row, size_t slice, void *ptr, cl_uint nw,
                               const cl_event *wl, cl_event *ev)
{
  cl_int err = check_image_rw(q, m, org, region, &row, slice, ptr, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  if (m->flags & (write ? (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
                        : (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return CL_INVALID_OPERATION;
  image_rw c = {m, {org[0], org[1]}, {region[0], region[1]}, row, ptr, write};
  cl_mem mems[1] = {m};
  return icd_submit(q, write ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_READ_IMAGE, nw, wl, ev, blocking, run_image_rw,
                    &c, sizeof c, NULL, mems, 1);
}

static cl_int CL_API_CALL icd_EnqueueReadImage(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *org,
                                               const size_t *region, size_t row, size_t slice, void *ptr,
                                               cl_uint nw, const cl_event *wl, cl_event *ev)
{
  return enqueue_image_rw(q, m, false, blocking, org, region, row, slice, ptr, nw, wl, ev);
}

static cl_int CL_API_CALL icd_EnqueueWriteImage(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *org,
                                                const size_t *region, size_t row, size_t slice, const void *ptr,
                                                cl_uint nw, const cl_event *wl, cl_event *ev)
{
  return enqueue_image_rw(q, m, true, blocking, org, region, row, slice, (void *)ptr, nw, wl, ev);
}

typedef struct image_copy {
  cl_mem src, dst;
  size_t so[2], dorg[2], region[2];
} image_copy;

static cl_int run_image_copy(void *p)
{
  const image_copy *c = p;
  size_t es = c->src->elem_size, n = c->region[0] * es;
  for (size_t y = 0; y < c->region[1]; y++)
    memmove(c->dst->data + (c->dorg[1] + y) * c->dst->desc.image_row_pitch + c->dorg[0] * es,
            c->src->data + (c->so[1] + y) * c->src->desc.image_row_pitch + c->so[0] * es, n);
  return CL_SUCCESS;
}

static bool region_inside(cl_mem m, const size_t *o, const size_t *r)
{
  return o[2] == 0 && r[2] == 1 && r[0] && r[1] && o[0] <= m->desc.image_width &&
         r[0] <= m->desc.image_width - o[0] && o[1] <= m->desc.image_height && r[1] <= m->desc.image_height - o[1];
}

static cl_int CL_API_CALL icd_EnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *so,
                                               const size_t *dorg, const size_t *region, cl_uint nw,
                                               const cl_event *wl, cl_event *ev)
{
  if (!ICD_VALID(q, ICD_MAGIC_QUEUE))
    return CL_INVALID_COMMAND_QUEUE;
  if (!is_image(src) || !is_image(dst))
    return CL_INVALID_MEM_OBJECT;
  if (src->ctx != q->ctx || dst->ctx != q->ctx)
    return CL_INVALID_CONTEXT;
  if (src->format.image_channel_order != dst->format.image_channel_order ||
      src->format.image_channel_data_type != dst->format.image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  if (!so || !dorg || !region || !region_inside(src, so, region) || !region_inside(dst, dorg, region))
    return CL_INVALID_VALUE;
  if (src == dst && so[0] < dorg[0] + region[0] && dorg[0] < so[0] + region[0] && so[1] < dorg[1] + region[1] &&
      dorg[1] < so[1] + region[1])
    return CL_MEM_COPY_OVERLAP;
  cl_int err = icd_check_wait_list(q, nw, wl);
  if (err != CL_SUCCESS)
    return err;
  image_copy c = {src, dst, {so[0], so[1]}, {dorg[0], dorg[1]}, {region[0], region[1]}};
  cl_mem mems[2] = {src, dst};
  return icd_submit(q, CL_COMMAND_COPY_IMAGE, nw, wl, ev, CL_FALSE, run_image_copy, &c, sizeof c, NULL, mems, 2);
}

/* clSetKernelArg for an image2d_t parameter (icd_program.c). */
cl_int icd_image_kernel_arg(uint32_t arg_image_type, size_t size, const void *value, cl_context ctx, cl_mem *out)
{
  if (size != sizeof(cl_mem))
    return CL_INVALID_ARG_SIZE;
  cl_mem m = value ? *(const cl_mem *)value : NULL;
  if (!ICD_VALID(m, ICD_MAGIC_MEM) || m->ctx != ctx)
    return CL_INVALID_MEM_OBJECT;
  if (m->type == CL_MEM_OBJECT_BUFFER || m->type != arg_image_type)
    return CL_INVALID_ARG_VALUE;
  *out = m;
  return CL_SUCCESS;
}

/* The launch argument of an image (icd_program.c). */
void icd_image_launch_arg(cl_mem m, sg_arg *a)
{
  a->kind = SG_ARG_IMAGE;
  a->data = m->data;
  a->size = m->size;
  a->image.image_type = CL_MEM_OBJECT_IMAGE2D;
  a->image.channel_order = m->format.image_channel_order;
  a->image.channel_type = m->format.image_channel_data_type;
  a->image.width = m->desc.image_width;
  a->image.height = m->desc.image_height;
  a->image.depth = 1;
  a->image.array_size = 0;
  a->image.row_pitch = m->desc.image_row_pitch;
  a->image.slice_pitch = m->desc.image_row_pitch * m->desc.image_height;
}

void icd_image_fill(struct _cl_icd_dispatch *d)
{
#define SET(name) d->cl##name = icd_##name
  SET(GetSupportedImageFormats); SET(CreateImage); SET(CreateImageWithProperties); SET(CreateImage2D);
  SET(CreateImage3D); SET(GetImageInfo); SET(EnqueueReadImage); SET(EnqueueWriteImage); SET(EnqueueCopyImage);
#undef SET
}
