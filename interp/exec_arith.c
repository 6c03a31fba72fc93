/* exec_arith.c - stub, to be written */
#include "ip_internal.h"
