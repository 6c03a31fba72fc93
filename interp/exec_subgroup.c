/* exec_subgroup.c - stub, to be written */
#include "ip_internal.h"
