/* ld_text.c - text in and out (SPIRV-Tools), names for messages, lookups,
 * and the module hash (SHA-256, FIPS 180-4). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ld_internal.h"
#include "ld_spvtools.h"

uint32_t *ld_assemble(const char *text, size_t len, size_t *out_n_words, ld_message_fn message,
                      void *user) {
  return ld_assemble_named(text, len, NULL, out_n_words, message, user);
}

uint32_t *ld_assemble_named(const char *text, size_t len, const char *name, size_t *out_n_words,
                            ld_message_fn message, void *user) {
  char msg[600];
  size_t n = 0;
  if (out_n_words) *out_n_words = 0;
  if (!text) {
    if (message) message(user, LD_ERROR, "no assembly text");
    return NULL;
  }
  uint32_t *w = ld_tools_assemble(text, len, &n, msg, sizeof msg);
  if (!w) {
    char line[700];
    /* "FILE:LINE:COL: what" as compilers write it (msg starts "LINE:COL: ") */
    if (name && msg[0] >= '0' && msg[0] <= '9')
      snprintf(line, sizeof line, "%s:%s", name, msg);
    else if (name)
      snprintf(line, sizeof line, "%s: assembly failed: %s", name, msg);
    else
      snprintf(line, sizeof line, "assembly failed: %s", msg);
    if (message) message(user, LD_ERROR, line);
    return NULL;
  }
  if (out_n_words) *out_n_words = n;
  return w;
}

char *ld_disassemble(const uint32_t *words, size_t n_words) {
  if (!words) return NULL;
  return ld_tools_disassemble(words, n_words);
}

const char *ld_id_name(const ld_module *m, uint32_t id) {
  static _Thread_local char buf[4][64];
  static _Thread_local int which;
  if (m && m->values && id > 0 && id < m->bound && m->values[id].name && m->values[id].name[0])
    return m->values[id].name;
  which = (which + 1) & 3;
  snprintf(buf[which], sizeof buf[which], "%%%" PRIu32, id);
  return buf[which];
}

bool ld_has_capability(const ld_module *m, SpvCapability cap) {
  if (!m) return false;
  for (uint32_t i = 0; i < m->n_capabilities; i++)
    if (m->capabilities[i] == cap) return true;
  return false;
}

const char *ld_insn_where(const ld_module *m, const ld_insn *insn) {
  static _Thread_local char buf[300];
  (void)m;
  if (!insn) return "?";
  if (insn->loc && insn->loc->file)
    snprintf(buf, sizeof buf, "%s:%" PRIu32, insn->loc->file, insn->loc->line);
  else
    snprintf(buf, sizeof buf, "word %" PRIu32 " (%s)", insn->word_offset, spv_opcode_name(insn->op));
  return buf;
}

const ld_kernel *ld_find_kernel(const ld_module *m, const char *name) {
  if (!m || !name) return NULL;
  for (uint32_t i = 0; i < m->n_kernels; i++)
    if (strcmp(m->kernels[i].name, name) == 0) return &m->kernels[i];
  return NULL;
}

/* ---- SHA-256 ---- */

static const uint32_t sha_k[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

typedef struct sha_ctx {
  uint32_t h[8];
  uint8_t buf[64];
  size_t n;
  uint64_t total;
} sha_ctx;

static uint32_t ror(uint32_t x, unsigned r) { return (x >> r) | (x << (32 - r)); }

static void sha_block(sha_ctx *c, const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3];
  uint32_t e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
    uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
    h = g; g = f; f = e; e = d + t1; d = cc; cc = b; b = a; a = t1 + t2;
  }
  c->h[0] += a; c->h[1] += b; c->h[2] += cc; c->h[3] += d;
  c->h[4] += e; c->h[5] += f; c->h[6] += g; c->h[7] += h;
}

static void sha_update(sha_ctx *c, const void *data, size_t len) {
  const uint8_t *p = data;
  c->total += len;
  while (len) {
    size_t k = 64 - c->n < len ? 64 - c->n : len;
    memcpy(c->buf + c->n, p, k);
    c->n += k;
    p += k;
    len -= k;
    if (c->n == 64) {
      sha_block(c, c->buf);
      c->n = 0;
    }
  }
}

void ld_sha256(const void *data, size_t len, const void *data2, size_t len2, uint8_t out[32]) {
  sha_ctx c = {{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
                0x1f83d9ab, 0x5be0cd19}, {0}, 0, 0};
  if (len) sha_update(&c, data, len);
  if (len2) sha_update(&c, data2, len2);
  uint64_t bits = c.total * 8;
  uint8_t pad = 0x80;
  sha_update(&c, &pad, 1);
  uint8_t z = 0;
  while (c.n != 56) sha_update(&c, &z, 1);
  uint8_t lb[8];
  for (int i = 0; i < 8; i++) lb[i] = (uint8_t)(bits >> (56 - 8 * i));
  sha_update(&c, lb, 8);
  for (int i = 0; i < 8; i++) {
    out[4 * i] = (uint8_t)(c.h[i] >> 24);
    out[4 * i + 1] = (uint8_t)(c.h[i] >> 16);
    out[4 * i + 2] = (uint8_t)(c.h[i] >> 8);
    out[4 * i + 3] = (uint8_t)c.h[i];
  }
}
