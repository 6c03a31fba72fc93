/* stub */
#include "jit.h"
