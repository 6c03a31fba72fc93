/* exec_memory.c - stub, to be written */
#include "ip_internal.h"
