/* cf_check.c - module mode and device-dump mode (not written yet). */
#include <stdio.h>
#include "cf_suite.h"

int cf_check_run(const cf_check_opts *o)
{
  fprintf(stderr, "spirv-sgconform: check %s: module mode is not implemented yet\n", o->file);
  return 3;
}

int cf_compare_run(const cf_check_opts *o)
{
  fprintf(stderr, "spirv-sgconform: compare %s: device-dump mode is not implemented yet\n", o->file);
  return 3;
}
