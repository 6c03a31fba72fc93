/* exec_intel.c - stub, to be written */
#include "ip_internal.h"
