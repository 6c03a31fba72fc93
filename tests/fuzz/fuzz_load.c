/* fuzz_load.c - bytes -> ld_module_load_bytes.
 *
 * The validation mode comes from the input's hash (1 in 4 strict, 1 in 4 off,
 * else warn; warn and off build the same IR), so every mode is exercised.
 * Checks the contract of ld.h beyond "no crash": a result of LD_OK comes with
 * a module and no error; a failure with no module and exactly one error; every
 * message is one non-empty line. */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "ld.h"

static int n_errors;

static void on_msg(void *user, ld_severity sev, const char *text)
{
  (void)user;
  if (!text || !text[0] || strchr(text, '\n'))
    abort();   /* messages are one line */
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
  static const ld_validate_mode modes[4] = {LD_VALIDATE_STRICT, LD_VALIDATE_OFF,
                                            LD_VALIDATE_WARN, LD_VALIDATE_WARN};
  ld_options o;
  memset(&o, 0, sizeof o);
  o.validate = modes[fuzz_hash(data, size) & 3];
  o.message = on_msg;
  o.source_name = "fuzz.spv";
  n_errors = 0;
  ld_module *m = NULL;
  ld_result r = ld_module_load_bytes(data, size, &o, &m);
  if ((r == LD_OK) != (m != NULL) || (r != LD_OK && n_errors != 1) || (r == LD_OK && n_errors))
    abort();
  if (m) {
    /* Touch what tools read right after loading. */
    for (uint32_t i = 0; i < m->n_kernels; i++)
      if (ld_find_kernel(m, m->kernels[i].name) == NULL)
        abort();
    for (uint32_t i = 1; i < m->bound; i++)
      (void)ld_id_name(m, i);
  }
  ld_module_free(m);
  return 0;
}
