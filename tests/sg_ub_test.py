#!/usr/bin/env python3
"""Subgroup UB under --ub=error/--ub=ignore, the image block write x rule, and
spirv-sgrun --query (clGetKernelSubGroupInfoKHR) - values written by hand.

usage: sg_ub_test.py --sgrun PATH --work DIR
The UB kernels are the cases of kernels/sg_ub.py (the golden harness checks
them under the default --ub=warn: exit 0 plus the diagnostic)."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_kernel_tests as rk  # noqa: E402  (spec loader, .sim writer, compiler)

fails = []
passes = 0


def check(ok, what):
    global passes
    if ok:
        passes += 1
    else:
        fails.append(what)
        print("FAIL " + what)


def run(sgrun, args):
    p = subprocess.run([sgrun] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    try:
        res = json.loads(p.stdout.decode(errors="replace"))
    except ValueError:
        res = None
    return p.returncode, res, p.stderr.decode(errors="replace")


def has_diag(res, want):
    return isinstance(res, dict) and any(
        want.lower() in (str(d.get("kind", "")) + " " + str(d.get("message", ""))).lower()
        for d in res.get("diagnostics", []) or [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgrun", required=True)
    ap.add_argument("--work", required=True)
    o = ap.parse_args()
    os.makedirs(o.work, exist_ok=True)
    sgrun = os.path.abspath(o.sgrun)

    # 1. every UB kind: --ub=error -> exit 1 with the diagnostic; --ub=ignore -> exit 0
    ro = argparse.Namespace(work=o.work)
    runner = rk.Runner(ro)
    spec = os.path.join(HERE, "kernels", "sg_ub.py")
    for case in rk.load_spec(spec):
        case["_cl"] = os.path.join(HERE, "kernels", "sg_ub.cl")
        spv = runner.compile("sg_ub", case, "-O0")
        sim = os.path.join(o.work, "sg_ub.%s.sim" % case["name"])
        with open(sim, "w") as f:
            f.write(rk.sim_text(case, os.path.basename(spv), case["kernel"]))
        for be in ("interp", "jit"):
            tag = "%s [%s]" % (case["name"], be)
            rc, res, err = run(sgrun, ["--json", "--backend", be, "--ub=error", sim])
            check(rc == 1, "%s --ub=error: exit %s, expected 1 %s" % (tag, rc, err.strip()[:200]))
            for want in case["diag"]:
                check(has_diag(res, want), "%s --ub=error: no diagnostic %r" % (tag, want))
            rc, res, err = run(sgrun, ["--json", "--backend", be, "--ub=ignore", sim])
            check(rc == 0, "%s --ub=ignore: exit %s, expected 0" % (tag, rc))

    # 2. image block write: x = 0 writes pixels 0..7 of row 0; x = 2 bytes is UB
    d = os.path.join(HERE, "sg_ub")
    rc, res, err = run(sgrun, ["--json", os.path.join(d, "img_ok.sim")])
    vals = None
    if isinstance(res, dict):
        for out in res.get("outputs", []):
            if out.get("arg") == 0:
                vals = out.get("values")
    check(rc == 0 and vals == [100 + l for l in range(8)] + [0] * 24,
          "img_ok: exit %s values %s" % (rc, vals))
    rc, res, err = run(sgrun, ["--json", os.path.join(d, "img_bad_x.sim")])
    check(rc == 0 and has_diag(res, "image block x not a multiple of 4"),
          "img_bad_x (--ub=warn): exit %s, diagnostic %s" % (rc, has_diag(res, "image block x")))
    rc, res, err = run(sgrun, ["--json", "--ub=error", os.path.join(d, "img_bad_x.sim")])
    check(rc == 1, "img_bad_x --ub=error: exit %s, expected 1" % rc)

    # 3. --query: S = 8 (intel_reqd_sub_group_size), else --subgroup-size,
    #    else the default 16; CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR is S
    #    for any local size (get_max_sub_group_size(); a work-group smaller
    #    than S is one partial subgroup); count = ceil(local size product / S);
    #    local size for count c = (c*S,1,1).  Written out by hand:
    #    (kernel, --local, --subgroup-size or None, max, count)
    q = os.path.join(d, "query.cl")
    for kern, local, sgs, mx, count in (
            ("q8", "20", None, 8, 3), ("q8", "5,3", None, 8, 2), ("q8", "64", None, 8, 8),
            ("q8", "1", None, 8, 1), ("q8", "20", "8", 8, 3),
            ("qany", "40", None, 16, 3), ("qany", "8,8,2", None, 16, 8), ("qany", "16", None, 16, 1),
            ("qany", "7,3,1", None, 16, 2), ("qany", "40", "12", 12, 4), ("qany", "5", "32", 32, 1),
            ("qany", "8,8,2", "4", 4, 32)):
        args = [q, "-k", kern, "--query", "--json", "--local", local]
        if sgs:
            args += ["--subgroup-size", sgs]
        rc, res, err = run(sgrun, args)
        ok = (rc == 0 and isinstance(res, dict)
              and res.get("max_sub_group_size_for_ndrange") == mx
              and res.get("sub_group_count_for_ndrange") == count
              and res.get("local_size_for_sub_group_count") == [count * mx, 1, 1]
              and res.get("compile_num_sub_groups") == 0
              and isinstance(res.get("max_num_sub_groups"), int) and res["max_num_sub_groups"] >= 1)
        check(ok, "query %s --local %s --subgroup-size %s: exit %s %s (expected max=%d count=%d)"
              % (kern, local, sgs, rc, res, mx, count))
    # a --subgroup-size that conflicts with the required one is an error
    rc, res, err = run(sgrun, [q, "-k", "q8", "--query", "--json", "--local", "8", "--subgroup-size", "16"])
    check(rc == 2, "query q8 --subgroup-size 16: exit %s, expected 2" % rc)

    print("%d passed, %d failed" % (passes, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
