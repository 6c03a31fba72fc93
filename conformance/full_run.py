#!/usr/bin/env python3
"""Runs the full conformance matrix as N shards, resumably.

The full matrix on the JIT costs one native compile per (kernel, subgroup
size): about 85,000 compiles, 7 to 12 CPU-hours on this project's 2-core
machines, longer than one working session.  This driver runs
`spirv-sgconform suite --full --backend B --shard K/N` for K = 1..N and
records each finished shard in a ledger file, keyed by the code under test
(the git tree hashes of spirv/, loader/, interp/, jit/, conformance/ and
src/).  Run it again and it skips the shards that already passed for the
same code, so the matrix can be completed across several runs; the JIT's
disk cache (keyed by the code generator's sources, jit/stamp.py) keeps the
compiled objects too.  A change to any of those folders starts a new ledger.

    python3 conformance/full_run.py --sgconform build/conformance/spirv-sgconform \\
        --backend jit -j 2 [--shards 512] [--ledger FILE] [--max-minutes M]
    python3 conformance/full_run.py --status ...     # what is done, no run

--jit-opt N runs the JIT cases at GCC level -O<N> (spirv-sgconform --jit-opt);
the level is part of the ledger key.  At -O0 a compile costs about a fifth of
one at the default -O2, so the whole matrix took 1 h 46 min on two
cores (docs/conformance.md); the generated code and its semantics are the same, only GCC's
optimisation of it differs.

On a Slurm cluster, --slurm RESULTS_DIR submits the same shards as one job
array (conformance/slurm/suite.sbatch, one shard per task, --cpus-per-task
= -j) plus a merge job that runs after it (--dependency=afterany) and
writes RESULTS_DIR/merge.txt; --wait blocks until the merge is done and
exits with its status.  Without the ledger: the result files in
RESULTS_DIR are the record (spirv-sgconform merge RESULTS_DIR).

    python3 conformance/full_run.py --slurm /shared/sg-results --shards 64 -j 4 --backend jit

--results DIR (local runs) writes the same shard result files; --reduced
runs the reduced matrix instead of the full one (as the tests do).

Exit status: 0 when every shard has passed for this code, 1 when a shard
failed, 3 when shards remain (time limit reached or interrupted), 2 on usage
errors.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE_DIRS = ["spirv", "loader", "interp", "jit", "conformance", "src"]


def code_key():
    """Tree hashes of the code under test; None if the work tree differs."""
    try:
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--"] + CODE_DIRS,
                               capture_output=True, text=True, check=True).stdout.strip()
        trees = [subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD:" + d], capture_output=True,
                                text=True, check=True).stdout.strip() for d in CODE_DIRS]
    except (OSError, subprocess.CalledProcessError):
        return None, "not a git checkout"
    if dirty:
        return None, "uncommitted changes under " + ", ".join(CODE_DIRS)
    return "-".join(t[:12] for t in trees), None


def load_ledger(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def save_ledger(path, led):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(led, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def summary(entry, n):
    done = entry.get("shards", {})
    passed = sum(v["passed"] for v in done.values())
    failed = sum(v["failed"] for v in done.values())
    wall = sum(v["wall_s"] for v in done.values())
    cpu = sum(v["cpu_s"] for v in done.values())
    ok = sum(1 for v in done.values() if v["failed"] == 0 and v["rc"] == 0)
    return ("%d of %d shards done (%d passed clean); %d cases passed, %d failed; "
            "%.1f h wall, %.1f CPU-hours" % (len(done), n, ok, passed, failed, wall / 3600, cpu / 3600))


def suite_options(o):
    """The selection options of every shard (the same for all of them)."""
    opts = ([] if o.reduced else ["--full"]) + ["--backend", o.backend]
    if o.jit_opt >= 0 and o.backend != "interp":
        opts += ["--jit-opt", str(o.jit_opt)]
    return opts


def submit_slurm(o):
    """sbatch the array (suite.sbatch) and the merge job after it."""
    results = os.path.abspath(o.slurm)
    conform = os.path.abspath(o.sgconform)
    if not os.access(conform, os.X_OK):
        print("full_run: %s not found (build first, or pass --sgconform)" % o.sgconform)
        return 2
    os.makedirs(os.path.join(results, "logs"), exist_ok=True)
    env = dict(os.environ, SPIRV_SGCONFORM=conform)
    here = os.path.join(ROOT, "conformance", "slurm")
    array = (["sbatch", "--parsable", "--array=" + (o.only or "1-%d" % o.shards), "--cpus-per-task=%d" % o.jobs,
              "--output=" + os.path.join(results, "logs", "shard-%a.out")] + o.sbatch_arg +
             [os.path.join(here, "suite.sbatch"), results, "--shards", str(o.shards)] + suite_options(o))
    p = subprocess.run(array, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        print("full_run: sbatch failed: %s" % (p.stderr.strip() or p.stdout.strip()))
        return 2
    job = p.stdout.strip().split(";")[0]
    merge = (["sbatch", "--parsable", "--dependency=afterany:" + job,
              "--output=" + os.path.join(results, "logs", "merge.out")] + o.sbatch_arg +
             (["--wait"] if o.wait else []) + [os.path.join(here, "merge.sbatch"), results])
    print("submitted array job %s: %d shards of %s, %d CPUs each; results in %s" % (
        job, o.shards, " ".join(suite_options(o)), o.jobs, results), flush=True)
    p = subprocess.run(merge, env=env, capture_output=True, text=True)
    if o.wait:
        try:
            with open(os.path.join(results, "merge.txt")) as f:
                sys.stdout.write(f.read())
        except OSError:
            print("full_run: the merge job left no report (%s)" % p.stderr.strip())
            return 2
        return 0 if p.returncode == 0 else 1
    if p.returncode != 0:
        print("full_run: sbatch of the merge job failed: %s" % (p.stderr.strip() or p.stdout.strip()))
        return 2
    print("merge job %s runs after it (report: %s/merge.txt; or spirv-sgconform merge %s)" % (
        p.stdout.strip(), results, results))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sgconform", default=os.path.join(ROOT, "build", "conformance", "spirv-sgconform"))
    ap.add_argument("--backend", default="jit", choices=["interp", "jit", "all"])
    ap.add_argument("--shards", type=int, default=512)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--ledger", default=None,
                    help="ledger file (default: $XDG_CACHE_HOME/spirv-sg/full-<backend>.json)")
    ap.add_argument("--jit-opt", type=int, default=-1, choices=[-1, 0, 1, 2, 3],
                    help="GCC level for the JIT cases (default: the JIT's own, -O2)")
    ap.add_argument("--max-minutes", type=float, default=0, help="stop starting shards after this long")
    ap.add_argument("--status", action="store_true", help="print what is done and exit")
    ap.add_argument("--reduced", action="store_true", help="the reduced matrix instead of the full one")
    ap.add_argument("--results", default=None, help="also write shard result files here (suite --results)")
    ap.add_argument("--slurm", metavar="RESULTS_DIR", default=None,
                    help="submit the shards as a Slurm job array plus a merge job, results in RESULTS_DIR")
    ap.add_argument("--sbatch-arg", action="append", default=[],
                    help="extra sbatch option for the array and the merge job (repeatable), e.g. --partition=x")
    ap.add_argument("--only", default=None, metavar="LIST",
                    help="run only these shards, e.g. 1-8 or 3,5 (locally, or as the --slurm array)")
    ap.add_argument("--wait", action="store_true", help="with --slurm: wait for the merge job, print its report")
    o = ap.parse_args()
    if o.shards < 1 or o.jobs < 1:
        ap.error("--shards and -j must be positive")
    only = None
    if o.only:
        try:
            only = set()
            for part in o.only.split(","):
                a, _, b = part.partition("-")
                only.update(range(int(a), int(b or a) + 1))
        except ValueError:
            ap.error("--only wants shard numbers like 1-8 or 3,5")
        if not only or min(only) < 1 or max(only) > o.shards:
            ap.error("--only: shards are 1..%d" % o.shards)
    if o.slurm:
        return submit_slurm(o)
    key, why = code_key()
    if key is None:
        print("full_run: cannot key the ledger: %s (commit first)" % why)
        return 2
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    ledger = o.ledger or os.path.join(cache, "spirv-sg", "full-%s.json" % o.backend)
    os.makedirs(os.path.dirname(os.path.abspath(ledger)), exist_ok=True)
    led = load_ledger(ledger)
    name = "%s|shards=%d" % (key, o.shards)
    if o.reduced:
        name += "|reduced"
    if o.jit_opt >= 0 and o.backend != "interp":
        name += "|jit-opt=%d" % o.jit_opt
    entry = led.setdefault(name, {"shards": {}, "started": time.strftime("%Y-%m-%d %H:%M:%S")})
    print("ledger %s\ncode %s, %s backend%s, %d shards" % (
        ledger, key, o.backend, " at -O%d" % o.jit_opt if o.jit_opt >= 0 and o.backend != "interp" else "",
        o.shards))
    print(summary(entry, o.shards))
    if o.status:
        return 0 if len(entry["shards"]) == o.shards else 3
    if not os.path.exists(o.sgconform):
        print("full_run: %s not found (build first, or pass --sgconform)" % o.sgconform)
        return 2
    t_start = time.time()
    failed_any = False
    for k in range(1, o.shards + 1):
        if str(k) in entry["shards"] and entry["shards"][str(k)]["rc"] == 0:
            continue
        if only and k not in only:
            continue
        if o.max_minutes and time.time() - t_start > o.max_minutes * 60:
            break
        cmd = [o.sgconform, "suite"] + suite_options(o) + ["--shard", "%d/%d" % (k, o.shards),
                                                            "-j", str(o.jobs), "--no-progress", "--max-failures", "20"]
        if o.results:
            cmd += ["--results", o.results]
        c0, w0 = cpu_children(), time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
        except KeyboardInterrupt:
            print("interrupted")
            break
        wall, cpu = time.time() - w0, cpu_children() - c0
        m = re.search(r"^(\d+) passed, (\d+) failed", p.stdout, re.M)
        passed, failed = (int(m.group(1)), int(m.group(2))) if m else (0, -1)
        rec = {"rc": p.returncode, "passed": passed, "failed": failed, "wall_s": round(wall, 1),
               "cpu_s": round(cpu, 1), "at": time.strftime("%Y-%m-%d %H:%M:%S")}
        skipped = re.search(r"(\d+) skipped", p.stdout)
        if skipped:
            rec["skipped"] = int(skipped.group(1))
        print("shard %d/%d: %d passed, %d failed%s, %.0f s (%.0f CPU-s), rc %d" % (
            k, o.shards, passed, failed, ", %d skipped" % rec["skipped"] if skipped else "", wall, cpu,
            p.returncode), flush=True)
        if p.returncode != 0 or failed != 0 or skipped:
            failed_any = True
            rec["rc"] = p.returncode or 1
            sys.stdout.write(p.stdout[-4000:])
            sys.stdout.write(p.stderr[-2000:])
        entry["shards"][str(k)] = rec
        if len(entry["shards"]) == o.shards and all(v["rc"] == 0 for v in entry["shards"].values()):
            entry["completed"] = time.strftime("%Y-%m-%d %H:%M:%S")
        save_ledger(ledger, led)
    print(summary(entry, o.shards))
    if failed_any:
        return 1
    return 0 if all(str(k) in entry["shards"] and entry["shards"][str(k)]["rc"] == 0
                    for k in range(1, o.shards + 1)) else 3


if __name__ == "__main__":
    sys.exit(main())
