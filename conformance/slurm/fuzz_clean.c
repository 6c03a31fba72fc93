/* fuzz_clean.c - a libFuzzer target without a crash (a small checksum
 * parser), the second target of the Slurm fuzzing-array test: its corpus
 * grows and merges, and the merge step must report no crash for it. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
  /* "len byte, then len bytes, then their sum" records */
  size_t i = 0;
  while (i < n) {
    size_t len = d[i++];
    uint8_t sum = 0;
    for (size_t k = 0; k < len && i < n; ++k)
      sum = (uint8_t)(sum + d[i++]);
    if (i < n && d[i++] != sum)
      return 0;
  }
  return 0;
}
