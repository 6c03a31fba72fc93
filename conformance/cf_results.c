/* cf_results.c - "spirv-sgconform merge DIR": one report from the shard
 * result files that `suite --shard K/N --results DIR` wrote (cf_suite.c,
 * write_results, describes the format).
 *
 * The report: the totals table, every failure with its rerun line, flakes,
 * baseline cases that now pass, the shards missing or failed and the
 * commands that rerun just those (an sbatch --array= list, and a local
 * loop).  Exit 0 only when all N shards are present and passed.  Files of
 * different code (the hash of the spirv-sgconform executable), options or
 * shard counts are refused, as are truncated or damaged files.  A shard is
 * counted once: its file name is fixed by K and N, so a requeued task's
 * result replaces the earlier one. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cf_suite.h"

#define RESULT_MAGIC "spirv-sgconform shard result 1"

typedef struct shard_file {
  char name[300];          /* file name in DIR */
  uint32_t k, n;
  char *code, *selection, *args, *host;   /* point into text */
  unsigned long long cases, passed, failed, skipped, xfailed, flaky;
  double wall, cpu;
  char *text;              /* the file, lines NUL-terminated in place */
  size_t len;
  bool ok;                 /* parsed and intact */
} shard_file;

static char *read_file(const char *path, size_t *out_len, char *err, size_t err_size)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, err_size, "cannot read it: %s", strerror(errno));
    return NULL;
  }
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len + 65536 + 1 > cap) {
      if (cap > ((size_t)1 << 30)) {
        snprintf(err, err_size, "larger than 1 GiB: not a shard result");
        break;
      }
      size_t nc = cap ? cap * 2 : 131072;
      char *nb = realloc(buf, nc);
      if (!nb) {
        snprintf(err, err_size, "out of memory");
        break;
      }
      buf = nb;
      cap = nc;
    }
    size_t n = fread(buf + len, 1, 65536, f);
    len += n;
    if (n < 65536) {
      if (ferror(f))
        snprintf(err, err_size, "read error: %s", strerror(errno));
      else {
        fclose(f);
        buf[len] = 0;
        *out_len = len;
        return buf;
      }
      break;
    }
  }
  fclose(f);
  free(buf);
  return NULL;
}

static bool parse_u(const char *v, unsigned long long *out)
{
  char *end;
  if (!v || !*v)
    return false;
  *out = strtoull(v, &end, 10);
  return *end == 0;
}

/* Parses sf->text; false with err set when the file is not a complete
 * result written by spirv-sgconform. */
static bool parse_shard(shard_file *sf, char *err, size_t err_size)
{
  char *t = sf->text;
  size_t len = sf->len;
  size_t ml = strlen(RESULT_MAGIC);
  if (len < ml + 1 || memcmp(t, RESULT_MAGIC, ml) != 0 || t[ml] != '\n') {
    snprintf(err, err_size, "not a shard result of this spirv-sgconform (first line should be '%s')",
             RESULT_MAGIC);
    return false;
  }
  /* the last line: "end HASH" over every byte before it */
  if (len < 2 || t[len - 1] != '\n') {
    snprintf(err, err_size, "truncated: it does not end with a complete line (a file cut short; "
                            "spirv-sgconform renames complete files into place)");
    return false;
  }
  size_t ls = len - 1;
  while (ls > 0 && t[ls - 1] != '\n')
    --ls;
  unsigned long long want;
  char *end;
  if (strncmp(t + ls, "end ", 4) != 0) {
    snprintf(err, err_size, "truncated: no closing 'end' line (a file cut short; spirv-sgconform "
                            "renames complete files into place, so it was damaged afterwards)");
    return false;
  }
  want = strtoull(t + ls + 4, &end, 16);
  if (*end != '\n' || cf_fnv64(CF_FNV_INIT, t, ls) != want) {
    snprintf(err, err_size, "damaged: its contents do not match the checksum on its 'end' line");
    return false;
  }
  t[ls] = 0;
  bool have_shard = false, have_counts = false;
  for (char *line = t, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    char *v = strchr(line, ' ');
    if (v)
      *v++ = 0;
    else
      v = line + strlen(line);
    if (strcmp(line, "code") == 0) sf->code = v;
    else if (strcmp(line, "selection") == 0) sf->selection = v;
    else if (strcmp(line, "args") == 0) sf->args = v;
    else if (strcmp(line, "host") == 0) sf->host = v;
    else if (strcmp(line, "shard") == 0) have_shard = sscanf(v, "%u %u", &sf->k, &sf->n) == 2;
    else if (strcmp(line, "cases") == 0) have_counts = parse_u(v, &sf->cases);
    else if (strcmp(line, "passed") == 0) parse_u(v, &sf->passed);
    else if (strcmp(line, "failed") == 0) parse_u(v, &sf->failed);
    else if (strcmp(line, "skipped") == 0) parse_u(v, &sf->skipped);
    else if (strcmp(line, "xfailed") == 0) parse_u(v, &sf->xfailed);
    else if (strcmp(line, "flaky") == 0) parse_u(v, &sf->flaky);
    else if (strcmp(line, "wall") == 0) sf->wall = strtod(v, NULL);
    else if (strcmp(line, "cpu") == 0) sf->cpu = strtod(v, NULL);
    if (v > line)
      v[-1] = v[-1] ? v[-1] : ' ';   /* keep "key value" lines whole for the second pass */
  }
  if (!sf->code || !sf->selection || !sf->args || !have_shard || !have_counts || sf->k == 0 ||
      sf->k > sf->n) {
    snprintf(err, err_size, "incomplete: a required line (code, selection, args, shard, cases) is missing");
    return false;
  }
  return true;
}

static int cmp_name(const void *a, const void *b)
{
  return strcmp(((const shard_file *)a)->name, ((const shard_file *)b)->name);
}

static void put_word(FILE *f, const char *w)
{
  bool plain = *w != 0;
  for (const char *p = w; *p; ++p)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,=:+@%", *p))
      plain = false;
  if (plain) {
    fputs(w, f);
    return;
  }
  fputc('\'', f);
  for (const char *p = w; *p; ++p)
    if (*p == '\'')
      fputs("'\\''", f);
    else
      fputc(*p, f);
  fputc('\'', f);
}

/* The value of key=... in a selection line (copied into out). */
static const char *sel_word(const char *sel, const char *key, char *out, size_t size)
{
  size_t kl = strlen(key);
  for (const char *p = sel; p && *p;) {
    if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
      const char *e = strchr(p, ' ');
      size_t l = e ? (size_t)(e - p) : strlen(p);
      snprintf(out, size, "%.*s", (int)l, p);
      return out;
    }
    p = strchr(p, ' ');
    if (p)
      ++p;
  }
  snprintf(out, size, "%s=?", key);
  return out;
}

static void describe_difference(const char *a, const char *b, char *out, size_t size)
{
  static const char *const keys[] = {"set", "jit", "backend", "op", "type", "size", "jit-opt", "plant-wrong",
                                     "plant-flaky", "break-op", "retries", "baseline", "flakes", "selected"};
  char wa[512], wb[512];
  for (size_t i = 0; i < sizeof keys / sizeof *keys; ++i) {
    sel_word(a, keys[i], wa, sizeof wa);
    sel_word(b, keys[i], wb, sizeof wb);
    if (strcmp(wa, wb) != 0) {
      snprintf(out, size, "%s against %s", wb, wa);
      return;
    }
  }
  snprintf(out, size, "'%s' against '%s'", b, a);
}

/* Prints the shard numbers k with match(state[k]) as a list, runs of three
 * or more as ranges ("2, 5, 9-128" with sep ", "; sbatch --array takes the
 * same with sep ","). */
static void print_list(FILE *f, const uint8_t *state, uint32_t N, int want, const char *sep)
{
  bool first = true;
  for (uint32_t k = 1; k <= N; ++k) {
    bool hit = want < 0 ? state[k] != 1 : state[k] == want;
    if (!hit)
      continue;
    uint32_t e = k;
    while (e + 1 <= N && (want < 0 ? state[e + 1] != 1 : state[e + 1] == want))
      ++e;
    if (e >= k + 2) {
      fprintf(f, "%s%u-%u", first ? "" : sep, k, e);
      k = e;
    } else {
      fprintf(f, "%s%u", first ? "" : sep, k);
    }
    first = false;
  }
}

int cf_merge_run(const char *argv0, const char *dir, bool quiet)
{
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "%s: merge: cannot open %s: %s\n", argv0, dir, strerror(errno));
    return 2;
  }
  shard_file *sf = NULL;
  size_t n_sf = 0, cap = 0;
  struct dirent *de;
  int rc = 0;
  while ((de = readdir(d))) {
    unsigned k, n;
    int used = 0;
    if (sscanf(de->d_name, "shard-%u-of-%u.result%n", &k, &n, &used) != 2 || de->d_name[used] != 0 ||
        used == 0)
      continue;
    if (n_sf == cap) {
      cap = cap ? cap * 2 : 64;
      shard_file *ns = realloc(sf, cap * sizeof *ns);
      if (!ns) {
        fprintf(stderr, "%s: merge: out of memory\n", argv0);
        rc = 2;
        break;
      }
      sf = ns;
    }
    memset(&sf[n_sf], 0, sizeof *sf);
    snprintf(sf[n_sf].name, sizeof sf[n_sf].name, "%s", de->d_name);
    n_sf++;
  }
  closedir(d);
  if (rc == 0 && n_sf == 0) {
    fprintf(stderr, "%s: merge: no shard result files (shard-K-of-N.result) in %s\n", argv0, dir);
    rc = 2;
  }
  if (rc) {
    free(sf);
    return rc;
  }
  qsort(sf, n_sf, sizeof *sf, cmp_name);
  /* read and check every file; the first intact one is the reference */
  shard_file *ref = NULL;
  for (size_t i = 0; i < n_sf; ++i) {
    char path[1400], err[400] = "";
    snprintf(path, sizeof path, "%s/%s", dir, sf[i].name);
    sf[i].text = read_file(path, &sf[i].len, err, sizeof err);
    if (sf[i].text && parse_shard(&sf[i], err, sizeof err))
      sf[i].ok = true;
    if (!sf[i].ok) {
      fprintf(stderr, "%s: merge: %s: %s\n", argv0, path, err);
      rc = 2;
      continue;
    }
    unsigned k, n;
    sscanf(sf[i].name, "shard-%u-of-%u", &k, &n);
    if (k != sf[i].k || n != sf[i].n) {
      fprintf(stderr, "%s: merge: %s: holds shard %u of %u, not what its name says (renamed by hand?)\n",
              argv0, path, sf[i].k, sf[i].n);
      sf[i].ok = false;
      rc = 2;
      continue;
    }
    if (!ref) {
      ref = &sf[i];
      continue;
    }
    if (strcmp(sf[i].code, ref->code) != 0) {
      fprintf(stderr, "%s: merge: %s was written by different code (spirv-sgconform %s) than %s (%s): "
                      "results of different builds are not merged; remove the stale files or rerun "
                      "those shards with one build\n", argv0, path, sf[i].code, ref->name, ref->code);
      rc = 2;
    } else if (sf[i].n != ref->n) {
      fprintf(stderr, "%s: merge: %s is one of %u shards, %s one of %u: one campaign per directory\n",
              argv0, path, sf[i].n, ref->name, ref->n);
      rc = 2;
    } else if (strcmp(sf[i].selection, ref->selection) != 0 || strcmp(sf[i].args, ref->args) != 0) {
      char diff[1200];
      describe_difference(ref->selection, sf[i].selection, diff, sizeof diff);
      if (strcmp(sf[i].selection, ref->selection) == 0)
        snprintf(diff, sizeof diff, "options '%s' against '%s'", sf[i].args, ref->args);
      fprintf(stderr, "%s: merge: %s ran a different selection than %s (%s): one campaign per directory\n",
              argv0, path, ref->name, diff);
      rc = 2;
    }
  }
  if (!ref) {
    fprintf(stderr, "%s: merge: refused: no intact shard result in %s\n", argv0, dir);
    for (size_t i = 0; i < n_sf; ++i)
      free(sf[i].text);
    free(sf);
    return 2;
  }
  uint32_t N = ref->n;
  char word[64];
  bool reduced = strcmp(sel_word(ref->selection, "set", word, sizeof word), "set=reduced") == 0;
  cf_table *table = calloc(1, sizeof *table);
  uint8_t *state = calloc(N + 1, 1);   /* 0 missing, 1 passed, 2 failed, 3 bad file */
  if (!table || !state) {
    fprintf(stderr, "%s: merge: out of memory\n", argv0);
    rc = 2;
    goto out;
  }
  for (size_t i = 0; i < n_sf; ++i)
    if (!sf[i].ok) {
      unsigned k, n;
      if (sscanf(sf[i].name, "shard-%u-of-%u", &k, &n) == 2 && n == N && k >= 1 && k <= N)
        state[k] = 3;
    }
  if (rc == 2) {
    /* mixed or damaged files: no totals; name what to remove or rerun */
    bool any = false;
    for (uint32_t k = 1; k <= N; ++k)
      any = any || state[k] == 3;
    if (any) {
      fprintf(stderr, "%s: merge: refused; remove the damaged files and rerun those shards:\n  ", argv0);
      fputs("sbatch --array=", stderr);
      print_list(stderr, state, N, 3, ",");
      fputs(" conformance/slurm/suite.sbatch ", stderr);
      put_word(stderr, dir);
      fprintf(stderr, " --shards %u %s\n", N, ref->args);
    } else {
      fprintf(stderr, "%s: merge: refused\n", argv0);
    }
    goto out;
  }
  unsigned long long cases = 0, passed = 0, failed = 0, skipped = 0, xfailed = 0, flaky = 0;
  double cpu = 0, wall = 0, wall_max = 0;
  FILE *f = stdout;
  for (size_t i = 0; i < n_sf; ++i) {
    shard_file *s = &sf[i];
    state[s->k] = s->failed ? 2 : 1;
    cases += s->cases;
    passed += s->passed;
    failed += s->failed;
    skipped += s->skipped;
    xfailed += s->xfailed;
    flaky += s->flaky;
    cpu += s->cpu;
    wall += s->wall;
    if (s->wall > wall_max)
      wall_max = s->wall;
    /* second pass over the lines (parse_shard left them "key value") */
    for (char *line = s->text; line < s->text + s->len && *line; line += strlen(line) + 1) {
      unsigned fam, sc, vi, S, p, fl;
      if (strncmp(line, "tally ", 6) == 0) {
        if (sscanf(line + 6, "%u %u %u %u %u %u", &fam, &sc, &vi, &S, &p, &fl) == 6 && fam < CF_N_FAMILIES &&
            sc < CF_N_SCALARS && vi < 8 && S <= 64) {
          (*table)[fam][sc][vi][S].pass += p;
          (*table)[fam][sc][vi][S].fail += fl;
        }
      } else if (strncmp(line, "fail ", 5) == 0) {
        /* fail NAME \t WHY \t   rerun: ... */
        size_t nl = strcspn(line + 5, "\t"), wl = line[5 + nl] ? strcspn(line + 6 + nl, "\t") : 0;
        char *name = line + 5, *why = name + nl, *rr = *why ? why + 1 + wl : NULL;
        if (*why && rr && *rr) {
          fprintf(f, "FAIL %.*s (shard %u of %u)\n  %.*s\n%s\n", (int)(why - name), name, s->k, N,
                  (int)(rr - why - 1), why + 1, rr + 1);
        }
      } else if (strncmp(line, "flake ", 6) == 0) {
        size_t nl = strcspn(line + 6, "\t");
        const char *why = line[6 + nl] ? line + 7 + nl : "";
        fprintf(f, "FLAKE %.*s (shard %u of %u): failed (%s), then passed on retry\n", (int)nl, line + 6,
                s->k, N, why);
      } else if (strncmp(line, "xpass ", 6) == 0) {
        fprintf(f, "BASELINE %s passed (shard %u of %u): it can leave the baseline\n", line + 6, s->k, N);
      }
    }
  }
  if (!quiet)
    cf_print_table(f, reduced, (const cf_table *)table);
  uint32_t n_present = 0, n_missing = 0, n_failed = 0;
  for (uint32_t k = 1; k <= N; ++k) {
    n_present += state[k] != 0;
    n_missing += state[k] == 0;
    n_failed += state[k] == 2;
  }
  fprintf(f, "\nshards: %u of %u present, %u failed", n_present, N, n_failed);
  if (n_missing) {
    fputs("; missing: ", f);
    print_list(f, state, N, 0, ", ");
  }
  if (n_failed) {
    fputs("; failed: ", f);
    print_list(f, state, N, 2, ", ");
  }
  fprintf(f, "\ncode %s; %s\n", ref->code, ref->selection);
  fprintf(f, "CPU time %.2f h in all; shard wall time %.0f s in all, %.0f s the longest\n", cpu / 3600, wall,
          wall_max);
  if (n_missing || n_failed) {
    fprintf(f, "rerun the missing and failed shards (Slurm, from the source tree):\n  sbatch --array=");
    print_list(f, state, N, -1, ",");
    fputs(" conformance/slurm/suite.sbatch ", f);
    put_word(f, dir);
    fprintf(f, " --shards %u%s%s\nor here:\n  for k in", N, *ref->args ? " " : "", ref->args);
    for (uint32_t k = 1; k <= N; ++k)
      if (state[k] != 1)
        fprintf(f, " %u", k);   /* (a shell loop wants every number) */
    fprintf(f, "; do %s suite%s%s --shard $k/%u --results ", argv0, *ref->args ? " " : "", ref->args, N);
    put_word(f, dir);
    fputs("; done\n", f);
  }
  fprintf(f, "\n%llu cases in %u of %u shards (%s set)", cases, n_present, N, reduced ? "reduced" : "full");
  if (skipped)
    fprintf(f, ", %llu skipped (JIT fell back to the interpreter)", skipped);
  if (xfailed || flaky)
    fprintf(f, "\n%llu expected failure%s (baseline), %llu flake%s (passed on retry)", xfailed,
            xfailed == 1 ? "" : "s", flaky, flaky == 1 ? "" : "s");
  fprintf(f, "\n%llu passed, %llu failed\n", passed, failed);
  rc = n_missing || n_failed ? 1 : 0;
out:
  free(table);
  free(state);
  for (size_t i = 0; i < n_sf; ++i)
    free(sf[i].text);
  free(sf);
  return rc;
}
