/* exec_control.c - stub, to be written */
#include "ip_internal.h"
