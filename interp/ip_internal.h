/* ip_internal.h - what the opcode-family handlers of interp/ see.  Not public.
 *
 * Instruction format (pre-decoded once per function, Lua/SQLite style):
 *
 *   ip_op  { fn | insn | res_off res_size | n_in | in[0..n_in) }
 *   ip_opnd{ cbase (constant bytes, or NULL) | off | size }
 *
 * Registers: every id defined in a function (params and results) owns a slot
 * at byte offset `off` (computed for one lane) in its frame; for a subgroup of
 * S lanes the slot holds S values back to back:
 *
 *   value of lane l  =  frame->regs + off * S + l * size
 *
 * A constant operand (constants, undef, module variables = pointer constants,
 * function ids) has cbase != NULL and the same bytes for every lane.
 *
 * Families (one file each, Mesa style): exec_control.c (branches, phi, calls,
 * barriers), exec_memory.c (variables, loads, stores, access chains, atomics,
 * copies, async copies), exec_arith.c (arithmetic, bitwise, relational,
 * conversions, composites), exec_ocl.c (OpenCL.std incl. printf and
 * vload/vstore), exec_subgroup.c (Groups, GroupNonUniform*), exec_intel.c
 * (SPV_INTEL_subgroups shuffles and block I/O), exec_image.c (images).
 * Each exports one lookup function; ip_prepare.c asks them in turn.
 */
#ifndef IP_INTERNAL_H
#define IP_INTERNAL_H

#include <string.h>
#include "ip.h"

typedef struct ip_op ip_op;
typedef struct ip_frame ip_frame;
typedef struct ip_fn ip_fn;

/* What a handler tells the dispatch loop. */
enum {
  IP_NEXT = 0,     /* advance to the next instruction */
  IP_JUMPED,       /* the handler set the pc itself (branches, calls, returns) */
  IP_SUSPEND,      /* stay on this instruction and yield (barrier/rendezvous);
                      the handler runs again when the subgroup is resumed */
  IP_HALT,         /* stop this subgroup now (launch stopped) */
};

typedef int ip_handler(ip_sg *sg, const ip_op *op);

typedef struct ip_opnd {
  const uint8_t *cbase;   /* constant: the bytes; NULL: register */
  uint32_t off;           /* register offset (per-lane units, see above) */
  uint32_t size;          /* bytes of one lane's value */
  const ld_type *type;
  uint32_t id;
} ip_opnd;

struct ip_op {
  ip_handler *fn;
  const ld_insn *insn;
  uint32_t res_off, res_size;   /* result register (res_size 0: none) */
  uint32_t n_in;
  const ip_opnd *in;            /* one per id operand, in operand order; for
                                   OpExtInst the extended instruction's
                                   operands only (ops[2..]) */
  uint32_t aux;                 /* family-specific pre-decoded datum */
  const void *aux_ptr;          /* family-specific (e.g. a callee ip_fn, a target block) */
};

/* A pre-decoded function (built lazily, once per launch/module, immutable). */
struct ip_fn {
  const ld_function *fn;
  uint32_t regs_per_lane;       /* bytes of all slots for one lane */
  uint32_t n_blocks;
  const ip_op *const *block_ops;   /* [n_blocks]: ops of block i, in order */
  const uint32_t *block_n_ops;
  const uint32_t *slot_off;        /* [n_locals] parallel to fn->locals */
  uint32_t private_bytes;          /* Function-storage OpVariables, per lane */
  /* Each Function variable's extent in the frame's private area, (offset,
   * size) pairs by increasing offset: a private access must stay inside
   * one variable, as Oclgrind checks each allocation. */
  uint32_t n_vars;
  const uint32_t *var_ext;
};

/* SIMT reconvergence stack entry (GPGPU-Sim style IPDOM stack). */
typedef struct ip_simt {
  const ld_block *pc_block;
  uint32_t pc_index;        /* op index within the block */
  ip_mask mask;
  const ld_block *rpc;      /* reconvergence block; NULL = function exit */
} ip_simt;

struct ip_frame {
  const ip_fn *fn;
  uint8_t *regs;            /* regs_per_lane * S bytes */
  ip_simt *stack;           /* SIMT stack, top at [depth-1] */
  uint32_t depth, cap;
  ip_mask entry_mask;       /* lanes that entered the call */
  ip_mask returned;         /* lanes that have executed OpReturn* */
  const ip_op *call_op;     /* caller's OpFunctionCall (NULL for the kernel) */
  uint64_t private_base;    /* offset of this frame's private area in each lane's private memory */
};

/* ---- the launch, work-group and subgroup as the handlers see them ---- */

typedef struct ip_region {
  uint8_t *base;
  uint64_t size;
  bool writable;
  bool write_only;          /* a buffer the host made write-only: reads fault */
  uint8_t space;            /* SpvStorageClass of the region's class */
} ip_region;

struct ip_sg {
  ip_launch *launch;
  ip_wg *wg;
  const ld_module *m;
  uint32_t id;              /* subgroup id in the work-group */
  uint32_t size;            /* S: the (maximum) subgroup size */
  uint32_t n_lanes;         /* lanes that exist: < S for a partial subgroup */
  ip_mask all;              /* the n_lanes lanes */
  ip_mask mask;             /* active lanes for the current instruction */
  uint32_t local_linear[IP_MAX_LANES];  /* linear local id of each lane */
  uint32_t local_id[IP_MAX_LANES][3];
  ip_frame *frames;         /* call stack; innermost at [n_frames-1] */
  uint32_t n_frames, cap_frames;
  uint8_t *regs;            /* == frames[n_frames-1].regs (hot copy) */
  uint8_t *priv[IP_MAX_LANES];   /* private memory per lane */
  uint64_t priv_size, priv_used;
  bool done;
  bool resumed;             /* set when a suspended rendezvous is released */
  uint64_t steps;
  const ip_op *cur;         /* the op being executed (for diagnostics) */
};

struct ip_wg {
  ip_launch *launch;
  uint32_t group[3];        /* work-group id */
  size_t local_size[3];     /* actual (edge groups may be smaller) */
  uint32_t n_items;
  uint32_t n_subgroups;
  ip_sg *sgs;
  ip_region *local;         /* local allocations, indexed region - local_base */
  uint32_t n_local;
  uint8_t *scratch;         /* rendezvous exchange: IP_WG_SCRATCH bytes per work-item */
  /* printf output of this work-group, flushed in work-group order */
  char *out; size_t out_len, out_cap;
  uint32_t rendezvous_waiting;
  const ld_insn *rendezvous_insn;
};
#define IP_WG_SCRATCH 128u

/* ---- accessors for handlers ---- */

static inline uint8_t *ip_res(const ip_sg *sg, const ip_op *op, uint32_t lane) {
  return sg->regs + (size_t)op->res_off * sg->size + (size_t)lane * op->res_size;
}
static inline const uint8_t *ip_in(const ip_sg *sg, const ip_op *op, uint32_t i, uint32_t lane) {
  const ip_opnd *o = &op->in[i];
  return o->cbase ? o->cbase : sg->regs + (size_t)o->off * sg->size + (size_t)lane * o->size;
}
/* Lane-0 base and lane stride of an operand (stride 0 for constants). */
static inline const uint8_t *ip_in_base(const ip_sg *sg, const ip_op *op, uint32_t i, size_t *stride) {
  const ip_opnd *o = &op->in[i];
  if (o->cbase) { *stride = 0; return o->cbase; }
  *stride = o->size;
  return sg->regs + (size_t)o->off * sg->size;
}
static inline uint64_t ip_load_uint(const void *p, uint32_t size) {
  switch (size) {
  case 1: return *(const uint8_t *)p;
  case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
  case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
  default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}
/* An operand read as an unsigned integer (pointer, index, scope ...). */
static inline uint64_t ip_in_uint(const ip_sg *sg, const ip_op *op, uint32_t i, uint32_t lane) {
  return ip_load_uint(ip_in(sg, op, i, lane), op->in[i].size);
}

/* ---- memory ---- */

typedef enum ip_access { IP_READ, IP_WRITE, IP_ATOMIC } ip_access;

/* Resolves lane's address for an access of `size` bytes needing `align`.
 * Returns a host pointer, or NULL after recording the fault (kind chosen
 * here: null, out-of-bounds, misaligned, read-only).  The caller then reads
 * zeros / skips the write. */
void *ip_mem(ip_sg *sg, uint32_t lane, uint64_t addr, uint64_t size, uint32_t align,
             ip_access access);
const ip_addr_layout *ip_layout(const ip_sg *sg);
/* Region descriptor for an address in this subgroup's context (NULL if none). */
const ip_region *ip_region_of(const ip_sg *sg, uint32_t lane, uint64_t addr);

/* ---- diagnostics ---- */

/* Records a fault at the current op for `lanes`.  Returns IP_HALT if the launch
 * must stop (stop_on_fault), else IP_NEXT. */
int ip_fault(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, uint64_t addr,
             const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Undefined behaviour at the current op: recorded once per (site, kind) per
 * launch.  Returns IP_HALT under --ub=error, else IP_NEXT; the handler then
 * produces the documented value (docs/semantics.md). */
int ip_ub(ip_sg *sg, ip_diag_kind kind, ip_mask lanes, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- work-group rendezvous (barriers and work-group collectives) ----
 *
 * First call for an instruction: marks this subgroup as arrived and returns
 * false; the handler returns IP_SUSPEND.  Write this subgroup's lanes into
 * ip_wg_scratch() before the call.  When every unfinished subgroup of the
 * work-group has arrived, all are released and their handlers run again;
 * this time the call returns true (and clears the arrival), and the handler
 * can read every work-item's scratch and return IP_NEXT. */
bool ip_wg_rendezvous(ip_sg *sg);
static inline uint8_t *ip_wg_scratch(ip_wg *wg, uint32_t local_linear) {
  return wg->scratch + (size_t)local_linear * IP_WG_SCRATCH;
}

/* ---- output (printf) ---- */
void ip_out_write(ip_sg *sg, const char *text, size_t len);

/* ---- built-in values of a lane (SpvBuiltIn), written as the variable's
 * type (size bytes).  False for unknown built-ins. ---- */
bool ip_builtin_value(const ip_sg *sg, uint32_t lane, SpvBuiltIn b, void *out, uint32_t size);

/* ---- images (exec_image.c) ---- */
/* The image argument behind an image operand's handle (its region address),
 * or NULL when the handle is not an image argument. */
const ip_arg *ip_image_arg(const ip_sg *sg, uint64_t handle);
/* Bytes per pixel of an image description, 0 if the format is unknown. */
uint32_t ip_image_pixel_size(const ip_image_desc *d);

/* ---- family lookups: return the handler for an instruction, or NULL if the
 * instruction is not in the family.  May set op->aux / op->aux_ptr. ---- */
ip_handler *ip_lookup_control(const ld_module *m, const ld_insn *in, ip_op *op);
ip_handler *ip_lookup_memory(const ld_module *m, const ld_insn *in, ip_op *op);
ip_handler *ip_lookup_arith(const ld_module *m, const ld_insn *in, ip_op *op);
ip_handler *ip_lookup_ocl(const ld_module *m, const ld_insn *in, ip_op *op);
ip_handler *ip_lookup_subgroup(const ld_module *m, const ld_insn *in, ip_op *op);
ip_handler *ip_lookup_intel(const ld_module *m, const ld_insn *in, ip_op *op);
ip_handler *ip_lookup_image(const ld_module *m, const ld_insn *in, ip_op *op);

/* Scalar helpers shared by families (exec_arith.c). */
double ip_half_to_double(uint16_t h);
uint16_t ip_double_to_half(double d);   /* round to nearest even */
uint16_t ip_float_to_half(float f);
float ip_half_to_float(uint16_t h);

#endif
