/* fuzz_argspec.c - the --arg SPEC parser (sg_build_arg, src/runopts.c), as
 * spirv-sgrun and spirv-sgdb call it.
 *
 * Input: byte 0 picks the argument's kind, byte 1 its scalar type, byte 2
 * its vector width (1, 2, 3, 4, 8, 16); the rest, up to a NUL, is the SPEC.
 * Checks beyond "no crash": success gives an argument whose size fits its
 * data (a buffer's bytes are all readable: ASan checks), failure gives one
 * non-empty line in err and nothing owned.  SPECs that read files (file:,
 * image:...file=) are skipped: they test the file system, not the parser;
 * counts, and an image's pixels (the product of its sizes), are capped at
 * 1M so that the fuzzer does not spend its time filling memory. */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "sg_internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  return 0;
}

/* the largest number in the spec (element counts), to skip huge fills */
static bool too_big(const char *s)
{
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9')
      continue;
    /* as the parser reads it: decimal, 0x hex or 0 octal (0x75AAAAAA is
     * big); digits as written: 0002093664119 is big too */
    char *end;
    unsigned long long v = strtoull(p, &end, 0);
    unsigned long long d = strtoull(p, NULL, 10);
    if (v > (1u << 20) || d > (1u << 20))
      return true;
    p = end > p ? end - 1 : p;
    while (p[1] >= '0' && p[1] <= '9')
      p++;
  }
  /* an image's pixels: the product of its sizes (width=884,height=888888
   * asked for 3 GB, which libFuzzer's memory limit reported as an oom) */
  static const char *const dims[] = {"width=", "height=", "depth=", "array="};
  unsigned long long px = 1;
  for (int d = 0; d < 4; d++) {
    const char *q = strstr(s, dims[d]);
    if (!q)
      continue;
    unsigned long long v = strtoull(q + strlen(dims[d]), NULL, 0);
    px *= v ? v : 1;
    if (px > (1u << 20))
      return true;
  }
  return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static const sg_arg_kind kinds[4] = {SG_ARG_BUFFER, SG_ARG_VALUE, SG_ARG_LOCAL, SG_ARG_IMAGE};
  static const uint32_t widths[6] = {1, 2, 3, 4, 8, 16};
  if (size < 3 || size > 4096)
    return 0;
  char *spec = malloc(size - 2);
  if (!spec)
    return 0;
  memcpy(spec, data + 3, size - 3);
  spec[size - 3] = 0;
  if (strstr(spec, "file") || too_big(spec)) {
    free(spec);
    return 0;
  }
  sg_arg_info a;
  memset(&a, 0, sizeof a);
  a.name = "x";
  a.kind = kinds[data[0] & 3];
  a.scalar = (sg_scalar)(data[1] % (SG_S_BOOL + 1));
  a.components = widths[data[2] % 6];
  a.type_name = "fuzz";
  a.size = sg_scalar_size(a.scalar) * (a.kind == SG_ARG_VALUE ? a.components : 1);
  a.image_type = 0x10F1;   /* CL_MEM_OBJECT_IMAGE2D */
  sg_arg out;
  memset(&out, 0, sizeof out);
  uint8_t *owned = NULL;
  char err[512];
  err[0] = 0;
  sg_result r = sg_build_arg(&a, 0, spec[0] || (data[0] & 4) ? spec : NULL, 16, 1, &out, &owned,
                             err, sizeof err);
  if (r == SG_SUCCESS) {
    if ((out.kind == SG_ARG_BUFFER || out.kind == SG_ARG_VALUE) && out.size && !out.data)
      abort();
    volatile uint8_t sum = 0;
    if (out.data)
      for (size_t i = 0; i < out.size; i++)
        sum ^= ((const uint8_t *)out.data)[i];
    (void)sum;
  } else {
    if (!err[0] || strchr(err, '\n') || owned)
      abort();
  }
  free(owned);
  free(spec);
  return 0;
}
