/* replay.c - main() for the fuzz targets without libFuzzer.
 *
 *   fuzz_TARGET_replay FILE|DIR...
 *
 * Runs every named file, and every regular file in each named folder (sorted,
 * not recursive), through LLVMFuzzerTestOneInput once.  A crash, a sanitizer
 * report or a hang (alarm after SG_FUZZ_TIMEOUT seconds, default 20) ends the
 * program abnormally after printing the file's name, so a CI log says which
 * input failed. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fuzz.h"

static const char *current;

static void on_alarm(int sig)
{
  (void)sig;
  static const char msg[] = "fuzz replay: timeout (hang) on ";
  if (write(2, msg, sizeof msg - 1) < 0 || write(2, current, strlen(current)) < 0 ||
      write(2, "\n", 1) < 0)
    _exit(3);
  _exit(3);
}

static int run_file(const char *path, unsigned timeout)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "fuzz replay: cannot open %s\n", path);
    return 1;
  }
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  for (;;) {
    if (!buf) {
      fclose(f);
      fprintf(stderr, "fuzz replay: out of memory reading %s\n", path);
      return 1;
    }
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    uint8_t *nb = realloc(buf, cap * 2);
    if (!nb)
      free(buf);
    buf = nb;
    cap *= 2;
  }
  fclose(f);
  /* An exact-size copy, so ASan sees reads past the end of the input. */
  uint8_t *exact = malloc(n ? n : 1);
  if (!exact) {
    free(buf);
    return 1;
  }
  memcpy(exact, buf, n);
  free(buf);
  current = path;
  fprintf(stderr, "fuzz replay: %s\n", path);
  alarm(timeout);
  LLVMFuzzerTestOneInput(exact, n);
  alarm(0);
  free(exact);
  return 0;
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
  unsigned timeout = 20;
  const char *t = getenv("SG_FUZZ_TIMEOUT");
  if (t && atoi(t) > 0)
    timeout = (unsigned)atoi(t);
  signal(SIGALRM, on_alarm);
  LLVMFuzzerInitialize(&argc, &argv);
  int bad = 0;
  unsigned count = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "fuzz replay: cannot open %s\n", argv[i]);
      bad = 1;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      bad |= run_file(argv[i], timeout);
      count++;
      continue;
    }
    DIR *d = opendir(argv[i]);
    if (!d) {
      fprintf(stderr, "fuzz replay: cannot open %s\n", argv[i]);
      bad = 1;
      continue;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.')
        continue;
      char **nn = realloc(names, (n + 1) * sizeof *nn);
      if (!nn)
        break;
      names = nn;
      size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
      names[n] = malloc(len);
      if (!names[n])
        break;
      snprintf(names[n], len, "%s/%s", argv[i], e->d_name);
      n++;
    }
    closedir(d);
    if (n)
      qsort(names, n, sizeof *names, cmp_str);
    for (size_t j = 0; j < n; j++) {
      if (stat(names[j], &st) == 0 && S_ISREG(st.st_mode)) {
        bad |= run_file(names[j], timeout);
        count++;
      }
      free(names[j]);
    }
    free(names);
  }
  printf("fuzz replay: %u inputs, %s\n", count, bad ? "some could not be read" : "no crash");
  return bad;
}
