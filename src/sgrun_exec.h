/* sgrun_exec.h - spirv-sgrun --exec (the launcher for unmodified programs). */
#ifndef SGRUN_EXEC_H
#define SGRUN_EXEC_H
#include <stdbool.h>
/* The index of "--exec" in argv, or 0. */
int sgrun_exec_index(int argc, char **argv);
/* Sets the environment from the options before argv[at] and execs the
 * program after it; returns an exit status only when that fails. */
int sgrun_exec(int argc, char **argv, int at);
/* Removes the "--link FILE" pairs from argv (before the other options are
 * parsed); *out_links (malloc'd) gets the files.  Returns their number. */
#include <stdint.h>
#include "spirv_sg.h"
uint32_t sgrun_take_links(int *argc, char **argv, const char ***out_links);
/* Loads main_path linked with the other modules (.cl compiled first, .spv
 * as is) through sg_link_spirv: Import/Export linkage resolved. */
sg_result sgrun_load_linked(const char *main_path, const char *const *links, uint32_t n_links,
                            const sg_load_options *lo, sg_module **out);
#endif
