/* ld_types.c - types (interned, OpenCL C ABI layout) and constants (final
 * little-endian bytes, spec constants with overrides, OpSpecConstantOp). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "ld_internal.h"

/* ------------------------------------------------------------ interning */

/* Scalars, vectors and pointers are interned: structurally identical ones
 * share one ld_type (the first defining id).  Linear probing on a small hash
 * keyed by the structural fields. */
static uint64_t type_key(const ld_type *t) {
  uint64_t h = (uint64_t)t->kind * 0x9e3779b97f4a7c15ull;
  h ^= ((uint64_t)t->width << 1) ^ ((uint64_t)t->is_signed << 9) ^ ((uint64_t)t->count << 17);
  h ^= (uint64_t)(uintptr_t)t->elem * 0xff51afd7ed558ccdull;
  h ^= (uint64_t)t->storage << 40;
  h ^= h >> 29;
  return h * 0xc4ceb9fe1a85ec53ull;
}

static bool type_same(const ld_type *a, const ld_type *b) {
  return a->kind == b->kind && a->width == b->width && a->is_signed == b->is_signed &&
         a->count == b->count && a->elem == b->elem && a->storage == b->storage;
}

typedef struct intern_tab {
  ld_type **slots;
  uint32_t cap;
} intern_tab;

static _Thread_local intern_tab *cur_tab;   /* set by the loader for one load */

static ld_type *intern(ld_b *b, ld_type *t) {
  if (!cur_tab || !cur_tab->slots) return t;
  uint32_t mask = cur_tab->cap - 1;
  uint32_t i = (uint32_t)type_key(t) & mask;
  for (uint32_t n = 0; n < cur_tab->cap; n++, i = (i + 1) & mask) {
    ld_type *s = cur_tab->slots[i];
    if (!s) { cur_tab->slots[i] = t; return t; }
    if (type_same(s, t)) return s;
  }
  (void)b;
  return t;
}

/* Called by ld_load.c around the global pass. */
void ld_types_begin(ld_b *b, uint32_t n_type_insns);
void ld_types_begin(ld_b *b, uint32_t n_type_insns) {
  static _Thread_local intern_tab tab;
  uint32_t cap = 64;
  while (cap < 2 * n_type_insns + 2 && cap < (1u << 30)) cap <<= 1;
  tab.slots = ld_alloc(b, cap, sizeof *tab.slots);
  tab.cap = cap;
  cur_tab = &tab;
}

static void add_type(ld_b *b, ld_type *t) {
  if (b->n_types == b->cap_types) {
    uint32_t nc = b->cap_types ? b->cap_types * 2 : 64;
    ld_type **n = ld_alloc(b, nc, sizeof *n);
    if (b->n_types) memcpy(n, b->types, b->n_types * sizeof *n);
    b->types = n;
    b->cap_types = nc;
  }
  b->types[b->n_types++] = t;
}

static uint32_t pow2_ceil(uint32_t v) {
  uint32_t p = 1;
  while (p < v && p < 0x80000000u) p <<= 1;
  return p;
}

static void define_type(ld_b *b, uint32_t id, ld_type *t, bool internable) {
  ld_type *r = t;
  if (internable) {
    r = intern(b, t);
  }
  if (r == t) {
    t->id = id;
    add_type(b, t);
  }
  b->values[id].kind = LD_V_TYPE;
  b->values[id].type = r;
}

static uint32_t checked_mul(ld_b *b, uint64_t a, uint64_t c, const char *what) {
  uint64_t r;
  if (__builtin_mul_overflow(a, c, &r) || r > 0x7fffffffu)
    ld_fail(b, LD_ERR_UNSUPPORTED, "%s is too large (%llu x %llu bytes)", what,
            (unsigned long long)a, (unsigned long long)c);
  return (uint32_t)r;
}

static uint32_t align_up(ld_b *b, uint64_t v, uint32_t a) {
  if (a == 0) a = 1;
  uint64_t r = (v + a - 1) / a * a;
  if (r > 0x7fffffffu) ld_fail(b, LD_ERR_UNSUPPORTED, "type is too large (%llu bytes)",
                               (unsigned long long)r);
  return (uint32_t)r;
}

static bool is_scalar(const ld_type *t) {
  return t && (t->kind == LD_T_BOOL || t->kind == LD_T_INT || t->kind == LD_T_FLOAT);
}

void ld_decode_type(ld_b *b, const spv_insn_ref *in) {
  const uint32_t *w = in->words;
  uint32_t n = in->n_words;
  if (in->op == SpvOpTypeForwardPointer) {
    if (n < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
    if (w[1] == 0 || w[1] >= b->bound) ld_fail(b, LD_ERR_INVALID, "id %u is out of bounds", w[1]);
    b->info[w[1]].fwd_ptr = 1;
    return;
  }
  if (n < 2) ld_fail(b, LD_ERR_INVALID, "missing result id");
  uint32_t id = w[1];
  ld_type *t = ld_alloc(b, 1, sizeof *t);
  t->access = (SpvAccessQualifier)-1;
  bool internable = false;
  uint32_t ptr_bytes = b->m->addr_bits / 8;
#define NEED(k) do { if (n < (k)) ld_fail(b, LD_ERR_INVALID, "missing operands"); } while (0)
  switch (in->op) {
  case SpvOpTypeVoid:
    t->kind = LD_T_VOID;
    internable = true;
    break;
  case SpvOpTypeBool:
    t->kind = LD_T_BOOL;
    t->size = t->align = 1;
    t->width = 1;
    internable = true;
    break;
  case SpvOpTypeInt:
    NEED(4);
    if (w[2] == 0 || w[2] > 64)
      ld_fail(b, LD_ERR_UNSUPPORTED, "OpTypeInt of width %u is not supported (at most 64)", w[2]);
    t->kind = LD_T_INT;
    t->width = w[2];
    t->is_signed = w[3] != 0;
    t->size = t->align = pow2_ceil((w[2] + 7) / 8);
    internable = true;
    break;
  case SpvOpTypeFloat:
    NEED(3);
    if (w[2] != 16 && w[2] != 32 && w[2] != 64)
      ld_fail(b, LD_ERR_UNSUPPORTED, "OpTypeFloat of width %u is not supported", w[2]);
    t->kind = LD_T_FLOAT;
    t->width = w[2];
    t->size = t->align = w[2] / 8;
    internable = true;
    break;
  case SpvOpTypeVector: {
    NEED(4);
    const ld_type *c = ld_get_type(b, w[2], "vector component type");
    if (!is_scalar(c) && c->kind != LD_T_POINTER)
      ld_fail(b, LD_ERR_INVALID, "vector component type %s is not a scalar", ld_id_name(b->m, w[2]));
    if (w[3] < 2 || w[3] > 16)
      ld_fail(b, LD_ERR_UNSUPPORTED, "vector of %u components is not supported", w[3]);
    t->kind = LD_T_VECTOR;
    t->count = w[3];
    t->elem = c;
    /* OpenCL C: a 3-component vector has the size and alignment of 4. */
    t->size = checked_mul(b, w[3] == 3 ? 4 : w[3], c->size, "vector type");
    t->align = pow2_ceil(t->size);
    t->size = align_up(b, t->size, t->align);
    internable = true;
    break;
  }
  case SpvOpTypeArray: {
    NEED(4);
    const ld_type *e = ld_get_type(b, w[2], "array element type");
    const ld_value *len = ld_get_const(b, w[3], "array length");
    if (!len->type || len->type->kind != LD_T_INT)
      ld_fail(b, LD_ERR_INVALID, "array length %s is not an integer constant", ld_id_name(b->m, w[3]));
    uint64_t count = ld_const_u64(len);
    if (count == 0 || count > 0x7fffffffu)
      ld_fail(b, LD_ERR_UNSUPPORTED, "array length %llu is not supported", (unsigned long long)count);
    if (e->size == 0 && e->kind != LD_T_VOID)
      ld_fail(b, LD_ERR_INVALID, "array element type has no size");
    t->kind = LD_T_ARRAY;
    t->count = (uint32_t)count;
    t->elem = e;
    t->size = checked_mul(b, count, e->size, "array type");
    t->align = e->align ? e->align : 1;
    internable = true;
    break;
  }
  case SpvOpTypeRuntimeArray:
    NEED(3);
    t->kind = LD_T_RUNTIME_ARRAY;
    t->elem = ld_get_type(b, w[2], "array element type");
    t->align = t->elem->align ? t->elem->align : 1;
    break;
  case SpvOpTypeStruct: {
    t->kind = LD_T_STRUCT;
    t->n_members = n - 2;
    const ld_type **mem = ld_alloc(b, t->n_members ? t->n_members : 1, sizeof *mem);
    uint32_t *off = ld_alloc(b, t->n_members ? t->n_members : 1, sizeof *off);
    bool packed = ld_find_deco(b, id, -1, SpvDecorationCPacked) != NULL;
    uint64_t cur = 0, end = 0;
    uint32_t align = 1;
    for (uint32_t i = 0; i < t->n_members; i++) {
      mem[i] = ld_get_type(b, w[2 + i], "struct member type");
      uint32_t ma = packed ? 1 : (mem[i]->align ? mem[i]->align : 1);
      const ld_decoration *d = ld_find_deco(b, id, (int32_t)i, SpvDecorationOffset);
      uint64_t o;
      if (d && d->n_literals >= 1) o = d->literals[0];
      else o = align_up(b, cur, ma);
      off[i] = (uint32_t)o;
      cur = o + mem[i]->size;
      if (cur > end) end = cur;
      if (ma > align) align = ma;
    }
    t->members = mem;
    t->offsets = off;
    t->align = align;
    t->size = align_up(b, end, align);
    break;
  }
  case SpvOpTypePointer: {
    NEED(4);
    t->kind = LD_T_POINTER;
    t->storage = (SpvStorageClass)w[2];
    t->size = t->align = ptr_bytes;
    uint32_t p = w[3];
    if (p == 0 || p >= b->bound) ld_fail(b, LD_ERR_INVALID, "pointee id %u is out of bounds", p);
    if (b->values[p].kind == LD_V_TYPE) {
      t->elem = b->values[p].type;
      internable = true;
    } else {
      /* pointer to a type declared later (OpTypeForwardPointer): patched
       * after the global section; count holds the pointee id until then */
      t->count = p;
    }
    break;
  }
  case SpvOpTypeFunction: {
    NEED(3);
    t->kind = LD_T_FUNCTION;
    t->elem = ld_get_type(b, w[2], "function return type");
    t->n_members = n - 3;
    const ld_type **mem = ld_alloc(b, t->n_members ? t->n_members : 1, sizeof *mem);
    for (uint32_t i = 0; i < t->n_members; i++)
      mem[i] = ld_get_type(b, w[3 + i], "function parameter type");
    t->members = mem;
    break;
  }
  case SpvOpTypeImage:
    NEED(9);
    t->kind = LD_T_IMAGE;
    t->elem = ld_get_type(b, w[2], "image sampled type");
    t->dim = (SpvDim)w[3];
    t->depth = w[4];
    t->arrayed = w[5];
    t->ms = w[6];
    t->sampled = w[7];
    t->format = (SpvImageFormat)w[8];
    if (n > 9) t->access = (SpvAccessQualifier)w[9];
    t->size = t->align = ptr_bytes;
    break;
  case SpvOpTypeSampler:
    /* a sampler value is the OpenCL CLK_* bits in a uint32 */
    t->kind = LD_T_SAMPLER;
    t->size = t->align = 4;
    internable = true;
    break;
  case SpvOpTypeSampledImage:
    NEED(3);
    t->kind = LD_T_SAMPLED_IMAGE;
    t->elem = ld_get_type(b, w[2], "sampled image type");
    t->size = t->align = 8;
    break;
  case SpvOpTypeEvent: t->kind = LD_T_EVENT; t->size = t->align = ptr_bytes; break;
  case SpvOpTypeDeviceEvent: t->kind = LD_T_DEVICE_EVENT; t->size = t->align = ptr_bytes; break;
  case SpvOpTypeReserveId: t->kind = LD_T_RESERVE_ID; t->size = t->align = ptr_bytes; break;
  case SpvOpTypeQueue: t->kind = LD_T_QUEUE; t->size = t->align = ptr_bytes; break;
  case SpvOpTypePipe:
    t->kind = LD_T_PIPE;
    t->size = t->align = ptr_bytes;
    if (n > 2) t->access = (SpvAccessQualifier)w[2];
    break;
  default:
    t->kind = LD_T_OPAQUE;
    break;
  }
#undef NEED
  if (is_scalar(t)) { t->n_comp = 1; t->comp = NULL; }
  if (t->kind == LD_T_VECTOR) { t->n_comp = t->count; t->comp = t->elem; }
  define_type(b, id, t, internable);
  ld_type *r = (ld_type *)b->values[id].type;
  if (is_scalar(r) && !r->comp) r->comp = r;
}

/* --------------------------------------------------------------- values */

static void put_le(uint8_t *p, uint32_t size, uint64_t v) {
  for (uint32_t i = 0; i < size && i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, uint32_t size) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < size && i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static uint64_t width_mask(uint32_t w) { return w >= 64 ? ~0ull : ((1ull << w) - 1); }

static int64_t sext(uint64_t v, uint32_t w) {
  if (w == 0 || w >= 64) return (int64_t)v;
  uint64_t m = 1ull << (w - 1);
  v &= width_mask(w);
  return (int64_t)((v ^ m) - m);
}

uint64_t ld_const_u64(const ld_value *v) {
  if (!v->type || (v->kind != LD_V_CONSTANT && v->kind != LD_V_UNDEF) || !v->u.bytes) return 0;
  return get_le(v->u.bytes, v->type->size);
}

/* Bytes of an operand of a constant instruction: constants, undef, and
 * module variables (their address). */
static const uint8_t *operand_bytes(ld_b *b, uint32_t id, const ld_type **out_type,
                                    const char *what) {
  const ld_value *v = ld_get(b, id, what);
  if (v->kind == LD_V_CONSTANT || v->kind == LD_V_UNDEF) {
    *out_type = v->type;
    return v->u.bytes;
  }
  if (v->kind == LD_V_VARIABLE) {
    uint8_t *p = ld_alloc(b, 8, 1);
    put_le(p, 8, v->u.var->address);
    *out_type = v->type;
    return p;
  }
  ld_fail(b, LD_ERR_INVALID, "%s %s is not a constant", what, ld_id_name(b->m, id));
}

static const ld_type *result_type(ld_b *b, const spv_insn_ref *in) {
  if (in->n_words < 3) ld_fail(b, LD_ERR_INVALID, "missing operands");
  return ld_get_type(b, in->words[1], "result type");
}

/* Offset/type of a composite element. */
static const ld_type *member_at(ld_b *b, const ld_type *t, uint32_t idx, uint32_t *out_off) {
  switch (t->kind) {
  case LD_T_VECTOR:
  case LD_T_ARRAY:
    if (idx >= t->count) ld_fail(b, LD_ERR_INVALID, "composite index %u out of range (%u)", idx, t->count);
    *out_off = idx * t->elem->size;
    return t->elem;
  case LD_T_STRUCT:
    if (idx >= t->n_members) ld_fail(b, LD_ERR_INVALID, "struct member index %u out of range (%u)", idx, t->n_members);
    *out_off = t->offsets[idx];
    return t->members[idx];
  default:
    ld_fail(b, LD_ERR_INVALID, "indexing into a non-composite type");
  }
}

static void write_composite(ld_b *b, const ld_type *t, uint8_t *out, const uint32_t *ids,
                            uint32_t n) {
  uint32_t expect = t->kind == LD_T_STRUCT ? t->n_members : t->count;
  if (t->kind != LD_T_STRUCT && t->kind != LD_T_ARRAY && t->kind != LD_T_VECTOR)
    ld_fail(b, LD_ERR_INVALID, "composite constant of a non-composite type");
  /* A vector may be built from smaller vectors (rare in constants). */
  if (t->kind == LD_T_VECTOR) {
    uint32_t pos = 0;
    for (uint32_t i = 0; i < n; i++) {
      const ld_type *ct;
      const uint8_t *src = operand_bytes(b, ids[i], &ct, "constituent");
      uint32_t k = ct->kind == LD_T_VECTOR ? ct->count : 1;
      if (pos + k > t->count || ct->size == 0)
        ld_fail(b, LD_ERR_INVALID, "too many constituents for the vector type");
      uint32_t es = t->elem->size;
      for (uint32_t j = 0; j < k; j++) memcpy(out + (pos + j) * es, src + j * es, es);
      pos += k;
    }
    if (pos != t->count) ld_fail(b, LD_ERR_INVALID, "constituent count %u does not match %u", pos, t->count);
    return;
  }
  if (n != expect)
    ld_fail(b, LD_ERR_INVALID, "constituent count %u does not match the type (%u)", n, expect);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t off;
    const ld_type *mt = member_at(b, t, i, &off);
    const ld_type *ct;
    const uint8_t *src = operand_bytes(b, ids[i], &ct, "constituent");
    if (ct->size != mt->size)
      ld_fail(b, LD_ERR_INVALID, "constituent %s has the wrong type", ld_id_name(b->m, ids[i]));
    memcpy(out + off, src, mt->size);
  }
}

static const ld_spec_override *find_override(ld_b *b, int32_t spec_id) {
  if (spec_id < 0 || !b->opt) return NULL;
  for (uint32_t i = 0; i < b->opt->n_spec; i++)
    if (b->opt->spec[i].spec_id == (uint32_t)spec_id) return &b->opt->spec[i];
  return NULL;
}

/* ---- half/float helpers (for FConvert and float spec ops) ---- */

static double half_to_double(uint16_t h) {
  uint32_t s = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v;
  if (e == 0) v = ldexp((double)m, -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = ldexp((double)(m | 0x400), (int)e - 25);
  return s ? -v : v;
}

static uint16_t float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t s = (x >> 16) & 0x8000;
  uint32_t e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return (uint16_t)(s | 0x7c00 | (m ? 0x200 : 0));
  int32_t ne = (int32_t)e - 127 + 15;
  if (ne >= 31) return (uint16_t)(s | 0x7c00);
  if (ne <= 0) {
    if (ne < -10) return (uint16_t)s;
    m |= 0x800000;
    uint32_t shift = (uint32_t)(14 - ne);
    uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (hm & 1))) hm++;
    return (uint16_t)(s | hm);
  }
  uint32_t hm = m >> 13, rem = m & 0x1fff;
  uint32_t r = s | ((uint32_t)ne << 10) | hm;
  if (rem > 0x1000 || (rem == 0x1000 && (hm & 1))) r++;
  return (uint16_t)r;
}

static double get_f(uint64_t raw, uint32_t width) {
  if (width == 16) return half_to_double((uint16_t)raw);
  if (width == 32) { float f; uint32_t u = (uint32_t)raw; memcpy(&f, &u, 4); return f; }
  double d;
  memcpy(&d, &raw, 8);
  return d;
}

static uint64_t put_f(double d, uint32_t width) {
  if (width == 16) return float_to_half((float)d);
  if (width == 32) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); return u; }
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

/* ---- OpSpecConstantOp ---- */

static uint64_t comp_get(const uint8_t *bytes, const ld_type *t, uint32_t i) {
  const ld_type *c = t->kind == LD_T_VECTOR ? t->elem : t;
  uint32_t k = t->kind == LD_T_VECTOR ? i : 0;
  return get_le(bytes + k * c->size, c->size);
}

static uint64_t f_to_int(double d, uint32_t w, bool sgn) {
  if (isnan(d)) return 0;
  if (sgn) {
    double lo = -ldexp(1.0, (int)w - 1), hi = ldexp(1.0, (int)w - 1);
    if (d <= lo) return (uint64_t)(int64_t)lo & width_mask(w);
    if (d >= hi) return width_mask(w - 1);
    return (uint64_t)(int64_t)d & width_mask(w);
  }
  if (d <= 0) return 0;
  if (d >= ldexp(1.0, (int)w)) return width_mask(w);
  return (uint64_t)d & width_mask(w);
}

static uint32_t comp_width(const ld_type *c) {
  return c->kind == LD_T_BOOL ? 1 : c->kind == LD_T_POINTER ? c->size * 8 : c->width;
}

static void spec_op(ld_b *b, const spv_insn_ref *in, const ld_type *rt, uint8_t *out) {
  const uint32_t *w = in->words;
  uint32_t n = in->n_words;
  if (n < 4) ld_fail(b, LD_ERR_INVALID, "missing operands");
  SpvOp op = (SpvOp)w[3];
  const uint32_t *a = w + 4;
  uint32_t na = n - 4;
#define NARGS(k) do { if (na < (k)) ld_fail(b, LD_ERR_INVALID, "OpSpecConstantOp %s: missing operands", spv_opcode_name(op)); } while (0)
  switch (op) {
  case SpvOpCompositeExtract: {
    NARGS(1);
    const ld_type *t;
    const uint8_t *src = operand_bytes(b, a[0], &t, "composite");
    uint32_t off = 0;
    for (uint32_t i = 1; i < na; i++) {
      uint32_t o;
      t = member_at(b, t, a[i], &o);
      off += o;
    }
    if (t->size != rt->size) ld_fail(b, LD_ERR_INVALID, "result type does not match the extracted type");
    memcpy(out, src + off, rt->size);
    return;
  }
  case SpvOpCompositeInsert: {
    NARGS(2);
    const ld_type *ot, *t;
    const uint8_t *obj = operand_bytes(b, a[0], &ot, "object");
    const uint8_t *src = operand_bytes(b, a[1], &t, "composite");
    if (t->size != rt->size) ld_fail(b, LD_ERR_INVALID, "result type does not match the composite");
    memcpy(out, src, rt->size);
    uint32_t off = 0;
    for (uint32_t i = 2; i < na; i++) {
      uint32_t o;
      t = member_at(b, t, a[i], &o);
      off += o;
    }
    if (t->size != ot->size) ld_fail(b, LD_ERR_INVALID, "object type does not match the member");
    memcpy(out + off, obj, t->size);
    return;
  }
  case SpvOpVectorShuffle: {
    NARGS(2);
    const ld_type *t1, *t2;
    const uint8_t *v1 = operand_bytes(b, a[0], &t1, "vector");
    const uint8_t *v2 = operand_bytes(b, a[1], &t2, "vector");
    if (rt->kind != LD_T_VECTOR || t1->kind != LD_T_VECTOR || t2->kind != LD_T_VECTOR ||
        na - 2 != rt->count || t1->elem->size != rt->elem->size || t2->elem->size != rt->elem->size)
      ld_fail(b, LD_ERR_INVALID, "OpVectorShuffle operands do not match the result type");
    uint32_t es = rt->elem->size;
    for (uint32_t i = 0; i < rt->count; i++) {
      uint32_t c = a[2 + i];
      if (c == 0xffffffffu) memset(out + i * es, 0, es);
      else if (c < t1->count) memcpy(out + i * es, v1 + c * es, es);
      else if (c - t1->count < t2->count) memcpy(out + i * es, v2 + (c - t1->count) * es, es);
      else ld_fail(b, LD_ERR_INVALID, "OpVectorShuffle component %u out of range", c);
    }
    return;
  }
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: {
    NARGS(1);
    const ld_type *pt;
    const uint8_t *base = operand_bytes(b, a[0], &pt, "base pointer");
    if (pt->kind != LD_T_POINTER || !pt->elem) ld_fail(b, LD_ERR_INVALID, "base is not a pointer");
    uint64_t addr = get_le(base, pt->size);
    const ld_type *t = pt->elem;
    uint32_t i = 1;
    if (op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain) {
      NARGS(2);
      const ld_value *e = ld_get_const(b, a[1], "element index");
      addr += (uint64_t)sext(ld_const_u64(e), e->type->width) * t->size;
      i = 2;
    }
    for (; i < na; i++) {
      const ld_value *e = ld_get_const(b, a[i], "index");
      if (!e->type || e->type->kind != LD_T_INT) ld_fail(b, LD_ERR_INVALID, "index is not an integer");
      int64_t idx = sext(ld_const_u64(e), e->type->width);
      if (t->kind == LD_T_STRUCT) {
        uint32_t o;
        t = member_at(b, t, (uint32_t)idx, &o);
        addr += o;
      } else if (t->kind == LD_T_ARRAY || t->kind == LD_T_VECTOR || t->kind == LD_T_RUNTIME_ARRAY) {
        addr += (uint64_t)idx * t->elem->size;
        t = t->elem;
      } else {
        ld_fail(b, LD_ERR_INVALID, "access chain indexes into a non-composite type");
      }
    }
    put_le(out, rt->size, addr);
    return;
  }
  default:
    break;
  }
  /* Elementwise operations. */
  const ld_type *rc = rt->kind == LD_T_VECTOR ? rt->elem : rt;
  uint32_t nc = rt->kind == LD_T_VECTOR ? rt->count : 1;
  if (!is_scalar(rc) && rc->kind != LD_T_POINTER)
    ld_fail(b, LD_ERR_INVALID, "OpSpecConstantOp %s: result type is not a scalar or vector",
            spv_opcode_name(op));
  uint32_t arity;
  switch (op) {
  case SpvOpSelect: arity = 3; break;
  case SpvOpSConvert: case SpvOpUConvert: case SpvOpFConvert: case SpvOpConvertFToS:
  case SpvOpConvertSToF: case SpvOpConvertFToU: case SpvOpConvertUToF: case SpvOpConvertPtrToU:
  case SpvOpConvertUToPtr: case SpvOpGenericCastToPtr: case SpvOpPtrCastToGeneric:
  case SpvOpBitcast: case SpvOpSNegate: case SpvOpNot: case SpvOpLogicalNot: case SpvOpFNegate:
    arity = 1; break;
  case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv:
  case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: case SpvOpShiftRightLogical:
  case SpvOpShiftRightArithmetic: case SpvOpShiftLeftLogical: case SpvOpBitwiseOr:
  case SpvOpBitwiseXor: case SpvOpBitwiseAnd: case SpvOpLogicalOr: case SpvOpLogicalAnd:
  case SpvOpLogicalEqual: case SpvOpLogicalNotEqual: case SpvOpIEqual: case SpvOpINotEqual:
  case SpvOpULessThan: case SpvOpSLessThan: case SpvOpUGreaterThan: case SpvOpSGreaterThan:
  case SpvOpULessThanEqual: case SpvOpSLessThanEqual: case SpvOpUGreaterThanEqual:
  case SpvOpSGreaterThanEqual: case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
  case SpvOpFRem: case SpvOpFMod:
    arity = 2; break;
  default:
    ld_fail(b, LD_ERR_UNSUPPORTED, "OpSpecConstantOp %s is not supported", spv_opcode_name(op));
  }
  NARGS(arity);
  const uint8_t *src[3];
  const ld_type *st[3];
  for (uint32_t k = 0; k < arity; k++) {
    src[k] = operand_bytes(b, a[k], &st[k], "operand");
    if (!is_scalar(st[k]) && st[k]->kind != LD_T_POINTER && st[k]->kind != LD_T_VECTOR)
      ld_fail(b, LD_ERR_INVALID, "operand %s is not a scalar or vector", ld_id_name(b->m, a[k]));
  }
  if (op == SpvOpBitcast || ((op == SpvOpConvertPtrToU || op == SpvOpConvertUToPtr ||
                              op == SpvOpGenericCastToPtr || op == SpvOpPtrCastToGeneric) &&
                             st[0]->size == rt->size)) {
    if (st[0]->size != rt->size) ld_fail(b, LD_ERR_INVALID, "OpBitcast between types of different sizes");
    memcpy(out, src[0], rt->size);
    return;
  }
  for (uint32_t k = 0; k < arity; k++) {
    uint32_t kn = st[k]->kind == LD_T_VECTOR ? st[k]->count : 1;
    if (kn != nc && !(op == SpvOpSelect && k == 0 && kn == 1))
      ld_fail(b, LD_ERR_INVALID, "operand %s has %u components, the result %u",
              ld_id_name(b->m, a[k]), kn, nc);
  }
  for (uint32_t i = 0; i < nc; i++) {
    const ld_type *c0 = st[0]->kind == LD_T_VECTOR ? st[0]->elem : st[0];
    const ld_type *c1 = arity > 1 ? (st[1]->kind == LD_T_VECTOR ? st[1]->elem : st[1]) : c0;
    uint32_t w0 = comp_width(c0), w1 = comp_width(c1), rw = comp_width(rc);
    uint64_t x = comp_get(src[0], st[0], i), y = arity > 1 ? comp_get(src[1], st[1], i) : 0;
    uint64_t r = 0;
    switch (op) {
    case SpvOpSelect: {
      uint64_t z = comp_get(src[2], st[2], i);
      uint64_t cnd = st[0]->kind == LD_T_VECTOR ? x : comp_get(src[0], st[0], 0);
      r = cnd ? y : z;
      break;
    }
    case SpvOpSConvert: r = (uint64_t)sext(x, w0); break;
    case SpvOpUConvert: case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
    case SpvOpGenericCastToPtr: case SpvOpPtrCastToGeneric:
      r = x & width_mask(w0); break;
    case SpvOpFConvert: r = put_f(get_f(x, w0), rw); break;
    case SpvOpConvertFToS: r = f_to_int(get_f(x, w0), rw, true); break;
    case SpvOpConvertFToU: r = f_to_int(get_f(x, w0), rw, false); break;
    case SpvOpConvertSToF: r = put_f((double)sext(x, w0), rw); break;
    case SpvOpConvertUToF: r = put_f((double)(x & width_mask(w0)), rw); break;
    case SpvOpSNegate: r = 0 - x; break;
    case SpvOpNot: r = ~x; break;
    case SpvOpLogicalNot: r = !x; break;
    case SpvOpFNegate: r = x ^ (1ull << (w0 - 1)); break;
    case SpvOpIAdd: r = x + y; break;
    case SpvOpISub: r = x - y; break;
    case SpvOpIMul: r = x * y; break;
    case SpvOpUDiv: r = (y & width_mask(w1)) ? (x & width_mask(w0)) / (y & width_mask(w1)) : 0; break;
    case SpvOpUMod: r = (y & width_mask(w1)) ? (x & width_mask(w0)) % (y & width_mask(w1)) : 0; break;
    case SpvOpSDiv: case SpvOpSRem: case SpvOpSMod: {
      int64_t sx = sext(x, w0), sy = sext(y, w1);
      if (sy == 0) { r = 0; break; }
      if (sy == -1) { r = op == SpvOpSDiv ? 0 - (uint64_t)sx : 0; break; }
      int64_t q = sx / sy, m = sx % sy;
      if (op == SpvOpSDiv) r = (uint64_t)q;
      else if (op == SpvOpSRem) r = (uint64_t)m;
      else r = (uint64_t)((m != 0 && ((m < 0) != (sy < 0))) ? m + sy : m);
      break;
    }
    case SpvOpShiftRightLogical: {
      uint64_t s = y & width_mask(w1);
      r = s >= w0 ? 0 : (x & width_mask(w0)) >> s;
      break;
    }
    case SpvOpShiftRightArithmetic: {
      uint64_t s = y & width_mask(w1);
      int64_t v = sext(x, w0);
      r = s >= w0 ? (v < 0 ? ~0ull : 0) : (uint64_t)(v >> s);
      break;
    }
    case SpvOpShiftLeftLogical: {
      uint64_t s = y & width_mask(w1);
      r = s >= w0 ? 0 : x << s;
      break;
    }
    case SpvOpBitwiseOr: r = x | y; break;
    case SpvOpBitwiseXor: r = x ^ y; break;
    case SpvOpBitwiseAnd: r = x & y; break;
    case SpvOpLogicalOr: r = x || y; break;
    case SpvOpLogicalAnd: r = x && y; break;
    case SpvOpLogicalEqual: r = !x == !y; break;
    case SpvOpLogicalNotEqual: r = !x != !y; break;
    case SpvOpIEqual: r = (x & width_mask(w0)) == (y & width_mask(w1)); break;
    case SpvOpINotEqual: r = (x & width_mask(w0)) != (y & width_mask(w1)); break;
    case SpvOpULessThan: r = (x & width_mask(w0)) < (y & width_mask(w1)); break;
    case SpvOpUGreaterThan: r = (x & width_mask(w0)) > (y & width_mask(w1)); break;
    case SpvOpULessThanEqual: r = (x & width_mask(w0)) <= (y & width_mask(w1)); break;
    case SpvOpUGreaterThanEqual: r = (x & width_mask(w0)) >= (y & width_mask(w1)); break;
    case SpvOpSLessThan: r = sext(x, w0) < sext(y, w1); break;
    case SpvOpSGreaterThan: r = sext(x, w0) > sext(y, w1); break;
    case SpvOpSLessThanEqual: r = sext(x, w0) <= sext(y, w1); break;
    case SpvOpSGreaterThanEqual: r = sext(x, w0) >= sext(y, w1); break;
    case SpvOpFAdd: r = put_f(get_f(x, w0) + get_f(y, w1), rw); break;
    case SpvOpFSub: r = put_f(get_f(x, w0) - get_f(y, w1), rw); break;
    case SpvOpFMul: r = put_f(get_f(x, w0) * get_f(y, w1), rw); break;
    case SpvOpFDiv: r = put_f(get_f(x, w0) / get_f(y, w1), rw); break;
    case SpvOpFRem: r = put_f(fmod(get_f(x, w0), get_f(y, w1)), rw); break;
    case SpvOpFMod: {
      double fx = get_f(x, w0), fy = get_f(y, w1), m = fmod(fx, fy);
      if (m != 0 && (m < 0) != (fy < 0)) m += fy;
      r = put_f(m, rw);
      break;
    }
    default:
      break;
    }
    if (rc->kind == LD_T_BOOL) r = r != 0;
    else if (rc->kind == LD_T_INT) r &= width_mask(rc->width);
    put_le(out + i * rc->size, rc->size, r);
  }
#undef NARGS
}

void ld_decode_constant(ld_b *b, const spv_insn_ref *in) {
  const uint32_t *w = in->words;
  uint32_t n = in->n_words;
  const ld_type *rt = result_type(b, in);
  uint32_t id = w[2];
  ld_value *v = &b->values[id];
  /* checked before the allocation, which zeroes (and so touches) it all */
  b->constant_bytes += rt->size;
  if (b->constant_bytes > LD_MAX_CONSTANT_BYTES)
    ld_fail(b, LD_ERR_INVALID, "constant %s of %" PRIu32 " bytes brings the module's constant data to %" PRIu64
            " bytes, more than the limit of %" PRIu64 " bytes (256 MiB)", ld_id_name(b->m, id), rt->size,
            b->constant_bytes, LD_MAX_CONSTANT_BYTES);
  uint8_t *bytes = ld_alloc(b, rt->size ? rt->size : 1, 1);
  v->kind = LD_V_CONSTANT;
  v->type = rt;
  v->u.bytes = bytes;
  const ld_spec_override *ov = NULL;
  bool spec = false;
  switch (in->op) {
  case SpvOpSpecConstantTrue:
  case SpvOpSpecConstantFalse:
  case SpvOpSpecConstant:
  case SpvOpSpecConstantComposite:
  case SpvOpSpecConstantOp:
    spec = true;
    ov = find_override(b, v->spec_id);
    break;
  default:
    break;
  }
  switch (in->op) {
  case SpvOpConstantTrue:
  case SpvOpConstantFalse:
  case SpvOpSpecConstantTrue:
  case SpvOpSpecConstantFalse:
    if (rt->kind != LD_T_BOOL) ld_fail(b, LD_ERR_INVALID, "boolean constant of a non-bool type");
    bytes[0] = in->op == SpvOpConstantTrue || in->op == SpvOpSpecConstantTrue;
    if (ov) bytes[0] = ov->value != 0;
    break;
  case SpvOpConstant:
  case SpvOpSpecConstant: {
    if (rt->kind != LD_T_INT && rt->kind != LD_T_FLOAT)
      ld_fail(b, LD_ERR_INVALID, "numeric constant of a non-numeric type %s", ld_id_name(b->m, w[1]));
    uint32_t need = rt->width > 32 ? 2 : 1;
    if (n < 3 + need) ld_fail(b, LD_ERR_INVALID, "constant of %u bits needs %u literal words", rt->width, need);
    uint64_t val = w[3];
    if (need == 2) val |= (uint64_t)w[4] << 32;
    if (ov) val = ov->value;
    if (rt->kind == LD_T_INT) val &= width_mask(rt->width);
    put_le(bytes, rt->size, val);
    break;
  }
  case SpvOpConstantComposite:
  case SpvOpSpecConstantComposite:
    write_composite(b, rt, bytes, w + 3, n - 3);
    break;
  case SpvOpConstantNull:
    break;
  case SpvOpUndef:
    v->kind = LD_V_UNDEF;
    break;
  case SpvOpConstantSampler: {
    if (n < 6) ld_fail(b, LD_ERR_INVALID, "missing operands");
    if (w[3] > 4 || w[5] > 1) ld_fail(b, LD_ERR_INVALID, "bad sampler addressing or filter mode");
    /* OpenCL: CLK_ADDRESS_* = mode * 2, CLK_NORMALIZED_COORDS_TRUE = 1,
     * CLK_FILTER_NEAREST = 0x10, CLK_FILTER_LINEAR = 0x20. */
    uint32_t bits = w[3] * 2u | (w[4] ? 1u : 0u) | (0x10u << w[5]);
    if (rt->size < 4) ld_fail(b, LD_ERR_INVALID, "sampler constant of a non-sampler type");
    put_le(bytes, 4, bits);
    break;
  }
  case SpvOpSpecConstantOp:
    spec_op(b, in, rt, bytes);
    break;
  default:
    /* other constants (pipe storage ...): zero bytes, backends decide */
    break;
  }
  if (spec) {
    v->is_spec_constant = true;
    b->spec_ids[b->n_spec++] = id;
  }
}

uint32_t ld_natural_align(const ld_type *t) {
  if (!t) return 1;
  uint32_t a;
  if (t->n_comp && t->comp) a = t->comp->size ? t->comp->size : 1;
  else if (t->kind == LD_T_POINTER) a = t->size ? t->size : 8;
  else a = t->align ? t->align : 1;
  if (a > 16) a = 16;
  if (a & (a - 1)) a = 1;
  return a;
}

uint32_t ld_access_align(const ld_type *t, const ld_insn *in, uint32_t first_mo) {
  uint32_t a = ld_natural_align(t);
  if (in && first_mo + 1 < in->n_ops && (in->ops[first_mo] & SpvMemoryAccessAlignedMask)) {
    uint32_t lit = in->ops[first_mo + 1];
    if (lit && !(lit & (lit - 1)) && lit < a) a = lit;
  }
  return a;
}
