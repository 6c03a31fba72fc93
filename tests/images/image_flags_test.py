#!/usr/bin/env python3
"""Image arguments given on the command line (--arg NAME=image:TOKENS).

Runs tests/images/invert.cl (dst = 255 - src per channel) on a 4x2 RGBA
UNSIGNED_INT8 image read from a file, on every backend, and checks the
written image against 255 - src computed here; then checks that a bad image
description is a clear one-line error with exit status 2."""
import argparse, json, os, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--sgrun", required=True)
ap.add_argument("--work", default=None)
a = ap.parse_args()
here = os.path.dirname(os.path.abspath(__file__))
kernel = os.path.join(here, "invert.cl")
work = a.work or tempfile.mkdtemp()
os.makedirs(work, exist_ok=True)
src = bytes((i * 37 + 11) % 256 for i in range(32))
src_path = os.path.join(work, "src.rgba")
open(src_path, "wb").write(src)
expect = [255 - b for b in src]
passed = failed = 0

def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS", name)
    else:
        failed += 1
        print("FAIL", name, detail)

img = "image:width=4,height=2,order=RGBA,format=UNSIGNED_INT8"
for backend in ("interp", "jit"):
    out_path = os.path.join(work, "dst-%s.rgba" % backend)
    r = subprocess.run([a.sgrun, "--json", "--backend", backend, kernel, "--global", "4,2",
                        "--local", "2,2", "--arg", "src=%s,file=%s" % (img, src_path),
                        "--arg", "dst=" + img, "--write", "dst=" + out_path],
                       capture_output=True, text=True)
    got = list(open(out_path, "rb").read()) if os.path.exists(out_path) else None
    check("invert %s" % backend, r.returncode == 0 and got == expect,
          "exit %d stderr %s got %s" % (r.returncode, r.stderr.strip()[:300], got))

r = subprocess.run([a.sgrun, kernel, "--global", "4,2", "--arg", "src=image:height=2",
                    "--arg", "dst=" + img], capture_output=True, text=True)
check("missing width", r.returncode == 2 and "needs width=" in r.stderr
      and len(r.stderr.strip().splitlines()) == 1, r.stderr)
r = subprocess.run([a.sgrun, kernel, "--global", "4,2", "--arg", "src=1,2", "--arg", "dst=" + img],
                   capture_output=True, text=True)
check("not an image spec", r.returncode == 2 and "image:" in r.stderr, r.stderr)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
