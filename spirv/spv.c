/* spv.c - SPIR-V words: header check, instruction iteration, literal strings,
 * and a one-line printer driven by the generated operand tables. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spv.h"
#include "spv_internal.h"

static uint32_t bswap32(uint32_t v) { return __builtin_bswap32(v); }

bool spv_binary_from_bytes(const void *bytes, size_t n_bytes, spv_binary *out,
                           char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  if (n_bytes == 0 || !bytes) {
    snprintf(err, err_size, "not a SPIR-V module: empty file");
    return false;
  }
  if (n_bytes < 20) {
    snprintf(err, err_size, "not a SPIR-V module: truncated header (%zu bytes, the header is 20)",
             n_bytes);
    return false;
  }
  uint32_t magic;
  memcpy(&magic, bytes, 4);
  bool swapped;
  if (magic == SPV_MAGIC) swapped = false;
  else if (bswap32(magic) == SPV_MAGIC) swapped = true;
  else {
    snprintf(err, err_size, "not a SPIR-V module: wrong magic number 0x%08" PRIx32, magic);
    return false;
  }
  if (n_bytes % 4 != 0) {
    snprintf(err, err_size, "malformed SPIR-V module: length %zu bytes is not a multiple of 4",
             n_bytes);
    return false;
  }
  size_t n = n_bytes / 4;
  uint32_t *w = malloc(n * sizeof *w);
  if (!w) {
    snprintf(err, err_size, "out of memory reading a %zu-byte module", n_bytes);
    return false;
  }
  memcpy(w, bytes, n * 4);
  if (swapped)
    for (size_t i = 0; i < n; i++) w[i] = bswap32(w[i]);
  out->words = w;
  out->n_words = n;
  out->version = w[1];
  out->generator = w[2];
  out->bound = w[3];
  out->swapped = swapped;
  return true;
}

void spv_binary_free(spv_binary *bin) {
  if (!bin) return;
  free(bin->words);
  bin->words = NULL;
  bin->n_words = 0;
}

int spv_next_insn(const spv_binary *bin, uint32_t *off, spv_insn_ref *out,
                  char *err, size_t err_size) {
  if (*off >= bin->n_words) return 0;
  uint32_t w0 = bin->words[*off];
  uint32_t n = w0 >> 16, op = w0 & 0xffffu;
  if (n == 0) {
    snprintf(err, err_size, "word %" PRIu32 " (%s): instruction word count is 0", *off,
             spv_opcode_name(op));
    return -1;
  }
  if ((size_t)*off + n > bin->n_words) {
    snprintf(err, err_size,
             "word %" PRIu32 " (%s): instruction of %" PRIu32 " words runs past the end "
             "of the module (%zu words)", *off, spv_opcode_name(op), n, bin->n_words);
    return -1;
  }
  out->op = (SpvOp)op;
  out->n_words = (uint16_t)n;
  out->offset = *off;
  out->words = bin->words + *off;
  *off += n;
  return 1;
}

uint32_t spv_literal_string(const uint32_t *words, uint32_t n_words, const char **out_str) {
  /* Literal strings are nul-terminated UTF-8 packed little-endian in words;
   * the host-order words are little-endian on every host we target. */
  for (uint32_t i = 0; i < n_words; i++) {
    uint32_t w = words[i];
    if (((w >> 24) & 0xff) == 0 || ((w >> 16) & 0xff) == 0 || ((w >> 8) & 0xff) == 0 ||
        (w & 0xff) == 0) {
      if (out_str) *out_str = (const char *)words;
      return i + 1;
    }
  }
  if (out_str) *out_str = NULL;
  return 0;
}

const char *spv_opcode_name(uint32_t op) {
  static _Thread_local char buf[32];
  const spv_opcode_desc *d = spv_opcode_info(op);
  if (d) return d->name;
  snprintf(buf, sizeof buf, "Op<unknown %" PRIu32 ">", op);
  return buf;
}

static const spv_enumerant *find_enumerant(const spv_enum_kind *k, uint32_t value) {
  size_t lo = 0, hi = k->n_values;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (k->values[mid].value == value) return &k->values[mid];
    if (k->values[mid].value < value) lo = mid + 1; else hi = mid;
  }
  return NULL;
}

const char *spv_enum_name(const char *kind, uint32_t value) {
  const spv_enum_kind *k = spv_enum_kind_by_name(kind);
  if (!k) return NULL;
  const spv_enumerant *e = find_enumerant(k, value);
  return e ? e->name : NULL;
}

const char *spv_capability_name(uint32_t cap) { return spv_enum_name("Capability", cap); }
const char *spv_builtin_name(uint32_t b) { return spv_enum_name("BuiltIn", b); }
const char *spv_storage_class_name(uint32_t sc) { return spv_enum_name("StorageClass", sc); }

/* ---- printer ---- */

typedef struct fmt_state {
  char *buf;
  size_t size, len;
  const uint32_t *w;
  uint32_t pos, end;
  spv_id_namer namer;
  void *user;
} fmt_state;

__attribute__((format(printf, 2, 3)))
static void put(fmt_state *s, const char *fmt, ...) {
  if (s->len >= s->size) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(s->buf + s->len, s->size - s->len, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  s->len += (size_t)n;
  if (s->len >= s->size) s->len = s->size - 1;
}

static void put_id(fmt_state *s, uint32_t id) {
  const char *n = s->namer ? s->namer(s->user, id) : NULL;
  if (n && *n) put(s, " %%%s", n);
  else put(s, " %%%" PRIu32, id);
}

static void fmt_operand(fmt_state *s, const spv_operand_desc *d, bool last);

static void fmt_params(fmt_state *s, const spv_enumerant *e) {
  for (uint16_t i = 0; i < e->n_params && s->pos < s->end; i++)
    fmt_operand(s, &e->params[i], false);
}

static void fmt_operand(fmt_state *s, const spv_operand_desc *d, bool last) {
  if (s->pos >= s->end) return;
  uint32_t v = s->w[s->pos];
  switch (d->cls) {
  case SPV_OPND_ID:
  case SPV_OPND_RESULT_TYPE:
  case SPV_OPND_RESULT:
    put_id(s, v);
    s->pos++;
    break;
  case SPV_OPND_LITERAL_CTX:
    if (last && s->end - s->pos == 2) {
      put(s, " 0x%08" PRIx32 "%08" PRIx32, s->w[s->pos + 1], v);
      s->pos += 2;
    } else {
      put(s, " %" PRIu32, v);
      s->pos++;
    }
    break;
  case SPV_OPND_LITERAL_STRING: {
    const char *str;
    uint32_t used = spv_literal_string(s->w + s->pos, s->end - s->pos, &str);
    if (!used) { put(s, " <unterminated string>"); s->pos = s->end; break; }
    put(s, " \"%s\"", str);
    s->pos += used;
    break;
  }
  case SPV_OPND_ENUM: {
    const spv_enum_kind *k = spv_enum_kind_by_index(d->kind);
    const spv_enumerant *e = k ? find_enumerant(k, v) : NULL;
    s->pos++;
    if (e) { put(s, " %s", e->name); fmt_params(s, e); }
    else put(s, " %" PRIu32, v);
    break;
  }
  case SPV_OPND_BITMASK: {
    const spv_enum_kind *k = spv_enum_kind_by_index(d->kind);
    s->pos++;
    if (!k) { put(s, " 0x%" PRIx32, v); break; }
    if (v == 0) {
      const spv_enumerant *e = find_enumerant(k, 0);
      put(s, " %s", e ? e->name : "None");
      break;
    }
    const spv_enumerant *bits[32];
    unsigned nb = 0;
    uint32_t unknown = 0;
    put(s, " ");
    for (unsigned b = 0; b < 32; b++) {
      if (!(v & (1u << b))) continue;
      const spv_enumerant *e = find_enumerant(k, 1u << b);
      if (e) {
        put(s, "%s%s", nb ? "|" : "", e->name);
        bits[nb++] = e;
      } else unknown |= 1u << b;
    }
    if (unknown) put(s, "%s0x%" PRIx32, nb ? "|" : "", unknown);
    for (unsigned i = 0; i < nb; i++) fmt_params(s, bits[i]);
    break;
  }
  case SPV_OPND_PAIR_LIT_ID:
    put(s, " %" PRIu32, v);
    s->pos++;
    if (s->pos < s->end) { put_id(s, s->w[s->pos]); s->pos++; }
    break;
  case SPV_OPND_PAIR_ID_LIT:
    put_id(s, v);
    s->pos++;
    if (s->pos < s->end) { put(s, " %" PRIu32, s->w[s->pos]); s->pos++; }
    break;
  case SPV_OPND_PAIR_ID_ID:
    put_id(s, v);
    s->pos++;
    if (s->pos < s->end) { put_id(s, s->w[s->pos]); s->pos++; }
    break;
  default:
    put(s, " %" PRIu32, v);
    s->pos++;
    break;
  }
}

void spv_format_insn(const spv_insn_ref *insn, spv_id_namer namer, void *user,
                     char *buf, size_t buf_size) {
  if (!buf || buf_size == 0) return;
  buf[0] = 0;
  fmt_state s = {buf, buf_size, 0, insn->words, 1, insn->n_words, namer, user};
  const spv_opcode_desc *d = spv_opcode_info(insn->op);
  if (!d) {
    put(&s, "%s", spv_opcode_name(insn->op));
    for (uint32_t i = 1; i < insn->n_words; i++) put(&s, " %" PRIu32, insn->words[i]);
    return;
  }
  /* Result first: "%r = OpX %type ..." */
  uint32_t ti = 0, ri = 0;
  for (uint16_t i = 0; i < d->n_operands; i++) {
    if (d->operands[i].cls == SPV_OPND_RESULT_TYPE) ti = i + 1;
    if (d->operands[i].cls == SPV_OPND_RESULT) ri = i + 1;
  }
  if (ri && ri < insn->n_words) {
    const char *n = namer ? namer(user, insn->words[ri]) : NULL;
    if (n && *n) put(&s, "%%%s = ", n);
    else put(&s, "%%%" PRIu32 " = ", insn->words[ri]);
  }
  put(&s, "%s", d->name);
  for (uint16_t i = 0; i < d->n_operands && s.pos < s.end; i++) {
    const spv_operand_desc *od = &d->operands[i];
    if (od->cls == SPV_OPND_RESULT) { s.pos++; continue; }
    (void)ti;
    bool last = i + 1 == d->n_operands;
    if (od->quant == SPV_Q_MANY) {
      while (s.pos < s.end) fmt_operand(&s, od, last);
    } else {
      fmt_operand(&s, od, last);
    }
  }
  while (s.pos < s.end) put(&s, " %" PRIu32, s.w[s.pos++]);
}

/* ---- operand walker ---- */

typedef struct walk_state {
  const uint32_t *w;
  uint32_t pos, end;
  spv_operand_fn fn;
  void *user;
  bool ok;
} walk_state;

static void walk_one(walk_state *s, const spv_operand_desc *d);

static void walk_params(walk_state *s, const spv_enumerant *e) {
  for (uint16_t i = 0; i < e->n_params && s->ok; i++) {
    if (s->pos >= s->end) { s->ok = false; return; }
    walk_one(s, &e->params[i]);
  }
}

static void walk_one(walk_state *s, const spv_operand_desc *d) {
  uint32_t v = s->w[s->pos];
  switch (d->cls) {
  case SPV_OPND_ID:
  case SPV_OPND_RESULT_TYPE:
  case SPV_OPND_RESULT:
    s->fn(s->user, s->pos++, (spv_operand_class)d->cls);
    break;
  case SPV_OPND_LITERAL_CTX:
    /* width depends on the type: the caller decodes these itself */
    s->fn(s->user, s->pos, SPV_OPND_LITERAL_CTX);
    s->pos = s->end;
    break;
  case SPV_OPND_LITERAL_STRING: {
    uint32_t used = spv_literal_string(s->w + s->pos, s->end - s->pos, NULL);
    if (!used) { s->ok = false; return; }
    s->fn(s->user, s->pos, SPV_OPND_LITERAL_STRING);
    s->pos += used;
    break;
  }
  case SPV_OPND_ENUM: {
    const spv_enum_kind *k = spv_enum_kind_by_index(d->kind);
    const spv_enumerant *e = k ? find_enumerant(k, v) : NULL;
    s->fn(s->user, s->pos++, SPV_OPND_ENUM);
    if (e) walk_params(s, e);
    break;
  }
  case SPV_OPND_BITMASK: {
    const spv_enum_kind *k = spv_enum_kind_by_index(d->kind);
    s->fn(s->user, s->pos++, SPV_OPND_BITMASK);
    if (!k) break;
    for (unsigned b = 0; b < 32 && s->ok; b++) {
      if (!(v & (1u << b))) continue;
      const spv_enumerant *e = find_enumerant(k, 1u << b);
      if (e) walk_params(s, e);
    }
    break;
  }
  case SPV_OPND_PAIR_LIT_ID:
  case SPV_OPND_PAIR_ID_LIT:
  case SPV_OPND_PAIR_ID_ID:
    if (s->end - s->pos < 2) { s->ok = false; return; }
    s->fn(s->user, s->pos, d->cls == SPV_OPND_PAIR_LIT_ID ? SPV_OPND_LITERAL_INT : SPV_OPND_ID);
    s->fn(s->user, s->pos + 1, d->cls == SPV_OPND_PAIR_ID_LIT ? SPV_OPND_LITERAL_INT : SPV_OPND_ID);
    s->pos += 2;
    break;
  default:
    s->fn(s->user, s->pos++, (spv_operand_class)d->cls);
    break;
  }
}

bool spv_walk_operands(const uint32_t *words, uint32_t n_words, uint32_t first,
                       const spv_operand_desc *ops, uint16_t n_ops,
                       spv_operand_fn fn, void *user) {
  walk_state s = {words, first, n_words, fn, user, true};
  for (uint16_t i = 0; i < n_ops && s.ok; i++) {
    const spv_operand_desc *d = &ops[i];
    if (d->quant == SPV_Q_MANY) {
      while (s.ok && s.pos < s.end) walk_one(&s, d);
    } else if (s.pos < s.end) {
      walk_one(&s, d);
    } else if (d->quant == SPV_Q_ONE) {
      return false;
    }
  }
  return s.ok && s.pos == s.end;
}
