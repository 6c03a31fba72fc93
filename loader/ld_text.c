/* ld_text.c - stub, to be written */
#include "ld.h"
