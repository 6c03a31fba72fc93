/* exec_image.c - OpenCL images without samplers: OpImageRead / OpImageWrite
 * with integer coordinates (read_image{f,i,ui,h} / write_image*), size, format
 * and order queries.  Sampled reads are not supported (the lookup returns
 * NULL, so the interpreter names the instruction).
 *
 * An image operand's register holds the image's handle: the address of its
 * argument region (ld.h, "addresses").  Pixels are laid out as ip_image_desc
 * says: x * pixel size + y * row_pitch + (z or layer) * slice_pitch.
 * Conversions follow the OpenCL C spec (8.3 "Conversion rules"): normalized
 * reads divide by 255 / 65535 / 127 / 32767 (snorm clamped to -1), writes
 * round to nearest even with saturation; integer writes saturate to the
 * channel type.  A coordinate outside the image (undefined for sampler-less
 * reads and for writes) is an out-of-bounds fault: reads give (0,0,0,0),
 * writes are dropped.
 */
#include <math.h>
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include "ip_internal.h"
#include "ip_core.h"

const ip_arg *ip_image_arg(const ip_sg *sg, uint64_t handle) {
  const ip_launch *l = sg->launch;
  uint32_t r = ip_addr_region(ip_layout(sg), handle);
  if (!l || !l->region_arg || r == 0 || r >= sg->m->layout.local_base) return NULL;
  const ip_arg *a = l->region_arg[r];
  return a && a->kind == IP_ARG_IMAGE ? a : NULL;
}

static uint32_t channel_bytes(uint32_t ct) {
  switch (ct) {
  case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT: return 2;
  case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
  default: return 0;
  }
}

/* Stored channels in memory order, as indices into (r,g,b,a); 'I' and 'L'
 * single channels are marked with 4 / 5. */
static uint32_t channel_layout(uint32_t order, uint8_t map[4]) {
  switch (order) {
  case CL_R: case CL_Rx: map[0] = 0; return 1;
  case CL_A: map[0] = 3; return 1;
  case CL_INTENSITY: map[0] = 4; return 1;
  case CL_LUMINANCE: map[0] = 5; return 1;
  case CL_RG: case CL_RGx: map[0] = 0; map[1] = 1; return 2;
  case CL_RA: map[0] = 0; map[1] = 3; return 2;
  case CL_RGBA: map[0] = 0; map[1] = 1; map[2] = 2; map[3] = 3; return 4;
  case CL_BGRA: map[0] = 2; map[1] = 1; map[2] = 0; map[3] = 3; return 4;
  case CL_ARGB: map[0] = 3; map[1] = 0; map[2] = 1; map[3] = 2; return 4;
  case CL_ABGR: map[0] = 3; map[1] = 2; map[2] = 1; map[3] = 0; return 4;
  default: return 0;
  }
}

uint32_t ip_image_pixel_size(const ip_image_desc *d) {
  uint8_t map[4];
  return channel_layout(d->channel_order, map) * channel_bytes(d->channel_type);
}

static bool is_float_type(uint32_t ct) {
  return ct == CL_FLOAT || ct == CL_HALF_FLOAT || ct == CL_UNORM_INT8 || ct == CL_UNORM_INT16 ||
         ct == CL_SNORM_INT8 || ct == CL_SNORM_INT16;
}
static bool is_signed_int_type(uint32_t ct) {
  return ct == CL_SIGNED_INT8 || ct == CL_SIGNED_INT16 || ct == CL_SIGNED_INT32;
}

/* A texel as four channels: floats in f[], integers in i[] (two's complement). */
typedef struct texel { double f[4]; int64_t i[4]; } texel;

static void decode(const ip_image_desc *d, const uint8_t *p, texel *t) {
  uint8_t map[4];
  uint32_t n = channel_layout(d->channel_order, map), cb = channel_bytes(d->channel_type);
  bool fl = is_float_type(d->channel_type);
  for (uint32_t c = 0; c < 4; ++c) { t->f[c] = c == 3 ? 1.0 : 0.0; t->i[c] = c == 3 ? 1 : 0; }
  for (uint32_t k = 0; k < n; ++k) {
    const uint8_t *q = p + (size_t)k * cb;
    uint64_t u = ip_load_uint(q, cb);
    double f = 0; int64_t i = 0;
    switch (d->channel_type) {
    case CL_UNORM_INT8: f = (float)u / 255.0f; break;
    case CL_UNORM_INT16: f = (float)u / 65535.0f; break;
    case CL_SNORM_INT8: f = fmaxf(-1.0f, (float)(int8_t)u / 127.0f); break;
    case CL_SNORM_INT16: f = fmaxf(-1.0f, (float)(int16_t)u / 32767.0f); break;
    case CL_HALF_FLOAT: f = ip_half_to_float((uint16_t)u); break;
    case CL_FLOAT: { float x; memcpy(&x, q, 4); f = x; break; }
    case CL_SIGNED_INT8: i = (int8_t)u; break;
    case CL_SIGNED_INT16: i = (int16_t)u; break;
    case CL_SIGNED_INT32: i = (int32_t)u; break;
    default: i = (int64_t)u; break;   /* unsigned */
    }
    uint32_t m = map[k];
    if (m < 4) { t->f[m] = f; t->i[m] = i; }
    else {
      for (uint32_t c = 0; c < (m == 4 ? 4u : 3u); ++c) { t->f[c] = f; t->i[c] = i; }
    }
  }
  (void)fl;
}

static int64_t sat(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The integer view of a float channel or value (a float image read as
 * integers, float data written to an integer image: the kernel's mistake,
 * whatever the bytes), saturated: NaN and out-of-range values have no
 * int64 in C. */
static int64_t f_to_i64(double f) {
  return isnan(f) ? 0 : f >= 0x1p63 ? INT64_MAX : f < -0x1p63 ? INT64_MIN : (int64_t)f;
}

static uint64_t norm_round(double x, double scale, double lo, double hi) {
  if (isnan(x)) return 0;
  double v = nearbyint(x * scale);
  v = v < lo ? lo : v > hi ? hi : v;
  return (uint64_t)(int64_t)v;
}

static void encode(const ip_image_desc *d, const texel *t, uint8_t *p) {
  uint8_t map[4];
  uint32_t n = channel_layout(d->channel_order, map), cb = channel_bytes(d->channel_type);
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t m = map[k] < 4 ? map[k] : 0;
    double f = t->f[m];
    int64_t i = t->i[m];
    uint64_t u;
    switch (d->channel_type) {
    case CL_UNORM_INT8: u = norm_round((float)f, 255.0, 0, 255); break;
    case CL_UNORM_INT16: u = norm_round((float)f, 65535.0, 0, 65535); break;
    case CL_SNORM_INT8: u = norm_round((float)f, 127.0, -128, 127); break;
    case CL_SNORM_INT16: u = norm_round((float)f, 32767.0, -32768, 32767); break;
    case CL_HALF_FLOAT: u = ip_float_to_half((float)f); break;
    case CL_FLOAT: { float x = (float)f; uint32_t b; memcpy(&b, &x, 4); u = b; break; }
    case CL_SIGNED_INT8: u = (uint64_t)sat((int32_t)i, INT8_MIN, INT8_MAX); break;
    case CL_SIGNED_INT16: u = (uint64_t)sat((int32_t)i, INT16_MIN, INT16_MAX); break;
    case CL_SIGNED_INT32: u = (uint32_t)i; break;
    case CL_UNSIGNED_INT8: u = (uint64_t)sat((uint32_t)i, 0, UINT8_MAX); break;
    case CL_UNSIGNED_INT16: u = (uint64_t)sat((uint32_t)i, 0, UINT16_MAX); break;
    default: u = (uint32_t)i; break;
    }
    memcpy(p + (size_t)k * cb, &u, cb);   /* little-endian host */
  }
}

/* Pixel offset of integer coordinates, or false when outside. */
static bool pixel_offset(const ld_type *it, const ip_image_desc *d, const int64_t c[4], uint32_t ps,
                         uint64_t *out) {
  size_t rp = d->row_pitch ? d->row_pitch : d->width * ps;
  size_t h = d->height ? d->height : 1;
  size_t sp = d->slice_pitch ? d->slice_pitch : (it->dim == SpvDim1D ? rp : rp * h);
  int64_t x = c[0], y = 0, z = 0;
  size_t zlim = 1;
  bool has_y = it->dim == SpvDim2D || it->dim == SpvDim3D;
  if (has_y) y = c[1];
  if (it->dim == SpvDim3D) { z = c[2]; zlim = d->depth; }
  else if (it->arrayed) { z = has_y ? c[2] : c[1]; zlim = d->array_size; }
  if (x < 0 || (size_t)x >= d->width) return false;
  if (has_y && (y < 0 || (size_t)y >= h)) return false;
  if (z < 0 || (size_t)z >= (zlim ? zlim : 1)) return false;
  *out = (uint64_t)x * ps + (uint64_t)y * rp + (uint64_t)z * sp;
  return true;
}

static void coords(const ip_sg *sg, const ip_op *op, uint32_t lane, int64_t c[4]) {
  const ip_opnd *o = &op->in[1];
  uint32_t n = o->type && o->type->n_comp ? o->type->n_comp : 1;
  uint32_t cs = o->type && o->type->comp ? o->type->comp->size : o->size;
  const uint8_t *p = ip_in(sg, op, 1, lane);
  c[0] = c[1] = c[2] = c[3] = 0;
  for (uint32_t k = 0; k < n && k < 4; ++k) {
    uint64_t u = ip_load_uint(p + (size_t)k * cs, cs);
    c[k] = cs == 8 ? (int64_t)u : cs == 4 ? (int32_t)u : cs == 2 ? (int16_t)u : (int8_t)u;
  }
}

static int bad_image(ip_sg *sg, const ip_op *op, uint32_t lane, uint64_t h) {
  ip_mask m = {{0, 0}};
  ip_mask_set(&m, lane);
  return ip_fault(sg, IP_FAULT_BAD_ARGUMENT, m, h, "%s: operand is not an image argument of a supported format",
                  op->insn->op == SpvOpImageWrite ? "OpImageWrite" : "image operation");
}

static int h_image_read(ip_sg *sg, const ip_op *op) {
  int rc = IP_NEXT;
  const ld_type *rt = op->insn->type;
  const ld_type *ct = rt->comp ? rt->comp : rt;
  uint32_t nr = rt->n_comp ? rt->n_comp : 1;
  ip_mask oob = {{0, 0}};
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = ip_res(sg, op, l);
    memset(r, 0, op->res_size);
    uint64_t h = ip_in_uint(sg, op, 0, l);
    const ip_arg *a = ip_image_arg(sg, h);
    uint32_t ps = a ? ip_image_pixel_size(&a->image) : 0;
    if (!ps) { if (bad_image(sg, op, l, h) == IP_HALT) rc = IP_HALT; continue; }
    int64_t c[4];
    uint64_t off;
    coords(sg, op, l, c);
    if (!pixel_offset(op->in[0].type, &a->image, c, ps, &off) || off + ps > a->size) {
      ip_mask_set(&oob, l);
      continue;
    }
    texel t;
    decode(&a->image, (const uint8_t *)a->data + off, &t);
    bool fl = is_float_type(a->image.channel_type);
    for (uint32_t k = 0; k < nr && k < 4; ++k) {
      uint8_t *q = r + (size_t)k * ct->size;
      if (ct->kind == LD_T_FLOAT) {
        double f = fl ? t.f[k] : (double)t.i[k];
        if (ct->width == 16) { uint16_t x = ip_float_to_half((float)f); memcpy(q, &x, 2); }
        else if (ct->width == 32) { float x = (float)f; memcpy(q, &x, 4); }
        else memcpy(q, &f, 8);
      } else {
        int64_t i = fl ? f_to_i64(t.f[k]) : t.i[k];
        memcpy(q, &i, ct->size < 8 ? ct->size : 8);
      }
    }
  }
  if (!ip_mask_empty(oob))
    rc = ip_fault(sg, IP_FAULT_OUT_OF_BOUNDS, oob, 0, "image read outside the image; result (0,0,0,0)") == IP_HALT
             ? IP_HALT : rc;
  return rc;
}

static int h_image_write(ip_sg *sg, const ip_op *op) {
  int rc = IP_NEXT;
  const ld_type *vt = op->in[2].type;
  const ld_type *ct = vt && vt->comp ? vt->comp : vt;
  uint32_t nv = vt && vt->n_comp ? vt->n_comp : 1;
  ip_mask oob = {{0, 0}};
  IP_FOR_LANES(sg->mask, l) {
    uint64_t h = ip_in_uint(sg, op, 0, l);
    const ip_arg *a = ip_image_arg(sg, h);
    uint32_t ps = a ? ip_image_pixel_size(&a->image) : 0;
    if (!ps || !ct) { if (bad_image(sg, op, l, h) == IP_HALT) rc = IP_HALT; continue; }
    int64_t c[4];
    uint64_t off;
    coords(sg, op, l, c);
    if (!pixel_offset(op->in[0].type, &a->image, c, ps, &off) || off + ps > a->size) {
      ip_mask_set(&oob, l);
      continue;
    }
    const uint8_t *v = ip_in(sg, op, 2, l);
    texel t;
    memset(&t, 0, sizeof t);
    for (uint32_t k = 0; k < nv && k < 4; ++k) {
      const uint8_t *q = v + (size_t)k * ct->size;
      if (ct->kind == LD_T_FLOAT) {
        if (ct->width == 16) { uint16_t x; memcpy(&x, q, 2); t.f[k] = ip_half_to_float(x); }
        else if (ct->width == 32) { float x; memcpy(&x, q, 4); t.f[k] = x; }
        else memcpy(&t.f[k], q, 8);
        t.i[k] = f_to_i64(t.f[k]);
      } else {
        uint64_t u = ip_load_uint(q, ct->size);
        /* write_imagei data is signed, write_imageui unsigned: the channel
         * type says which */
        t.i[k] = is_signed_int_type(a->image.channel_type) ? (int64_t)(int32_t)u : (int64_t)(uint32_t)u;
        t.f[k] = (double)t.i[k];
      }
    }
    encode(&a->image, &t, (uint8_t *)a->data + off);
  }
  if (!ip_mask_empty(oob))
    rc = ip_fault(sg, IP_FAULT_OUT_OF_BOUNDS, oob, 0, "image write outside the image; dropped") == IP_HALT
             ? IP_HALT : rc;
  return rc;
}

static void put_uint(uint8_t *r, uint32_t size, uint64_t v) {
  memset(r, 0, size);
  memcpy(r, &v, size < 8 ? size : 8);
}

static int h_image_query(ip_sg *sg, const ip_op *op) {
  int rc = IP_NEXT;
  const ld_type *rt = op->insn->type;
  uint32_t cs = rt->comp ? rt->comp->size : rt->size, nr = rt->n_comp ? rt->n_comp : 1;
  const ld_type *it = op->in[0].type;
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = ip_res(sg, op, l);
    memset(r, 0, op->res_size);
    uint64_t h = ip_in_uint(sg, op, 0, l);
    const ip_arg *a = ip_image_arg(sg, h);
    if (!a) { if (bad_image(sg, op, l, h) == IP_HALT) rc = IP_HALT; continue; }
    const ip_image_desc *d = &a->image;
    switch (op->insn->op) {
    case SpvOpImageQueryFormat: put_uint(r, cs, d->channel_type - CL_SNORM_INT8); break;
    case SpvOpImageQueryOrder: put_uint(r, cs, d->channel_order - CL_R); break;
    case SpvOpImageQueryLevels: put_uint(r, cs, 1); break;
    case SpvOpImageQuerySamples: put_uint(r, cs, 1); break;
    default: {   /* OpImageQuerySize(Lod): width [, height] [, depth] [, array size] */
      uint64_t v[4];
      uint32_t n = 0;
      v[n++] = d->width;
      if (it && (it->dim == SpvDim2D || it->dim == SpvDim3D)) v[n++] = d->height;
      if (it && it->dim == SpvDim3D) v[n++] = d->depth;
      if (it && it->arrayed) v[n++] = d->array_size;
      for (uint32_t k = 0; k < nr && k < n; ++k) put_uint(r + (size_t)k * cs, cs, v[k]);
      break;
    }
    }
  }
  return rc;
}

ip_handler *ip_lookup_image(const ld_module *m, const ld_insn *in, ip_op *op) {
  (void)m;
  switch (in->op) {
  case SpvOpImageRead: return op->n_in >= 2 ? h_image_read : NULL;
  case SpvOpImageWrite: return op->n_in >= 3 ? h_image_write : NULL;
  case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod: case SpvOpImageQueryFormat:
  case SpvOpImageQueryOrder: case SpvOpImageQueryLevels: case SpvOpImageQuerySamples:
    return op->n_in >= 1 ? h_image_query : NULL;
  default: return NULL;
  }
}
