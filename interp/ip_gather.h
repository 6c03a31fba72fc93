/* ip_gather.h - the lane gather behind every shuffle-like operation, shared
 * by exec_subgroup.c (broadcast, shuffles, quad ops, rotate; defined there)
 * and exec_intel.c (cl_intel_subgroups shuffles).  interp/ only. */
#ifndef IP_GATHER_H
#define IP_GATHER_H

#include "ip_internal.h"

/* Which wording the UB records use (the messages name the operation's own
 * rule: a Khronos index that selects no lane, or an Intel index beyond the
 * maximum subgroup size). */
typedef enum ip_gather_style { IP_GATHER_KHR = 0, IP_GATHER_INTEL } ip_gather_style;

/* For every active lane l, copies operand from[l] (from NULL: operand vi) of
 * lane src[l] into l's result.  A source that is IP_SRC_OUT_OF_RANGE or
 * >= S, or a lane that is not active, yields zero and one UB record per kind
 * (IP_UB_INDEX_OUT_OF_RANGE, IP_UB_INACTIVE_LANE).  Returns IP_HALT when a
 * record asks the launch to stop (--ub=error), else IP_NEXT. */
int ip_gather(ip_sg *sg, const ip_op *op, const uint32_t *src, const uint8_t *from, uint32_t vi,
              const char *what, ip_gather_style style);

#endif
