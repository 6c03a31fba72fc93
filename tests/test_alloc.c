/* sg_alloc_buffer (spirv_sg.h): zeroed, 128-byte aligned; from 4 MiB on
 * 2 MiB-aligned (the huge-page advice itself depends on the system and is
 * not checked); SPIRV_SG_NO_HUGEPAGES=1 keeps 128-byte alignment only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "spirv_sg.h"

static int n_pass, n_fail;
#define CHECK(cond, ...) do { \
    if (cond) n_pass++; \
    else { n_fail++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

static void one(size_t size, size_t align) {
  unsigned char *p = sg_alloc_buffer(size);
  CHECK(p != NULL, "sg_alloc_buffer(%zu) failed", size);
  if (!p) return;
  CHECK((uintptr_t)p % align == 0, "sg_alloc_buffer(%zu) = %p, not %zu-byte aligned", size, (void *)p, align);
  size_t nonzero = 0;
  for (size_t i = 0; i < size; i += (size > 4096 ? 4093 : 1)) nonzero += p[i] != 0;
  if (size) nonzero += p[size - 1] != 0;
  CHECK(nonzero == 0, "sg_alloc_buffer(%zu): %zu sampled bytes not zero", size, nonzero);
  if (size) { p[0] = 1; p[size - 1] = 2; }   /* writable to its last byte (ASan checks the bound) */
  free(p);
}

int main(void) {
  one(0, 128);
  one(1, 128);
  one(100, 128);
  one((size_t)4 << 20, (size_t)2 << 20);
  one(((size_t)8 << 20) + 1, (size_t)2 << 20);
  CHECK(sg_alloc_buffer(SIZE_MAX - 16) == NULL, "an impossible size must fail");
  setenv("SPIRV_SG_NO_HUGEPAGES", "1", 1);
  one(((size_t)8 << 20) + 3, 128);
  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail != 0;
}
