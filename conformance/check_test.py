#!/usr/bin/env python3
"""Tests of spirv-sgconform check / compare / suite --break-op.

usage: check_test.py SGCONFORM SGRUN TESTS_DIR WORK_DIR CASE
CASE: divergent | sgsize | clean | compare | static | break-op | json | jobs | jit-opt
"""
import os
import shutil
import struct
import subprocess
import sys

conform, sgrun, tdir, work, case = sys.argv[1:6]
os.makedirs(work, exist_ok=True)


def run(args, expect_rc):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    print("$", " ".join(args))
    print(p.stdout)
    print(p.stderr, file=sys.stderr)
    if p.returncode != expect_rc:
        sys.exit("FAIL: exit status %d, expected %d" % (p.returncode, expect_rc))
    return p.stdout


def need(out, *texts):
    for t in texts:
        if t not in out:
            sys.exit("FAIL: output lacks %r" % t)


sim = lambda n: os.path.join(tdir, n + ".sim")

if case == "divergent":
    out = run([conform, "check", sim("divergent")], 1)
    need(out, "divergent.cl:8: error: OpGroupIAdd (subgroup collective, scope Subgroup) "
              "in lane-dependent control flow: the branch at ",
         "divergent.cl:7 depends on the lane", "undefined behaviour")
    # a dynamic finding names its class once ("S=4: undefined behaviour: KIND: ..."),
    # not twice as "undefined behaviour: ub: KIND"
    need(out, "S=4: undefined behaviour: ")
    if "undefined behaviour: ub: " in out or "fault: fault: " in out:
        sys.exit("FAIL: a finding's class printed twice")
elif case == "sgsize":
    out = run([conform, "check", sim("sgsize")], 1)
    need(out, "no findings",   # static: the code itself is correct
         "portability: argument 'out' depends on the subgroup size (stored at ",
         "sgsize.cl:6)", "out[0]: S=1: 1, S=4: 4, S=8: 8, S=16: 16, S=32: 16, S=64: 16, S=12: 12")
    # a required size silences the portability report
    run([conform, "check", sim("sgsize"), "--required-size", "--sizes", "8"], 0)
elif case == "clean":
    out = run([conform, "check", sim("clean")], 0)
    need(out, "no findings", "0 findings")
    # --help after the subcommand is the usage, as for suite and merge
    for sub in ("check", "compare"):
        need(run([conform, sub, "--help"], 0), "spirv-sgconform check FILE", "--check-all")
elif case == "compare":
    dev = os.path.join(work, "device")
    shutil.rmtree(dev, ignore_errors=True)
    os.makedirs(dev)
    dump = os.path.join(dev, "out.bin")
    run([sgrun, sim("sgsize"), "--subgroup-size", "8", "--write", "out=" + dump], 0)
    out = run([conform, "compare", sim("sgsize"), "--device-output", dev, "--subgroup-size", "8"], 0)
    need(out, "argument 'out': identical (32 elements)")
    b = bytearray(open(dump, "rb").read())
    v = struct.unpack_from("<i", b, 4 * 13)[0]
    struct.pack_into("<i", b, 4 * 13, v + 100)
    open(dump, "wb").write(b)
    out = run([conform, "compare", sim("sgsize"), "--device-output", dev, "--subgroup-size", "8"], 1)
    need(out, "out[13] (element 13 = work-group (0,0,0) subgroup 1 lane 5): expected 8, device 108",
         "1 of 32 elements differ")
    if out.count("expected") != 1:
        sys.exit("FAIL: more than the planted element reported")
elif case == "static":
    spv = os.path.join(work, "static_bad.spv")
    subprocess.run(["spirv-as", "--target-env", "spv1.4", os.path.join(tdir, "static_bad.spvasm"),
                    "-o", spv], check=True)
    out = run([conform, "check", spv], 1)
    need(out, "OpGroupNonUniformShuffle used without the GroupNonUniformShuffle capability",
         "execution scope Device (1); only Subgroup or Workgroup is allowed",
         "without the GroupNonUniformClustered capability",
         "ClusterSize 6 is not a power of two",
         "OpGroupNonUniformBroadcast: Id is not a constant (required before SPIR-V 1.5")
elif case == "break-op":
    # 264 = OpGroupIAdd: lane 1 of every subgroup gets a wrong sum
    out = run([conform, "suite", "--no-progress", "--op", "reduce_add", "--type", "int",
               "--size", "4", "--break-op", "264", "--work-dir", os.path.join(work, "brk")], 1)
    need(out, "FAIL khr/reduce_add.int.", "sg 0 lane 1 (item 1, call 0)", "rerun:", "--break-op 264")
    if " lane 0 " in out or " lane 2 " in out:
        sys.exit("FAIL: lanes other than lane 1 reported")
    # and without the switch the same cases pass
    run([conform, "suite", "--no-progress", "--op", "reduce_add", "--type", "int",
         "--size", "4", "--work-dir", os.path.join(work, "brk")], 0)
elif case == "json":
    import json
    # check --json: one object with the static and the dynamic findings
    o = json.loads(run([conform, "check", sim("divergent"), "--json"], 1))
    st, dy = o["static"], o["dynamic"]
    if o["mode"] != "check" or o["findings"] < 2 or not st or not dy:
        sys.exit("FAIL: bad check --json object")
    if not (st[0]["uniformity"] and st[0]["line"] == 8 and st[0]["branch_line"] == 7):
        sys.exit("FAIL: static finding %r" % st[0])
    if not any(f["kind"] == "undefined_behaviour" and f["size"] == 4 for f in dy["findings"]):
        sys.exit("FAIL: no UB finding at S=4")
    o = json.loads(run([conform, "check", sim("sgsize"), "--json"], 1))
    p = [f for f in o["dynamic"]["findings"] if f["kind"] == "portability"]
    if not p or p[0]["argument"] != "out" or p[0]["elements"][0]["values"]["12"] != "12":
        sys.exit("FAIL: portability finding %r" % p)
    o = json.loads(run([conform, "check", os.path.join(tdir, "static_bad.spvasm"), "--json"], 1))
    if o["dynamic"] is not None or len(o["static"]) < 4:
        sys.exit("FAIL: static-only object %r" % o)
    o = json.loads(run([conform, "check", sim("clean"), "--json"], 0))
    if o["findings"] != 0 or o["dynamic"]["findings"]:
        sys.exit("FAIL: clean kernel has findings")
elif case == "jobs":
    import json
    import re
    # suite -j 2 gives the output of -j 1 byte for byte, timings aside: passing
    # cases (--json), and failing ones (JSON and the text report, whose
    # --max-failures cut must fall on the same cases)
    wd = os.path.join(work, "jobs")
    def suite(args, rc):
        p = subprocess.run([conform, "suite", "--no-progress", "--work-dir", wd] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
        if p.returncode != rc:
            sys.exit("FAIL: %s: exit status %d, expected %d\n%s" % (" ".join(args), p.returncode,
                                                                    rc, p.stderr))
        out = re.sub(r'"seconds": [0-9.]+', '"seconds": 0', p.stdout)
        return re.sub(r"cases in [0-9.]+s", "cases in Ts", out), p.stderr
    for args, rc in [(["--json", "--op", "reduce_add"], 0),
                     (["--json", "--op", "reduce_add,reduce_max", "--break-op", "349"], 1),
                     (["--op", "reduce_add,reduce_max", "--break-op", "349", "--max-failures", "3"], 1)]:
        one = suite(args + ["-j", "1"], rc)
        for j in ["2", "3"]:
            par = suite(args + ["-j", j], rc)
            if par != one:
                sys.exit("FAIL: %s: -j %s differs from -j 1" % (" ".join(args), j))
        if "--json" in args:
            o = json.loads(one[0])
            last = "%d passed, %d failed, %d failure objects" % (o["passed"], o["failed"],
                                                                len(o["failures"]))
        else:
            last = one[0].strip().splitlines()[-1]
        print("$ spirv-sgconform suite %s -j 1/2/3: identical (%s)" % (" ".join(args), last))
    if "FAIL " not in one[0] or one[0].count("rerun:") != 3:
        sys.exit("FAIL: the failing run did not report exactly 3 failures in detail")
elif case == "jit-opt":
    import glob
    # --jit-opt N compiles the JIT cases at GCC -O<N>: a level of its own in
    # the JIT cache, the same results, and the rerun line keeps it
    cache = os.path.join(work, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    os.environ["XDG_CACHE_HOME"] = cache
    base = [conform, "suite", "--no-progress", "--backend", "jit", "--op", "reduce_add", "--type",
            "int", "--size", "4", "--work-dir", os.path.join(work, "jo")]
    out = run(base + ["--jit-opt", "0"], 0)
    need(out, " passed, 0 failed")
    objs = lambda: len(glob.glob(os.path.join(cache, "spirv-sg", "jit-*.bin")))
    n0 = objs()
    # (the planted failure first: build.sh counts the last "N passed, M
    # failed" line this test prints)
    out = run(base + ["--jit-opt", "0", "--plant-wrong", "reduce_add", "--max-failures", "1"], 1)
    need(out, "rerun: ", ".jit --plant-wrong reduce_add --jit-opt 0")
    run(base + ["--jit-opt", "0"], 0)
    if objs() != n0 or n0 == 0:
        sys.exit("FAIL: a second -O0 run compiled again (%d -> %d objects)" % (n0, objs()))
    run(base, 0)
    if objs() != 2 * n0:
        sys.exit("FAIL: the default level did not compile objects of its own (%d -> %d)" % (n0, objs()))
    p = subprocess.run([conform, "suite", "--jit-opt", "4"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 2 or "--jit-opt wants a compile level 0, 1, 2 or 3, got '4'" not in p.stderr:
        sys.exit("FAIL: --jit-opt 4: exit %d, %r" % (p.returncode, p.stderr))
else:
    sys.exit("unknown case " + case)
print("PASS")
