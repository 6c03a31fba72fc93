/* ld_spvtools.h - the loader's only contact with SPIRV-Tools (libspirv.h).
 * Kept apart because libspirv.h and spv.h both define "spv_binary".
 * Internal to loader/. */
#ifndef LD_SPVTOOLS_H
#define LD_SPVTOOLS_H

#include <stddef.h>
#include <stdint.h>

/* 0 valid, 1 invalid (msg set, one line), -1 could not run (msg set). */
int ld_tools_validate(const uint32_t *words, size_t n_words, uint32_t version,
                      char *msg, size_t msg_size);
/* malloc'd words or NULL with msg ("line:col: text"). */
uint32_t *ld_tools_assemble(const char *text, size_t len, size_t *out_n_words,
                            char *msg, size_t msg_size);
char *ld_tools_disassemble(const uint32_t *words, size_t n_words);

#endif
