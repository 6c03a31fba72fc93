/* cf_gen.c - the kernel generator and the input generator.
 *
 * One OpenCL C file per operation family holds one kernel per
 * (operation, type, control-flow pattern, constant variant); it is compiled
 * once per -O level and reused across every subgroup size and launch shape.
 * Every kernel has the same interface, so one launcher fits all:
 *
 *   k(global const T *in, global const T *in2, global R *out,
 *     global const int *sel, global const uint *aux, uint p, uint4 q)
 *
 * (block I/O kernels: k(global const T *in, global R *out, global E *blk, uint p)).
 * Work-item i (linear global id, x fastest) writes out[i*CF_NSLOT + slot]
 * once per call of the operation; the slot says which call it was.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cf.h"

/* ------------------------------------------------------------- text buffer */

typedef struct sbuf { char *p; size_t len, cap; bool oom; } sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
  va_list ap;
  if (b->oom)
    return;
  for (;;) {
    size_t room = b->cap - b->len;
    va_start(ap, fmt);
    int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
    va_end(ap);
    if (n < 0) { b->oom = true; return; }
    if (b->p && (size_t)n < room) { b->len += (size_t)n; return; }
    size_t cap = b->cap ? b->cap * 2 : 65536;
    while (cap < b->len + (size_t)n + 1)
      cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) { b->oom = true; return; }
    b->p = q;
    b->cap = cap;
  }
}

/* ------------------------------------------------------ kernel enumeration */

static bool vec_allowed(const cf_op *op, cf_type t)
{
  /* cl_intel_subgroups: vectors of float, int, uint (and short, ushort from
   * cl_intel_subgroups_short); long, ulong, half, double only as scalars */
  if (t.vec > 1 && op->fam == CF_FAM_INTEL && (t.s == CF_LONG || t.s == CF_ULONG ||
                                              t.s == CF_HALF || t.s == CF_DOUBLE ||
                                              t.s == CF_CHAR || t.s == CF_UCHAR))
    return false;
  return t.vec == 1 || (op->vectors >> t.vec & 1);
}

/* Reduced set: an integer and a floating-point type (and one vector where
 * vectors are allowed), the uniform pattern plus two divergent ones, two
 * variants. */
static bool reduced_type(const cf_op *op, cf_type t)
{
  static const cf_scalar int_pref[] = {CF_INT, CF_UINT, CF_SHORT, CF_USHORT, CF_CHAR, CF_UCHAR, CF_LONG, CF_ULONG};
  cf_scalar first_int = CF_N_SCALARS;
  for (size_t i = 0; i < sizeof int_pref / sizeof int_pref[0]; ++i)
    if (op->scalars & CF_TS(int_pref[i])) { first_int = int_pref[i]; break; }
  if (t.vec == 1)
    return t.s == first_int || (t.s == CF_FLOAT && (op->scalars & CF_TS(CF_FLOAT))) ||
           (t.s == CF_USHORT && (op->scalars & CF_TS(CF_USHORT)) && first_int != CF_USHORT &&
            op->fam == CF_FAM_INTEL_BLOCK);
  return (t.vec == 3 && t.s == CF_INT) || (t.vec == 4 && t.s == CF_FLOAT && op->fam != CF_FAM_EXT_TYPES) ||
         (t.vec == 16 && t.s == CF_CHAR);
}

void cf_for_each_kernel(cf_family fam, bool reduced, cf_kernel_fn fn, void *user)
{
  static const uint32_t vecs[] = {1, 2, 3, 4, 8, 16};
  for (uint32_t o = 0; o < cf_n_ops; ++o) {
    const cf_op *op = &cf_ops[o];
    if (op->fam != fam)
      continue;
    for (uint32_t s = 0; s < CF_N_SCALARS; ++s) {
      if (!(op->scalars & CF_TS(s)))
        continue;
      for (size_t vi = 0; vi < sizeof vecs / sizeof vecs[0]; ++vi) {
        cf_type t = {(cf_scalar)s, vecs[vi]};
        if (!vec_allowed(op, t) || (reduced && !reduced_type(op, t)))
          continue;
        for (uint32_t f = 0; f < CF_N_FLOWS; ++f) {
          if (f != CF_FLOW_UNIFORM && !op->nonuniform)
            continue;
          if (reduced && f == CF_FLOW_NESTED)
            continue;
          uint32_t nv = op->n_variants ? op->n_variants : 1;
          for (uint32_t v = 0; v < nv; ++v) {
            int var = op->n_variants ? op->variants[v] : 0;
            if (reduced && op->n_variants && v != 1 && v != 3)
              continue;
            fn(user, op, t, (cf_flow)f, var);
          }
        }
      }
    }
  }
}

/* ---------------------------------------------------------- kernel source */

typedef struct gen_ctx { sbuf *b; uint32_t n; } gen_ctx;

static const char *result_type(const cf_op *op, cf_type t, int variant, char *buf, size_t size)
{
  switch (op->res) {
  case CF_RES_T:
    if (cf_sig_is_block(op->sig)) {
      cf_type v = {t.s, (uint32_t)variant};
      return cf_type_name(v, buf, size);
    }
    return cf_type_name(t, buf, size);
  case CF_RES_BOOL: return "int";
  case CF_RES_UINT: return "uint";
  case CF_RES_UINT4: case CF_RES_MASK: return "uint4";
  }
  return "int";
}

/* The call expression; `alt` selects the else-branch data (x and y swapped),
 * so the two branches of an if/else never hold identical calls a compiler
 * could hoist. */
static void call_expr(const cf_op *op, int variant, bool alt, char *buf, size_t size)
{
  const char *x = alt ? "y" : "x", *y = alt ? "x" : "y";
  switch (op->sig) {
  case CF_SIG_X: case CF_SIG_PRED:
    if (op->sem == CF_SEM_CLUSTERED)   /* logical clustered reductions */
      snprintf(buf, size, "%s(%s, %du)", op->spell, x, variant);
    else
      snprintf(buf, size, "%s(%s)", op->spell, x);
    break;
  case CF_SIG_XP:
    if (op->sem == CF_SEM_ROTATE)
      snprintf(buf, size, "%s(%s, (int)p)", op->spell, x);
    else
      snprintf(buf, size, "%s(%s, p)", op->spell, x);
    break;
  case CF_SIG_XA: snprintf(buf, size, "%s(%s, a)", op->spell, x); break;
  case CF_SIG_XV: snprintf(buf, size, "%s(%s, %du)", op->spell, x, variant); break;
  case CF_SIG_XPV: snprintf(buf, size, "%s(%s, (int)p, %du)", op->spell, x, variant); break;
  case CF_SIG_XYA: snprintf(buf, size, "%s(%s, %s, a)", op->spell, x, y); break;
  case CF_SIG_Q: snprintf(buf, size, "%s(%s)", op->spell, alt ? "q.yzwx" : "q"); break;
  case CF_SIG_QA: snprintf(buf, size, "%s(%s, a)", op->spell, alt ? "q.yzwx" : "q"); break;
  case CF_SIG_VOID: snprintf(buf, size, "%s()", op->spell); break;
  default: snprintf(buf, size, "0"); break;
  }
}

static void gen_kernel(void *user, const cf_op *op, cf_type t, cf_flow f, int variant)
{
  gen_ctx *g = user;
  sbuf *b = g->b;
  cf_case c = {.op = op, .type = t, .flow = f, .variant = variant};
  char name[160], tn[32], rbuf[32];
  cf_kernel_name(&c, name, sizeof name);
  cf_type_name(t, tn, sizeof tn);
  const char *rn = result_type(op, t, variant, rbuf, sizeof rbuf);
  g->n++;
  if (cf_sig_is_image(op->sig)) {
    /* one full subgroup per launch: item i is lane i */
    char fn[64];
    if (variant == 1)
      snprintf(fn, sizeof fn, "%s", op->spell);
    else
      snprintf(fn, sizeof fn, "%s%d", op->spell, variant);
    if (op->sig == CF_SIG_IMG_BLOCK_READ)
      sb_printf(b, "__kernel void %s(__read_only image2d_t img, __global %s *out, int cx, int cy)\n{\n"
                   "  uint i = (uint)get_global_id(0);\n"
                   "  out[i * %uu] = %s(img, (int2)(cx, cy));\n}\n\n", name, rn, CF_NSLOT, fn);
    else
      sb_printf(b, "__kernel void %s(__write_only image2d_t img, __global %s *out, __global const %s *in, int cx, int cy)\n{\n"
                   "  uint i = (uint)get_global_id(0);\n  %s x = in[i];\n"
                   "  %s(img, (int2)(cx, cy), x);\n  out[i * %uu] = x;\n}\n\n", name, rn, rn, rn, fn, CF_NSLOT);
    return;
  }
  if (op->sig == CF_SIG_BLOCK_READ || op->sig == CF_SIG_BLOCK_WRITE) {
    const char *es = cf_scalars[t.s].name;
    char fn[64];
    if (variant == 1)
      snprintf(fn, sizeof fn, "%s", op->spell);
    else
      snprintf(fn, sizeof fn, "%s%d", op->spell, variant);
    sb_printf(b, "__kernel void %s(__global const %s *in, __global %s *out, __global %s *blk, uint p)\n{\n"
                 "  uint i = (uint)((get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0));\n"
                 "  uint wg = (uint)((get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0));\n"
                 "  uint key = wg * get_enqueued_num_sub_groups() + get_sub_group_id();\n",
             name, rn, rn, es);
    if (op->sig == CF_SIG_BLOCK_READ)
      sb_printf(b, "  out[i * %uu] = %s(blk + key * p);\n}\n\n", CF_NSLOT, fn);
    else
      sb_printf(b, "  %s(blk + key * p, in[i]);\n  out[i * %uu] = in[i];\n}\n\n", fn, CF_NSLOT);
    return;
  }
  if (op->sig == CF_SIG_BARRIER) {
    /* cl_khr_subgroups: sub_group_barrier orders the subgroup's work-items'
     * accesses to local memory.  Each lane writes its slot, the barrier,
     * then it reads another lane's slot of the same subgroup (subgroups are
     * consecutive linear local ids, so lane 0's slot is lid - lane); a
     * second round after another barrier overwrites every slot. */
    static const char *const forms[] = {
      "", "sub_group_barrier(CLK_LOCAL_MEM_FENCE)",
      "sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)",
      "sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group)",
      "sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group)"};
    const char *bar = forms[variant >= 1 && variant <= 4 ? variant : 1];
    sb_printf(b, "__kernel void %s(__global const %s *in, __global const %s *in2, __global %s *out,\n"
                 "    __global const int *sel, __global const uint *aux, uint p, uint4 q)\n{\n"
                 "  __local %s buf[%u];\n"
                 "  uint i = (uint)((get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0));\n"
                 "  uint lid = (uint)get_local_linear_id(), l = get_sub_group_local_id(), n = get_sub_group_size();\n"
                 "  uint base = lid - l, a = aux[i];\n"
                 "  buf[lid] = in[i];\n  %s;\n"
                 "  %s r0 = buf[base + (l + a %% n) %% n];\n  %s;\n"
                 "  buf[lid] = in2[i];\n  %s;\n"
                 "  out[i * %uu] = r0;\n  out[i * %uu + 1] = buf[base + n - 1 - l];\n}\n\n",
             name, tn, tn, rn, tn, CF_BARRIER_LOCAL, bar, tn, bar, bar, CF_NSLOT, CF_NSLOT);
    return;
  }
  char e0[160], e1[160];
  call_expr(op, variant, false, e0, sizeof e0);
  call_expr(op, variant, true, e1, sizeof e1);
  sb_printf(b, "__kernel void %s(__global const %s *in, __global const %s *in2, __global %s *out,\n"
               "    __global const int *sel, __global const uint *aux, uint p, uint4 q)\n{\n"
               "  uint i = (uint)((get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0));\n"
               "  %s x = in[i], y = in2[i];\n  int s = sel[i];\n  uint a = aux[i];\n"
               "  (void)x; (void)y; (void)s; (void)a; (void)p; (void)q;\n",
           name, tn, tn, rn, tn);
  switch (f) {
  case CF_FLOW_UNIFORM:
    sb_printf(b, "  out[i * %uu] = %s;\n", CF_NSLOT, e0);
    break;
  case CF_FLOW_IFELSE:
    /* The else arm is "else if (s & 4)": with identical calls in both arms
     * (elect, the masks) clang -O2 hoists the call above the branch, which
     * LLVM's convergent attribute allows; a condition first keeps them apart. */
    sb_printf(b, "  if (s & 1)\n    out[i * %uu] = %s;\n  else if (s & 4)\n    out[i * %uu + 1] = %s;\n",
              CF_NSLOT, e0, CF_NSLOT, e1);
    break;
  case CF_FLOW_NESTED:
    sb_printf(b, "  if (s & 1) {\n    out[i * %uu] = %s;\n    if (s & 2)\n      out[i * %uu + 1] = %s;\n  }\n",
              CF_NSLOT, e0, CF_NSLOT, e1);
    break;
  case CF_FLOW_LOOP:
    sb_printf(b, "  for (int j = 0; j < (s & 3); ++j)\n    out[i * %uu + j] = %s;\n", CF_NSLOT, e0);
    break;
  default:
    break;
  }
  sb_printf(b, "}\n\n");
}

char *cf_gen_family_source(cf_family fam, bool reduced, uint32_t *out_n_kernels)
{
  sbuf b = {0};
  gen_ctx g = {&b, 0};
  sb_printf(&b, "/* generated by spirv-sgconform: family %s (%s)%s */\n"
                "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\n",
            cf_families[fam].name, cf_families[fam].extension, reduced ? ", reduced set" : "");
  cf_for_each_kernel(fam, reduced, gen_kernel, &g);
  if (b.oom) {
    free(b.p);
    return NULL;
  }
  *out_n_kernels = g.n;
  return b.p;
}

/* ------------------------------------------------------------------ inputs */

static uint64_t rng_next(uint64_t *s)
{
  /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint16_t half_from_exact(double v)
{
  /* v is exactly representable as a normal half or zero (the generator only
   * produces such values) */
  if (v == 0)
    return 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  if (v < 0)
    v = -v;
  int e = 0;
  while (v >= 2) { v /= 2; ++e; }
  while (v < 1) { v *= 2; --e; }
  uint16_t mant = (uint16_t)((v - 1) * 1024);
  return (uint16_t)(sign | (uint16_t)((e + 15) << 10) | mant);
}

static void put_float(cf_scalar s, double v, uint8_t *dst)
{
  if (s == CF_HALF) {
    uint16_t h = half_from_exact(v);
    memcpy(dst, &h, 2);
  } else if (s == CF_FLOAT) {
    float f = (float)v;
    memcpy(dst, &f, 4);
  } else {
    memcpy(dst, &v, 8);
  }
}

/* One component of x for the operation: values for which every evaluation
 * order the specification permits gives the same result (floating-point sums
 * of small integers, products of powers of two), no NaN, no -0. */
static void gen_component(const cf_case *c, uint64_t *rng, uint8_t *dst)
{
  const cf_op *op = c->op;
  cf_scalar s = c->type.s;
  uint32_t bytes = cf_scalars[s].bytes;
  uint64_t r = rng_next(rng);
  if (op->sig == CF_SIG_PRED) {
    int32_t v;
    switch (op->sem) {
    case CF_SEM_ALL: v = (r % 16) ? (int32_t)((r >> 8) | 1) : 0; break;
    case CF_SEM_ANY: v = (r % 16) ? 0 : (int32_t)((r >> 8) | 1); break;
    default: v = (r % 2) ? 0 : ((r >> 8) % 4 ? 1 : -7); break;
    }
    memcpy(dst, &v, 4);
    return;
  }
  if (op->sem == CF_SEM_ALL_EQUAL) {
    memset(dst, 0, bytes);
    if (r % 32 == 0) {
      if (cf_scalars[s].kind == 'f')
        put_float(s, 1.0, dst);
      else
        dst[0] = 1;
    }
    return;
  }
  if (cf_scalars[s].kind != 'f') {
    memcpy(dst, &r, bytes);
    return;
  }
  double v;
  if (op->arith == CF_A_ADD)
    v = (double)((int)(r % 33) - 16);
  else if (op->arith == CF_A_MUL) {
    if (s == CF_HALF)
      v = (r & 1) ? 1.0 : -1.0;
    else {
      static const double m[] = {0.5, 1, 2, -1, 1, -2, 1, 0.5};
      v = m[r % 8];
    }
  } else if (s == CF_HALF)
    v = (double)((int)(r % 257) - 128) / 4.0;
  else
    v = (double)((int)(r % 2001) - 1000) / 8.0;
  put_float(s, v, dst);
}

void cf_gen_inputs(const cf_case *c, const cf_geom *g, const cf_item *items, cf_inputs *in)
{
  (void)items;
  memset(in, 0, sizeof *in);
  char name[256];
  cf_case seedc = *c;
  seedc.olevel = 0;
  seedc.backend = 0;
  cf_case_name(&seedc, name, sizeof name);
  uint64_t rng = 1469598103934665603ull;
  for (const char *p = name; *p; ++p)
    rng = (rng ^ (uint8_t)*p) * 1099511628211ull;

  uint32_t n = cf_geom_items(g), S = g->S;
  in->n = n;
  bool block = cf_sig_is_block(c->op->sig);
  in->esize = block ? cf_result_size(c) : cf_type_size(c->type);
  in->x = calloc(n ? n : 1, in->esize);
  in->y = calloc(n ? n : 1, in->esize);
  in->sel = calloc(n ? n : 1, sizeof *in->sel);
  in->aux = calloc(n ? n : 1, sizeof *in->aux);
  if (!in->x || !in->y || !in->sel || !in->aux)
    return;   /* the caller checks */
  uint32_t ncomp = block ? (uint32_t)c->variant : c->type.vec == 3 ? 4 : c->type.vec;
  uint32_t cb = cf_scalars[c->type.s].bytes;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t k = 0; k < ncomp; ++k) {
      gen_component(c, &rng, in->x + (size_t)i * in->esize + k * cb);
      gen_component(c, &rng, in->y + (size_t)i * in->esize + k * cb);
    }
    if (!block && c->type.vec == 3) {   /* the padding component is never read back */
      memset(in->x + (size_t)i * in->esize + 3 * cb, 0, cb);
      memset(in->y + (size_t)i * in->esize + 3 * cb, 0, cb);
    }
    uint64_t r = rng_next(&rng);
    in->sel[i] = (int32_t)(r & 0xff);
    uint32_t a = (uint32_t)(r >> 32);
    switch (c->op->sem) {
    case CF_SEM_SHUFFLE: case CF_SEM_ISHUFFLE:
      in->aux[i] = (a % 16 == 0) ? a % (2 * S) : a % S; break;
    case CF_SEM_SHUFFLE_XOR: case CF_SEM_ISHUFFLE_XOR:
    case CF_SEM_BIT_EXTRACT:
      in->aux[i] = a % S; break;
    case CF_SEM_ISHUFFLE_UP: case CF_SEM_ISHUFFLE_DOWN:
      in->aux[i] = a % (S + 1); break;
    default:
      in->aux[i] = a; break;
    }
  }
  in->p = c->p;
  for (int k = 0; k < 4; ++k) {
    uint32_t w = (uint32_t)rng_next(&rng);
    uint32_t lo = 32u * (uint32_t)k;
    if (S <= lo)
      w = 0;
    else if (S < lo + 32)
      w &= (1u << (S - lo)) - 1;
    in->q[k] = w;
  }
  if (cf_sig_is_image(c->op->sig)) {
    /* the image (4-byte pixels, rows row_pitch bytes apart) in block; the
     * byte coordinate in q[0], q[1] */
    cf_img_scn sc;
    cf_image_scenario(c->p, S, &sc);
    in->q[0] = (uint32_t)sc.cx;
    in->q[1] = (uint32_t)sc.cy;
    in->q[2] = in->q[3] = 0;
    uint32_t bytes = sc.row_pitch * sc.height, eb = cf_scalars[c->type.s].bytes;
    in->n_block = bytes / eb;   /* elements of the block type */
    in->block = calloc(in->n_block ? in->n_block : 1, 8);
    if (!in->block)
      return;
    for (uint32_t k = 0; k < bytes / 4; ++k)
      in->block[k] = (uint32_t)rng_next(&rng);
  } else if (block) {
    /* p is the per-subgroup stride in elements, a multiple of 16 bytes */
    uint32_t eb = cf_scalars[c->type.s].bytes, per16 = 16 / eb;
    uint32_t stride = (S * (uint32_t)c->variant + per16 - 1) / per16 * per16;
    in->p = stride;
    size_t n_wg = 1;
    for (int d = 0; d < 3; ++d)
      n_wg *= (g->global[d] + g->local[d] - 1) / g->local[d];
    uint32_t enq = (uint32_t)((g->local[0] * g->local[1] * g->local[2] + S - 1) / S);
    in->n_block = (uint32_t)(n_wg * enq * stride);
    in->block = calloc(in->n_block ? in->n_block : 1, 8);   /* up to ulong elements */
    if (!in->block)
      return;
    for (uint32_t k = 0; k < in->n_block; ++k) {
      uint64_t v = c->op->sig == CF_SIG_BLOCK_READ ? rng_next(&rng) : 0xDEADBEEFDEADBEEFull;
      memcpy((uint8_t *)in->block + (size_t)k * eb, &v, eb);
    }
  }
}

void cf_inputs_free(cf_inputs *in)
{
  free(in->x);
  free(in->y);
  free(in->sel);
  free(in->aux);
  free(in->block);
  memset(in, 0, sizeof *in);
}

bool cf_case_valid(const cf_case *c)
{
  if (c->op->pow2_variant && (uint32_t)c->variant > c->S)
    return false;   /* a cluster larger than the subgroup is undefined */
  if (cf_sig_is_image(c->op->sig)) {
    if (c->p >= CF_IMG_N_SCENARIOS)
      return false;
    cf_img_scn sc;
    cf_image_scenario(c->p, c->S, &sc);
    if (sc.read_only && c->op->sig == CF_SIG_IMG_BLOCK_WRITE)
      return false;   /* a block write's x must be a multiple of four */
    if (c->type.s != CF_UINT && c->p != 0 && c->p != 4)
      return false;   /* _us: out-of-bounds behaviour is not in the seed text */
  }
  return true;
}

/* ------------------------------------------------- SPIR-V assembly kernels */

/* The cl_intel_subgroups_char / _long built-ins clang-15 does not declare
 * (8-bit shuffles, _uc and _ul block I/O) are generated as SPIR-V assembly:
 * one module per family, assembled at load time by the library
 * (sg_module_load_file on the .spvasm).  Kernels have the same parameters as
 * the OpenCL C ones, so the runner and the verifiers are shared; control flow
 * is uniform only. */

static const char *spv_tname(uint32_t eb, uint32_t n, char *buf, size_t size)
{
  const char *e = eb == 1 ? "uchar" : "ulong";
  if (n <= 1)
    snprintf(buf, size, "%s", e);
  else
    snprintf(buf, size, "v%u%s", n, e);
  return buf;
}

static void spv_entry(void *user, const cf_op *op, cf_type t, cf_flow f, int variant)
{
  gen_ctx *g = user;
  cf_case c = {.op = op, .type = t, .flow = f, .variant = variant};
  char name[160];
  cf_kernel_name(&c, name, sizeof name);
  sb_printf(g->b, "OpEntryPoint Kernel %%k%u \"%s\" %%gid %%gsz %%wid %%nwg %%nesg %%sgid\n", g->n++, name);
}

/* Appends fmt with every '@' replaced by the kernel's id prefix "kN". */
static void spv_emit(sbuf *b, uint32_t k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void spv_emit(sbuf *b, uint32_t k, const char *fmt, ...)
{
  char tmp[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof tmp) {
    b->oom = true;
    return;
  }
  const char *p = tmp;
  for (const char *q; (q = strchr(p, '@')); p = q + 1)
    sb_printf(b, "%.*sk%u", (int)(q - p), p, k);
  sb_printf(b, "%s", p);
}

static void spv_kernel(void *user, const cf_op *op, cf_type t, cf_flow f, int variant)
{
  gen_ctx *g = user;
  sbuf *b = g->b;
  uint32_t k = g->n++, eb = cf_scalars[t.s].bytes;
  bool block = op->sig == CF_SIG_BLOCK_READ || op->sig == CF_SIG_BLOCK_WRITE;
  uint32_t n = block ? (uint32_t)variant : t.vec;
  char T[32], E[32];
  spv_tname(eb, n, T, sizeof T);
  spv_tname(eb, 1, E, sizeof E);
  (void)f;
  if (block)
    spv_emit(b, k, "%%@ = OpFunction %%void None %%fb_%s\n%%@_in = OpFunctionParameter %%p_%s\n"
                   "%%@_out = OpFunctionParameter %%p_%s\n%%@_blk = OpFunctionParameter %%p_%s\n"
                   "%%@_p = OpFunctionParameter %%uint\n", T, T, T, E);
  else
    spv_emit(b, k, "%%@ = OpFunction %%void None %%fs_%s\n%%@_in = OpFunctionParameter %%p_%s\n"
                   "%%@_in2 = OpFunctionParameter %%p_%s\n%%@_out = OpFunctionParameter %%p_%s\n"
                   "%%@_sel = OpFunctionParameter %%p_uint\n%%@_aux = OpFunctionParameter %%p_uint\n"
                   "%%@_p = OpFunctionParameter %%uint\n%%@_q = OpFunctionParameter %%v4uint\n", T, T, T, T);
  /* i: linear global id, x fastest; results go to out[i * CF_NSLOT] */
  spv_emit(b, k, "%%@_e = OpLabel\n%%@_g = OpLoad %%v3ulong %%gid\n%%@_s = OpLoad %%v3ulong %%gsz\n"
                 "%%@_g0 = OpCompositeExtract %%ulong %%@_g 0\n%%@_g1 = OpCompositeExtract %%ulong %%@_g 1\n"
                 "%%@_g2 = OpCompositeExtract %%ulong %%@_g 2\n%%@_s0 = OpCompositeExtract %%ulong %%@_s 0\n"
                 "%%@_s1 = OpCompositeExtract %%ulong %%@_s 1\n%%@_t1 = OpIMul %%ulong %%@_g2 %%@_s1\n"
                 "%%@_t2 = OpIAdd %%ulong %%@_t1 %%@_g1\n%%@_t3 = OpIMul %%ulong %%@_t2 %%@_s0\n"
                 "%%@_i = OpIAdd %%ulong %%@_t3 %%@_g0\n%%@_o = OpIMul %%ulong %%@_i %%ulong_%u\n"
                 "%%@_po = OpInBoundsPtrAccessChain %%p_%s %%@_out %%@_o\n", CF_NSLOT, T);
  if (block) {
    /* key = linear work-group id * get_enqueued_num_sub_groups() + get_sub_group_id() */
    spv_emit(b, k, "%%@_w = OpLoad %%v3ulong %%wid\n%%@_nw = OpLoad %%v3ulong %%nwg\n"
                   "%%@_w0 = OpCompositeExtract %%ulong %%@_w 0\n%%@_w1 = OpCompositeExtract %%ulong %%@_w 1\n"
                   "%%@_w2 = OpCompositeExtract %%ulong %%@_w 2\n%%@_n0 = OpCompositeExtract %%ulong %%@_nw 0\n"
                   "%%@_n1 = OpCompositeExtract %%ulong %%@_nw 1\n%%@_u1 = OpIMul %%ulong %%@_w2 %%@_n1\n"
                   "%%@_u2 = OpIAdd %%ulong %%@_u1 %%@_w1\n%%@_u3 = OpIMul %%ulong %%@_u2 %%@_n0\n"
                   "%%@_wg = OpIAdd %%ulong %%@_u3 %%@_w0\n%%@_ne32 = OpLoad %%uint %%nesg\n"
                   "%%@_sg32 = OpLoad %%uint %%sgid\n%%@_ne = OpUConvert %%ulong %%@_ne32\n"
                   "%%@_sg = OpUConvert %%ulong %%@_sg32\n%%@_v1 = OpIMul %%ulong %%@_wg %%@_ne\n"
                   "%%@_key = OpIAdd %%ulong %%@_v1 %%@_sg\n%%@_pp = OpUConvert %%ulong %%@_p\n"
                   "%%@_off = OpIMul %%ulong %%@_key %%@_pp\n"
                   "%%@_ptr = OpInBoundsPtrAccessChain %%p_%s %%@_blk %%@_off\n", E);
    if (op->sig == CF_SIG_BLOCK_READ)
      spv_emit(b, k, "%%@_r = OpSubgroupBlockReadINTEL %%%s %%@_ptr\nOpStore %%@_po %%@_r\n", T);
    else
      spv_emit(b, k, "%%@_px = OpInBoundsPtrAccessChain %%p_%s %%@_in %%@_i\n%%@_x = OpLoad %%%s %%@_px\n"
                     "OpSubgroupBlockWriteINTEL %%@_ptr %%@_x\nOpStore %%@_po %%@_x\n", T, T);
  } else {
    const char *opc = op->sem == CF_SEM_ISHUFFLE ? "OpSubgroupShuffleINTEL"
                      : op->sem == CF_SEM_ISHUFFLE_XOR ? "OpSubgroupShuffleXorINTEL"
                      : op->sem == CF_SEM_ISHUFFLE_UP ? "OpSubgroupShuffleUpINTEL"
                                                      : "OpSubgroupShuffleDownINTEL";
    spv_emit(b, k, "%%@_px = OpInBoundsPtrAccessChain %%p_%s %%@_in %%@_i\n%%@_x = OpLoad %%%s %%@_px\n"
                   "%%@_py = OpInBoundsPtrAccessChain %%p_%s %%@_in2 %%@_i\n%%@_y = OpLoad %%%s %%@_py\n"
                   "%%@_pa = OpInBoundsPtrAccessChain %%p_uint %%@_aux %%@_i\n%%@_a = OpLoad %%uint %%@_pa\n",
             T, T, T, T);
    if (op->sig == CF_SIG_XYA)   /* (previous, current, delta) / (current, next, delta) */
      spv_emit(b, k, "%%@_r = %s %%%s %%@_x %%@_y %%@_a\n", opc, T);
    else
      spv_emit(b, k, "%%@_r = %s %%%s %%@_x %%@_a\n", opc, T);
    spv_emit(b, k, "OpStore %%@_po %%@_r\n");
  }
  sb_printf(b, "OpReturn\nOpFunctionEnd\n");
}

bool cf_family_is_spvasm(cf_family fam)
{
  return fam == CF_FAM_INTEL_SPV;
}

char *cf_gen_family_spvasm(cf_family fam, bool reduced, uint32_t *out_n_kernels)
{
  static const uint32_t ns[] = {1, 2, 4, 8, 16};
  sbuf b = {0};
  gen_ctx g = {&b, 0};
  sb_printf(&b, "; generated by spirv-sgconform: family %s (%s)%s\n"
                "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int8\nOpCapability Int64\n"
                "OpCapability Vector16\nOpCapability SubgroupShuffleINTEL\n"
                "OpCapability SubgroupBufferBlockIOINTEL\nOpExtension \"SPV_INTEL_subgroups\"\n"
                "OpMemoryModel Physical64 OpenCL\n",
            cf_families[fam].name, cf_families[fam].extension, reduced ? ", reduced set" : "");
  cf_for_each_kernel(fam, reduced, spv_entry, &g);
  sb_printf(&b, "OpDecorate %%gid BuiltIn GlobalInvocationId\nOpDecorate %%gsz BuiltIn GlobalSize\n"
                "OpDecorate %%wid BuiltIn WorkgroupId\nOpDecorate %%nwg BuiltIn NumWorkgroups\n"
                "OpDecorate %%nesg BuiltIn NumEnqueuedSubgroups\nOpDecorate %%sgid BuiltIn SubgroupId\n"
                "%%void = OpTypeVoid\n%%uint = OpTypeInt 32 0\n%%ulong = OpTypeInt 64 0\n%%uchar = OpTypeInt 8 0\n"
                "%%v3ulong = OpTypeVector %%ulong 3\n%%v4uint = OpTypeVector %%uint 4\n"
                "%%p_uint = OpTypePointer CrossWorkgroup %%uint\n"
                "%%pin_v3ulong = OpTypePointer Input %%v3ulong\n%%pin_uint = OpTypePointer Input %%uint\n"
                "%%gid = OpVariable %%pin_v3ulong Input\n%%gsz = OpVariable %%pin_v3ulong Input\n"
                "%%wid = OpVariable %%pin_v3ulong Input\n%%nwg = OpVariable %%pin_v3ulong Input\n"
                "%%nesg = OpVariable %%pin_uint Input\n%%sgid = OpVariable %%pin_uint Input\n"
                "%%ulong_%u = OpConstant %%ulong %u\n",
            CF_NSLOT, CF_NSLOT);
  for (uint32_t eb = 1; eb <= 8; eb += 7)
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
      char T[32], E[32];
      spv_tname(eb, ns[i], T, sizeof T);
      spv_tname(eb, 1, E, sizeof E);
      if (ns[i] > 1)
        sb_printf(&b, "%%%s = OpTypeVector %%%s %u\n", T, E, ns[i]);
      sb_printf(&b, "%%p_%s = OpTypePointer CrossWorkgroup %%%s\n"
                    "%%fs_%s = OpTypeFunction %%void %%p_%s %%p_%s %%p_%s %%p_uint %%p_uint %%uint %%v4uint\n",
                T, T, T, T, T, T);
      if (ns[i] > 1)
        sb_printf(&b, "%%fb_%s = OpTypeFunction %%void %%p_%s %%p_%s %%p_%s %%uint\n", T, T, T, E);
    }
  sb_printf(&b, "%%fb_uchar = OpTypeFunction %%void %%p_uchar %%p_uchar %%p_uchar %%uint\n"
                "%%fb_ulong = OpTypeFunction %%void %%p_ulong %%p_ulong %%p_ulong %%uint\n");
  g.n = 0;
  cf_for_each_kernel(fam, reduced, spv_kernel, &g);
  if (b.oom) {
    free(b.p);
    return NULL;
  }
  *out_n_kernels = g.n;
  return b.p;
}
