/* ip_arith.h - scalar conversion helpers shared by exec_arith.c, exec_ocl.c
 * and ocl_printf.c (not public).  Rounding modes are SpvFPRoundingMode values
 * (RTE 0, RTZ 1, RTP 2, RTN 3); the long double input holds the exact value
 * (every int64/uint64/half/float/double is exact in x87 extended precision). */
#ifndef IP_ARITH_H
#define IP_ARITH_H

#include <stdbool.h>
#include <stdint.h>

uint16_t ip_ld_to_half_mode(long double v, int mode);
float ip_ld_to_float_mode(long double v, int mode);
double ip_ld_to_double_mode(long double v, int mode);
/* Float -> w-bit integer, rounding mode as above, saturating, NaN -> 0. */
uint64_t ip_float_to_int(long double v, uint32_t w, bool is_signed, int mode);

/* OpenCL.std printf handler (ocl_printf.c). */
struct ip_sg;
struct ip_op;
int ip_ocl_printf(struct ip_sg *sg, const struct ip_op *op);

#endif
