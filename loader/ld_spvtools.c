/* ld_spvtools.c - validation, assembly and disassembly through the
 * SPIRV-Tools C API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spirv-tools/libspirv.h>
#include "ld_spvtools.h"

/* Length of the valid UTF-8 sequence at s (2..4), else 0. */
static size_t utf8_len(const unsigned char *s) {
  size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
  if (s[0] >= 0xf8 || (s[0] == 0xc2 && s[1] < 0xa0)) return 0;   /* C1 controls too */
  for (size_t k = 1; k < n; k++)
    if ((s[k] & 0xc0) != 0x80) return 0;
  return n;
}

/* One line: newlines become "; ", trailing space trimmed; control bytes and
 * bytes that are not UTF-8 become \xNN (SPIRV-Tools quotes the offending
 * input, which may be random bytes: they must not reach the terminal). */
static void one_line(char *dst, size_t size, const char *src) {
  size_t j = 0;
  if (!size) return;
  for (size_t i = 0; src && src[i] && j + 6 < size; i++) {
    unsigned char c = (unsigned char)src[i];
    if (c == '\n') {
      while (src[i + 1] == '\n' || src[i + 1] == ' ') i++;
      if (src[i + 1] && j) { dst[j++] = ';'; dst[j++] = ' '; }
      continue;
    }
    size_t u = c >= 0x80 ? utf8_len((const unsigned char *)src + i) : 0;
    if (u && j + u + 3 < size) {
      memcpy(dst + j, src + i, u);
      j += u;
      i += u - 1;
      continue;
    }
    if (c < 0x20 || c == 0x7f || c >= 0x80) {
      j += (size_t)snprintf(dst + j, size - j, "\\x%02x", c);
      continue;
    }
    dst[j++] = (char)c;
  }
  while (j && (dst[j - 1] == ' ' || dst[j - 1] == ';')) j--;
  dst[j] = 0;
}

static spv_target_env env_for(uint32_t version) {
  uint32_t major = (version >> 16) & 0xff, minor = (version >> 8) & 0xff;
  if (major != 1 || minor <= 2) return SPV_ENV_OPENCL_2_2;
  switch (minor) {
  case 3: return SPV_ENV_UNIVERSAL_1_3;
  case 4: return SPV_ENV_UNIVERSAL_1_4;
  case 5: return SPV_ENV_UNIVERSAL_1_5;
  default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

int ld_tools_validate(const uint32_t *words, size_t n_words, uint32_t version,
                      char *msg, size_t msg_size) {
  spv_context ctx = spvContextCreate(env_for(version));
  if (!ctx) { snprintf(msg, msg_size, "could not create a SPIRV-Tools context"); return -1; }
  spv_validator_options vo = spvValidatorOptionsCreate();
  if (!vo) {
    spvContextDestroy(ctx);
    snprintf(msg, msg_size, "could not create SPIRV-Tools validator options");
    return -1;
  }
  spv_const_binary_t bin = {words, n_words};
  spv_diagnostic diag = NULL;
  spv_result_t r = spvValidateWithOptions(ctx, vo, &bin, &diag);
  int ret = 0;
  if (r != SPV_SUCCESS) {
    ret = 1;
    one_line(msg, msg_size, diag && diag->error ? diag->error : "validation failed");
  }
  spvDiagnosticDestroy(diag);
  spvValidatorOptionsDestroy(vo);
  spvContextDestroy(ctx);
  return ret;
}

uint32_t *ld_tools_assemble(const char *text, size_t len, size_t *out_n_words,
                            char *msg, size_t msg_size) {
  *out_n_words = 0;
  spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  if (!ctx) { snprintf(msg, msg_size, "could not create a SPIRV-Tools context"); return NULL; }
  spv_binary bin = NULL;
  spv_diagnostic diag = NULL;
  spv_result_t r = spvTextToBinary(ctx, text, len, &bin, &diag);
  uint32_t *out = NULL;
  if (r != SPV_SUCCESS || !bin) {
    char line[400];
    one_line(line, sizeof line, diag && diag->error ? diag->error : "assembly failed");
    if (diag)
      snprintf(msg, msg_size, "%zu:%zu: %s", diag->position.line + 1, diag->position.column + 1, line);
    else
      snprintf(msg, msg_size, "%s", line);
  } else {
    out = malloc(bin->wordCount * sizeof *out + 1);
    if (!out) snprintf(msg, msg_size, "out of memory");
    else {
      memcpy(out, bin->code, bin->wordCount * sizeof *out);
      *out_n_words = bin->wordCount;
    }
  }
  spvBinaryDestroy(bin);
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return out;
}

char *ld_tools_disassemble(const uint32_t *words, size_t n_words) {
  spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  if (!ctx) return NULL;
  spv_text text = NULL;
  spv_diagnostic diag = NULL;
  char *out = NULL;
  if (spvBinaryToText(ctx, words, n_words,
                      SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT,
                      &text, &diag) == SPV_SUCCESS && text) {
    out = malloc(text->length + 1);
    if (out) {
      memcpy(out, text->str, text->length);
      out[text->length] = 0;
    }
  }
  spvTextDestroy(text);
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return out;
}
