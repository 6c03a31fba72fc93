/* dbg_expr.c - spirv-sgdb's expressions, evaluated in one lane.
 *
 * A small C-like language over the running kernel: source variables and
 * SPIR-V ids, literals, indexing and members through pointers (in[gid],
 * p->1, v.x), unary - ! ~ * &, arithmetic, shifts, bitwise and logical
 * operators, comparisons, casts to the kernel's scalar types ((uint)x,
 * (float)y, (int *)p), and the work-item builtins: gid lid group lane sg
 * (dimension 0) and the OpenCL calls get_global_id(d), get_local_id(d),
 * get_group_id(d), get_local_size(d), get_global_size(d), get_num_groups(d),
 * get_sub_group_local_id(), get_sub_group_id(), get_sub_group_size(),
 * get_num_sub_groups().
 *
 * The parser evaluates as it goes (no tree): an expression is short and is
 * evaluated once per lane.  SPIR-V integers carry no sign, so integers are
 * signed unless a cast says otherwise; a source variable at -O0 is a private
 * OpVariable, and its name denotes the object it holds, as in C.
 */
#include "dbg.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spv.h"

/* Innermost-first frame function (sgdb.c knows the instruction index). */

typedef struct parser {
  const char *s, *p;
  const dbg_ctx *c;
  char *err;
  size_t n;
  bool failed;
} parser;

static bool fail(parser *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(parser *P, const char *fmt, ...)
{
  if (P->failed)
    return false;
  P->failed = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(P->err, P->n, fmt, ap);
  va_end(ap);
  return false;
}

static void skip_ws(parser *P)
{
  while (*P->p == ' ' || *P->p == '\t')
    P->p++;
}

static bool accept(parser *P, const char *tok)
{
  skip_ws(P);
  size_t k = strlen(tok);
  if (strncmp(P->p, tok, k))
    return false;
  /* '<' must not eat '<<' or '<=', '&' not '&&', ... */
  if (k == 1 && strchr("<>&|=!", tok[0]) && (P->p[1] == tok[0] || P->p[1] == '=') &&
      !(tok[0] == '!' && P->p[1] == '!'))
    return false;
  if (k == 1 && tok[0] == '-' && (P->p[1] == '>' ))
    return false;
  P->p += k;
  return true;
}

static bool is_ident_start(char ch) { return isalpha((unsigned char)ch) || ch == '_' || ch == '$'; }
static bool is_ident(char ch) { return isalnum((unsigned char)ch) || ch == '_' || ch == '$'; }

/* ------------------------------------------------------------- ids */

uint32_t dbg_resolve_id(const ld_module *ir, const char *s, const ld_function *fn)
{
  uint64_t v = 0;
  if (s[0] == '%' && s[1] >= '0' && s[1] <= '9') {
    char *end;
    v = strtoull(s + 1, &end, 10);
    return !*end && v > 0 && v < ir->bound ? (uint32_t)v : 0;
  }
  if (s[0] == '%')
    s++;
  uint32_t best = 0;
  for (uint32_t i = 1; i < ir->bound; i++) {
    const ld_value *val = &ir->values[i];
    if (!val->name || strcmp(val->name, s))
      continue;
    if (val->kind == LD_V_TYPE || val->kind == LD_V_LABEL || val->kind == LD_V_FUNCTION ||
        val->kind == LD_V_STRING || val->kind == LD_V_EXT_SET)
      continue;
    if (val->owner == fn)
      return i;
    if (!best || (val->owner == NULL && ir->values[best].owner != NULL))
      best = i;
  }
  return best;
}

uint32_t dbg_depth_for(struct sg_dbg *S, const ld_module *ir, const sg_sg *sg, uint32_t id)
{
  const ld_value *v = &ir->values[id];
  if (!v->owner)
    return 0;
  uint32_t n = sg_sg_depth(sg);
  for (uint32_t d = 0; d < n; d++)
    if (dbg_frame_fn(S, sg, d) == v->owner)
      return d;
  return UINT32_MAX;
}

bool dbg_is_plain_name(const char *s)
{
  if (*s == '%')
    s++;
  if (!*s)
    return false;
  for (; *s; s++)
    if (!is_ident(*s) && *s != '.')
      return false;
  return true;
}

/* ------------------------------------------------------------- values */

static uint64_t trunc_to(uint64_t u, uint32_t w)
{
  return w >= 64 ? u : u & (((uint64_t)1 << w) - 1);
}

static int64_t as_signed(const dbg_val *v)
{
  uint32_t w = v->width ? v->width : 64;
  uint64_t u = trunc_to(v->u, w);
  if (w < 64 && ((u >> (w - 1)) & 1))
    u |= ~(((uint64_t)1 << w) - 1);
  return (int64_t)u;
}

static dbg_val mk_int(int64_t x, uint32_t w, bool sgn)
{
  dbg_val v;
  memset(&v, 0, sizeof v);
  v.k = DV_INT;
  v.width = w;
  v.sgn = sgn;
  v.u = trunc_to((uint64_t)x, w);
  return v;
}

static dbg_val mk_float(double f, uint32_t w)
{
  dbg_val v;
  memset(&v, 0, sizeof v);
  v.k = DV_FLOAT;
  v.width = w;
  v.f = f;
  return v;
}

static dbg_val mk_bool(bool b)
{
  dbg_val v;
  memset(&v, 0, sizeof v);
  v.k = DV_BOOL;
  v.u = b;
  return v;
}

/* A scalar value of type t from bytes. */
static bool from_bytes(parser *P, const ld_type *t, const uint8_t *b, dbg_val *out)
{
  memset(out, 0, sizeof *out);
  out->t = t;
  switch (t ? t->kind : LD_T_VOID) {
  case LD_T_INT:
    out->k = DV_INT;
    out->width = t->width ? t->width : t->size * 8;
    out->sgn = true;
    out->u = trunc_to(dbg_rd_uint(b, t->size), out->width);
    return true;
  case LD_T_BOOL:
    out->k = DV_BOOL;
    out->u = b[0] != 0;
    return true;
  case LD_T_FLOAT:
    out->k = DV_FLOAT;
    out->width = t->width;
    if (t->width == 16) {
      _Float16 h;
      memcpy(&h, b, 2);
      out->f = (double)h;
    } else if (t->width == 64) {
      memcpy(&out->f, b, 8);
    } else {
      float f;
      memcpy(&f, b, 4);
      out->f = f;
    }
    return true;
  case LD_T_POINTER:
    out->k = DV_PTR;
    out->u = dbg_rd_uint(b, t->size);
    out->pointee = t->elem;
    return true;
  default:
    return fail(P, "values of this type cannot be used in expressions");
  }
}

static bool is_scalar_type(const ld_type *t)
{
  return t && (t->kind == LD_T_INT || t->kind == LD_T_FLOAT || t->kind == LD_T_BOOL || t->kind == LD_T_POINTER);
}

/* The object at addr of type t: a scalar is loaded (keeping its address), an
 * aggregate stays an object. */
static bool object_at(parser *P, const ld_type *t, uint64_t addr, dbg_val *out)
{
  if (!t)
    return fail(P, "cannot dereference a pointer to an unknown type (cast it first)");
  if (is_scalar_type(t)) {
    uint8_t b[16] = {0};
    if (t->size > sizeof b || !sg_sg_read_memory(P->c->sg, P->c->lane, addr, b, t->size)) {
      char d[256] = "";
      sg_sg_describe_addr(P->c->sg, addr, d, sizeof d);
      return fail(P, "cannot read %u bytes at 0x%" PRIx64 " (%s)", t->size, addr, d);
    }
    if (!from_bytes(P, t, b, out))
      return false;
  } else {
    memset(out, 0, sizeof *out);
    out->k = DV_OBJ;
    out->t = t;
  }
  out->lv = true;
  out->addr = addr;
  out->size = t->size;
  return true;
}

/* A value as an rvalue scalar: arrays decay to a pointer to their first element. */
static bool rvalue(parser *P, dbg_val *v)
{
  if (v->k != DV_OBJ)
    return true;
  if (v->t && (v->t->kind == LD_T_ARRAY || v->t->kind == LD_T_RUNTIME_ARRAY)) {
    const ld_type *e = v->t->elem;
    uint64_t a = v->addr;
    memset(v, 0, sizeof *v);
    v->k = DV_PTR;
    v->u = a;
    v->pointee = e;
    return true;
  }
  return fail(P, "a %s cannot be used as a number here", v->t && v->t->kind == LD_T_STRUCT ? "struct" : "vector");
}

/* ------------------------------------------------------------- builtins */

static bool builtin(parser *P, const char *name, int dim, dbg_val *out)
{
  const dbg_ctx *c = P->c;
  uint32_t lin = sg_sg_lane_local_linear(c->sg, c->lane);
  size_t lid[3];
  lid[0] = lin % (c->local_size[0] ? c->local_size[0] : 1);
  lid[1] = lin / (c->local_size[0] ? c->local_size[0] : 1) % (c->local_size[1] ? c->local_size[1] : 1);
  lid[2] = lin / ((c->local_size[0] ? c->local_size[0] : 1) * (c->local_size[1] ? c->local_size[1] : 1));
  if (dim < 0)
    dim = 0;
  if (dim > 2 && strstr(name, "_id"))
    { *out = mk_int(0, 64, false); return true; }
  int d = dim > 2 ? 0 : dim;
  uint64_t r;
  if (!strcmp(name, "get_global_id"))
    r = c->group[d] * c->local_size[d] + lid[d] + c->global_offset[d];
  else if (!strcmp(name, "get_local_id"))
    r = lid[d];
  else if (!strcmp(name, "get_group_id"))
    r = c->group[d];
  else if (!strcmp(name, "get_local_size"))
    r = dim > 2 ? 1 : c->local_size[d];
  else if (!strcmp(name, "get_global_size"))
    r = dim > 2 ? 1 : c->global_size[d];
  else if (!strcmp(name, "get_num_groups"))
    r = dim > 2 ? 1 : c->num_groups[d];
  else if (!strcmp(name, "get_global_offset"))
    r = dim > 2 ? 0 : c->global_offset[d];
  else if (!strcmp(name, "get_sub_group_local_id"))
    { *out = mk_int(c->lane, 32, false); return true; }
  else if (!strcmp(name, "get_sub_group_id"))
    { *out = mk_int(sg_sg_id(c->sg), 32, false); return true; }
  else if (!strcmp(name, "get_sub_group_size"))
    { *out = mk_int(sg_sg_lane_count(c->sg), 32, false); return true; }
  else if (!strcmp(name, "get_max_sub_group_size"))
    { *out = mk_int(c->sg_size, 32, false); return true; }
  else if (!strcmp(name, "get_num_sub_groups"))
    { *out = mk_int(c->n_subgroups, 32, false); return true; }
  else if (!strcmp(name, "get_work_dim"))
    { *out = mk_int(c->work_dim, 32, false); return true; }
  else
    return fail(P, "unknown function '%s' (the work-item functions get_global_id() ... are known)", name);
  *out = mk_int((int64_t)r, 64, false);
  return true;
}

static const struct { const char *short_name, *call; } short_builtins[] = {
  {"gid", "get_global_id"}, {"lid", "get_local_id"}, {"group", "get_group_id"},
  {"lane", "get_sub_group_local_id"}, {"sg", "get_sub_group_id"},
};

/* ------------------------------------------------------------- types */

static bool parse_type_name(parser *P, dbg_val *proto)
{
  /* proto: k INT/FLOAT/BOOL with width and sign, or PTR (pointee NULL: see width) */
  static const struct { const char *n; dbg_vkind k; uint32_t w; bool sgn; } tn[] = {
    {"char", DV_INT, 8, true}, {"uchar", DV_INT, 8, false}, {"short", DV_INT, 16, true},
    {"ushort", DV_INT, 16, false}, {"int", DV_INT, 32, true}, {"uint", DV_INT, 32, false},
    {"long", DV_INT, 64, true}, {"ulong", DV_INT, 64, false}, {"size_t", DV_INT, 64, false},
    {"half", DV_FLOAT, 16, false}, {"float", DV_FLOAT, 32, false}, {"double", DV_FLOAT, 64, false},
    {"bool", DV_BOOL, 1, false},
  };
  const char *save = P->p;
  skip_ws(P);
  while (!strncmp(P->p, "__global ", 9) || !strncmp(P->p, "__local ", 8) || !strncmp(P->p, "__private ", 10) ||
         !strncmp(P->p, "const ", 6) || !strncmp(P->p, "global ", 7) || !strncmp(P->p, "local ", 6)) {
    P->p = strchr(P->p, ' ') + 1;
    skip_ws(P);
  }
  bool uns = false;
  if (!strncmp(P->p, "unsigned", 8) && !is_ident(P->p[8])) {
    uns = true;
    P->p += 8;
    skip_ws(P);
  }
  for (size_t i = 0; i < sizeof tn / sizeof tn[0]; i++) {
    size_t k = strlen(tn[i].n);
    if (!strncmp(P->p, tn[i].n, k) && !is_ident(P->p[k])) {
      P->p += k;
      memset(proto, 0, sizeof *proto);
      proto->k = tn[i].k;
      proto->width = tn[i].w;
      proto->sgn = tn[i].sgn && !uns;
      skip_ws(P);
      if (*P->p == '*') {
        P->p++;
        proto->sgn = proto->k == DV_INT ? proto->sgn : false;
        proto->u = 1;           /* marks "pointer to" */
      }
      return true;
    }
  }
  if (uns) {
    memset(proto, 0, sizeof *proto);
    proto->k = DV_INT;
    proto->width = 32;
    return true;
  }
  P->p = save;
  return false;
}

/* An ld_type of the module for a scalar proto (pointer casts need one). */
static const ld_type *find_scalar_type(const ld_module *ir, dbg_vkind k, uint32_t w)
{
  for (uint32_t i = 1; i < ir->bound; i++) {
    const ld_value *v = &ir->values[i];
    if (v->kind != LD_V_TYPE || !v->type)
      continue;
    const ld_type *t = v->type;
    if ((k == DV_INT && t->kind == LD_T_INT && t->width == w) ||
        (k == DV_FLOAT && t->kind == LD_T_FLOAT && t->width == w) || (k == DV_BOOL && t->kind == LD_T_BOOL))
      return t;
  }
  return NULL;
}

static bool cast_to(parser *P, const dbg_val *proto, dbg_val *v)
{
  if (!rvalue(P, v))
    return false;
  if (proto->u == 1) {   /* pointer cast */
    if (v->k != DV_PTR && v->k != DV_INT)
      return fail(P, "only pointers and integers can be cast to a pointer");
    const ld_type *pt = find_scalar_type(P->c->ir, proto->k, proto->width);
    if (!pt)
      return fail(P, "the module has no such type to point to");
    uint64_t a = v->u;
    memset(v, 0, sizeof *v);
    v->k = DV_PTR;
    v->u = a;
    v->pointee = pt;
    return true;
  }
  if (v->k == DV_PTR && proto->k != DV_INT)
    return fail(P, "a pointer can only be cast to an integer");
  double f = v->k == DV_FLOAT ? v->f : v->k == DV_INT && v->sgn ? (double)as_signed(v) : (double)v->u;
  int64_t i = v->k == DV_FLOAT ? (int64_t)v->f : v->k == DV_INT && v->sgn ? as_signed(v) : (int64_t)v->u;
  if (v->k == DV_FLOAT && !v->sgn && proto->k == DV_INT && !proto->sgn && v->f >= 9.2e18)
    i = (int64_t)(uint64_t)v->f;
  switch (proto->k) {
  case DV_INT: *v = mk_int(i, proto->width, proto->sgn); break;
  case DV_FLOAT:
    *v = mk_float(proto->width == 32 ? (double)(float)f : proto->width == 16 ? (double)(_Float16)f : f, proto->width);
    break;
  case DV_BOOL: *v = mk_bool(v->k == DV_FLOAT ? v->f != 0 : v->u != 0); break;
  default: return fail(P, "bad cast");
  }
  return true;
}

/* ------------------------------------------------------------- grammar */

static bool expr(parser *P, dbg_val *v);
static bool unary(parser *P, dbg_val *v);

/* A named value of the module, in this lane. */
static bool named(parser *P, const char *name, dbg_val *v)
{
  const dbg_ctx *c = P->c;
  const ld_function *fn = dbg_frame_fn(c->sess, c->sg, 0);
  uint32_t id = dbg_resolve_id(c->ir, name, fn);
  if (!id)
    return fail(P, "no value named '%s'", name);
  const ld_value *val = &c->ir->values[id];
  if (val->kind != LD_V_CONSTANT && val->kind != LD_V_UNDEF && val->kind != LD_V_VARIABLE &&
      val->kind != LD_V_PARAM && val->kind != LD_V_RESULT)
    return fail(P, "'%s' is not a value", name);
  uint32_t depth = dbg_depth_for(c->sess, c->ir, c->sg, id);
  if (depth == UINT32_MAX)
    return fail(P, "'%s' belongs to function %s, which is not on the call stack", name,
                val->owner && val->owner->name ? val->owner->name : "?");
  uint8_t b[128];
  memset(b, 0, sizeof b);
  if (!sg_sg_read(c->sg, depth, c->lane, id, b))
    return fail(P, "'%s' has no value yet in lane %u", name, c->lane);
  const ld_type *t = val->type;
  bool variable = val->kind == LD_V_VARIABLE ||
                  (val->kind == LD_V_RESULT && val->u.insn && val->u.insn->op == SpvOpVariable);
  if (variable && t && t->kind == LD_T_POINTER)   /* the object the variable holds */
    return object_at(P, t->elem, dbg_rd_uint(b, t->size), v);
  if (is_scalar_type(t))
    return from_bytes(P, t, b, v);
  /* an SSA aggregate (vector, struct): keep its bytes out of line is not
   * possible here; show it through print NAME instead */
  return fail(P, "'%s' is a %s value: use 'print %s' to see it whole", name,
              t && t->kind == LD_T_VECTOR ? "vector" : "composite", name);
}

static bool index_into(parser *P, dbg_val *base, const dbg_val *idx)
{
  dbg_val i = *idx;
  if (!rvalue(P, &i))
    return false;
  if (i.k != DV_INT && i.k != DV_BOOL)
    return fail(P, "an index must be an integer");
  int64_t k = i.k == DV_INT && i.sgn ? as_signed(&i) : (int64_t)i.u;
  if (base->k == DV_OBJ && base->t->kind == LD_T_VECTOR) {
    if (k < 0 || (uint64_t)k >= base->t->count)
      return fail(P, "index %" PRId64 " is outside the vector of %u", k, base->t->count);
    return object_at(P, base->t->elem, base->addr + (uint64_t)k * base->t->elem->size, base);
  }
  if (!rvalue(P, base))
    return false;
  if (base->k != DV_PTR)
    return fail(P, "only pointers, arrays and vectors can be indexed");
  if (!base->pointee || !base->pointee->size)
    return fail(P, "cannot index a pointer to an unknown type (cast it, e.g. (int *)p)");
  return object_at(P, base->pointee, base->u + (uint64_t)k * base->pointee->size, base);
}

static bool member(parser *P, dbg_val *v, const char *m)
{
  if (v->k != DV_OBJ)
    return fail(P, "'.%s': not a struct or vector", m);
  const ld_type *t = v->t;
  if (t->kind == LD_T_VECTOR) {
    int k = -1;
    if (!m[1] && strchr("xyzw", m[0]))
      k = m[0] == 'w' ? 3 : m[0] - 'x';
    else if ((m[0] == 's' || m[0] == 'S') && m[1] && !m[2] && isxdigit((unsigned char)m[1]))
      k = isdigit((unsigned char)m[1]) ? m[1] - '0' : tolower((unsigned char)m[1]) - 'a' + 10;
    if (k < 0 || (uint32_t)k >= t->count)
      return fail(P, "'.%s': not a component of a %u-vector (x y z w, s0..sf)", m, t->count);
    return object_at(P, t->elem, v->addr + (uint64_t)k * t->elem->size, v);
  }
  if (t->kind == LD_T_STRUCT) {
    char *end;
    unsigned long k = strtoul(m, &end, 10);
    if (*end || k >= t->n_members)
      return fail(P, "'.%s': struct members are named by number here (0..%u): the module "
                  "carries no member names", m, t->n_members ? t->n_members - 1 : 0);
    return object_at(P, t->members[k], v->addr + (t->offsets ? t->offsets[k] : 0), v);
  }
  return fail(P, "'.%s': not a struct or vector", m);
}

static bool read_word(parser *P, char *buf, size_t n, bool digits_ok)
{
  skip_ws(P);
  size_t k = 0;
  if (!(is_ident_start(*P->p) || (digits_ok && isdigit((unsigned char)*P->p))))
    return false;
  while (is_ident(*P->p) && k + 1 < n)
    buf[k++] = *P->p++;
  buf[k] = 0;
  return true;
}

static bool primary(parser *P, dbg_val *v)
{
  skip_ws(P);
  const char *at = P->p;
  if (accept(P, "(")) {
    dbg_val proto;
    if (parse_type_name(P, &proto)) {
      if (!accept(P, ")"))
        return fail(P, "expected ')' after the type at column %d", (int)(P->p - P->s) + 1);
      return unary(P, v) && cast_to(P, &proto, v);
    }
    if (!expr(P, v))
      return false;
    if (!accept(P, ")"))
      return fail(P, "expected ')' at column %d", (int)(P->p - P->s) + 1);
    return true;
  }
  if (isdigit((unsigned char)*P->p) || (*P->p == '.' && isdigit((unsigned char)P->p[1]))) {
    char *e1, *e2;
    unsigned long long iv = strtoull(P->p, &e1, 0);
    double fv = strtod(P->p, &e2);
    if (e2 > e1) {
      P->p = e2;
      bool is_f = *P->p == 'f' || *P->p == 'F';
      if (is_f)
        P->p++;
      *v = mk_float(is_f ? (double)(float)fv : fv, is_f ? 32 : 64);
    } else {
      P->p = e1;
      bool u = false, l = false;
      while (*P->p == 'u' || *P->p == 'U' || *P->p == 'l' || *P->p == 'L') {
        if (*P->p == 'u' || *P->p == 'U') u = true; else l = true;
        P->p++;
      }
      *v = mk_int((int64_t)iv, l || iv > 0x7fffffffull ? 64 : 32, !u);
    }
    if (is_ident(*P->p))
      return fail(P, "bad number at column %d", (int)(at - P->s) + 1);
    return true;
  }
  if (*P->p == '%') {
    char name[256];
    size_t k = 0;
    name[k++] = *P->p++;
    while ((is_ident(*P->p) || *P->p == '.') && k + 1 < sizeof name)
      name[k++] = *P->p++;
    name[k] = 0;
    if (k == 1)
      return fail(P, "expected an id after '%%' at column %d", (int)(at - P->s) + 1);
    return named(P, name, v);
  }
  char name[256];
  if (!read_word(P, name, sizeof name, false)) {
    if (!*P->p)
      return fail(P, "the expression ends too early (column %d)", (int)(P->p - P->s) + 1);
    return fail(P, "unexpected '%c' at column %d", *P->p, (int)(P->p - P->s) + 1);
  }
  if (!strcmp(name, "true") || !strcmp(name, "false")) {
    *v = mk_bool(name[0] == 't');
    return true;
  }
  skip_ws(P);
  if (*P->p == '(') {            /* a work-item function */
    P->p++;
    int dim = -1;
    skip_ws(P);
    if (*P->p != ')') {
      dbg_val d;
      if (!expr(P, &d) || !rvalue(P, &d))
        return false;
      if (d.k != DV_INT)
        return fail(P, "%s(): the dimension must be an integer", name);
      dim = (int)(d.u > 3 ? 3 : d.u);
    }
    if (!accept(P, ")"))
      return fail(P, "expected ')' at column %d", (int)(P->p - P->s) + 1);
    return builtin(P, name, dim, v);
  }
  for (size_t i = 0; i < sizeof short_builtins / sizeof short_builtins[0]; i++)
    if (!strcmp(name, short_builtins[i].short_name))
      return builtin(P, short_builtins[i].call, 0, v);
  /* names may contain dots (x.addr): prefer the longest that exists */
  const char *q = P->p;
  char longer[256];
  snprintf(longer, sizeof longer, "%s", name);
  while (*q == '.' && is_ident_start(q[1])) {
    size_t k = strlen(longer);
    char cand[256];
    snprintf(cand, sizeof cand, "%s", longer);
    const char *r = q;
    cand[k++] = *r++;
    while (is_ident(*r) && k + 1 < sizeof cand)
      cand[k++] = *r++;
    cand[k] = 0;
    if (!dbg_resolve_id(P->c->ir, cand, dbg_frame_fn(P->c->sess, P->c->sg, 0)))
      break;
    snprintf(longer, sizeof longer, "%s", cand);
    q = r;
  }
  P->p = q;
  return named(P, longer, v);
}

static bool postfix(parser *P, dbg_val *v)
{
  if (!primary(P, v))
    return false;
  for (;;) {
    skip_ws(P);
    if (accept(P, "[")) {
      dbg_val i;
      if (!expr(P, &i))
        return false;
      if (!accept(P, "]"))
        return fail(P, "expected ']' at column %d", (int)(P->p - P->s) + 1);
      if (!index_into(P, v, &i))
        return false;
    } else if (!strncmp(P->p, "->", 2)) {
      P->p += 2;
      char m[64];
      if (!read_word(P, m, sizeof m, true))
        return fail(P, "expected a member after '->' at column %d", (int)(P->p - P->s) + 1);
      if (!rvalue(P, v))
        return false;
      if (v->k != DV_PTR)
        return fail(P, "'->%s': not a pointer", m);
      if (!object_at(P, v->pointee, v->u, v) || !member(P, v, m))
        return false;
    } else if (*P->p == '.' && !isdigit((unsigned char)P->p[1])) {
      P->p++;
      char m[64];
      if (!read_word(P, m, sizeof m, true))
        return fail(P, "expected a member after '.' at column %d", (int)(P->p - P->s) + 1);
      if (!member(P, v, m))
        return false;
    } else if (*P->p == '.' ) {
      P->p++;
      char m[64];
      if (!read_word(P, m, sizeof m, true) || !member(P, v, m))
        return false;
    } else {
      return true;
    }
  }
}

static bool unary(parser *P, dbg_val *v)
{
  skip_ws(P);
  if (accept(P, "-")) {
    if (!unary(P, v) || !rvalue(P, v))
      return false;
    if (v->k == DV_FLOAT) { v->f = -v->f; return true; }
    if (v->k == DV_INT || v->k == DV_BOOL) {
      *v = mk_int(-(v->k == DV_INT && v->sgn ? as_signed(v) : (int64_t)v->u), v->k == DV_BOOL ? 32 : v->width,
                  v->k == DV_BOOL || v->sgn);
      return true;
    }
    return fail(P, "'-' needs a number");
  }
  if (accept(P, "+"))
    return unary(P, v) && rvalue(P, v);
  if (accept(P, "!")) {
    if (!unary(P, v) || !rvalue(P, v))
      return false;
    *v = mk_bool(v->k == DV_FLOAT ? v->f == 0 : v->u == 0);
    return true;
  }
  if (accept(P, "~")) {
    if (!unary(P, v) || !rvalue(P, v))
      return false;
    if (v->k != DV_INT)
      return fail(P, "'~' needs an integer");
    v->u = trunc_to(~v->u, v->width);
    v->lv = false;
    return true;
  }
  if (accept(P, "*")) {
    if (!unary(P, v) || !rvalue(P, v))
      return false;
    if (v->k != DV_PTR)
      return fail(P, "'*' needs a pointer");
    return object_at(P, v->pointee, v->u, v);
  }
  if (accept(P, "&")) {
    if (!unary(P, v))
      return false;
    if (!v->lv)
      return fail(P, "'&' needs a value in memory");
    const ld_type *t = v->t;
    uint64_t a = v->addr;
    memset(v, 0, sizeof *v);
    v->k = DV_PTR;
    v->u = a;
    v->pointee = t;
    return true;
  }
  return postfix(P, v);
}

/* Usual arithmetic conversions, reduced: float if either is, else the
 * wider integer, unsigned when either of that width is. */
static bool arith(parser *P, const char *op, dbg_val *a, dbg_val *b)
{
  if (!rvalue(P, a) || !rvalue(P, b))
    return false;
  /* pointer arithmetic */
  if ((op[0] == '+' || op[0] == '-') && !op[1] && a->k == DV_PTR && b->k == DV_INT) {
    uint64_t es = a->pointee && a->pointee->size ? a->pointee->size : 1;
    int64_t k = b->sgn ? as_signed(b) : (int64_t)b->u;
    a->u = op[0] == '+' ? a->u + (uint64_t)k * es : a->u - (uint64_t)k * es;
    a->lv = false;
    return true;
  }
  if (a->k == DV_BOOL) *a = mk_int((int64_t)a->u, 32, true);
  if (b->k == DV_BOOL) *b = mk_int((int64_t)b->u, 32, true);
  bool cmp = !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "<") || !strcmp(op, "<=") ||
             !strcmp(op, ">") || !strcmp(op, ">=");
  if (a->k == DV_PTR || b->k == DV_PTR) {
    if (!cmp && !(op[0] == '-' && !op[1] && a->k == DV_PTR && b->k == DV_PTR))
      return fail(P, "'%s' on a pointer", op);
    if (!cmp) {
      uint64_t es = a->pointee && a->pointee->size ? a->pointee->size : 1;
      *a = mk_int((int64_t)(a->u - b->u) / (int64_t)es, 64, true);
      return true;
    }
    uint64_t x = a->u, y = b->u;
    bool r = !strcmp(op, "==") ? x == y : !strcmp(op, "!=") ? x != y : !strcmp(op, "<") ? x < y :
             !strcmp(op, "<=") ? x <= y : !strcmp(op, ">") ? x > y : x >= y;
    *a = mk_bool(r);
    return true;
  }
  if (a->k == DV_FLOAT || b->k == DV_FLOAT) {
    double x = a->k == DV_FLOAT ? a->f : a->sgn ? (double)as_signed(a) : (double)a->u;
    double y = b->k == DV_FLOAT ? b->f : b->sgn ? (double)as_signed(b) : (double)b->u;
    uint32_t w = a->k == DV_FLOAT && b->k == DV_FLOAT ? (a->width > b->width ? a->width : b->width)
                 : a->k == DV_FLOAT ? a->width : b->width;
    double r;
    switch (op[0]) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/': r = x / y; break;
    default:
      if (cmp) {
        bool br = !strcmp(op, "==") ? x == y : !strcmp(op, "!=") ? x != y : !strcmp(op, "<") ? x < y :
                  !strcmp(op, "<=") ? x <= y : !strcmp(op, ">") ? x > y : x >= y;
        *a = mk_bool(br);
        return true;
      }
      if (!strcmp(op, "&&") || !strcmp(op, "||")) {
        *a = mk_bool(op[0] == '&' ? (x != 0 && y != 0) : (x != 0 || y != 0));
        return true;
      }
      return fail(P, "'%s' needs integers", op);
    }
    if (w == 32) r = (double)(float)r;
    *a = mk_float(r, w);
    return true;
  }
  uint32_t w = a->width > b->width ? a->width : b->width;
  if (w < 32) w = 32;
  bool sgn = !((!a->sgn && a->width >= w) || (!b->sgn && b->width >= w));
  int64_t x = a->sgn ? as_signed(a) : (int64_t)a->u, y = b->sgn ? as_signed(b) : (int64_t)b->u;
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  if (!sgn) { ux = trunc_to(ux, w); uy = trunc_to(uy, w); }
  if (cmp) {
    bool r;
    if (sgn)
      r = !strcmp(op, "==") ? x == y : !strcmp(op, "!=") ? x != y : !strcmp(op, "<") ? x < y :
          !strcmp(op, "<=") ? x <= y : !strcmp(op, ">") ? x > y : x >= y;
    else
      r = !strcmp(op, "==") ? ux == uy : !strcmp(op, "!=") ? ux != uy : !strcmp(op, "<") ? ux < uy :
          !strcmp(op, "<=") ? ux <= uy : !strcmp(op, ">") ? ux > uy : ux >= uy;
    *a = mk_bool(r);
    return true;
  }
  if (!strcmp(op, "&&") || !strcmp(op, "||")) {
    *a = mk_bool(op[0] == '&' ? (ux != 0 && uy != 0) : (ux != 0 || uy != 0));
    return true;
  }
  uint64_t r;
  switch (op[0]) {
  case '+': r = ux + uy; break;
  case '-': r = ux - uy; break;
  case '*': r = ux * uy; break;
  case '/': case '%':
    if (!uy)
      return fail(P, "division by zero");
    if (sgn && y == -1)
      r = op[0] == '/' ? (uint64_t)0 - ux : 0;
    else if (sgn)
      r = op[0] == '/' ? (uint64_t)(x / y) : (uint64_t)(x % y);
    else
      r = op[0] == '/' ? ux / uy : ux % uy;
    break;
  case '&': r = ux & uy; break;
  case '|': r = ux | uy; break;
  case '^': r = ux ^ uy; break;
  case '<': r = uy >= 64 ? 0 : ux << uy; break;
  case '>': r = uy >= 64 ? (sgn && x < 0 ? UINT64_MAX : 0) : sgn ? (uint64_t)(x >> uy) : ux >> uy; break;
  default: return fail(P, "unknown operator '%s'", op);
  }
  *a = mk_int((int64_t)r, w, sgn);
  return true;
}

/* Binary levels, loosest first. */
static const char *const levels[][7] = {
  {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"},
  {"+", "-"}, {"*", "/", "%"},
};
enum { N_LEVELS = sizeof levels / sizeof levels[0] };

static bool binary(parser *P, int level, dbg_val *v)
{
  if (level == N_LEVELS)
    return unary(P, v);
  if (!binary(P, level + 1, v))
    return false;
  for (;;) {
    const char *op = NULL;
    for (int i = 0; i < 7 && levels[level][i]; i++)
      if (accept(P, levels[level][i])) {
        op = levels[level][i];
        break;
      }
    if (!op)
      return true;
    dbg_val r;
    if (!binary(P, level + 1, &r) || !arith(P, op, v, &r))
      return false;
  }
}

static bool expr(parser *P, dbg_val *v)
{
  if (!binary(P, 0, v))
    return false;
  skip_ws(P);
  if (*P->p == '?') {
    P->p++;
    dbg_val a, b;
    bool t;
    char e[128];
    if (!rvalue(P, v) || !dbg_val_truth(v, &t, e, sizeof e))
      return fail(P, "'?' needs a scalar condition");
    if (!expr(P, &a) || !accept(P, ":") || !expr(P, &b))
      return fail(P, "expected 'a : b' after '?'");
    *v = t ? a : b;
  }
  return true;
}

bool dbg_eval(const char *text, const dbg_ctx *c, dbg_val *out, char *err, size_t n)
{
  parser P = {text, text, c, err, n, false};
  if (n)
    err[0] = 0;
  memset(out, 0, sizeof *out);
  if (!expr(&P, out))
    return false;
  skip_ws(&P);
  if (*P.p)
    return fail(&P, "unexpected '%s' at column %d", P.p, (int)(P.p - text) + 1);
  return true;
}

bool dbg_val_truth(const dbg_val *v, bool *out, char *err, size_t n)
{
  switch (v->k) {
  case DV_INT: case DV_BOOL: case DV_PTR: *out = v->u != 0; return true;
  case DV_FLOAT: *out = v->f != 0; return true;
  default:
    snprintf(err, n, "a condition must be a number, a pointer or a comparison");
    return false;
  }
}

void dbg_val_type(const dbg_val *v, char *buf, size_t n)
{
  switch (v->k) {
  case DV_INT: {
    const char *nm = v->width == 8 ? "char" : v->width == 16 ? "short" : v->width == 64 ? "long" : "int";
    snprintf(buf, n, "%s%s", v->sgn ? "" : "u", nm);
    break;
  }
  case DV_FLOAT: snprintf(buf, n, "%s", v->width == 16 ? "half" : v->width == 64 ? "double" : "float"); break;
  case DV_BOOL: snprintf(buf, n, "bool"); break;
  case DV_PTR: {
    char in[96] = "void";
    if (v->pointee)
      dbg_type_name(v->pointee, in, sizeof in);
    snprintf(buf, n, "%s *", in);
    break;
  }
  case DV_OBJ: dbg_type_name(v->t, buf, n); break;
  }
}

void dbg_val_format(const dbg_val *v, const dbg_ctx *c, char *buf, size_t n)
{
  size_t used = 0;
  buf[0] = 0;
  switch (v->k) {
  case DV_INT:
    if (v->sgn)
      dbg_put(buf, n, &used, "%" PRId64, as_signed(v));
    else
      dbg_put(buf, n, &used, "%" PRIu64, v->u);
    break;
  case DV_FLOAT:
    dbg_put(buf, n, &used, v->width == 64 ? "%.17g" : v->width == 16 ? "%.5g" : "%.9g", v->f);
    break;
  case DV_BOOL: dbg_put(buf, n, &used, "%s", v->u ? "true" : "false"); break;
  case DV_PTR: {
    char d[256] = "";
    sg_sg_describe_addr(c->sg, v->u, d, sizeof d);
    dbg_put(buf, n, &used, "0x%" PRIx64 " -> %s", v->u, d);
    break;
  }
  case DV_OBJ: {
    uint32_t sz = v->t->size;
    if (!sz || sz > 4096) {
      dbg_put(buf, n, &used, "<object of %u bytes at 0x%" PRIx64 ">", sz, v->addr);
      break;
    }
    uint8_t *mem = calloc(1, sz);
    if (mem && sg_sg_read_memory(c->sg, c->lane, v->addr, mem, sz))
      dbg_format_value(v->t, mem, sz, c->sg, buf, n, &used, 0);
    else
      dbg_put(buf, n, &used, "<unreadable memory at 0x%" PRIx64 ">", v->addr);
    free(mem);
    break;
  }
  }
}
