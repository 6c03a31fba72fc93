/* exec_intel.c - SPV_INTEL_subgroups: shuffles, buffer and image block I/O.
 *
 * Operands (op->in): Shuffle (data, id), ShuffleDown (current, next, delta),
 * ShuffleUp (previous, current, delta), ShuffleXor (data, value), BlockRead
 * (ptr), BlockWrite (ptr, data), ImageBlockRead (image, coord), ImageBlockWrite
 * (image, coord, data).
 *
 * Index rules are cl_intel_subgroups' own, against the maximum subgroup size
 * (sg->size).  A source outside the subgroup or a lane that did not reach the
 * shuffle yields zero with IP_UB_INDEX_OUT_OF_RANGE / IP_UB_INACTIVE_LANE.
 *
 * Block I/O: "must be encountered by all work items in a sub-group", pointer /
 * image / coordinate uniform, not in a partial subgroup, pointer 4-byte
 * (read) / 16-byte (write) aligned.  Each violation is diagnosed once; the
 * access is then still performed for the active lanes with the first active
 * lane's pointer (docs/semantics.md).  Element k of lane l is at
 * p[l + k * max_sub_group_size].
 */
#include "ip_internal.h"
#include "ip_gather.h"

#define UB(kind, lanes, ...) \
  do { if (ip_ub(sg, (kind), (lanes), __VA_ARGS__) == IP_HALT) rc = IP_HALT; } while (0)

static int h_shuffle(ip_sg *sg, const ip_op *op) {
  uint32_t src[IP_MAX_LANES];
  uint8_t from[IP_MAX_LANES];
  const char *what;
  switch (op->insn->op) {
  case SpvOpSubgroupShuffleINTEL:
    what = "intel_sub_group_shuffle";
    IP_FOR_LANES(sg->mask, l) {
      uint64_t v = ip_in_uint(sg, op, 1, l);
      src[l] = v < sg->size ? (uint32_t)v : IP_SRC_OUT_OF_RANGE;
      from[l] = 0;
    }
    break;
  case SpvOpSubgroupShuffleXorINTEL:
    what = "intel_sub_group_shuffle_xor";
    IP_FOR_LANES(sg->mask, l) {
      uint64_t v = l ^ ip_in_uint(sg, op, 1, l);
      src[l] = v < sg->size ? (uint32_t)v : IP_SRC_OUT_OF_RANGE;
      from[l] = 0;
    }
    break;
  case SpvOpSubgroupShuffleDownINTEL:
    what = "intel_sub_group_shuffle_down";
    IP_FOR_LANES(sg->mask, l) {
      bool next;
      src[l] = ip_intel_shuffle_down_src(l, ip_in_uint(sg, op, 2, l), sg->size, &next);
      from[l] = next ? 1 : 0;
    }
    break;
  default:
    what = "intel_sub_group_shuffle_up";
    IP_FOR_LANES(sg->mask, l) {
      bool prev;
      src[l] = ip_intel_shuffle_up_src(l, ip_in_uint(sg, op, 2, l), sg->size, &prev);
      from[l] = prev ? 0 : 1;
    }
    break;
  }
  /* src[l]: source lane; from[l]: the operand to read it from */
  return ip_gather(sg, op, src, from, 0, what, IP_GATHER_INTEL);
}

/* The rules every block operation shares; *out_v: the first active lane's
 * operand i (pointer or image). */
static int block_checks(ip_sg *sg, const ip_op *op, uint32_t i, const char *what, uint64_t *out_v) {
  int rc = IP_NEXT;
  uint32_t f = ip_mask_first(sg->mask);
  *out_v = ip_in_uint(sg, op, i, f);
  if (sg->n_lanes < sg->size)
    UB(IP_UB_BLOCK_PARTIAL_SUBGROUP, sg->mask,
       "%s in a partial subgroup (%u of %u lanes); the existing lanes do their part", what, sg->n_lanes, sg->size);
  if (!ip_mask_eq(sg->mask, sg->all))
    UB(IP_UB_PARTIAL_COLLECTIVE, ip_mask_andnot(sg->all, sg->mask),
       "%s must be reached by every work-item of the subgroup; only the active lanes do their part", what);
  ip_mask bad = {{0, 0}};
  IP_FOR_LANES(sg->mask, l)
    if (ip_in_uint(sg, op, i, l) != *out_v) ip_mask_set(&bad, l);
  if (!ip_mask_empty(bad))
    UB(IP_UB_NONUNIFORM, bad, "%s: the %s must be the same for every lane; using lane %u's", what,
       i == 0 && op->in[0].type && op->in[0].type->kind == LD_T_IMAGE ? "image" : "pointer", f);
  return rc;
}

static int merge_rc(int a, int b) { return a == IP_HALT || b == IP_HALT ? IP_HALT : IP_NEXT; }

static int h_block_read(ip_sg *sg, const ip_op *op) {
  const ld_type *t = op->insn->type;
  uint32_t nc = t->n_comp ? t->n_comp : 1, es = t->comp ? t->comp->size : t->size;
  uint64_t p;
  int rc = block_checks(sg, op, 0, "intel_sub_group_block_read", &p);
  if (ip_addr_offset(ip_layout(sg), p) % 4)
    UB(IP_UB_BLOCK_ALIGNMENT, sg->mask, "intel_sub_group_block_read: pointer 0x%llx is not 4-byte aligned",
       (unsigned long long)p);
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = ip_res(sg, op, l);
    memset(r, 0, op->res_size);
    for (uint32_t k = 0; k < nc; ++k) {
      uint64_t a = p + ((uint64_t)l + (uint64_t)k * sg->size) * es;
      void *h = ip_mem(sg, l, a, es, 1, IP_READ);
      if (h) memcpy(r + (size_t)k * es, h, es);
    }
  }
  return rc;
}

static int h_block_write(ip_sg *sg, const ip_op *op) {
  const ld_type *t = op->in[1].type;
  uint32_t nc = t->n_comp ? t->n_comp : 1, es = t->comp ? t->comp->size : t->size;
  uint64_t p;
  int rc = block_checks(sg, op, 0, "intel_sub_group_block_write", &p);
  if (ip_addr_offset(ip_layout(sg), p) % 16)
    UB(IP_UB_BLOCK_ALIGNMENT, sg->mask, "intel_sub_group_block_write: pointer 0x%llx is not 16-byte aligned",
       (unsigned long long)p);
  IP_FOR_LANES(sg->mask, l) {
    const uint8_t *d = ip_in(sg, op, 1, l);
    for (uint32_t k = 0; k < nc; ++k) {
      uint64_t a = p + ((uint64_t)l + (uint64_t)k * sg->size) * es;
      void *h = ip_mem(sg, l, a, es, 1, IP_WRITE);
      if (h) memcpy(h, d + (size_t)k * es, es);
    }
  }
  return rc;
}

/* ---------------------------------------------------- image block I/O
 * Lane l, element k: bytes [x + l*es, x + (l+1)*es) of row y + k.  When the
 * image's pixel size equals es the access is bounds-checked in pixels:
 * reads clamp to the edge, writes outside are dropped (cl_intel_subgroups'
 * note).  Otherwise the whole image is addressable and an access outside it
 * is IP_UB_OTHER (reads 0, writes dropped). */

static int image_block(ip_sg *sg, const ip_op *op, bool write) {
  const char *what = write ? "intel_sub_group_block_write (image)" : "intel_sub_group_block_read (image)";
  const ld_type *t = write ? op->in[2].type : op->insn->type;
  uint32_t nc = t->n_comp ? t->n_comp : 1, es = t->comp ? t->comp->size : t->size;
  uint64_t handle;
  int rc = block_checks(sg, op, 0, what, &handle);
  const ip_arg *arg = ip_image_arg(sg, handle);
  if (!arg) {
    rc = merge_rc(rc, ip_fault(sg, IP_FAULT_BAD_ARGUMENT, sg->mask, handle, "%s: operand is not an image argument", what));
    if (!write) IP_FOR_LANES(sg->mask, l) memset(ip_res(sg, op, l), 0, op->res_size);
    return rc;
  }
  const ip_image_desc *d = &arg->image;
  uint32_t ps = ip_image_pixel_size(d);
  size_t pitch = d->row_pitch ? d->row_pitch : d->width * ps;
  /* coordinates: int2, must be uniform */
  uint32_t f = ip_mask_first(sg->mask);
  const uint8_t *cp = ip_in(sg, op, 1, f);
  uint32_t cs = op->in[1].type && op->in[1].type->comp ? op->in[1].type->comp->size : 4;
  int64_t x = (int64_t)(int32_t)ip_load_uint(cp, cs), y = (int64_t)(int32_t)ip_load_uint(cp + cs, cs);
  ip_mask bad = {{0, 0}};
  IP_FOR_LANES(sg->mask, l)
    if (memcmp(ip_in(sg, op, 1, l), cp, 2 * cs)) ip_mask_set(&bad, l);
  if (!ip_mask_empty(bad))
    UB(IP_UB_NONUNIFORM, bad, "%s: the coordinate must be the same for every lane; using lane %u's", what, f);
  if (write && x % 4)
    UB(IP_UB_IMAGE_BLOCK_X, sg->mask, "%s: byte x coordinate %lld is not a multiple of 4", what, (long long)x);
  if (ps > 4)
    UB(IP_UB_OTHER, sg->mask, "%s on an image with %u-byte elements (at most 4 allowed)", what, ps);
  bool checked = ps == es;
  ip_mask outside = {{0, 0}};
  uint8_t *pix = arg->data;
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = write ? NULL : ip_res(sg, op, l);
    const uint8_t *src = write ? ip_in(sg, op, 2, l) : NULL;
    if (r) memset(r, 0, op->res_size);
    for (uint32_t k = 0; k < nc; ++k) {
      int64_t bx = x + (int64_t)l * es, by = y + k;
      if (checked) {
        /* cl_intel_subgroups: reads "may read from any arbitrary byte offset";
         * an element wholly inside the row is read as is, even unaligned.
         * Otherwise bounds are checked in units of uints: reads clamp to the
         * edge element, writes (x a multiple of 4, else UB above) are dropped. */
        bool in = bx >= 0 && (uint64_t)bx + es <= (uint64_t)d->width * ps && by >= 0 &&
                  by < (int64_t)d->height && (!write || bx % es == 0);
        if (write && !in) continue;
        if (!in) {
          int64_t px = bx >= 0 ? bx / es : -1;
          px = px < 0 ? 0 : px >= (int64_t)d->width ? (int64_t)d->width - 1 : px;
          by = by < 0 ? 0 : by >= (int64_t)d->height ? (int64_t)d->height - 1 : by;
          bx = px * es;
        }
      } else if (bx < 0 || by < 0 || (uint64_t)bx + es > d->width * ps || by >= (int64_t)d->height) {
        ip_mask_set(&outside, l);
        continue;
      }
      uint64_t off = (uint64_t)by * pitch + (uint64_t)bx;
      if (off + es > arg->size) { ip_mask_set(&outside, l); continue; }
      if (write) memcpy(pix + off, src + (size_t)k * es, es);
      else memcpy(r + (size_t)k * es, pix + off, es);
    }
  }
  if (!ip_mask_empty(outside))
    UB(IP_UB_OTHER, outside, "%s outside the image (%zux%zu, %u-byte elements); %s", what,
       d->width, d->height, ps, write ? "write dropped" : "read 0");
  return rc;
}

static int h_image_block_read(ip_sg *sg, const ip_op *op) { return image_block(sg, op, false); }
static int h_image_block_write(ip_sg *sg, const ip_op *op) { return image_block(sg, op, true); }

ip_handler *ip_lookup_intel(const ld_module *m, const ld_insn *in, ip_op *op) {
  (void)m;
  switch (in->op) {
  case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleXorINTEL:
    return op->n_in >= 2 ? h_shuffle : NULL;
  case SpvOpSubgroupShuffleDownINTEL: case SpvOpSubgroupShuffleUpINTEL:
    return op->n_in >= 3 ? h_shuffle : NULL;
  case SpvOpSubgroupBlockReadINTEL: return op->n_in >= 1 ? h_block_read : NULL;
  case SpvOpSubgroupBlockWriteINTEL: return op->n_in >= 2 ? h_block_write : NULL;
  case SpvOpSubgroupImageBlockReadINTEL: return op->n_in >= 2 ? h_image_block_read : NULL;
  case SpvOpSubgroupImageBlockWriteINTEL: return op->n_in >= 3 ? h_image_block_write : NULL;
  default: return NULL;
  }
}
