/* ip_prepare.c - stub, to be written */
#include "ip_internal.h"
