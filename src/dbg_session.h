/* dbg_session.h - the debugger engine's session, shared by spirv-sgdb's
 * files (not public).  The engine is split by concern:
 *
 *   dbg_session.c  the session state (S), instruction index, names, source
 *   dbg_break.c    breakpoints: locations, conditions, when one stops
 *   dbg_watch.c    watchpoints: setting one, and how one fires
 *   dbg_run.c      one step, scheduling, fast-forward, check_stop
 *   dbg_replay.c   the replay log and reverse-step/next/continue
 *   dbg_ckpt.c     checkpoints: frozen copies of the process to replay from
 *   dbg_expr.c     expressions (dbg.h)
 *   dbg_format.c   value formatting (dbg.h)
 *   sgdb.c         the terminal front-end: options, commands, launch
 *   sgdb_dap.c     the Debug Adapter Protocol front-end
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


typedef struct dbg_session {
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
  /* the last step's events (step_one) */
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
} dbg_session;

extern dbg_session S;

/* Result of stepping: what happened and to which subgroup. */
typedef enum { ST_OK, ST_FAULT, ST_SG_DONE, ST_WG_DONE, ST_BLOCKED, ST_STOPPED, ST_NONE } st_kind;


/* ---- dbg_session.c: the session, lookups, names, source lines */

extern volatile sig_atomic_t interrupted;
void on_sigint(int s);
void index_insns(void);
const ld_insn *insn_at_word(uint32_t word);
wgslot *cur_slot(void);
sg_sg *cur_sg(void);
const ld_insn *sg_insn(const sg_sg *sg);
const ld_insn *frame_insn(const sg_sg *sg, uint32_t depth);
const char *id_namer(void *user, uint32_t id);
void format_insn(const ld_insn *in, char *buf, size_t n);
const char *loc_str(const ld_insn *in, char *buf, size_t n);
bool lane_active(const uint64_t m[2], uint32_t l);
srcfile *source_for(const char *path);
const char *source_line(const ld_insn *in);
void make_ctx(dbg_ctx *c, const wgslot *w, const sg_sg *sg, uint32_t lane);

/* ------------------------------------ dbg_break.c: breakpoints */

const ld_function *find_function(const char *name);
bool bp_match(const bp *b, const ld_insn *in, const ld_insn *prev);
void cond_lanes(const bp *b, const wgslot *w, const sg_sg *sg, const uint64_t cand[2], uint64_t out[2], char *err, size_t n);
bool bp_stops(bp *b, const wgslot *w, uint32_t i, const ld_insn *in, uint64_t lanes[2], char *err, size_t n);
int add_bp(const char *spec);
bp *find_bp(const char *num);
void delete_bp_index(uint32_t i);
bool check_expr(const char *expr);

/* ------------------------------------ dbg_watch.c: watchpoints */

bool watch_sees(const watch *wp, const wgslot *w, uint32_t i);
void watch_before(const wgslot *w, uint32_t i, const sg_sg *sg, const ld_insn *in, const uint64_t mb[2]);
void watch_after(const wgslot *w, uint32_t i, const sg_sg *sg, const ld_insn *in, const uint64_t mb[2]);
void cmd_watch(int argc, char **argv, int kind);
void watch_format(const watch *wp, const uint8_t *bytes, const sg_sg *sg, char *buf, size_t n);
void watch_free(watch *wp);
bool watch_changed(const watch *wp, char *buf, size_t n);
const watch *watch_global(void);

/* --------- dbg_run.c: running, scheduling, fast-forward, stops */

bool run_range_fast(uint64_t first, uint64_t count, bool *native);
void end_slot(int idx);
int begin_group(uint64_t lin);
bool run_group_fast(uint64_t lin);
bool ensure_current(void);
void kernel_finished(void);
void on_diag(void *user, const sg_diag *d);
st_kind step_one(uint32_t i);
bool at_barrier(const wgslot *w, uint32_t i);
bool check_stop(uint32_t i);
void cmd_continue(void);
bool step_current(bool quiet);

/* ------------ dbg_replay.c: the replay log and going backwards */

void log_add(uint8_t kind, uint64_t lin, uint32_t sg);
bool replay_to(uint64_t target);
void cmd_reverse_step(int argc, char **argv, bool by_line);
void cmd_reverse_continue(void);
void replay_free(void);
bool replay_log_from(rlog *log, uint64_t n_log, uint64_t e0, uint64_t off0, uint64_t target);
void replay_show(uint64_t lin, uint32_t sg, const char *msg, double t0);
bool replay_scan(rlog *log, uint64_t n_log, uint64_t e0, uint64_t off0, uint64_t end, uint64_t *stop,
                 uint64_t *lin, uint32_t *sg);
void reverse_continue_scan(uint64_t end, double t0);
void ckpt_scan_back(uint64_t end, double t0);

/* -------------------------------------------- dbg_ckpt.c: checkpoints (fork) */

#include <setjmp.h>
extern jmp_buf *ckpt_loop;     /* the command loop: where a resumed checkpoint goes on */
void ckpt_enable(void);
bool ckpt_enabled(void);
uint32_t ckpt_count(void);
void ckpt_maybe(void);
void ckpt_truncate(uint64_t t);
void ckpt_resume(uint64_t target, uint64_t lin, uint32_t sg, const char *msg, double t0);
void ckpt_shutdown(int code);

/* - sgdb.c: the terminal front-end (what the engine calls back) */

void show_stop(const char *why);
bool need_sg(void);
void join_args(int from, int to, char **argv, char *buf, size_t n);
bool split_lane_sel(int *argc, char **argv, uint32_t nl, int64_t *lane);
int start_launch(void);
void stop_launch(void);

#endif
