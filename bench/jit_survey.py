#!/usr/bin/env python3
"""Counts the JIT's fallback reasons over the kernel-test corpus.

Runs spirv-sgrun --backend jit on every .sim that tests/run_kernel_tests.py
left in its work folder (run that first) and tallies the reasons.
usage: bench/jit_survey.py [--sgrun PATH] [--work DIR] [-v]"""
import argparse, collections, json, os, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--sgrun", default="build/src/spirv-sgrun")
ap.add_argument("--work", default=None)
ap.add_argument("-v", "--verbose", action="store_true")
o = ap.parse_args()
o.sgrun = os.path.abspath(o.sgrun)
work = o.work or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(o.sgrun))), "tests", "kernel-work")
work = os.path.abspath(work)
sims = sorted(f for f in os.listdir(work) if f.endswith(".sim"))
count = collections.Counter()
where = collections.defaultdict(list)
ok = 0
for s in sims:
    p = subprocess.run([o.sgrun, "--json", "--backend", "jit", os.path.join(work, s)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=work, timeout=300)
    try:
        res = json.loads(p.stdout.decode(errors="replace"))
    except ValueError:
        res = {"backend": "?", "fallback_reason": "no JSON output (exit %d)" % p.returncode}
    if res.get("backend") == "jit":
        ok += 1
        if o.verbose: print("jit  ", s)
        continue
    r = (res.get("fallback_reason") or "ran on %s" % res.get("backend")).strip()
    # strip "kernel.cl:12: " style positions and ids to group reasons
    key = re.sub(r"^[^ ]*:\d+(:\d+)?: ", "", r)
    key = re.sub(r"^(function [^ ]+|[^ ]+ \(%\w+\)|%[\w.]+): ", "", key)
    key = re.sub(r"%[\w.]+", "%x", key)
    count[key] += 1
    where[key].append(s)
    if o.verbose: print("FALL ", s, "--", r)
print("%d of %d compiled by the JIT" % (ok, len(sims)))
for k, n in count.most_common():
    print("%4d  %s   [%s]" % (n, k, " ".join(where[k][:4])))
