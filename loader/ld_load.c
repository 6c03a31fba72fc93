/* ld_load.c - stub, to be written */
#include "ld.h"
