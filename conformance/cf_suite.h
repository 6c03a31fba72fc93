/* cf_suite.h - the three modes of spirv-sgconform. */
#ifndef CF_SUITE_H
#define CF_SUITE_H

#include "cf.h"

typedef struct cf_suite_opts {
  const char *argv0;
  bool full;               /* the full matrix (else the reduced one) */
  const char *op, *type, *size, *backend;   /* comma-separated filters, NULL = all */
  const char *case_name;   /* run exactly this case */
  uint32_t shard_k, shard_n;   /* 1-based shard K of N */
  bool jit;                /* also run on the JIT backend */
  bool json_out;
  bool progress;
  uint32_t max_failures;   /* detailed failure reports printed */
  const char *work_dir;    /* generated kernels */
  const char *plant_wrong; /* self-test: corrupt this op's expectation */
  uint32_t break_op;       /* self-test: ip_launch_desc.break_op */
  bool count_only;         /* --count: print the number of selected cases */
  uint32_t jobs;           /* -j N: worker processes (0, 1 = in this process) */
  int jit_opt;             /* --jit-opt N: the JIT's compile level 0..3, -1 = its default */
} cf_suite_opts;

int cf_suite_run(const cf_suite_opts *o);

typedef struct cf_check_opts {
  const char *file;
  const char *runfile;     /* run description (.sim), may be NULL */
  const char *sizes;       /* comma list of subgroup sizes for the dynamic checks */
  bool required_size;      /* the user marks the size as required: no portability report */
  bool json_out;
  const char *device_dir;  /* compare mode */
  uint32_t device_sg;
  uint32_t max_lanes;
  uint32_t checks;         /* check: SG_CHECK_* detectors on the interpreter runs */
} cf_check_opts;

int cf_check_run(const cf_check_opts *o);
int cf_compare_run(const cf_check_opts *o);

#endif
