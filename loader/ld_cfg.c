/* ld_cfg.c - stub, to be written */
#include "ld.h"
