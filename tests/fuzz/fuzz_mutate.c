/* fuzz_mutate.c - the structure-aware SPIR-V mutator (fuzz_mutate.h).
 *
 * One edit per call, picked by the seed:
 *   an id operand replaced by another id below the bound (most mutants still
 *   load: the loader and the backends then see type and data-flow mixups);
 *   a literal word set to an interesting value or nudged;
 *   an arithmetic, comparison or conversion opcode swapped for a sibling of
 *   the same shape (OpIAdd -> OpSDiv, OpULessThan -> OpSGreaterThan ...);
 *   an OpenCL.std instruction number changed;
 *   an instruction duplicated (with a fresh result id), deleted, or swapped
 *   with its neighbour.
 * With FUZZ_LIBFUZZER it is the LLVMFuzzerCustomMutator of the targets it is
 * linked into (one call in four still mutates bytes, for the header and
 * framing checks). */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "fuzz_mutate.h"
#include "spv.h"

#define MAX_WORDS (1u << 20)

static uint32_t rnd(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (uint32_t)(*s >> 11);
}

/* groups of opcodes with the same operand shape: result type, result, 1 or 2 ids */
static const uint16_t siblings[][12] = {
  {SpvOpIAdd, SpvOpISub, SpvOpIMul, SpvOpUDiv, SpvOpSDiv, SpvOpUMod, SpvOpSRem, SpvOpSMod,
   SpvOpShiftLeftLogical, SpvOpShiftRightLogical, SpvOpShiftRightArithmetic, 0},
  {SpvOpBitwiseAnd, SpvOpBitwiseOr, SpvOpBitwiseXor, SpvOpIAdd, SpvOpISub, 0},
  {SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv, SpvOpFRem, SpvOpFMod, 0},
  {SpvOpIEqual, SpvOpINotEqual, SpvOpUGreaterThan, SpvOpSGreaterThan, SpvOpUGreaterThanEqual,
   SpvOpSGreaterThanEqual, SpvOpULessThan, SpvOpSLessThan, SpvOpULessThanEqual,
   SpvOpSLessThanEqual, 0},
  {SpvOpFOrdEqual, SpvOpFOrdLessThan, SpvOpFOrdGreaterThan, SpvOpFUnordNotEqual,
   SpvOpFUnordLessThan, SpvOpFOrdLessThanEqual, 0},
  {SpvOpConvertFToU, SpvOpConvertFToS, SpvOpConvertSToF, SpvOpConvertUToF, SpvOpUConvert,
   SpvOpSConvert, SpvOpFConvert, SpvOpBitcast, SpvOpSNegate, SpvOpNot, 0},
  {SpvOpLogicalAnd, SpvOpLogicalOr, SpvOpLogicalEqual, SpvOpLogicalNotEqual, 0},
  {SpvOpGroupNonUniformIAdd, SpvOpGroupNonUniformIMul, SpvOpGroupNonUniformUMin,
   SpvOpGroupNonUniformSMax, SpvOpGroupNonUniformBitwiseXor, SpvOpGroupNonUniformFAdd,
   SpvOpGroupNonUniformFMin, 0},
  {SpvOpGroupNonUniformBroadcast, SpvOpGroupNonUniformShuffle, SpvOpGroupNonUniformShuffleXor,
   SpvOpGroupNonUniformShuffleUp, SpvOpGroupNonUniformShuffleDown, 0},
};

static const uint32_t interesting[] = {0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128,
                                       255, 256, 0x7fff, 0x8000, 0xffff, 0x7fffffff,
                                       0x80000000u, 0xffffffffu, 0xfffffffeu};

size_t fuzz_spirv_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
  if (size < 24 || size % 4 || size > (size_t)MAX_WORDS * 4)
    return 0;
  uint32_t magic;
  memcpy(&magic, data, 4);
  if (magic != 0x07230203u)
    return 0;
  size_t n = size / 4, cap = max_size / 4;
  if (cap < n)
    return 0;
  uint32_t *w = malloc((cap + 8) * sizeof *w);
  uint32_t *at = malloc((n + 1) * sizeof *at);   /* instruction starts */
  if (!w || !at) {
    free(w);
    free(at);
    return 0;
  }
  memcpy(w, data, n * 4);
  size_t ni = 0;
  for (size_t i = 5; i < n;) {
    uint32_t c = w[i] >> 16;
    if (!c || i + c > n)
      break;
    at[ni++] = (uint32_t)i;
    i += c;
  }
  uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
  size_t out = 0;
  if (ni == 0)
    goto done;
  uint32_t bound = w[3] ? w[3] : 1;
  for (int tries = 0; tries < 8 && !out; tries++) {
    size_t k = rnd(&s) % ni, i = at[k];
    uint32_t c = w[i] >> 16, op = w[i] & 0xffff;
    switch (rnd(&s) % 8) {
    case 0: case 1:   /* an operand: another id */
      if (c < 2)
        break;
      w[i + 1 + rnd(&s) % (c - 1)] = 1 + rnd(&s) % bound;
      out = n;
      break;
    case 2:           /* a literal: interesting or nudged */
      if (c < 2)
        break;
      {
        uint32_t j = i + 1 + rnd(&s) % (c - 1);
        if (rnd(&s) & 1)
          w[j] = interesting[rnd(&s) % (sizeof interesting / sizeof *interesting)];
        else
          w[j] += (rnd(&s) % 9) - 4;
      }
      out = n;
      break;
    case 3:           /* an opcode: a sibling */
      for (size_t g = 0; g < sizeof siblings / sizeof *siblings && !out; g++)
        for (size_t m = 0; siblings[g][m] && !out; m++)
          if (siblings[g][m] == op) {
            size_t len = 0;
            while (siblings[g][len])
              len++;
            w[i] = (c << 16) | siblings[g][rnd(&s) % len];
            out = n;
          }
      break;
    case 4:           /* OpExtInst: another instruction number */
      if (op == SpvOpExtInst && c >= 5) {
        w[i + 4] = rnd(&s) % 3 ? rnd(&s) % 205 : rnd(&s) % 30;
        out = n;
      }
      break;
    case 5: {         /* duplicate, with a fresh result id */
      if (op == SpvOpFunction || op == SpvOpFunctionEnd || op == SpvOpLabel || n + c > cap)
        break;
      memmove(w + i + c, w + i, (n - i) * 4);
      const spv_opcode_desc *d = spv_opcode_info((SpvOp)op);
      if (d && d->has_result) {
        uint32_t rw = i + c + (d->has_type ? 2 : 1);
        if (rw < i + 2 * c && bound < 0x3fffff) {
          w[rw] = bound;
          w[3] = bound + 1;
        }
      }
      out = n + c;
      break;
    }
    case 6:           /* delete */
      if (op == SpvOpFunction || op == SpvOpFunctionEnd || op == SpvOpLabel)
        break;
      memmove(w + i, w + i + c, (n - i - c) * 4);
      out = n - c;
      break;
    default:          /* swap with the next instruction */
      if (k + 1 >= ni)
        break;
      {
        uint32_t c2 = w[at[k + 1]] >> 16;
        uint32_t *tmp = malloc((c + c2) * 4);
        if (!tmp)
          break;
        memcpy(tmp, w + at[k + 1], c2 * 4);
        memcpy(tmp + c2, w + i, c * 4);
        memcpy(w + i, tmp, (c + c2) * 4);
        free(tmp);
        out = n;
      }
      break;
    }
  }
done:
  if (out)
    memcpy(data, w, out * 4);
  free(w);
  free(at);
  return out * 4;
}

#ifdef FUZZ_LIBFUZZER
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
  if (seed % 4 != 0) {
    size_t r = fuzz_spirv_mutate(data, size, max_size, seed);
    if (r)
      return r;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif
