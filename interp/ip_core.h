/* ip_core.h - the interpreter machine's own internals (launch, work-group and
 * subgroup extensions, prepared functions, SIMT helpers).  Only the machine
 * files (ip_*.c, exec_control.c, exec_memory.c) include it; the opcode
 * families see ip_internal.h only.
 */
#ifndef IP_CORE_H
#define IP_CORE_H

#include <pthread.h>
#include "ip_internal.h"

/* A prepared function: the public part first (ip_fn), then ours. */
typedef struct ip_fnx {
  ip_fn base;
  ip_op *ops;                 /* all ops, block after block */
  uint32_t n_ops;
  uint32_t phi_bytes;         /* largest per-block sum of phi sizes (one lane) */
  uint32_t index;             /* in ip_launch.fns */
} ip_fnx;

/* Per-subgroup machine state that the families do not see. */
typedef struct ip_sgx {
  uint8_t **frame_buf;        /* register buffers cached per call depth */
  size_t *frame_cap;
  uint32_t n_frame_buf;
  uint8_t *phi_tmp;           /* phi parallel-copy buffer: phi_bytes * S */
  uint8_t bi[IP_MAX_LANES][32];  /* built-in values read through ip_mem */
  ip_mask exited;             /* lanes that left the kernel (return / unreachable) */
  bool arrived;               /* waiting at a rendezvous */
  uint64_t n_diags;           /* diagnostics raised by this subgroup */
  uint8_t *priv_block;
} ip_sgx;

typedef struct ip_wdiag {     /* a diagnostic with its ordering key */
  ip_diag d;
  uint64_t wg_linear, seq;
} ip_wdiag;

/* Per-work-group machine state. */
typedef struct ip_wgx {
  ip_wg wg;
  ip_sgx *sgx;
  uint32_t cap_sgs;
  uint64_t wg_linear;
  uint8_t *local_block;       /* all local allocations */
  size_t local_block_size;
  ip_wdiag *diags;            /* recorded here, merged at the end */
  uint32_t n_diags, cap_diags;
  bool pending;               /* last diag not yet passed to on_diag */
  uint64_t n_faults, n_ub, seq;
  bool barrier_div_reported;
  bool direct_out;            /* stepping: printf goes straight to the sink */
  uint64_t rendezvous_gen, async_done_gen;
  /* Events of this work-group's async copies (OpenCL C 6.13.10): event k
   * (1-based) is the value 2k+1; the first IP_MAX_EVENTS are checked for a
   * wait before the work-group ends (the op that made each, for the report). */
  uint32_t n_events;
  uint64_t events_waited;     /* bit k-1: event k was waited for */
  const struct ip_op *event_op[64];
  uint32_t rr;                /* round robin for ip_wg_step */
  bool stepping;
  void *check_wg[2];          /* detectors' per-work-group state (ip_check.h) */
} ip_wgx;

static inline ip_wgx *ip_wgx_of(ip_wg *wg) { return (ip_wgx *)wg; }
static inline ip_sgx *ip_sgx_of(ip_sg *sg) { return &((ip_wgx *)sg->wg)->sgx[sg->id]; }

struct ip_launch {
  const ld_module *m;
  uint64_t serial;            /* ip_launch_serial: set at create and reset */
  const ld_kernel *k;
  ip_launch_desc desc;
  ip_arg *args;
  ip_ndrange nd;
  ip_report rep;
  /* prepared functions */
  ip_fnx **fns;               /* [m->n_functions], NULL if not reachable */
  uint32_t *slot_of;          /* [bound]: register offset of a local id */
  uint64_t *var_addr;         /* [n_variables]: pointer value bytes */
  uint32_t ptr_size;
  uint32_t max_phi_bytes;
  uint64_t priv_size;         /* per lane */
  ip_fnx *kernel_fn;
  /* regions */
  ip_region *gregions;        /* [local_base]: index = region number */
  const ip_arg **region_arg;  /* [local_base]: the argument of a region, or NULL */
  const char **region_name;   /* [local_base] */
  uint8_t **gvar_mem;         /* [n_variables]: storage of global-class vars */
  uint32_t n_local;           /* local allocations per work-group */
  uint64_t *local_size;       /* [n_local] */
  uint64_t *local_off;        /* [n_local]: offset in the work-group block */
  const char **local_name;    /* [n_local] */
  size_t local_block_size;
  const ld_variable **input_vars;   /* [n_input_vars] by class ordinal */
  const ld_variable **local_vars;   /* [n_local_vars] by class ordinal */
  const uint8_t **arg_ptr;    /* [n_args]: bytes of the kernel parameter value */
  uint32_t *arg_len;
  uint64_t *arg_word;         /* pointer / handle values */
  /* Structs passed by value (a ByVal pointer to Function storage): each lane
   * gets its own copy of the bytes at the start of its private memory (the
   * kernel may write it), the parameter points there.  byval_off[i] is the
   * copy's offset, UINT64_MAX for other arguments; byval_bytes the total
   * (the kernel frame's private area starts after it). */
  uint64_t *byval_off;
  uint64_t byval_bytes;
  uint64_t next_wg;           /* atomic work-group counter */
  /* run state */
  int stop;                   /* atomic */
  uint64_t step_limit;
  double t_start;
  pthread_mutex_t mu;
  ip_wdiag *all;              /* merged diagnostics */
  uint32_t n_all, cap_all;
  ip_diag *diag_out;          /* sorted, exposed through the report */
  uint64_t insns, lane_insns; /* atomic */
  /* output reordering */
  char **out_pending; size_t *out_pending_len; uint8_t *out_ready;
  uint64_t out_next, n_groups;
  bool limit_reported;
  /* split runs (ip_launch_run_range*) */
  uint64_t range_end;         /* workers stop here */
  int running;                /* atomic: a range is executing */
  uint32_t range_threads;     /* threads of the executing range (ip_launch_range_threads) */
  bool dirty;                 /* report not yet published since the last range */
  struct ip_checks *checks;   /* detectors (ip_check.h); NULL when none is on */
};

double ip_now(void);

/* ip_prepare.c */
int ip_prepare_all(ip_launch *l, char *err, size_t err_size);
void ip_prepare_free(ip_launch *l);
uint32_t ip_value_size(const ld_type *t, uint32_t ptr_size);

/* ip_exec.c: machine pieces used by exec_control.c */
int ip_branch(ip_sg *sg, const ld_block *from, uint32_t n, const ld_block *const *targets,
              const ip_mask *masks);
int ip_call(ip_sg *sg, const ip_op *op, const ip_fnx *callee);
int ip_return(ip_sg *sg, ip_mask lanes, const ip_op *op);   /* op: OpReturnValue or NULL */
int ip_kill(ip_sg *sg, ip_mask lanes);
ip_frame *ip_top_frame(ip_sg *sg);
ip_mask ip_live_lanes(ip_sg *sg);
void ip_wg_init(ip_launch *l, ip_wgx *x, uint64_t wg_linear);
void ip_wg_fini(ip_wgx *x);
bool ip_wg_release(ip_wgx *x);
int ip_wg_run_all(ip_wgx *x);
void ip_out_commit(ip_launch *l, uint64_t wg_linear, char *buf, size_t len);   /* IP_STEP_DONE / IP_STEP_STOPPED */
void ip_wg_commit(ip_launch *l, ip_wgx *x);   /* diags + output into the launch */
void ip_flush_pending_diag(ip_wgx *x);

/* ip_mem.c */
int ip_regions_init(ip_launch *l, char *err, size_t err_size);
void ip_regions_reset(ip_launch *l);
void ip_regions_free(ip_launch *l);
void ip_describe_addr(const ip_sg *sg, uint64_t addr, char *buf, size_t size);

#endif
