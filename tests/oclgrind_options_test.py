#!/usr/bin/env python3
"""oclgrind-kernel command-line options that scripts pass, given to
spirv-sgrun with an Oclgrind run file: --build-options (OpenCL build options
for .cl input), --num-threads, and the device/limit options taken and ignored.
Expected values written by hand.

usage: oclgrind_options_test.py --sgrun PATH --work DIR"""
import argparse
import os
import subprocess
import sys

KERNEL = r"""
#include "opts_header.h"
kernel void k(global int *out)
{
#if __OPENCL_C_VERSION__ == 200
  out[0] = VAL;
#else
  out[0] = -1;
#endif
#ifdef __FAST_RELAXED_MATH__
  out[1] = 1;
#endif
  out[2] = FROM_HEADER;
  out[3] = (int)get_global_id(0);
}
"""
SIM = "opts.cl\nk\n1 1 1\n1 1 1\n<size=16 int fill=0 dump>\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgrun", required=True)
    ap.add_argument("--work", required=True)
    o = ap.parse_args()
    work = os.path.abspath(o.work)
    inc = os.path.join(work, "inc")
    os.makedirs(inc, exist_ok=True)
    with open(os.path.join(work, "opts.cl"), "w") as f:
        f.write(KERNEL)
    with open(os.path.join(inc, "opts_header.h"), "w") as f:
        f.write("#define FROM_HEADER 9\n")
    sim = os.path.join(work, "opts.sim")
    with open(sim, "w") as f:
        f.write(SIM)
    passed, failed = 0, 0

    def run(args, want_rc, want_out=None, want_err=None):
        nonlocal passed, failed
        p = subprocess.run([o.sgrun] + args + [sim], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120)
        out, err = p.stdout.decode(), p.stderr.decode()
        ok = p.returncode == want_rc and (want_out is None or want_out in out) and \
            (want_err is None or want_err in err)
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL %s: rc %d (want %d)\n%s%s" % (" ".join(args), p.returncode, want_rc, out, err))

    def dump(vals):
        return "".join("  out[%d] = %d\n" % (i, v) for i, v in enumerate(vals))

    inc_opt = "-I " + inc
    run(["--build-options", "-cl-std=CL2.0 -D VAL=42 -cl-fast-relaxed-math " + inc_opt], 0,
        dump([42, 1, 9, 0]))
    run(["--build-options=-cl-std=CL1.2 -DVAL=3 -I" + inc], 0, dump([-1, 0, 9, 0]))
    run(["--build-options", "-cl-std=CL2.0 -DVAL=5 -cl-opt-disable -cl-mad-enable -w " + inc_opt,
         "--num-threads", "2", "--max-errors", "10", "--disable-pch", "--compute-units", "4",
         "--local-mem-size", "65536", "--uniform-writes"], 0, dump([5, 0, 9, 0]))
    run(["--build-options", "-cl-std=CL2.0 " + inc_opt], 2, None, "undeclared identifier 'VAL'")
    run(["--build-options", "-frobnicate"], 2, None, "unsupported option '-frobnicate'")
    run(["--build-options", "-cl-std=CL4.0"], 2, None, "CL1.2, CL2.0 or CL3.0")
    run(["--build-options", "-D"], 2, None, "-D needs a value")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
