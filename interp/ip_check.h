/* ip_check.h - the detectors' event interface (Oclgrind's plugin model).
 * Internal to interp/.
 *
 * A detector is an ip_check_plugin: a table of callbacks on a small set of
 * interpreter events.  The machine knows no detector by name: it raises
 * events through the ip_check_* functions below, only when the launch has
 * detectors (ip_launch.checks != NULL).  A launch without detectors pays one
 * predictable branch per memory access and per sg_exec() call (the dispatch
 * loop has a second, instrumented copy).
 *
 *   event        raised by                         when
 *   wg_begin     ip_wg_init                        a work-group's memory is set up
 *   wg_end       ip_wg_commit                      a work-group has finished
 *   mem          ip_mem                            a lane's access resolved (before it happens)
 *   before       the dispatch loop                 an instruction is about to run
 *   after        the dispatch loop                 it completed (not on IP_SUSPEND: a
 *                                                  barrier's `after` comes once, on release)
 *
 * Derived events (ip_check_sync_of classifies an instruction) let detectors
 * see barriers, subgroup collectives and event waits without decoding them.
 *
 * Detectors run with one work-group thread (ip_launch_create forces it), so
 * their state needs no locks.  Reports go through ip_check_report().
 */
#ifndef IP_CHECK_H
#define IP_CHECK_H

#include "ip_core.h"

typedef struct ip_check_plugin {
  const char *name;
  uint32_t bit;                                   /* IP_DETECT_* that enables it */
  void *(*create)(ip_launch *l, uint32_t bits);   /* NULL: out of memory */
  void (*destroy)(void *st);
  void (*launch_reset)(void *st);                 /* a new run: forget everything */
  void (*wg_begin)(void *st, ip_wg *wg);
  void (*wg_end)(void *st, ip_wg *wg);
  void (*mem)(void *st, ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size,
              ip_access acc, uint8_t *host);
  void (*before)(void *st, ip_sg *sg, const ip_op *op);
  void (*after)(void *st, ip_sg *sg, const ip_op *op);
} ip_check_plugin;

extern const ip_check_plugin ip_check_race;     /* check_race.c: --data-races, --lockstep */
extern const ip_check_plugin ip_check_uninit;   /* check_uninit.c: --uninitialized */

/* Per-launch detector set (ip_launch.checks). */
#define IP_CHECK_MAX_PLUGINS 2
typedef struct ip_checks {
  uint32_t n;
  const ip_check_plugin *p[IP_CHECK_MAX_PLUGINS];
  void *st[IP_CHECK_MAX_PLUGINS];
} ip_checks;

/* ip_check.c: set up / tear down from desc.checks (NULL when no bit set). */
int ip_checks_create(ip_launch *l, char *err, size_t err_size);
void ip_checks_free(ip_launch *l);
void ip_checks_reset(ip_launch *l);

/* Event raisers (the machine calls these only when l->checks != NULL). */
void ip_check_wg_begin(ip_wg *wg);
void ip_check_wg_end(ip_wg *wg);
void ip_check_mem(ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size, ip_access acc,
                  uint8_t *host);
void ip_check_before(ip_sg *sg, const ip_op *op);
void ip_check_after(ip_sg *sg, const ip_op *op);

/* What an instruction means for ordering between work-items. */
typedef enum ip_sync {
  IP_SYNC_NONE = 0,
  IP_SYNC_SUBGROUP,        /* sub_group_barrier or any subgroup collective */
  IP_SYNC_WORKGROUP,       /* work-group barrier: *fence = SpvMemorySemantics bits */
  IP_SYNC_WAIT_EVENTS,     /* wait_group_events: async copies before it are complete */
} ip_sync;
ip_sync ip_check_sync_of(const ip_sg *sg, const ip_op *op, uint32_t *fence);

/* A detector report at sg's current instruction for `lanes`, naming n_acc
 * (<= 2) accesses.  Recorded as a fault (ip_fault's rules: stop_on_fault
 * stops the launch, the debugger stops on it). */
void ip_check_report(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, uint64_t addr,
                     const ip_diag_access *acc, uint32_t n_acc, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Fills an access for (sg, lane) at insn. */
void ip_check_access(const ip_sg *sg, uint32_t lane, const ld_insn *insn, const char *what,
                     ip_diag_access *out);
/* "work-item (3,0,0) of work-group (1,0,0) (subgroup 0, lane 3), OpStore at k.cl:12" */
void ip_check_access_format(const ld_module *m, const ip_diag_access *a, char *buf, size_t size);

#endif
