#!/usr/bin/env python3
"""spirv-sgrun on OpenCL C whose -O2 module has an LLVM freeze (x / w next
to x % w), which llvm-spirv-15 cannot translate: the tool compiles it again
with each freeze replaced by its operand, warns once, and runs it.  Checks
the warning, the exit code and the values, on both backends; and that with
SPIRV_SG_KEEP_FREEZE=1 the translation fails with llvm-spirv's message."""
import os
import struct
import subprocess
import sys
import tempfile

sgrun = sys.argv[1]
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", "freeze_divrem.cl")
N, W = 64, 7
expect = []
for i in range(N):
    x = 37 * i + 5
    expect += [x // W, x % W]
bad = 0
with tempfile.TemporaryDirectory() as d:
    for backend in ("interp", "jit"):
        out = os.path.join(d, "out-%s.bin" % backend)
        p = subprocess.run([sgrun, "--backend", backend, src, "--global", str(N), "--local", "16",
                            "--arg", "range:5:37:%d" % N, "--arg", "zero:%d" % (2 * N), "--arg", str(W),
                            "--write", "out=" + out], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = p.stderr.decode(errors="replace")
        if p.returncode != 0:
            print("FAIL %s: exit %d\n%s" % (backend, p.returncode, err)); bad += 1; continue
        if err.count("cannot translate LLVM's freeze instruction") != 1:
            print("FAIL %s: expected one freeze warning, stderr:\n%s" % (backend, err)); bad += 1
        got = list(struct.unpack("<%dI" % (2 * N), open(out, "rb").read()))
        if got != expect:
            print("FAIL %s: values %s..., expected %s..." % (backend, got[:6], expect[:6])); bad += 1
        else:
            print("PASS %s" % backend)
    env = dict(os.environ, SPIRV_SG_KEEP_FREEZE="1")
    p = subprocess.run([sgrun, src, "--global", str(N), "--local", "16", "--arg", "range:5:37:%d" % N,
                        "--arg", "zero:%d" % (2 * N), "--arg", str(W)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 2 or "freeze" not in err or "llvm-spirv-15 failed to translate" not in err:
        print("FAIL SPIRV_SG_KEEP_FREEZE=1: exit %d, stderr:\n%s" % (p.returncode, err)); bad += 1
    else:
        print("PASS SPIRV_SG_KEEP_FREEZE=1 fails as llvm-spirv-15 does")
sys.exit(1 if bad else 0)
