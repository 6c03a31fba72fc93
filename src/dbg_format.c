/* dbg_format.c - how spirv-sgdb writes types and values (print, x,
 * watchpoints, expressions). */
#include "dbg.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "spv.h"

const char *dbg_base_name(const char *p)
{
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

void dbg_type_name(const ld_type *t, char *buf, size_t n)
{
  if (!t) { snprintf(buf, n, "?"); return; }
  char in[96];
  switch (t->kind) {
  case LD_T_VOID: snprintf(buf, n, "void"); break;
  case LD_T_BOOL: snprintf(buf, n, "bool"); break;
  case LD_T_INT:
    snprintf(buf, n, "%s", t->width == 8 ? "uchar" : t->width == 16 ? "ushort" : t->width == 32 ? "uint" :
             t->width == 64 ? "ulong" : "int");
    if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64)
      snprintf(buf, n, "i%u", t->width);
    break;
  case LD_T_FLOAT: snprintf(buf, n, "%s", t->width == 16 ? "half" : t->width == 64 ? "double" : "float"); break;
  case LD_T_VECTOR: dbg_type_name(t->elem, in, sizeof in); snprintf(buf, n, "v%u%s", t->count, in); break;
  case LD_T_ARRAY: dbg_type_name(t->elem, in, sizeof in); snprintf(buf, n, "_arr_%s_%u", in, t->count); break;
  case LD_T_RUNTIME_ARRAY: dbg_type_name(t->elem, in, sizeof in); snprintf(buf, n, "_rarr_%s", in); break;
  case LD_T_STRUCT: snprintf(buf, n, "_struct_%u", t->id); break;
  case LD_T_POINTER: {
    dbg_type_name(t->elem, in, sizeof in);
    const char *sc = spv_storage_class_name(t->storage);
    snprintf(buf, n, "_ptr_%s_%s", sc ? sc : "?", in);
    break;
  }
  case LD_T_FUNCTION: snprintf(buf, n, "_fn_%u", t->id); break;
  default: snprintf(buf, n, "_type_%u", t->id); break;
  }
}

void dbg_mask_str(const uint64_t m[2], uint32_t n_lanes, char *buf, size_t n)
{
  size_t used = 0;
  buf[0] = 0;
  bool any = false;
  for (uint32_t l = 0; l < n_lanes && l < 128; l++) {
    if (!((m[l >> 6] >> (l & 63)) & 1))
      continue;
    uint32_t e = l;
    while (e + 1 < n_lanes && e + 1 < 128 && ((m[(e + 1) >> 6] >> ((e + 1) & 63)) & 1))
      e++;
    int w = e == l ? snprintf(buf + used, n - used, "%s%u", any ? "," : "", l)
                   : snprintf(buf + used, n - used, "%s%u-%u", any ? "," : "", l, e);
    if (w < 0 || (size_t)w >= n - used)
      break;
    used += (size_t)w;
    any = true;
    l = e;
  }
  if (!any)
    snprintf(buf, n, "none");
}

uint64_t dbg_rd_uint(const uint8_t *p, uint32_t size)
{
  uint64_t v = 0;
  memcpy(&v, p, size > 8 ? 8 : size);
  return v;
}

void dbg_put(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
  if (*used >= n)
    return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(buf + *used, n - *used, fmt, ap);
  va_end(ap);
  if (w > 0)
    *used = *used + (size_t)w >= n ? n - 1 : *used + (size_t)w;
}

void dbg_format_value(const ld_type *t, const uint8_t *p, size_t avail, const sg_sg *sg,
                         char *buf, size_t n, size_t *used, int depth)
{
  if (!t || t->size > avail) {
    dbg_put(buf, n, used, "<?>");
    return;
  }
  switch (t->kind) {
  case LD_T_BOOL: dbg_put(buf, n, used, "%s", p[0] ? "true" : "false"); break;
  case LD_T_INT: {
    uint64_t v = dbg_rd_uint(p, t->size);
    uint32_t w = t->width ? t->width : t->size * 8;
    if (w < 64)
      v &= ((uint64_t)1 << w) - 1;
    dbg_put(buf, n, used, "%" PRIu64, v);
    if (w <= 64 && w > 0 && ((v >> (w - 1)) & 1)) {
      int64_t sv = w == 64 ? (int64_t)v : (int64_t)(v | ~(((uint64_t)1 << w) - 1));
      dbg_put(buf, n, used, " (%" PRId64 ")", sv);
    }
    break;
  }
  case LD_T_FLOAT:
    if (t->width == 16) {
      _Float16 h;
      memcpy(&h, p, 2);
      dbg_put(buf, n, used, "%.5g", (double)h);
    } else if (t->width == 64) {
      double d;
      memcpy(&d, p, 8);
      dbg_put(buf, n, used, "%.17g", d);
    } else {
      float f;
      memcpy(&f, p, 4);
      dbg_put(buf, n, used, "%.9g", (double)f);
    }
    break;
  case LD_T_VECTOR:
  case LD_T_ARRAY:
    if (depth > 3 || !t->elem) { dbg_put(buf, n, used, "{...}"); break; }
    dbg_put(buf, n, used, t->kind == LD_T_VECTOR ? "(" : "{");
    for (uint32_t i = 0; i < t->count && i < 64; i++) {
      if (i) dbg_put(buf, n, used, ", ");
      dbg_format_value(t->elem, p + (size_t)i * t->elem->size, avail - (size_t)i * t->elem->size, sg,
                   buf, n, used, depth + 1);
    }
    if (t->count > 64) dbg_put(buf, n, used, ", ...");
    dbg_put(buf, n, used, t->kind == LD_T_VECTOR ? ")" : "}");
    break;
  case LD_T_STRUCT:
    if (depth > 3) { dbg_put(buf, n, used, "{...}"); break; }
    dbg_put(buf, n, used, "{");
    for (uint32_t i = 0; i < t->n_members; i++) {
      if (i) dbg_put(buf, n, used, ", ");
      uint32_t off = t->offsets ? t->offsets[i] : 0;
      dbg_format_value(t->members[i], p + off, off < avail ? avail - off : 0, sg, buf, n, used, depth + 1);
    }
    dbg_put(buf, n, used, "}");
    break;
  case LD_T_POINTER: {
    uint64_t v = dbg_rd_uint(p, t->size);
    char d[256] = "";
    if (sg)
      sg_sg_describe_addr(sg, v, d, sizeof d);
    dbg_put(buf, n, used, "0x%" PRIx64 " -> %s", v, d);
    break;
  }
  default:
    dbg_put(buf, n, used, "<%u bytes>", t->size);
  }
}

