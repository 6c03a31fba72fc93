/* dbg_session.h - the debugger engine's session (internal to src/; the
 * public face is the sg_dbg_* API of spirv_sg.h).  Every engine function
 * takes the session (struct sg_dbg, named S by convention) first; the
 * engine writes through the session's output sink (dbg_printf), never to
 * stdout.  The engine lives in libspirv-sg, split by concern:
 *
 *   dbg_session.c  the session object, output sink, instruction index, names, source
 *   dbg_break.c    breakpoints: locations, conditions, when one stops
 *   dbg_watch.c    watchpoints: setting one, and how one fires
 *   dbg_run.c      one step, scheduling, fast-forward, dbg_check_stop
 *   dbg_replay.c   the replay log and reverse-step/next/continue
 *   dbg_ckpt.c     checkpoints: frozen copies of the process to replay from
 *   dbg_expr.c     expressions (dbg.h)
 *   dbg_format.c   value formatting (dbg.h)
 *   dbg_cmd.c      options, commands, the launch, the command loop, and
 *                  the public sg_dbg_* functions
 * and two thin front-ends over it, in the spirv-sgdb executable:
 *   sgdb.c         the terminal: options, the script and the prompt
 *   sgdb_dap.c     the Debug Adapter Protocol server (--dap)
 */
#ifndef DBG_SESSION_H
#define DBG_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "spirv_sg.h"
#include "sg_internal.h"
#include "dbg.h"
#include "ld.h"

/* ------------------------------------------------------------ session state */

enum { BP_LINE, BP_ID, BP_LABEL, BP_OP, BP_FUNC, BP_DIVERGE, BP_CONVERGE };

typedef struct bp {
  int num;
  int kind;
  char *file;               /* BP_LINE: NULL = any file */
  uint32_t line, id, opcode;
  const ld_function *fn;
  char *spec;
  uint64_t hits;
  char *cond;               /* 'if EXPR': stops only for lanes where it holds */
  uint64_t ignore;          /* 'ignore N COUNT': hits still to pass over */
  bool temp;                /* tbreak: deleted when it stops */
  bool has_wg;              /* '... workgroup X Y Z' */
  uint32_t wg[3];
  int64_t lane;             /* '... lane L', -1 any */
} bp;

/* A watchpoint: `size` bytes at `addr` as lane `lane` of subgroup `sg` of
 * work-group `lin` sees them (private memory is per lane; global and local
 * memory read the same from any lane of the work-group). */
enum { WP_WRITE, WP_READ, WP_ACCESS };
/* The most bytes one watchpoint watches (a small array or struct). */
#define WATCH_MAX_BYTES 4096u
typedef struct watch {
  int num, kind;
  char *expr;
  uint64_t addr;
  uint32_t size;
  const ld_type *t;         /* the watched object's type (formatting); with
                               count > 1 the type of each of count elements
                               ('watch EXPR@N') */
  uint32_t count;
  bool is_private, is_local;
  uint64_t lin;
  uint32_t sg, lane;
  uint8_t *old, *was;       /* size bytes each: the value now, before the hit */
  bool primed;              /* replay: old holds the value at this point */
  uint64_t hits;
} watch;

/* The replay log: everything that changed the launch's state since it
 * started, run-length encoded.  Replaying a prefix on a fresh launch gives
 * back any earlier point exactly (the interpreter is deterministic): that
 * is how reverse-step, reverse-next and reverse-continue go backwards. */
enum { RL_BEGIN, RL_STEP, RL_END, RL_RUNWG, RL_RANGE };
typedef struct rlog {
  uint8_t kind;
  uint32_t sg;
  uint64_t lin;
  uint64_t count;           /* RL_STEP: steps of subgroup sg of work-group lin;
                               RL_RANGE: work-groups lin.. run at full speed */
} rlog;

typedef struct sgstate {
  const ld_insn *prev;      /* last instruction it executed */
} sgstate;

typedef struct wgslot {
  uint64_t linear;
  uint32_t group[3];
  sg_wg *wg;
  sgstate *st;
  uint32_t n_sgs;
} wgslot;

typedef struct srcfile { char *path; char *text; char **lines; uint32_t n_lines; } srcfile;


/* What a replay pass collects (dbg_replay.c): the positions of one subgroup
 * (reverse-next) or the last point where a breakpoint or watchpoint would
 * stop (reverse-continue). */
typedef struct rpoint { uint64_t t; uint32_t line, depth; const ld_insn *in; } rpoint;
typedef struct rpass {
  bool track;
  uint64_t lin;
  uint32_t sg;
  rpoint *pts;
  uint64_t n, cap;
  bool saw_begin;           /* track: work-group lin began during the pass */
  bool want_stops;
  uint64_t last_stop;       /* UINT64_MAX: none */
  uint64_t last_stop_lin;
  uint32_t last_stop_sg;
} rpass;

/* reverse-next's search for the start of the line before (dbg_line_target). */
typedef struct dbg_line_search { uint32_t phase, line0, depth0, line1, depth1; } dbg_line_search;

/* The options a session is created with (spirv-sgdb's command line less
 * the front-end's own -x, --batch and --dap). */
typedef struct dbg_opts {
  const char *file;
  bool no_debug_info, batch;
  sg_run_opts run;          /* the options spirv-sgrun shares (runopts.c) */
} dbg_opts;

typedef struct sg_dbg dbg_session;
struct sg_dbg {
  sg_write_fn out;          /* where everything the engine says goes */
  void *out_user;
  sg_message_fn message;    /* loader warnings */
  void *message_user;
  dbg_opts opts;
  char first_error[1024];
  volatile sig_atomic_t interrupted;   /* sg_dbg_interrupt (Ctrl-C) */
  rpass rp;
  struct {                  /* the diagnostic the last step raised */
    uint64_t seq;           /* diagnostics seen */
    uint64_t before;        /* seq when the last step began */
    char text[1024];
    uint64_t lanes[2];      /* the lanes it names */
  } last_diag;
  char *loop_line;          /* the command loop's line buffer */
  size_t loop_cap;
  sg_module *m;
  const ld_module *ir;
  const sg_kernel_info *k;
  sg_runfile *rf;
  sg_run_desc d;
  sg_arg *args;
  uint8_t **owned;
  uint8_t **pristine;       /* copies of the buffers for 'restart' */
  sg_launch *l;
  size_t groups[3];
  uint64_t n_groups;
  uint32_t sg_size;
  uint8_t *wg_status;       /* 0 not begun, 1 active, 2 finished */
  wgslot *slots;
  uint32_t n_slots;
  int cur;                  /* index into slots, -1 none */
  uint32_t cur_sg;
  bool finished;
  uint64_t n_faults;
  int exit_status;              /* sg_dbg_set_exit_status: the first process's, with checkpoints */
  sg_write_fn kout;              /* the kernel's printf (NULL: out) */
  void *kout_user;
  bp *bps;
  uint32_t n_bps;
  int next_bp;
  const ld_insn **by_word;  /* every instruction, sorted by word offset */
  uint32_t n_insns;
  srcfile *src;
  uint32_t n_src;
  const ld_insn *list_at;   /* where 'list' continues */
  uint32_t list_line;
  bool quit;
  int64_t focus_lane;       /* 'lane L': -1 none */
  watch *wps;
  uint32_t n_wps;
  char **displays;          /* 'display EXPR' */
  uint32_t n_displays;
  /* the last step's events (dbg_step_one) */
  int watch_hit;            /* index into wps, -1 none */
  uint64_t watch_lanes[2];  /* lanes whose access it was */
  const ld_insn *watch_insn;
  bool ev_diverge, ev_converge;
  uint64_t ev_before[2], ev_after[2];
  /* replay */
  rlog *log;
  uint64_t n_log, cap_log;
  uint64_t t;               /* steps since the launch began: the current point */
  bool replaying;           /* replay: no output, no logging, no checks */
  bool replay_events;       /* ... but divergence events (reverse-continue) */
  bool json;                /* the current command asked for --json */
  /* 'workgroup X' with a watchpoint on global memory: cmd_continue runs
   * the earlier work-groups in the interpreter and stops when X begins */
  bool until_on;
  uint64_t until_lin;
  char launch_error[1024];   /* why dbg_start_launch failed */
  char namebuf[8][128];     /* dbg_id_namer's answers, the last 8 kept */
  unsigned namebuf_i;
};

/* Result of stepping: what happened and to which subgroup. */
typedef enum { ST_OK, ST_FAULT, ST_SG_DONE, ST_WG_DONE, ST_BLOCKED, ST_STOPPED, ST_NONE } st_kind;


/* ---- dbg_session.c: the session, lookups, names, source lines */

/* What the engine says goes to the session's sink (printf-style). */
void dbg_printf(dbg_session *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dbg_puts(dbg_session *S, const char *s);
void dbg_putc(dbg_session *S, int c);
void dbg_index_insns(dbg_session *S);
const ld_insn *dbg_insn_at_word(dbg_session *S, uint32_t word);
wgslot *dbg_cur_slot(dbg_session *S);
sg_sg *dbg_cur_sg(dbg_session *S);
const ld_insn *dbg_sg_insn(dbg_session *S, const sg_sg *sg);
const ld_insn *dbg_frame_insn(dbg_session *S, const sg_sg *sg, uint32_t depth);
const char *dbg_id_namer(void *user, uint32_t id);
void dbg_format_insn(dbg_session *S, const ld_insn *in, char *buf, size_t n);
const char *dbg_loc_str(const ld_insn *in, char *buf, size_t n);
bool dbg_lane_active(const uint64_t m[2], uint32_t l);
srcfile *dbg_source_for(dbg_session *S, const char *path);
const char *dbg_source_line(dbg_session *S, const ld_insn *in);
void dbg_make_ctx(dbg_session *S, dbg_ctx *c, const wgslot *w, const sg_sg *sg, uint32_t lane);

/* ------------------------------------ dbg_break.c: breakpoints */

const ld_function *dbg_find_function(dbg_session *S, const char *name);
bool dbg_bp_match(const bp *b, const ld_insn *in, const ld_insn *prev);
void dbg_cond_lanes(dbg_session *S, const bp *b, const wgslot *w, const sg_sg *sg, const uint64_t cand[2], uint64_t out[2], char *err, size_t n);
bool dbg_bp_stops(dbg_session *S, bp *b, const wgslot *w, uint32_t i, const ld_insn *in, uint64_t lanes[2], char *err, size_t n);
int dbg_add_bp(dbg_session *S, const char *spec);
bp *dbg_find_bp(dbg_session *S, const char *num);
void dbg_delete_bp_index(dbg_session *S, uint32_t i);
bool dbg_check_expr(dbg_session *S, const char *expr);

/* ------------------------------------ dbg_watch.c: watchpoints */

bool dbg_watch_sees(const watch *wp, const wgslot *w, uint32_t i);
void dbg_watch_before(dbg_session *S, const wgslot *w, uint32_t i, const sg_sg *sg, const ld_insn *in, const uint64_t mb[2]);
void dbg_watch_after(dbg_session *S, const wgslot *w, uint32_t i, const sg_sg *sg, const ld_insn *in, const uint64_t mb[2]);
void dbg_cmd_watch(dbg_session *S, int argc, char **argv, int kind);
void dbg_watch_format(const watch *wp, const uint8_t *bytes, const sg_sg *sg, char *buf, size_t n);
void dbg_watch_free(watch *wp);
bool dbg_watch_changed(const watch *wp, char *buf, size_t n);
const watch *dbg_watch_global(dbg_session *S);

/* --------- dbg_run.c: running, scheduling, fast-forward, stops */

bool dbg_run_range_fast(dbg_session *S, uint64_t first, uint64_t count, bool *native);
void dbg_end_slot(dbg_session *S, int idx);
int dbg_begin_group(dbg_session *S, uint64_t lin);
bool dbg_run_group_fast(dbg_session *S, uint64_t lin);
bool dbg_ensure_current(dbg_session *S);
void dbg_kernel_finished(dbg_session *S);
void dbg_on_diag(void *user, const sg_diag *d);
st_kind dbg_step_one(dbg_session *S, uint32_t i);
bool dbg_at_barrier(const wgslot *w, uint32_t i);
bool dbg_check_stop(dbg_session *S, uint32_t i);
void dbg_cmd_continue(dbg_session *S);
bool dbg_step_current(dbg_session *S, bool quiet);

/* ------------ dbg_replay.c: the replay log and going backwards */

void dbg_log_add(dbg_session *S, uint8_t kind, uint64_t lin, uint32_t sg);
bool dbg_replay_to(dbg_session *S, uint64_t target);
void dbg_cmd_reverse_step(dbg_session *S, int argc, char **argv, bool by_line);
void dbg_cmd_reverse_continue(dbg_session *S);
void dbg_replay_free(dbg_session *S);
bool dbg_replay_log_from(dbg_session *S, rlog *log, uint64_t n_log, uint64_t e0, uint64_t off0, uint64_t target);
void dbg_replay_show(dbg_session *S, uint64_t lin, uint32_t sg, const char *msg, double t0);
bool dbg_replay_scan(dbg_session *S, rlog *log, uint64_t n_log, uint64_t e0, uint64_t off0, uint64_t end, uint64_t *stop,
                 uint64_t *lin, uint32_t *sg);
void dbg_reverse_continue_scan(dbg_session *S, uint64_t end, double t0);
void dbg_ckpt_scan_back(dbg_session *S, uint64_t end, double t0);
uint64_t dbg_ckpt_line_back(dbg_session *S, uint64_t now, uint64_t lin, uint32_t sg, dbg_line_search *ls,
                            double t0);
void dbg_ckpt_line_back_before(dbg_session *S, uint64_t before, uint64_t now, uint64_t lin, uint32_t sg,
                               const dbg_line_search *ls, double t0);
bool dbg_line_target(dbg_session *S, dbg_line_search *ls, bool complete, uint64_t *target);
void dbg_track_begin(dbg_session *S, uint64_t lin, uint32_t sg);
void dbg_reverse_next_from_start(dbg_session *S, uint64_t upto, uint64_t lin, uint32_t sg,
                                 const dbg_line_search *ls, double t0);
void dbg_reverse_to(dbg_session *S, uint64_t target, uint64_t lin, uint32_t sg, double t0);

/* -------------------------------------------- dbg_ckpt.c: checkpoints (fork) */

#include <setjmp.h>
/* the command loop: where a resumed checkpoint goes on (NULL: outside it) */
void dbg_ckpt_set_loop(jmp_buf *jb);
bool dbg_ckpt_enable(dbg_session *S);
bool dbg_ckpt_enabled(void);
uint32_t dbg_ckpt_count(void);
void dbg_ckpt_maybe(dbg_session *S);
void dbg_ckpt_truncate(dbg_session *S, uint64_t t);
void dbg_ckpt_resume(dbg_session *S, uint64_t target, uint64_t lin, uint32_t sg, const char *msg, double t0);
void dbg_ckpt_shutdown(int code);

/* ---------------- dbg_cmd.c: commands, the launch */

void dbg_show_stop(dbg_session *S, const char *why);
bool dbg_need_sg(dbg_session *S);
void dbg_join_args(int from, int to, char **argv, char *buf, size_t n);
bool dbg_split_lane_sel(dbg_session *S, int *argc, char **argv, uint32_t nl, int64_t *lane);
sg_result dbg_start_launch(dbg_session *S);
void dbg_stop_launch(dbg_session *S);

#endif
