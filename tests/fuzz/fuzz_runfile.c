/* fuzz_runfile.c - run-file text -> sg_runfile_open + sg_runfile_bind.
 *
 * sg_runfile_open takes a path, so the input is written to in.sim in a
 * private temporary folder.  The arguments are bound against a real module:
 * the modules of corpus/run (FUZZ_MODULE_DIR, or $SG_FUZZ_MODULES) are loaded
 * once; the run file's kernel file picks the module by name ("saxpy-O2.spv"),
 * else the first module with a kernel of that name.
 *
 * Two kinds of input are skipped, because they test the machine rather than
 * the parser: a file= naming a path outside the temporary folder (/dev/zero
 * would be read forever), and headers whose numbers multiply past 4 MiB
 * (size=, width= ...: the parser allocates and fills what is asked; numbers
 * past its 64 GiB limit do not count). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz.h"
#include "spirv_sg.h"

#ifndef FUZZ_MODULE_DIR
#define FUZZ_MODULE_DIR "tests/fuzz/corpus/run"
#endif
#define MAX_MODULES 256

static struct {
  char *name;
  sg_module *m;
} mods[MAX_MODULES];
static unsigned n_mods;
static char tmpdir[64];
static char simpath[96];

static void cleanup(void)
{
  unlink(simpath);
  rmdir(tmpdir);
  for (unsigned i = 0; i < n_mods; i++) {
    sg_module_destroy(mods[i].m);
    free(mods[i].name);
  }
  n_mods = 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  const char *dir = getenv("SG_FUZZ_MODULES");
  if (!dir)
    dir = FUZZ_MODULE_DIR;
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "fuzz_runfile: cannot open the module folder %s\n", dir);
    exit(2);
  }
  struct dirent *e;
  while ((e = readdir(d)) && n_mods < MAX_MODULES) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".spv"))
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    sg_load_options o;
    memset(&o, 0, sizeof o);
    o.validate = SG_VALIDATE_OFF;
    sg_module *m = NULL;
    if (sg_module_load_file(path, &o, &m) != SG_SUCCESS)
      continue;
    mods[n_mods].name = strdup(e->d_name);
    mods[n_mods].m = m;
    n_mods++;
  }
  closedir(d);
  snprintf(tmpdir, sizeof tmpdir, "/tmp/sg-fuzz-runfile-XXXXXX");
  if (!mkdtemp(tmpdir)) {
    fprintf(stderr, "fuzz_runfile: cannot create a temporary folder\n");
    exit(2);
  }
  snprintf(simpath, sizeof simpath, "%s/in.sim", tmpdir);
  atexit(cleanup);
  return 0;
}

/* Inputs the harness does not run (see the top comment). */
static int skip_input(const uint8_t *data, size_t size)
{
  const char *s = (const char *)data;
  for (size_t i = 0; i + 5 <= size; i++)
    if (!memcmp(s + i, "file=", 5)) {
      for (size_t j = i + 5; j < size && s[j] != '>' && s[j] != ' ' && s[j] != '\t' &&
                             s[j] != '\n' && s[j] != '\r' && s[j] != '\v' && s[j] != '\f';
           j++)
        if (s[j] == '/' || s[j] == '#')
          return 1;
    }
  /* Product of the numbers after '=' on each line, leaving out those above
   * the parser's 64 GiB limit (rejected, or overflowing: worth running). */
  double prod = 1;
  for (size_t i = 0; i < size; i++) {
    if (s[i] == '\n') {
      prod = 1;
    } else if (s[i] == '=') {
      double v = 0;
      size_t j = i + 1;
      while (j < size && s[j] >= '0' && s[j] <= '9')
        v = v * 10 + (s[j++] - '0');
      if (v > 1 && v <= 68719476736.0)
        prod *= v;
      if (prod > 4.0 * 1024 * 1024)
        return 1;
    }
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (skip_input(data, size))
    return 0;
  FILE *f = fopen(simpath, "wb");
  if (!f)
    return 0;
  size_t w = fwrite(data, 1, size, f);
  fclose(f);
  if (w != size)
    return 0;
  char err[1024];
  sg_runfile *rf = NULL;
  sg_result r = sg_runfile_open(simpath, &rf, err, sizeof err);
  if ((r == SG_SUCCESS) != (rf != NULL) || (r != SG_SUCCESS && (!err[0] || strchr(err, '\n'))))
    abort();
  if (!rf) {
    if (getenv("SG_FUZZ_VERBOSE"))
      fprintf(stderr, "fuzz_runfile: open: %s\n", err);
    return 0;
  }
  size_t g[3], l[3];
  sg_runfile_ndrange(rf, g, l);
  (void)sg_runfile_subgroup_size(rf);
  const char *kernel = sg_runfile_kernel(rf);
  const char *mp = sg_runfile_module_path(rf);
  const char *base = strrchr(mp, '/');
  base = base ? base + 1 : mp;
  const sg_module *m = NULL;
  for (unsigned i = 0; i < n_mods && !m; i++)
    if (!strcmp(mods[i].name, base) && sg_module_find_kernel(mods[i].m, kernel))
      m = mods[i].m;
  for (unsigned i = 0; i < n_mods && !m; i++)
    if (sg_module_find_kernel(mods[i].m, kernel))
      m = mods[i].m;
  if (!m && n_mods)
    m = mods[0].m;   /* exercises the "no kernel named" message */
  if (m) {
    r = sg_runfile_bind(rf, m, err, sizeof err);
    if (getenv("SG_FUZZ_VERBOSE"))
      fprintf(stderr, "fuzz_runfile: bind: %s\n", r == SG_SUCCESS ? "ok" : err);
    if (r != SG_SUCCESS && (!err[0] || strchr(err, '\n')))
      abort();
    if (r == SG_SUCCESS) {
      uint32_t n_args, n_out;
      const sg_arg *args = sg_runfile_args(rf, &n_args);
      const sg_runfile_output *outs = sg_runfile_outputs(rf, &n_out);
      for (uint32_t i = 0; i < n_out; i++) {
        if (outs[i].arg >= n_args)
          abort();
        const sg_arg *a = &args[outs[i].arg];
        if (outs[i].dump && a->data && outs[i].scalar != SG_S_NONE) {
          char *text = sg_format_dump(outs[i].name, outs[i].scalar, outs[i].hex, a->data,
                                      a->size > 4096 ? 4096 : a->size);
          free(text);
        }
      }
    }
  }
  sg_runfile_destroy(rf);
  return 0;
}
