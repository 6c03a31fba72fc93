/* ocl_printf.c - OpenCL.std printf (OpenCL C 1.2 section 6.12.13).
 *
 * The format is a pointer to a constant (UniformConstant) i8 array; each
 * active lane formats its own arguments and the lanes' texts are written in
 * increasing lane order, one ip_out_write per lane.  Conversions follow C99
 * printf plus the OpenCL vector specifier: %v<n><len><conv> prints n
 * components separated by ',' (no space), each with the same flags, width and
 * precision; len is hh (char), h (short / half), hl (int / float) or l (long /
 * double).  Values are read with the operand's own SPIR-V type (clang has
 * already applied the default promotions); a length modifier then narrows an
 * integer as C would.  %s takes a pointer to a constant string, %p prints the
 * pointer's encoded address.  The result is 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "ip_internal.h"
#include "ip_arith.h"

typedef struct pbuf { char *s; size_t len, cap; } pbuf;

static void pb_add(pbuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->len + n + 1) cap *= 2;
    char *ns = realloc(b->s, cap);
    if (!ns) return;
    b->s = ns;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

static void pb_fmt(pbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pb_fmt(pbuf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof tmp) { pb_add(b, tmp, (size_t)n); return; }
  char *big = malloc((size_t)n + 1);
  if (!big) return;
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  pb_add(b, big, (size_t)n);
  free(big);
}

/* Reads a NUL-terminated string at addr (at most cap-1 bytes).  False after
 * a fault was recorded. */
static bool read_cstr(ip_sg *sg, uint32_t lane, uint64_t addr, char *out, size_t cap) {
  const ip_region *r = ip_region_of(sg, lane, addr);
  uint64_t off = ip_addr_offset(ip_layout(sg), addr);
  if (!r || off >= r->size) {
    (void)ip_mem(sg, lane, addr, 1, 1, IP_READ);   /* records the fault */
    out[0] = 0;
    return false;
  }
  uint64_t avail = r->size - off;
  size_t n = 0;
  while (n + 1 < cap && n < avail && r->base[off + n]) {
    out[n] = (char)r->base[off + n];
    n++;
  }
  out[n] = 0;
  return true;
}

static double comp_float(const uint8_t *p, const ld_type *ct, uint32_t c) {
  switch (ct->width) {
  case 16: { uint16_t h; memcpy(&h, p + 2 * c, 2); return ip_half_to_double(h); }
  case 32: { float f; memcpy(&f, p + 4 * c, 4); return f; }
  default: { double d; memcpy(&d, p + 8 * c, 8); return d; }
  }
}

/* Formats one lane's text into b. */
static void format_lane(ip_sg *sg, const ip_op *op, uint32_t l, const char *fmt, pbuf *b) {
  uint32_t argi = 1;
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      const char *q = strchr(p, '%');
      size_t n = q ? (size_t)(q - p) : strlen(p);
      pb_add(b, p, n);
      p += n;
      continue;
    }
    const char *start = p++;
    if (*p == '%') { pb_add(b, "%", 1); p++; continue; }
    char flags[8]; size_t nf = 0;
    while (*p && strchr("-+ #0", *p)) { if (nf < 7) flags[nf++] = *p; p++; }
    flags[nf] = 0;
    int width = -1, prec = -1;
    if (*p >= '0' && *p <= '9') { width = 0; while (*p >= '0' && *p <= '9') { width = width * 10 + (*p++ - '0'); if (width > 4096) width = 4096; } }
    if (*p == '.') { p++; prec = 0; while (*p >= '0' && *p <= '9') { prec = prec * 10 + (*p++ - '0'); if (prec > 4096) prec = 4096; } }
    uint32_t vn = 0;
    if (*p == 'v') {
      p++;
      while (*p >= '0' && *p <= '9') { vn = vn * 10 + (uint32_t)(*p++ - '0'); if (vn > 16) vn = 16; }
    }
    int len = 0;   /* 0 none, 1 hh, 2 h, 3 hl, 4 l */
    if (p[0] == 'h' && p[1] == 'h') { len = 1; p += 2; }
    else if (p[0] == 'h' && p[1] == 'l') { len = 3; p += 2; }
    else if (p[0] == 'h') { len = 2; p++; }
    else if (p[0] == 'l') { len = 4; p++; }
    char conv = *p;
    if (!conv || !strchr("diouxXcsfFeEgGaAp", conv)) {   /* not a conversion: print as is */
      pb_add(b, start, (size_t)(p - start) + (*p ? 1 : 0));
      if (*p) p++;
      continue;
    }
    p++;
    if (argi >= op->n_in) { pb_add(b, start, (size_t)(p - start)); continue; }
    const ld_type *at = op->in[argi].type;
    const uint8_t *av = ip_in(sg, op, argi, l);
    argi++;
    /* rebuild a C spec without the vector part */
    char spec[96];
    char wbuf[24] = "", pbuf_[24] = "";
    if (width >= 0) snprintf(wbuf, sizeof wbuf, "%d", width);
    if (prec >= 0) snprintf(pbuf_, sizeof pbuf_, ".%d", prec);
    uint32_t n = vn ? vn : 1;
    const ld_type *ct = at->n_comp ? at->comp : at;
    for (uint32_t c = 0; c < n; c++) {
      if (c) pb_add(b, ",", 1);
      uint32_t cc = at->n_comp > 1 ? (c < at->n_comp ? c : at->n_comp - 1) : 0;
      switch (conv) {
      case 's': {
        char s[4096];
        read_cstr(sg, l, ip_load_uint(av, at->size), s, sizeof s);
        snprintf(spec, sizeof spec, "%%%s%s%ss", flags, wbuf, pbuf_);
        pb_fmt(b, spec, s);
        break;
      }
      case 'p':
        snprintf(spec, sizeof spec, "%%%s%sp", flags, wbuf);
        pb_fmt(b, spec, (void *)(uintptr_t)ip_load_uint(av, at->size));
        break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        double v = ct->kind == LD_T_FLOAT ? comp_float(av, ct, cc)
                                          : (double)ip_load_uint(av + cc * ct->size, ct->size);
        snprintf(spec, sizeof spec, "%%%s%s%s%c", flags, wbuf, pbuf_, conv);
        pb_fmt(b, spec, v);
        break;
      }
      default: {   /* integers and %c */
        uint32_t cs = ct->size ? ct->size : 4;
        uint64_t u = ip_load_uint(av + cc * cs, cs);
        uint32_t w = ct->kind == LD_T_INT ? ct->width : cs * 8;
        if (ct->kind == LD_T_FLOAT) {
          /* a float for an integer conversion: truncated toward zero,
             saturated at the 64-bit range, NaN as 0 (C's cast would be
             undefined there; fuzz_run, session 19) */
          double d = comp_float(av, ct, cc);
          int64_t iv = d != d ? 0 : d >= 9223372036854775808.0 ? INT64_MAX
                     : d < -9223372036854775808.0 ? INT64_MIN : (int64_t)d;
          u = (uint64_t)iv;
        }
        uint32_t bits = len == 1 ? 8 : len == 2 ? 16 : len == 4 ? 64 : 32;
        if (conv == 'c') bits = 8;
        bool is_signed = conv == 'd' || conv == 'i';
        /* extend from the operand width, then narrow to the modifier's */
        if (w < 64) {
          uint64_t m = ((uint64_t)1 << w) - 1;
          u &= m;
          if (is_signed && w && ((u >> (w - 1)) & 1)) u |= ~m;
        }
        if (bits < 64) {
          uint64_t m = ((uint64_t)1 << bits) - 1;
          u &= m;
          if (is_signed && ((u >> (bits - 1)) & 1)) u |= ~m;
        }
        if (conv == 'c') {
          snprintf(spec, sizeof spec, "%%%s%sc", flags, wbuf);
          pb_fmt(b, spec, (int)(unsigned char)u);
        } else {
          snprintf(spec, sizeof spec, "%%%s%s%sll%c", flags, wbuf, pbuf_, conv);
          if (is_signed) pb_fmt(b, spec, (long long)(int64_t)u);
          else pb_fmt(b, spec, (unsigned long long)u);
        }
        break;
      }
      }
    }
  }
}

int ip_ocl_printf(ip_sg *sg, const ip_op *op) {
  if (op->n_in < 1) return IP_NEXT;
  IP_FOR_LANES(sg->mask, l) {
    char fmt[8192];
    uint64_t addr = ip_in_uint(sg, op, 0, l);
    bool ok = read_cstr(sg, l, addr, fmt, sizeof fmt);
    if (op->res_size) {
      int32_t r = ok ? 0 : -1;
      memcpy(ip_res(sg, op, l), &r, op->res_size < 4 ? op->res_size : 4);
    }
    if (!ok) continue;
    pbuf b = {0};
    format_lane(sg, op, l, fmt, &b);
    if (b.len) ip_out_write(sg, b.s, b.len);
    free(b.s);
  }
  return IP_NEXT;
}
