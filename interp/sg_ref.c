/* sg_ref.c - stub, to be written */
#include "ip_internal.h"
