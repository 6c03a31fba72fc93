/* exec_image.c - stub, to be written */
#include "ip_internal.h"
