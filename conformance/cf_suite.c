/* cf_suite.c - "spirv-sgconform suite": generate, run, verify, report.
 *
 * Runs go through the public API (spirv_sg.h).  The self-test switch
 * --break-op (ip_launch_desc.break_op) is not part of the public run
 * description, so those runs call the interpreter (ip.h) directly on the
 * module's IR (sg_module_ir).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#define CL_TARGET_OPENCL_VERSION 300   /* OpenCL 3.0 names (cl_version.h asks for one) */
#include <CL/cl.h>
#include "cf_suite.h"
#include "ip.h"
#include "spirv_sg.h"

#define MAX_LANES_SHOWN 8

typedef struct fam_mod {
  bool tried;
  sg_module *m;
  char err[1200];
} fam_mod;

typedef cf_tally tally;

typedef struct suite {
  const cf_suite_opts *o;
  fam_mod mods[CF_N_FAMILIES][2];   /* [family][O0, O2] */
  /* enumeration */
  cf_case *cases;
  size_t n_cases, cap_cases;
  uint32_t cur_fam;
  bool reduced;
  uint32_t kernel_index;
  /* results */
  uint64_t passed, failed, skipped;
  uint32_t n_failures_shown;
  cf_table table;         /* [fam][scalar][vec code][S] */
  int8_t *res;            /* per selected case: RES_* after the run, then the final outcome */
  char **why;             /* per selected case: the first failure's reason (malloc'd) */
  char last_why[600];     /* reason of the failure report_failure wrote last */
  uint64_t xfailed, flaky;   /* expected failures (--baseline), failures that passed on retry */
  char **base, **flk;     /* sorted case names of --baseline and --flakes */
  size_t n_base, n_flk;
  uint64_t base_hash, flk_hash;   /* of the files' contents (part of the selection) */  FILE *json;             /* failures, as JSON objects, collected to print at the end */
  char *json_buf;
  size_t json_len;
  bool json_first;
  FILE *text;             /* failure reports (NULL: stdout, or stderr with --json) */
} suite;

static const uint32_t full_sizes[] = {1, 2, 3, 4, 7, 8, 12, 16, 32, 64};
static const uint32_t reduced_sizes[] = {1, 4, 7, 16, 64};

static uint32_t vec_code(uint32_t v)
{
  switch (v) { case 2: return 1; case 3: return 2; case 4: return 3; case 8: return 4; case 16: return 5; default: return 0; }
}

static uint32_t p_values(const cf_op *op, uint32_t S, bool reduced, uint32_t out[3])
{
  uint32_t n = 0;
  switch (op->sem) {
  case CF_SEM_BROADCAST:
    out[n++] = S - 1;
    if (!reduced) { if (S > 1) out[n++] = 0; if (S > 2) out[n++] = S / 2; }
    break;
  case CF_SEM_SHUFFLE_UP: case CF_SEM_SHUFFLE_DOWN:
    out[n++] = S > 1 ? 1 : 0;
    if (!reduced) { if (S > 1) out[n++] = 0; if (S > 2) out[n++] = S - 1; }
    break;
  case CF_SEM_ROTATE: case CF_SEM_CLUSTERED_ROTATE:
    out[n++] = 1;
    if (!reduced) { out[n++] = 3; out[n++] = S + 2; }
    break;
  default:
    out[n++] = 0;
    break;
  }
  return n;
}

static bool csv_has(const char *list, const char *word)
{
  if (!list)
    return true;
  size_t wl = strlen(word);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == wl && strncmp(p, word, l) == 0)
      return true;
    if (!e)
      break;
    p = e + 1;
  }
  return false;
}

static bool csv_has_u(const char *list, uint32_t v)
{
  char b[16];
  snprintf(b, sizeof b, "%u", v);
  return csv_has(list, b);
}

static void add_case(suite *s, const cf_case *c)
{
  const cf_suite_opts *o = s->o;
  char t[32], name[256];
  if (!cf_case_valid(c))
    return;
  if (o->op && !csv_has(o->op, c->op->name) && !csv_has(o->op, cf_families[c->op->fam].name) &&
      !csv_has(o->op, c->op->spell))
    return;
  if (o->type && !csv_has(o->type, cf_type_name(c->type, t, sizeof t)))
    return;
  if (o->size && !csv_has_u(o->size, c->S))
    return;
  if (o->backend && !csv_has(o->backend, c->backend ? "jit" : "interp"))
    return;
  if (o->case_name) {
    cf_case_name(c, name, sizeof name);
    if (strcmp(name, o->case_name) != 0)
      return;
  }
  if (s->n_cases == s->cap_cases) {
    size_t cap = s->cap_cases ? s->cap_cases * 2 : 4096;
    cf_case *n = realloc(s->cases, cap * sizeof *n);
    if (!n)
      return;
    s->cases = n;
    s->cap_cases = cap;
  }
  s->cases[s->n_cases++] = *c;
}

static void enum_kernel(void *user, const cf_op *op, cf_type t, cf_flow f, int variant)
{
  suite *s = user;
  const cf_suite_opts *o = s->o;
  const uint32_t *sizes = s->reduced ? reduced_sizes : full_sizes;
  size_t n_sizes = s->reduced ? sizeof reduced_sizes / 4 : sizeof full_sizes / 4;
  uint32_t k = s->kernel_index++;
  if (op->fam == CF_FAM_INTEL_IMAGE_BLOCK) {
    /* full subgroups of 8 and 16, one per launch; p is the image scenario
     * (cf_image_scenario): reduced: inside and right+bottom edge */
    static const uint32_t img_sizes[] = {8, 16};
    for (size_t si = 0; si < 2; ++si)
      for (uint32_t p = 0; p < CF_IMG_N_SCENARIOS; ++p) {
        if (s->reduced && p != 0 && p != 3)
          continue;
        for (int ol = 0; ol < 2; ++ol) {
          if (s->reduced && ol == 0)
            continue;
          for (int be = 0; be < 2; ++be) {
            if (be == 1 && !o->jit)
              continue;
            cf_case c = {.op = op, .type = t, .flow = f, .variant = variant, .S = img_sizes[si],
                         .shape = CF_SHAPE_1D_FULL, .p = p, .olevel = ol ? 2 : 0, .backend = be};
            add_case(s, &c);
          }
        }
      }
    return;
  }
  for (size_t si = 0; si < n_sizes; ++si) {
    for (uint32_t sh = 0; sh < CF_N_SHAPES; ++sh) {
      /* reduced: two shapes per (kernel, size), rotating through all five */
      if (s->reduced && sh != (k + si) % CF_N_SHAPES && sh != (k + si + 2) % CF_N_SHAPES)
        continue;
      uint32_t pv[3], np = p_values(op, sizes[si], s->reduced, pv);
      for (uint32_t pi = 0; pi < np; ++pi)
        for (int ol = 0; ol < 2; ++ol) {
          if ((s->reduced || cf_family_is_spvasm(op->fam)) && ol == 0)
            continue;   /* (assembly kernels have no -O level) */
          for (int be = 0; be < 2; ++be) {
            if (be == 1 && !o->jit)
              continue;
            cf_case c = {.op = op, .type = t, .flow = f, .variant = variant, .S = sizes[si],
                         .shape = (cf_shape_id)sh, .p = pv[pi], .olevel = ol ? 2 : 0, .backend = be};
            add_case(s, &c);
          }
        }
    }
  }
}

/* ------------------------------------------------------------- compiling */

static void msg_to_buf(void *user, sg_severity sev, const char *text)
{
  fam_mod *fm = user;
  if (sev == SG_SEV_ERROR && !fm->err[0])
    snprintf(fm->err, sizeof fm->err, "%s", text);
}

static void family_path(const suite *s, cf_family fam, char *path, size_t size)
{
  snprintf(path, size, "%s/%s%s.%s", s->o->work_dir, cf_families[fam].name,
           s->reduced ? "" : "_full", cf_family_is_spvasm(fam) ? "spvasm" : "cl");
}

/* Writes the family's generated kernel file; false with err set on failure. */
static bool write_family(const suite *s, cf_family fam, char *err, size_t err_size)
{
  uint32_t nk = 0;
  char *src = cf_family_is_spvasm(fam) ? cf_gen_family_spvasm(fam, s->reduced, &nk)
                                       : cf_gen_family_source(fam, s->reduced, &nk);
  if (!src) {
    snprintf(err, err_size, "out of memory generating %s", cf_families[fam].name);
    return false;
  }
  char path[1024];
  family_path(s, fam, path, sizeof path);
  FILE *f = fopen(path, "w");
  bool ok = f && fputs(src, f) != EOF;
  if (f && fclose(f) != 0)
    ok = false;
  if (!ok)
    snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
  free(src);
  return ok;
}

/* The generated kernels are short: 2^24 steps stop a broken one early,
 * unless --step-limit says otherwise. */
static uint64_t suite_step_limit(const suite *s) { return s->o->step_limit ? s->o->step_limit : 1u << 24; }

/* Loads (compiles) the family's file at one -O level into fm. */
static void load_family(const suite *s, cf_family fam, int olevel, fam_mod *fm)
{
  char path[1024];
  family_path(s, fam, path, sizeof path);
  /* spirv-val takes about 13 s on one full-set module (thousands of kernels,
   * time spent inside SPIRV-Tools); the reduced set validates the same
   * generator's output, so the full set skips it */
  sg_load_options lo = {.validate = s->reduced && !s->o->no_validate ? SG_VALIDATE_WARN : SG_VALIDATE_OFF,
                        .opt_level = olevel, .cl_std = "CL3.0", .message = msg_to_buf, .message_user = fm,
                        .max_module_bytes = s->o->max_module_bytes, .max_instructions = s->o->max_instructions,
                        .max_validate_instructions = s->o->max_validate_insns};
  sg_result r = sg_module_load_file(path, &lo, &fm->m);
  if (r != SG_SUCCESS && !fm->err[0])
    snprintf(fm->err, sizeof fm->err, "%s: %s", path, sg_result_name(r));
}

static fam_mod *family_module(suite *s, cf_family fam, int olevel)
{
  fam_mod *fm = &s->mods[fam][olevel ? 1 : 0];
  if (fm->tried)
    return fm;
  fm->tried = true;
  if (write_family(s, fam, fm->err, sizeof fm->err))
    load_family(s, fam, olevel, fm);
  return fm;
}

/* -j: every module the selection needs, before the workers start.  Each
 * family file is written once, here; then up to `threads` threads load the
 * modules, each (family, -O level) by exactly one thread.  The load runs
 * clang-15 and llvm-spirv-15 as child processes and touches no shared
 * state besides its own fam_mod. */
typedef struct load_pool {
  suite *s;
  uint32_t list[CF_N_FAMILIES * 2];   /* fam * 2 + (olevel != 0) */
  uint32_t n, next;
} load_pool;

static void *load_thread(void *arg)
{
  load_pool *p = arg;
  for (;;) {
    uint32_t k = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
    if (k >= p->n)
      return NULL;
    uint32_t fam = p->list[k] / 2, o2 = p->list[k] % 2;
    load_family(p->s, (cf_family)fam, o2 ? 2 : 0, &p->s->mods[fam][o2]);
  }
}

static void load_all_modules(suite *s, size_t total, uint32_t threads)
{
  load_pool pool = {.s = s};
  bool need[CF_N_FAMILIES][2] = {{false}}, fam_ok[CF_N_FAMILIES];
  for (size_t i = 0; i < total; ++i)
    need[s->cases[i].op->fam][s->cases[i].olevel ? 1 : 0] = true;
  for (uint32_t fam = 0; fam < CF_N_FAMILIES; ++fam) {
    fam_ok[fam] = false;
    if (!need[fam][0] && !need[fam][1])
      continue;
    char err[sizeof s->mods[0][0].err] = "";
    fam_ok[fam] = write_family(s, (cf_family)fam, err, sizeof err);
    for (int k = 0; k < 2; ++k)
      if (need[fam][k]) {
        s->mods[fam][k].tried = true;
        if (fam_ok[fam])
          pool.list[pool.n++] = fam * 2 + (uint32_t)k;
        else
          snprintf(s->mods[fam][k].err, sizeof s->mods[fam][k].err, "%s", err);
      }
  }
  if (threads > pool.n)
    threads = pool.n;
  pthread_t th[64];
  uint32_t started = 0;
  if (threads > 64)
    threads = 64;
  for (uint32_t i = 1; i < threads; ++i)
    if (pthread_create(&th[started], NULL, load_thread, &pool) == 0)
      started++;
  load_thread(&pool);
  for (uint32_t i = 0; i < started; ++i)
    pthread_join(th[i], NULL);
}

/* ---------------------------------------------------------------- running */

typedef struct run_out {
  bool ran;
  char err[512];
  bool jit_fell_back;
  uint64_t n_faults, n_ub;
  char diag[3][512];
  uint32_t n_diag;
} run_out;

static void run_case_launch(suite *s, const cf_case *c, const sg_module *m, const cf_geom *g,
                            cf_inputs *in, uint8_t *out, size_t out_size, run_out *ro)
{
  char kname[192];
  cf_kernel_name(c, kname, sizeof kname);
  bool block = c->op->sig == CF_SIG_BLOCK_READ || c->op->sig == CF_SIG_BLOCK_WRITE;
  size_t xsz = (size_t)in->n * in->esize;
  uint32_t eb = cf_scalars[c->type.s].bytes;
  sg_arg a[7];
  uint32_t na = 0;
  memset(a, 0, sizeof a);
  if (cf_sig_is_image(c->op->sig)) {
    cf_img_scn sc;
    cf_image_scenario(c->p, c->S, &sc);
    sg_arg im = {.kind = SG_ARG_IMAGE, .data = in->block, .size = (size_t)sc.row_pitch * sc.height};
    im.image = (sg_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D, .channel_order = sc.order,
                               .channel_type = sc.ctype, .width = sc.width, .height = sc.height,
                               .depth = 1, .row_pitch = sc.row_pitch,
                               .slice_pitch = (size_t)sc.row_pitch * sc.height};
    a[na++] = im;
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = out, .size = out_size};
    if (c->op->sig == CF_SIG_IMG_BLOCK_WRITE)
      a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = in->x, .size = xsz};
    a[na++] = (sg_arg){.kind = SG_ARG_VALUE, .data = &in->q[0], .size = 4};
    a[na++] = (sg_arg){.kind = SG_ARG_VALUE, .data = &in->q[1], .size = 4};
  } else if (block) {
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = in->x, .size = xsz};
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = out, .size = out_size};
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = in->block, .size = (size_t)in->n_block * eb};
    a[na++] = (sg_arg){.kind = SG_ARG_VALUE, .data = &in->p, .size = 4};
  } else {
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = in->x, .size = xsz};
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = in->y, .size = xsz};
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = out, .size = out_size};
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = in->sel, .size = (size_t)in->n * 4};
    a[na++] = (sg_arg){.kind = SG_ARG_BUFFER, .data = in->aux, .size = (size_t)in->n * 4};
    a[na++] = (sg_arg){.kind = SG_ARG_VALUE, .data = &in->p, .size = 4};
    a[na++] = (sg_arg){.kind = SG_ARG_VALUE, .data = in->q, .size = 16};
  }
  if (s->o->break_op) {
    /* the test-only switch lives in the interpreter's launch description */
    const ld_module *ir = sg_module_ir(m);
    ip_arg ia[7];
    memset(ia, 0, sizeof ia);
    for (uint32_t i = 0; i < na; ++i) {
      ia[i].kind = a[i].kind == SG_ARG_VALUE ? IP_ARG_VALUE : IP_ARG_BUFFER;
      ia[i].data = a[i].data;
      ia[i].size = a[i].size;
    }
    ip_launch_desc d = {.kernel = kname, .work_dim = g->dim, .subgroup_size = g->S, .args = ia,
                        .n_args = na, .break_op = s->o->break_op, .step_limit = suite_step_limit(s),
                        .time_limit = s->o->time_limit, .max_private_total = s->o->max_private_memory};
    for (int i = 0; i < 3; ++i) {
      d.global_size[i] = g->global[i];
      d.local_size[i] = g->local[i];
    }
    ip_launch *l = NULL;
    if (ip_launch_create(ir, &d, &l, ro->err, sizeof ro->err) != IP_OK) {
      ip_launch_free(l);
      return;
    }
    ip_launch_run(l);
    const ip_report *rep = ip_launch_report(l);
    ro->ran = true;
    ro->n_faults = rep->n_faults;
    ro->n_ub = rep->n_ub;
    for (uint32_t i = 0; i < rep->n_diags && ro->n_diag < 3; ++i)
      ip_diag_format(ir, &rep->diags[i], ro->diag[ro->n_diag++], sizeof ro->diag[0]);
    ip_launch_free(l);
    return;
  }
  sg_run_desc d = {.kernel = kname, .work_dim = g->dim, .subgroup_size = g->S, .args = a,
                   .n_args = na, .backend = c->backend ? SG_BACKEND_JIT : SG_BACKEND_INTERP,
                   .repeat = 1, .jit_opt_level = c->backend ? s->o->jit_opt : -1,
                   .step_limit = suite_step_limit(s), .time_limit = s->o->time_limit,
                   .max_private_memory = s->o->max_private_memory};
  for (int i = 0; i < 3; ++i) {
    d.global_size[i] = g->global[i];
    d.local_size[i] = g->local[i];
  }
  sg_report *rep = NULL;
  sg_result r = sg_run(m, &d, &rep, ro->err, sizeof ro->err);
  if (r != SG_SUCCESS && r != SG_FAULTED) {
    if (!ro->err[0])
      snprintf(ro->err, sizeof ro->err, "%s", sg_result_name(r));
    sg_report_destroy(rep);
    return;
  }
  ro->ran = true;
  ro->jit_fell_back = c->backend && rep->backend && strcmp(rep->backend, "jit") != 0;
  if (ro->jit_fell_back)
    snprintf(ro->err, sizeof ro->err, "JIT fell back to the interpreter: %s",
             rep->fallback_reason ? rep->fallback_reason : "no reason given");
  ro->n_faults = rep->n_faults;
  ro->n_ub = rep->n_ub;
  for (uint32_t i = 0; i < rep->n_diags && ro->n_diag < 3; ++i)
    snprintf(ro->diag[ro->n_diag++], sizeof ro->diag[0], "%s",
             rep->diags[i].formatted ? rep->diags[i].formatted : rep->diags[i].message);
  sg_report_destroy(rep);
}

/* ------------------------------------------------------------- reporting */

static void json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; ++s) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static void print_rerun(FILE *f, const suite *s, const char *name)
{
  fprintf(f, "  rerun: %s suite --case %s", s->o->argv0, name);
  /* the limits that may have made it fail */
  if (s->o->step_limit)
    fprintf(f, " --step-limit %llu", (unsigned long long)s->o->step_limit);
  if (s->o->time_limit > 0)
    fprintf(f, " --timeout %g", s->o->time_limit);
  if (s->o->max_module_bytes)
    fprintf(f, " --max-module-size %llu", (unsigned long long)s->o->max_module_bytes);
  if (s->o->max_instructions)
    fprintf(f, " --max-instructions %llu", (unsigned long long)s->o->max_instructions);
  if (s->o->break_op)
    fprintf(f, " --break-op %u", s->o->break_op);
  if (s->o->plant_wrong)
    fprintf(f, " --plant-wrong %s", s->o->plant_wrong);
  if (s->o->jit_opt >= 0 && strstr(name, ".jit"))
    fprintf(f, " --jit-opt %d", s->o->jit_opt);
  fputc('\n', f);
}

typedef struct bad_lane {
  uint32_t lin, slot;
  int kind;   /* 0 value mismatch, 1 wrote a slot it should not, 2 block element */
} bad_lane;

static void report_failure(suite *s, const cf_case *c, const cf_geom *g, const cf_item *items,
                           const cf_inputs *in, const cf_expect *e, const uint8_t *out,
                           const run_out *ro, const char *why, const bad_lane *bad,
                           uint32_t n_bad, const uint8_t *blk)
{
  char name[256], kname[192], vb[4][512];
  cf_case_name(c, name, sizeof name);
  cf_kernel_name(c, kname, sizeof kname);
  bool detail = s->n_failures_shown < s->o->max_failures;
  snprintf(s->last_why, sizeof s->last_why, "%s", why);
  FILE *f = s->text ? s->text : s->o->json_out ? stderr : stdout;
  if (detail && !s->o->json_out) {
    s->n_failures_shown++;
    fprintf(f, "FAIL %s\n  kernel %s in %s/%s%s.%s, -O%d, S=%u, global (%zu,%zu,%zu) local (%zu,%zu,%zu), p=%u",
            name, kname, s->o->work_dir, cf_families[c->op->fam].name, s->reduced ? "" : "_full",
            cf_family_is_spvasm(c->op->fam) ? "spvasm" : "cl", c->olevel, g->S, g->global[0], g->global[1], g->global[2], g->local[0], g->local[1],
            g->local[2], in->p);
    if (c->op->sig == CF_SIG_Q || c->op->sig == CF_SIG_QA)
      fprintf(f, ", q=(0x%08x,0x%08x,0x%08x,0x%08x)", in->q[0], in->q[1], in->q[2], in->q[3]);
    fprintf(f, "\n  %s\n", why);
    for (uint32_t i = 0; i < ro->n_diag; ++i)
      fprintf(f, "  diagnostic: %s\n", ro->diag[i]);
    for (uint32_t i = 0; i < n_bad && i < MAX_LANES_SHOWN; ++i) {
      const bad_lane *b = &bad[i];
      if (b->kind == 2) {
        uint32_t eb = cf_scalars[c->type.s].bytes;
        uint64_t ev = 0, av = 0;
        memcpy(&ev, (const uint8_t *)e->block_value + (size_t)b->lin * eb, eb);
        memcpy(&av, blk + (size_t)b->lin * eb, eb);
        fprintf(f, "    block[%u]: expected 0x%llx, actual 0x%llx\n", b->lin, (unsigned long long)ev,
                (unsigned long long)av);
        continue;
      }
      const cf_item *it = &items[b->lin];
      const uint8_t *act = out + ((size_t)b->lin * CF_NSLOT + b->slot) * e->rsize;
      const uint8_t *exp = e->value + ((size_t)b->lin * CF_NSLOT + b->slot) * e->rsize;
      cf_format_value(c, false, in->x + (size_t)b->lin * in->esize, vb[0], sizeof vb[0]);
      cf_format_value(c, false, in->y + (size_t)b->lin * in->esize, vb[1], sizeof vb[1]);
      cf_format_value(c, true, exp, vb[2], sizeof vb[2]);
      cf_format_value(c, true, act, vb[3], sizeof vb[3]);
      fprintf(f, "    wg %u sg %u lane %u (item %u, call %u): x=%s y=%s sel=%d aux=%u: expected %s, actual %s\n",
              it->wg, it->sg, it->lane, b->lin, b->slot, vb[0], vb[1], in->sel[b->lin], in->aux[b->lin],
              b->kind == 1 ? "no write" : vb[2], vb[3]);
    }
    if (n_bad > MAX_LANES_SHOWN)
      fprintf(f, "    ... %u more\n", n_bad - MAX_LANES_SHOWN);
    print_rerun(f, s, name);
  }
  if (s->json && s->n_failures_shown < s->o->max_failures + 1000) {
    fputs(s->json_first ? "" : ",\n", s->json);
    s->json_first = false;
    fputs("    {\"case\": ", s->json);
    json_str(s->json, name);
    fputs(", \"kernel\": ", s->json);
    json_str(s->json, kname);
    fputs(", \"reason\": ", s->json);
    json_str(s->json, why);
    fprintf(s->json, ", \"subgroup_size\": %u, \"p\": %u, \"diagnostics\": [", g->S, in->p);
    for (uint32_t i = 0; i < ro->n_diag; ++i) {
      if (i)
        fputs(", ", s->json);
      json_str(s->json, ro->diag[i]);
    }
    fputs("], \"lanes\": [", s->json);
    for (uint32_t i = 0; i < n_bad && i < MAX_LANES_SHOWN; ++i) {
      const bad_lane *b = &bad[i];
      if (b->kind == 2)
        continue;
      const cf_item *it = &items[b->lin];
      cf_format_value(c, false, in->x + (size_t)b->lin * in->esize, vb[0], sizeof vb[0]);
      cf_format_value(c, true, e->value + ((size_t)b->lin * CF_NSLOT + b->slot) * e->rsize, vb[2], sizeof vb[2]);
      cf_format_value(c, true, out + ((size_t)b->lin * CF_NSLOT + b->slot) * e->rsize, vb[3], sizeof vb[3]);
      fprintf(s->json, "%s{\"wg\": %u, \"sg\": %u, \"lane\": %u, \"item\": %u, \"call\": %u, \"x\": ",
              i ? ", " : "", it->wg, it->sg, it->lane, b->lin, b->slot);
      json_str(s->json, vb[0]);
      fputs(", \"expected\": ", s->json);
      json_str(s->json, b->kind == 1 ? "no write" : vb[2]);
      fputs(", \"actual\": ", s->json);
      json_str(s->json, vb[3]);
      fputc('}', s->json);
    }
    fputs("], \"rerun\": ", s->json);
    char rr[512];
    snprintf(rr, sizeof rr, "%s suite --case %s", s->o->argv0, name);
    json_str(s->json, rr);
    fputc('}', s->json);
  }
}

/* Runs and checks one case; returns 1 pass, 0 fail, -1 skipped. */
static int run_case(suite *s, const cf_case *c)
{
  cf_geom g;
  cf_shape_geom(c->shape, c->S, &g);
  if (c->op->fam == CF_FAM_INTEL_IMAGE_BLOCK)
    cf_image_geom(c->S, &g);
  uint32_t n = cf_geom_items(&g);
  cf_item *items = calloc(n + 1, sizeof *items);
  uint32_t *members = calloc((size_t)(n + 1) * c->S + c->S, sizeof *members);
  cf_inputs in;
  cf_expect e;
  memset(&in, 0, sizeof in);
  memset(&e, 0, sizeof e);
  uint8_t *out = NULL, *blk0 = NULL;
  run_out ro;
  memset(&ro, 0, sizeof ro);
  int result = 0;
  bad_lane *bad = NULL;
  uint32_t n_bad = 0;
  char why[600] = "";
  if (!items || !members)
    goto out_free;
  uint32_t n_sg;
  cf_layout(&g, items, members, &n_sg);
  cf_gen_inputs(c, &g, items, &in);
  if (!in.x || !in.y || !in.sel || !in.aux)
    goto out_free;
  cf_verify_expect(c, &g, items, members, &in, &e);
  if (!e.state || !e.value)
    goto out_free;
  size_t out_size = (size_t)n * CF_NSLOT * e.rsize;
  out = malloc(out_size + 1);
  bad = calloc((size_t)n * CF_NSLOT + in.n_block + 1, sizeof *bad);
  if (!out || !bad)
    goto out_free;
  memset(out, 0xA5, out_size);
  if (in.block) {
    blk0 = malloc((size_t)in.n_block * 8 + 1);
    if (blk0)
      memcpy(blk0, in.block, (size_t)in.n_block * 8);
  }
  fam_mod *fm = family_module(s, c->op->fam, c->olevel);
  if (!fm->m) {
    snprintf(why, sizeof why, "kernel source did not load: %.500s", fm->err);
    goto fail;
  }
  run_case_launch(s, c, fm->m, &g, &in, out, out_size, &ro);
  if (!ro.ran) {
    snprintf(why, sizeof why, "launch failed: %.500s", ro.err);
    goto fail;
  }
  if (ro.jit_fell_back) {
    result = -1;
    goto out_free;
  }
  uint8_t sentinel[CF_MAX_VAL];
  memset(sentinel, 0xA5, sizeof sentinel);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t sl = 0; sl < CF_NSLOT; ++sl) {
      size_t ix = (size_t)i * CF_NSLOT + sl;
      const uint8_t *act = out + ix * e.rsize;
      if (e.state[ix] == CF_EXP_VALUE) {
        if (!cf_result_match(c, &items[i], e.value + ix * e.rsize, act))
          bad[n_bad++] = (bad_lane){i, sl, 0};
      } else if (e.state[ix] == CF_EXP_NONE && memcmp(act, sentinel, e.rsize) != 0) {
        bad[n_bad++] = (bad_lane){i, sl, 1};
      }
    }
  if ((c->op->sem == CF_SEM_BLOCK_WRITE || c->op->sem == CF_SEM_IMG_BLOCK_WRITE) && e.block_state) {
    uint32_t eb = cf_scalars[c->type.s].bytes;
    for (uint32_t k = 0; k < in.n_block; ++k)
      if (e.block_state[k] == CF_EXP_VALUE &&
          memcmp((uint8_t *)e.block_value + (size_t)k * eb, (uint8_t *)in.block + (size_t)k * eb, eb) != 0)
        bad[n_bad++] = (bad_lane){k, 0, 2};
  }
  if (n_bad) {
    snprintf(why, sizeof why, "%u result%s differ from the specification", n_bad, n_bad == 1 ? "" : "s");
    goto fail;
  }
  if (ro.n_faults) {
    snprintf(why, sizeof why, "%llu fault%s reported", (unsigned long long)ro.n_faults, ro.n_faults == 1 ? "" : "s");
    goto fail;
  }
  if (ro.n_ub && !e.ub_allowed) {
    snprintf(why, sizeof why, "%llu undefined-behaviour diagnostic%s, but every lane's use is defined",
             (unsigned long long)ro.n_ub, ro.n_ub == 1 ? "" : "s");
    goto fail;
  }
  result = 1;
  goto out_free;
fail:
  report_failure(s, c, &g, items, &in, &e, out, &ro, why, bad, n_bad, (const uint8_t *)in.block);
  result = 0;
out_free:
  if (!why[0] && result == 0 && !ro.ran && !ro.err[0]) {
    /* allocation failure */
    snprintf(why, sizeof why, "out of memory");
    report_failure(s, c, &g, items, &in, &e, out ? out : (uint8_t *)"", &ro, why, bad, 0, NULL);
  }
  free(blk0);
  free(bad);
  free(out);
  cf_expect_free(&e);
  cf_inputs_free(&in);
  free(members);
  free(items);
  return result;
}

static double wall_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress(const suite *s, size_t done, size_t total, uint64_t failed, double t0)
{
  if (!s->o->progress)
    return;
  int width = 40, fill = total ? (int)((double)done * width / (double)total) : width;
  double el = wall_now() - t0;
  fprintf(stderr, "\r[%.*s%*s] %zu/%zu  %llu failed  %.0fs ", fill,
          "########################################", width - fill, "", done, total,
          (unsigned long long)failed, el);
  if (done == total)
    fputc('\n', stderr);
  fflush(stderr);
}

void cf_print_table(FILE *f, bool reduced, const cf_table *table)
{
  const uint32_t *sizes = reduced ? reduced_sizes : full_sizes;
  size_t n_sizes = reduced ? sizeof reduced_sizes / 4 : sizeof full_sizes / 4;
  static const uint32_t vecs[] = {1, 2, 3, 4, 8, 16};
  fprintf(f, "\n%-12s %-9s", "family", "type");
  for (size_t i = 0; i < n_sizes; ++i) {
    char h[16];
    snprintf(h, sizeof h, "S=%u", sizes[i]);
    fprintf(f, " %9s", h);
  }
  fprintf(f, "   (passed/failed)\n");
  for (uint32_t fam = 0; fam < CF_N_FAMILIES; ++fam)
    for (uint32_t sc = 0; sc < CF_N_SCALARS; ++sc)
      for (uint32_t vi = 0; vi < 6; ++vi) {
        bool any = false;
        for (size_t i = 0; i < n_sizes; ++i) {
          const tally *t = &(*table)[fam][sc][vi][sizes[i]];
          any = any || t->pass || t->fail;
        }
        if (!any)
          continue;
        char tn[32];
        cf_type ty = {(cf_scalar)sc, vecs[vi]};
        fprintf(f, "%-12s %-9s", cf_families[fam].name, cf_type_name(ty, tn, sizeof tn));
        for (size_t i = 0; i < n_sizes; ++i) {
          const tally *t = &(*table)[fam][sc][vi][sizes[i]];
          char cell[24];
          if (t->pass || t->fail)
            snprintf(cell, sizeof cell, "%u/%u", t->pass, t->fail);
          else
            snprintf(cell, sizeof cell, "-");
          fprintf(f, " %9s", cell);
        }
        fputc('\n', f);
      }
}

/* ------------------------------------------------------ parallel workers
 *
 * -j N forks N workers after every kernel module the selection needs has
 * been compiled here (load_all_modules: so no two processes ever write or
 * compile the same file in the work directory; the children share the
 * loaded modules copy-on-write, and no thread is left running at the fork).  Workers take chunks of consecutive cases from a shared
 * counter, so each worker runs its cases in increasing order, and store
 * each case's result in a shared array.  A failure's report (text and JSON
 * object) goes to the worker's temporary file as a record tagged with the
 * case index; the parent merges the records in case order and prints them
 * exactly as the single-process loop does.  A worker writes the text
 * report only for its first --max-failures failures: a failure past that
 * rank in its own (increasing) order cannot be among the first
 * --max-failures of the whole selection. */

/* RES_FLAKE, RES_XFAIL: final outcomes (finish_cases), after retries and the baseline */
enum { RES_FAIL = 0, RES_PASS = 1, RES_SKIP = -1, RES_NOT_RUN = 2, RES_FLAKE = 3, RES_XFAIL = 4 };

typedef struct shared_state {
  size_t next;            /* first case not yet handed out */
  size_t done;            /* cases finished (progress) */
  uint64_t failed;        /* failures so far (progress) */
  size_t current[];       /* per worker: case being run + 1, 0 = none */
} shared_state;

typedef struct fail_rec {
  size_t idx;
  char *text, *json, *why;
  size_t text_len, json_len, why_len;
} fail_rec;

static bool write_all(FILE *f, const void *p, size_t n)
{
  return n == 0 || fwrite(p, 1, n, f) == n;
}

static void worker_main(suite *s, uint32_t w, size_t total, size_t chunk, shared_state *sh,
                        int8_t *res, FILE *rec, pid_t parent)
{
  /* a worker does not outlive the parent (killed by a test timeout, say) */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent)
    _exit(3);
  char *tb = NULL, *jb = NULL;
  size_t tl = 0, jl = 0;
  bool ok = true;
  for (;;) {
    size_t first = __atomic_fetch_add(&sh->next, chunk, __ATOMIC_RELAXED);
    if (first >= total)
      break;
    size_t end = first + chunk < total ? first + chunk : total;
    for (size_t i = first; i < end; ++i) {
      __atomic_store_n(&sh->current[w], i + 1, __ATOMIC_RELAXED);
      s->text = open_memstream(&tb, &tl);
      s->json = s->o->json_out ? open_memstream(&jb, &jl) : NULL;
      s->json_first = true;
      if (!s->text || (s->o->json_out && !s->json)) {
        ok = false;
        break;
      }
      int r = run_case(s, &s->cases[i]);
      fclose(s->text);
      if (s->json)
        fclose(s->json);
      s->text = s->json = NULL;
      if (tl || jl || r == 0) {
        size_t wl = r == 0 ? strlen(s->last_why) : 0;
        fail_rec h = {.idx = i, .text_len = tl, .json_len = jl, .why_len = wl};
        ok = ok && write_all(rec, &h, sizeof h) && write_all(rec, tb, tl) && write_all(rec, jb, jl) &&
             write_all(rec, s->last_why, wl);
      }
      free(tb);
      free(jb);
      tb = jb = NULL;
      tl = jl = 0;
      res[i] = (int8_t)r;
      if (r == 0)
        __atomic_fetch_add(&sh->failed, 1, __ATOMIC_RELAXED);
      __atomic_fetch_add(&sh->done, 1, __ATOMIC_RELAXED);
    }
    if (!ok)
      break;
  }
  __atomic_store_n(&sh->current[w], 0, __ATOMIC_RELAXED);
  if (fflush(rec) != 0)
    ok = false;
  fflush(stdout);
  fflush(stderr);
  _exit(ok ? 0 : 3);
}

static int cmp_rec(const void *a, const void *b)
{
  const fail_rec *x = a, *y = b;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Reads one worker's records; false on a short or malformed file. */
static bool read_recs(FILE *f, size_t total, fail_rec **recs, size_t *n, size_t *cap)
{
  rewind(f);
  fail_rec h;
  size_t got;
  while ((got = fread(&h, 1, sizeof h, f)) == sizeof h) {
    if (h.idx >= total || h.text_len > ((size_t)1 << 30) || h.json_len > ((size_t)1 << 30) ||
        h.why_len > 4096)
      return false;
    if (*n == *cap) {
      size_t c = *cap ? *cap * 2 : 64;
      fail_rec *nr = realloc(*recs, c * sizeof *nr);
      if (!nr)
        return false;
      *recs = nr;
      *cap = c;
    }
    fail_rec *r = &(*recs)[(*n)++];
    *r = h;
    r->text = malloc(h.text_len + 1);
    r->json = malloc(h.json_len + 1);
    r->why = malloc(h.why_len + 1);
    if (!r->text || !r->json || !r->why || fread(r->text, 1, h.text_len, f) != h.text_len ||
        fread(r->json, 1, h.json_len, f) != h.json_len || fread(r->why, 1, h.why_len, f) != h.why_len) {
      r->text_len = r->json_len = r->why_len = 0;
      return false;
    }
    r->text[h.text_len] = r->json[h.json_len] = r->why[h.why_len] = 0;
  }
  return got == 0;
}

/* Runs cases [0, total) on `jobs` worker processes; 0 done, 2 error (reported). */
static int run_parallel(suite *s, size_t total, uint32_t jobs, double t0)
{
  const cf_suite_opts *o = s->o;
  load_all_modules(s, total, jobs);
  fflush(stdout);
  fflush(stderr);
  size_t shsz = sizeof(shared_state) + (size_t)jobs * sizeof(size_t);
  shared_state *sh = mmap(NULL, shsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  int8_t *res = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  FILE **recf = calloc(jobs, sizeof *recf);
  pid_t *pids = calloc(jobs, sizeof *pids);
  int rc = 0;
  uint32_t started = 0;
  pid_t self = getpid();
  if (sh == MAP_FAILED || res == MAP_FAILED || !recf || !pids) {
    fprintf(stderr, "spirv-sgconform: -j: cannot set up shared memory: %s\n", strerror(errno));
    rc = 2;
    goto out;
  }
  memset(res, RES_NOT_RUN, total);
  /* chunks: small enough to balance the end of the run, large enough that a
   * worker keeps runs of the same kernel and size together */
  size_t chunk = total / ((size_t)jobs * 64);
  if (chunk < 1)
    chunk = 1;
  if (chunk > 32)
    chunk = 32;
  for (uint32_t w = 0; w < jobs; ++w) {
    recf[w] = tmpfile();
    if (!recf[w]) {
      fprintf(stderr, "spirv-sgconform: -j: cannot create a temporary file: %s\n", strerror(errno));
      rc = 2;
      break;
    }
    pid_t p = fork();
    if (p < 0) {
      fprintf(stderr, "spirv-sgconform: -j: cannot start worker %u: %s\n", w + 1, strerror(errno));
      rc = 2;
      break;
    }
    if (p == 0)
      worker_main(s, w, total, chunk, sh, res, recf[w], self);   /* does not return */
    pids[w] = p;
    started++;
  }
  if (rc) {
    /* stop handing out cases; the workers already started finish their chunk */
    __atomic_store_n(&sh->next, total, __ATOMIC_RELAXED);
  }
  uint32_t live = started;
  while (live) {
    int st;
    pid_t p = o->progress ? waitpid(-1, &st, WNOHANG) : waitpid(-1, &st, 0);
    if (p == 0) {
      progress(s, __atomic_load_n(&sh->done, __ATOMIC_RELAXED), total,
               __atomic_load_n(&sh->failed, __ATOMIC_RELAXED), t0);
      struct timespec d = {0, 200 * 1000 * 1000};
      nanosleep(&d, NULL);
      continue;
    }
    if (p < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    uint32_t w = 0;
    while (w < started && pids[w] != p)
      ++w;
    if (w == started)
      continue;
    live--;
    pids[w] = 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
      continue;
    size_t cur = __atomic_load_n(&sh->current[w], __ATOMIC_RELAXED);
    char name[256] = "(between cases)";
    if (cur)
      cf_case_name(&s->cases[cur - 1], name, sizeof name);
    if (WIFSIGNALED(st))
      fprintf(stderr, "spirv-sgconform: worker %u died of signal %d while running case %s\n",
              w + 1, WTERMSIG(st), name);
    else
      fprintf(stderr, "spirv-sgconform: worker %u exited with status %d (case %s)\n", w + 1,
              WEXITSTATUS(st), name);
    rc = 2;
  }
  if (o->progress && rc == 0)
    progress(s, total, total, __atomic_load_n(&sh->failed, __ATOMIC_RELAXED), t0);
  if (rc)
    goto out;
  /* merge: the failure reports in case order, then the tallies */
  fail_rec *recs = NULL;
  size_t n_recs = 0, cap = 0;
  for (uint32_t w = 0; w < jobs && rc == 0; ++w)
    if (!read_recs(recf[w], total, &recs, &n_recs, &cap)) {
      fprintf(stderr, "spirv-sgconform: -j: worker %u's results are unreadable\n", w + 1);
      rc = 2;
    }
  for (size_t i = 0; i < total && rc == 0; ++i)
    if (res[i] == RES_NOT_RUN) {
      char name[256];
      cf_case_name(&s->cases[i], name, sizeof name);
      fprintf(stderr, "spirv-sgconform: -j: case %s was not run\n", name);
      rc = 2;
    }
  if (rc == 0) {
    if (n_recs)
      qsort(recs, n_recs, sizeof *recs, cmp_rec);
    FILE *f = o->json_out ? stderr : stdout;
    for (size_t i = 0; i < n_recs; ++i) {
      if (recs[i].text_len && s->n_failures_shown < o->max_failures) {
        fwrite(recs[i].text, 1, recs[i].text_len, f);
        s->n_failures_shown++;
      }
      if (recs[i].json_len && s->json) {
        fputs(s->json_first ? "" : ",\n", s->json);
        s->json_first = false;
        fwrite(recs[i].json, 1, recs[i].json_len, s->json);
      }
    }
    memcpy(s->res, res, total);
    for (size_t i = 0; i < n_recs; ++i)
      if (recs[i].why_len && !s->why[recs[i].idx]) {
        s->why[recs[i].idx] = recs[i].why;
        recs[i].why = NULL;
      }
  }
  for (size_t i = 0; i < n_recs; ++i) {
    free(recs[i].text);
    free(recs[i].json);
    free(recs[i].why);
  }
  free(recs);
out:
  for (uint32_t w = 0; w < jobs; ++w)
    if (recf && recf[w])
      fclose(recf[w]);
  free(recf);
  free(pids);
  if (sh != MAP_FAILED)
    munmap(sh, shsz);
  if (res != MAP_FAILED)
    munmap(res, total);
  return rc;
}

/* ----------------------------------------------------------------- --count */

/* distinct 64-bit keys (open addressing; 0 stands for "empty", so keys are made odd) */
typedef struct keyset { uint64_t *k; size_t cap, n; } keyset;

uint64_t cf_fnv64(uint64_t h, const void *p, size_t n)
{
  const uint8_t *b = p;
  for (size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) { return cf_fnv64(h, p, n); }

static bool keyset_add(keyset *ks, uint64_t key)
{
  key |= 1;
  if ((ks->n + 1) * 2 > ks->cap) {
    size_t cap = ks->cap ? ks->cap * 2 : 1024;
    uint64_t *nk = calloc(cap, sizeof *nk);
    if (!nk)
      return false;
    for (size_t i = 0; i < ks->cap; ++i)
      if (ks->k[i]) {
        size_t j = (size_t)(ks->k[i] >> 7) & (cap - 1);
        while (nk[j])
          j = (j + 1) & (cap - 1);
        nk[j] = ks->k[i];
      }
    free(ks->k);
    ks->k = nk;
    ks->cap = cap;
  }
  size_t j = (size_t)(key >> 7) & (ks->cap - 1);
  while (ks->k[j]) {
    if (ks->k[j] == key)
      return true;
    j = (j + 1) & (ks->cap - 1);
  }
  ks->k[j] = key;
  ks->n++;
  return true;
}

static int print_count(const suite *s, size_t total)
{
  /* kernel files: one per family; modules: one per (family, -O level);
   * the JIT compiles (and caches) one object per (module, kernel, size). */
  keyset files = {0}, mods = {0}, kernels = {0}, msizes = {0}, ksizes = {0};
  bool ok = true;
  char kname[192];
  for (size_t i = 0; i < total && ok; ++i) {
    const cf_case *c = &s->cases[i];
    uint32_t fam = c->op->fam, ol = (uint32_t)c->olevel;
    cf_kernel_name(c, kname, sizeof kname);
    uint64_t hf = fnv(0xcbf29ce484222325ull, &fam, sizeof fam);
    uint64_t hm = fnv(hf, &ol, sizeof ol);
    uint64_t hk = fnv(hm, kname, strlen(kname));
    ok = keyset_add(&files, hf) && keyset_add(&mods, hm) && keyset_add(&kernels, hk) &&
         keyset_add(&msizes, fnv(hm, &c->S, sizeof c->S)) &&
         keyset_add(&ksizes, fnv(hk, &c->S, sizeof c->S));
  }
  if (ok)
    printf("%zu cases, %zu kernel files, %zu modules, %zu kernels, %zu (module, size) pairs, "
           "%zu (kernel, size) pairs\n", total, files.n, mods.n, kernels.n, msizes.n, ksizes.n);
  else
    fprintf(stderr, "spirv-sgconform: out of memory\n");
  free(files.k);
  free(mods.k);
  free(kernels.k);
  free(msizes.k);
  free(ksizes.k);
  return ok ? 0 : 2;
}

/* ------------------------------------------- retries, baseline, flakes
 *
 * As deqp-runner does: a failed case is run again (--retries, default
 * once; a case of --flakes gets two more tries); one that passes on a
 * retry is a flake: reported, counted neither as passed nor as failed.  A
 * case still failing that --baseline lists is an expected failure; a
 * baseline case that passed is reported, so the baseline can shrink. */

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool list_has(char **list, size_t n, const char *name)
{
  return n && bsearch(&name, list, n, sizeof *list, cmp_str) != NULL;
}

/* Reads a list of case names (one a line; '#' comments; "NAME,Fail" as
 * deqp-runner writes it is accepted); false with a message on error. */
static bool load_list(const char *path, const char *what, char ***out, size_t *out_n, uint64_t *out_hash)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "spirv-sgconform: cannot read the %s file %s: %s\n", what, path, strerror(errno));
    return false;
  }
  char line[1024];
  char **v = NULL;
  size_t n = 0, cap = 0;
  uint64_t h = CF_FNV_INIT;
  bool ok = true;
  while (fgets(line, sizeof line, f)) {
    char *p = line, *e;
    while (*p == ' ' || *p == '\t')
      ++p;
    for (e = p; *e && *e != '#' && *e != ',' && *e != '\n' && *e != '\r' && *e != ' ' && *e != '\t'; ++e)
      ;
    *e = 0;
    if (!*p)
      continue;
    h = cf_fnv64(h, p, strlen(p) + 1);
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      char **nv = realloc(v, cap * sizeof *nv);
      if (!nv) { ok = false; break; }
      v = nv;
    }
    if (!(v[n] = strdup(p))) { ok = false; break; }
    n++;
  }
  /* a directory opens but does not read (EISDIR): an error, not an empty list */
  int rerr = ferror(f) ? errno : 0;
  fclose(f);
  if (ok && rerr) {
    fprintf(stderr, "spirv-sgconform: cannot read the %s file %s: %s\n", what, path, strerror(rerr));
    ok = false;
  } else if (!ok)
    fprintf(stderr, "spirv-sgconform: out of memory reading %s\n", path);
  if (n)
    qsort(v, n, sizeof *v, cmp_str);
  *out = v;
  *out_n = n;
  *out_hash = h;
  return ok;
}

static void free_list(char **v, size_t n)
{
  for (size_t i = 0; i < n; ++i)
    free(v[i]);
  free(v);
}

static void finish_cases(suite *s, size_t total)
{
  const cf_suite_opts *o = s->o;
  FILE *f = o->json_out ? stderr : stdout;
  cf_plant_wrong = o->plant_wrong;   /* --plant-flaky corrupts the first attempt only */
  for (size_t i = 0; i < total; ++i) {
    const cf_case *c = &s->cases[i];
    char name[256];
    cf_case_name(c, name, sizeof name);
    int r = s->res[i];
    if (r == RES_FAIL) {
      uint32_t tries = o->retries + (list_has(s->flk, s->n_flk, name) ? 2 : 0);
      for (uint32_t t = 0; t < tries && r == RES_FAIL; ++t) {
        /* the retry's own report is not printed: the first one was */
        FILE *text = s->text, *json = s->json;
        uint32_t shown = s->n_failures_shown;
        char *tb = NULL, why[sizeof s->last_why];
        size_t tl = 0;
        snprintf(why, sizeof why, "%s", s->last_why);
        s->text = open_memstream(&tb, &tl);
        s->json = NULL;
        int rr = s->text ? run_case(s, c) : RES_FAIL;
        if (s->text)
          fclose(s->text);
        free(tb);
        s->text = text;
        s->json = json;
        s->n_failures_shown = shown;
        snprintf(s->last_why, sizeof s->last_why, "%s", why);
        if (rr == RES_PASS) {
          r = RES_FLAKE;
          fprintf(f, "FLAKE %s: failed, then passed on retry %u%s\n", name, t + 1,
                  list_has(s->flk, s->n_flk, name) ? " (listed in the flakes file)"
                                                   : " (not in a flakes file: add it, or fix it)");
        }
      }
      if (r == RES_FAIL && list_has(s->base, s->n_base, name))
        r = RES_XFAIL;
    } else if (r == RES_PASS && list_has(s->base, s->n_base, name)) {
      fprintf(f, "BASELINE %s passed: remove it from %s\n", name, o->baseline);
    }
    s->res[i] = (int8_t)r;
    tally *t = &s->table[c->op->fam][c->type.s][vec_code(c->type.vec)][c->S];
    switch (r) {
    case RES_PASS: s->passed++; t->pass++; break;
    case RES_FAIL: s->failed++; t->fail++; break;
    case RES_XFAIL: s->xfailed++; t->fail++; break;
    case RES_FLAKE: s->flaky++; break;
    default: s->skipped++; break;
    }
  }
}

/* ------------------------------------------------- shard result files
 *
 * --results DIR: shard-KKKK-of-NNNN.result (line format below, read by
 * cf_results.c) and shard-KKKK-of-NNNN.xml (JUnit).  Each is written to a
 * temporary name in DIR, synced, and renamed into place, so a task killed
 * half way leaves no partial result, and a requeued task replaces its
 * earlier file.  The last line, "end HASH", is the FNV-1a hash of every
 * byte before it: a file cut short is recognised. */

uint64_t cf_code_id(void)
{
  FILE *f = fopen("/proc/self/exe", "rb");
  if (!f)
    return 0;
  uint64_t h = CF_FNV_INIT;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    h = cf_fnv64(h, buf, n);
  fclose(f);
  return h;
}

static void clean_text(char *p)
{
  for (; *p; ++p)
    if (*p == '\t' || *p == '\n' || *p == '\r')
      *p = ' ';
}

static void xml_str(FILE *f, const char *p)
{
  for (; *p; ++p)
    switch (*p) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default:
      if ((unsigned char)*p >= 0x20 || *p == '\n' || *p == '\t')
        fputc(*p, f);
      break;
    }
}

/* Writes the bytes to DIR/NAME through a temporary file and rename. */
static bool write_atomically(const char *dir, const char *name, const char *data, size_t len)
{
  char tmp[1200], path[1200];
  snprintf(tmp, sizeof tmp, "%s/.%s.tmp.%d", dir, name, (int)getpid());
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(tmp, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len && fflush(f) == 0 && fsync(fileno(f)) == 0;
  if (f && fclose(f) != 0)
    ok = false;
  if (ok && rename(tmp, path) != 0)
    ok = false;
  if (!ok) {
    fprintf(stderr, "spirv-sgconform: cannot write %s: %s\n", path, strerror(errno));
    unlink(tmp);
  }
  return ok;
}

static bool write_results(suite *s, size_t total, size_t n_selected, double wall)
{
  const cf_suite_opts *o = s->o;
  struct rusage ru, rc;
  getrusage(RUSAGE_SELF, &ru);
  getrusage(RUSAGE_CHILDREN, &rc);
  double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + rc.ru_utime.tv_sec + rc.ru_stime.tv_sec) +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec + rc.ru_utime.tv_usec + rc.ru_stime.tv_usec) / 1e6;
  char host[256] = "?", base[64];
  gethostname(host, sizeof host - 1);
  host[sizeof host - 1] = 0;
  clean_text(host);
  snprintf(base, sizeof base, "shard-%04u-of-%04u", o->shard_k, o->shard_n);
  char *buf = NULL, *xb = NULL;
  size_t len = 0, xl = 0;
  FILE *f = open_memstream(&buf, &len), *x = open_memstream(&xb, &xl);
  if (!f || !x) {
    if (f) fclose(f);
    if (x) fclose(x);
    free(buf);
    free(xb);
    fprintf(stderr, "spirv-sgconform: out of memory\n");
    return false;
  }
  fprintf(f, "spirv-sgconform shard result 1\n");
  fprintf(f, "code %016llx %s\n", (unsigned long long)cf_code_id(), SG_VERSION_STRING);
  fprintf(f, "selection set=%s jit=%d backend=%s op=%s type=%s size=%s jit-opt=%d plant-wrong=%s "
             "plant-flaky=%s break-op=%u retries=%u baseline=%016llx flakes=%016llx selected=%zu\n",
          s->reduced ? "reduced" : "full", o->jit ? 1 : 0, o->backend ? o->backend : "-", o->op ? o->op : "-",
          o->type ? o->type : "-", o->size ? o->size : "-", o->jit_opt, o->plant_wrong ? o->plant_wrong : "-",
          o->plant_flaky ? o->plant_flaky : "-", o->break_op, o->retries, (unsigned long long)s->base_hash,
          (unsigned long long)s->flk_hash, n_selected);
  fprintf(f, "args %s\n", o->rerun_args ? o->rerun_args : "");
  fprintf(f, "shard %u %u\nhost %s\ncases %zu\npassed %llu\nfailed %llu\nskipped %llu\nxfailed %llu\n"
             "flaky %llu\nwall %.3f\ncpu %.3f\n", o->shard_k, o->shard_n, host, total,
          (unsigned long long)s->passed, (unsigned long long)s->failed, (unsigned long long)s->skipped,
          (unsigned long long)s->xfailed, (unsigned long long)s->flaky, wall, cpu);
  fprintf(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
             "<testsuite name=\"spirv-sgconform shard %u of %u\" tests=\"%zu\" failures=\"%llu\" "
             "skipped=\"%llu\" time=\"%.3f\" hostname=\"", o->shard_k, o->shard_n, total,
          (unsigned long long)s->failed, (unsigned long long)(s->skipped + s->xfailed), wall);
  xml_str(x, host);
  fputs("\">\n", x);
  for (size_t i = 0; i < total; ++i) {
    char name[256], why[sizeof s->last_why];
    const cf_case *c = &s->cases[i];
    cf_case_name(c, name, sizeof name);
    snprintf(why, sizeof why, "%s", s->why[i] ? s->why[i] : "failed");
    clean_text(why);
    int r = s->res[i];
    if (r == RES_FAIL) {
      fprintf(f, "fail %s\t%s\t", name, why);
      print_rerun(f, s, name);
    } else if (r == RES_XFAIL) {
      fprintf(f, "xfail %s\n", name);
    } else if (r == RES_FLAKE) {
      fprintf(f, "flake %s\t%s\n", name, why);
    } else if (r == RES_PASS && list_has(s->base, s->n_base, name)) {
      fprintf(f, "xpass %s\n", name);
    }
    fprintf(x, "  <testcase classname=\"spirv-sgconform.%s\" name=\"%s\"", cf_families[c->op->fam].name, name);
    if (r == RES_PASS) {
      fputs("/>\n", x);
      continue;
    }
    fputs(">", x);
    if (r == RES_FAIL) {
      fputs("<failure message=\"", x);
      xml_str(x, why);
      fputs("\">", x);
      char *rb = NULL;
      size_t rl = 0;
      FILE *rf = open_memstream(&rb, &rl);
      if (rf) {
        print_rerun(rf, s, name);
        fclose(rf);
        xml_str(x, rb);
      }
      free(rb);
      fputs("</failure>", x);
    } else if (r == RES_XFAIL) {
      fputs("<skipped message=\"expected failure (baseline)\"/>", x);
    } else if (r == RES_FLAKE) {
      fputs("<system-out>flaky: failed (", x);
      xml_str(x, why);
      fputs("), then passed on retry</system-out>", x);
    } else {
      fputs("<skipped message=\"JIT fell back to the interpreter\"/>", x);
    }
    fputs("</testcase>\n", x);
  }
  fputs("</testsuite>\n</testsuites>\n", x);
  for (uint32_t fam = 0; fam < CF_N_FAMILIES; ++fam)
    for (uint32_t sc = 0; sc < CF_N_SCALARS; ++sc)
      for (uint32_t vi = 0; vi < 8; ++vi)
        for (uint32_t S = 0; S <= 64; ++S) {
          const tally *t = &s->table[fam][sc][vi][S];
          if (t->pass || t->fail)
            fprintf(f, "tally %u %u %u %u %u %u\n", fam, sc, vi, S, t->pass, t->fail);
        }
  fflush(f);
  fprintf(f, "end %016llx\n", (unsigned long long)cf_fnv64(CF_FNV_INIT, buf, len));
  fclose(f);
  fclose(x);
  char name[128];
  snprintf(name, sizeof name, "%s.xml", base);
  bool ok = write_atomically(o->results_dir, name, xb, xl);
  snprintf(name, sizeof name, "%s.result", base);
  /* the .result last: merge counts a shard by it */
  ok = ok && write_atomically(o->results_dir, name, buf, len);
  free(buf);
  free(xb);
  return ok;
}

int cf_suite_run(const cf_suite_opts *o)
{
  suite *s = calloc(1, sizeof *s);
  if (!s) {
    fprintf(stderr, "spirv-sgconform: out of memory\n");
    return 2;
  }
  s->o = o;
  s->reduced = !o->full && !o->case_name;
  s->json_first = true;
  cf_plant_wrong = o->plant_flaky ? o->plant_flaky : o->plant_wrong;
  for (uint32_t fam = 0; fam < CF_N_FAMILIES; ++fam)
    cf_for_each_kernel((cf_family)fam, s->reduced, enum_kernel, s);
  /* shard after filtering, so shards partition exactly the selected cases */
  size_t total = 0, n_selected = s->n_cases;
  for (size_t i = 0; i < s->n_cases; ++i)
    if (o->shard_n <= 1 || i % o->shard_n == o->shard_k - 1)
      s->cases[total++] = s->cases[i];
  if (o->case_name && total == 0) {
    fprintf(stderr, "spirv-sgconform: no case named '%s'\n", o->case_name);
    free(s->cases);
    free(s);
    return 2;
  }
  if (n_selected == 0 && !o->count_only) {
    /* a filter that matches nothing (a misspelt --op, a size the reduced set
       lacks) would otherwise pass with "0 passed, 0 failed" */
    fprintf(stderr, "spirv-sgconform: no case matches the selection (--op, --type, --size, --backend)%s\n",
            s->reduced ? "; --full adds the subgroup sizes the reduced set lacks (it has 1, 4, 7, 16, 64)" : "");
    free(s->cases);
    free(s);
    return 2;
  }
  if (o->count_only) {
    int rc = print_count(s, total);
    free(s->cases);
    free(s);
    return rc;
  }
  s->base_hash = s->flk_hash = CF_FNV_INIT;
  s->res = calloc(total + 1, 1);
  s->why = calloc(total + 1, sizeof *s->why);
  bool setup_ok = s->res && s->why;
  if (!setup_ok)
    fprintf(stderr, "spirv-sgconform: out of memory\n");
  if (setup_ok && o->baseline)
    setup_ok = load_list(o->baseline, "baseline", &s->base, &s->n_base, &s->base_hash);
  if (setup_ok && o->flakes)
    setup_ok = load_list(o->flakes, "flakes", &s->flk, &s->n_flk, &s->flk_hash);
  if (setup_ok && mkdir(o->work_dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "spirv-sgconform: cannot create %s: %s\n", o->work_dir, strerror(errno));
    setup_ok = false;
  }
  if (setup_ok && o->results_dir && mkdir(o->results_dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "spirv-sgconform: cannot create %s: %s\n", o->results_dir, strerror(errno));
    setup_ok = false;
  }
  if (!setup_ok) {
    free_list(s->base, s->n_base);
    free_list(s->flk, s->n_flk);
    free(s->res);
    free(s->why);
    free(s->cases);
    free(s);
    return 2;
  }
  if (o->json_out)
    s->json = open_memstream(&s->json_buf, &s->json_len);
  uint32_t jobs = o->jobs ? o->jobs : 1;
  if (jobs > total)
    jobs = total ? (uint32_t)total : 1;
  double t0 = wall_now();
  int prc = 0;
  if (jobs > 1) {
    prc = run_parallel(s, total, jobs, t0);
  } else {
    uint64_t nf = 0;
    for (size_t i = 0; i < total; ++i) {
      s->last_why[0] = 0;
      int r = run_case(s, &s->cases[i]);
      s->res[i] = (int8_t)r;
      if (r == 0) {
        nf++;
        s->why[i] = strdup(s->last_why);
      }
      if (i % 64 == 0 || i + 1 == total)
        progress(s, i + 1, total, nf, t0);
    }
  }
  if (prc == 0)
    finish_cases(s, total);
  double secs = wall_now() - t0;
  if (prc) {
    if (s->json)
      fclose(s->json);
    free(s->json_buf);
  } else if (o->json_out) {
    if (s->json)
      fclose(s->json);
    printf("{\"mode\": \"suite\", \"set\": \"%s\", \"cases\": %zu, \"passed\": %llu, \"failed\": %llu, "
           "\"skipped\": %llu, \"expected_failures\": %llu, \"flakes\": %llu, \"seconds\": %.3f,\n"
           "  \"failures\": [\n%s\n  ],\n  \"table\": [",
           s->reduced ? "reduced" : "full", total, (unsigned long long)s->passed,
           (unsigned long long)s->failed, (unsigned long long)s->skipped, (unsigned long long)s->xfailed,
           (unsigned long long)s->flaky, secs,
           s->json_buf ? s->json_buf : "");
    bool first = true;
    for (uint32_t fam = 0; fam < CF_N_FAMILIES; ++fam)
      for (uint32_t sc = 0; sc < CF_N_SCALARS; ++sc)
        for (uint32_t vi = 0; vi < 6; ++vi)
          for (uint32_t S = 1; S <= 64; ++S) {
            tally *t = &s->table[fam][sc][vi][S];
            if (!t->pass && !t->fail)
              continue;
            static const uint32_t vecs[] = {1, 2, 3, 4, 8, 16};
            char tn[32];
            cf_type ty = {(cf_scalar)sc, vecs[vi]};
            printf("%s\n    {\"family\": \"%s\", \"type\": \"%s\", \"size\": %u, \"passed\": %u, \"failed\": %u}",
                   first ? "" : ",", cf_families[fam].name, cf_type_name(ty, tn, sizeof tn), S, t->pass, t->fail);
            first = false;
          }
    printf("\n  ]}\n");
    free(s->json_buf);
  } else {
    cf_print_table(stdout, s->reduced, &s->table);
    printf("\n%zu cases in %.1fs (%s set%s)", total, secs, s->reduced ? "reduced" : "full",
           o->shard_n > 1 ? ", one shard" : "");
    if (s->skipped)
      printf(", %llu skipped (JIT fell back to the interpreter)", (unsigned long long)s->skipped);
    if (s->xfailed || s->flaky)
      printf("\n%llu expected failure%s (baseline), %llu flake%s (passed on retry)", (unsigned long long)s->xfailed,
             s->xfailed == 1 ? "" : "s", (unsigned long long)s->flaky, s->flaky == 1 ? "" : "s");
    printf("\n%llu passed, %llu failed\n", (unsigned long long)s->passed, (unsigned long long)s->failed);
  }
  int rc = prc ? 2 : s->failed ? 1 : 0;
  if (prc == 0 && o->results_dir && !write_results(s, total, n_selected, secs))
    rc = 2;
  for (size_t i = 0; i < total; ++i)
    free(s->why[i]);
  free(s->why);
  free(s->res);
  free_list(s->base, s->n_base);
  free_list(s->flk, s->n_flk);
  for (uint32_t f = 0; f < CF_N_FAMILIES; ++f)
    for (int k = 0; k < 2; ++k)
      sg_module_destroy(s->mods[f][k].m);
  free(s->cases);
  free(s);
  return rc;
}
