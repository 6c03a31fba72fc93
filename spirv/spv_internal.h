/* spv_internal.h - generated-table shapes shared by spv.c and spv_tables.c.
 * Internal to spirv/. */
#ifndef SPV_INTERNAL_H
#define SPV_INTERNAL_H

#include "spv.h"

typedef struct spv_enumerant {
  uint32_t value;
  const char *name;
  uint16_t n_params;
  const spv_operand_desc *params;
} spv_enumerant;

typedef struct spv_enum_kind {
  uint16_t kind;              /* operand-kind index */
  const char *name;
  bool is_bitmask;
  uint32_t n_values;
  const spv_enumerant *values; /* sorted by value */
} spv_enum_kind;

const spv_enum_kind *spv_enum_kind_by_index(uint16_t kind);
const spv_enum_kind *spv_enum_kind_by_name(const char *name);

#endif
