/* exec_ocl.c - stub, to be written */
#include "ip_internal.h"
