/* spv.h - the SPIR-V binary format and nothing else.
 *
 * Word iteration over a module (either endianness), and name/operand tables
 * generated at build time from the installed SPIRV-Headers grammar JSON by
 * gen_tables.py (core, OpenCL.std, OpenCL.DebugInfo.100).  No semantics.
 *
 * Ownership: an spv_binary borrows or owns its words as stated at creation;
 * spv_binary_free(NULL) is a no-op.
 */
#ifndef SPV_H
#define SPV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <spirv/unified1/spirv.h>

#define SPV_MAGIC 0x07230203u

/* A module's words in host byte order. */
typedef struct spv_binary {
  uint32_t *words;     /* owned: host order */
  size_t n_words;
  uint32_t version;    /* 0x00MMmm00 as in the header */
  uint32_t generator;
  uint32_t bound;
  bool swapped;        /* the file was in the other endianness */
} spv_binary;

/* Checks the 5-word header, byte-swaps if needed and copies the words.
 * On failure returns false and writes a one-line reason into err. */
bool spv_binary_from_bytes(const void *bytes, size_t n_bytes, spv_binary *out,
                           char *err, size_t err_size);
void spv_binary_free(spv_binary *bin);

/* Instruction iteration: an instruction is words[off .. off+n_words). */
typedef struct spv_insn_ref {
  SpvOp op;
  uint16_t n_words;
  uint32_t offset;          /* word offset into the binary */
  const uint32_t *words;    /* words[0] is the opcode word */
} spv_insn_ref;

/* Iterate: off starts at 5.  Returns 1 with *out filled, 0 at end, -1 when
 * the instruction is malformed (zero word count or runs past the end; err
 * says which). */
int spv_next_insn(const spv_binary *bin, uint32_t *off, spv_insn_ref *out,
                  char *err, size_t err_size);

/* Decodes a literal string starting at words[0] with at most n_words words.
 * Returns the number of words used, 0 when the string is not terminated. */
uint32_t spv_literal_string(const uint32_t *words, uint32_t n_words,
                            const char **out_str);

/* ---- Generated tables (spv_tables.c, from the grammar JSON) ---- */

/* Operand kinds as classified for decoding; one per grammar operand kind
 * class, not per kind name. */
typedef enum spv_operand_class {
  SPV_OPND_NONE = 0,
  SPV_OPND_ID,            /* IdRef, IdScope, IdMemorySemantics */
  SPV_OPND_RESULT_TYPE,   /* IdResultType */
  SPV_OPND_RESULT,        /* IdResult */
  SPV_OPND_LITERAL_INT,   /* one word */
  SPV_OPND_LITERAL_CTX,   /* LiteralContextDependentNumber: width from type */
  SPV_OPND_LITERAL_STRING,
  SPV_OPND_LITERAL_EXT_OP,
  SPV_OPND_LITERAL_SPEC_OP,
  SPV_OPND_ENUM,          /* ValueEnum kinds: one word */
  SPV_OPND_BITMASK,       /* BitEnum kinds: one word, then parameters */
  SPV_OPND_PAIR_LIT_ID,
  SPV_OPND_PAIR_ID_LIT,
  SPV_OPND_PAIR_ID_ID,
} spv_operand_class;

typedef enum spv_quant { SPV_Q_ONE, SPV_Q_OPTIONAL, SPV_Q_MANY } spv_quant;

typedef struct spv_operand_desc {
  uint8_t cls;     /* spv_operand_class */
  uint8_t quant;   /* spv_quant */
  uint16_t kind;   /* index into the operand-kind table (spv_operand_kind_name) */
} spv_operand_desc;

typedef struct spv_opcode_desc {
  const char *name;          /* "OpIAdd" */
  uint16_t n_operands;
  bool has_type, has_result;
  const spv_operand_desc *operands;
  const char *klass;         /* grammar class, e.g. "Arithmetic" */
} spv_opcode_desc;

/* NULL for an opcode the grammar does not know. */
const spv_opcode_desc *spv_opcode_info(uint32_t op);
/* Never NULL: "Op<unknown 1234>" style text for unknown opcodes (static buffer
 * per thread). */
const char *spv_opcode_name(uint32_t op);
const char *spv_operand_kind_name(uint16_t kind);
/* Enumerant name for a ValueEnum kind ("StorageClass", 5) -> "CrossWorkgroup";
 * NULL if unknown. */
const char *spv_enum_name(const char *kind, uint32_t value);
const char *spv_capability_name(uint32_t cap);
const char *spv_builtin_name(uint32_t builtin);
const char *spv_storage_class_name(uint32_t sc);
/* OpenCL.std and OpenCL.DebugInfo.100 instruction names; NULL if unknown. */
const char *spv_opencl_std_name(uint32_t ext_op);
const char *spv_opencl_debuginfo_name(uint32_t ext_op);

/* Writes a short human form of one instruction ("%12 = OpIAdd %uint %10 %11")
 * into buf.  names may be NULL or return NULL for ids without a name. */
typedef const char *(*spv_id_namer)(void *user, uint32_t id);
void spv_format_insn(const spv_insn_ref *insn, spv_id_namer namer, void *user,
                     char *buf, size_t buf_size);

/* ---- Additions for the loader (additive) ---- */

/* Operand descriptors of an OpenCL.std instruction (the operands after the
 * OpExtInst set and number); NULL if unknown. */
const spv_opcode_desc *spv_opencl_std_info(uint32_t ext_op);

/* Walks operand words words[first .. n_words) against descriptors, calling
 * fn once per operand word that is an id (cls SPV_OPND_ID, _RESULT_TYPE,
 * _RESULT; pair halves included) and once per literal/enum operand with its
 * class.  Returns false when the words do not fit the descriptors (missing
 * operand, unterminated string, words left over). */
typedef void (*spv_operand_fn)(void *user, uint32_t word_index, spv_operand_class cls);
bool spv_walk_operands(const uint32_t *words, uint32_t n_words, uint32_t first,
                       const spv_operand_desc *ops, uint16_t n_ops,
                       spv_operand_fn fn, void *user);

#endif
