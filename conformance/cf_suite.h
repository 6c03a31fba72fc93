/* cf_suite.h - the three modes of spirv-sgconform. */
#ifndef CF_SUITE_H
#define CF_SUITE_H

#include <stdio.h>
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
  const char *results_dir; /* --results DIR: shard result file + JUnit XML written there */
  const char *baseline;    /* --baseline FILE: cases expected to fail */
  const char *flakes;      /* --flakes FILE: known flaky cases (retried more) */
  uint32_t retries;        /* --retries N: reruns of a failed case before it counts (default 1) */
  const char *plant_flaky; /* self-test: corrupt this op's expectation on the first attempt only */
  const char *rerun_args;  /* the selection options as typed (shell-quoted), for rerun lines */
  /* spirv-sgrun's limit flags, same names (docs/limits.md); 0 = the suite's
   * own: a step limit of 2^24 (its kernels are short), no time limit */
  uint64_t max_module_bytes, max_instructions, max_validate_insns, step_limit;
  double time_limit;       /* --timeout, per launch */
  bool no_validate;
  uint64_t max_private_memory;   /* --max-private-memory BYTES */
} cf_suite_opts;

int cf_suite_run(const cf_suite_opts *o);

/* Per-(family, scalar, vector code, size) tallies, as the suite's table. */
typedef struct cf_tally { uint32_t pass, fail; } cf_tally;
typedef cf_tally cf_table[CF_N_FAMILIES][CF_N_SCALARS][8][65];
void cf_print_table(FILE *f, bool reduced, const cf_table *t);

/* "spirv-sgconform merge DIR": combines the shard result files of DIR
 * (cf_results.c).  0 all shards present and passed, 1 shards missing or
 * failed, 2 refused (unreadable, truncated or mixed result files). */
int cf_merge_run(const char *argv0, const char *dir, bool quiet);

/* 64-bit FNV-1a, the hash of result files and of the code under test. */
uint64_t cf_fnv64(uint64_t h, const void *p, size_t n);
#define CF_FNV_INIT 0xcbf29ce484222325ull
/* Hash of this program's executable: "the code under test" of a result file. */
uint64_t cf_code_id(void);

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
  /* spirv-sgrun's limit flags, same names (docs/limits.md); 0 = defaults */
  uint64_t max_module_bytes, max_instructions, max_validate_insns, step_limit;
  double time_limit;       /* --timeout, per launch; else the run file's #sg: timeout= */
  bool no_validate;
  uint64_t max_private_memory;   /* --max-private-memory BYTES */
} cf_check_opts;

/* "spirv-sgconform: " + the message, escaped (sg_escape: it may quote
 * input), + newline on stderr. */
void cf_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int cf_check_run(const cf_check_opts *o);
int cf_compare_run(const cf_check_opts *o);

#endif
