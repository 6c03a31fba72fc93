#!/usr/bin/env python3
"""conformance/full_run.py: the resumable full-matrix runner.

Runs it twice on the interpreter with 8192 shards and a time limit that lets
exactly one shard start per run, and checks: exit status 3 (shards remain);
the first run records shard 1 and the second skips it and records shard 2;
each recorded shard passed as many cases as `spirv-sgconform --count` says
the shard holds, with 0 failed; `--status` reports 2 of 8192 done.  In a
work tree with uncommitted changes under the code folders the runner refuses
to key a ledger: the test is then skipped (exit 77), as it is meant for
clean checkouts such as CI's.
usage: full_run_test.py --full-run PATH --sgconform PATH --work DIR"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--full-run", required=True)
ap.add_argument("--sgconform", required=True)
ap.add_argument("--work", required=True)
o = ap.parse_args()
shutil.rmtree(o.work, ignore_errors=True)
os.makedirs(o.work)
ledger = os.path.join(o.work, "ledger.json")
N = 8192
errors = []


def run(*extra):
    cmd = [sys.executable, o.full_run, "--sgconform", o.sgconform, "--backend", "interp",
           "--shards", str(N), "-j", "1", "--ledger", ledger] + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def shard_count(k):
    p = subprocess.run([o.sgconform, "suite", "--full", "--backend", "interp", "--shard", "%d/%d" % (k, N),
                        "--count"], capture_output=True, text=True)
    m = re.match(r"(\d+) cases", p.stdout)
    return int(m.group(1)) if m else -1


rc, out = run("--max-minutes", "0.0001")
if "cannot key the ledger" in out:
    print(out.strip())
    print("skipped: uncommitted changes in the code folders")
    sys.exit(77)
for k, (want_rc, text) in enumerate([(rc, out), run("--max-minutes", "0.0001")], 1):
    want = shard_count(k)
    if want_rc != 3:
        errors.append("run %d: exit %d, expected 3 (shards remain)\n%s" % (k, want_rc, text))
    if not re.search(r"^shard %d/%d: %d passed, 0 failed" % (k, N, want), text, re.M):
        errors.append("run %d: no line 'shard %d/%d: %d passed, 0 failed'\n%s" % (k, k, N, want, text))
    if k == 2 and re.search(r"^shard 1/%d:" % N, text, re.M):
        errors.append("run 2 ran shard 1 again")
try:
    led = json.load(open(ledger))
except (OSError, ValueError) as e:
    led = {}
    errors.append("ledger unreadable: %s" % e)
if len(led) != 1:
    errors.append("ledger has %d code keys, expected 1" % len(led))
else:
    shards = next(iter(led.values()))["shards"]
    if sorted(shards) != ["1", "2"]:
        errors.append("ledger shards %s, expected 1 and 2" % sorted(shards))
    for k, v in shards.items():
        if v["rc"] != 0 or v["failed"] != 0 or v["passed"] != shard_count(int(k)):
            errors.append("ledger shard %s: %s" % (k, v))
rc, out = run("--status")
if rc != 3 or "2 of %d shards done (2 passed clean)" % N not in out:
    errors.append("--status: exit %d\n%s" % (rc, out))
for e in errors:
    print("FAIL", e)
print("%d passed, %d failed" % (0 if errors else 1, 1 if errors else 0))
sys.exit(1 if errors else 0)
