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
