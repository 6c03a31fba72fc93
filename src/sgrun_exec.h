/* sgrun_exec.h - spirv-sgrun --exec (the launcher for unmodified programs). */
#ifndef SGRUN_EXEC_H
#define SGRUN_EXEC_H
#include <stdbool.h>
/* The index of "--exec" in argv, or 0. */
int sgrun_exec_index(int argc, char **argv);
/* Sets the environment from the options before argv[at] and execs the
 * program after it; returns an exit status only when that fails. */
int sgrun_exec(int argc, char **argv, int at);
#endif
