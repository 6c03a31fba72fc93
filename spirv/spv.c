/* stub */
#include "spv.h"
