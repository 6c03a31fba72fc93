/* ip_launch.c - stub, to be written */
#include "ip_internal.h"
