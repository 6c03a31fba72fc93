/* runfile.c - Oclgrind's .sim run files (see docs/runfile.md).
 *
 * The reader follows Oclgrind's Simulation.cpp: values are read one at a
 * time from a line buffer with '#' comments removed, crossing line ends; an
 * argument starts with '<', its header is the rest of that line up to the
 * last '>', and inline data (if any) follows.  Errors are "file:LINE: what
 * (parsing what)".  Extensions use header tokens Oclgrind does not know and
 * "#sg:" directive comments, so every Oclgrind file means the same here.
 */
#include "spirv_sg.h"
#include "sg_internal.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct rf_line {
  char *text;        /* comment stripped */
  uint32_t number;   /* 1-based */
} rf_line;

struct sg_runfile {
  char *path;
  char *dir;               /* folder of the run file, with trailing '/', or "" */
  char *content;
  rf_line *lines;
  uint32_t n_lines;
  /* reader state */
  uint32_t cur;            /* index of the current line + 1 (0: none yet) */
  const char *pos;         /* position in the current line */
  uint32_t lineno;         /* line number of the current line */
  bool hex;                /* hex mode for integer values */
  bool lenient;            /* integer signedness unknown: accept either range */
  const char *parsing;
  char parsing_buf[256];
  /* header */
  char *module_path;
  char *kernel;
  size_t global[3], local[3];
  uint32_t sg_size;
  double timeout;                /* #sg: timeout=SECONDS; 0 = unset */
  /* arguments */
  uint32_t n_args;
  sg_arg *args;
  uint8_t **owned;         /* data owned per argument */
  uint32_t n_outputs;
  sg_runfile_output *outputs;
  char **strings;          /* owned strings */
  uint32_t n_strings;
  /* error */
  char *err;
  size_t err_size;
};

/* ----------------------------------------------------------------- errors */

typedef enum { RF_OK = 0, RF_FAIL } rf_status;

static rf_status fail(sg_runfile *rf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static rf_status fail(sg_runfile *rf, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (rf->parsing)
    snprintf(rf->err, rf->err_size, "%s:%u: %s (%s)", rf->path, rf->lineno, msg, rf->parsing);
  else
    snprintf(rf->err, rf->err_size, "%s:%u: %s", rf->path, rf->lineno, msg);
  return RF_FAIL;
}

static rf_status fail_eof(sg_runfile *rf)
{
  snprintf(rf->err, rf->err_size, "%s:%u: unexpected end of file when parsing %s",
           rf->path, rf->lineno, rf->parsing ? rf->parsing : "the run file");
  return RF_FAIL;
}

static char *keep(sg_runfile *rf, char *s)
{
  if (!s)
    return NULL;
  char **n = realloc(rf->strings, (rf->n_strings + 1) * sizeof *n);
  if (!n) {
    free(s);
    return NULL;
  }
  rf->strings = n;
  rf->strings[rf->n_strings++] = s;
  return s;
}

/* ----------------------------------------------------------------- reading */

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Moves to the next non-blank character, crossing lines (Oclgrind's get()).
 * False at end of file. */
static bool next_content(sg_runfile *rf)
{
  for (;;) {
    if (rf->pos) {
      while (is_space(*rf->pos))
        rf->pos++;
      if (*rf->pos)
        return true;
    }
    if (rf->cur >= rf->n_lines)
      return false;
    rf->pos = rf->lines[rf->cur].text;
    rf->lineno = rf->lines[rf->cur].number;
    rf->cur++;
  }
}

static rf_status get_string(sg_runfile *rf, char **out)
{
  if (!next_content(rf))
    return fail_eof(rf);
  const char *s = rf->pos;
  while (*rf->pos && !is_space(*rf->pos))
    rf->pos++;
  *out = keep(rf, strndup(s, (size_t)(rf->pos - s)));
  if (!*out)
    return fail(rf, "out of memory");
  return RF_OK;
}

/* Integer as istream >> reads it: optional sign, then decimal digits (or hex
 * digits with an optional 0x in hex mode).  *end is past the number. */
static bool scan_uint(const char *s, bool hex, bool *neg, uint64_t *mag, const char **end)
{
  *neg = false;
  if (*s == '+' || *s == '-')
    *neg = *s++ == '-';
  if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
      ((s[2] >= '0' && s[2] <= '9') || (s[2] >= 'a' && s[2] <= 'f') || (s[2] >= 'A' && s[2] <= 'F')))
    s += 2;
  uint64_t v = 0;
  const char *start = s;
  bool overflow = false;
  for (;; s++) {
    unsigned d;
    if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
    else if (hex && *s >= 'a' && *s <= 'f') d = (unsigned)(*s - 'a' + 10);
    else if (hex && *s >= 'A' && *s <= 'F') d = (unsigned)(*s - 'A' + 10);
    else break;
    unsigned base = hex ? 16 : 10;
    if (v > (UINT64_MAX - d) / base)
      overflow = true;
    else
      v = v * base + d;
  }
  *end = s;
  *mag = v;
  return s != start && !overflow;
}

/* Decimal floating point as istream reads it (no inf/nan, no hex floats). */
static bool scan_float(const char *s, double *out, bool single, const char **end)
{
  const char *p = s;
  if (*p == '+' || *p == '-')
    p++;
  bool digits = false;
  while (*p >= '0' && *p <= '9')
    p++, digits = true;
  if (*p == '.') {
    p++;
    while (*p >= '0' && *p <= '9')
      p++, digits = true;
  }
  if (!digits) {
    *end = s;
    return false;
  }
  if (*p == 'e' || *p == 'E') {
    const char *q = p + 1;
    if (*q == '+' || *q == '-')
      q++;
    if (*q >= '0' && *q <= '9') {
      while (*q >= '0' && *q <= '9')
        q++;
      p = q;
    }
  }
  char buf[128];
  size_t n = (size_t)(p - s);
  if (n >= sizeof buf) {
    *end = p;
    return false;
  }
  memcpy(buf, s, n);
  buf[n] = 0;
  errno = 0;
  if (single) {
    float f = strtof(buf, NULL);
    if (errno == ERANGE && isinf(f)) {
      *end = p;
      return false;
    }
    *out = f;
  } else {
    double d = strtod(buf, NULL);
    if (errno == ERANGE && isinf(d)) {
      *end = p;
      return false;
    }
    *out = d;
  }
  *end = p;
  return true;
}

void sg_store_float(sg_scalar s, double d, void *out)
{
  if (s == SG_S_DOUBLE) {
    memcpy(out, &d, 8);
  } else if (s == SG_S_FLOAT) {
    float f = (float)d;
    memcpy(out, &f, 4);
  } else {
    uint16_t h = sg_float_to_half((float)d);
    memcpy(out, &h, 2);
  }
}

uint16_t sg_float_to_half(float f)
{
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
  if (e == 0xff)
    return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
  int32_t ee = (int32_t)e - 127 + 15;
  if (ee >= 31)
    return (uint16_t)(sign | 0x7c00u);
  if (ee <= 0) {
    if (ee < -10)
      return (uint16_t)sign;
    m |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - ee);
    uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1)))
      h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)ee << 10) | (m >> 13), rem = m & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
    h++;
  return (uint16_t)(sign | h);
}

static float half_to_float(uint16_t h)
{
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
  if (e == 0) {
    if (m == 0) {
      x = sign;
    } else {
      e = 127 - 15 + 1;
      while (!(m & 0x400u)) {
        m <<= 1;
        e--;
      }
      x = sign | (e << 23) | ((m & 0x3ffu) << 13);
    }
  } else if (e == 31) {
    x = sign | 0x7f800000u | (m << 13);
  } else {
    x = sign | ((e - 15 + 127) << 23) | (m << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}

/* Parses one value of scalar type s at *pp into out (sg_scalar_size bytes).
 * Returns 0 ok, 1 parse failure, 2 "Invalid char value". */
/* lenient: the type came from SPIR-V, which does not record signedness, so
 * values of the signed or the unsigned type of that width are accepted. */
static int parse_value_l(const char **pp, sg_scalar s, bool hex, bool lenient, void *out)
{
  const char *p = *pp, *end;
  bool neg;
  uint64_t mag;
  switch (s) {
  case SG_S_HALF:
  case SG_S_FLOAT:
  case SG_S_DOUBLE: {
    double d;
    if (!scan_float(p, &d, s != SG_S_DOUBLE, &end))
      return 1;
    *pp = end;
    sg_store_float(s, d, out);
    return 0;
  }
  case SG_S_CHAR:
  case SG_S_UCHAR:
  case SG_S_BOOL: {
    /* Oclgrind reads an int, then checks it fits the char type. */
    if (!scan_uint(p, hex, &neg, &mag, &end))
      return 1;
    *pp = end;
    if (mag > (neg ? 0x80000000ull : 0x7fffffffull))
      return 1;
    int64_t v = neg ? -(int64_t)mag : (int64_t)mag;
    if (lenient ? (v < -128 || v > 255) : s == SG_S_CHAR ? (v < -128 || v > 127) : (v < 0 || v > 255))
      return 2;
    uint8_t b = (uint8_t)v;
    memcpy(out, &b, 1);
    return 0;
  }
  default: {
    size_t size = sg_scalar_size(s);
    bool is_signed = s == SG_S_SHORT || s == SG_S_INT || s == SG_S_LONG;
    if (!scan_uint(p, hex, &neg, &mag, &end))
      return 1;
    *pp = end;
    uint64_t bits;
    if (is_signed) {
      uint64_t lim = size == 8 ? (uint64_t)INT64_MAX : (((uint64_t)1 << (size * 8 - 1)) - 1);
      if (mag > (lenient && !neg ? lim * 2 + 1 : lim + (neg ? 1 : 0)))
        return 1;
      bits = neg ? (uint64_t)0 - mag : mag;
    } else {
      uint64_t lim = size == 8 ? UINT64_MAX : (((uint64_t)1 << (size * 8)) - 1);
      if (mag > lim)
        return 1;
      bits = neg ? (uint64_t)0 - mag : mag;
    }
    memcpy(out, &bits, size);   /* little-endian: the low bytes */
    return 0;
  }
  }
}

/* The next value from the file (crossing lines), as Oclgrind's get(T). */
static rf_status get_value(sg_runfile *rf, sg_scalar s, void *out)
{
  if (!next_content(rf))
    return fail_eof(rf);
  int r = parse_value_l(&rf->pos, s, rf->hex, rf->lenient, out);
  if (r == 2)
    return fail(rf, "Invalid char value");
  if (r)
    return fail(rf, "Failed to parse %s value", sg_scalar_name(s));
  return RF_OK;
}

static rf_status get_size(sg_runfile *rf, size_t *out)
{
  if (!next_content(rf))
    return fail_eof(rf);
  bool neg;
  uint64_t mag;
  const char *end;
  if (!scan_uint(rf->pos, false, &neg, &mag, &end) || neg || mag > SIZE_MAX)
    return fail(rf, "Failed to parse %s", rf->parsing);
  rf->pos = end;
  *out = (size_t)mag;
  return RF_OK;
}

/* ----------------------------------------------------------------- opening */

void sg_runfile_destroy(sg_runfile *rf)
{
  if (!rf)
    return;
  for (uint32_t i = 0; i < rf->n_args; i++)
    free(rf->owned ? rf->owned[i] : NULL);
  free(rf->owned);
  free(rf->args);
  free(rf->outputs);
  for (uint32_t i = 0; i < rf->n_strings; i++)
    free(rf->strings[i]);
  free(rf->strings);
  free(rf->lines);
  free(rf->content);
  free(rf->path);
  free(rf->dir);
  free(rf);
}

static char *resolve(const sg_runfile *rf, const char *p)
{
  if (p[0] == '/' || !rf->dir[0])
    return strdup(p);
  size_t n = strlen(rf->dir) + strlen(p) + 1;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s%s", rf->dir, p);
  return s;
}

/* "#sg: subgroup-size=8" directives (comments to Oclgrind). */
static rf_status directive(sg_runfile *rf, const char *text, uint32_t lineno)
{
  rf->lineno = lineno;
  const char *p = text;
  while (*p) {
    while (is_space(*p))
      p++;
    if (!*p)
      break;
    const char *t = p;
    while (*p && !is_space(*p))
      p++;
    size_t n = (size_t)(p - t);
    if (n > 14 && !strncmp(t, "subgroup-size=", 14)) {
      char *end;
      errno = 0;
      unsigned long v = strtoul(t + 14, &end, 10);
      if (end != p || errno || v == 0 || v > 128 || t[14] == '-')
        return fail(rf, "invalid subgroup size '%.*s' (1..128)", (int)(n - 14), t + 14);
      rf->sg_size = (uint32_t)v;
    } else if (n > 8 && !strncmp(t, "timeout=", 8)) {
      char *end;
      errno = 0;
      double v = strtod(t + 8, &end);
      if (end != p || errno || !(v > 0) || !isfinite(v))
        return fail(rf, "invalid timeout '%.*s' (seconds > 0)", (int)(n - 8), t + 8);
      rf->timeout = v;
    } else {
      return fail(rf, "unknown #sg: directive '%.*s' (known: subgroup-size=N, timeout=SECONDS)",
                  (int)n, t);
    }
  }
  return RF_OK;
}

sg_result sg_runfile_open(const char *path, sg_runfile **out, char *err, size_t err_size)
{
  char dummy[8];
  if (!err || !err_size) {
    err = dummy;
    err_size = sizeof dummy;
  }
  err[0] = 0;
  if (!out || !path) {
    snprintf(err, err_size, "sg_runfile_open: NULL argument");
    return SG_ERROR_INVALID_ARGUMENT;
  }
  *out = NULL;
  sg_runfile *rf = calloc(1, sizeof *rf);
  if (!rf) {
    snprintf(err, err_size, "out of memory");
    return SG_ERROR_NOMEM;
  }
  rf->err = err;
  rf->err_size = err_size;
  rf->path = strdup(path);
  const char *slash = strrchr(path, '/');
  rf->dir = slash ? strndup(path, (size_t)(slash - path + 1)) : strdup("");
  size_t n = 0;
  rf->content = sg_read_file(path, &n);
  if (!rf->content) {
    snprintf(err, err_size, "%s: %s", path, sg_read_errstr(errno));
    sg_runfile_destroy(rf);
    return SG_ERROR_IO;
  }
  if (!rf->path || !rf->dir) {
    sg_runfile_destroy(rf);
    snprintf(err, err_size, "out of memory");
    return SG_ERROR_NOMEM;
  }
  if (memchr(rf->content, 0, n)) {
    snprintf(err, err_size, "%s: not a run file (binary data)", path);
    sg_runfile_destroy(rf);
    return SG_ERROR_RUNFILE;
  }
  size_t nl = 1;
  for (size_t i = 0; i < n; i++)
    nl += rf->content[i] == '\n';
  rf->lines = calloc(nl, sizeof *rf->lines);
  if (!rf->lines) {
    sg_runfile_destroy(rf);
    snprintf(err, err_size, "out of memory");
    return SG_ERROR_NOMEM;
  }
  char *p = rf->content;
  uint32_t number = 0;
  while (*p || (p == rf->content && n == 0)) {
    char *e = strchr(p, '\n');
    if (e)
      *e = 0;
    number++;
    char *hash = strchr(p, '#');
    if (hash) {
      const char *d = hash + 1;
      if (!strncmp(d, "sg:", 3)) {
        if (directive(rf, d + 3, number) != RF_OK) {
          sg_runfile_destroy(rf);
          return SG_ERROR_RUNFILE;
        }
      }
      *hash = 0;
    }
    rf->lines[rf->n_lines].text = p;
    rf->lines[rf->n_lines].number = number;
    rf->n_lines++;
    if (!e)
      break;
    p = e + 1;
  }
  rf->lineno = 1;

  char *prog;
  rf->parsing = "program file";
  if (get_string(rf, &prog) != RF_OK)
    goto bad;
  rf->parsing = "kernel";
  if (get_string(rf, &rf->kernel) != RF_OK)
    goto bad;
  rf->parsing = "NDRange";
  for (int i = 0; i < 3; i++)
    if (get_size(rf, &rf->global[i]) != RF_OK)
      goto bad;
  rf->parsing = "work-group size";
  for (int i = 0; i < 3; i++)
    if (get_size(rf, &rf->local[i]) != RF_OK)
      goto bad;
  rf->parsing = NULL;
  for (int i = 0; i < 3; i++)
    if (rf->global[i] == 0 || rf->local[i] == 0) {
      fail(rf, "NDRange and work-group size must be at least 1 in every dimension");
      goto bad;
    }
  rf->module_path = keep(rf, resolve(rf, prog));
  if (!rf->module_path) {
    snprintf(err, err_size, "out of memory");
    sg_runfile_destroy(rf);
    return SG_ERROR_NOMEM;
  }
  *out = rf;
  return SG_SUCCESS;
bad:
  sg_runfile_destroy(rf);
  return SG_ERROR_RUNFILE;
}

const char *sg_runfile_module_path(const sg_runfile *rf) { return rf->module_path; }
const char *sg_runfile_kernel(const sg_runfile *rf) { return rf->kernel; }
uint32_t sg_runfile_subgroup_size(const sg_runfile *rf) { return rf->sg_size; }
double sg_runfile_timeout(const sg_runfile *rf) { return rf ? rf->timeout : 0; }

void sg_runfile_ndrange(const sg_runfile *rf, size_t g[3], size_t l[3])
{
  for (int i = 0; i < 3; i++) {
    g[i] = rf->global[i];
    l[i] = rf->local[i];
  }
}

const sg_arg *sg_runfile_args(const sg_runfile *rf, uint32_t *out_n)
{
  *out_n = rf->n_args;
  return rf->args;
}

const sg_runfile_output *sg_runfile_outputs(const sg_runfile *rf, uint32_t *out_n)
{
  *out_n = rf->n_outputs;
  return rf->outputs;
}

/* ------------------------------------------------------------- arguments */

typedef struct hdr {
  size_t size;
  bool has_size;
  sg_scalar type;
  uint32_t comps;
  bool null, dump, hex, noinit, ro, wo;
  char *fill, *range, *file, *write;
  /* images */
  size_t width, height, depth, array_size, row_pitch, slice_pitch;
  uint32_t order, ctype;
  /* samplers */
  bool has_sampler;
  uint32_t sampler;
} hdr;

static const struct { const char *name; uint32_t v; uint32_t channels; } orders[] = {
  {"R", CL_R, 1}, {"A", CL_A, 1}, {"RG", CL_RG, 2}, {"RA", CL_RA, 2}, {"RGB", CL_RGB, 3},
  {"RGBA", CL_RGBA, 4}, {"BGRA", CL_BGRA, 4}, {"ARGB", CL_ARGB, 4},
  {"INTENSITY", CL_INTENSITY, 1}, {"LUMINANCE", CL_LUMINANCE, 1},
  {"Rx", CL_Rx, 1}, {"RGx", CL_RGx, 2}, {"RGBx", CL_RGBx, 3}, {"DEPTH", CL_DEPTH, 1},
  {"sRGBA", CL_sRGBA, 4}, {"sBGRA", CL_sBGRA, 4}, {"ABGR", CL_ABGR, 4},
};

static const struct { const char *name; uint32_t v; uint32_t bytes; bool packed; } ctypes[] = {
  {"SNORM_INT8", CL_SNORM_INT8, 1, false}, {"SNORM_INT16", CL_SNORM_INT16, 2, false},
  {"UNORM_INT8", CL_UNORM_INT8, 1, false}, {"UNORM_INT16", CL_UNORM_INT16, 2, false},
  {"UNORM_SHORT_565", CL_UNORM_SHORT_565, 2, true}, {"UNORM_SHORT_555", CL_UNORM_SHORT_555, 2, true},
  {"UNORM_INT_101010", CL_UNORM_INT_101010, 4, true},
  {"SIGNED_INT8", CL_SIGNED_INT8, 1, false}, {"SIGNED_INT16", CL_SIGNED_INT16, 2, false},
  {"SIGNED_INT32", CL_SIGNED_INT32, 4, false}, {"UNSIGNED_INT8", CL_UNSIGNED_INT8, 1, false},
  {"UNSIGNED_INT16", CL_UNSIGNED_INT16, 2, false}, {"UNSIGNED_INT32", CL_UNSIGNED_INT32, 4, false},
  {"HALF_FLOAT", CL_HALF_FLOAT, 2, false}, {"FLOAT", CL_FLOAT, 4, false},
};

static const char *skip_cl(const char *s)
{
  return !strncasecmp(s, "CL_", 3) ? s + 3 : s;
}

static bool parse_size_value(const char *s, size_t *out)
{
  if (!*s || *s == '-' || *s == '+')
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno || v > SIZE_MAX)
    return false;
  *out = (size_t)v;
  return true;
}

/* Parses the header tokens; arg describes the kernel argument. */
static rf_status parse_header(sg_runfile *rf, char *text, const sg_arg_info *arg, hdr *h)
{
  bool is_buffer = arg->kind == SG_ARG_BUFFER;
  char *save = NULL;
  for (char *tok = strtok_r(text, " \t\r\v\f", &save); tok; tok = strtok_r(NULL, " \t\r\v\f", &save)) {
    sg_scalar s;
    uint32_t comps;
    size_t tl = strlen(tok);
    if (tl <= 8 && sg_parse_type_name(tok, &s, &comps) && s != SG_S_BOOL &&
        (s != SG_S_HALF || true) && strspn(tok, "abcdefghijklmnopqrstuvwxyz0123456789") == tl) {
      if (h->type != SG_S_NONE)
        return fail(rf, "Argument type defined multiple times");
      h->type = s;
      h->comps = comps;
    } else if (!strncmp(tok, "dump", 4)) {
      h->dump = true;
    } else if (!strncmp(tok, "fill", 4)) {
      if (tl < 6 || tok[4] != '=')
        return fail(rf, "Expected =VALUE after 'fill");
      h->fill = tok + 5;
    } else if (!strcmp(tok, "hex")) {
      h->hex = true;
      rf->hex = true;
    } else if (!strcmp(tok, "noinit")) {
      if (!is_buffer && arg->kind != SG_ARG_IMAGE)
        return fail(rf, "'noinit' only valid for buffer arguments");
      h->noinit = true;
    } else if (!strcmp(tok, "null")) {
      if (!is_buffer)
        return fail(rf, "'null' only valid for buffer arguments");
      h->null = true;
    } else if (!strncmp(tok, "range", 5)) {
      if (tl < 7 || tok[5] != '=')
        return fail(rf, "Expected =START:INC:END after 'range");
      h->range = tok + 6;
    } else if (!strcmp(tok, "ro") || !strcmp(tok, "wo")) {
      bool ro = tok[0] == 'r';
      if ((ro && h->wo) || (!ro && h->ro))
        return fail(rf, "'ro' and 'wo' are mutually exclusive");
      if (!is_buffer || arg->is_constant_space)
        return fail(rf, "'%s' only valid for global memory buffers", tok);
      if (ro) h->ro = true; else h->wo = true;
    } else if (!strncmp(tok, "size", 4)) {
      if (tok[4] != '=')
        return fail(rf, "Expected = after 'size'");
      if (!parse_size_value(tok + 5, &h->size))
        return fail(rf, "Invalid value for 'size'");
      h->has_size = true;
    }
    /* ---- extensions (docs/runfile.md, EXTENSIONS) */
    else if (!strncmp(tok, "file=", 5) && tl > 5) {
      h->file = tok + 5;
    } else if (!strncmp(tok, "write=", 6) && tl > 6) {
      if (!is_buffer && arg->kind != SG_ARG_IMAGE)
        return fail(rf, "'write' only valid for buffer and image arguments");
      h->write = tok + 6;
    } else if (arg->kind == SG_ARG_IMAGE &&
               (!strncmp(tok, "width=", 6) || !strncmp(tok, "height=", 7) ||
                !strncmp(tok, "depth=", 6) || !strncmp(tok, "array=", 6) ||
                !strncmp(tok, "pitch=", 6) || !strncmp(tok, "slice_pitch=", 12))) {
      char *eq = strchr(tok, '=');
      size_t v;
      if (!parse_size_value(eq + 1, &v))
        return fail(rf, "Invalid value for '%.*s'", (int)(eq - tok), tok);
      switch (tok[0]) {
      case 'w': h->width = v; break;
      case 'h': h->height = v; break;
      case 'd': h->depth = v; break;
      case 'a': h->array_size = v; break;
      case 'p': h->row_pitch = v; break;
      default: h->slice_pitch = v; break;
      }
    } else if (arg->kind == SG_ARG_IMAGE && !strncmp(tok, "order=", 6)) {
      const char *v = skip_cl(tok + 6);
      unsigned i;
      for (i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (!strcasecmp(v, orders[i].name))
          break;
      if (i == sizeof orders / sizeof orders[0])
        return fail(rf, "unknown channel order '%s' (e.g. R, RG, RGBA, BGRA)", tok + 6);
      h->order = orders[i].v;
    } else if (arg->kind == SG_ARG_IMAGE && !strncmp(tok, "format=", 7)) {
      const char *v = skip_cl(tok + 7);
      unsigned i;
      for (i = 0; i < sizeof ctypes / sizeof ctypes[0]; i++)
        if (!strcasecmp(v, ctypes[i].name))
          break;
      if (i == sizeof ctypes / sizeof ctypes[0])
        return fail(rf, "unknown channel type '%s' (e.g. UNORM_INT8, FLOAT, UNSIGNED_INT32)", tok + 7);
      h->ctype = ctypes[i].v;
    } else if (arg->kind == SG_ARG_SAMPLER && !strncmp(tok, "value=", 6)) {
      char *end;
      errno = 0;
      unsigned long v = strtoul(tok + 6, &end, 0);
      if (*end || errno || v > 0xffffffffu)
        return fail(rf, "Invalid value for 'value'");
      h->sampler = (uint32_t)v;
      h->has_sampler = true;
    } else if (arg->kind == SG_ARG_SAMPLER && !strcmp(tok, "normalized")) {
      h->sampler |= 0x1;  /* CLK_NORMALIZED_COORDS_TRUE */
      h->has_sampler = true;
    } else if (arg->kind == SG_ARG_SAMPLER && !strncmp(tok, "address=", 8)) {
      static const struct { const char *n; uint32_t v; } am[] = {
        {"none", 0}, {"clamp_to_edge", 2}, {"clamp", 4}, {"repeat", 6}, {"mirrored_repeat", 8}};
      unsigned i;
      for (i = 0; i < 5; i++)
        if (!strcasecmp(tok + 8, am[i].n))
          break;
      if (i == 5)
        return fail(rf, "unknown address mode '%s' (none, clamp_to_edge, clamp, repeat, mirrored_repeat)", tok + 8);
      h->sampler = (h->sampler & ~0xeu) | am[i].v;
      h->has_sampler = true;
    } else if (arg->kind == SG_ARG_SAMPLER && !strncmp(tok, "filter=", 7)) {
      if (!strcasecmp(tok + 7, "nearest"))
        h->sampler = (h->sampler & ~0x30u) | 0x10u;
      else if (!strcasecmp(tok + 7, "linear"))
        h->sampler = (h->sampler & ~0x30u) | 0x20u;
      else
        return fail(rf, "unknown filter '%s' (nearest, linear)", tok + 7);
      h->has_sampler = true;
    } else {
      return fail(rf, "Unrecognised header token '%s'", tok);
    }
  }
  return RF_OK;
}

static rf_status do_fill(sg_runfile *rf, const char *text, sg_scalar t, uint8_t *data, size_t size)
{
  size_t es = sg_scalar_size(t);
  uint8_t v[8];
  const char *p = text;
  int r = parse_value_l(&p, t, rf->hex, rf->lenient, v);
  if (r == 2)
    return fail(rf, "Invalid char value");
  if (r || *p)
    return fail(rf, "Invalid fill value");
  for (size_t i = 0; i + es <= size; i += es)
    memcpy(data + i, v, es);
  return RF_OK;
}

static double as_double(sg_scalar t, const uint8_t *v)
{
  int8_t c; uint8_t uc; int16_t s; uint16_t us; int32_t i; uint32_t ui; int64_t l; uint64_t ul;
  float f; double d;
  switch (t) {
  case SG_S_CHAR: memcpy(&c, v, 1); return c;
  case SG_S_UCHAR: case SG_S_BOOL: memcpy(&uc, v, 1); return uc;
  case SG_S_SHORT: memcpy(&s, v, 2); return s;
  case SG_S_USHORT: memcpy(&us, v, 2); return us;
  case SG_S_INT: memcpy(&i, v, 4); return i;
  case SG_S_UINT: memcpy(&ui, v, 4); return ui;
  case SG_S_LONG: memcpy(&l, v, 8); return (double)l;
  case SG_S_ULONG: memcpy(&ul, v, 8); return (double)ul;
  case SG_S_HALF: memcpy(&us, v, 2); return half_to_float(us);
  case SG_S_FLOAT: memcpy(&f, v, 4); return f;
  case SG_S_DOUBLE: memcpy(&d, v, 8); return d;
  default: return 0;
  }
}

/* value += inc in type t (integers wrap). */
static void add_value(sg_scalar t, uint8_t *v, const uint8_t *inc)
{
  size_t es = sg_scalar_size(t);
  if (t == SG_S_FLOAT) {
    float a, b;
    memcpy(&a, v, 4);
    memcpy(&b, inc, 4);
    a += b;
    memcpy(v, &a, 4);
  } else if (t == SG_S_DOUBLE) {
    double a, b;
    memcpy(&a, v, 8);
    memcpy(&b, inc, 8);
    a += b;
    memcpy(v, &a, 8);
  } else if (t == SG_S_HALF) {
    uint16_t a, b;
    memcpy(&a, v, 2);
    memcpy(&b, inc, 2);
    a = sg_float_to_half(half_to_float(a) + half_to_float(b));
    memcpy(v, &a, 2);
  } else {
    uint64_t a = 0, b = 0;
    memcpy(&a, v, es);
    memcpy(&b, inc, es);
    a += b;
    memcpy(v, &a, es);
  }
}

static rf_status do_range(sg_runfile *rf, const char *text, sg_scalar t, uint8_t *data, size_t size)
{
  size_t es = sg_scalar_size(t);
  uint8_t v[3][8];
  const char *p = text;
  for (int i = 0; i < 3; i++) {
    int r = parse_value_l(&p, t, rf->hex, rf->lenient, v[i]);
    if (r == 2)
      return fail(rf, "Invalid char value");
    if (r)
      return fail(rf, "Invalid range format");
    if (i < 2) {
      if (*p != ':')
        return fail(rf, "Invalid range format");
      p++;
    }
  }
  if (*p)
    return fail(rf, "Invalid range format");
  /* num = (end - start + inc) / inc must be a whole number of elements
   * filling the argument exactly. */
  double start = as_double(t, v[0]), inc = as_double(t, v[1]), end = as_double(t, v[2]);
  double num = (end - start + inc) / inc;
  if (!isfinite(num) || ceil(num) != num || num < 0 || num * (double)es != (double)size)
    return fail(rf, "Range doesn't produce correct buffer size");
  uint8_t cur[8];
  memcpy(cur, v[0], es);
  for (size_t i = 0; i < (size_t)num; i++) {
    memcpy(data + i * es, cur, es);
    add_value(t, cur, v[1]);
  }
  return RF_OK;
}

static rf_status read_data_file(sg_runfile *rf, const char *name, uint8_t **data, size_t *size,
                                bool has_size)
{
  char *path = resolve(rf, name);
  if (!path)
    return fail(rf, "out of memory");
  size_t n = 0;
  uint8_t *bytes = sg_read_file(path, &n);
  if (!bytes) {
    rf_status s = fail(rf, "cannot read '%s': %s", path, sg_read_errstr(errno));
    free(path);
    return s;
  }
  if (has_size && n != *size) {
    rf_status s = fail(rf, "'%s' holds %zu bytes, the argument has size=%zu", path, n, *size);
    free(path);
    free(bytes);
    return s;
  }
  free(path);
  free(*data);
  *data = bytes;
  *size = n;
  return RF_OK;
}

/* Larger requests are mistakes (and sanitizers refuse such allocations). */
#define RF_MAX_ARG_BYTES ((size_t)1 << 36)

static rf_status parse_argument(sg_runfile *rf, const sg_module *m, const sg_kernel_info *k,
                                uint32_t index)
{
  const sg_arg_info *a = &k->args[index];
  snprintf(rf->parsing_buf, sizeof rf->parsing_buf, "argument %u: %s", index, a->name ? a->name : "?");
  rf->parsing = rf->parsing_buf;
  rf->hex = false;
  rf->lenient = false;
  (void)m;

  if (!next_content(rf))
    return fail_eof(rf);
  if (*rf->pos != '<')
    return fail(rf, "Expected argument header <...>");
  rf->pos++;
  const char *gt = strrchr(rf->pos, '>');
  if (!gt)
    return fail(rf, "Missing '>' at end of argument header");
  char *htext = strndup(rf->pos, (size_t)(gt - rf->pos));
  if (!htext)
    return fail(rf, "out of memory");
  rf->pos = gt + 1;
  hdr h;
  memset(&h, 0, sizeof h);
  h.comps = 1;
  rf_status st = parse_header(rf, htext, a, &h);
  if (st != RF_OK) {
    free(htext);
    return st;
  }

  sg_arg *out = &rf->args[index];
  uint8_t **owned = &rf->owned[index];
  sg_runfile_output o = {index, a->name, SG_S_NONE, h.comps, h.hex, h.dump, NULL};

  if (a->kind == SG_ARG_OTHER) {
    st = fail(rf, "argument of type '%s' is not supported", a->type_name ? a->type_name : "?");
    goto out;
  }
  if (a->kind == SG_ARG_SAMPLER) {
    if (h.has_size || h.dump || h.fill || h.range || h.null || h.file || h.write) {
      st = fail(rf, "a sampler argument takes only value=, normalized, address= and filter=");
      goto out;
    }
    out->kind = SG_ARG_SAMPLER;
    out->sampler = h.has_sampler ? h.sampler : 0x10u;
    goto out;
  }

  /* Oclgrind: "null" excludes everything else; otherwise a size is needed
   * (extension: file= supplies it). */
  if (h.null) {
    if (h.has_size || h.fill || h.range || h.noinit || h.dump || h.file || h.write) {
      st = fail(rf, "'null' not valid with other argument descriptors");
      goto out;
    }
    h.size = 0;
  } else if (a->kind == SG_ARG_IMAGE && !h.has_size) {
    /* computed below */
  } else if (!h.has_size && !h.file) {
    st = fail(rf, "size required");
    goto out;
  }

  sg_scalar type = h.type;
  if (type == SG_S_NONE) {
    /* Default from the kernel's argument type, by prefix as Oclgrind does. */
    const char *tn = a->type_name ? a->type_name : "";
    static const char *const pre[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                      "long", "ulong", "float", "double", "half"};
    static const sg_scalar ps[] = {SG_S_CHAR, SG_S_UCHAR, SG_S_SHORT, SG_S_USHORT, SG_S_INT,
                                   SG_S_UINT, SG_S_LONG, SG_S_ULONG, SG_S_FLOAT, SG_S_DOUBLE,
                                   SG_S_HALF};
    for (unsigned i = 0; i < sizeof pre / sizeof pre[0]; i++)
      if (!strncmp(tn, pre[i], strlen(pre[i]))) {
        type = ps[i];
        break;
      }
    if (type == SG_S_NONE && !strncmp(tn, "void*", 5))
      type = SG_S_UCHAR;
    if (type == SG_S_NONE && a->kind == SG_ARG_IMAGE)
      type = SG_S_UCHAR;
    if (type == SG_S_NONE && a->scalar != SG_S_NONE && a->scalar != SG_S_BOOL) {
      type = a->scalar;
      rf->lenient = true;
    }
    if (type == SG_S_NONE) {
      if (!h.has_size || h.fill || h.range || !(a->kind == SG_ARG_LOCAL || h.noinit || h.file)) {
        st = fail(rf, "Invalid default kernel argument type");
        goto out;
      }
      type = SG_S_UCHAR;
    }
    if (h.comps == 1 && a->components > 1 && type == a->scalar)
      o.components = a->components;
  }
  o.scalar = type;
  size_t ts = sg_scalar_size(type);

  if (h.dump && a->kind != SG_ARG_BUFFER && a->kind != SG_ARG_IMAGE) {
    st = fail(rf, "'dump' only valid for memory objects");
    goto out;
  }
  unsigned inits = (h.noinit ? 1u : 0) + (h.fill ? 1u : 0) + (h.range ? 1u : 0) + (h.file ? 1u : 0);
  if (inits > 1) {
    st = fail(rf, "Multiple initializers present");
    goto out;
  }

  if (a->kind == SG_ARG_LOCAL) {
    if (h.size > SG_MAX_LOCAL_BYTES) {
      st = fail(rf, "%zu bytes of __local memory is more than the limit of %llu bytes (1 GiB)",
                h.size, (unsigned long long)SG_MAX_LOCAL_BYTES);
      goto out;
    }
    if (h.size % ts) {
      st = fail(rf, "Initialiser type must exactly divide argument size");
      goto out;
    }
    out->kind = SG_ARG_LOCAL;
    out->size = h.size;
    goto out;
  }
  if (h.null) {
    out->kind = SG_ARG_NULL;
    goto out;
  }

  if (a->kind == SG_ARG_IMAGE) {
    /* Extension: image description; the pixels are bytes of `type`. */
    out->kind = SG_ARG_IMAGE;
    sg_image_desc *d = &out->image;
    d->image_type = a->image_type;
    d->channel_order = h.order ? h.order : CL_RGBA;
    d->channel_type = h.ctype ? h.ctype : CL_UNORM_INT8;
    uint32_t ch = 4, bytes = 1;
    bool packed = false;
    for (unsigned i = 0; i < sizeof orders / sizeof orders[0]; i++)
      if (orders[i].v == d->channel_order)
        ch = orders[i].channels;
    for (unsigned i = 0; i < sizeof ctypes / sizeof ctypes[0]; i++)
      if (ctypes[i].v == d->channel_type) {
        bytes = ctypes[i].bytes;
        packed = ctypes[i].packed;
      }
    size_t px = packed ? bytes : (size_t)ch * bytes;
    if (!h.width) {
      st = fail(rf, "an image argument needs width= (and height=, depth= as its type needs)");
      goto out;
    }
    d->width = h.width;
    d->height = h.height ? h.height : 1;
    d->depth = h.depth ? h.depth : 1;
    d->array_size = h.array_size;
    size_t min_pitch, layers, min_slice, need;
    if (__builtin_mul_overflow(d->width, px, &min_pitch) ||
        __builtin_mul_overflow(d->depth, d->array_size ? d->array_size : 1, &layers)) {
      st = fail(rf, "image size overflows");
      goto out;
    }
    d->row_pitch = h.row_pitch ? h.row_pitch : min_pitch;
    if (d->row_pitch < min_pitch) {
      st = fail(rf, "row pitch %zu is less than width x pixel size (%zu)", d->row_pitch, min_pitch);
      goto out;
    }
    if (__builtin_mul_overflow(d->row_pitch, d->height, &min_slice)) {
      st = fail(rf, "image size overflows");
      goto out;
    }
    d->slice_pitch = h.slice_pitch ? h.slice_pitch : min_slice;
    if (d->slice_pitch < min_slice) {
      st = fail(rf, "slice pitch %zu is less than row pitch x height (%zu)", d->slice_pitch, min_slice);
      goto out;
    }
    if (__builtin_mul_overflow(d->slice_pitch, layers, &need)) {
      st = fail(rf, "image size overflows");
      goto out;
    }
    if (h.has_size && h.size != need) {
      st = fail(rf, "size=%zu does not match the image's %zu bytes", h.size, need);
      goto out;
    }
    h.size = need;
    h.has_size = true;
  }

  if (h.size > RF_MAX_ARG_BYTES) {
    st = fail(rf, "%zu bytes is more than a run file argument may hold (64 GiB)", h.size);
    goto out;
  }
  if (h.file) {
    size_t sz = h.size;
    st = read_data_file(rf, h.file, owned, &sz, h.has_size);
    if (st != RF_OK)
      goto out;
    h.size = sz;
  } else {
    *owned = sg_alloc_buffer(h.size);   /* huge pages for big buffers */
    if (!*owned) {
      st = fail(rf, "cannot allocate %zu bytes", h.size);
      goto out;
    }
  }
  if (h.size % ts) {
    st = fail(rf, "Initialiser type must exactly divide argument size");
    goto out;
  }
  if (h.fill)
    st = do_fill(rf, h.fill, type, *owned, h.size);
  else if (h.range)
    st = do_range(rf, h.range, type, *owned, h.size);
  else if (!h.noinit && !h.file)
    for (size_t i = 0; i < h.size && st == RF_OK; i += ts)
      st = get_value(rf, type, *owned + i);
  if (st != RF_OK)
    goto out;

  out->data = *owned;
  out->size = h.size;
  if (a->kind == SG_ARG_VALUE) {
    out->kind = SG_ARG_VALUE;
    if (h.size != a->size) {
      st = fail(rf, "size=%zu does not match the argument's size (%zu bytes, %s)", h.size,
                a->size, a->type_name ? a->type_name : "?");
      goto out;
    }
  } else if (a->kind == SG_ARG_BUFFER) {
    out->kind = SG_ARG_BUFFER;
    out->noinit = h.noinit;
    out->access = h.ro ? SG_ACCESS_READ_ONLY : h.wo ? SG_ACCESS_WRITE_ONLY : SG_ACCESS_READ_WRITE;
  }
  if (h.dump || h.write) {
    if (h.write) {
      o.write_path = keep(rf, resolve(rf, h.write));
      if (!o.write_path) {
        st = fail(rf, "out of memory");
        goto out;
      }
    }
    rf->outputs[rf->n_outputs++] = o;
  }
out:
  free(htext);
  rf->hex = false;
  rf->lenient = false;
  return st;
}

sg_result sg_runfile_bind(sg_runfile *rf, const sg_module *m, char *err, size_t err_size)
{
  char dummy[8];
  if (!err || !err_size) {
    err = dummy;
    err_size = sizeof dummy;
  }
  err[0] = 0;
  rf->err = err;
  rf->err_size = err_size;
  const sg_kernel_info *k = sg_module_find_kernel(m, rf->kernel);
  if (!k) {
    char list[512] = "";
    size_t used = 0;
    for (uint32_t i = 0; i < sg_module_kernel_count(m) && used < sizeof list; i++)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                               sg_module_kernel(m, i)->name);
    snprintf(err, err_size, "%s: no kernel named '%s' in %s (kernels: %s)", rf->path,
             rf->kernel, sg_module_path(m), list[0] ? list : "none");
    return SG_ERROR_NO_KERNEL;
  }
  if (rf->args) {
    snprintf(err, err_size, "%s: arguments already bound", rf->path);
    return SG_ERROR_INVALID_ARGUMENT;
  }
  rf->args = calloc(k->n_args ? k->n_args : 1, sizeof *rf->args);
  rf->owned = calloc(k->n_args ? k->n_args : 1, sizeof *rf->owned);
  rf->outputs = calloc(k->n_args ? k->n_args : 1, sizeof *rf->outputs);
  if (!rf->args || !rf->owned || !rf->outputs) {
    snprintf(err, err_size, "out of memory");
    return SG_ERROR_NOMEM;
  }
  rf->n_args = k->n_args;
  for (uint32_t i = 0; i < k->n_args; i++)
    if (parse_argument(rf, m, k, i) != RF_OK)
      return SG_ERROR_RUNFILE;
  rf->parsing = NULL;
  if (next_content(rf)) {
    const char *s = rf->pos;
    size_t n = strcspn(s, " \t\r\v\f");
    snprintf(err, err_size, "%s:%u: unexpected token '%.*s' (expected end of file: kernel '%s' has %u argument%s)",
             rf->path, rf->lineno, (int)(n > 100 ? 100 : n), s, k->name, k->n_args,
             k->n_args == 1 ? "" : "s");
    return SG_ERROR_RUNFILE;
  }
  return SG_SUCCESS;
}

/* ------------------------------------------------------------------ dumps */

int sg_format_value(char *buf, size_t n, sg_scalar s, bool hex, const void *elem)
{
  const uint8_t *v = elem;
  int8_t c; uint8_t uc; int16_t sh; uint16_t us; int32_t i; uint32_t ui; int64_t l; uint64_t ul;
  float f; double d;
  char tmp[64];
  switch (s) {
  case SG_S_CHAR:
    memcpy(&c, v, 1);
    /* (int)value through ostream: hex shows the unsigned int */
    return hex ? snprintf(buf, n, "0x%02x", (unsigned)(int)c) : snprintf(buf, n, "%d", c);
  case SG_S_UCHAR:
  case SG_S_BOOL:
    memcpy(&uc, v, 1);
    return hex ? snprintf(buf, n, "0x%02x", uc) : snprintf(buf, n, "%d", uc);
  case SG_S_SHORT:
    memcpy(&sh, v, 2);
    return hex ? snprintf(buf, n, "0x%04x", (unsigned)(uint16_t)sh) : snprintf(buf, n, "%d", sh);
  case SG_S_USHORT:
    memcpy(&us, v, 2);
    return hex ? snprintf(buf, n, "0x%04x", us) : snprintf(buf, n, "%u", us);
  case SG_S_INT:
    memcpy(&i, v, 4);
    return hex ? snprintf(buf, n, "0x%08x", (uint32_t)i) : snprintf(buf, n, "%d", i);
  case SG_S_UINT:
    memcpy(&ui, v, 4);
    return hex ? snprintf(buf, n, "0x%08x", ui) : snprintf(buf, n, "%u", ui);
  case SG_S_LONG:
    memcpy(&l, v, 8);
    return hex ? snprintf(buf, n, "0x%016llx", (unsigned long long)l) : snprintf(buf, n, "%lld", (long long)l);
  case SG_S_ULONG:
    memcpy(&ul, v, 8);
    return hex ? snprintf(buf, n, "0x%016llx", (unsigned long long)ul) : snprintf(buf, n, "%llu", (unsigned long long)ul);
  case SG_S_HALF:
  case SG_S_FLOAT:
  case SG_S_DOUBLE: {
    int width;
    if (s == SG_S_HALF) {
      memcpy(&us, v, 2);
      d = half_to_float(us);
      width = 4;
    } else if (s == SG_S_FLOAT) {
      memcpy(&f, v, 4);
      d = f;
      width = 8;
    } else {
      memcpy(&d, v, 8);
      width = 16;
    }
    snprintf(tmp, sizeof tmp, "%g", d);
    if (!hex)
      return snprintf(buf, n, "%s", tmp);
    /* ostream: setw + setfill('0') pad floats on the left too */
    int len = (int)strlen(tmp);
    return snprintf(buf, n, "0x%.*s%s", len < width ? width - len : 0, "0000000000000000", tmp);
  }
  default:
    return snprintf(buf, n, "?");
  }
}

int sg_write_dump(FILE *f, const char *name, sg_scalar s, bool hex, const void *data, size_t size)
{
  size_t es = sg_scalar_size(s);
  if (!es)
    es = 1, s = SG_S_UCHAR;
  size_t count = size / es;
  if (fprintf(f, "\nArgument '%s': %zu bytes\n", name, size) < 0)
    return -1;
  for (size_t i = 0; i < count; i++) {
    char v[64];
    sg_format_value(v, sizeof v, s, hex, (const uint8_t *)data + i * es);
    if (fprintf(f, "  %s[%zu] = %s\n", name, i, v) < 0)
      return -1;
  }
  if (fputc('\n', f) == EOF || ferror(f)) {
    if (!errno)
      errno = EIO;
    return -1;
  }
  return 0;
}

char *sg_format_dump(const char *name, sg_scalar s, bool hex, const void *data, size_t size)
{
  size_t es = sg_scalar_size(s);
  if (!es)
    es = 1, s = SG_S_UCHAR;
  size_t count = size / es, cap;
  if (__builtin_mul_overflow(count, strlen(name) + 48, &cap) ||
      __builtin_add_overflow(cap, 64 + strlen(name) * 2, &cap))
    return NULL;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  size_t len = (size_t)snprintf(out, cap, "\nArgument '%s': %zu bytes\n", name, size);
  for (size_t i = 0; i < count; i++) {
    char v[64];
    sg_format_value(v, sizeof v, s, hex, (const uint8_t *)data + i * es);
    len += (size_t)snprintf(out + len, cap - len, "  %s[%zu] = %s\n", name, i, v);
  }
  snprintf(out + len, cap - len, "\n");
  return out;
}

/* --arg NAME=image:TOKENS (spirv-sgrun, spirv-sgdb): an image argument from
 * the command line.  TOKENS are the run-file image header tokens
 * (docs/runfile.md), separated by commas or spaces; they are parsed exactly
 * as the header "<TOKENS>" of that argument in a run file, so the two ways of
 * describing an image cannot drift.  Data comes from file= or fill=, else
 * the image starts zeroed. */
sg_result sg_image_arg_from_tokens(const sg_arg_info *a, uint32_t index, const char *tokens,
                                   sg_arg *out, uint8_t **out_owned, char *err, size_t err_size)
{
  /* a is &kernel->args[index] (sg_build_arg's contract) */
  sg_kernel_info kk = {.name = NULL, .n_args = index + 1, .args = a - index};
  const sg_kernel_info *k = &kk;
  *out_owned = NULL;
  sg_result res = SG_ERROR_INVALID_ARGUMENT;
  sg_runfile *rf = calloc(1, sizeof *rf);
  size_t tl = strlen(tokens);
  if (!rf)
    return SG_ERROR_NOMEM;
  rf->path = strdup("--arg");
  rf->dir = strdup("");
  rf->content = malloc(tl + 16);
  rf->lines = calloc(1, sizeof *rf->lines);
  rf->n_args = k->n_args;
  rf->args = calloc(k->n_args + 1, sizeof *rf->args);
  rf->owned = calloc(k->n_args + 1, sizeof *rf->owned);
  rf->outputs = calloc(k->n_args + 1, sizeof *rf->outputs);
  rf->err = err;
  rf->err_size = err_size;
  if (!rf->path || !rf->dir || !rf->content || !rf->lines || !rf->args || !rf->owned || !rf->outputs) {
    res = SG_ERROR_NOMEM;
    goto out_free;
  }
  /* The header, with noinit unless data is given, so no inline values are read. */
  bool has_data = strstr(tokens, "file=") || strstr(tokens, "fill=") || strstr(tokens, "range=");
  snprintf(rf->content, tl + 16, "<%s%s>", tokens, has_data ? "" : " noinit");
  for (char *c = rf->content; *c; c++)
    if (*c == ',')
      *c = ' ';
  rf->lines[0].text = rf->content;
  rf->lines[0].number = 1;
  rf->n_lines = 1;
  if (index >= k->n_args || k->args[index].kind != SG_ARG_IMAGE) {
    snprintf(err, err_size, "argument %u is not an image", index);
    goto out_free;
  }
  if (parse_argument(rf, NULL, k, index) == RF_OK) {
    *out = rf->args[index];
    *out_owned = rf->owned[index];
    rf->owned[index] = NULL;
    res = SG_SUCCESS;
  }
out_free:
  sg_runfile_destroy(rf);
  return res;
}
