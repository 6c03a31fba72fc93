/* dbg_ckpt.c - spirv-sgdb's checkpoints: what makes going backwards cheap.
 *
 * Going backwards replays the log from an earlier state (dbg_replay.c).
 * Without checkpoints that state is the launch's start, and one step back
 * after a million subgroup instructions replays all of them.  The
 * interpreter's state (frames, masks, local and private memory, the
 * detectors) is not ours to copy, so a checkpoint is a copy of the whole
 * process: every CKPT_EVERY steps the session forks; the parent stays
 * frozen at that point (ckpt_frozen, waiting on its pipe) and the child goes
 * on as the session (the rr / gdb 'checkpoint' approach; copy-on-write keeps
 * it cheap).
 *
 * Going back to a point after a checkpoint: the session sends that
 * checkpoint what it has and the checkpoint has not (the breakpoints,
 * watchpoints, displays, the focus and the log up to the target), then
 * exits; the checkpoint forks a child that takes the session over, replays
 * the log from the checkpoint to the target, shows the stop and goes back
 * to the command loop (longjmp to ckpt_loop, set by the loop before every
 * command).  The checkpoint itself stays, for the next time.
 *
 * The first process (the one the shell or the test waits for) is the first
 * checkpoint; it exits with the session's exit code when the session ends
 * (ckpt_shutdown).  A frozen process also exits when the session dies
 * without saying so (the live session's pid is on a shared page).  Input is
 * read unbuffered while checkpoints are on, so that every process sees the
 * same position in the script or on stdin.  Only the terminal front-end
 * uses checkpoints (the DAP front-end keeps its own state).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbg_session.h"

#define CKPT_MAX 24
#define CKPT_EVERY (1u << 16)

typedef struct ckpt {
  uint64_t t;       /* steps since the launch began */
  uint64_t n_log;   /* log entries it had; the last one's count */
  uint64_t last_count;
  int wfd;          /* its pipe */
  bool usable;      /* false: the first process after a restart, kept to exit last */
} ckpt;

/* The checkpoints belong to the process, not to a session: each is a copy
 * of the whole process, so one process has one checkpointing session
 * (sg_dbg_enable_checkpoints refuses a second). */
static ckpt CK[CKPT_MAX];
static uint32_t n_ck;
static bool enabled;
static uint64_t every = CKPT_EVERY, next_at = CKPT_EVERY;
static volatile pid_t *session_pid;   /* shared: the live session (0: handing over) */
static jmp_buf *ckpt_loop;       /* the command loop (sg_dbg_command_loop) */
static dbg_session *owner;       /* the session the checkpoints are of */

enum { MSG_RESUME = 1, MSG_EXIT = 2 };

void dbg_ckpt_set_loop(jmp_buf *jb) { ckpt_loop = jb; }

bool dbg_ckpt_enable(dbg_session *S)
{
  if (enabled)
    return owner == S;
  if (getenv("SG_SGDB_NO_CHECKPOINTS"))
    return false;
  void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return false;
  session_pid = p;
  *session_pid = getpid();
  enabled = true;
  owner = S;
  return true;
}

bool dbg_ckpt_enabled(void) { return enabled; }
uint32_t dbg_ckpt_count(void) { return n_ck; }

static bool write_all(int fd, const void *p, size_t n)
{
  const uint8_t *b = p;
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    b += w;
    n -= (size_t)w;
  }
  return true;
}

static bool read_all(int fd, void *p, size_t n)
{
  uint8_t *b = p;
  while (n) {
    ssize_t r = read(fd, b, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    b += r;
    n -= (size_t)r;
  }
  return true;
}

static void send_exit(int fd, int code)
{
  uint64_t h[2] = {MSG_EXIT, (uint64_t)code};
  write_all(fd, h, sizeof h);
}

/* Checkpoint k goes (told to exit). */
static void drop(uint32_t k)
{
  send_exit(CK[k].wfd, 0);
  close(CK[k].wfd);
  memmove(&CK[k], &CK[k + 1], (n_ck - k - 1) * sizeof *CK);
  n_ck--;
}

/* The history after step t is no longer the one the checkpoints after it
 * took: they go (the first process stays, unusable: it exits last). */
void dbg_ckpt_truncate(dbg_session *S, uint64_t t)
{
  if (S != owner)
    return;
  for (uint32_t k = n_ck; k-- > 0;) {
    if (CK[k].t <= t && CK[k].usable)
      continue;
    if (k == 0)
      CK[0].usable = false;
    else
      drop(k);
  }
  next_at = S->t + every;
}

/* ------------------------------------------------------------ the blob */

typedef struct blob { uint8_t *p; size_t n, cap; bool bad; } blob;

static void put(blob *b, const void *p, size_t n)
{
  if (b->bad)
    return;
  if (b->n + n > b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 4096;
    while (nc < b->n + n)
      nc *= 2;
    uint8_t *np = realloc(b->p, nc);
    if (!np) {
      b->bad = true;
      return;
    }
    b->p = np;
    b->cap = nc;
  }
  memcpy(b->p + b->n, p, n);
  b->n += n;
}

static void put_u64(blob *b, uint64_t v) { put(b, &v, sizeof v); }

static void put_str(blob *b, const char *s)
{
  put_u64(b, s ? strlen(s) + 1 : 0);
  if (s)
    put(b, s, strlen(s) + 1);
}

typedef struct rd { const uint8_t *p; size_t n, at; bool bad; } rd;

static void get(rd *r, void *p, size_t n)
{
  if (r->bad || r->n - r->at < n) {
    r->bad = true;
    memset(p, 0, n);
    return;
  }
  memcpy(p, r->p + r->at, n);
  r->at += n;
}

static uint64_t get_u64(rd *r)
{
  uint64_t v;
  get(r, &v, sizeof v);
  return v;
}

static char *get_str(rd *r)
{
  uint64_t n = get_u64(r);
  if (!n || r->bad || n > r->n - r->at) {
    if (n)
      r->bad = true;
    return NULL;
  }
  char *s = malloc(n);
  if (s)
    memcpy(s, r->p + r->at, n);
  r->at += n;
  return s;
}

/* What a session hands over, and what the checkpoint does with it: the
 * user's state (pointers into the module are the same in every process:
 * they all come from one loaded module), then the stop to show. */
typedef struct tail {
  uint32_t scan;      /* 1 reverse-continue: look for the last stop up to
                         target; 2 reverse-next: find the start of the line
                         before subgroup sg's current one, target being
                         the current point */
  uint64_t target, lin;
  uint32_t sg;
  uint64_t upto;      /* 2: scan up to here (the next checkpoint's point, or
                         the current one) */
  dbg_line_search ls; /* 2: the current line, and where the later points
                         left the search */
  double t0;
  char msg[160];
} tail;

static void put_session(dbg_session *S, blob *b, const tail *tl)
{
  put(b, tl, sizeof *tl);
  put_u64(b, (uint64_t)S->focus_lane);
  put_u64(b, (uint64_t)S->next_bp);
  put_u64(b, S->n_bps);
  for (uint32_t i = 0; i < S->n_bps; i++) {
    put(b, &S->bps[i], sizeof S->bps[i]);
    put_str(b, S->bps[i].file);
    put_str(b, S->bps[i].spec);
    put_str(b, S->bps[i].cond);
  }
  put_u64(b, S->n_wps);
  for (uint32_t i = 0; i < S->n_wps; i++) {
    put(b, &S->wps[i], sizeof S->wps[i]);
    put_str(b, S->wps[i].expr);
    put(b, S->wps[i].old, S->wps[i].size);
    put(b, S->wps[i].was, S->wps[i].size);
  }
  put_u64(b, S->n_displays);
  for (uint32_t i = 0; i < S->n_displays; i++)
    put_str(b, S->displays[i]);
  put_u64(b, S->n_log);
  put(b, S->log, S->n_log * sizeof *S->log);
}

static void free_session_user_state(dbg_session *S)
{
  while (S->n_bps)
    dbg_delete_bp_index(S, S->n_bps - 1);
  for (uint32_t i = 0; i < S->n_wps; i++)
    dbg_watch_free(&S->wps[i]);
  S->n_wps = 0;
  for (uint32_t i = 0; i < S->n_displays; i++)
    free(S->displays[i]);
  S->n_displays = 0;
}

static bool get_session(dbg_session *S, rd *r, tail *tl, rlog **log, uint64_t *n_log)
{
  get(r, tl, sizeof *tl);
  tl->msg[sizeof tl->msg - 1] = 0;
  free_session_user_state(S);
  S->focus_lane = (int64_t)get_u64(r);
  S->next_bp = (int)get_u64(r);
  uint64_t n = get_u64(r);
  bp *nb = n && !r->bad ? realloc(S->bps, n * sizeof *nb) : S->bps;
  if (n && !nb)
    return false;
  S->bps = nb;
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    get(r, &S->bps[i], sizeof S->bps[i]);
    S->bps[i].file = get_str(r);
    S->bps[i].spec = get_str(r);
    S->bps[i].cond = get_str(r);
    S->n_bps = (uint32_t)i + 1;
  }
  n = get_u64(r);
  watch *nw = n && !r->bad ? realloc(S->wps, n * sizeof *nw) : S->wps;
  if (n && !nw)
    return false;
  S->wps = nw;
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    watch *w = &S->wps[i];
    get(r, w, sizeof *w);
    w->expr = get_str(r);
    w->old = malloc(w->size ? w->size : 1);
    w->was = malloc(w->size ? w->size : 1);
    if (!w->old || !w->was) {
      dbg_watch_free(w);
      return false;
    }
    get(r, w->old, w->size);
    get(r, w->was, w->size);
    S->n_wps = (uint32_t)i + 1;
  }
  n = get_u64(r);
  char **nd = n && !r->bad ? realloc(S->displays, n * sizeof *nd) : S->displays;
  if (n && !nd)
    return false;
  S->displays = nd;
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    S->displays[i] = get_str(r);
    S->n_displays = (uint32_t)i + 1;
  }
  *n_log = get_u64(r);
  if (r->bad || *n_log > (r->n - r->at) / sizeof **log)
    return false;
  *log = malloc((*n_log ? *n_log : 1) * sizeof **log);
  if (!*log)
    return false;
  get(r, *log, *n_log * sizeof **log);
  return !r->bad;
}

/* ------------------------------------------------------------ frozen */

/* The checkpoint's child takes the session over. */
static void take_over(dbg_session *S, const uint8_t *p, size_t n, const ckpt *me)
{
  rd r = {p, n, 0, false};
  tail tl;
  rlog *log = NULL;
  uint64_t n_log = 0;
  /* what was under way when the checkpoint froze is not any more */
  S->interrupted = 0;
  S->until_on = false;
  S->json = false;
  S->watch_hit = -1;
  if (!get_session(S, &r, &tl, &log, &n_log)) {
    dbg_printf(S, "error: the checkpoint could not take the session over; replaying from the start\n");
    free(log);
    log = NULL;
    n_log = 0;
  }
  /* where this checkpoint stands in the session's log */
  uint64_t e0 = me->n_log, off0 = 0;
  if (me->n_log && me->n_log <= n_log && S->log[me->n_log - 1].kind == RL_STEP) {
    e0 = me->n_log - 1;
    off0 = me->last_count;
  }
  bool same = log && me->n_log <= n_log && S->n_log == me->n_log;
  for (uint64_t e = 0; same && e < me->n_log; e++)
    same = log[e].kind == S->log[e].kind && log[e].lin == S->log[e].lin && log[e].sg == S->log[e].sg &&
           (e + 1 == me->n_log || log[e].count == S->log[e].count);
  free(S->log);
  S->log = NULL;
  S->n_log = S->cap_log = 0;
  if (tl.scan == 2 && log && same) {
    /* reverse-next: this subgroup's positions from here to the current
     * point; when the line before starts after this checkpoint, go there
     * (through the latest checkpoint before it), else ask the one before */
    dbg_track_begin(S, tl.lin, tl.sg);
    dbg_replay_log_from(S, log, n_log, e0, off0, tl.upto);
    S->rp.track = false;
    uint64_t target;
    if (dbg_line_target(S, &tl.ls, S->rp.saw_begin, &target)) {
      dbg_reverse_to(S, target, tl.lin, tl.sg, tl.t0);
      return;
    }
    /* the checkpoint before scans only up to this one's point, with the
     * search where these points left it */
    dbg_ckpt_line_back_before(S, me->t, tl.target, tl.lin, tl.sg, &tl.ls, tl.t0);
    dbg_reverse_next_from_start(S, me->t, tl.lin, tl.sg, &tl.ls, tl.t0);
    return;
  }
  if (tl.scan == 2) {
    /* the log did not match: from the start */
    if (log) {
      S->log = log;
      S->n_log = S->cap_log = n_log;
    }
    dbg_line_search ls = {0, tl.ls.line0, tl.ls.depth0, 0, 0};
    dbg_reverse_next_from_start(S, tl.target, tl.lin, tl.sg, &ls, tl.t0);
    return;
  }
  if (tl.scan && log && same) {
    /* reverse-continue: the last stop after this checkpoint; none: look
     * before it (an earlier checkpoint, else from the launch's start) */
    uint64_t stop, lin;
    uint32_t sgi;
    if (dbg_replay_scan(S, log, n_log, e0, off0, tl.target, &stop, &lin, &sgi)) {
      char m[160];
      snprintf(m, sizeof m, "[back to step %" PRIu64 " of the launch, the last stop before; replayed in %%.0f ms]",
               stop);
      dbg_ckpt_resume(S, stop, lin, sgi, m, tl.t0);   /* returns when no checkpoint can */
      dbg_replay_to(S, stop);
      dbg_replay_show(S, lin, sgi, m, tl.t0);
      return;
    }
    dbg_ckpt_scan_back(S, me->t, tl.t0);
    dbg_reverse_continue_scan(S, me->t, tl.t0);
    return;
  }
  if (tl.scan) {
    /* the log did not match: the whole scan from the start */
    if (log) {
      S->log = log;
      S->n_log = S->cap_log = n_log;
    }
    dbg_reverse_continue_scan(S, tl.target, tl.t0);
    return;
  }
  if (log && same)
    dbg_replay_log_from(S, log, n_log, e0, off0, tl.target);
  else if (log) {
    S->log = log;
    S->n_log = S->cap_log = n_log;
    dbg_replay_to(S, tl.target);
  }
  dbg_ckpt_truncate(S, tl.target);
  /* "... replayed in %.0f ms]" says from where */
  char msg[sizeof tl.msg + 64];
  size_t ml = strlen(tl.msg);
  if (same && ml >= 3 && !strcmp(tl.msg + ml - 3, "ms]"))
    snprintf(msg, sizeof msg, "%.*s from the checkpoint at step %" PRIu64 "]", (int)(ml - 1), tl.msg, me->t);
  else
    snprintf(msg, sizeof msg, "%s", tl.msg);
  dbg_replay_show(S, tl.lin, tl.sg, msg, tl.t0);
  fflush(stdout);
}

static _Noreturn void frozen(dbg_session *S, int rfd, uint32_t me)
{
  for (;;) {
    while (waitpid(-1, NULL, WNOHANG) > 0)
      ;
    struct pollfd pf = {rfd, POLLIN, 0};
    int pr = poll(&pf, 1, 200);
    if (pr < 0 && errno == EINTR)
      continue;
    if (pr == 0) {
      pid_t s = *session_pid;
      if (s > 0 && kill(s, 0) < 0 && errno == ESRCH)
        _exit(4);
      continue;
    }
    uint64_t h[2];
    if (!read_all(rfd, h, sizeof h))
      _exit(4);
    if (h[0] == MSG_EXIT)
      _exit((int)h[1]);
    if (h[0] != MSG_RESUME || h[1] > ((uint64_t)1 << 34))
      _exit(4);
    uint8_t *p = malloc(h[1] ? h[1] : 1);
    if (!p || !read_all(rfd, p, h[1]))
      _exit(4);
    pid_t c = fork();
    if (c < 0) {
      free(p);
      continue;
    }
    if (c == 0) {
      close(rfd);
      *session_pid = getpid();
      ckpt self = CK[me];
      take_over(S, p, h[1], &self);
      free(p);
      longjmp(*ckpt_loop, 1);
    }
    free(p);
  }
}

/* Before a step: a checkpoint when one is due. */
void dbg_ckpt_maybe(dbg_session *S)
{
  if (!enabled || S != owner || S->replaying || S->t < next_at || !ckpt_loop)
    return;
  next_at = S->t + every;
  if (n_ck == CKPT_MAX) {
    /* keep every other one (never the first process) and space them wider */
    for (int k = (int)n_ck - 1; k >= 1; k -= 2)
      drop((uint32_t)k);
    every *= 2;
    next_at = S->t + every;
  }
  int p[2];
  if (pipe(p)) {
    enabled = false;
    return;
  }
  fflush(stdout);
  fflush(stderr);
  uint32_t me = n_ck;
  CK[n_ck++] = (ckpt){S->t, S->n_log, S->n_log ? S->log[S->n_log - 1].count : 0, p[1], true};
  pid_t c = fork();
  if (c < 0) {
    n_ck--;
    close(p[0]);
    close(p[1]);
    enabled = false;
    return;
  }
  if (c == 0) {
    /* the child goes on as the session */
    close(p[0]);
    *session_pid = getpid();
    return;
  }
  frozen(S, p[0], me);
}

/* Goes back to step `target` through the latest checkpoint at or before
 * it, then shows the stop (replay_show).  Returns only when no checkpoint
 * can: the caller replays from the start. */
static void hand_over(dbg_session *S, int k, const tail *tl);

void dbg_ckpt_resume(dbg_session *S, uint64_t target, uint64_t lin, uint32_t sg, const char *msg, double t0)
{
  if (!enabled || !ckpt_loop || S != owner)
    return;
  int k = -1;
  for (uint32_t i = 0; i < n_ck; i++)
    if (CK[i].usable && CK[i].t <= target)
      k = (int)i;
  if (k < 0)
    return;
  tail tl;
  memset(&tl, 0, sizeof tl);
  tl.target = target;
  tl.lin = lin;
  tl.sg = sg;
  tl.t0 = t0;
  snprintf(tl.msg, sizeof tl.msg, "%s", msg);
  hand_over(S, k, &tl);
}

/* reverse-continue: the latest checkpoint before `end` looks for the last
 * stop in its steps up to `end` (and hands on to the one before when there
 * is none).  Returns only when no checkpoint can. */
void dbg_ckpt_scan_back(dbg_session *S, uint64_t end, double t0)
{
  if (!enabled || !ckpt_loop || S != owner)
    return;
  int k = -1;
  for (uint32_t i = 0; i < n_ck; i++)
    if (CK[i].usable && CK[i].t < end)
      k = (int)i;
  if (k < 0)
    return;
  tail tl;
  memset(&tl, 0, sizeof tl);
  tl.scan = 1;
  tl.target = end;
  tl.t0 = t0;
  hand_over(S, k, &tl);
}

/* reverse-next: the latest checkpoint before `before` collects subgroup
 * sg's positions from its point to `now` and goes back to the start of the
 * line before (or asks the checkpoint before it).  Returns only when no
 * checkpoint can. */
void dbg_ckpt_line_back_before(dbg_session *S, uint64_t before, uint64_t now, uint64_t lin, uint32_t sg,
                               const dbg_line_search *ls, double t0)
{
  if (!enabled || !ckpt_loop || S != owner)
    return;
  int k = -1;
  for (uint32_t i = 0; i < n_ck; i++)
    if (CK[i].usable && CK[i].t < before)
      k = (int)i;
  if (k < 0)
    return;
  tail tl;
  memset(&tl, 0, sizeof tl);
  tl.scan = 2;
  tl.target = now;
  tl.upto = before <= now ? before : now;
  tl.lin = lin;
  tl.sg = sg;
  tl.ls = *ls;
  tl.t0 = t0;
  hand_over(S, k, &tl);
}

/* reverse-next from the current point `now`: returns only when no
 * checkpoint can, with the point the replay from the start must reach. */
uint64_t dbg_ckpt_line_back(dbg_session *S, uint64_t now, uint64_t lin, uint32_t sg, dbg_line_search *ls,
                            double t0)
{
  dbg_ckpt_line_back_before(S, now + 1, now, lin, sg, ls, t0);
  return now;
}

/* Sends the session to checkpoint k and exits; returns when k is gone. */
static void hand_over(dbg_session *S, int k, const tail *tl)
{
  blob b = {0};
  put_session(S, &b, tl);
  if (b.bad) {
    free(b.p);
    return;
  }
  /* the checkpoints after it belong to a history that is going away */
  while (n_ck > (uint32_t)k + 1)
    drop(n_ck - 1);
  fflush(stdout);
  fflush(stderr);
  *session_pid = 0;
  uint64_t h[2] = {MSG_RESUME, b.n};
  if (!write_all(CK[k].wfd, h, sizeof h) || !write_all(CK[k].wfd, b.p, b.n)) {
    /* it is gone: carry on here */
    *session_pid = getpid();
    free(b.p);
    drop((uint32_t)k);
    return;
  }
  free(b.p);
  _exit(0);
}

/* The session ends: every checkpoint goes, the first process with `code`
 * (the exit status the shell sees). */
void dbg_ckpt_shutdown(int code)
{
  fflush(stdout);
  fflush(stderr);
  while (n_ck > 1)
    drop(n_ck - 1);
  if (n_ck) {
    send_exit(CK[0].wfd, code);
    close(CK[0].wfd);
    n_ck = 0;
  }
}
