/* sg_internal.h - helpers shared by src/ files (not public). */
#ifndef SG_INTERNAL_H
#define SG_INTERNAL_H

#include "spirv_sg.h"

bool sg_parse_type_name(const char *tn, sg_scalar *out_s, uint32_t *out_n);
double sg_now_ms(void);
void sg_emit(sg_message_fn fn, void *user, sg_severity sev, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));
/* Whole file, NUL-terminated (not counted); NULL with errno set. */
void *sg_read_file(const char *path, size_t *out_n);

#endif
