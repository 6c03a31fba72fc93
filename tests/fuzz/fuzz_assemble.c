/* fuzz_assemble.c - text -> ld_assemble (SPIRV-Tools' assembler), and when
 * that succeeds, the words -> ld_module_load without validation (the path of
 * `spirv-sgrun --no-validate k.spvasm`).  Same contract checks as fuzz_load. */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "ld.h"

static int n_errors;

static void on_msg(void *user, ld_severity sev, const char *text)
{
  (void)user;
  if (!text || !text[0] || strchr(text, '\n'))
    abort();
  if (sev == LD_ERROR)
    n_errors++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  size_t n_words = 0;
  n_errors = 0;
  uint32_t *words = ld_assemble((const char *)data, size, &n_words, on_msg, NULL);
  if (!words) {
    if (n_errors != 1)
      abort();
    return 0;
  }
  ld_options o;
  memset(&o, 0, sizeof o);
  o.validate = LD_VALIDATE_OFF;
  o.message = on_msg;
  n_errors = 0;
  ld_module *m = NULL;
  ld_result r = ld_module_load(words, n_words, &o, &m);
  if ((r == LD_OK) != (m != NULL) || (r != LD_OK && n_errors != 1))
    abort();
  ld_module_free(m);
  free(words);
  return 0;
}
