/* fuzz_load.c - libFuzzer target for ld_module_load_bytes (clang only):
 *   clang -g -fsanitize=fuzzer,address,undefined -Iloader -Ispirv tests/fuzz_load.c \
 *     <libsgloader.a> <libsgspirv.a> $(pkg-config --libs SPIRV-Tools) -lstdc++ -lm
 * Seed it with the .spv files of the golden tests.  Validation is off so the
 * loader's own checks are what is exercised; every input must load or fail
 * with exactly one error message, never crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "ld.h"

static int n_errors;

static void on_msg(void *user, ld_severity sev, const char *text) {
  (void)user;
  (void)text;
  if (sev == LD_ERROR) n_errors++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ld_options o = {0};
  o.validate = LD_VALIDATE_OFF;
  o.message = on_msg;
  n_errors = 0;
  ld_module *m = NULL;
  ld_result r = ld_module_load_bytes(data, size, &o, &m);
  if ((r == LD_OK) != (m != NULL) || (r != LD_OK && n_errors != 1)) abort();
  ld_module_free(m);
  return 0;
}
