/* embed.c - a program that embeds the debugger engine through the public
 * header only (spirv_sg.h's sg_dbg_* API), as an editor plugin would: it
 * loads swap.cl, sets a breakpoint, runs to it, reads a value per lane,
 * steps over the shuffle, steps back and sees the values from before it.
 *
 * The expected values are computed here from the kernel's text, not by the
 * engine: in = 1..8, x = 10 * in, y = the x of lane ^ 1 (sub_group_shuffle_xor
 * with 1), subgroups of 4 lanes.
 *
 * usage: embed PATH/TO/swap.cl   (prints "N passed, N failed")
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_sg.h"

static int passed, failed;

static void check(bool ok, const char *what, const char *detail)
{
  if (ok) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

/* The output sink: everything the engine says, kept for the checks. */
typedef struct text { char *s; size_t n; } text;

static void sink(void *user, const char *s, size_t len)
{
  text *t = user;
  char *ns = realloc(t->s, t->n + len + 1);
  if (!ns)
    return;
  memcpy(ns + t->n, s, len);
  t->s = ns;
  t->n += len;
  t->s[t->n] = 0;
}

/* Runs one command; true when its output contains want. */
static bool run(sg_dbg *d, text *out, const char *cmd, const char *want)
{
  out->n = 0;
  if (out->s)
    out->s[0] = 0;
  sg_dbg_command(d, cmd);
  bool ok = out->s && strstr(out->s, want);
  if (!ok)
    printf("command '%s': wanted '%s' in:\n%s\n", cmd, want, out->s ? out->s : "(nothing)");
  return ok;
}

/* Every lane of the focused subgroup: expr evaluates to want(lane). */
static void lanes_equal(sg_dbg *d, const char *expr, long (*want)(uint32_t), const char *what)
{
  uint32_t n = sg_dbg_lane_count(d);
  check(n == 4, what, "the subgroup has 4 lanes");
  for (uint32_t l = 0; l < n; l++) {
    char buf[256], exp[32], detail[400];
    snprintf(exp, sizeof exp, "%ld", want(l));
    bool ok = sg_dbg_eval(d, expr, l, buf, sizeof buf) && !strcmp(buf, exp);
    snprintf(detail, sizeof detail, "%s in lane %u: got '%s', want '%s'", expr, l, buf, exp);
    check(ok, what, ok ? NULL : detail);
  }
}

static long x_of(uint32_t l) { return 10 * (long)(l + 1); }
static long y_of(uint32_t l) { return 10 * (long)((l ^ 1) + 1); }
static long zero(uint32_t l) { (void)l; return 0; }
static long gid_of(uint32_t l) { return (long)l; }

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: embed PATH/TO/swap.cl\n");
    return 2;
  }
  text out = {0};
  char err[1024];

  /* a bad option: an error with the reason, no session */
  {
    char *bad[] = {"embed", argv[1], "--no-such-option", NULL};
    sg_dbg_config c = {.argc = 3, .argv = bad, .output = sink, .output_user = &out};
    sg_dbg *d = (sg_dbg *)1;
    sg_result r = sg_dbg_create(&c, &d, err, sizeof err);
    check(r != SG_SUCCESS && !d && strstr(err, "unknown option '--no-such-option'"), "a bad option is refused", err);
    sg_dbg_destroy(NULL);   /* a no-op */
  }

  char *args[] = {"embed", argv[1], "--global", "8", "--local", "8", "--subgroup-size", "4",
                  "--arg", "in=range:1:1:8", "--arg", "out=zero:8", NULL};
  sg_dbg_config c = {.argc = 12, .argv = args, .output = sink, .output_user = &out};
  sg_dbg *d = NULL;
  sg_result r = sg_dbg_create(&c, &d, err, sizeof err);
  check(r == SG_SUCCESS && d, "sg_dbg_create loads swap.cl", err);
  if (!d) {
    printf("%d passed, %d failed\n", passed, failed);
    return 1;
  }
  char desc[256];
  sg_dbg_describe(d, desc, sizeof desc);
  check(!strcmp(desc, "kernel swap, 1 x 1 x 1 work-groups, subgroup size 4."), "sg_dbg_describe", desc);

  /* a breakpoint on the shuffle, run to it */
  check(run(d, &out, "break OpGroupNonUniformShuffleXor", "Breakpoint 1 at OpGroupNonUniformShuffleXor"),
        "break", NULL);
  check(run(d, &out, "run", "Breakpoint 1, OpGroupNonUniformShuffleXor"), "run stops at the breakpoint", NULL);
  check(!sg_dbg_finished(d), "a subgroup is focused", NULL);
  lanes_equal(d, "x + 0", x_of, "x before the shuffle");
  lanes_equal(d, "gid", gid_of, "the builtin gid");
  lanes_equal(d, "get_global_id(0)", gid_of, "get_global_id(0)");
  uint64_t before = sg_dbg_position(d);

  /* over the shuffle: call1 holds the neighbour's x */
  check(run(d, &out, "step", "=> "), "step", NULL);
  check(sg_dbg_position(d) == before + 1, "step advances the position by one", NULL);
  lanes_equal(d, "call1", y_of, "the shuffle's result");

  /* back over it: the result is not there yet, x is as it was */
  check(run(d, &out, "reverse-step", "[back to step"), "reverse-step", NULL);
  check(sg_dbg_position(d) == before, "reverse-step goes back to the position before the step", NULL);
  lanes_equal(d, "call1", zero, "the shuffle's result after stepping back");
  lanes_equal(d, "x + 0", x_of, "x after stepping back");

  /* a line forwards and a line back */
  check(run(d, &out, "next", "5\t  out[get_global_id(0)] = y;"), "next to line 5", NULL);
  lanes_equal(d, "y + 0", y_of, "y on line 5");
  check(run(d, &out, "reverse-next", "swap.cl:4"), "reverse-next back to line 4", NULL);
  lanes_equal(d, "y + 0", zero, "y back on line 4");

  /* the lane focus and errors through the API */
  sg_dbg_set_focus_lane(d, 2);
  check(sg_dbg_focus_lane(d) == 2, "sg_dbg_set_focus_lane", NULL);
  check(run(d, &out, "print x + 0", "30"), "print uses the focused lane", NULL);
  sg_dbg_set_focus_lane(d, -1);
  char buf[256];
  check(!sg_dbg_eval(d, "no_such_name", 0, buf, sizeof buf) && buf[0], "an unknown name is an error", buf);
  check(!sg_dbg_eval(d, "x", 9, buf, sizeof buf) && strstr(buf, "4 lanes"), "a lane out of range is an error", buf);
  check(run(d, &out, "frobnicate", "error: unknown command 'frobnicate'"), "an unknown command", NULL);
  const char *names[16];
  uint32_t nn = sg_dbg_locals(d, 0, names, 16);
  bool has_in = false, has_out = false;
  for (uint32_t i = 0; i < nn; i++) {
    has_in |= !strcmp(names[i], "in");
    has_out |= !strcmp(names[i], "out");
  }
  check(has_in && has_out, "sg_dbg_locals names the parameters", NULL);

  /* to the end: both subgroups stop once more, then the kernel finishes */
  check(run(d, &out, "delete", ""), "delete", NULL);
  check(run(d, &out, "continue", "[kernel finished"), "continue to the end", NULL);
  check(sg_dbg_finished(d), "sg_dbg_finished", NULL);
  check(run(d, &out, "info args", "{20, 10, 40, 30, 60, 50, 80, 70}"), "out holds the swapped values", NULL);
  check(run(d, &out, "quit", ""), "quit", NULL);
  check(sg_dbg_quit_requested(d), "sg_dbg_quit_requested", NULL);
  sg_dbg_destroy(d);
  free(out.s);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
