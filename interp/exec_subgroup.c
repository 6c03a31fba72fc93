/* exec_subgroup.c - Groups (OpGroup*, Subgroup and Workgroup scope),
 * GroupNonUniform* incl. ClusteredReduce and RotateKHR, SPV_KHR_shader_ballot
 * and the kernel-query instructions.
 *
 * Operands (op->in, id operands only): in[0] is the Execution scope for every
 * OpGroup* / OpGroupNonUniform*, then the value, then the index / delta /
 * cluster size.  The GroupOperation literal is insn->ops[1].
 *
 * Non-uniform operations see exactly sg->mask.  Reading a lane that is not in
 * the mask, or an index outside [0, S), is IP_UB_INACTIVE_LANE /
 * IP_UB_INDEX_OUT_OF_RANGE and yields zero (docs/semantics.md, "Subgroup
 * operations").  Uniform collectives (OpGroup*) at Subgroup scope need every
 * existing lane: otherwise IP_UB_PARTIAL_COLLECTIVE and the result is computed
 * over the lanes that are there.
 */
#include <stdlib.h>
#include "ip_internal.h"
#include "ip_gather.h"

#define UB(kind, lanes, ...) \
  do { if (ip_ub(sg, (kind), (lanes), __VA_ARGS__) == IP_HALT) rc = IP_HALT; } while (0)

static uint32_t first_lane(const ip_sg *sg) { return ip_mask_first(sg->mask); }

static uint32_t scope_of(const ip_sg *sg, const ip_op *op) {
  return (uint32_t)ip_in_uint(sg, op, 0, first_lane(sg));
}

/* Lanes whose operand i differs from the first active lane's; *out_v gets the
 * first active lane's value. */
static ip_mask nonuniform_lanes(const ip_sg *sg, const ip_op *op, uint32_t i, uint64_t *out_v) {
  ip_mask bad = {{0, 0}};
  uint32_t f = first_lane(sg);
  *out_v = ip_in_uint(sg, op, i, f);
  if (op->in[i].cbase) return bad;
  IP_FOR_LANES(sg->mask, l)
    if (ip_in_uint(sg, op, i, l) != *out_v) ip_mask_set(&bad, l);
  return bad;
}

static int check_uniform(ip_sg *sg, const ip_op *op, uint32_t i, const char *what, uint64_t *out_v) {
  int rc = IP_NEXT;
  ip_mask bad = nonuniform_lanes(sg, op, i, out_v);
  if (!ip_mask_empty(bad))
    UB(IP_UB_NONUNIFORM, bad, "%s must be the same for every active lane (using lane %u's value %llu)",
       what, first_lane(sg), (unsigned long long)*out_v);
  return rc;
}

/* ip_gather.h.  The wording of the records is each family's own. */
int ip_gather(ip_sg *sg, const ip_op *op, const uint32_t *src, const uint8_t *from, uint32_t vi,
              const char *what, ip_gather_style style) {
  int rc = IP_NEXT;
  ip_mask oor = {{0, 0}}, inact = {{0, 0}};
  uint32_t ex_oor = 0, ex_in = 0;
  IP_FOR_LANES(sg->mask, l) {
    uint32_t s = src[l];
    uint8_t *r = ip_res(sg, op, l);
    if (s == IP_SRC_OUT_OF_RANGE || s >= sg->size) {
      if (ip_mask_empty(oor)) ex_oor = l;
      ip_mask_set(&oor, l);
      memset(r, 0, op->res_size);
    } else if (!ip_mask_test(sg->mask, s)) {
      if (ip_mask_empty(inact)) ex_in = s;
      ip_mask_set(&inact, l);
      memset(r, 0, op->res_size);
    } else {
      memcpy(r, ip_in(sg, op, from ? from[l] : vi, s), op->res_size);
    }
  }
  bool intel = style == IP_GATHER_INTEL;
  if (!ip_mask_empty(oor) && intel)
    UB(IP_UB_INDEX_OUT_OF_RANGE, oor,
       "%s index out of range for max subgroup size %u (lane %u); result 0", what, sg->size, ex_oor);
  else if (!ip_mask_empty(oor))
    UB(IP_UB_INDEX_OUT_OF_RANGE, oor, "%s selects no lane of the subgroup of size %u (lane %u); result 0",
       what, sg->size, ex_oor);
  if (!ip_mask_empty(inact) && intel)
    UB(IP_UB_INACTIVE_LANE, inact, "%s reads lane %u, which did not reach the shuffle; result 0", what, ex_in);
  else if (!ip_mask_empty(inact))
    UB(IP_UB_INACTIVE_LANE, inact, "%s reads lane %u, which is not active here; result 0", what, ex_in);
  return rc;
}

static int gather(ip_sg *sg, const ip_op *op, uint32_t vi, const uint32_t *src, const char *what) {
  return ip_gather(sg, op, src, NULL, vi, what, IP_GATHER_KHR);
}

/* ------------------------------------------------------------- arithmetic */


static bool is_uniform_group_op(SpvOp o) { return o < SpvOpGroupNonUniformElect || o >= SpvOpGroupIMulKHR; }

/* Value operand 1 of every active lane into a lane array (constants expanded). */
static const uint8_t *lane_values(const ip_sg *sg, const ip_op *op, uint32_t i, uint8_t *buf) {
  size_t stride;
  const uint8_t *b = ip_in_base(sg, op, i, &stride);
  if (stride) return b;
  for (uint32_t l = 0; l < sg->size; ++l) memcpy(buf + (size_t)l * op->in[i].size, b, op->in[i].size);
  return buf;
}

/* ------------------------------------------- work-group scope collectives */

typedef enum wg_kind { WG_ARITH, WG_ALL, WG_ANY, WG_BROADCAST } wg_kind;

static int wg_collective(ip_sg *sg, const ip_op *op, wg_kind kind, ip_group_arith ga,
                         SpvGroupOperation gop) {
  int rc = IP_NEXT;
  ip_wg *wg = sg->wg;
  const ld_type *vt = op->in[1].type;
  uint32_t vsize = op->in[1].size;
  if (vsize > IP_WG_SCRATCH) {
    rc = ip_fault(sg, IP_FAULT_UNSUPPORTED, sg->mask, 0,
                  "work-group collective on a %u-byte value (at most %u supported)", vsize, IP_WG_SCRATCH);
    IP_FOR_LANES(sg->mask, l) memset(ip_res(sg, op, l), 0, op->res_size);
    return rc;
  }
  /* Deposit: this subgroup's lanes; lanes that did not arrive contribute a
   * neutral value (their absence is diagnosed below). */
  uint8_t neutral[IP_WG_SCRATCH];
  memset(neutral, 0, sizeof neutral);
  if (kind == WG_ARITH) ip_group_arith_identity(ga, vt, neutral);
  else if (kind == WG_ALL) neutral[0] = 1;
  for (uint32_t l = 0; l < sg->n_lanes; ++l) {
    uint8_t *s = ip_wg_scratch(wg, sg->local_linear[l]);
    if (ip_mask_test(sg->mask, l)) memcpy(s, ip_in(sg, op, 1, l), vsize);
    else memcpy(s, neutral, vsize);
  }
  if (!ip_wg_rendezvous(sg)) return IP_SUSPEND;

  if (!ip_mask_eq(sg->mask, sg->all))
    UB(IP_UB_PARTIAL_COLLECTIVE, ip_mask_andnot(sg->all, sg->mask),
       "work-group collective not reached by every work-item of the work-group "
       "(missing work-items contribute the identity)");
  uint32_t n = wg->n_items;
  uint8_t *act = malloc(n ? n : 1);
  if (!act) return ip_fault(sg, IP_FAULT_UNSUPPORTED, sg->mask, 0, "out of memory");
  memset(act, 1, n);
  for (uint32_t i = 0; i < wg->n_subgroups; ++i) {
    const ip_sg *o = &wg->sgs[i];
    if (!o->done) continue;
    for (uint32_t l = 0; l < o->n_lanes; ++l)
      if (o->local_linear[l] < n) act[o->local_linear[l]] = 0;
    if (i != sg->id)
      UB(IP_UB_PARTIAL_COLLECTIVE, sg->mask,
         "work-group collective: subgroup %u finished without reaching it", i);
  }

  switch (kind) {
  case WG_ALL: case WG_ANY: {
    bool r = kind == WG_ALL;
    for (uint32_t i = 0; i < n; ++i) {
      if (!act[i]) continue;
      bool v = ip_wg_scratch(wg, i)[0] != 0;
      if (kind == WG_ALL) r = r && v; else r = r || v;
    }
    IP_FOR_LANES(sg->mask, l) *ip_res(sg, op, l) = r;
    break;
  }
  case WG_BROADCAST: {
    /* LocalId: a scalar or a 2/3-component vector of integers */
    const ip_opnd *id = &op->in[2];
    uint32_t nc = id->type && id->type->n_comp ? id->type->n_comp : 1;
    uint32_t cs = id->type && id->type->comp ? id->type->comp->size : id->size;
    uint32_t f = first_lane(sg);
    uint64_t c[3] = {0, 0, 0};
    ip_mask bad = {{0, 0}};
    for (uint32_t k = 0; k < nc && k < 3; ++k) {
      c[k] = ip_load_uint(ip_in(sg, op, 2, f) + (size_t)k * cs, cs);
      IP_FOR_LANES(sg->mask, l)
        if (ip_load_uint(ip_in(sg, op, 2, l) + (size_t)k * cs, cs) != c[k]) ip_mask_set(&bad, l);
    }
    if (!ip_mask_empty(bad))
      UB(IP_UB_NONUNIFORM, bad, "work_group_broadcast: local id must be the same for every work-item");
    bool oor = false;
    for (uint32_t k = 0; k < 3; ++k) if (c[k] >= (k < nc ? wg->local_size[k] : 1)) oor = true;
    uint64_t lin = c[0] + c[1] * wg->local_size[0] + c[2] * wg->local_size[0] * wg->local_size[1];
    const uint8_t *src = NULL;
    if (oor || lin >= n)
      UB(IP_UB_INDEX_OUT_OF_RANGE, sg->mask,
         "work_group_broadcast: local id (%llu,%llu,%llu) is outside the work-group (%zu,%zu,%zu); result 0",
         (unsigned long long)c[0], (unsigned long long)c[1], (unsigned long long)c[2],
         wg->local_size[0], wg->local_size[1], wg->local_size[2]);
    else if (!act[lin])
      UB(IP_UB_INACTIVE_LANE, sg->mask, "work_group_broadcast: work-item %llu did not reach it; result 0",
         (unsigned long long)lin);
    else
      src = ip_wg_scratch(wg, (uint32_t)lin);
    IP_FOR_LANES(sg->mask, l) {
      if (src) memcpy(ip_res(sg, op, l), src, op->res_size);
      else memset(ip_res(sg, op, l), 0, op->res_size);
    }
    break;
  }
  case WG_ARITH: {
    uint8_t *out = calloc(n ? n : 1, vsize);
    if (!out) { free(act); return ip_fault(sg, IP_FAULT_UNSUPPORTED, sg->mask, 0, "out of memory"); }
    ip_group_arith_eval_n(ga, gop, 0, vt, n, act, wg->scratch, IP_WG_SCRATCH, out);
    IP_FOR_LANES(sg->mask, l) memcpy(ip_res(sg, op, l), out + (size_t)sg->local_linear[l] * vsize, op->res_size);
    free(out);
    break;
  }
  }
  free(act);
  return rc;
}

/* ------------------------------------------------------------- handlers */

static int check_partial(ip_sg *sg, const ip_op *op, const char *what) {
  int rc = IP_NEXT;
  (void)op;
  if (!ip_mask_eq(sg->mask, sg->all))
    UB(IP_UB_PARTIAL_COLLECTIVE, ip_mask_andnot(sg->all, sg->mask),
       "%s must be reached by every work-item of the subgroup; computed over the %u active lanes",
       what, ip_mask_count(sg->mask));
  return rc;
}

static int merge_rc(int a, int b) { return a == IP_HALT || b == IP_HALT ? IP_HALT : IP_NEXT; }

/* OpGroupAll / OpGroupAny / OpGroupNonUniformAll / Any, SPV_KHR ballot votes */
static int h_vote(ip_sg *sg, const ip_op *op) {
  SpvOp o = op->insn->op;
  bool all = o == SpvOpGroupAll || o == SpvOpGroupNonUniformAll || o == SpvOpSubgroupAllKHR;
  bool khr = o == SpvOpSubgroupAllKHR || o == SpvOpSubgroupAnyKHR;
  uint32_t vi = khr ? 0 : 1;
  int rc = IP_NEXT;
  if (!khr && o <= SpvOpGroupAny) {
    if (scope_of(sg, op) == SpvScopeWorkgroup) return wg_collective(sg, op, all ? WG_ALL : WG_ANY, 0, 0);
    rc = check_partial(sg, op, all ? "sub_group_all" : "sub_group_any");
  }
  bool r = all;
  IP_FOR_LANES(sg->mask, l) {
    bool v = *ip_in(sg, op, vi, l) != 0;
    r = all ? (r && v) : (r || v);
  }
  IP_FOR_LANES(sg->mask, l) *ip_res(sg, op, l) = r;
  return rc;
}

static int h_all_equal(ip_sg *sg, const ip_op *op) {
  uint32_t vi = op->insn->op == SpvOpSubgroupAllEqualKHR ? 0 : 1;
  uint32_t f = first_lane(sg);
  bool r = true;
  IP_FOR_LANES(sg->mask, l)
    if (!ip_group_values_equal(op->in[vi].type, ip_in(sg, op, vi, f), ip_in(sg, op, vi, l))) r = false;
  IP_FOR_LANES(sg->mask, l) *ip_res(sg, op, l) = r;
  return IP_NEXT;
}

static int h_elect(ip_sg *sg, const ip_op *op) {
  uint32_t f = first_lane(sg);
  IP_FOR_LANES(sg->mask, l) *ip_res(sg, op, l) = l == f;
  return IP_NEXT;
}

/* OpGroupBroadcast, OpGroupNonUniformBroadcast, OpSubgroupReadInvocationKHR */
static int h_broadcast(ip_sg *sg, const ip_op *op) {
  SpvOp o = op->insn->op;
  uint32_t vi = o == SpvOpSubgroupReadInvocationKHR ? 0 : 1, ii = vi + 1;
  int rc = IP_NEXT;
  if (o == SpvOpGroupBroadcast) {
    if (scope_of(sg, op) == SpvScopeWorkgroup) return wg_collective(sg, op, WG_BROADCAST, 0, 0);
    rc = check_partial(sg, op, "sub_group_broadcast");
  }
  uint64_t id;
  rc = merge_rc(rc, check_uniform(sg, op, ii, "the broadcast lane id", &id));
  uint32_t src[IP_MAX_LANES];
  uint32_t s = id >= sg->size ? IP_SRC_OUT_OF_RANGE : (uint32_t)id;
  IP_FOR_LANES(sg->mask, l) src[l] = s;
  return merge_rc(rc, gather(sg, op, vi, src, "broadcast"));
}

static int h_broadcast_first(ip_sg *sg, const ip_op *op) {
  uint32_t vi = op->insn->op == SpvOpSubgroupFirstInvocationKHR ? 0 : 1;
  const uint8_t *v = ip_in(sg, op, vi, first_lane(sg));
  IP_FOR_LANES(sg->mask, l) memcpy(ip_res(sg, op, l), v, op->res_size);
  return IP_NEXT;
}

static void make_ballot(const ip_sg *sg, const ip_op *op, uint32_t vi, uint32_t b[4]) {
  memset(b, 0, 16);
  IP_FOR_LANES(sg->mask, l)
    if (*ip_in(sg, op, vi, l)) b[l / 32] |= (uint32_t)1 << (l % 32);
}

static void write_ballot(const ip_sg *sg, const ip_op *op, const uint32_t b[4]) {
  /* v4uint (OpGroupNonUniformBallot) or uvec4 / ulong (SPV_KHR_shader_ballot) */
  uint8_t bytes[16];
  memcpy(bytes, b, 16);
  IP_FOR_LANES(sg->mask, l) {
    uint8_t *r = ip_res(sg, op, l);
    memset(r, 0, op->res_size);
    memcpy(r, bytes, op->res_size < 16 ? op->res_size : 16);
  }
}

static int h_ballot(ip_sg *sg, const ip_op *op) {
  uint32_t b[4];
  make_ballot(sg, op, op->insn->op == SpvOpSubgroupBallotKHR ? 0 : 1, b);
  write_ballot(sg, op, b);
  return IP_NEXT;
}

static void read_ballot(const ip_sg *sg, const ip_op *op, uint32_t i, uint32_t lane, uint32_t b[4]) {
  memset(b, 0, 16);
  uint32_t n = op->in[i].size < 16 ? op->in[i].size : 16;
  memcpy(b, ip_in(sg, op, i, lane), n);
}

/* A ballot operand must be the same for every active lane ("Value must be
 * dynamically uniform"); each lane still uses its own value. */
static int check_ballot_uniform(ip_sg *sg, const ip_op *op, uint32_t i) {
  int rc = IP_NEXT;
  if (op->in[i].cbase) return rc;
  ip_mask bad = {{0, 0}};
  const uint8_t *f = ip_in(sg, op, i, first_lane(sg));
  IP_FOR_LANES(sg->mask, l)
    if (memcmp(f, ip_in(sg, op, i, l), op->in[i].size)) ip_mask_set(&bad, l);
  if (!ip_mask_empty(bad)) UB(IP_UB_NONUNIFORM, bad, "the ballot value must be the same for every active lane");
  return rc;
}

static int h_inverse_ballot(ip_sg *sg, const ip_op *op) {
  int rc = check_ballot_uniform(sg, op, 1);
  IP_FOR_LANES(sg->mask, l) {
    uint32_t b[4];
    read_ballot(sg, op, 1, l, b);
    *ip_res(sg, op, l) = (b[l / 32] >> (l % 32)) & 1;
  }
  return rc;
}

static int h_ballot_bit_extract(ip_sg *sg, const ip_op *op) {
  int rc = IP_NEXT;
  ip_mask oor = {{0, 0}};
  IP_FOR_LANES(sg->mask, l) {
    uint32_t b[4];
    read_ballot(sg, op, 1, l, b);
    uint64_t idx = ip_in_uint(sg, op, 2, l);
    if (idx >= 128) { ip_mask_set(&oor, l); *ip_res(sg, op, l) = 0; continue; }
    *ip_res(sg, op, l) = (b[idx / 32] >> (idx % 32)) & 1;
  }
  if (!ip_mask_empty(oor)) UB(IP_UB_INDEX_OUT_OF_RANGE, oor, "ballot bit index >= 128; result false");
  return rc;
}

static int h_ballot_bit_count(ip_sg *sg, const ip_op *op) {
  SpvGroupOperation gop = (SpvGroupOperation)op->insn->ops[1];
  int rc = check_ballot_uniform(sg, op, 1);
  IP_FOR_LANES(sg->mask, l) {
    uint32_t b[4];
    read_ballot(sg, op, 1, l, b);
    uint32_t n = ip_ballot_bit_count(gop, b, l, sg->size);
    memset(ip_res(sg, op, l), 0, op->res_size);
    memcpy(ip_res(sg, op, l), &n, op->res_size < 4 ? op->res_size : 4);
  }
  return rc;
}

static int h_ballot_find(ip_sg *sg, const ip_op *op) {
  bool msb = op->insn->op == SpvOpGroupNonUniformBallotFindMSB;
  int rc = check_ballot_uniform(sg, op, 1);
  ip_mask none = {{0, 0}};
  IP_FOR_LANES(sg->mask, l) {
    uint32_t b[4];
    read_ballot(sg, op, 1, l, b);
    uint32_t r = UINT32_MAX;
    for (uint32_t i = 0; i < sg->size && i < 128; ++i) {
      uint32_t k = msb ? sg->size - 1 - i : i;
      if ((b[k / 32] >> (k % 32)) & 1) { r = k; break; }
    }
    if (r == UINT32_MAX) ip_mask_set(&none, l);
    memset(ip_res(sg, op, l), 0, op->res_size);
    memcpy(ip_res(sg, op, l), &r, op->res_size < 4 ? op->res_size : 4);
  }
  if (!ip_mask_empty(none))
    UB(IP_UB_OTHER, none, "ballot find %s: no bit set among the subgroup's lanes; result 0xffffffff",
       msb ? "MSB" : "LSB");
  return rc;
}

static int h_shuffle(ip_sg *sg, const ip_op *op) {
  SpvOp o = op->insn->op;
  uint32_t src[IP_MAX_LANES];
  const char *what = "shuffle";
  int rc = IP_NEXT;
  uint64_t u;
  if (o == SpvOpGroupNonUniformShuffleUp || o == SpvOpGroupNonUniformShuffleDown)
    rc = check_uniform(sg, op, 2, "the shuffle delta", &u);
  IP_FOR_LANES(sg->mask, l) {
    uint64_t v = ip_in_uint(sg, op, 2, l), s;
    switch (o) {
    case SpvOpGroupNonUniformShuffle: s = v; break;
    case SpvOpGroupNonUniformShuffleXor: s = l ^ v; what = "shuffle_xor"; break;
    case SpvOpGroupNonUniformShuffleUp: s = v > l ? UINT64_MAX : l - v; what = "shuffle_up"; break;
    default: s = l + v; what = "shuffle_down"; break;
    }
    src[l] = s >= sg->size ? IP_SRC_OUT_OF_RANGE : (uint32_t)s;
  }
  return merge_rc(rc, gather(sg, op, 1, src, what));
}

static int h_quad(ip_sg *sg, const ip_op *op) {
  bool swap = op->insn->op == SpvOpGroupNonUniformQuadSwap;
  uint64_t v;
  int rc = check_uniform(sg, op, 2, swap ? "the quad swap direction" : "the quad index", &v);
  if ((swap && v > 2) || (!swap && v > 3))
    UB(IP_UB_INDEX_OUT_OF_RANGE, sg->mask, "quad %s %llu out of range; result 0",
       swap ? "direction" : "index", (unsigned long long)v);
  uint32_t src[IP_MAX_LANES];
  IP_FOR_LANES(sg->mask, l) {
    if ((swap && v > 2) || (!swap && v > 3)) src[l] = IP_SRC_OUT_OF_RANGE;
    else src[l] = swap ? (l ^ (uint32_t)(v + 1)) : ((l & ~3u) + (uint32_t)v);
  }
  return merge_rc(rc, gather(sg, op, 1, src, swap ? "quad swap" : "quad broadcast"));
}

static int check_cluster(ip_sg *sg, const ip_op *op, uint32_t i, uint32_t *out) {
  int rc = IP_NEXT;
  uint64_t c = ip_in_uint(sg, op, i, first_lane(sg));
  *out = (uint32_t)c;
  if (c == 0 || (c & (c - 1)) || c > sg->size) {
    UB(IP_UB_CLUSTER_SIZE, sg->mask,
       "cluster size %llu is not a power of two <= the subgroup size %u; using %u",
       (unsigned long long)c, sg->size, sg->size);
    *out = sg->size;
  }
  return rc;
}

static int h_rotate(ip_sg *sg, const ip_op *op) {
  uint64_t delta;
  uint32_t cluster = 0;
  int rc = check_uniform(sg, op, 2, "the rotate delta", &delta);
  if (op->n_in > 3) rc = merge_rc(rc, check_cluster(sg, op, 3, &cluster));
  uint32_t src[IP_MAX_LANES];
  IP_FOR_LANES(sg->mask, l) src[l] = ip_sg_rotate_src(l, ip_in_uint(sg, op, 2, l), cluster, sg->size);
  return merge_rc(rc, gather(sg, op, 1, src, "rotate"));
}

static int h_arith(ip_sg *sg, const ip_op *op) {
  ip_group_arith ga = (ip_group_arith)op->aux;
  SpvGroupOperation gop = (SpvGroupOperation)op->insn->ops[1];
  int rc = IP_NEXT;
  uint32_t cluster = 0;
  if (is_uniform_group_op(op->insn->op)) {
    if (scope_of(sg, op) == SpvScopeWorkgroup) return wg_collective(sg, op, WG_ARITH, ga, gop);
    rc = check_partial(sg, op, "a sub_group reduction or scan");
  }
  if (gop == SpvGroupOperationClusteredReduce) {
    if (op->n_in > 2) rc = merge_rc(rc, check_cluster(sg, op, 2, &cluster));
    else cluster = sg->size;
  }
  uint8_t buf[IP_MAX_LANES * 128];
  const uint8_t *in = op->in[1].size <= 128 ? lane_values(sg, op, 1, buf) : NULL;
  if (!in) return ip_fault(sg, IP_FAULT_UNSUPPORTED, sg->mask, 0, "subgroup operation on a value wider than 128 bytes");
  uint8_t *out = ip_res(sg, op, 0);
  ip_group_arith_eval(ga, gop, cluster, op->in[1].type, sg->mask, in, out);
  return rc;
}

/* OpGetKernelNDrangeSubGroupCount / MaxSubGroupSize (ndrange, invoke, param,
 * size, align), OpGetKernelMaxNumSubgroups (invoke, param, size, align),
 * OpGetKernelLocalSizeForSubgroupCount (count, invoke, param, size, align):
 * answered for this launch's subgroup size S. */
static int h_kernel_query(ip_sg *sg, const ip_op *op) {
  uint64_t S = sg->size, wg = sg->wg->local_size[0] * sg->wg->local_size[1] * sg->wg->local_size[2];
  IP_FOR_LANES(sg->mask, l) {
    uint64_t r;
    switch (op->insn->op) {
    case SpvOpGetKernelNDrangeMaxSubGroupSize: r = S; break;
    case SpvOpGetKernelNDrangeSubGroupCount: {
      /* ndrange_t: { uint workDimension; size_t offset[3], global[3], local[3] }
       * as a by-value struct; its local sizes follow the header at the end. */
      const ip_opnd *nd = &op->in[0];
      const uint8_t *p = ip_in(sg, op, 0, l);
      uint32_t ps = (nd->size - 8) / 9;   /* 4 or 8 */
      uint64_t n = 1;
      if (ps == 4 || ps == 8) {
        for (uint32_t d = 0; d < 3; ++d) {
          uint64_t v = ip_load_uint(p + 8 + (6 + d) * ps, ps);
          n *= v ? v : 1;
        }
      } else {
        n = wg;
      }
      r = (n + S - 1) / S;
      break;
    }
    case SpvOpGetKernelMaxNumSubgroups: r = (wg + S - 1) / S; break;
    default: r = ip_in_uint(sg, op, 0, l) * S; break;
    }
    uint8_t *res = ip_res(sg, op, l);
    memset(res, 0, op->res_size);
    memcpy(res, &r, op->res_size < 8 ? op->res_size : 8);
  }
  return IP_NEXT;
}

/* Minimum number of id operands per instruction. */
ip_handler *ip_lookup_subgroup(const ld_module *m, const ld_insn *in, ip_op *op) {
  (void)m;
  ip_group_arith ga;
  uint32_t need = 2;
  ip_handler *h = NULL;
  switch (in->op) {
  case SpvOpGroupAll: case SpvOpGroupAny: case SpvOpGroupNonUniformAll: case SpvOpGroupNonUniformAny:
    h = h_vote; break;
  case SpvOpSubgroupAllKHR: case SpvOpSubgroupAnyKHR: h = h_vote; need = 1; break;
  case SpvOpGroupNonUniformAllEqual: h = h_all_equal; break;
  case SpvOpSubgroupAllEqualKHR: h = h_all_equal; need = 1; break;
  case SpvOpGroupNonUniformElect: h = h_elect; need = 1; break;
  case SpvOpGroupBroadcast: case SpvOpGroupNonUniformBroadcast: h = h_broadcast; need = 3; break;
  case SpvOpSubgroupReadInvocationKHR: h = h_broadcast; need = 2; break;
  case SpvOpGroupNonUniformBroadcastFirst: h = h_broadcast_first; break;
  case SpvOpSubgroupFirstInvocationKHR: h = h_broadcast_first; need = 1; break;
  case SpvOpGroupNonUniformBallot: h = h_ballot; break;
  case SpvOpSubgroupBallotKHR: h = h_ballot; need = 1; break;
  case SpvOpGroupNonUniformInverseBallot: h = h_inverse_ballot; break;
  case SpvOpGroupNonUniformBallotBitExtract: h = h_ballot_bit_extract; need = 3; break;
  case SpvOpGroupNonUniformBallotBitCount: h = h_ballot_bit_count; break;
  case SpvOpGroupNonUniformBallotFindLSB: case SpvOpGroupNonUniformBallotFindMSB: h = h_ballot_find; break;
  case SpvOpGroupNonUniformShuffle: case SpvOpGroupNonUniformShuffleXor:
  case SpvOpGroupNonUniformShuffleUp: case SpvOpGroupNonUniformShuffleDown:
    h = h_shuffle; need = 3; break;
  case SpvOpGroupNonUniformQuadBroadcast: case SpvOpGroupNonUniformQuadSwap: h = h_quad; need = 3; break;
  case SpvOpGroupNonUniformRotateKHR: h = h_rotate; need = 3; break;
  case SpvOpGetKernelNDrangeSubGroupCount: case SpvOpGetKernelNDrangeMaxSubGroupSize:
  case SpvOpGetKernelLocalSizeForSubgroupCount: case SpvOpGetKernelMaxNumSubgroups:
    h = h_kernel_query; need = 1; break;
  default:
    if (!ip_group_arith_of(in->op, &ga)) return NULL;
    if (in->n_ops < 2) return NULL;
    op->aux = ga;
    h = h_arith;
    break;
  }
  if (op->n_in < need) return NULL;
  return h;
}
