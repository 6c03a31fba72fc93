/* fuzz_mutate.h - a structure-aware mutator for SPIR-V modules
 * (tests/fuzz/README.md): it edits instructions and operands, not bytes, so
 * that mutants keep loading and reach execution and the JIT. */
#ifndef SG_FUZZ_MUTATE_H
#define SG_FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>

/* Mutates the module in data[0, size) in place (at most max_size bytes) and
 * returns its new size; 0 when data is not a SPIR-V module (the caller then
 * mutates bytes). */
size_t fuzz_spirv_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed);

#endif
