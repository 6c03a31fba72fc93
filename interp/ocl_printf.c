/* ocl_printf.c - stub, to be written */
#include "ip_internal.h"
