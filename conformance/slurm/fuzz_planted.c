/* fuzz_planted.c - a libFuzzer target with a planted crash, for the test of
 * the Slurm fuzzing array (conformance/slurm/slurm_test.py): it traps on
 * inputs that start with "SG!" followed by a byte 0x7f.  Each byte is a
 * separate comparison, so libFuzzer's coverage and comparison feedback find
 * the input within seconds.  Built at test time with clang-15 -fsanitize=fuzzer. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
  if (n >= 4 && d[0] == 'S')
    if (d[1] == 'G')
      if (d[2] == '!')
        if (d[3] == 0x7f)
          __builtin_trap();
  return 0;
}
