#!/usr/bin/env python3
"""Detector tests: tests/checks/*.cl under --data-races, --lockstep,
--uninitialized and --check-all (spirv-sgrun --json).

Each kernel marks the source lines a report must name with `// @TAG`; the
expected reports below are written by hand from the kernels' semantics: a
kind and the tags of the lines of its accesses (two for races and lockstep
assumptions, in any order; one for uninitialized values).  Every case runs
  - with no detector: no detector report, exit 0;
  - with each detector it concerns alone, and with --check-all: exactly the
    expected reports of the detectors that are on (each pair once), exit 1
    when there is one, else 0; the outputs equal those of the run without
    detectors (a detector never changes results);
  - with --backend auto: the interpreter runs (backend "interp").
Also: --backend jit with a detector is refused (exit 2).
Prints "N passed, M failed".
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KDIR = os.path.join(HERE, "checks")

RACE, LOCK, UNINIT = "data race", "lockstep assumption", "uninitialized value"
FLAG = {RACE: "--data-races", LOCK: "--lockstep", UNINIT: "--uninitialized"}


def C(name, args, expect=(), concerns=None, glob=64, local=64, opts=("-O0", "-O2"), runfile=None):
    """expect: [(kind, tag_a, tag_b or None)]; concerns: kinds whose flags apply;
    runfile: argument lines of a run file to use instead of --arg."""
    kinds = {k for k, _, _ in expect}
    return dict(name=name, args=args, expect=list(expect), glob=glob, local=local, opts=list(opts),
                concerns=list(concerns or kinds), runfile=runfile)


Z = lambda n: "zero:%d" % n
CASES = [
    # data races: 7 with a race, 7 correct
    # (its reads also see local memory no work-item has written yet)
    C("race_local_nobarrier", ["out=" + Z(128)], [(RACE, "W", "R"), (UNINIT, "R", None)],
      concerns=[RACE], glob=128),
    C("race_global_groups", ["out=" + Z(1)], [(RACE, "W", "W")], glob=256),
    C("race_local_wrong_fence", ["out=" + Z(64)], [(RACE, "W", "R")]),
    # (the reader's own subgroup increments too: also a lockstep assumption)
    C("race_atomic_plain", ["counter=" + Z(1), "out=" + Z(1)], [(RACE, "W", "R"), (LOCK, "W", "R")]),
    C("race_async_nowait", ["in=range:0:1:128", "out=" + Z(128)], [(RACE, "W", "R")], glob=128),
    C("race_global_local_fence", ["buf=" + Z(128), "out=" + Z(128)], [(RACE, "W", "R")], glob=128),
    C("race_same_store", ["out=" + Z(1)], [(RACE, "W", "W")], concerns=[RACE, LOCK], glob=16, local=16),
    C("ok_barrier_local", ["out=" + Z(128)], concerns=[RACE, LOCK], glob=128),
    C("ok_barrier_global", ["buf=" + Z(128), "out=" + Z(128)], concerns=[RACE, LOCK], glob=128),
    C("ok_atomics", ["total=" + Z(1), "out=" + Z(4)], concerns=[RACE, LOCK], glob=256),
    C("ok_uniform_write", ["in=range:0:1:256", "flag=" + Z(1)], concerns=[RACE, LOCK], glob=256),
    C("ok_async_wait", ["in=range:0:1:128", "out=" + Z(128)], concerns=[RACE, LOCK], glob=128),
    C("ok_tree_reduce", ["in=range:0:1:128", "out=" + Z(2)], concerns=[RACE, LOCK], glob=128),
    C("ok_own_element", ["in=range:0:1:256", "out=" + Z(256)], concerns=[RACE, LOCK], glob=256),
    # lockstep assumptions: 3 with one, 3 correct
    C("lockstep_reduce", ["in=range:0:1:64", "out=" + Z(4)],
      [(LOCK, "S1", "S2"), (LOCK, "S2", "S3"), (LOCK, "S3", "S4")], concerns=[LOCK, RACE]),
    C("lockstep_broadcast", ["in=range:0:1:64", "out=" + Z(64)], [(LOCK, "W", "R")], concerns=[LOCK, RACE]),
    C("lockstep_global_swap", ["buf=" + Z(64), "out=" + Z(64)], [(LOCK, "W", "R")], concerns=[LOCK, RACE]),
    C("ok_lockstep_barrier", ["in=range:0:1:64", "out=" + Z(4)], concerns=[LOCK, RACE]),
    C("ok_lockstep_shuffle", ["in=range:0:1:64", "out=" + Z(4)], concerns=[LOCK, RACE]),
    C("ok_lockstep_collective", ["in=range:0:1:64", "out=" + Z(64)], concerns=[LOCK, RACE]),
    # uninitialized values: 6 with one, 7 correct (2 with noinit run files below).  -O0 only: at -O2 clang
    # folds the undefined values away (what runs then has none).
    C("uninit_branch", ["out=" + Z(64)], [(UNINIT, "U", None)], opts=["-O0"]),
    C("uninit_index", ["in=range:0:1:64", "out=" + Z(64)], [(UNINIT, "U", None)], opts=["-O0"]),
    C("uninit_store_global", ["in=range:0:1:64", "out=" + Z(64)], [(UNINIT, "U", None)], opts=["-O0"]),
    C("uninit_local", ["out=" + Z(64)], [(UNINIT, "U", None)]),
    C("uninit_vector", ["out=" + Z(64)], [(UNINIT, "U", None)], opts=["-O0"]),
    C("ok_uninit_vector", ["out=" + Z(64)], concerns=[UNINIT]),
    C("ok_struct_padding", ["out=zero:768"], concerns=[UNINIT]),
    C("ok_struct_memcpy", ["out=zero:1536"], concerns=[UNINIT]),
    C("ok_local_init", ["out=" + Z(64)], concerns=[UNINIT]),
    C("ok_loop_calls", ["in=range:0:1:64", "out=" + Z(64)], concerns=[UNINIT]),
    C("ok_vector_dynamic", ["out=" + Z(64), "idx=range:0:1:64"], concerns=[UNINIT]),
    # global buffers declared noinit in a run file
    C("uninit_noinit_buffer", [], [(UNINIT, "U", None)],
      runfile=["<size=256 int noinit>", "<size=256 int fill=0 dump>"]),
    C("ok_noinit_buffer", [], concerns=[UNINIT], runfile=["<size=256 int noinit>", "<size=256 int fill=0 dump>"]),
]


def tags_of(path):
    tags = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            for t in re.findall(r"// @(\w+)", line):
                tags[t] = n
    return tags


def run(sgrun, case, opt, flags, backend="interp"):
    cl = os.path.join(KDIR, case["name"] + ".cl")
    sim = None
    if case.get("runfile"):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".sim", delete=False) as f:
            f.write("%s\n%s\n%d 1 1\n%d 1 1\n%s\n" % (cl, case["name"], case["glob"], case["local"],
                                                    "\n".join(case["runfile"])))
            sim = f.name
        cmd = [sgrun, "--json", "--backend", backend, opt, sim] + flags
    else:
        cmd = [sgrun, "--json", "--backend", backend, opt, cl, "--global", str(case["glob"]),
               "--local", str(case["local"])] + ["--arg=" + a for a in case["args"]] + flags
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if sim:
        os.unlink(sim)
    try:
        res = json.loads(p.stdout.decode())
    except ValueError:
        res = None
    return cmd, p.returncode, res, p.stderr.decode(errors="replace")


def line_of(loc):
    return int(loc.rsplit(":", 1)[1]) if loc and ":" in loc else None


def check(case, kinds_on, rc, res, base, tags):
    errs = []
    if res is None:
        return ["no JSON output (exit %s)" % rc]
    reps = [d for d in res.get("diagnostics", []) if d.get("class") == "check"]
    want = [e for e in case["expect"] if e[0] in kinds_on]
    got = []
    for d in reps:
        lines = tuple(sorted(line_of(a.get("location")) or 0 for a in d.get("accesses", [])))
        got.append((d["kind"], lines))
        if len(d.get("accesses", [])) != (1 if d["kind"] == UNINIT else 2):
            errs.append("report without its accesses: %s" % d.get("message"))
        if d["kind"] != UNINIT and len({a.get("instruction") for a in d.get("accesses", [])}) < 1:
            errs.append("accesses without instructions")
    wanted = sorted((k, tuple(sorted(tags[t] for t in (a, b) if t))) for k, a, b in want)
    if sorted(got) != wanted:
        errs.append("reports %s, expected %s%s" % (sorted(got), wanted, "".join(
            "\n      " + d.get("message", "") for d in reps)))
    exp_rc = 1 if want else 0
    if rc != exp_rc:
        errs.append("exit %s, expected %d" % (rc, exp_rc))
    if base is not None and res.get("outputs") != base.get("outputs"):
        errs.append("outputs differ from the run without detectors")
    if res.get("backend") != "interp":
        errs.append("ran on backend %s" % res.get("backend"))
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgrun", default=os.path.join(HERE, "..", "build", "src", "spirv-sgrun"))
    ap.add_argument("--sgdb", default=None, help="also check spirv-sgdb stops at a report")
    ap.add_argument("--sgconform", default=None, help="also check spirv-sgconform check's options")
    ap.add_argument("--filter", default="")
    ap.add_argument("-v", "--verbose", action="store_true")
    o = ap.parse_args()
    passed = failed = 0

    def result(name, errs):
        nonlocal passed, failed
        if errs:
            failed += 1
            print("FAIL %s" % name)
            for e in errs:
                print("   " + e)
        else:
            passed += 1
            if o.verbose:
                print("PASS %s" % name)

    for case in CASES:
        if o.filter not in case["name"]:
            continue
        tags = tags_of(os.path.join(KDIR, case["name"] + ".cl"))
        for opt in case["opts"]:
            cmd, rc, base, err = run(o.sgrun, case, opt, [])
            errs = [] if base is not None else ["no JSON output: %s" % err[-400:]]
            if base is not None:
                if [d for d in base.get("diagnostics", []) if d.get("class") == "check"] or rc != 0:
                    errs.append("without detectors: exit %s, diagnostics %s" % (rc, base.get("diagnostics")))
            result("%s %s (no detector)" % (case["name"], opt), errs)
            settings = [([FLAG[k]], {k}) for k in case["concerns"]] + [(["--check-all"], {RACE, LOCK, UNINIT})]
            for flags, on in settings:
                cmd, rc, res, err = run(o.sgrun, case, opt, flags)
                errs = check(case, on, rc, res, base, tags)
                if errs and o.verbose:
                    errs.append(" ".join(cmd))
                result("%s %s %s" % (case["name"], opt, " ".join(flags)), errs)
            cmd, rc, res, err = run(o.sgrun, case, opt, ["--check-all"], backend="auto")
            result("%s %s --check-all --backend auto" % (case["name"], opt),
                   check(case, {RACE, LOCK, UNINIT}, rc, res, base, tags))
    # the JIT cannot run detectors: a clear usage error
    case = CASES[0]
    cmd, rc, res, err = run(o.sgrun, case, "-O2", ["--data-races"], backend="jit")
    msg = (res or {}).get("error", "") + err
    result("jit refuses detectors", [] if rc == 2 and "interpreter only" in msg else
           ["exit %s, output %s" % (rc, msg[-300:])])
    # spirv-sgdb takes the same options and stops at a report
    if o.sgdb:
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".cmd", delete=False) as f:
            f.write("run\nwhere\nquit\n")
        cl = os.path.join(KDIR, "lockstep_reduce.cl")
        p = subprocess.run([o.sgdb, cl, "--global", "64", "--local", "64", "--arg", "in=range:0:1:64",
                            "--arg", "out=zero:4", "--lockstep", "-x", f.name, "--batch"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        os.unlink(f.name)
        out = p.stdout.decode(errors="replace")
        line = tags_of(cl)["S2"]
        ok = ("fault: lockstep assumption" in out and "Stopped on the diagnostic" in out and
              "lockstep_reduce.cl:%d" % line in out.split("Stopped on the diagnostic", 1)[-1])
        result("spirv-sgdb --lockstep stops at the report", [] if ok else [out[-800:]])
    # spirv-sgconform check takes them too
    if o.sgconform:
        import tempfile
        cl = os.path.join(KDIR, "lockstep_reduce.cl")
        with tempfile.NamedTemporaryFile("w", suffix=".sim", delete=False) as f:
            f.write("%s\nlockstep_reduce\n64 1 1\n64 1 1\n<size=256 int range=0:1:63>\n"
                    "<size=16 int fill=0 dump>\n" % cl)
        for flags, want in (([], 0), (["--lockstep"], 3), (["--check-all"], 3)):
            p = subprocess.run([o.sgconform, "check", f.name, "--sizes", "16", "--json"] + flags,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            try:
                d = json.loads(p.stdout.decode())
                n = sum(1 for x in d["dynamic"]["findings"] if x["kind"] == "lockstep")
                other = [x["kind"] for x in d["dynamic"]["findings"]
                         if x["kind"] in ("data_race", "uninitialized", "fault")]
            except (ValueError, KeyError, TypeError):
                n, other = None, p.stderr.decode(errors="replace")[-300:]
            result("spirv-sgconform check %s" % " ".join(flags or ["(no detector)"]),
                   [] if n == want and not other else ["lockstep findings %s (want %d), others %s" % (n, want, other)])
        os.unlink(f.name)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
