/* dbg_session.c - the debugger session: its output sink, the instruction
 * index, names and source lines, the expression context of a lane.
 */
#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg_session.h"
#include "spv.h"

/* ------------------------------------------------------------ output */

/* Everything the engine says goes through the session's sink: the
 * terminal writes it to stdout, the DAP server turns it into "output"
 * events, an embedding program keeps it. */
void dbg_printf(dbg_session *S, const char *fmt, ...)
{
  char small[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n < sizeof small) {
    S->out(S->out_user, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) {
    S->out(S->out_user, small, sizeof small - 1);   /* the start, at least */
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  S->out(S->out_user, big, (size_t)n);
  free(big);
}

void dbg_puts(dbg_session *S, const char *s) { S->out(S->out_user, s, strlen(s)); }

void dbg_putc(dbg_session *S, int c)
{
  char ch = (char)c;
  S->out(S->out_user, &ch, 1);
}


static int cmp_insn_word(const void *a, const void *b)
{
  const ld_insn *x = *(const ld_insn *const *)a, *y = *(const ld_insn *const *)b;
  return x->word_offset < y->word_offset ? -1 : x->word_offset > y->word_offset;
}

void dbg_index_insns(dbg_session *S)
{
  uint32_t n = 0;
  for (uint32_t f = 0; f < S->ir->n_functions; f++)
    for (uint32_t b = 0; b < S->ir->functions[f]->n_blocks; b++)
      n += S->ir->functions[f]->blocks[b].n_insns;
  S->by_word = calloc(n ? n : 1, sizeof *S->by_word);
  if (!S->by_word)
    return;
  for (uint32_t f = 0; f < S->ir->n_functions; f++)
    for (uint32_t b = 0; b < S->ir->functions[f]->n_blocks; b++) {
      const ld_block *bl = &S->ir->functions[f]->blocks[b];
      for (uint32_t i = 0; i < bl->n_insns; i++)
        S->by_word[S->n_insns++] = &bl->insns[i];
    }
  qsort(S->by_word, S->n_insns, sizeof *S->by_word, cmp_insn_word);
}

const ld_insn *dbg_insn_at_word(dbg_session *S, uint32_t word)
{
  uint32_t lo = 0, hi = S->n_insns;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (S->by_word[mid]->word_offset < word) lo = mid + 1;
    else hi = mid;
  }
  return lo < S->n_insns && S->by_word[lo]->word_offset == word ? S->by_word[lo] : NULL;
}

wgslot *dbg_cur_slot(dbg_session *S) { return S->cur >= 0 ? &S->slots[S->cur] : NULL; }

sg_sg *dbg_cur_sg(dbg_session *S)
{
  wgslot *w = dbg_cur_slot(S);
  return w ? sg_wg_subgroup(w->wg, S->cur_sg) : NULL;
}

const ld_insn *dbg_sg_insn(dbg_session *S, const sg_sg *sg)
{
  sg_insn_info ii;
  return sg && sg_sg_current(sg, &ii) ? dbg_insn_at_word(S, ii.word) : NULL;
}

const ld_insn *dbg_frame_insn(dbg_session *S, const sg_sg *sg, uint32_t depth)
{
  sg_insn_info ii;
  return sg && sg_sg_frame_insn(sg, depth, &ii) ? dbg_insn_at_word(S, ii.word) : NULL;
}


/* ------------------------------------------------------------- formatting */

/* Names for disassembly: OpName, else a friendly type / constant name. */

const char *dbg_id_namer(void *user, uint32_t id)
{
  dbg_session *S = user;
  if (!id || id >= S->ir->bound)
    return NULL;
  const ld_value *v = &S->ir->values[id];
  if (v->name && *v->name)
    return v->name;
  char *b = S->namebuf[S->namebuf_i++ & 7];
  if (v->kind == LD_V_TYPE && v->type) {
    dbg_type_name(v->type, b, sizeof S->namebuf[0]);
    return b;
  }
  if (v->kind == LD_V_CONSTANT && v->type && v->u.bytes && !v->is_spec_constant &&
      (v->type->kind == LD_T_INT || v->type->kind == LD_T_BOOL) && v->type->size <= 8) {
    uint64_t x = 0;
    memcpy(&x, v->u.bytes, v->type->size);
    if (v->type->kind == LD_T_BOOL)
      snprintf(b, sizeof S->namebuf[0], "%s", x ? "true" : "false");
    else {
      char tn[32];
      dbg_type_name(v->type, tn, sizeof tn);
      snprintf(b, sizeof S->namebuf[0], "%s_%" PRIu64, tn, x);
    }
    return b;
  }
  return NULL;
}

void dbg_format_insn(dbg_session *S, const ld_insn *in, char *buf, size_t n)
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
  spv_format_insn(&r, dbg_id_namer, S, buf, n);
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

const char *dbg_loc_str(const ld_insn *in, char *buf, size_t n)
{
  if (in && in->loc && in->loc->file)
    snprintf(buf, n, "%s:%u", dbg_base_name(in->loc->file), in->loc->line);
  else if (in)
    snprintf(buf, n, "word %u", in->word_offset);
  else
    snprintf(buf, n, "?");
  return buf;
}

bool dbg_lane_active(const uint64_t m[2], uint32_t l) { return l < 128 && ((m[l >> 6] >> (l & 63)) & 1); }

/* ---------------------------------------------------------- source files */

srcfile *dbg_source_for(dbg_session *S, const char *path)
{
  for (uint32_t i = 0; i < S->n_src; i++)
    if (!strcmp(S->src[i].path, path))
      return S->src[i].text ? &S->src[i] : NULL;
  srcfile *ns = realloc(S->src, (S->n_src + 1) * sizeof *ns);
  if (!ns)
    return NULL;
  S->src = ns;
  srcfile *f = &S->src[S->n_src++];
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

const char *dbg_source_line(dbg_session *S, const ld_insn *in)
{
  if (!in || !in->loc || !in->loc->file)
    return NULL;
  srcfile *f = dbg_source_for(S, in->loc->file);
  if (!f || !in->loc->line || in->loc->line > f->n_lines)
    return NULL;
  return f->lines[in->loc->line - 1];
}

/* The expression context of lane `lane` of subgroup sg of work-group w. */
void dbg_make_ctx(dbg_session *S, dbg_ctx *c, const wgslot *w, const sg_sg *sg, uint32_t lane)
{
  memset(c, 0, sizeof *c);
  c->ir = S->ir;
  c->sess = S;
  c->sg = sg;
  c->lane = lane;
  c->work_dim = S->d.work_dim;
  for (int d = 0; d < 3; d++) {
    c->group[d] = w ? w->group[d] : 0;
    c->num_groups[d] = S->groups[d];
    c->global_size[d] = d < (int)S->d.work_dim ? S->d.global_size[d] : 1;
    c->global_offset[d] = d < (int)S->d.work_dim ? S->d.global_offset[d] : 0;
    size_t ls = d < (int)S->d.work_dim ? S->d.local_size[d] : 1;
    if (!ls)
      ls = S->groups[d] ? (c->global_size[d] + S->groups[d] - 1) / S->groups[d] : 1;
    c->local_size[d] = ls;
  }
  c->n_subgroups = w ? w->n_sgs : 0;
  c->sg_size = S->sg_size;
}

