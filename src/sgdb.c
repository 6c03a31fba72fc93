/* sgdb.c - spirv-sgdb: an interactive debugger with per-lane stepping.
 *
 * Drives the reference interpreter one subgroup-instruction at a time through
 * the stepping API of spirv_sg.h (sg_launch_*, sg_wg_*, sg_sg_*).  Commands
 * come from stdin (a terminal or a pipe) or from -x SCRIPT; see docs/sgdb.md.
 *
 * Read-only views of the module (types, names, source lines, disassembly) use
 * the loader IR that sg_module_ir() hands out to in-tree tools (loader/ld.h).
 * Everything that runs goes through spirv_sg.h: the diagnostic a step
 * raised arrives through sg_run_desc.on_diag, pointers are described by
 * sg_sg_describe_addr(), barrier waits come from sg_sg_blocked(), and .cl
 * input is compiled with line information by sg_load_options.debug_info.
 */
#include "spirv_sg.h"
#include "sg_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ld.h"
#include "spv.h"

#define PROG "spirv-sgdb"

enum { EXIT_OK = 0, EXIT_FAULT = 1, EXIT_USAGE = 2, EXIT_UNSUPPORTED = 3, EXIT_TOOL = 4 };

/* ------------------------------------------------------------------ options */

static struct {
  const char *file, *script;
  bool batch, no_debug_info;
  sg_run_opts run;             /* the options spirv-sgrun shares (runopts.c) */
} O;

static char first_error[1024];

static int die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int die(int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs(PROG ": error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return code;
}

static void on_message(void *user, sg_severity sev, const char *text)
{
  (void)user;
  if (sev == SG_SEV_ERROR) {
    if (!first_error[0])
      snprintf(first_error, sizeof first_error, "%s", text);
  } else if (sev == SG_SEV_WARNING) {
    fprintf(stderr, PROG ": warning: %s\n", text);
  } else {
    fprintf(stderr, "%s\n", text);
  }
}

static void usage(FILE *f)
{
  fputs(
"usage: " PROG " [options] FILE\n"
"\n"
"Debugs one OpenCL kernel on the reference interpreter, one subgroup\n"
"instruction at a time.  FILE is a run file (.sim) or a .cl/.spv/.spvasm with\n"
"--global/--local/--arg as for spirv-sgrun.  Commands are read from stdin\n"
"(prompt '(sgdb) '); type 'help' for the list.  See docs/sgdb.md.\n"
"\n"
"  -x FILE                  run the commands in FILE first\n"
"  --batch                  exit after the -x script (do not read stdin)\n"
"\n"
"Kernel, NDRange and arguments (as spirv-sgrun; see its --help):\n"
"  -k, --kernel NAME        kernel (default: the only one)\n"
"  --global X[,Y[,Z]]       global size (default: the local size, else 1)\n"
"  --local X[,Y[,Z]]        work-group size (default: chosen)\n"
"  --offset X[,Y[,Z]]       global offset (default 0)\n"
"  --subgroup-size N        1..128 (default: the kernel's required size,\n"
"                           else 16; a conflict is an error)\n"
"  --arg [NAME=|INDEX=]SPEC V[,V...] | fill:V:COUNT | range:START:INC:COUNT |\n"
"                           random:COUNT[:LO:HI] | zero:COUNT | file:PATH |\n"
"                           local:BYTES | null  (buffers default to zeros)\n"
"  --seed N                 seed for random: (default 1)\n"
"  --ub=warn|error|ignore   undefined behaviour in subgroup code (default warn)\n"
"  --step-limit N           instructions per subgroup before a fault\n"
"\n"
"Loading:\n"
"  --no-validate  --strict-validate  --spec ID=VALUE\n"
"  -O0..-O3 (default -O0 for .cl)  --cl-std=CL1.2|CL2.0|CL3.0  -D NAME[=VALUE]\n"
"  --build-options OPTIONS (oclgrind-kernel's: -cl-std=, -D, -I DIR, -cl-*)\n"
"  --no-debug-info          compile .cl without debug information (no\n"
"                           source lines)\n"
"  -h, --help  --version\n",
      f);
}

static int parse_options(int argc, char **argv)
{
  sg_run_opts_init(&O.run, 0);   /* .cl input: -O0 unless told */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char err[512];
    int taken = sg_run_opts_parse(&O.run, argc, argv, &i, err, sizeof err);
    if (taken < 0)
      return die(EXIT_USAGE, "%s", err);
    if (taken)
      continue;
    const char *val;
    char name[64];
    sg_opt_split(a, name, sizeof name, &val);
#define NEED_VALUE()                                                              \
    do {                                                                          \
      if (!(val = sg_opt_value(argc, argv, &i, val)))                             \
        return die(EXIT_USAGE, "option %s needs a value (see --help)", name);     \
    } while (0)
#define IS(s) (!strcmp(name, s))
    if (IS("-h") || IS("--help")) {
      usage(stdout);
      return EXIT_OK;
    } else if (IS("--version")) {
      printf(PROG " " SG_VERSION_STRING "\n");
      return EXIT_OK;
    } else if (IS("-x")) {
      NEED_VALUE();
      O.script = val;
    } else if (IS("--batch")) {
      O.batch = true;
    } else if (IS("--no-debug-info")) {
      O.no_debug_info = true;
    } else if (a[0] == '-' && a[1]) {
      return die(EXIT_USAGE, "unknown option '%s' (see --help)", a);
    } else {
      if (O.file)
        return die(EXIT_USAGE, "more than one input file ('%s' and '%s')", O.file, a);
      O.file = a;
    }
#undef IS
#undef NEED_VALUE
  }
  if (!O.file)
    return die(EXIT_USAGE, "no input file (usage: " PROG " [options] FILE; see --help)");
  return -1;
}

/* ------------------------------------------------------------------ files */

static bool has_ext(const char *p, const char *e)
{
  size_t n = strlen(p), m = strlen(e);
  return n > m && !strcasecmp(p + n - m, e);
}

/* ------------------------------------------------------------ session state */

enum { BP_LINE, BP_ID, BP_LABEL, BP_OP, BP_FUNC };

typedef struct bp {
  int num;
  int kind;
  char *file;               /* BP_LINE: NULL = any file */
  uint32_t line, id, opcode;
  const ld_function *fn;
  char *spec;
  uint64_t hits;
} bp;

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

static struct {
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
} S;

static volatile sig_atomic_t interrupted;
static void on_sigint(int s) { (void)s; interrupted = 1; }

static int cmp_insn_word(const void *a, const void *b)
{
  const ld_insn *x = *(const ld_insn *const *)a, *y = *(const ld_insn *const *)b;
  return x->word_offset < y->word_offset ? -1 : x->word_offset > y->word_offset;
}

static void index_insns(void)
{
  uint32_t n = 0;
  for (uint32_t f = 0; f < S.ir->n_functions; f++)
    for (uint32_t b = 0; b < S.ir->functions[f]->n_blocks; b++)
      n += S.ir->functions[f]->blocks[b].n_insns;
  S.by_word = calloc(n ? n : 1, sizeof *S.by_word);
  if (!S.by_word)
    return;
  for (uint32_t f = 0; f < S.ir->n_functions; f++)
    for (uint32_t b = 0; b < S.ir->functions[f]->n_blocks; b++) {
      const ld_block *bl = &S.ir->functions[f]->blocks[b];
      for (uint32_t i = 0; i < bl->n_insns; i++)
        S.by_word[S.n_insns++] = &bl->insns[i];
    }
  qsort(S.by_word, S.n_insns, sizeof *S.by_word, cmp_insn_word);
}

static const ld_insn *insn_at_word(uint32_t word)
{
  uint32_t lo = 0, hi = S.n_insns;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (S.by_word[mid]->word_offset < word) lo = mid + 1;
    else hi = mid;
  }
  return lo < S.n_insns && S.by_word[lo]->word_offset == word ? S.by_word[lo] : NULL;
}

static wgslot *cur_slot(void) { return S.cur >= 0 ? &S.slots[S.cur] : NULL; }

static sg_sg *cur_sg(void)
{
  wgslot *w = cur_slot();
  return w ? sg_wg_subgroup(w->wg, S.cur_sg) : NULL;
}

static const ld_insn *sg_insn(const sg_sg *sg)
{
  sg_insn_info ii;
  return sg && sg_sg_current(sg, &ii) ? insn_at_word(ii.word) : NULL;
}

static const ld_insn *frame_insn(const sg_sg *sg, uint32_t depth)
{
  sg_insn_info ii;
  return sg && sg_sg_frame_insn(sg, depth, &ii) ? insn_at_word(ii.word) : NULL;
}

/* ------------------------------------------------------------- formatting */

static const char *base_name(const char *p)
{
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static void type_name(const ld_type *t, char *buf, size_t n)
{
  if (!t) { snprintf(buf, n, "?"); return; }
  char in[96];
  switch (t->kind) {
  case LD_T_VOID: snprintf(buf, n, "void"); break;
  case LD_T_BOOL: snprintf(buf, n, "bool"); break;
  case LD_T_INT:
    snprintf(buf, n, "%s", t->width == 8 ? "uchar" : t->width == 16 ? "ushort" : t->width == 32 ? "uint" :
             t->width == 64 ? "ulong" : "int");
    if (t->width != 8 && t->width != 16 && t->width != 32 && t->width != 64)
      snprintf(buf, n, "i%u", t->width);
    break;
  case LD_T_FLOAT: snprintf(buf, n, "%s", t->width == 16 ? "half" : t->width == 64 ? "double" : "float"); break;
  case LD_T_VECTOR: type_name(t->elem, in, sizeof in); snprintf(buf, n, "v%u%s", t->count, in); break;
  case LD_T_ARRAY: type_name(t->elem, in, sizeof in); snprintf(buf, n, "_arr_%s_%u", in, t->count); break;
  case LD_T_RUNTIME_ARRAY: type_name(t->elem, in, sizeof in); snprintf(buf, n, "_rarr_%s", in); break;
  case LD_T_STRUCT: snprintf(buf, n, "_struct_%u", t->id); break;
  case LD_T_POINTER: {
    type_name(t->elem, in, sizeof in);
    const char *sc = spv_storage_class_name(t->storage);
    snprintf(buf, n, "_ptr_%s_%s", sc ? sc : "?", in);
    break;
  }
  case LD_T_FUNCTION: snprintf(buf, n, "_fn_%u", t->id); break;
  default: snprintf(buf, n, "_type_%u", t->id); break;
  }
}

/* Names for disassembly: OpName, else a friendly type / constant name. */
static char namebuf[8][128];
static unsigned namebuf_i;

static const char *id_namer(void *user, uint32_t id)
{
  (void)user;
  if (!id || id >= S.ir->bound)
    return NULL;
  const ld_value *v = &S.ir->values[id];
  if (v->name && *v->name)
    return v->name;
  char *b = namebuf[namebuf_i++ & 7];
  if (v->kind == LD_V_TYPE && v->type) {
    type_name(v->type, b, sizeof namebuf[0]);
    return b;
  }
  if (v->kind == LD_V_CONSTANT && v->type && v->u.bytes && !v->is_spec_constant &&
      (v->type->kind == LD_T_INT || v->type->kind == LD_T_BOOL) && v->type->size <= 8) {
    uint64_t x = 0;
    memcpy(&x, v->u.bytes, v->type->size);
    if (v->type->kind == LD_T_BOOL)
      snprintf(b, sizeof namebuf[0], "%s", x ? "true" : "false");
    else {
      char tn[32];
      type_name(v->type, tn, sizeof tn);
      snprintf(b, sizeof namebuf[0], "%s_%" PRIu64, tn, x);
    }
    return b;
  }
  return NULL;
}

static void format_insn(const ld_insn *in, char *buf, size_t n)
{
  uint32_t words[512];
  uint32_t k = 1;
  const spv_opcode_desc *d = spv_opcode_info(in->op);
  bool ht = d ? d->has_type : in->type != NULL, hr = d ? d->has_result : in->result != 0;
  if (ht) words[k++] = in->type ? in->type->id : 0;
  if (hr) words[k++] = in->result;
  for (uint32_t i = 0; i < in->n_ops && k < 512; i++)
    words[k++] = in->ops[i];
  words[0] = (k << 16) | (uint32_t)in->op;
  spv_insn_ref r = {in->op, (uint16_t)k, in->word_offset, words};
  spv_format_insn(&r, id_namer, NULL, buf, n);
  /* OpExtInst: name the extended instruction */
  if (in->op == SpvOpExtInst && in->ext_set == LD_EXT_OPENCL_STD) {
    const char *en = spv_opencl_std_name(in->ext_op);
    char num[32];
    snprintf(num, sizeof num, " %u ", in->ext_op);
    char *p = en ? strstr(buf, num) : NULL;
    if (p && strlen(buf) + strlen(en) + 2 < n) {
      char tail[1024];
      snprintf(tail, sizeof tail, "%s", p + strlen(num) - 1);
      snprintf(p, n - (size_t)(p - buf), " %s%s", en, tail);
    }
  }
}

static const char *loc_str(const ld_insn *in, char *buf, size_t n)
{
  if (in && in->loc && in->loc->file)
    snprintf(buf, n, "%s:%u", base_name(in->loc->file), in->loc->line);
  else if (in)
    snprintf(buf, n, "word %u", in->word_offset);
  else
    snprintf(buf, n, "?");
  return buf;
}

static void mask_str(const uint64_t m[2], uint32_t n_lanes, char *buf, size_t n)
{
  size_t used = 0;
  buf[0] = 0;
  bool any = false;
  for (uint32_t l = 0; l < n_lanes && l < 128; l++) {
    if (!((m[l >> 6] >> (l & 63)) & 1))
      continue;
    uint32_t e = l;
    while (e + 1 < n_lanes && e + 1 < 128 && ((m[(e + 1) >> 6] >> ((e + 1) & 63)) & 1))
      e++;
    int w = e == l ? snprintf(buf + used, n - used, "%s%u", any ? "," : "", l)
                   : snprintf(buf + used, n - used, "%s%u-%u", any ? "," : "", l, e);
    if (w < 0 || (size_t)w >= n - used)
      break;
    used += (size_t)w;
    any = true;
    l = e;
  }
  if (!any)
    snprintf(buf, n, "none");
}

static bool lane_active(const uint64_t m[2], uint32_t l) { return l < 128 && ((m[l >> 6] >> (l & 63)) & 1); }

/* ---------------------------------------------------------- source files */

static srcfile *source_for(const char *path)
{
  for (uint32_t i = 0; i < S.n_src; i++)
    if (!strcmp(S.src[i].path, path))
      return S.src[i].text ? &S.src[i] : NULL;
  srcfile *ns = realloc(S.src, (S.n_src + 1) * sizeof *ns);
  if (!ns)
    return NULL;
  S.src = ns;
  srcfile *f = &S.src[S.n_src++];
  memset(f, 0, sizeof *f);
  f->path = strdup(path);
  FILE *fp = fopen(path, "rb");
  if (!fp || !f->path) {
    if (fp) fclose(fp);
    return NULL;
  }
  size_t cap = 0, n = 0;
  char *t = NULL;
  for (;;) {
    if (n + 1 >= cap) {
      cap = cap ? cap * 2 : 4096;
      char *nt = realloc(t, cap);
      if (!nt) break;
      t = nt;
    }
    size_t got = fread(t + n, 1, cap - n - 1, fp);
    if (!got) break;
    n += got;
  }
  fclose(fp);
  if (!t)
    return NULL;
  t[n] = 0;
  f->text = t;
  uint32_t lines = 1;
  for (size_t i = 0; i < n; i++)
    lines += t[i] == '\n';
  f->lines = calloc(lines + 1, sizeof *f->lines);
  if (!f->lines) {
    f->text = NULL;
    free(t);
    return NULL;
  }
  char *p = t;
  while (p && f->n_lines < lines) {
    f->lines[f->n_lines++] = p;
    char *nl = strchr(p, '\n');
    if (nl) { *nl = 0; p = nl + 1; } else p = NULL;
  }
  return f;
}

static const char *source_line(const ld_insn *in)
{
  if (!in || !in->loc || !in->loc->file)
    return NULL;
  srcfile *f = source_for(in->loc->file);
  if (!f || !in->loc->line || in->loc->line > f->n_lines)
    return NULL;
  return f->lines[in->loc->line - 1];
}

/* ------------------------------------------------------------ values */

static uint64_t rd_uint(const uint8_t *p, uint32_t size)
{
  uint64_t v = 0;
  memcpy(&v, p, size > 8 ? 8 : size);
  return v;
}

static void put(char *buf, size_t n, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
  if (*used >= n)
    return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(buf + *used, n - *used, fmt, ap);
  va_end(ap);
  if (w > 0)
    *used = *used + (size_t)w >= n ? n - 1 : *used + (size_t)w;
}

static void format_value(const ld_type *t, const uint8_t *p, size_t avail, const sg_sg *sg,
                         char *buf, size_t n, size_t *used, int depth)
{
  if (!t || t->size > avail) {
    put(buf, n, used, "<?>");
    return;
  }
  switch (t->kind) {
  case LD_T_BOOL: put(buf, n, used, "%s", p[0] ? "true" : "false"); break;
  case LD_T_INT: {
    uint64_t v = rd_uint(p, t->size);
    uint32_t w = t->width ? t->width : t->size * 8;
    if (w < 64)
      v &= ((uint64_t)1 << w) - 1;
    put(buf, n, used, "%" PRIu64, v);
    if (w <= 64 && w > 0 && ((v >> (w - 1)) & 1)) {
      int64_t sv = w == 64 ? (int64_t)v : (int64_t)(v | ~(((uint64_t)1 << w) - 1));
      put(buf, n, used, " (%" PRId64 ")", sv);
    }
    break;
  }
  case LD_T_FLOAT:
    if (t->width == 16) {
      _Float16 h;
      memcpy(&h, p, 2);
      put(buf, n, used, "%.5g", (double)h);
    } else if (t->width == 64) {
      double d;
      memcpy(&d, p, 8);
      put(buf, n, used, "%.17g", d);
    } else {
      float f;
      memcpy(&f, p, 4);
      put(buf, n, used, "%.9g", (double)f);
    }
    break;
  case LD_T_VECTOR:
  case LD_T_ARRAY:
    if (depth > 3 || !t->elem) { put(buf, n, used, "{...}"); break; }
    put(buf, n, used, t->kind == LD_T_VECTOR ? "(" : "{");
    for (uint32_t i = 0; i < t->count && i < 64; i++) {
      if (i) put(buf, n, used, ", ");
      format_value(t->elem, p + (size_t)i * t->elem->size, avail - (size_t)i * t->elem->size, sg,
                   buf, n, used, depth + 1);
    }
    if (t->count > 64) put(buf, n, used, ", ...");
    put(buf, n, used, t->kind == LD_T_VECTOR ? ")" : "}");
    break;
  case LD_T_STRUCT:
    if (depth > 3) { put(buf, n, used, "{...}"); break; }
    put(buf, n, used, "{");
    for (uint32_t i = 0; i < t->n_members; i++) {
      if (i) put(buf, n, used, ", ");
      uint32_t off = t->offsets ? t->offsets[i] : 0;
      format_value(t->members[i], p + off, off < avail ? avail - off : 0, sg, buf, n, used, depth + 1);
    }
    put(buf, n, used, "}");
    break;
  case LD_T_POINTER: {
    uint64_t v = rd_uint(p, t->size);
    char d[256] = "";
    if (sg)
      sg_sg_describe_addr(sg, v, d, sizeof d);
    put(buf, n, used, "0x%" PRIx64 " -> %s", v, d);
    break;
  }
  default:
    put(buf, n, used, "<%u bytes>", t->size);
  }
}

/* ---------------------------------------------------------- breakpoints */

static const ld_function *find_function(const char *name)
{
  for (uint32_t i = 0; i < S.ir->n_functions; i++) {
    const ld_function *f = S.ir->functions[i];
    if (f->name && !strcmp(f->name, name) && f->n_blocks)
      return f;
  }
  return NULL;
}

static bool file_matches(const char *want, const char *have)
{
  if (!want)
    return true;
  if (!have)
    return false;
  size_t a = strlen(want), b = strlen(have);
  if (!strcmp(want, have) || !strcmp(base_name(have), want))
    return true;
  return b > a && !strcmp(have + b - a, want) && have[b - a - 1] == '/';
}

static bool same_line(const ld_insn *a, const ld_insn *b)
{
  return a && b && a->loc && b->loc && a->loc->line == b->loc->line &&
         a->block->fn == b->block->fn && !strcmp(a->loc->file, b->loc->file);
}

/* Does breakpoint b trigger on reaching `in` after executing `prev`? */
static bool bp_match(const bp *b, const ld_insn *in, const ld_insn *prev)
{
  switch (b->kind) {
  case BP_LINE:
    return in->loc && in->loc->line == b->line && file_matches(b->file, in->loc->file) &&
           !same_line(in, prev);
  case BP_ID: return in->result == b->id;
  case BP_LABEL: return in->block->label == b->id && (!prev || prev->block != in->block);
  case BP_OP: return (uint32_t)in->op == b->opcode;
  case BP_FUNC: return in->block->fn == b->fn && in->block->index == 0 && (!prev || prev->block->fn != b->fn);
  }
  return false;
}

static uint32_t bp_count_sites(const bp *b)
{
  uint32_t n = 0;
  for (uint32_t i = 0; i < S.n_insns; i++) {
    const ld_insn *in = S.by_word[i];
    const ld_insn *pv = in->index ? &in->block->insns[in->index - 1] : NULL;
    if (b->kind == BP_LINE ? (in->loc && in->loc->line == b->line && file_matches(b->file, in->loc->file) && !same_line(in, pv))
                           : bp_match(b, in, pv))
      n++;
  }
  return n;
}

/* ------------------------------------------------------------- running */

static void show_stop(const char *why);

/* Prints the runfile dumps after the kernel finished. */
static void print_dumps(void)
{
  if (!S.rf)
    return;
  uint32_t n;
  const sg_runfile_output *ro = sg_runfile_outputs(S.rf, &n);
  for (uint32_t i = 0; i < n; i++) {
    if (!ro[i].dump || ro[i].arg >= S.k->n_args || !S.args[ro[i].arg].data)
      continue;
    char *t = sg_format_dump(ro[i].name, ro[i].scalar, ro[i].hex, S.args[ro[i].arg].data,
                             S.args[ro[i].arg].size);
    if (t) {
      fputs(t, stdout);
      free(t);
    }
  }
}

static void end_slot(int idx)
{
  wgslot *w = &S.slots[idx];
  sg_wg_end(w->wg);
  free(w->st);
  S.wg_status[w->linear] = 2;
  S.slots[idx] = S.slots[--S.n_slots];
  if (S.cur == idx)
    S.cur = -1;
  else if (S.cur == (int)S.n_slots)
    S.cur = idx;
}

static int begin_group(uint64_t lin)
{
  uint32_t g[3];
  g[0] = (uint32_t)(lin % S.groups[0]);
  g[1] = (uint32_t)(lin / S.groups[0] % S.groups[1]);
  g[2] = (uint32_t)(lin / S.groups[0] / S.groups[1]);
  char err[256] = "";
  sg_wg *wg = sg_wg_begin(S.l, g, err, sizeof err);
  if (!wg) {
    printf("error: %s\n", err[0] ? err : "cannot start the work-group");
    return -1;
  }
  wgslot *ns = realloc(S.slots, (S.n_slots + 1) * sizeof *ns);
  if (!ns) {
    sg_wg_end(wg);
    return -1;
  }
  S.slots = ns;
  wgslot *w = &S.slots[S.n_slots];
  w->linear = lin;
  memcpy(w->group, g, sizeof g);
  w->wg = wg;
  w->n_sgs = sg_wg_subgroup_count(wg);
  w->st = calloc(w->n_sgs ? w->n_sgs : 1, sizeof *w->st);
  S.wg_status[lin] = 1;
  return (int)S.n_slots++;
}

/* Makes sure there is a current work-group; false when the kernel is done. */
static bool ensure_current(void)
{
  if (S.cur >= 0)
    return true;
  if (S.n_slots) {
    S.cur = 0;
    S.cur_sg = 0;
    return true;
  }
  for (uint64_t i = 0; i < S.n_groups; i++)
    if (S.wg_status[i] == 0) {
      int idx = begin_group(i);
      if (idx < 0)
        return false;
      S.cur = idx;
      S.cur_sg = 0;
      return true;
    }
  return false;
}

static void kernel_finished(void)
{
  if (S.finished)
    return;
  S.finished = true;
  printf("[kernel finished: %" PRIu64 " diagnostic%s]\n", S.n_faults, S.n_faults == 1 ? "" : "s");
  print_dumps();
}

/* Result of stepping: what happened and to which subgroup. */
typedef enum { ST_OK, ST_FAULT, ST_SG_DONE, ST_WG_DONE, ST_BLOCKED, ST_STOPPED, ST_NONE } st_kind;

/* The diagnostic the last step raised (sg_run_desc.on_diag). */
static struct {
  uint64_t seq;             /* diagnostics seen */
  uint64_t before;          /* seq when the last step began */
  char text[1024];
} last_diag;

static void on_diag(void *user, const sg_diag *d)
{
  (void)user;
  last_diag.seq++;
  snprintf(last_diag.text, sizeof last_diag.text, "%s", d->formatted);
}

static void print_fault(void)
{
  if (last_diag.seq == last_diag.before) {
    printf("diagnostic raised (record not available)\n");
    return;
  }
  printf("%s\n", last_diag.text);
  wgslot *w = cur_slot();
  const ld_insn *at = w ? w->st[S.cur_sg].prev : NULL;
  if (at) {
    char ib[1024], ls[256];
    format_insn(at, ib, sizeof ib);
    printf("  raised by: %s  (%s)\n", ib, loc_str(at, ls, sizeof ls));
  }
}

/* Steps subgroup i of the current work-group once, updating our state. */
static st_kind step_one(uint32_t i)
{
  wgslot *w = cur_slot();
  sg_sg *sg = sg_wg_subgroup(w->wg, i);
  if (!sg || sg_sg_done(sg))
    return ST_SG_DONE;
  const ld_insn *before = sg_insn(sg);
  last_diag.before = last_diag.seq;
  sg_step r = sg_sg_step(sg);
  if (r == SG_STEP_BLOCKED)
    return ST_BLOCKED;
  w->st[i].prev = before;
  if (r == SG_STEP_FAULT) {
    S.n_faults++;
    return ST_FAULT;
  }
  if (r == SG_STEP_STOPPED)
    return ST_STOPPED;
  if (r == SG_STEP_DONE || sg_sg_done(sg))
    return ST_SG_DONE;
  return ST_OK;
}

/* Subgroup i of w waits at a work-group barrier. */
static bool at_barrier(const wgslot *w, uint32_t i)
{
  return sg_sg_blocked(sg_wg_subgroup(w->wg, i));
}

static bool wg_all_done(const wgslot *w)
{
  for (uint32_t i = 0; i < w->n_sgs; i++)
    if (!sg_sg_done(sg_wg_subgroup(w->wg, i)))
      return false;
  return true;
}

/* Picks a subgroup of the current work-group to run: `prefer` if it can run,
 * else the next one that is not waiting; if all wait, one of the waiting
 * ones (which releases the barrier).  UINT32_MAX when all are done. */
static uint32_t pick_sg(uint32_t prefer, bool avoid_prefer)
{
  wgslot *w = cur_slot();
  uint32_t n = w->n_sgs;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = (prefer + k) % n;
    if (avoid_prefer && i == prefer)
      continue;
    if (!sg_sg_done(sg_wg_subgroup(w->wg, i)) && !at_barrier(w, i))
      return i;
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = (prefer + k) % n;
    if (!sg_sg_done(sg_wg_subgroup(w->wg, i)))
      return i;
  }
  return UINT32_MAX;
}

static const bp *check_bps(uint32_t i)
{
  wgslot *w = cur_slot();
  sg_sg *sg = sg_wg_subgroup(w->wg, i);
  const ld_insn *in = sg_insn(sg);
  if (!in)
    return NULL;
  for (uint32_t b = 0; b < S.n_bps; b++)
    if (bp_match(&S.bps[b], in, w->st[i].prev)) {
      S.bps[b].hits++;
      return &S.bps[b];
    }
  return NULL;
}

/* Runs until a breakpoint, a diagnostic, or the end of the kernel. */
static void cmd_continue(void)
{
  if (S.finished) {
    printf("The kernel has finished; 'restart' runs it again.\n");
    return;
  }
  interrupted = 0;
  uint32_t last_all_blocked = 0;
  for (;;) {
    if (interrupted) {
      show_stop("Interrupted.");
      return;
    }
    if (!ensure_current()) {
      kernel_finished();
      return;
    }
    wgslot *w = cur_slot();
    uint32_t i = pick_sg(S.cur_sg, false);
    if (i == UINT32_MAX) {
      printf("[work-group (%u,%u,%u) finished]\n", w->group[0], w->group[1], w->group[2]);
      end_slot(S.cur);
      continue;
    }
    S.cur_sg = i;
    st_kind r = step_one(i);
    if (r == ST_BLOCKED) {
      bool all = true;
      for (uint32_t j = 0; j < w->n_sgs; j++)
        if (!sg_sg_done(sg_wg_subgroup(w->wg, j)) && !at_barrier(w, j))
          all = false;
      if (all && ++last_all_blocked > 2 * w->n_sgs + 2) {
        printf("error: every subgroup of the work-group waits and none can be released\n");
        return;
      }
      /* try the next one */
      S.cur_sg = (i + 1) % w->n_sgs;
      continue;
    }
    last_all_blocked = 0;
    if (r == ST_FAULT) {
      print_fault();
      show_stop("Stopped on the diagnostic above.");
      return;
    }
    if (r == ST_STOPPED) {
      show_stop("The launch was stopped.");
      return;
    }
    if (r == ST_SG_DONE)
      continue;
    const bp *b = check_bps(i);
    if (b) {
      char msg[300];
      snprintf(msg, sizeof msg, "Breakpoint %d, %s", b->num, b->spec);
      show_stop(msg);
      return;
    }
  }
}

/* One instruction of the current subgroup; runs the others while it waits
 * at a barrier.  Returns false if nothing could be stepped. */
static bool step_current(bool quiet)
{
  if (!ensure_current()) {
    kernel_finished();
    return false;
  }
  wgslot *w = cur_slot();
  sg_sg *sg = cur_sg();
  if (!sg || sg_sg_done(sg)) {
    printf("Subgroup %u has finished; pick another with 'subgroup N' or 'continue'.\n", S.cur_sg);
    return false;
  }
  uint32_t me = S.cur_sg;
  st_kind r = step_one(me);
  if (r == ST_BLOCKED) {
    /* everyone else already waits (or is done): the next step releases */
    uint32_t waiting = 0, unfinished = 0;
    for (uint32_t j = 0; j < w->n_sgs; j++)
      if (!sg_sg_done(sg_wg_subgroup(w->wg, j))) {
        unfinished++;
        waiting += at_barrier(w, j);
      }
    if (waiting == unfinished)
      r = step_one(me);
    if (r == ST_BLOCKED) {
      (void)quiet;
      printf("[subgroup %u waits at a work-group barrier: %u of %u subgroups arrived; "
             "'continue' or step the others ('subgroup N')]\n", me, waiting, unfinished);
      show_stop(NULL);
      return false;
    }
  }
  if (r == ST_FAULT) {
    print_fault();
    show_stop("Stopped on the diagnostic above.");
    return false;
  }
  if (r == ST_SG_DONE) {
    printf("[subgroup %u finished]\n", me);
    if (wg_all_done(w)) {
      printf("[work-group (%u,%u,%u) finished]\n", w->group[0], w->group[1], w->group[2]);
      end_slot(S.cur);
      if (!ensure_current())
        kernel_finished();
      else
        show_stop(NULL);
    }
    return false;
  }
  return r == ST_OK;
}

/* ------------------------------------------------------------ display */

static void show_insn_line(const ld_insn *in, bool marker)
{
  char b[1024];
  format_insn(in, b, sizeof b);
  printf("%s %s\n", marker ? "=>" : "  ", b);
}

static void show_stop(const char *why)
{
  if (why)
    printf("%s\n", why);
  wgslot *w = cur_slot();
  sg_sg *sg = cur_sg();
  if (!w || !sg) {
    printf("No current subgroup.\n");
    return;
  }
  if (sg_sg_done(sg)) {
    printf("[work-group (%u,%u,%u) subgroup %u] finished\n", w->group[0], w->group[1], w->group[2], S.cur_sg);
    return;
  }
  uint64_t m[2];
  sg_sg_active(sg, m);
  char ms[512], ls[256];
  mask_str(m, sg_sg_lane_count(sg), ms, sizeof ms);
  const ld_insn *in = sg_insn(sg);
  const char *fn = sg_sg_frame_function(sg, 0);
  printf("[work-group (%u,%u,%u) subgroup %u, lanes %s] %s at %s%s\n", w->group[0], w->group[1],
         w->group[2], S.cur_sg, ms, fn ? fn : "?", loc_str(in, ls, sizeof ls),
         at_barrier(w, S.cur_sg) ? " (waiting at a barrier)" : "");
  const char *src = source_line(in);
  if (src)
    printf("%u\t%s\n", in->loc->line, src);
  if (in)
    show_insn_line(in, true);
  S.list_at = in;
  S.list_line = 0;
}

/* ------------------------------------------------------------ commands */

static bool need_sg(void)
{
  if (S.finished) {
    printf("The kernel has finished; 'restart' runs it again.\n");
    return false;
  }
  if (!ensure_current()) {
    kernel_finished();
    return false;
  }
  return true;
}

static bool parse_uint(const char *s, uint64_t *out) { return sg_parse_u64(s, out); }

static void cmd_step(int argc, char **argv)
{
  uint64_t n = 1;
  if (argc > 1 && (!parse_uint(argv[1], &n) || n == 0 || n > 100000000)) {
    printf("error: step: bad count '%s'\n", argv[1]);
    return;
  }
  if (!need_sg())
    return;
  interrupted = 0;
  for (uint64_t k = 0; k < n && !interrupted; k++) {
    if (!step_current(false))
      return;
    if (k + 1 < n && check_bps(S.cur_sg)) {
      show_stop("Breakpoint hit during step.");
      return;
    }
  }
  show_stop(NULL);
}

static void cmd_next(bool finish)
{
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  const ld_insn *start = sg_insn(sg);
  uint32_t d0 = sg_sg_depth(sg);
  if (finish && d0 <= 1) {
    printf("error: finish: the outermost frame has no caller\n");
    return;
  }
  if (!finish && (!start || !start->loc)) {
    if (!step_current(false))
      return;
    show_stop(NULL);
    return;
  }
  interrupted = 0;
  for (uint64_t guard = 0; guard < 100000000 && !interrupted; guard++) {
    if (!step_current(true))
      return;
    sg = cur_sg();
    uint32_t d = sg_sg_depth(sg);
    const ld_insn *in = sg_insn(sg);
    if (finish) {
      if (d < d0)
        break;
      continue;
    }
    if (d > d0)
      continue;           /* inside a call: step over it */
    if (d < d0 || !in || !in->loc)
      break;
    if (in->loc->line != start->loc->line && in->loc->line != 0)
      break;
  }
  show_stop(NULL);
}

static bool has_lines(void)
{
  for (uint32_t i = 0; i < S.n_insns; i++)
    if (S.by_word[i]->loc)
      return true;
  return false;
}

static int add_bp(const char *spec)
{
  bp b;
  memset(&b, 0, sizeof b);
  const char *colon = strrchr(spec, ':');
  uint64_t v;
  if (sg_parse_u64(spec, &v) && v && v <= UINT32_MAX) {
    b.kind = BP_LINE;
    b.line = (uint32_t)v;
  } else if (colon && colon != spec && sg_parse_u64(colon + 1, &v) && v && v <= UINT32_MAX) {
    b.kind = BP_LINE;
    b.line = (uint32_t)v;
    b.file = strndup(spec, (size_t)(colon - spec));
  } else if (spec[0] == '%') {
    uint32_t id = 0;
    if (sg_parse_u64(spec + 1, &v) && v < S.ir->bound) {
      id = (uint32_t)v;
    } else {
      for (uint32_t i = 1; i < S.ir->bound && !id; i++)
        if (S.ir->values[i].name && !strcmp(S.ir->values[i].name, spec + 1) &&
            (S.ir->values[i].kind == LD_V_RESULT || S.ir->values[i].kind == LD_V_LABEL ||
             S.ir->values[i].kind == LD_V_FUNCTION))
          id = i;
    }
    const ld_value *val = id ? &S.ir->values[id] : NULL;
    if (!val || (val->kind != LD_V_RESULT && val->kind != LD_V_LABEL && val->kind != LD_V_FUNCTION)) {
      printf("error: break %s: not an instruction result, label or function of the module\n", spec);
      return -1;
    }
    if (val->kind == LD_V_FUNCTION) {
      b.kind = BP_FUNC;
      b.fn = val->u.fn;
      if (!b.fn || !b.fn->n_blocks) {
        printf("error: break %s: the function has no body\n", spec);
        return -1;
      }
    } else {
      b.kind = val->kind == LD_V_LABEL ? BP_LABEL : BP_ID;
      b.id = id;
    }
  } else if (!strncmp(spec, "Op", 2)) {
    uint32_t op = UINT32_MAX;
    for (uint32_t o = 0; o < 7000 && op == UINT32_MAX; o++) {
      const spv_opcode_desc *d = spv_opcode_info(o);
      if (d && !strcmp(d->name, spec))
        op = o;
    }
    if (op == UINT32_MAX) {
      const char *s = strstr(spec, "INTEL") || strstr(spec, "KHR") ? NULL : NULL;
      (void)s;
      for (uint32_t o = 4400; o < 6500 && op == UINT32_MAX; o++) {
        const spv_opcode_desc *d = spv_opcode_info(o);
        if (d && !strcmp(d->name, spec))
          op = o;
      }
    }
    if (op == UINT32_MAX) {
      printf("error: break %s: unknown opcode name\n", spec);
      return -1;
    }
    b.kind = BP_OP;
    b.opcode = op;
  } else {
    b.fn = find_function(spec);
    if (!b.fn) {
      printf("error: break %s: no such line, %%id, opcode or function (try 'break LINE', "
             "'break FILE:LINE', 'break %%12', 'break OpGroupIAdd', 'break KERNEL')\n", spec);
      return -1;
    }
    b.kind = BP_FUNC;
  }
  uint32_t sites = bp_count_sites(&b);
  if (!sites) {
    if (b.kind == BP_LINE)
      printf("error: break %s: no instruction has source line %u%s\n", spec, b.line,
             has_lines() ? "" : " (the module has no line information)");
    else
      printf("error: break %s: no instruction matches\n", spec);
    free(b.file);
    return -1;
  }
  b.num = ++S.next_bp;
  b.spec = strdup(spec);
  bp *nb = realloc(S.bps, (S.n_bps + 1) * sizeof *nb);
  if (!nb || !b.spec) {
    free(b.spec);
    free(b.file);
    printf("error: out of memory\n");
    return -1;
  }
  S.bps = nb;
  S.bps[S.n_bps++] = b;
  printf("Breakpoint %d at %s (%u location%s)\n", b.num, spec, sites, sites == 1 ? "" : "s");
  return b.num;
}

static void cmd_delete(int argc, char **argv)
{
  if (argc < 2) {
    for (uint32_t i = 0; i < S.n_bps; i++) {
      free(S.bps[i].file);
      free(S.bps[i].spec);
    }
    S.n_bps = 0;
    printf("Deleted all breakpoints.\n");
    return;
  }
  for (int a = 1; a < argc; a++) {
    uint64_t n;
    bool found = false;
    if (sg_parse_u64(argv[a], &n))
      for (uint32_t i = 0; i < S.n_bps; i++)
        if ((uint64_t)S.bps[i].num == n) {
          free(S.bps[i].file);
          free(S.bps[i].spec);
          memmove(&S.bps[i], &S.bps[i + 1], (S.n_bps - i - 1) * sizeof *S.bps);
          S.n_bps--;
          found = true;
          printf("Deleted breakpoint %" PRIu64 ".\n", n);
          break;
        }
    if (!found)
      printf("error: delete: no breakpoint number '%s'\n", argv[a]);
  }
}

/* Resolves %N / %name / name to an id, preferring ids of the frame's function. */
static uint32_t resolve_id(const char *s, const ld_function *fn)
{
  uint64_t v;
  if (s[0] == '%' && sg_parse_u64(s + 1, &v))
    return v > 0 && v < S.ir->bound ? (uint32_t)v : 0;
  if (s[0] == '%')
    s++;
  uint32_t best = 0;
  for (uint32_t i = 1; i < S.ir->bound; i++) {
    const ld_value *val = &S.ir->values[i];
    if (!val->name || strcmp(val->name, s))
      continue;
    if (val->kind == LD_V_TYPE || val->kind == LD_V_LABEL || val->kind == LD_V_FUNCTION ||
        val->kind == LD_V_STRING || val->kind == LD_V_EXT_SET)
      continue;
    if (val->owner == fn)
      return i;
    if (!best || (val->owner == NULL && S.ir->values[best].owner != NULL))
      best = i;
  }
  return best;
}

/* Frame depth whose function owns id (0 for module-level ids). */
static uint32_t depth_for(const sg_sg *sg, uint32_t id)
{
  const ld_value *v = &S.ir->values[id];
  if (!v->owner)
    return 0;
  uint32_t n = sg_sg_depth(sg);
  for (uint32_t d = 0; d < n; d++) {
    const ld_insn *fi = frame_insn(sg, d);
    if (fi && fi->block->fn == v->owner)
      return d;
  }
  return UINT32_MAX;
}

static bool parse_lane_sel(int argc, char **argv, int at, uint32_t n_lanes, int64_t *lane)
{
  *lane = -2;   /* default */
  if (argc <= at)
    return true;
  if (!strcmp(argv[at], "all") && argc == at + 1) {
    *lane = -1;
    return true;
  }
  uint64_t v;
  if (!strcmp(argv[at], "lane") && argc == at + 2 && sg_parse_u64(argv[at + 1], &v)) {
    if (v >= n_lanes) {
      printf("error: lane %" PRIu64 " does not exist (the subgroup has %u lanes)\n", v, n_lanes);
      return false;
    }
    *lane = (int64_t)v;
    return true;
  }
  printf("error: expected 'lane L' or 'all'\n");
  return false;
}

static void cmd_print(int argc, char **argv)
{
  if (argc < 2) {
    printf("error: print needs %%id or NAME (e.g. 'print %%23', 'print sum lane 3')\n");
    return;
  }
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  if (sg_sg_done(sg)) {
    printf("error: subgroup %u has finished; its values are gone\n", S.cur_sg);
    return;
  }
  const ld_insn *fi = frame_insn(sg, 0);
  uint32_t id = resolve_id(argv[1], fi ? fi->block->fn : NULL);
  if (!id) {
    printf("error: no value named '%s'\n", argv[1]);
    return;
  }
  uint32_t nl = sg_sg_lane_count(sg);
  int64_t lane;
  if (!parse_lane_sel(argc, argv, 2, nl, &lane))
    return;
  const ld_value *val = &S.ir->values[id];
  if (val->kind != LD_V_CONSTANT && val->kind != LD_V_UNDEF && val->kind != LD_V_VARIABLE &&
      val->kind != LD_V_PARAM && val->kind != LD_V_RESULT) {
    printf("error: %s is not a value (a type, label, function, string or debug id)\n", argv[1]);
    return;
  }
  uint32_t depth = depth_for(sg, id);
  if (depth == UINT32_MAX) {
    printf("error: %s belongs to function %s, which is not on the call stack\n", argv[1],
           val->owner && val->owner->name ? val->owner->name : "?");
    return;
  }
  const ld_type *t = val->type;
  bool deref = val->kind == LD_V_RESULT && val->u.insn && val->u.insn->op == SpvOpVariable &&
               t && t->kind == LD_T_POINTER && t->elem && t->elem->size && t->elem->size <= 4096;
  char tn[96];
  type_name(deref ? t->elem : t, tn, sizeof tn);
  uint64_t m[2];
  sg_sg_active(sg, m);
  bool uniform = val->kind == LD_V_CONSTANT || val->kind == LD_V_UNDEF || val->kind == LD_V_VARIABLE;
  printf("%%%u%s%s%s (%s)%s%s:\n", id, val->name ? " '" : "", val->name ? val->name : "", val->name ? "'" : "",
         tn, deref ? ", variable: value in memory" : "", uniform ? ", same in every lane" : "");
  uint8_t buf[4096 + 16];
  for (uint32_t l = 0; l < nl; l++) {
    if (lane >= 0 && (uint32_t)lane != l)
      continue;
    if (uniform && lane < 0 && l > 0)
      break;
    memset(buf, 0, sizeof buf);
    uint32_t sz = sg_sg_read(sg, depth, l, id, buf);
    char out[2048];
    size_t used = 0;
    out[0] = 0;
    if (!sz) {
      put(out, sizeof out, &used, "<not defined yet>");
    } else if (deref) {
      uint64_t addr = rd_uint(buf, sz);
      uint8_t mem[4096];
      if (sg_sg_read_memory(sg, l, addr, mem, t->elem->size))
        format_value(t->elem, mem, sizeof mem, sg, out, sizeof out, &used, 0);
      else
        put(out, sizeof out, &used, "<unreadable memory at 0x%" PRIx64 ">", addr);
    } else {
      format_value(t, buf, sz, sg, out, sizeof out, &used, 0);
    }
    if (uniform && lane < 0)
      printf("  all lanes: %s\n", out);
    else
      printf("  lane %2u: %s%s\n", l, out, lane_active(m, l) ? "" : "   (inactive)");
  }
}

static void cmd_lanes(void)
{
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  uint64_t m[2];
  sg_sg_active(sg, m);
  uint32_t nl = sg_sg_lane_count(sg);
  char ms[512];
  mask_str(m, nl, ms, sizeof ms);
  uint32_t cnt = 0;
  char bits[129];
  for (uint32_t l = 0; l < nl && l < 128; l++) {
    bits[l] = lane_active(m, l) ? '1' : '0';
    cnt += lane_active(m, l);
  }
  bits[nl < 128 ? nl : 128] = 0;
  printf("active lanes: %s (%u of %u)\n", ms, cnt, nl);
  printf("mask (lane 0 first): %s\n", bits);
  printf("local ids:");
  for (uint32_t l = 0; l < nl; l++)
    if (lane_active(m, l))
      printf(" %u", sg_sg_lane_local_linear(sg, l));
  printf("\n");
}

static void cmd_where(void)
{
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  uint32_t n = sg_sg_depth(sg);
  if (!n) {
    printf("No stack (the subgroup has finished).\n");
    return;
  }
  for (uint32_t d = 0; d < n; d++) {
    const ld_insn *in = frame_insn(sg, d);
    const char *fn = sg_sg_frame_function(sg, d);
    char ls[256], ib[1024] = "";
    if (in)
      format_insn(in, ib, sizeof ib);
    printf("#%u  %s at %s: %s\n", d, fn ? fn : "?", loc_str(in, ls, sizeof ls), ib);
  }
}

static void disas_fn(const ld_function *fn, const ld_insn *cur, const ld_insn *from, uint32_t count)
{
  uint32_t shown = 0;
  bool started = from == NULL;
  for (uint32_t b = 0; b < fn->n_blocks; b++) {
    const ld_block *bl = &fn->blocks[b];
    for (uint32_t i = 0; i < bl->n_insns; i++) {
      const ld_insn *in = &bl->insns[i];
      if (!started && in == from)
        started = true;
      if (!started)
        continue;
      if (count && shown >= count)
        return;
      if (i == 0) {
        const char *ln = id_namer(NULL, bl->label);
        if (ln)
          printf("      %%%s = OpLabel\n", ln);
        else
          printf("      %%%u = OpLabel\n", bl->label);
      }
      char b2[1024];
      format_insn(in, b2, sizeof b2);
      printf("%s %5u  %s\n", in == cur ? "=>" : "  ", in->word_offset, b2);
      shown++;
    }
  }
}

static void cmd_disassemble(int argc, char **argv)
{
  const ld_function *fn = NULL;
  const ld_insn *cur = NULL;
  if (argc > 1) {
    fn = find_function(argv[1]);
    if (!fn) {
      printf("error: no function named '%s'\n", argv[1]);
      return;
    }
  }
  if (!fn) {
    if (!need_sg())
      return;
    cur = sg_insn(cur_sg());
    if (!cur) {
      printf("error: the subgroup has finished\n");
      return;
    }
    fn = cur->block->fn;
  } else if (!S.finished && S.cur >= 0) {
    const ld_insn *c = sg_insn(cur_sg());
    if (c && c->block->fn == fn)
      cur = c;
  }
  printf("; function %s (%%%u)\n", fn->name ? fn->name : "?", fn->id);
  disas_fn(fn, cur, NULL, 0);
}

static void cmd_list(int argc, char **argv)
{
  const ld_insn *at = S.list_at;
  (void)argv;
  if (argc > 1) {
    printf("error: list takes no arguments (it lists around the current position)\n");
    return;
  }
  if (!at) {
    if (!S.finished && S.cur >= 0)
      at = sg_insn(cur_sg());
    if (!at) {
      const ld_kernel *k = ld_find_kernel(S.ir, S.k->name);
      if (k && k->fn && k->fn->n_blocks)
        at = &k->fn->blocks[0].insns[0];
    }
    if (!at) {
      printf("error: nothing to list\n");
      return;
    }
  }
  srcfile *f = at->loc && at->loc->file ? source_for(at->loc->file) : NULL;
  if (f) {
    uint32_t center = S.list_line ? S.list_line + 5 : at->loc->line;
    uint32_t first = center > 5 ? center - 5 : 1;
    if (first > f->n_lines) {
      printf("Line %u is past the end of %s (%u lines).\n", first, base_name(at->loc->file), f->n_lines);
      return;
    }
    for (uint32_t l = first; l < first + 10 && l <= f->n_lines; l++)
      printf("%s%u\t%s\n", l == at->loc->line && !S.list_line ? "=>" : "  ", l, f->lines[l - 1]);
    S.list_line = first + 9 - 5 + 1;
    return;
  }
  /* no source: the disassembly around the instruction */
  const ld_function *fn = at->block->fn;
  const ld_insn *from = at;
  uint32_t back = 5;
  const ld_block *bl = at->block;
  uint32_t idx = at->index;
  while (back--) {
    if (idx)
      idx--;
    else if (bl->index)
      bl = &fn->blocks[bl->index - 1], idx = bl->n_insns - 1;
    else
      break;
    from = &bl->insns[idx];
  }
  printf("(no source for this location; disassembly)\n");
  disas_fn(fn, sg_insn(cur_sg()), from, 11);
}

static sg_scalar fmt_scalar(char c)
{
  switch (c) {
  case 'd': return SG_S_INT;
  case 'u': return SG_S_UINT;
  case 'x': return SG_S_UINT;
  case 'f': return SG_S_FLOAT;
  case 'c': return SG_S_CHAR;
  case 'b': return SG_S_UCHAR;
  case 'h': return SG_S_USHORT;
  case 'l': return SG_S_LONG;
  case 'g': return SG_S_DOUBLE;
  default: return SG_S_NONE;
  }
}

/* x/N[fmt|type] ADDR|%ptr|NAME [lane L] */
static void cmd_x(int argc, char **argv)
{
  const char *spec = argv[0] + 1;   /* after 'x' */
  uint64_t count = 1;
  sg_scalar s = SG_S_NONE;
  bool hex = false;
  if (*spec == '/') {
    spec++;
    char *end;
    if (*spec >= '0' && *spec <= '9') {
      errno = 0;
      count = strtoull(spec, &end, 10);
      if (errno || !count || count > 4096) {
        printf("error: x: count must be 1..4096\n");
        return;
      }
      spec = end;
    }
    if (*spec) {
      if (!spec[1]) {
        s = fmt_scalar(*spec);
        hex = *spec == 'x' || *spec == 'b' || *spec == 'h';
      } else {
        s = sg_scalar_from_name(spec, strlen(spec));
      }
      if (s == SG_S_NONE || s == SG_S_BOOL) {
        printf("error: x: unknown format '%s' (d u x f c b h l g, or a type: int float ...)\n", spec);
        return;
      }
    }
  } else if (*spec) {
    printf("error: unknown command '%s' (try 'help')\n", argv[0]);
    return;
  }
  if (argc < 2) {
    printf("error: x needs an address or a pointer value: x/4d %%ptr [lane L]\n");
    return;
  }
  if (!need_sg())
    return;
  sg_sg *sg = cur_sg();
  uint32_t nl = sg_sg_lane_count(sg);
  int64_t lane;
  if (!parse_lane_sel(argc, argv, 2, nl, &lane))
    return;
  if (lane == -1) {
    printf("error: x reads memory of one lane: use 'lane L'\n");
    return;
  }
  uint64_t m[2];
  sg_sg_active(sg, m);
  if (lane < 0) {
    lane = 0;
    for (uint32_t l = 0; l < nl; l++)
      if (lane_active(m, l)) { lane = l; break; }
  }
  uint64_t addr;
  const ld_type *pointee = NULL;
  if (!sg_parse_u64(argv[1], &addr)) {
    const ld_insn *fi = frame_insn(sg, 0);
    uint32_t id = resolve_id(argv[1], fi ? fi->block->fn : NULL);
    if (!id) {
      printf("error: x: '%s' is neither an address nor a value name\n", argv[1]);
      return;
    }
    const ld_type *t = S.ir->values[id].type;
    if (!t || t->kind != LD_T_POINTER) {
      printf("error: x: %s is not a pointer\n", argv[1]);
      return;
    }
    uint32_t depth = depth_for(sg, id);
    uint8_t b[128] = {0};
    if (depth == UINT32_MAX || !sg_sg_read(sg, depth, (uint32_t)lane, id, b)) {
      printf("error: x: %s has no value in lane %" PRId64 " yet\n", argv[1], lane);
      return;
    }
    addr = rd_uint(b, t->size);
    pointee = t->elem;
  }
  if (s == SG_S_NONE) {
    const ld_type *c = pointee && pointee->comp ? pointee->comp : NULL;
    if (c && c->kind == LD_T_FLOAT)
      s = c->width == 16 ? SG_S_HALF : c->width == 64 ? SG_S_DOUBLE : SG_S_FLOAT;
    else if (c && c->kind == LD_T_INT)
      s = c->width == 8 ? SG_S_UCHAR : c->width == 16 ? SG_S_USHORT : c->width == 64 ? SG_S_ULONG : SG_S_UINT;
    else
      s = SG_S_UINT, hex = true;
  }
  size_t es = sg_scalar_size(s);
  char d[256];
  sg_sg_describe_addr(sg, addr, d, sizeof d);
  printf("0x%" PRIx64 " (%s), lane %" PRId64 ", %" PRIu64 " x %s:\n", addr, d, lane, count, sg_scalar_name(s));
  for (uint64_t i = 0; i < count; i++) {
    uint8_t e[8];
    if (!sg_sg_read_memory(sg, (uint32_t)lane, addr + i * es, e, es)) {
      printf("%s<cannot read 0x%" PRIx64 ": outside the allocation>\n", i % 8 ? "\n" : "", addr + i * es);
      return;
    }
    char v[64];
    sg_format_value(v, sizeof v, s, hex, e);
    if (i % 8 == 0)
      printf("  +%-5" PRIu64 ":", i * es);
    printf(" %s", v);
    if (i % 8 == 7 || i + 1 == count)
      printf("\n");
  }
}

static void cmd_info_subgroups(void)
{
  if (!need_sg())
    return;
  wgslot *w = cur_slot();
  printf("work-group (%u,%u,%u): %u subgroup%s of up to %u lanes\n", w->group[0], w->group[1], w->group[2],
         w->n_sgs, w->n_sgs == 1 ? "" : "s", S.sg_size);
  for (uint32_t i = 0; i < w->n_sgs; i++) {
    sg_sg *sg = sg_wg_subgroup(w->wg, i);
    const char *state = sg_sg_done(sg) ? "done" : at_barrier(w, i) ? "at barrier" : "running";
    const ld_insn *in = sg_insn(sg);
    char ls[256] = "", ib[1024] = "", ms[512] = "";
    uint64_t m[2];
    sg_sg_active(sg, m);
    mask_str(m, sg_sg_lane_count(sg), ms, sizeof ms);
    if (in) {
      format_insn(in, ib, sizeof ib);
      loc_str(in, ls, sizeof ls);
    }
    printf("%c %u  %-10s lanes %-12s %s%s%s\n", i == S.cur_sg ? '*' : ' ', i, state,
           sg_sg_done(sg) ? "-" : ms, ls, in ? "  " : "", ib);
  }
}

static void cmd_info_args(void)
{
  for (uint32_t i = 0; i < S.k->n_args; i++) {
    const sg_arg_info *a = &S.k->args[i];
    const sg_arg *v = &S.args[i];
    printf("  %u %s %s = ", i, a->type_name ? a->type_name : "?", a->name ? a->name : "?");
    switch (v->kind) {
    case SG_ARG_BUFFER: {
      printf("buffer of %zu bytes", v->size);
      sg_scalar s = a->scalar == SG_S_NONE || a->scalar == SG_S_BOOL ? SG_S_UCHAR : a->scalar;
      size_t es = sg_scalar_size(s);
      printf(" {");
      for (size_t e = 0; es && e < 8 && (e + 1) * es <= v->size; e++) {
        char b[64];
        sg_format_value(b, sizeof b, s, false, (const uint8_t *)v->data + e * es);
        printf("%s%s", e ? ", " : "", b);
      }
      printf("%s}\n", v->size > 8 * es ? ", ..." : "");
      break;
    }
    case SG_ARG_NULL: printf("NULL\n"); break;
    case SG_ARG_LOCAL: printf("__local, %zu bytes\n", v->size); break;
    case SG_ARG_VALUE: {
      sg_scalar s = a->scalar;
      size_t es = sg_scalar_size(s);
      if (!es) {
        printf("%zu bytes\n", v->size);
        break;
      }
      for (size_t e = 0; (e + 1) * es <= v->size && e < 16; e++) {
        char b[64];
        sg_format_value(b, sizeof b, s, false, (const uint8_t *)v->data + e * es);
        printf("%s%s", e ? ", " : "", b);
      }
      printf("\n");
      break;
    }
    case SG_ARG_IMAGE: printf("image\n"); break;
    case SG_ARG_SAMPLER: printf("sampler 0x%x\n", v->sampler); break;
    default: printf("?\n");
    }
  }
}

static void cmd_info_breakpoints(void)
{
  if (!S.n_bps) {
    printf("No breakpoints.\n");
    return;
  }
  printf("Num  Where                          Hits\n");
  for (uint32_t i = 0; i < S.n_bps; i++)
    printf("%-4d %-30s %" PRIu64 "\n", S.bps[i].num, S.bps[i].spec, S.bps[i].hits);
}

static void cmd_info_workgroups(void)
{
  printf("NDRange: %zu x %zu x %zu work-groups, subgroup size %u\n", S.groups[0], S.groups[1], S.groups[2], S.sg_size);
  uint64_t done = 0, fresh = 0;
  for (uint64_t i = 0; i < S.n_groups; i++)
    done += S.wg_status[i] == 2, fresh += S.wg_status[i] == 0;
  printf("finished %" PRIu64 ", not started %" PRIu64 ", in progress %u\n", done, fresh, S.n_slots);
  for (uint32_t i = 0; i < S.n_slots; i++)
    printf("%c (%u,%u,%u)\n", (int)i == S.cur ? '*' : ' ', S.slots[i].group[0], S.slots[i].group[1],
           S.slots[i].group[2]);
}

static void cmd_workgroup(int argc, char **argv)
{
  if (argc < 2 || argc > 4) {
    printf("error: usage: workgroup X [Y [Z]]\n");
    return;
  }
  uint32_t g[3] = {0, 0, 0};
  for (int i = 1; i < argc; i++) {
    uint64_t v;
    if (!sg_parse_u64(argv[i], &v) || v >= S.groups[i - 1]) {
      printf("error: work-group id '%s' out of range (the NDRange has %zu x %zu x %zu work-groups)\n",
             argv[i], S.groups[0], S.groups[1], S.groups[2]);
      return;
    }
    g[i - 1] = (uint32_t)v;
  }
  uint64_t lin = ((uint64_t)g[2] * S.groups[1] + g[1]) * S.groups[0] + g[0];
  if (S.wg_status[lin] == 2) {
    printf("error: work-group (%u,%u,%u) has already finished\n", g[0], g[1], g[2]);
    return;
  }
  int idx = -1;
  for (uint32_t i = 0; i < S.n_slots; i++)
    if (S.slots[i].linear == lin)
      idx = (int)i;
  if (idx < 0)
    idx = begin_group(lin);
  if (idx < 0)
    return;
  S.cur = idx;
  S.cur_sg = 0;
  S.finished = false;
  show_stop(NULL);
}

static void cmd_subgroup(int argc, char **argv)
{
  if (argc != 2) {
    printf("error: usage: subgroup N\n");
    return;
  }
  if (!need_sg())
    return;
  uint64_t v;
  wgslot *w = cur_slot();
  if (!sg_parse_u64(argv[1], &v) || v >= w->n_sgs) {
    printf("error: subgroup '%s' out of range (the work-group has %u subgroups)\n", argv[1], w->n_sgs);
    return;
  }
  S.cur_sg = (uint32_t)v;
  show_stop(NULL);
}

static int start_launch(void);
static void stop_launch(void);

static void cmd_restart(void)
{
  stop_launch();
  for (uint32_t i = 0; i < S.k->n_args; i++)
    if (S.pristine[i] && S.args[i].data)
      memcpy(S.args[i].data, S.pristine[i], S.args[i].size);
  if (start_launch() == 0) {
    printf("Restarted.\n");
    show_stop(NULL);
  }
}

static const struct { const char *name, *alias, *args, *help; } commands[] = {
  {"run", "r", "", "run to the next breakpoint, diagnostic or the end"},
  {"continue", "c", "", "same as run"},
  {"step", "s", "[N]", "execute N instructions of the current subgroup"},
  {"next", "n", "", "step to the next source line (over calls); like step without line info"},
  {"finish", "fin", "", "run the current subgroup until the current function returns"},
  {"break", "b", "LINE|FILE:LINE|%id|OpName|FUNCTION", "set a breakpoint"},
  {"delete", "d", "[N...]", "delete breakpoints (all without N)"},
  {"info", "i", "breakpoints|subgroups|args|workgroups", "show state"},
  {"workgroup", "wg", "X [Y [Z]]", "focus on a work-group (starts it if needed)"},
  {"subgroup", "sg", "N", "focus on subgroup N of the current work-group"},
  {"print", "p", "%id|NAME [lane L|all]", "value per lane (inactive lanes marked)"},
  {"lanes", "", "", "active lanes of the current subgroup"},
  {"where", "bt", "", "call stack (also 'backtrace')"},
  {"list", "l", "", "source around the current line (or disassembly)"},
  {"x", "", "/N[d|u|x|f|c|b|h|l|g|TYPE] ADDR|%ptr [lane L]", "examine memory"},
  {"disassemble", "disas", "[FUNCTION]", "disassemble the current function"},
  {"restart", "", "", "start the kernel again with the original inputs"},
  {"help", "h", "", "this list"},
  {"quit", "q", "", "exit"},
};

static void cmd_help(void)
{
  printf("Commands (aliases in brackets):\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    char head[96];
    snprintf(head, sizeof head, "%s%s%s%s %s", commands[i].name, commands[i].alias[0] ? " (" : "",
             commands[i].alias, commands[i].alias[0] ? ")" : "", commands[i].args);
    printf("  %-44s %s\n", head, commands[i].help);
  }
}

static void execute(char *line)
{
  char *argv[16];
  int argc = 0;
  char *save = NULL;
  for (char *t = strtok_r(line, " \t\r\n", &save); t && argc < 16; t = strtok_r(NULL, " \t\r\n", &save))
    argv[argc++] = t;
  if (!argc || argv[0][0] == '#')
    return;
  const char *c = argv[0];
#define CMD(a, b) (!strcmp(c, a) || (b[0] && !strcmp(c, b)))
  if (CMD("run", "r") || CMD("continue", "c")) cmd_continue();
  else if (CMD("step", "s") || !strcmp(c, "stepi") || !strcmp(c, "si")) cmd_step(argc, argv);
  else if (CMD("next", "n")) cmd_next(false);
  else if (CMD("finish", "fin")) cmd_next(true);
  else if (CMD("break", "b")) {
    if (argc != 2)
      printf("error: usage: break LINE | FILE:LINE | %%id | OpName | FUNCTION\n");
    else
      add_bp(argv[1]);
  } else if (CMD("delete", "d")) cmd_delete(argc, argv);
  else if (CMD("info", "i")) {
    const char *w = argc > 1 ? argv[1] : "";
    if (argc != 2) printf("error: usage: info breakpoints|subgroups|args|workgroups\n");
    else if (!strncmp(w, "breakpoints", strlen(w)) || !strcmp(w, "b")) cmd_info_breakpoints();
    else if (!strncmp(w, "subgroups", strlen(w)) || !strcmp(w, "sg")) cmd_info_subgroups();
    else if (!strncmp(w, "args", strlen(w))) cmd_info_args();
    else if (!strncmp(w, "workgroups", strlen(w)) || !strcmp(w, "wg")) cmd_info_workgroups();
    else printf("error: info %s: unknown (breakpoints, subgroups, args, workgroups)\n", w);
  } else if (CMD("workgroup", "wg")) cmd_workgroup(argc, argv);
  else if (CMD("subgroup", "sg")) cmd_subgroup(argc, argv);
  else if (CMD("print", "p")) cmd_print(argc, argv);
  else if (!strcmp(c, "lanes")) cmd_lanes();
  else if (CMD("where", "bt") || !strcmp(c, "backtrace")) cmd_where();
  else if (CMD("list", "l")) cmd_list(argc, argv);
  else if (c[0] == 'x' && (c[1] == 0 || c[1] == '/')) cmd_x(argc, argv);
  else if (CMD("disassemble", "disas")) cmd_disassemble(argc, argv);
  else if (!strcmp(c, "restart")) cmd_restart();
  else if (CMD("help", "h")) cmd_help();
  else if (CMD("quit", "q")) S.quit = true;
  else printf("error: unknown command '%s' (try 'help')\n", c);
#undef CMD
}

/* ------------------------------------------------------------ launch */

static void stdout_write(void *user, const char *text, size_t len)
{
  (void)user;
  fwrite(text, 1, len, stdout);
}

static int start_launch(void)
{
  char err[1024] = "";
  sg_result r = sg_launch_create(S.m, &S.d, &S.l, err, sizeof err);
  if (r != SG_SUCCESS) {
    fprintf(stderr, PROG ": error: %s\n", err[0] ? err : sg_result_name(r));
    return r == SG_ERROR_UNSUPPORTED ? EXIT_UNSUPPORTED : EXIT_USAGE;
  }
  sg_launch_groups(S.l, S.groups, &S.sg_size);
  S.n_groups = (uint64_t)S.groups[0] * S.groups[1] * S.groups[2];
  if (S.n_groups > (1u << 26)) {
    fprintf(stderr, PROG ": error: %" PRIu64 " work-groups are too many to debug\n", S.n_groups);
    return EXIT_USAGE;
  }
  free(S.wg_status);
  S.wg_status = calloc(S.n_groups ? S.n_groups : 1, 1);
  S.cur = -1;
  S.cur_sg = 0;
  S.finished = false;
  S.n_faults = 0;
  S.list_at = NULL;
  if (!S.wg_status || !ensure_current())
    return EXIT_USAGE;
  return 0;
}

static void stop_launch(void)
{
  while (S.n_slots)
    end_slot((int)S.n_slots - 1);
  sg_launch_destroy(S.l);
  S.l = NULL;
}

static int setup(void)
{
  const char *module_path = O.file;
  char err[2048] = "";
  bool is_sim = has_ext(O.file, ".sim");
  if (is_sim) {
    if (sg_runfile_open(O.file, &S.rf, err, sizeof err) != SG_SUCCESS)
      return die(EXIT_USAGE, "%s", err);
    module_path = sg_runfile_module_path(S.rf);
    if (O.run.n_args)
      return die(EXIT_USAGE, "--arg cannot be used with a run file (its arguments come from %s)", O.file);
  }
  sg_load_options lo = {.message = on_message, .debug_info = !O.no_debug_info};
  sg_run_opts_load(&O.run, &lo);
  sg_result lr = sg_module_load_file(module_path, &lo, &S.m);
  if (lr != SG_SUCCESS)
    return die(lr == SG_ERROR_UNSUPPORTED ? EXIT_UNSUPPORTED : lr == SG_ERROR_TOOL_MISSING ? EXIT_TOOL : EXIT_USAGE,
               "%s", first_error[0] ? first_error : sg_result_name(lr));
  S.ir = sg_module_ir(S.m);
  const char *kname = O.run.kernel ? O.run.kernel : S.rf ? sg_runfile_kernel(S.rf) : NULL;
  if (!kname) {
    if (sg_module_kernel_count(S.m) != 1)
      return die(EXIT_USAGE, "%s has %u kernels, pick one with -k", module_path, sg_module_kernel_count(S.m));
    kname = sg_module_kernel(S.m, 0)->name;
  }
  S.k = sg_module_find_kernel(S.m, kname);
  if (!S.k)
    return die(EXIT_USAGE, "no kernel named '%s' in %s", kname, module_path);
  index_insns();
  if (!S.by_word)
    return die(EXIT_USAGE, "out of memory");

  sg_run_desc *d = &S.d;
  d->kernel = S.k->name;
  d->backend = SG_BACKEND_INTERP;
  d->ub = O.run.ub;
  d->step_limit = O.run.step_limit;
  d->printf_out = stdout_write;
  d->message = on_message;
  d->on_diag = on_diag;
  sg_result r = sg_run_opts_ndrange(&O.run, S.k, S.rf, d, err, sizeof err);
  if (r != SG_SUCCESS)
    return die(EXIT_USAGE, "%s", err);
  uint32_t n = S.k->n_args;
  S.args = calloc(n + 1, sizeof *S.args);
  S.owned = calloc(n + 1, sizeof *S.owned);
  S.pristine = calloc(n + 1, sizeof *S.pristine);
  if (!S.args || !S.owned || !S.pristine)
    return die(EXIT_USAGE, "out of memory");
  if (S.rf) {
    if (sg_runfile_bind(S.rf, S.m, err, sizeof err) != SG_SUCCESS)
      return die(EXIT_USAGE, "%s", err);
    uint32_t na;
    const sg_arg *ra = sg_runfile_args(S.rf, &na);
    memcpy(S.args, ra, (na < n ? na : n) * sizeof *ra);
  } else {
    size_t items = 1;
    for (uint32_t i = 0; i < d->work_dim; i++)
      items *= d->global_size[i];
    r = sg_run_opts_args(&O.run, S.k, items, S.args, S.owned, err, sizeof err);
    if (r != SG_SUCCESS)
      return die(r == SG_ERROR_UNSUPPORTED ? EXIT_UNSUPPORTED : EXIT_USAGE, "%s", err);
  }
  for (uint32_t i = 0; i < n; i++)
    if (S.args[i].kind == SG_ARG_BUFFER && S.args[i].data && S.args[i].size) {
      S.pristine[i] = malloc(S.args[i].size);
      if (S.pristine[i])
        memcpy(S.pristine[i], S.args[i].data, S.args[i].size);
    }
  d->args = S.args;
  d->n_args = n;
  return start_launch();
}

static void cleanup(void)
{
  stop_launch();
  if (S.k)
    for (uint32_t i = 0; i < S.k->n_args; i++) {
      if (S.owned) free(S.owned[i]);
      if (S.pristine) free(S.pristine[i]);
    }
  free(S.owned);
  free(S.pristine);
  free(S.args);
  for (uint32_t i = 0; i < S.n_bps; i++) {
    free(S.bps[i].file);
    free(S.bps[i].spec);
  }
  free(S.bps);
  for (uint32_t i = 0; i < S.n_src; i++) {
    free(S.src[i].path);
    free(S.src[i].text);
    free(S.src[i].lines);
  }
  free(S.src);
  free(S.by_word);
  free(S.wg_status);
  free(S.slots);
  sg_runfile_destroy(S.rf);
  sg_module_destroy(S.m);
  sg_run_opts_free(&O.run);
}

/* Reads commands from f until EOF or quit. */
static void command_loop(FILE *f, bool interactive, bool echo)
{
  char *line = NULL;
  size_t cap = 0;
  while (!S.quit) {
    if (interactive) {
      fputs("(sgdb) ", stdout);
      fflush(stdout);
    }
    ssize_t n = getline(&line, &cap, f);
    if (n < 0) {
      if (interactive)
        fputs("\n", stdout);
      break;
    }
    if (echo && line[strspn(line, " \t")] != '#')
      printf("(sgdb) %s%s", line, n && line[n - 1] != '\n' ? "\n" : "");
    if (strlen(line) != (size_t)n) {
      printf("error: the command contains a NUL byte\n");
      continue;
    }
    execute(line);
    fflush(stdout);
  }
  free(line);
}

int main(int argc, char **argv)
{
  int rc = parse_options(argc, argv);
  if (rc >= 0)
    return rc;
  signal(SIGINT, on_sigint);
  setvbuf(stdout, NULL, _IOLBF, 0);
  rc = setup();
  if (rc != 0) {
    cleanup();
    return rc;
  }
  printf("spirv-sgdb: kernel %s, %zu x %zu x %zu work-groups, subgroup size %u. Type 'help' for commands.\n",
         S.k->name, S.groups[0], S.groups[1], S.groups[2], S.sg_size);
  if (O.script) {
    FILE *f = fopen(O.script, "r");
    if (!f) {
      rc = die(EXIT_USAGE, "cannot read script '%s': %s", O.script, strerror(errno));
      cleanup();
      return rc;
    }
    command_loop(f, false, true);
    fclose(f);
  }
  if (!O.batch && !S.quit)
    command_loop(stdin, isatty(0) != 0, isatty(0) == 0);
  cleanup();
  return 0;
}
