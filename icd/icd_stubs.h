/* icd_stubs.h - the dispatch table and the stubs for unimplemented entries. */
#ifndef ICD_STUBS_H
#define ICD_STUBS_H
#include <ocl_icd.h>
/* Fills every slot of d with a stub that returns an OpenCL error. */
void icd_fill_stubs(struct _cl_icd_dispatch *d);
/* Notes an unimplemented call on stderr (once per name, with SPIRV_SG_ICD_VERBOSE). */
void icd_unimplemented(const char *name);
#endif
