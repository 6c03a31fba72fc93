/* ip_exec.c - stub, to be written */
#include "ip_internal.h"
