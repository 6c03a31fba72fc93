/* ip_mem.c - stub, to be written */
#include "ip_internal.h"
