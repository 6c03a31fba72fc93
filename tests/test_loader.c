/* test_loader.c - unit tests for spirv/ and loader/: small .spvasm modules
 * assembled here (SPIRV-Tools), checked for layout, constants, spec
 * overrides, CFG reconvergence, kernel metadata and bad inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ld.h"

static int n_pass, n_fail;
static char last_err[1024];
static int n_errors, n_warnings;

#define CHECK(c) do { if (c) n_pass++; else { n_fail++; \
  fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #c); } } while (0)

static void on_msg(void *user, ld_severity sev, const char *text) {
  (void)user;
  if (sev == LD_ERROR) {
    n_errors++;
    snprintf(last_err, sizeof last_err, "%s", text);
  } else if (sev == LD_WARNING) {
    n_warnings++;
  }
}

static const char *PRE =
  "OpCapability Addresses\n"
  "OpCapability Kernel\n"
  "OpCapability Int64\n"
  "OpCapability Int16\n"
  "OpCapability Int8\n"
  "OpCapability Float16\n"
  "OpCapability Float64\n"
  "OpMemoryModel Physical64 OpenCL\n";

static uint32_t *assemble(const char *body, size_t *n) {
  size_t len = strlen(PRE) + strlen(body) + 1;
  char *text = malloc(len);
  snprintf(text, len, "%s%s", PRE, body);
  uint32_t *w = ld_assemble(text, strlen(text), n, on_msg, NULL);
  free(text);
  return w;
}

static ld_module *load_opts(const char *body, ld_validate_mode vm, const ld_spec_override *sp,
                            uint32_t nsp, ld_result *out_res) {
  size_t n = 0;
  n_errors = n_warnings = 0;
  last_err[0] = 0;
  uint32_t *w = assemble(body, &n);
  if (!w) {
    fprintf(stderr, "assembly failed: %s\n", last_err);
    if (out_res) *out_res = LD_ERR_INVALID;
    return NULL;
  }
  ld_options o = {0};
  o.validate = vm;
  o.spec = sp;
  o.n_spec = nsp;
  o.message = on_msg;
  ld_module *m = NULL;
  ld_result r = ld_module_load(w, n, &o, &m);
  if (out_res) *out_res = r;
  if (r != LD_OK && getenv("TEST_VERBOSE")) fprintf(stderr, "load: %s\n", last_err);
  free(w);
  return m;
}

static ld_module *load(const char *body) { return load_opts(body, LD_VALIDATE_OFF, NULL, 0, NULL); }

static uint32_t find_id(const ld_module *m, const char *name) {
  for (uint32_t i = 1; i < m->bound; i++)
    if (m->values[i].name && strcmp(m->values[i].name, name) == 0) return i;
  return 0;
}

static const ld_value *val(const ld_module *m, const char *name) {
  uint32_t id = find_id(m, name);
  return id ? &m->values[id] : NULL;
}

static const ld_block *block(const ld_module *m, const char *name) {
  const ld_value *v = val(m, name);
  return v && v->kind == LD_V_LABEL ? v->u.block : NULL;
}

#define KERNEL_HEAD \
  "OpEntryPoint Kernel %main \"main\"\n"
#define EMPTY_MAIN \
  "%void = OpTypeVoid\n%fnty = OpTypeFunction %void\n" \
  "%main = OpFunction %void None %fnty\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"

static void test_types(void) {
  ld_module *m = load(
    KERNEL_HEAD
    "OpName %s1 \"s1\"\nOpName %s2 \"s2\"\nOpName %s3 \"s3\"\nOpName %u2 \"u2\"\n"
    "OpName %v3f \"v3f\"\nOpName %arr \"arr\"\nOpName %ptr \"ptr\"\nOpName %ptrw \"ptrw\"\n"
    "OpName %u32b \"u32b\"\nOpName %u32 \"u32\"\n"
    "OpMemberDecorate %s2 0 Offset 0\nOpMemberDecorate %s2 1 Offset 12\n"
    "OpDecorate %s3 CPacked\n"
    "%u8 = OpTypeInt 8 0\n%u32 = OpTypeInt 32 0\n%u32b = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n"
    "%u2 = OpTypeInt 2 0\n%f32 = OpTypeFloat 32\n%bool = OpTypeBool\n"
    "%v3f = OpTypeVector %f32 3\n"
    "%s1 = OpTypeStruct %u8 %u32 %v3f\n"
    "%s2 = OpTypeStruct %u8 %u32\n"
    "%s3 = OpTypeStruct %u8 %u32\n"
    "%c5 = OpConstant %u32 5\n%arr = OpTypeArray %v3f %c5\n"
    "%ptr = OpTypePointer CrossWorkgroup %u32\n%ptrw = OpTypePointer CrossWorkgroup %u32b\n"
    EMPTY_MAIN);
  CHECK(m != NULL);
  if (!m) return;
  const ld_type *v3 = val(m, "v3f")->type;
  CHECK(v3->size == 16 && v3->align == 16 && v3->n_comp == 3 && v3->comp->kind == LD_T_FLOAT);
  const ld_type *s1 = val(m, "s1")->type;
  CHECK(s1->n_members == 3 && s1->offsets[0] == 0 && s1->offsets[1] == 4 && s1->offsets[2] == 16);
  CHECK(s1->size == 32 && s1->align == 16);
  const ld_type *s2 = val(m, "s2")->type;
  CHECK(s2->offsets[1] == 12 && s2->size == 16);
  const ld_type *s3 = val(m, "s3")->type;
  CHECK(s3->offsets[1] == 1 && s3->size == 5 && s3->align == 1);
  const ld_type *u2 = val(m, "u2")->type;
  CHECK(u2->kind == LD_T_INT && u2->width == 2 && u2->size == 1);
  const ld_type *arr = val(m, "arr")->type;
  CHECK(arr->kind == LD_T_ARRAY && arr->count == 5 && arr->size == 80);
  CHECK(val(m, "ptr")->type->size == 8);
  /* interning: structurally identical scalars and pointers share a type */
  CHECK(val(m, "u32")->type == val(m, "u32b")->type);
  CHECK(val(m, "ptr")->type == val(m, "ptrw")->type);
  CHECK(m->n_kernels == 1 && m->kernels[0].fn->n_blocks == 1);
  ld_module_free(m);

  m = load("OpEntryPoint Kernel %main \"main\"\n"
           "%u32 = OpTypeInt 32 0\n%p = OpTypePointer Workgroup %u32\n" EMPTY_MAIN);
  CHECK(m != NULL);
  ld_module_free(m);
}

static void test_constants(void) {
  static const char *src =
    KERNEL_HEAD
    "OpName %ci \"ci\"\nOpName %cl \"cl\"\nOpName %ch \"ch\"\nOpName %ct \"ct\"\nOpName %cv \"cv\"\n"
    "OpName %cs \"cs\"\nOpName %cn \"cn\"\nOpName %samp \"samp\"\nOpName %un \"un\"\n"
    "OpName %sp \"sp\"\nOpName %sop \"sop\"\nOpName %sb \"sb\"\nOpName %ca \"ca\"\n"
    "OpName %sconv \"sconv\"\nOpName %shuf \"shuf\"\nOpName %ext \"ext\"\nOpName %c2 \"c2\"\n"
    "OpDecorate %sp SpecId 3\nOpDecorate %sb SpecId 4\n"
    "%u8 = OpTypeInt 8 0\n%u16 = OpTypeInt 16 0\n%u32 = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n"
    "%u2 = OpTypeInt 2 0\n"
    "%f16 = OpTypeFloat 16\n%f32 = OpTypeFloat 32\n%bool = OpTypeBool\n"
    "%v3u = OpTypeVector %u32 3\n%st = OpTypeStruct %u8 %u32\n"
    "%c3 = OpConstant %u32 3\n%arr = OpTypeArray %u16 %c3\n"
    "%ci = OpConstant %u32 0x12345678\n"
    "%cl = OpConstant %u64 0x1122334455667788\n"
    "%ch = OpConstant %f16 1.0\n"
    "%ct = OpConstantTrue %bool\n"
    "%c1 = OpConstant %u32 1\n%c7 = OpConstant %u8 7\n"
    "%cv = OpConstantComposite %v3u %c1 %c3 %ci\n"
    "%cs = OpConstantComposite %st %c7 %ci\n"
    "%h1 = OpConstant %u16 0xabcd\n%ca = OpConstantComposite %arr %h1 %h1 %h1\n"
    "%cn = OpConstantNull %st\n"
    "%samp_t = OpTypeSampler\n"
    "%samp = OpConstantSampler %samp_t Repeat 1 Linear\n"
    "%un = OpUndef %v3u\n"
    "%c2 = OpConstant %u2 3\n"
    "%sp = OpSpecConstant %u32 7\n"
    "%sb = OpSpecConstantFalse %bool\n"
    "%sop = OpSpecConstantOp %u32 IAdd %sp %c1\n"
    "%sconv = OpSpecConstantOp %u64 UConvert %sop\n"
    "%shuf = OpSpecConstantOp %v3u VectorShuffle %cv %cv 2 0 4\n"
    "%ext = OpSpecConstantOp %u8 CompositeExtract %cs 0\n"
    EMPTY_MAIN;
  ld_module *m = load(src);
  CHECK(m != NULL);
  if (!m) return;
  const ld_value *v = val(m, "ci");
  CHECK(v->kind == LD_V_CONSTANT && memcmp(v->u.bytes, "\x78\x56\x34\x12", 4) == 0);
  CHECK(memcmp(val(m, "cl")->u.bytes, "\x88\x77\x66\x55\x44\x33\x22\x11", 8) == 0);
  CHECK(memcmp(val(m, "ch")->u.bytes, "\x00\x3c", 2) == 0);
  CHECK(val(m, "ct")->u.bytes[0] == 1 && val(m, "ct")->type->size == 1);
  const uint8_t *cv = val(m, "cv")->u.bytes;
  CHECK(val(m, "cv")->type->size == 16 && cv[0] == 1 && cv[4] == 3 && cv[8] == 0x78);
  const uint8_t *cs = val(m, "cs")->u.bytes;
  CHECK(cs[0] == 7 && cs[4] == 0x78 && cs[7] == 0x12);
  CHECK(memcmp(val(m, "ca")->u.bytes, "\xcd\xab\xcd\xab\xcd\xab", 6) == 0);
  const uint8_t *cn = val(m, "cn")->u.bytes;
  CHECK(cn[0] == 0 && cn[4] == 0 && val(m, "cn")->type->size == 8);
  uint32_t sbits;
  memcpy(&sbits, val(m, "samp")->u.bytes, 4);
  CHECK(sbits == (6u | 1u | 0x20u));   /* CLK_ADDRESS_REPEAT|NORMALIZED|FILTER_LINEAR */
  CHECK(val(m, "un")->kind == LD_V_UNDEF && val(m, "un")->u.bytes[0] == 0);
  CHECK(val(m, "c2")->u.bytes[0] == 3);
  uint32_t sp;
  memcpy(&sp, val(m, "sp")->u.bytes, 4);
  CHECK(sp == 7 && val(m, "sp")->is_spec_constant && val(m, "sp")->spec_id == 3);
  uint32_t sop;
  memcpy(&sop, val(m, "sop")->u.bytes, 4);
  CHECK(sop == 8);
  uint64_t sconv;
  memcpy(&sconv, val(m, "sconv")->u.bytes, 8);
  CHECK(sconv == 8);
  const uint8_t *sh = val(m, "shuf")->u.bytes;
  CHECK(sh[0] == 0x78 && sh[4] == 1 && sh[8] == 3);
  CHECK(val(m, "ext")->u.bytes[0] == 7);
  CHECK(m->n_spec_constants == 6);
  uint8_t h1[32];
  memcpy(h1, m->hash, 32);
  ld_module_free(m);

  /* overrides by SpecId */
  ld_spec_override ov[2] = {{3, 41}, {4, 1}};
  m = load_opts(src, LD_VALIDATE_OFF, ov, 2, NULL);
  CHECK(m != NULL);
  if (!m) return;
  memcpy(&sp, val(m, "sp")->u.bytes, 4);
  memcpy(&sop, val(m, "sop")->u.bytes, 4);
  CHECK(sp == 41 && sop == 42 && val(m, "sb")->u.bytes[0] == 1);
  CHECK(memcmp(h1, m->hash, 32) != 0);
  ld_module_free(m);

  /* an unsupported OpSpecConstantOp is named */
  ld_result r;
  m = load_opts(KERNEL_HEAD "%f32 = OpTypeFloat 32\n%c = OpConstant %f32 1.5\n"
                "%q = OpSpecConstantOp %f32 QuantizeToF16 %c\n" EMPTY_MAIN,
                LD_VALIDATE_OFF, NULL, 0, &r);
  CHECK(m == NULL && r == LD_ERR_UNSUPPORTED && strstr(last_err, "OpQuantizeToF16") && n_errors == 1);
}

static void test_cfg(void) {
  /* diamond */
  ld_module *m = load(
    KERNEL_HEAD
    "OpName %a \"a\"\nOpName %b \"b\"\nOpName %c \"c\"\nOpName %d \"d\"\n"
    "%void = OpTypeVoid\n%fnty = OpTypeFunction %void\n%bool = OpTypeBool\n"
    "%t = OpConstantTrue %bool\n"
    "%main = OpFunction %void None %fnty\n"
    "%a = OpLabel\nOpBranchConditional %t %b %c\n"
    "%b = OpLabel\nOpBranch %d\n"
    "%c = OpLabel\nOpBranch %d\n"
    "%d = OpLabel\nOpReturn\nOpFunctionEnd\n");
  CHECK(m != NULL);
  if (m) {
    CHECK(block(m, "a")->reconverge == block(m, "d"));
    CHECK(block(m, "b")->reconverge == block(m, "d"));
    CHECK(block(m, "d")->reconverge == NULL);
    CHECK(block(m, "a")->n_succs == 2 && block(m, "d")->n_preds == 2);
    ld_module_free(m);
  }

  /* loop with a break; the loop exit placed before the body */
  m = load(
    KERNEL_HEAD
    "OpName %entry \"entry\"\nOpName %hdr \"hdr\"\nOpName %body \"body\"\nOpName %brk \"brk\"\n"
    "OpName %cont \"cont\"\nOpName %exit \"exit\"\n"
    "%void = OpTypeVoid\n%fnty = OpTypeFunction %void\n%bool = OpTypeBool\n"
    "%t = OpConstantTrue %bool\n"
    "%main = OpFunction %void None %fnty\n"
    "%entry = OpLabel\nOpBranch %hdr\n"
    "%exit = OpLabel\nOpReturn\n"
    "%hdr = OpLabel\nOpBranchConditional %t %body %exit\n"
    "%body = OpLabel\nOpBranchConditional %t %brk %cont\n"
    "%brk = OpLabel\nOpBranch %exit\n"
    "%cont = OpLabel\nOpBranch %hdr\n"
    "OpFunctionEnd\n");
  CHECK(m != NULL);
  if (m) {
    CHECK(block(m, "hdr")->reconverge == block(m, "exit"));
    CHECK(block(m, "body")->reconverge == block(m, "exit"));
    CHECK(block(m, "cont")->reconverge == block(m, "hdr"));
    CHECK(block(m, "exit")->index == 1 && block(m, "exit")->reachable);
    ld_module_free(m);
  }

  /* switch with merge; and an infinite loop */
  m = load(
    KERNEL_HEAD
    "OpName %s \"s\"\nOpName %m \"m\"\nOpName %c1 \"c1\"\nOpName %inf \"inf\"\nOpName %dead \"dead\"\n"
    "%void = OpTypeVoid\n%fnty = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n"
    "%u64 = OpTypeInt 64 0\n%k = OpConstant %u64 2\n%bool = OpTypeBool\n%t = OpConstantTrue %bool\n"
    "%main = OpFunction %void None %fnty\n"
    "%s = OpLabel\nOpSelectionMerge %m None\nOpSwitch %k %m 1 %c1 0x100000000 %c2\n"
    "%c1 = OpLabel\nOpBranch %m\n"
    "%c2 = OpLabel\nOpBranch %m\n"
    "%m = OpLabel\nOpBranchConditional %t %inf %end\n"
    "%inf = OpLabel\nOpBranch %inf\n"
    "%dead = OpLabel\nOpUnreachable\n"
    "%end = OpLabel\nOpReturn\nOpFunctionEnd\n");
  CHECK(m != NULL);
  if (m) {
    CHECK(block(m, "s")->reconverge == block(m, "m") && block(m, "s")->merge == block(m, "m"));
    CHECK(block(m, "s")->n_succs == 3);
    CHECK(block(m, "c1")->reconverge == block(m, "m"));
    CHECK(block(m, "inf")->reconverge == NULL);
    CHECK(!block(m, "dead")->reachable);
    ld_module_free(m);
  }
}

static void test_kernel(void) {
  ld_module *m = load(
    "OpEntryPoint Kernel %wrap \"kk\" %gid\n"
    "OpExecutionMode %wrap LocalSize 8 4 1\nOpExecutionMode %wrap SubgroupSize 16\n"
    "OpExecutionMode %wrap ContractionOff\n"
    "%str = OpString \"kernel_arg_type.kk.float*,int4,\"\n"
    "%file = OpString \"k.cl\"\n"
    "OpName %pa \"pa\"\nOpName %pv \"pv\"\nOpName %real \"real\"\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
    "%void = OpTypeVoid\n%f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n"
    "%v4 = OpTypeVector %u32 4\n%v3l = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3l\n"
    "%pf = OpTypePointer CrossWorkgroup %f32\n"
    "%fnty = OpTypeFunction %void %pf %v4\n"
    "%gid = OpVariable %pin Input\n"
    "%real = OpFunction %void None %fnty\n%pa = OpFunctionParameter %pf\n%pv = OpFunctionParameter %v4\n"
    "%e1 = OpLabel\nOpLine %file 12 3\n%g = OpLoad %v3l %gid\nOpReturn\nOpFunctionEnd\n"
    "%wrap = OpFunction %void None %fnty\n%wa = OpFunctionParameter %pf\n%wv = OpFunctionParameter %v4\n"
    "%e2 = OpLabel\n%call = OpFunctionCall %void %real %wa %wv\nOpReturn\nOpFunctionEnd\n");
  CHECK(m != NULL);
  if (!m) return;
  const ld_kernel *k = ld_find_kernel(m, "kk");
  CHECK(k && k->n_args == 2);
  if (k && k->n_args == 2) {
    CHECK(strcmp(k->args[0].name, "pa") == 0 && strcmp(k->args[1].name, "pv") == 0);
    CHECK(k->args[0].kind == LD_ARG_BUFFER && k->args[0].value_size == 4);
    CHECK(k->args[1].kind == LD_ARG_VALUE && k->args[1].value_size == 16);
    CHECK(k->args[0].type_name && strcmp(k->args[0].type_name, "float*") == 0);
    CHECK(k->args[1].type_name && strcmp(k->args[1].type_name, "int4") == 0);
    CHECK(k->local_size[0] == 8 && k->local_size[1] == 4 && k->subgroup_size == 16 && k->contraction_off);
    CHECK(k->fn->max_call_depth == 1);
    CHECK(k->n_interface == 1);
  }
  CHECK(m->n_variables == 1 && m->variables[0]->builtin == SpvBuiltInGlobalInvocationId);
  CHECK(m->variables[0]->address == ((uint64_t)m->layout.builtin_base << 48));
  CHECK(m->n_input_vars == 1);
  const ld_function *real = val(m, "real")->u.fn;
  const ld_insn *load_insn = &real->blocks[0].insns[0];
  CHECK(load_insn->op == SpvOpLoad && load_insn->loc && load_insn->loc->line == 12);
  CHECK(strcmp(ld_insn_where(m, load_insn), "k.cl:12") == 0);
  CHECK(strncmp(ld_insn_where(m, &k->fn->blocks[0].insns[0]), "word ", 5) == 0);
  CHECK(real->n_locals == 3);
  CHECK(ld_has_capability(m, SpvCapabilityKernel) && !ld_has_capability(m, SpvCapabilityShader));
  ld_addr_layout l32;
  ld_addr_layout_for(32, &l32);
  CHECK(l32.shift == 24 && l32.local_base == 0x40 && l32.n_regions == 0x100);
  char *dis = ld_disassemble(NULL, 0);
  CHECK(dis == NULL);
  ld_module_free(m);
}

static void expect_fail_bytes(const void *bytes, size_t n, const char *what) {
  ld_options o = {0};
  o.message = on_msg;
  n_errors = 0;
  last_err[0] = 0;
  ld_module *m = (ld_module *)1;
  ld_result r = ld_module_load_bytes(bytes, n, &o, &m);
  CHECK(r != LD_OK && m == NULL && n_errors == 1 && last_err[0]);
  if (getenv("TEST_VERBOSE")) fprintf(stderr, "%s -> %s\n", what, last_err);
  if (what && !strstr(last_err, what)) {
    fprintf(stderr, "  expected \"%s\" in \"%s\"\n", what, last_err);
    n_fail++;
  }
}

static void test_bad(void) {
  expect_fail_bytes("", 0, "empty");
  expect_fail_bytes("\x03\x02\x23", 3, "truncated header");
  uint32_t wrong[5] = {0xdeadbeef, 0x10000, 0, 10, 0};
  expect_fail_bytes(wrong, sizeof wrong, "wrong magic number 0xdeadbeef");
  uint32_t odd[6] = {SPV_MAGIC, 0x10000, 0, 10, 0, 0};
  expect_fail_bytes(odd, 21, "multiple of 4");

  size_t n = 0;
  uint32_t *w = assemble(KERNEL_HEAD EMPTY_MAIN, &n);
  CHECK(w != NULL);
  if (!w) return;
  uint32_t *c = malloc(n * 4);
  /* truncated instruction: the first one claims more words than remain */
  memcpy(c, w, n * 4);
  c[5] = (c[5] & 0xffff) | (0xffffu << 16);
  expect_fail_bytes(c, n * 4, "runs past the end");
  /* truncated module: a 2-word OpCapability cut after its opcode word */
  expect_fail_bytes(w, 6 * 4, "runs past the end");
  /* word count 0 */
  memcpy(c, w, n * 4);
  c[5] = c[5] & 0xffff;
  expect_fail_bytes(c, n * 4, "word count is 0");
  /* huge bound */
  memcpy(c, w, n * 4);
  c[3] = 0xffffffffu;
  expect_fail_bytes(c, n * 4, "bound");
  /* an id >= bound: raise a result id past the bound */
  memcpy(c, w, n * 4);
  c[3] = 4;
  expect_fail_bytes(c, n * 4, "out of bounds");
  /* byte-swapped module still loads */
  for (size_t i = 0; i < n; i++) c[i] = __builtin_bswap32(w[i]);
  {
    ld_module *m = NULL;
    ld_options o = {0};
    CHECK(ld_module_load_bytes(c, n * 4, &o, &m) == LD_OK && m != NULL);
    ld_module_free(m);
  }
  /* corrupt every word in turn: never crashes, error or success */
  for (size_t i = 5; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      memcpy(c, w, n * 4);
      c[i] = k == 0 ? 0 : k == 1 ? 0xffffffffu : c[i] ^ 0x10001u;
      ld_module *m = NULL;
      ld_options o = {0};
      o.validate = LD_VALIDATE_OFF;
      ld_module_load(c, n, &o, &m);
      ld_module_free(m);
    }
  }
  free(c);
  free(w);

  ld_result r;
  ld_module *m;
  m = load_opts(KERNEL_HEAD "%void = OpTypeVoid\n%fnty = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n"
                "%main = OpFunction %void None %fnty\n%entry = OpLabel\n"
                "%x = OpIAdd %u32 %u32 %missing\nOpReturn\nOpFunctionEnd\n",
                LD_VALIDATE_OFF, NULL, 0, &r);
  CHECK(m == NULL && r == LD_ERR_INVALID && strstr(last_err, "OpIAdd") && strstr(last_err, "word "));
  m = load_opts(EMPTY_MAIN, LD_VALIDATE_OFF, NULL, 0, &r);
  CHECK(m == NULL && r == LD_ERR_INVALID && strstr(last_err, "entry point"));
  {
    const char *txt = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
                      "OpEntryPoint GLCompute %main \"main\"\n" EMPTY_MAIN;
    size_t nn;
    uint32_t *ww = ld_assemble(txt, strlen(txt), &nn, NULL, NULL);
    ld_options o = {0};
    o.message = on_msg;
    n_errors = 0;
    m = NULL;
    CHECK(ww && ld_module_load(ww, nn, &o, &m) == LD_ERR_UNSUPPORTED && m == NULL &&
          strstr(last_err, "capability Shader is not supported"));
    free(ww);
  }
  /* spirv-val failure: one warning by default, an error in strict mode */
  const char *i2 = KERNEL_HEAD "%u2 = OpTypeInt 2 0\n" EMPTY_MAIN;
  m = load_opts(i2, LD_VALIDATE_WARN, NULL, 0, &r);
  CHECK(m != NULL && n_warnings == 1 && n_errors == 0);
  ld_module_free(m);
  m = load_opts(i2, LD_VALIDATE_STRICT, NULL, 0, &r);
  CHECK(m == NULL && r == LD_ERR_INVALID && strstr(last_err, "spirv-val"));
  /* assembler errors carry line:column */
  n_errors = 0;
  CHECK(ld_assemble("OpBogus\n", 8, &n, on_msg, NULL) == NULL && n_errors == 1 && strstr(last_err, "1:"));
}

static void test_spirv(void) {
  CHECK(strcmp(spv_opcode_name(SpvOpIAdd), "OpIAdd") == 0);
  CHECK(strncmp(spv_opcode_name(65000), "Op<unknown", 10) == 0);
  CHECK(spv_opcode_info(SpvOpSubgroupShuffleINTEL) != NULL);
  CHECK(strcmp(spv_storage_class_name(5), "CrossWorkgroup") == 0);
  CHECK(strcmp(spv_builtin_name(SpvBuiltInGlobalInvocationId), "GlobalInvocationId") == 0);
  CHECK(strcmp(spv_capability_name(SpvCapabilityGroupNonUniformBallot), "GroupNonUniformBallot") == 0);
  CHECK(strcmp(spv_opencl_std_name(61), "sqrt") == 0);
  CHECK(spv_opencl_debuginfo_name(35) && strcmp(spv_opencl_debuginfo_name(35), "DebugSource") == 0);
  CHECK(spv_enum_name("StorageClass", 999999) == NULL);
  uint32_t words[] = {(5u << 16) | SpvOpIAdd, 1, 2, 3, 4};
  spv_insn_ref ref = {SpvOpIAdd, 5, 0, words};
  char buf[128];
  spv_format_insn(&ref, NULL, NULL, buf, sizeof buf);
  CHECK(strcmp(buf, "%2 = OpIAdd %1 %3 %4") == 0);
  uint32_t st[] = {(5u << 16) | SpvOpStore, 7, 8, SpvMemoryAccessAlignedMask, 4};
  spv_insn_ref r2 = {SpvOpStore, 5, 0, st};
  spv_format_insn(&r2, NULL, NULL, buf, sizeof buf);
  CHECK(strcmp(buf, "OpStore %7 %8 Aligned 4") == 0);
}

/* Lane strides (ld_uni_lane_stride): expected values worked out by hand from
 * the affine rules (lane l = lane 0 + stride * l). */
static bool stride_of(const ld_uniformity *u, const ld_module *m, const char *name, int64_t *s) {
  uint32_t id = find_id(m, name);
  return id && ld_uni_lane_stride(u, id, s);
}

static void test_strides(void) {
  ld_module *m = load(
    "OpEntryPoint Kernel %main \"main\" %gidv %slv\n"
    "OpName %gx \"gx\"\nOpName %gy \"gy\"\nOpName %sl \"sl\"\nOpName %sl64 \"sl64\"\nOpName %m4 \"m4\"\n"
    "OpName %sh \"sh\"\nOpName %x0 \"x0\"\nOpName %p \"p\"\nOpName %p2 \"p2\"\nOpName %a32 \"a32\"\n"
    "OpName %a64 \"a64\"\nOpName %q \"q\"\nOpName %pv \"pv\"\nOpName %z \"z\"\nOpName %sel \"sel\"\n"
    "OpName %selv \"selv\"\nOpName %sq \"sq\"\nOpName %neg \"neg\"\nOpName %k \"k\"\nOpName %pa \"pa\"\n"
    "OpName %after \"after\"\nOpName %or1 \"or1\"\nOpName %sely \"sely\"\nOpName %wa \"wa\"\n"
    "OpName %wv \"wv\"\nOpName %ws \"ws\"\nOpName %n32 \"n32\"\nOpName %n32s \"n32s\"\nOpName %w64 \"w64\"\n"
    "OpDecorate %gidv BuiltIn GlobalInvocationId\nOpDecorate %slv BuiltIn SubgroupLocalInvocationId\n"
    "%void = OpTypeVoid\n%bool = OpTypeBool\n%f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n"
    "%v3l = OpTypeVector %u64 3\n%pin3 = OpTypePointer Input %v3l\n%pin = OpTypePointer Input %u32\n"
    "%pf = OpTypePointer CrossWorkgroup %f32\n%pl = OpTypePointer CrossWorkgroup %u64\n"
    "%c4_32 = OpConstant %u32 4\n%c4 = OpConstant %u64 4\n%c2 = OpConstant %u64 2\n%c1 = OpConstant %u64 1\n"
    "%pff = OpTypePointer Function %f32\n%arr = OpTypeArray %f32 %c4_32\n%parr = OpTypePointer Function %arr\n"
    "%fnty = OpTypeFunction %void %pf %pl %u32\n"
    "%warr = OpTypeArray %f32 %c4_32\n%pwarr = OpTypePointer Workgroup %warr\n%pwf = OpTypePointer Workgroup %f32\n"
    "%c0_32 = OpConstant %u32 0\n%c1_32 = OpConstant %u32 1\n%st = OpTypeStruct %u32 %warr\n%sarr = OpTypeArray %st %c4_32\n"
    "%psarr = OpTypePointer Workgroup %sarr\n%lw = OpVariable %pwarr Workgroup\n%lsv = OpVariable %psarr Workgroup\n"
    "%gidv = OpVariable %pin3 Input\n%slv = OpVariable %pin Input\n"
    "%main = OpFunction %void None %fnty\n%pa = OpFunctionParameter %pf\n%pb = OpFunctionParameter %pl\n"
    "%k = OpFunctionParameter %u32\n"
    "%entry = OpLabel\n%arrv = OpVariable %parr Function\n"
    "%g = OpLoad %v3l %gidv\n%gx = OpCompositeExtract %u64 %g 0\n%gy = OpCompositeExtract %u64 %g 1\n"
    "%sl = OpLoad %u32 %slv\n%sl64 = OpUConvert %u64 %sl\n%m4 = OpIMul %u64 %sl64 %c4\n"
    "%sh = OpShiftLeftLogical %u64 %gx %c2\n%x0 = OpISub %u64 %gx %sl64\n"
    "%p = OpInBoundsPtrAccessChain %pf %pa %gx\n%p2 = OpPtrAccessChain %pl %pb %sl\n"
    "%a32 = OpIAdd %u32 %sl %k\n%a64 = OpSConvert %u64 %a32\n%q = OpPtrAccessChain %pf %pa %a64\n"
    "%pv = OpInBoundsAccessChain %pff %arrv %c4_32\n"
    "%wa = OpInBoundsPtrAccessChain %pwf %lw %c0_32 %sl\n%wv = OpInBoundsAccessChain %pwf %lw %x0\n"
    "%ws = OpAccessChain %pwf %lsv %sl %c1_32 %c0_32\n"
    "%sq = OpIMul %u64 %gx %gx\n%neg = OpSNegate %u64 %m4\n"
    "%n32 = OpUConvert %u32 %gx\n%n32s = OpSConvert %u32 %sh\n%w64 = OpUConvert %u64 %n32\n"
    "%ku = OpUConvert %u64 %k\n%uc = OpULessThan %bool %ku %c4\n%sel = OpSelect %u64 %uc %sh %m4\n"
    "%or1 = OpBitwiseOr %u64 %gy %c1\n%cy = OpULessThan %bool %gy %c4\n%sely = OpSelect %u64 %cy %sh %m4\n"
    "%vc = OpULessThan %bool %sl %c4_32\n%selv = OpSelect %u64 %vc %sh %m4\n"
    "OpBranchConditional %vc %then %after\n"
    "%then = OpLabel\n%z = OpIAdd %u64 %gx %c1\nOpBranch %after\n"
    "%after = OpLabel\nOpReturn\nOpFunctionEnd\n");
  CHECK(m != NULL);
  if (!m) return;
  int64_t s = -99;
  ld_uniformity *u = ld_uniformity_compute(m, LD_UNI_PRIVATE_VARIES | LD_UNI_STRIDES | LD_UNI_LINEAR_X);
  ld_uniformity *n = ld_uniformity_compute(m, LD_UNI_PRIVATE_VARIES | LD_UNI_STRIDES);
  ld_uniformity *none = ld_uniformity_compute(m, LD_UNI_PRIVATE_VARIES);
  CHECK(u && n && none);
  CHECK(!stride_of(none, m, "sl", &s));         /* strides not asked for */
  CHECK(stride_of(u, m, "gx", &s) && s == 1);
  CHECK(stride_of(u, m, "gy", &s) && s == 0);
  CHECK(!stride_of(n, m, "gx", &s));          /* lanes may wrap rows without LINEAR_X */
  CHECK(stride_of(n, m, "sl", &s) && s == 1);
  CHECK(stride_of(n, m, "sl64", &s) && s == 1);   /* 0..S-1 widens exactly */
  CHECK(stride_of(n, m, "m4", &s) && s == 4);
  CHECK(stride_of(u, m, "sh", &s) && s == 4);
  CHECK(stride_of(u, m, "x0", &s) && s == 0);   /* gid - l: the subgroup's base */
  CHECK(stride_of(u, m, "p", &s) && s == 4);    /* float elements */
  CHECK(stride_of(n, m, "p2", &s) && s == 8);   /* ulong elements, exact u32 index */
  CHECK(stride_of(n, m, "a32", &s) && s == 1);  /* modulo 2^32 */
  CHECK(!stride_of(n, m, "a64", &s));           /* may wrap before the widening */
  CHECK(stride_of(u, m, "n32", &s) && s == 1);  /* narrowing: modulo 2^32 */
  CHECK(stride_of(u, m, "n32s", &s) && s == 4);
  CHECK(!stride_of(n, m, "n32", &s));           /* gx's own stride unknown */
  CHECK(!stride_of(u, m, "w64", &s));           /* the narrowed lanes may wrap */
  CHECK(!stride_of(n, m, "q", &s));
  CHECK(!stride_of(n, m, "pv", &s));            /* private: each lane's own memory */
  CHECK(!stride_of(u, m, "sq", &s));            /* not affine */
  CHECK(stride_of(n, m, "neg", &s) && s == -4);
  CHECK(stride_of(u, m, "sel", &s) && s == 4);   /* uniform condition, both 4 */
  CHECK(!stride_of(u, m, "selv", &s));          /* varying condition */
  CHECK(!stride_of(u, m, "z", &s));             /* divergent block */
  CHECK(stride_of(u, m, "or1", &s) && s == 0);  /* lane-wise op of uniform values */
  CHECK(!stride_of(n, m, "or1", &s));
  CHECK(stride_of(u, m, "sely", &s) && s == 4); /* condition uniform by strides */
  CHECK(!stride_of(n, m, "sely", &s));
  CHECK(stride_of(u, m, "k", &s) && s == 0);    /* a kernel argument */
  CHECK(stride_of(u, m, "pa", &s) && s == 0);
  CHECK(stride_of(n, m, "wa", &s) && s == 4);   /* an array index after the element index */
  CHECK(stride_of(u, m, "wv", &s) && s == 0);   /* uniform index */
  CHECK(stride_of(n, m, "ws", &s) && s == 20);  /* struct {uint; float[4]}: 20 bytes apart */
  ld_uniformity_free(u);
  ld_uniformity_free(n);
  ld_uniformity_free(none);
  ld_module_free(m);
}

int main(void) {
  test_spirv();
  test_types();
  test_constants();
  test_cfg();
  test_kernel();
  test_strides();
  test_bad();
  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
