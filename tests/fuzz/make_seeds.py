#!/usr/bin/env python3
"""make_seeds.py - regenerate tests/fuzz/corpus/ from the golden tests.

  tests/fuzz/make_seeds.py [--sims DIR ...]

corpus/load      every golden kernel (tests/kernels, tests/subgroup, tests/sg_ub,
                 examples) compiled by tests/compile_cl.sh at -O0
corpus/run       the same at -O2 (also the modules the runfile target binds to;
                 fuzz the load target with both folders)
corpus/runfile   the .sim files the golden harness writes (DIR: its work folder,
                 e.g. build/tests/kernel-work), the kernel file renamed to the
                 corpus/run module, plus examples/*.sim and tests/sg_ub/*.sim
corpus/assemble  spirv-dis output of some -O2 modules

Big files are skipped so the committed corpus stays small (< 2 MB).
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
MAX_SPV = 24 * 1024
MAX_SIM = 8 * 1024


def compile_cl(src, out, opt):
    for std in ("CL3.0", "CL2.0", "CL1.2"):
        r = subprocess.run([os.path.join(TOP, "tests", "compile_cl.sh"), src, out, opt,
                            "-cl-std=" + std], capture_output=True)
        if r.returncode == 0 and os.path.exists(out):
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sims", action="append", default=[],
                    help="folder holding the .sim files the golden harness wrote")
    o = ap.parse_args()
    corpus = os.path.join(HERE, "corpus")
    dirs = {t: os.path.join(corpus, t) for t in ("load", "run", "runfile", "assemble")}
    for d in dirs.values():
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    srcs = sorted(glob.glob(os.path.join(TOP, "tests", "kernels", "*.cl")) +
                  glob.glob(os.path.join(TOP, "tests", "subgroup", "*.cl")) +
                  glob.glob(os.path.join(TOP, "tests", "sg_ub", "*.cl")) +
                  glob.glob(os.path.join(TOP, "examples", "*.cl")))
    names = set()
    with tempfile.TemporaryDirectory() as tmp:
        for src in srcs:
            name = os.path.splitext(os.path.basename(src))[0]
            for opt in ("-O2", "-O0"):
                out = os.path.join(tmp, "%s%s.spv" % (name, opt))
                if not compile_cl(src, out, opt):
                    print("make_seeds: cannot compile %s %s" % (src, opt), file=sys.stderr)
                    continue
                if os.path.getsize(out) > MAX_SPV:
                    continue
                if opt == "-O0":
                    shutil.copy(out, dirs["load"])
                else:
                    shutil.copy(out, dirs["run"])
                    names.add(name)
    # .sim seeds, pointed at the corpus/run module of the same kernel file
    sims = []
    for d in o.sims:
        sims += sorted(glob.glob(os.path.join(d, "*-O2.sim")))
    sims += sorted(glob.glob(os.path.join(TOP, "examples", "*.sim")))
    sims += sorted(glob.glob(os.path.join(TOP, "tests", "sg_ub", "*.sim")))
    for sim in sims:
        if os.path.getsize(sim) > MAX_SIM:
            continue
        lines = open(sim, encoding="utf-8", errors="replace").read().split("\n")
        # the first content line is the kernel file
        for i, line in enumerate(lines):
            s = line.split("#", 1)[0].strip()
            if not s:
                continue
            base = os.path.basename(s)
            stem = base.split("-O")[0] if "-O" in base else os.path.splitext(base)[0]
            if stem not in names:
                break
            lines[i] = "%s-O2.spv" % stem
            out = os.path.join(dirs["runfile"], os.path.basename(sim))
            open(out, "w").write("\n".join(lines))
            break
    # assembly text
    for spv in sorted(glob.glob(os.path.join(dirs["run"], "*.spv")))[::3]:
        r = subprocess.run(["spirv-dis", "--raw-id", spv], capture_output=True, text=True)
        if r.returncode == 0 and len(r.stdout) < MAX_SIM * 4:
            open(os.path.join(dirs["assemble"], os.path.basename(spv)[:-4] + ".spvasm"),
                 "w").write(r.stdout)
    for asm in glob.glob(os.path.join(TOP, "conformance", "tests", "*.spvasm")):
        shutil.copy(asm, dirs["assemble"])
    for t, d in dirs.items():
        n = len(os.listdir(d))
        size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
        print("corpus/%s: %d files, %d bytes" % (t, n, size))


if __name__ == "__main__":
    main()
