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
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
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
"  -x FILE                  run the commands in FILE first; a failed\n"
"                           command's error line starts FILE:LINE:\n"
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
"  --max-private-memory BYTES  private memory of a work-group (default 4 GiB)\n"
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
"  -h, --help  --version\n"
"\n"
"Exit status: 2 when the session cannot start (bad usage or input), 3 when\n"
"the kernel uses what spirv-sg does not run.  With --batch, at the end: 2 when\n"
"a command of the script failed, else 1 when the kernel raised a diagnostic\n"
"(a fault, undefined behaviour, a step or time limit) and the session stopped\n"
"on it, else 0.  Without --batch, 0 once the session ends.\n",
      f);
}

static sg_dbg *session;   /* for the SIGINT handler and the output filter */

/* ------------------------------------------------------------ -x scripts
 *
 * A command's error in a -x script names the script and its line
 * ("run.x:3: error: ..."), as a compiler's would.  The engine's commands
 * print "error: ..." at the start of a line of their output, so the
 * session's output sink puts SCRIPT:LINE in front of such a line while a
 * script runs and counts it; the kernel's printf output has a sink of its
 * own, unfiltered.  The line comes from the script's file offset (the
 * engine has just read the command's line), not from a counter: after a
 * checkpoint takes the session over (src/dbg_ckpt.c) the offset, shared by
 * every process, is right and a counter in this process would not be.  For
 * the same reason what --batch's exit status depends on (an error, a
 * diagnostic) is kept on a shared page. */

typedef struct sticky {
  uint64_t n_errors;               /* error lines of script commands */
  unsigned long first_error_line;
  bool diagnosed;                  /* the kernel raised a diagnostic (a stop on it) */
} sticky;
static sticky sticky_local, *sticky_ = &sticky_local;

static struct {
  FILE *script;   /* while it runs */
  const char *name;
  bool at_bol;
} X = {.at_bol = true};

/* The line of the command just read: newlines before the offset, not
 * counting the command's own. */
static unsigned long script_line(void)
{
  off_t end = ftello(X.script);
  FILE *f = fopen(X.name, "rb");
  unsigned long line = 1;
  if (!f || end <= 0) {
    if (f)
      fclose(f);
    return 0;
  }
  for (off_t i = 0; i < end - 1; i++) {
    int ch = getc(f);
    if (ch == EOF)
      break;
    line += ch == '\n';
  }
  fclose(f);
  return line;
}

static void session_out(void *user, const char *buf, size_t size)
{
  (void)user;
  if (session && sg_dbg_diagnostics(session))
    sticky_->diagnosed = true;
  for (size_t i = 0; i < size;) {
    if (X.script && X.at_bol && size - i >= 7 && !memcmp(buf + i, "error: ", 7)) {
      char esc[1024];
      sg_escape(esc, sizeof esc, X.name);
      unsigned long line = script_line();
      printf("%s:%lu: ", esc, line);
      if (!sticky_->n_errors++)
        sticky_->first_error_line = line;
    }
    const char *nl = memchr(buf + i, '\n', size - i);
    size_t n = nl ? (size_t)(nl - (buf + i)) + 1 : size - i;
    fwrite(buf + i, 1, n, stdout);
    X.at_bol = nl != NULL;
    i += n;
  }
}

static void kernel_out(void *user, const char *buf, size_t size)
{
  (void)user;
  fwrite(buf, 1, size, stdout);
}

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
  sg_dbg_config cfg = {.argc = kargc, .argv = kargv, .message = on_message, .batch = batch,
                       .output = session_out, .kernel_output = kernel_out};
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
  sticky *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (sh != MAP_FAILED)
    sticky_ = sh;   /* zeroed; else the process's own copy (no checkpoint shares it) */
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
    X.script = f;
    X.name = script;
    sg_dbg_command_loop(session, f, false, true);
    X.script = NULL;
    fclose(f);
  }
  if (!batch && !sg_dbg_quit_requested(session))
    sg_dbg_command_loop(session, stdin, isatty(0) != 0, isatty(0) == 0);
  /* --batch: 2 when a script command failed (its result cannot be trusted),
   * else 1 when the kernel raised a diagnostic (a fault, undefined behaviour,
   * a step or time limit) and the session stopped on it, else 0 */
  if (sg_dbg_diagnostics(session))
    sticky_->diagnosed = true;
  if (batch)
    rc = sticky_->n_errors ? EXIT_USAGE : sticky_->diagnosed ? EXIT_FAULT : EXIT_OK;
  fflush(stdout);
  if (batch && sticky_->n_errors) {
    char esc[1024];
    sg_escape(esc, sizeof esc, script ? script : "(none)");
    fprintf(stderr, PROG ": error: %" PRIu64 " command%s of the script failed, the first at %s:%lu\n",
            sticky_->n_errors, sticky_->n_errors == 1 ? "" : "s", esc, sticky_->first_error_line);
  }
  sg_dbg_set_exit_status(session, rc);
  sg_dbg_destroy(session);
  session = NULL;
  if (sh != MAP_FAILED)
    munmap(sh, sizeof *sh);
  free(kargv);
  return rc;
}
