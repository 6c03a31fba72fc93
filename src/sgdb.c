/* sgdb.c - spirv-sgdb's terminal front-end.
 *
 * The debugger itself is the engine in libspirv-sg (the sg_dbg_* API of
 * spirv_sg.h; its files are mapped at the top of dbg_session.h).  This
 * file only reads the command line, hands the kernel options to
 * sg_dbg_create, and feeds the engine the -x script and then stdin
 * (prompt '(sgdb) ' on a terminal), with checkpoints on so that going
 * backwards is cheap.  --dap hands over to the DAP front-end (sgdb_dap.c),
 * a second thin layer over the same engine.  See docs/sgdb.md.
 */
#include "spirv_sg.h"
#include "sg_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "spirv-sgdb"

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_USAGE = 2, EXIT_UNSUPPORTED = 3, EXIT_TOOL = 4 };

int sgdb_dap_main(void);

static int die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int die(int code, const char *fmt, ...)
{
  /* the message quotes user input: escaped (sg_escape), as spirv-sgrun's */
  char raw[2048], msg[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  sg_escape(msg, sizeof msg, raw);
  fprintf(stderr, PROG ": error: %s\n", msg);
  return code;
}

/* Loader warnings go to stderr, as spirv-sgrun's. */
static void on_message(void *user, sg_severity sev, const char *text)
{
  (void)user;
  char msg[4096];
  sg_escape(msg, sizeof msg, text);
  fprintf(stderr, sev == SG_SEV_WARNING ? PROG ": warning: %s\n" : "%s\n", msg);
}

static void usage(FILE *f)
{
  fputs(
"usage: " PROG " [options] FILE\n"
"\n"
"Debugs one OpenCL kernel on the reference interpreter, one subgroup\n"
"instruction at a time.  FILE is a run file (.sim) or a .cl/.spv/.spvasm with\n"
"--global/--local/--arg as for spirv-sgrun.  Commands are read from stdin\n"
"(prompt '(sgdb) '); type 'help' for the list.  See docs/sgdb.md.\n"
"\n"
"  -x FILE                  run the commands in FILE first\n"
"  --batch                  exit after the -x script (do not read stdin)\n"
"  --dap                    speak the Debug Adapter Protocol on stdin/stdout\n"
"                           (for editors; the kernel comes from 'launch':\n"
"                           program and args, see docs/sgdb.md)\n"
"\n"
"Kernel, NDRange and arguments (as spirv-sgrun; see its --help):\n"
"  -k, --kernel NAME        kernel (default: the only one)\n"
"  --global X[,Y[,Z]]       global size (default: the local size, else 1)\n"
"  --local X[,Y[,Z]]        work-group size (default: chosen)\n"
"  --offset X[,Y[,Z]]       global offset (default 0)\n"
"  --subgroup-size N        1..128 (default: the kernel's required size,\n"
"                           else 16; a conflict is an error)\n"
"  --arg [NAME=|INDEX=]SPEC V[,V...] | fill:V:COUNT | range:START:INC:COUNT |\n"
"                           random:COUNT[:LO:HI] | zero:COUNT | file:PATH |\n"
"                           local:BYTES | null  (buffers default to zeros)\n"
"  --seed N                 seed for random: (default 1)\n"
"  --ub=warn|error|ignore   undefined behaviour in subgroup code (default warn)\n"
"  --step-limit N           instructions per subgroup before a fault (default\n"
"                           134217728 = 2^27)\n"
"  --timeout SECONDS        wall time from the kernel's start before a fault\n"
"                           (needs --batch: prompt time would count)\n"
"  --data-races --lockstep --uninitialized --check-all\n"
"                           detectors (as spirv-sgrun): a report stops the run\n"
"\n"
"Loading:\n"
"  --no-validate  --strict-validate  --spec ID=VALUE\n"
"  --max-module-size BYTES  --max-instructions N  --max-validate-instructions N\n"
"                           (docs/limits.md)\n"
"  -O0..-O3 (default -O0 for .cl)  --cl-std=CL1.2|CL2.0|CL3.0  -D NAME[=VALUE]\n"
"  --build-options OPTIONS (oclgrind-kernel's: -cl-std=, -D, -I DIR, -cl-*)\n"
"  --no-debug-info          compile .cl without debug information (no\n"
"                           source lines)\n"
"  -h, --help  --version\n",
      f);
}

static sg_dbg *session;   /* for the SIGINT handler */

static void on_sigint(int s)
{
  (void)s;
  if (session)
    sg_dbg_interrupt(session);
}

int main(int argc, char **argv)
{
  /* the front-end's own options; everything else is the engine's */
  const char *script = NULL;
  bool batch = false, dap = false;
  char **kargv = calloc((size_t)argc + 1, sizeof *kargv);
  int kargc = 0;
  if (!kargv)
    return die(EXIT_USAGE, "out of memory");
  kargv[kargc++] = argv[0];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      free(kargv);
      return EXIT_OK;
    } else if (!strcmp(a, "--version")) {
      printf(PROG " " SG_VERSION_STRING "\n");
      free(kargv);
      return EXIT_OK;
    } else if (!strcmp(a, "-x") || !strncmp(a, "-x=", 3)) {
      if (a[2] == '=')
        script = a + 3;
      else if (i + 1 < argc)
        script = argv[++i];
      else {
        free(kargv);
        return die(EXIT_USAGE, "option -x needs a value (see --help)");
      }
    } else if (!strcmp(a, "--batch")) {
      batch = true;
    } else if (!strcmp(a, "--dap")) {
      dap = true;
    } else {
      /* a kernel option's value goes on with it, never read as ours: the
       * shared parser says how many arguments it takes (the engine parses
       * them again and reports any error) */
      int start = i;
      sg_run_opts scratch;
      char e[512];
      sg_run_opts_init(&scratch, 0);
      if (sg_run_opts_parse(&scratch, argc, argv, &i, e, sizeof e) <= 0)
        i = start;
      sg_run_opts_free(&scratch);
      for (int k = start; k <= i; k++)
        kargv[kargc++] = argv[k];
    }
  }
  if (dap) {
    free(kargv);
    return sgdb_dap_main();
  }
  sg_dbg_config cfg = {.argc = kargc, .argv = kargv, .message = on_message, .batch = batch};
  char err[4096];
  sg_result r = sg_dbg_create(&cfg, &session, err, sizeof err);
  if (r != SG_SUCCESS) {
    fprintf(stderr, PROG ": error: %s\n", err);
    free(kargv);
    return r == SG_ERROR_UNSUPPORTED ? EXIT_UNSUPPORTED : r == SG_ERROR_TOOL_MISSING ? EXIT_TOOL : EXIT_USAGE;
  }
  signal(SIGINT, on_sigint);
  setvbuf(stdout, NULL, _IOLBF, 0);
  char banner[512];
  sg_dbg_describe(session, banner, sizeof banner);
  printf(PROG ": %s Type 'help' for commands.\n", banner);
  fflush(stdout);
  sg_dbg_enable_checkpoints(session);
  int rc = EXIT_OK;
  if (script) {
    FILE *f = fopen(script, "r");
    if (!f) {
      rc = die(EXIT_USAGE, "cannot read script '%s': %s", script, strerror(errno));
      sg_dbg_destroy(session);
      free(kargv);
      return rc;
    }
    sg_dbg_command_loop(session, f, false, true);
    fclose(f);
  }
  if (!batch && !sg_dbg_quit_requested(session))
    sg_dbg_command_loop(session, stdin, isatty(0) != 0, isatty(0) == 0);
  sg_dbg_destroy(session);
  session = NULL;
  free(kargv);
  return rc;
}
