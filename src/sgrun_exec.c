/* sgrun_exec.c - `spirv-sgrun [CHOICES] --exec PROGRAM ARGS...`: runs an
 * unmodified OpenCL host program with spirv-sg's ICD as the only platform
 * it sees (as `oclgrind ./app`).  The ocl-icd loader reads OCL_ICD_VENDORS
 * (a vendor folder, an .icd file, or the library itself); the Khronos loader
 * reads OCL_ICD_FILENAMES: both name our library alone.  The choices become
 * the SPIRV_SG_* variables the ICD reads (docs/icd.md). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "sgrun_exec.h"

#ifndef SG_ICD_INSTALLED
#define SG_ICD_INSTALLED "/usr/local/lib/libSpirvSgOpenCL.so"
#endif

/* The ICD next to this executable: the build tree (build/src -> build/icd),
 * then the installed layout (bin -> lib[/multiarch]), then the configured
 * install path. */
static bool find_icd(char *out, size_t n)
{
  const char *e = getenv("SPIRV_SG_ICD");
  if (e && *e) {
    snprintf(out, n, "%s", e);
    return access(out, R_OK) == 0;
  }
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
      *slash = 0;
    static const char *const rel[] = {
      "../icd/libSpirvSgOpenCL.so", "../lib/x86_64-linux-gnu/libSpirvSgOpenCL.so",
      "../lib/libSpirvSgOpenCL.so", "../lib64/libSpirvSgOpenCL.so",
    };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
      char p[PATH_MAX + 64];
      snprintf(p, sizeof p, "%s/%s", exe, rel[i]);
      if (access(p, R_OK) == 0 && realpath(p, out))
        return true;
    }
  }
  snprintf(out, n, "%s", SG_ICD_INSTALLED);
  return access(out, R_OK) == 0;
}

int sgrun_exec_index(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--exec"))
      return i;
  return 0;
}

int sgrun_exec(int argc, char **argv, int at)
{
  static const struct { const char *opt, *var; bool flag; } map[] = {
    {"--backend", "SPIRV_SG_BACKEND", false}, {"--subgroup-size", "SPIRV_SG_SUBGROUP_SIZE", false},
    {"-j", "SPIRV_SG_THREADS", false}, {"--ub", "SPIRV_SG_UB", false},
    {"--stop-on-fault", "SPIRV_SG_STOP_ON_FAULT", true},
  };
  for (int i = 1; i < at; i++) {
    size_t k = 0;
    for (; k < sizeof map / sizeof map[0]; k++)
      if (!strcmp(argv[i], map[k].opt))
        break;
    if (k == sizeof map / sizeof map[0]) {
      fprintf(stderr, "spirv-sgrun: error: '%s' cannot be used with --exec (only --backend, "
                      "--subgroup-size, -j, --ub, --stop-on-fault)\n", argv[i]);
      return 2;
    }
    if (map[k].flag) {
      setenv(map[k].var, "1", 1);
    } else {
      if (i + 1 >= at) {
        fprintf(stderr, "spirv-sgrun: error: %s needs a value\n", argv[i]);
        return 2;
      }
      setenv(map[k].var, argv[++i], 1);
    }
  }
  if (at + 1 >= argc) {
    fprintf(stderr, "spirv-sgrun: error: --exec needs a program to run\n");
    return 2;
  }
  char icd[PATH_MAX];
  if (!find_icd(icd, sizeof icd)) {
    fprintf(stderr, "spirv-sgrun: error: cannot find the spirv-sg OpenCL ICD (libSpirvSgOpenCL.so); "
                    "set SPIRV_SG_ICD to its path\n");
    return 2;
  }
  setenv("OCL_ICD_VENDORS", icd, 1);
  setenv("OCL_ICD_FILENAMES", icd, 1);
  execvp(argv[at + 1], argv + at + 1);
  fprintf(stderr, "spirv-sgrun: error: cannot run '%s': %s\n", argv[at + 1], strerror(errno));
  return 127;
}

/* ------------------------------------------------- --link FILE (several modules) */

uint32_t sgrun_take_links(int *argc, char **argv, const char ***out_links)
{
  *out_links = NULL;
  uint32_t n = 0;
  int k = 1;
  for (int i = 1; i < *argc; i++) {
    if (!strcmp(argv[i], "--link") && i + 1 < *argc) {
      const char **l = realloc(*out_links, (n + 1) * sizeof *l);
      if (!l)
        break;
      *out_links = l;
      l[n++] = argv[++i];
      continue;
    }
    argv[k++] = argv[i];
  }
  argv[k] = NULL;
  *argc = k;
  return n;
}

static bool ends_with(const char *s, const char *e)
{
  size_t n = strlen(s), m = strlen(e);
  return n > m && !strcasecmp(s + n - m, e);
}

/* One module's SPIR-V: .cl compiled, else the file's bytes. */
static sg_result module_bytes(const char *path, const sg_load_options *lo, void **out, size_t *n)
{
  if (ends_with(path, ".cl"))
    return sg_compile_cl(path, lo, out, n);
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (lo->message) {
      char buf[4400];
      snprintf(buf, sizeof buf, "%s: %s", path, strerror(errno));
      lo->message(lo->message_user, SG_SEV_ERROR, buf);
    }
    return SG_ERROR_IO;
  }
  long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  *out = len > 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)len) : NULL;
  if (*out && fread(*out, 1, (size_t)len, f) == (size_t)len) {
    *n = (size_t)len;
    fclose(f);
    return SG_SUCCESS;
  }
  free(*out);
  *out = NULL;
  fclose(f);
  return SG_ERROR_IO;
}

sg_result sgrun_load_linked(const char *main_path, const char *const *links, uint32_t n_links,
                            const sg_load_options *lo, sg_module **out)
{
  uint32_t n = n_links + 1;
  void **mods = calloc(n, sizeof *mods);
  size_t *sizes = calloc(n, sizeof *sizes);
  sg_result r = mods && sizes ? SG_SUCCESS : SG_ERROR_NOMEM;
  for (uint32_t i = 0; i < n && r == SG_SUCCESS; i++)
    r = module_bytes(i ? links[i - 1] : main_path, lo, &mods[i], &sizes[i]);
  void *linked = NULL;
  size_t nl = 0;
  if (r == SG_SUCCESS)
    r = sg_link_spirv((const void *const *)mods, sizes, n, false, lo, &linked, &nl);
  if (r == SG_SUCCESS)
    r = sg_module_load_memory(linked, nl, main_path, lo, out);
  free(linked);
  for (uint32_t i = 0; mods && i < n; i++)
    free(mods[i]);
  free(mods);
  free(sizes);
  return r;
}
