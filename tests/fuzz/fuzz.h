/* fuzz.h - shared by the fuzz targets (tests/fuzz/README.md).
 *
 * Each target defines LLVMFuzzerTestOneInput (and may define
 * fuzz_init, called once before the first input).  Linked with
 * -fsanitize=fuzzer it is a libFuzzer binary; linked with replay.c it is a
 * plain program that runs the files and folders named on its command line
 * (the corpus and the regression files), for CI with any compiler. */
#ifndef SG_FUZZ_H
#define SG_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* FNV-1a over the input: picks launch parameters and validation modes, so a
 * file always replays the same way. */
static inline uint32_t fuzz_hash(const uint8_t *data, size_t size)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; i++)
    h = (h ^ data[i]) * 16777619u;
  return h;
}

#endif
