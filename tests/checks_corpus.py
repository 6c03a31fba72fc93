#!/usr/bin/env python3
"""False positives of the detectors on the golden corpus: every golden kernel
(tests/kernels, tests/subgroup, tests/spvasm, at -O0 and -O2, every case and
subgroup size of its spec), every examples/*.sim and the benchmark kernels
(bench/kernels, subgroup and plain forms), run on the interpreter
with --check-all.  These kernels are meant to be correct, so every detector
report is a false positive unless it is listed in TRUE_BUGS below (with the
reason, checked by hand).  Prints the reports and the count; a figure, not a
test (docs/semantics.md, "Detectors").

    python3 tests/checks_corpus.py --sgrun build/src/spirv-sgrun
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Reports that are real bugs of the corpus kernel (not detector mistakes).
TRUE_BUGS = {
    "struct_array_global": "work-item i writes items[i-1].hist[2] while work-item i-1 "
                           "copies items[i-1] whole: a real race (and a lockstep "
                           "assumption inside a subgroup)",
    # a case of a test file (NAME.CASE): only that case's reports
    "async_events.never_waited": "the kernel reads the async copy's destination without "
                                 "wait_group_events (a barrier does not complete an async "
                                 "copy): the bug the case plants ('never waited for'), "
                                 "seen by the race detector as well",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgrun", default=os.path.join(ROOT, "build", "src", "spirv-sgrun"))
    ap.add_argument("--flags", default="--check-all", help="detector flags (default --check-all)")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    o = ap.parse_args()
    sgrun = os.path.abspath(o.sgrun)
    work = os.path.join(os.path.dirname(os.path.dirname(sgrun)), "tests", "checks-corpus-work")
    cmd = [sys.executable, os.path.join(HERE, "run_kernel_tests.py"), "--sgrun", sgrun,
           "--work", work, "--backend", "interp", "--sweep", "none", "-j", str(o.jobs)]
    cmd += ["--extra-flag=" + f for f in o.flags.split()]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace")
    reports = []
    for line in out.splitlines():
        m = re.match(r"detector report: (.*?): (data race|lockstep assumption|uninitialized value): (.*)", line)
        if m:
            reports.append((os.path.basename(m.group(1)), m.group(2), m.group(3)))
    m = re.search(r"(\d+) passed, (\d+) failed", out)
    golden = m.group(0) if m else "?"
    # a golden run fails under the detectors when a report changes its exit
    # status: name them (each must be one of the reports above)
    failed_runs = [l[5:] for l in out.splitlines() if l.startswith("FAIL ")]
    n_runs = 0
    for sim in sorted(glob.glob(os.path.join(ROOT, "examples", "*.sim"))):
        n_runs += 1
        q = subprocess.run([sgrun, "--json", "--backend", "interp"] + o.flags.split() + [sim],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        try:
            res = json.loads(q.stdout.decode())
        except ValueError:
            reports.append((os.path.basename(sim), "error", q.stderr.decode(errors="replace")[-200:]))
            continue
        for d in res.get("diagnostics", []):
            if d.get("class") == "check":
                reports.append((os.path.basename(sim), d["kind"], d["message"]))
    # the benchmark kernels (realistic ones: reduce, scan, compact, transpose,
    # gemm, hist, stencil, saxpy, both subgroup and plain forms) at
    # oclgrind's sizes, as bench/run.py generates their run files
    import importlib.util
    import tempfile
    spec = importlib.util.spec_from_file_location("sgbench", os.path.join(ROOT, "bench", "run.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.C.work = tempfile.mkdtemp(prefix="sgchecks-")
    n_bench = 0
    for k in bench.KERNELS + [dict(name="tree_reduce", file="tree_reduce.cl", plain="tree_reduce.cl",
                                   sizes=(0, 0, 1 << 16), args=lambda n: [("u32range", n), ("zero", n // 256)],
                                   nd=lambda n: ((n,), (256,)), pnd=lambda n: ((n,), (256,)))]:
        for plain in (False, True):
            sim = bench.write_sim("c", k, k["sizes"][2], plain=plain)
            n_bench += 1
            q = subprocess.run([sgrun, "--json", "--backend", "interp"] + o.flags.split() + [sim],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            try:
                res = json.loads(q.stdout.decode())
            except ValueError:
                reports.append((os.path.basename(sim), "error", q.stderr.decode(errors="replace")[-200:]))
                continue
            for d in res.get("diagnostics", []):
                if d.get("class") == "check":
                    reports.append(("bench/" + os.path.basename(sim), d["kind"], d["message"]))
    fp = tp = 0
    for name, kind, msg in sorted(set(reports)):
        case = re.sub(r"(\.s\d+)?(-O\d)?\.sim$", "", name)
        known = TRUE_BUGS.get(case.split(".")[0]) or TRUE_BUGS.get(case)
        if known:
            tp += 1
        else:
            fp += 1
        print("%s %s: %s: %s" % ("true bug" if known else "FALSE POSITIVE", name, kind, msg[:300]))
    print("golden runs with %s (interp): %s%s; examples: %d run files; bench kernels: %d run files"
          % (o.flags, golden, " (%s)" % ", ".join(failed_runs) if failed_runs else "", n_runs, n_bench))
    print("detector reports: %d false positives, %d on real bugs of the corpus (%s)" %
          (fp, tp, "; ".join("%s: %s" % kv for kv in TRUE_BUGS.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
