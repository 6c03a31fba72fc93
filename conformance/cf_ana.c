/* cf_ana.c - static checks of "spirv-sgconform check" on the loader IR.
 *
 * 1. Capabilities/extensions: every subgroup instruction needs its
 *    capability (and extension) declared.
 * 2. Operands: execution scopes of group instructions must be constant
 *    Subgroup or Workgroup; cluster sizes constant powers of two; the Id of
 *    OpGroupNonUniformBroadcast constant before SPIR-V 1.5.
 * 3. Uniformity: collectives that every lane of the subgroup (or work-group)
 *    must reach are reported when they sit under lane-dependent control
 *    (the divergence analysis is the loader's, ld_uniform.c, shared with
 *    the JIT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cf_check.h"
#include "spv.h"

/* ------------------------------------------------------------ capabilities */

typedef struct op_need {
  SpvOp op;
  SpvCapability cap;
  const char *ext;     /* or NULL */
} op_need;

static const op_need needs[] = {
  {SpvOpGroupNonUniformElect, SpvCapabilityGroupNonUniform, NULL},
  {SpvOpGroupNonUniformAll, SpvCapabilityGroupNonUniformVote, NULL},
  {SpvOpGroupNonUniformAny, SpvCapabilityGroupNonUniformVote, NULL},
  {SpvOpGroupNonUniformAllEqual, SpvCapabilityGroupNonUniformVote, NULL},
  {SpvOpGroupNonUniformBroadcast, SpvCapabilityGroupNonUniformBallot, NULL},
  {SpvOpGroupNonUniformBroadcastFirst, SpvCapabilityGroupNonUniformBallot, NULL},
  {SpvOpGroupNonUniformBallot, SpvCapabilityGroupNonUniformBallot, NULL},
  {SpvOpGroupNonUniformInverseBallot, SpvCapabilityGroupNonUniformBallot, NULL},
  {SpvOpGroupNonUniformBallotBitExtract, SpvCapabilityGroupNonUniformBallot, NULL},
  {SpvOpGroupNonUniformBallotBitCount, SpvCapabilityGroupNonUniformBallot, NULL},
  {SpvOpGroupNonUniformBallotFindLSB, SpvCapabilityGroupNonUniformBallot, NULL},
  {SpvOpGroupNonUniformBallotFindMSB, SpvCapabilityGroupNonUniformBallot, NULL},
  {SpvOpGroupNonUniformShuffle, SpvCapabilityGroupNonUniformShuffle, NULL},
  {SpvOpGroupNonUniformShuffleXor, SpvCapabilityGroupNonUniformShuffle, NULL},
  {SpvOpGroupNonUniformShuffleUp, SpvCapabilityGroupNonUniformShuffleRelative, NULL},
  {SpvOpGroupNonUniformShuffleDown, SpvCapabilityGroupNonUniformShuffleRelative, NULL},
  {SpvOpGroupNonUniformRotateKHR, SpvCapabilityGroupNonUniformRotateKHR, "SPV_KHR_subgroup_rotate"},
  {SpvOpGroupAll, SpvCapabilityGroups, NULL},
  {SpvOpGroupAny, SpvCapabilityGroups, NULL},
  {SpvOpGroupBroadcast, SpvCapabilityGroups, NULL},
  {SpvOpGroupIAdd, SpvCapabilityGroups, NULL},
  {SpvOpGroupFAdd, SpvCapabilityGroups, NULL},
  {SpvOpGroupFMin, SpvCapabilityGroups, NULL},
  {SpvOpGroupUMin, SpvCapabilityGroups, NULL},
  {SpvOpGroupSMin, SpvCapabilityGroups, NULL},
  {SpvOpGroupFMax, SpvCapabilityGroups, NULL},
  {SpvOpGroupUMax, SpvCapabilityGroups, NULL},
  {SpvOpGroupSMax, SpvCapabilityGroups, NULL},
  {SpvOpSubgroupShuffleINTEL, SpvCapabilitySubgroupShuffleINTEL, "SPV_INTEL_subgroups"},
  {SpvOpSubgroupShuffleDownINTEL, SpvCapabilitySubgroupShuffleINTEL, "SPV_INTEL_subgroups"},
  {SpvOpSubgroupShuffleUpINTEL, SpvCapabilitySubgroupShuffleINTEL, "SPV_INTEL_subgroups"},
  {SpvOpSubgroupShuffleXorINTEL, SpvCapabilitySubgroupShuffleINTEL, "SPV_INTEL_subgroups"},
  {SpvOpSubgroupBlockReadINTEL, SpvCapabilitySubgroupBufferBlockIOINTEL, "SPV_INTEL_subgroups"},
  {SpvOpSubgroupBlockWriteINTEL, SpvCapabilitySubgroupBufferBlockIOINTEL, "SPV_INTEL_subgroups"},
  {SpvOpSubgroupImageBlockReadINTEL, SpvCapabilitySubgroupImageBlockIOINTEL, "SPV_INTEL_subgroups"},
  {SpvOpSubgroupImageBlockWriteINTEL, SpvCapabilitySubgroupImageBlockIOINTEL, "SPV_INTEL_subgroups"},
};

static bool is_nu_arith(SpvOp op)
{
  return op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor;
}

static bool is_groups_khr(SpvOp op)
{
  return op == SpvOpGroupIMulKHR || op == SpvOpGroupFMulKHR || op == SpvOpGroupBitwiseAndKHR ||
         op == SpvOpGroupBitwiseOrKHR || op == SpvOpGroupBitwiseXorKHR ||
         op == SpvOpGroupLogicalAndKHR || op == SpvOpGroupLogicalOrKHR ||
         op == SpvOpGroupLogicalXorKHR;
}

/* OpGroup* (Groups capability): collectives every lane must reach. */
static bool is_groups_op(SpvOp op)
{
  return (op >= SpvOpGroupAll && op <= SpvOpGroupSMax) || is_groups_khr(op);
}

static bool is_intel_sg(SpvOp op)
{
  return op == SpvOpSubgroupShuffleINTEL || op == SpvOpSubgroupShuffleDownINTEL ||
         op == SpvOpSubgroupShuffleUpINTEL || op == SpvOpSubgroupShuffleXorINTEL ||
         op == SpvOpSubgroupBlockReadINTEL || op == SpvOpSubgroupBlockWriteINTEL ||
         op == SpvOpSubgroupImageBlockReadINTEL || op == SpvOpSubgroupImageBlockWriteINTEL;
}

/* Has an execution-scope id as ops[0]. */
static bool has_exec_scope(SpvOp op)
{
  return (op >= SpvOpGroupNonUniformElect && op <= SpvOpGroupNonUniformQuadSwap) ||
         op == SpvOpGroupNonUniformRotateKHR || is_groups_op(op) ||
         op == SpvOpGroupAsyncCopy || op == SpvOpGroupWaitEvents;
}

static bool has_ext(const ld_module *m, const char *ext)
{
  for (uint32_t i = 0; i < m->n_extensions; ++i)
    if (strcmp(m->extensions[i], ext) == 0)
      return true;
  return false;
}

/* ------------------------------------------------------------- findings */

static void add_finding(cf_findings *o, const ld_module *m, const ld_insn *in, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add_finding(cf_findings *o, const ld_module *m, const ld_insn *in, const char *fmt, ...)
{
  if (o->n == o->cap) {
    uint32_t cap = o->cap ? o->cap * 2 : 16;
    cf_finding *n = realloc(o->v, cap * sizeof *n);
    if (!n)
      return;
    o->v = n;
    o->cap = cap;
  }
  cf_finding *f = &o->v[o->n++];
  memset(f, 0, sizeof *f);
  snprintf(f->where, sizeof f->where, "%s", in ? ld_insn_where(m, in) : "module");
  if (in && in->loc)
    f->line = in->loc->line;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->text, sizeof f->text, fmt, ap);
  va_end(ap);
}

/* Root of a pointer through access chains and casts (a variable or a
 * parameter id), or 0. */
static uint32_t ptr_base(const ld_module *m, uint32_t id, int depth)
{
  if (id >= m->bound || depth > 64)
    return 0;
  const ld_value *v = &m->values[id];
  if (v->kind == LD_V_PARAM)
    return id;
  if (v->kind != LD_V_RESULT)
    return 0;
  const ld_insn *in = v->u.insn;
  switch (in->op) {
  case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast: case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr: case SpvOpCopyObject:
    return in->n_ops ? ptr_base(m, in->ops[0], depth + 1) : 0;
  default:
    return 0;
  }
}

uint32_t cf_store_lines(const ld_module *m, uint32_t arg, char *buf, size_t size)
{
  uint32_t n = 0;
  size_t len = 0;
  buf[0] = 0;
  for (uint32_t fi = 0; fi < m->n_functions; ++fi) {
    const ld_function *f = m->functions[fi];
    for (uint32_t b = 0; b < f->n_blocks; ++b)
      for (uint32_t i = 0; i < f->blocks[b].n_insns; ++i) {
        const ld_insn *in = &f->blocks[b].insns[i];
        if ((in->op != SpvOpStore && in->op != SpvOpSubgroupBlockWriteINTEL) || !in->n_ops || !in->loc)
          continue;
        uint32_t r = ptr_base(m, in->ops[0], 0);
        if (!r || m->values[r].u.param_index != arg)
          continue;
        int w = snprintf(buf + len, size - len, "%s%s", n ? ", " : "", ld_insn_where(m, in));
        if (w < 0 || (size_t)w >= size - len)
          return n;
        len += (size_t)w;
        n++;
      }
  }
  return n;
}

static uint64_t const_u(const ld_module *m, uint32_t id, bool *ok)
{
  *ok = false;
  if (id >= m->bound || m->values[id].kind != LD_V_CONSTANT || !m->values[id].type)
    return 0;
  const ld_value *v = &m->values[id];
  if (v->type->kind != LD_T_INT || v->is_spec_constant)
    return 0;
  uint64_t x = 0;
  memcpy(&x, v->u.bytes, v->type->size < 8 ? v->type->size : 8);
  *ok = true;
  return x;
}

static const char *scope_name(uint64_t s)
{
  switch (s) {
  case SpvScopeCrossDevice: return "CrossDevice";
  case SpvScopeDevice: return "Device";
  case SpvScopeWorkgroup: return "Workgroup";
  case SpvScopeSubgroup: return "Subgroup";
  case SpvScopeInvocation: return "Invocation";
  case SpvScopeQueueFamily: return "QueueFamily";
  default: return "unknown";
  }
}

static void check_insn(const ld_module *m, const ld_uniformity *u, cf_findings *o, const ld_insn *in)
{
  SpvOp op = in->op;
  const char *name = spv_opcode_name(op);
  /* capabilities */
  for (size_t i = 0; i < sizeof needs / sizeof needs[0]; ++i)
    if (needs[i].op == op) {
      if (!ld_has_capability(m, needs[i].cap))
        add_finding(o, m, in, "%s used without the %s capability", name,
                    spv_capability_name(needs[i].cap));
      if (needs[i].ext && !has_ext(m, needs[i].ext))
        add_finding(o, m, in, "%s used without the %s extension", name, needs[i].ext);
    }
  if (is_nu_arith(op)) {
    SpvCapability c = SpvCapabilityGroupNonUniformArithmetic;
    if (in->n_ops > 1 && in->ops[1] == SpvGroupOperationClusteredReduce)
      c = SpvCapabilityGroupNonUniformClustered;
    if (!ld_has_capability(m, c))
      add_finding(o, m, in, "%s used without the %s capability", name, spv_capability_name(c));
  }
  if (is_groups_khr(op) && !ld_has_capability(m, SpvCapabilityGroupUniformArithmeticKHR))
    add_finding(o, m, in, "%s used without the GroupUniformArithmeticKHR capability", name);
  /* scopes */
  uint64_t scope = SpvScopeSubgroup;
  bool scope_const = true;
  if (has_exec_scope(op) && in->n_ops) {
    scope = const_u(m, in->ops[0], &scope_const);
    if (!scope_const)
      add_finding(o, m, in, "%s: the execution scope is not a constant", name);
    else if (scope != SpvScopeSubgroup && scope != SpvScopeWorkgroup)
      add_finding(o, m, in, "%s: execution scope %s (%llu); only Subgroup or Workgroup is allowed",
                  name, scope_name(scope), (unsigned long long)scope);
    else if (scope == SpvScopeWorkgroup && op >= SpvOpGroupNonUniformElect &&
             op <= SpvOpGroupNonUniformQuadSwap)
      add_finding(o, m, in, "%s at Workgroup scope: OpenCL only defines the non-uniform subgroup operations at Subgroup scope", name);
  }
  if (op == SpvOpControlBarrier && in->n_ops) {
    scope = const_u(m, in->ops[0], &scope_const);
    if (!scope_const)
      add_finding(o, m, in, "OpControlBarrier: the execution scope is not a constant");
  }
  /* cluster sizes */
  uint32_t cl_ix = UINT32_MAX;
  if (is_nu_arith(op) && in->n_ops > 3 && in->ops[1] == SpvGroupOperationClusteredReduce)
    cl_ix = 3;
  if (op == SpvOpGroupNonUniformRotateKHR && in->n_ops > 3)
    cl_ix = 3;
  if (cl_ix != UINT32_MAX) {
    bool ok;
    uint64_t c = const_u(m, in->ops[cl_ix], &ok);
    if (!ok)
      add_finding(o, m, in, "%s: ClusterSize is not a constant", name);
    else if (c == 0 || (c & (c - 1)))
      add_finding(o, m, in, "%s: ClusterSize %llu is not a power of two", name, (unsigned long long)c);
  }
  if (is_nu_arith(op) && in->n_ops > 1 && in->ops[1] == SpvGroupOperationClusteredReduce &&
      in->n_ops <= 3)
    add_finding(o, m, in, "%s: ClusteredReduce without a ClusterSize", name);
  /* broadcast id */
  if (op == SpvOpGroupNonUniformBroadcast && in->n_ops > 2 && m->version < 0x00010500) {
    const ld_value *v = in->ops[2] < m->bound ? &m->values[in->ops[2]] : NULL;
    if (!v || v->kind != LD_V_CONSTANT)
      add_finding(o, m, in, "OpGroupNonUniformBroadcast: Id is not a constant (required before SPIR-V 1.5; the module is %u.%u)",
                  (m->version >> 16) & 0xff, (m->version >> 8) & 0xff);
  }
  /* uniform control */
  bool must_uniform = false;
  const char *what = "";
  if (is_groups_op(op) && scope_const && (scope == SpvScopeSubgroup || scope == SpvScopeWorkgroup)) {
    must_uniform = true;
    what = scope == SpvScopeSubgroup ? "subgroup collective" : "work-group collective";
  } else if (op == SpvOpControlBarrier && scope_const &&
             (scope == SpvScopeSubgroup || scope == SpvScopeWorkgroup)) {
    must_uniform = true;
    what = scope == SpvScopeSubgroup ? "subgroup barrier" : "work-group barrier";
  } else if (is_intel_sg(op)) {
    must_uniform = true;
    what = "cl_intel_subgroups function (every lane must reach it)";
  } else if (op == SpvOpGroupAsyncCopy || op == SpvOpGroupWaitEvents) {
    must_uniform = true;
    what = "work-group function";
  }
  const ld_insn *c = NULL;
  if (must_uniform && in->block && ld_uni_block_divergent(u, in->block, &c)) {
    char cw[200] = "unknown";
    if (c)
      snprintf(cw, sizeof cw, "%s", ld_insn_where(m, c));
    add_finding(o, m, in, "%s (%s%s%s) in lane-dependent control flow: %s at %s depends on the lane",
                name, what, scope_const && has_exec_scope(op) ? ", scope " : "",
                scope_const && has_exec_scope(op) ? scope_name(scope) : "",
                c && c->op == SpvOpFunctionCall ? "the call" : "the branch", cw);
    o->v[o->n ? o->n - 1 : 0].uniformity = true;
    if (c && c->loc)
      o->v[o->n ? o->n - 1 : 0].branch_line = c->loc->line;
  }
}

bool cf_analyze(const ld_module *m, cf_findings *out)
{
  ld_uniformity *u = ld_uniformity_compute(m, 0);
  if (!u)
    return false;
  for (uint32_t i = 0; i < m->n_functions; ++i) {
    const ld_function *f = m->functions[i];
    if (f->is_import)
      continue;
    for (uint32_t b = 0; b < f->n_blocks; ++b)
      if (f->blocks[b].reachable)
        for (uint32_t k = 0; k < f->blocks[b].n_insns; ++k)
          check_insn(m, u, out, &f->blocks[b].insns[k]);
  }
  ld_uniformity_free(u);
  return true;
}
