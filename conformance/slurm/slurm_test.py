#!/usr/bin/env python3
"""Campaigns on a real (private, single-node) Slurm: conformance shards as
job arrays, merge, faults, baseline, flakes, and a fuzzing array.

    slurm_test.py SGCONFORM SRCROOT WORKDIR MODE [sanitized]

MODE: fast (default test run: the reduced matrix on the interpreter, one
operation of it on the JIT) or long (-Dlong_tests=true: the whole reduced
matrix on the JIT as well).  "sanitized" (an ASan tree): a smaller
selection on the interpreter, no JIT array (the plain tree's test runs
it; the JIT under ASan is slow), no fuzzing array (its targets are built
here, not by meson).
Needs root and the packages slurmctld slurmd slurm-client munge; without
them it prints why and exits 77 (skipped).

Expectations come from outside the code under test: the totals and table
of an unsharded local run of the same selection (the sharding, the result
files and merge must reproduce them exactly), the fact that --plant-wrong
corrupts every case of its operation, and Slurm's own job states.
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import private_slurm  # noqa: E402

SG, SRC, WORK, MODE = [os.path.abspath(a) if i < 3 else a for i, a in enumerate(sys.argv[1:5])]
SAN = len(sys.argv) > 5 and sys.argv[5] == "sanitized"
HERE = os.path.join(SRC, "conformance", "slurm")
passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   %s" % what, flush=True)
    else:
        failed += 1
        print("FAIL %s%s" % (what, ("\n" + detail) if detail else ""), flush=True)
    return ok


def totals(text):
    """(passed, failed) of the last 'N passed, M failed' line, and the table lines."""
    m = re.findall(r"^(\d+) passed, (\d+) failed$", text, re.M)
    table = [l for l in text.splitlines() if re.match(r"^\S+\s+\S+(\s+(\d+/\d+|-))+$", l)]
    return (tuple(int(x) for x in m[-1]) if m else None), table


def local_run(args, tag):
    """The same selection, unsharded, here: the reference."""
    p = subprocess.run([SG, "suite", "--no-progress", "-j", "2", "--work-dir", os.path.join(WORK, "w-" + tag)] +
                       args, capture_output=True, text=True, env=ENV)
    return totals(p.stdout), p


def wait_jobs(ps, ids, timeout=900):
    t0 = time.time()
    while time.time() - t0 < timeout:
        q = subprocess.run(["squeue", "-h", "-o", "%i %T", "-j", ",".join(ids)], env=ps.env,
                           capture_output=True, text=True)
        if not q.stdout.strip():
            return True
        time.sleep(1)
    return False


def merge(res):
    p = subprocess.run([SG, "merge", res], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def campaign(ps, tag, args, shards, wrapper=None, cancel_task=None, started=None, wait=True):
    """Submits an array of `shards` tasks of suite.sbatch and waits for it
    (wait=False: returns (results folder, job id) at once)."""
    res = os.path.join(WORK, "res-" + tag)
    shutil.rmtree(res, ignore_errors=True)
    os.makedirs(os.path.join(res, "logs"))
    env = dict(ps.env, SPIRV_SGCONFORM=wrapper or SG, SG_CACHE_DIR=os.path.join(WORK, "jit-cache"))
    p = subprocess.run(["sbatch", "--parsable", "--array=1-%d" % shards, "--output=" + res + "/logs/%a.out",
                        os.path.join(HERE, "suite.sbatch"), res] + args, env=env, capture_output=True, text=True)
    if not check(p.returncode == 0, "%s: sbatch of the array" % tag, p.stderr):
        return res if wait else (res, None)
    job = p.stdout.strip()
    if not wait:
        return res, job
    if cancel_task:
        # cancel one element part way: once its spirv-sgconform has started
        t0 = time.time()
        q = ""
        while time.time() - t0 < 300:
            if os.path.exists(started):
                time.sleep(1)
                q = subprocess.run(["squeue", "-h", "-o", "%T", "-j", "%s_%d" % (job, cancel_task)], env=ps.env,
                                   capture_output=True, text=True).stdout.strip()
                break
            time.sleep(0.2)
        c = subprocess.run(["scancel", "%s_%d" % (job, cancel_task)], env=ps.env, capture_output=True, text=True)
        check(c.returncode == 0 and q == "RUNNING", "%s: scancel of task %d while it ran" % (tag, cancel_task),
              c.stderr + q)
    check(wait_jobs(ps, [job]), "%s: the array finished" % tag)
    return res


def main():
    why = private_slurm.missing()
    if why:
        print("SKIP: slurm_test needs root and the Slurm packages: %s" % why)
        return 77
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    global ENV
    ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(WORK, "jit-cache-local"))
    with private_slurm.PrivateSlurm(os.path.join(WORK, "slurm"), cpus=2) as ps:
        t_start = time.time()
        # -- 1. the reduced matrix as an 8-task array on the interpreter, and on the JIT
        interp_sel = ["--backend", "interp"] + (["--op", "arith,shuffle,intel"] if SAN else [])
        jit_sel = ["--backend", "jit", "--jit-opt", "0"] + ([] if MODE == "long" else
                                                            ["--op", "reduce_add"])
        for tag, sel in [("interp", interp_sel)] + ([] if SAN else [("jit", jit_sel)]):
            (ref, ref_table), lp = local_run(sel, tag)
            check(ref is not None and ref[1] == 0 and ref[0] > 0, "%s: local unsharded run: %s" % (tag, ref),
                  lp.stdout[-2000:] + lp.stderr[-2000:])
            t0 = time.time()
            res = campaign(ps, tag, sel, 8)
            rc, out = merge(res)
            got, table = totals(out)
            check(rc == 0 and got == ref and table == ref_table,
                  "%s: 8-task array, merge totals %s = local run %s (%.0f s)" % (tag, got, ref, time.time() - t0),
                  out[-3000:])
            xml = [f for f in os.listdir(res) if f.endswith(".xml")]
            n_tc = sum(open(os.path.join(res, f)).read().count("<testcase ") for f in xml)
            check(len(xml) == 8 and ref and n_tc == ref[0], "%s: 8 JUnit files, %d testcases" % (tag, n_tc))

        # -- 2. faults: task 2 cancelled part way, task 5 killed (first attempt only)
        sel = ["--backend", "interp", "--op", "arith" if not SAN else "reduce_add,ballot"]
        (ref, _), _ = local_run(sel, "faults")
        marker = os.path.join(WORK, "fail-task-5-once")
        started = os.path.join(WORK, "task-2-started")
        open(marker, "w").close()
        wrapper = os.path.join(WORK, "flaky-node.sh")
        with open(wrapper, "w") as f:
            f.write("""#!/bin/sh
# task 5 dies of SIGKILL on its first attempt (a node failure, an OOM kill)
if [ "$SLURM_ARRAY_TASK_ID" = 5 ] && [ -e %s ]; then rm -f %s; kill -9 $$; fi
# task 2, first attempt: its shard starts and is frozen at once (SIGSTOP), so
# the test's scancel always finds it running, however fast the shard is
if [ "$SLURM_ARRAY_TASK_ID" = 2 ] && [ ! -e %s ]; then
  "%s" "$@" & pid=$!
  kill -STOP $pid
  touch %s
  wait $pid
  exit $?
fi
exec %s "$@"
""" % (marker, marker, started, SG, started, SG))
        os.chmod(wrapper, 0o755)
        res = campaign(ps, "faults", ["--shards", "8"] + sel, 8, wrapper=wrapper, cancel_task=2, started=started)
        rc, out = merge(res)
        check(rc == 1 and re.search(r"^shards: 6 of 8 present, 0 failed; missing: 2, 5$", out, re.M),
              "faults: merge names shards 2 and 5 as missing, exit 1 (rc %d)" % rc, out[-2000:])
        left = [f for f in os.listdir(res) if f.startswith(".")]
        check(not left, "faults: no partial or temporary result file left", repr(left))
        m = re.search(r"^  (sbatch --array=2,5 \S+ \S+ --shards 8 .*)$", out, re.M)
        if check(m is not None, "faults: merge prints the sbatch rerun line", out[-1500:]):
            words = m.group(1).split()
            cmd = words[:1] + ["--wait", "--output=" + res + "/logs/rerun-%a.out"] + words[1:]
            env = dict(ps.env, SPIRV_SGCONFORM=wrapper)
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=SRC)
            check(r.returncode == 0, "faults: the rerun line ran", r.stderr)
            rc, out = merge(res)
            got, _ = totals(out)
            check(rc == 0 and got == ref, "faults: after the rerun merge totals %s = local run %s" % (got, ref),
                  out[-2000:])

            # a shard run again (a requeued task) replaces its file: counted once
            r = subprocess.run([SG, "suite", "--no-progress", "--shard", "1/8", "--results", res,
                                "--work-dir", os.path.join(WORK, "w-again")] + sel, capture_output=True, text=True)
            rc, out = merge(res)
            check(r.returncode == 0 and rc == 0 and totals(out)[0] == ref,
                  "faults: shard 1 run a second time is counted once: %s" % (totals(out)[0],), out[-1500:])

        # -- 3. result files refused: truncated, damaged, written by different code
        bad = os.path.join(WORK, "res-bad")
        shutil.rmtree(bad, ignore_errors=True)
        shutil.copytree(res, bad)
        f3 = os.path.join(bad, "shard-0003-of-0008.result")
        data = open(f3, "rb").read()
        open(f3, "wb").write(data[:len(data) // 2])
        rc, out = merge(bad)
        check(rc == 2 and "shard-0003-of-0008.result: truncated" in out and "--array=3 " in out,
              "truncated shard file refused, rerun of shard 3 named (rc %d)" % rc, out)
        lines = data.decode().splitlines(True)
        code = [i for i, l in enumerate(lines) if l.startswith("code ")][0]
        lines[code] = "code 0123456789abcdef other-build\n"
        body = "".join(lines[:-1]).encode()
        h = 0xcbf29ce484222325
        for b in body:   # FNV-1a 64, the file's own checksum, so only the code differs
            h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
        open(f3, "wb").write(body + ("end %016x\n" % h).encode())
        rc, out = merge(bad)
        check(rc == 2 and "written by different code" in out, "shard file of different code refused (rc %d)" % rc,
              out)
        open(f3, "wb").write(body + b"end 0000000000000001\n")
        rc, out = merge(bad)
        check(rc == 2 and "damaged" in out, "shard file with a wrong checksum refused (rc %d)" % rc, out)
        # the same code, another selection (backend): one campaign per directory
        lines = data.decode().splitlines(True)
        sel_i = [i for i, l in enumerate(lines) if l.startswith("selection ")][0]
        lines[sel_i] = lines[sel_i].replace("backend=interp", "backend=jit")
        body = "".join(lines[:-1]).encode()
        h = 0xcbf29ce484222325
        for b in body:
            h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
        open(f3, "wb").write(body + ("end %016x\n" % h).encode())
        rc, out = merge(bad)
        check(rc == 2 and "ran a different selection" in out and "backend=jit" in out,
              "shard file of another selection (backend) refused (rc %d)" % rc, out)

        # -- 4. baseline and flakes (reduce_add at S=4: --plant-wrong corrupts every case)
        sel = ["--backend", "interp", "--op", "reduce_add", "--size", "4"]
        (ref, _), _ = local_run(sel, "plant")
        n = ref[0] if ref else 0
        res = campaign(ps, "planted", sel + ["--plant-wrong", "reduce_add"], 2)
        rc, out = merge(res)
        names = re.findall(r"^FAIL (\S+) \(shard \d of 2\)$", out, re.M)
        check(rc == 1 and totals(out)[0] == (0, n) and len(names) == n,
              "planted failure, no baseline: the campaign fails with all %d cases named" % n, out[-1500:])
        base = os.path.join(WORK, "baseline.txt")
        with open(base, "w") as f:
            f.write("# expected failures\n" + "".join("%s,Fail\n" % x for x in names))
        # the rest at once (what a scheduler is for), then each merge
        base_short = os.path.join(WORK, "baseline-short.txt")
        with open(base_short, "w") as f:
            f.write("".join("%s\n" % x for x in names[1:]))
        subs = {}
        for tag, extra in [("baseline", ["--plant-wrong", "reduce_add", "--baseline", base]),
                           ("baseline-short", ["--plant-wrong", "reduce_add", "--baseline", base_short]),
                           ("baseline-stale", ["--baseline", base_short]),
                           ("flaky", ["--plant-flaky", "reduce_add"]),
                           ("flaky-noretry", ["--plant-flaky", "reduce_add", "--retries", "0"])]:
            subs[tag] = campaign(ps, tag, sel + extra, 2, wait=False)
        check(wait_jobs(ps, [j for _, j in subs.values() if j]), "baseline and flakes: the arrays finished")
        rc, out = merge(subs["baseline"][0])
        check(rc == 0 and totals(out)[0] == (0, 0) and "%d expected failures" % n in out,
              "planted failure listed in the baseline: the campaign passes", out[-1500:])
        rc, out = merge(subs["baseline-short"][0])
        check(rc == 1 and totals(out)[0] == (0, 1) and re.search(r"^FAIL %s " % re.escape(names[0]), out, re.M),
              "the one planted failure not in the baseline fails the campaign", out[-1500:])
        rc, out = merge(subs["baseline-stale"][0])
        check(rc == 0 and out.count("it can leave the baseline") == n - 1,
              "baseline cases that pass are reported", out[-1500:])
        rc, out = merge(subs["flaky"][0])
        check(rc == 0 and totals(out)[0] == (0, 0) and "%d flakes" % n in out and
              out.count("then passed on retry\n") == n,
              "planted failure that passes on retry: %d flakes, neither passed nor failed" % n, out[-1500:])
        rc, out = merge(subs["flaky-noretry"][0])
        check(rc == 1 and totals(out)[0] == (0, n), "with --retries 0 the same failures count", out[-1500:])

        # -- 5. a two-target fuzzing campaign as an array; the merge job finds the planted crash
        clang = shutil.which("clang-15")
        if SAN:
            print("(sanitized tree: the fuzzing array runs in the plain tree's test only)")
        elif not clang:
            check(False, "fuzz: clang-15 not found (Debian clang-15, libfuzzer-15-dev)")
        else:
            fz = os.path.join(WORK, "fuzz")
            os.makedirs(fz)
            bins = []
            for t in ["planted", "clean"]:
                b = os.path.join(fz, "fuzz_" + t)
                c = subprocess.run([clang, "-g", "-O1", "-fsanitize=fuzzer", os.path.join(HERE, "fuzz_%s.c" % t),
                                    "-o", b], capture_output=True, text=True)
                check(c.returncode == 0, "fuzz: %s target built with clang-15 -fsanitize=fuzzer" % t, c.stderr)
                bins.append(b)
            secs = "60"
            t0 = time.time()
            p = subprocess.run(["sbatch", "--parsable", "--array=1-2", "--output=" + fz + "/task-%a.out",
                                os.path.join(HERE, "fuzz.sbatch"), fz + "/camp", secs] + bins, env=ps.env,
                               capture_output=True, text=True)
            job = p.stdout.strip()
            m = subprocess.run(["sbatch", "--wait", "--dependency=afterany:" + job, "--output=" + fz + "/merge.out",
                                os.path.join(HERE, "fuzz-merge.sbatch"), fz + "/camp"] + bins, env=ps.env,
                               capture_output=True, text=True)
            rep = open(fz + "/camp/fuzz-report.txt").read() if os.path.exists(fz + "/camp/fuzz-report.txt") else ""
            crashes = re.findall(r"^  (\S+/crashes/fuzz_planted/crash-\S+)$", rep, re.M)
            real = [c for c in crashes if open(c, "rb").read()[:4] == b"SG!\x7f"]
            check(p.returncode == 0 and m.returncode == 1 and real and
                  re.search(r"^fuzz_clean: corpus \d+ -> \d+ inputs; 0 crash", rep, re.M) and
                  "FAIL: the campaign found crashes" in rep,
                  "fuzz: %s s two-target array + merge job found the planted crash (%d inputs, %.0f s)" % (
                      secs, len(real), time.time() - t0), p.stderr + m.stderr + rep[-2000:])
        print("(private Slurm session: %.0f s)" % (time.time() - t_start))
    left = subprocess.run(["pgrep", "-f", os.path.join(WORK, "slurm")], capture_output=True, text=True).stdout
    check(not left.strip(), "the private Slurm's daemons are gone", left)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
