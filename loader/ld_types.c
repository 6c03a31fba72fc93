/* ld_types.c - stub, to be written */
#include "ld.h"
