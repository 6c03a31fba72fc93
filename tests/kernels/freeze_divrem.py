# 64 work-items; in[i] = 37 i + 5, w = 7 (a run-time divisor).  At -O2 the
# module has a freeze, which compile_cl.sh (as spirv-sgrun for .cl input,
# tests/freeze_cl_test.py) replaces by its operand; the results are the
# plain quotient and remainder at every level.
N, W = 64, 7
IN = [37 * i + 5 for i in range(N)]
OUT = []
for x in IN:
    OUT += [x // W, x % W]
global_size = (N,); local_size = (16,)
args = [In("uint", IN), Out("uint", 2 * N, expect=OUT), Scalar("uint", W)]
