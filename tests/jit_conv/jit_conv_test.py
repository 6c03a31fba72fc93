#!/usr/bin/env python3
"""jit_conv_test.py - the JIT's convergent mode (docs/semantics.md, JIT).

A kernel with no varying branch (loader/ld_uniform.c) compiles without the
SIMT stack ("jit": {"convergent": true} in --json); a lane-dependent branch
around one block is if-converted and stays convergent; a lane-dependent
loop (or one whose loop depends on a private variable written through a
pointer, clang -O0) is a masked loop ("masked_loops": 1) and stays
convergent, unless its exits go to different blocks; with
SPIRV_SG_JIT_NO_MLOOP=1 such a kernel is not convergent.  Every kernel runs on the
JIT and on the interpreter at -O0 and -O2, and both outputs are checked
against values computed here.  Prints "N passed, M failed".

usage: jit_conv_test.py --sgrun PATH --work DIR
"""
import argparse
import json
import os
import struct
import subprocess
import sys

N, LOCAL = 192, 64

def tri3(k):
    """acc = acc * 3 + j for j < k, from 0 (exact in float)."""
    a = 0.0
    for j in range(k): a = a * 3.0 + j
    return a


def nest2(i):
    acc = 0.0
    for a in range(i & 3):
        for b in range(((i >> 2) & 3) + a): acc = acc * 2.0 + (a + b)
    return acc


KERNELS = {
    # name: (source, args, expected (convergent, masked loops) at -O0 and at -O2, reference(i, n))
    "uniform_loop": ("""
float tri(int n) { float a = 0; for (int j = 0; j < n; j++) a += (float)j; return a; }
kernel void uniform_loop(global float *out, int n)
{
  size_t i = get_global_id(0);
  float acc = tri(n);
  if (n > 5) acc *= 2.0f;
  out[i] = acc + (float)i;
}""", ["7"], ((True, 1), (True, 0)), lambda i, n: (n * (n - 1) / 2) * (2 if n > 5 else 1) + i),
    # a lane-dependent branch around one block: if-converted (the block
    # runs under the mask of the lanes taking it), still convergent
    "lane_branch": ("""
kernel void lane_branch(global float *out, int n)
{
  size_t i = get_global_id(0);
  if ((i & 3) == 1) out[i] = (float)n;   /* a conditional store: stays a branch at -O2 */
}""", ["7"], ((True, 0), (True, 0)), lambda i, n: float(n) if (i & 3) == 1 else 0.0),
    # a loop whose trip count depends on the lane: a masked loop (each trip
    # under the lanes still in it), convergent otherwise
    "lane_loop": ("""
kernel void lane_loop(global float *out, int n)
{
  size_t i = get_global_id(0);
  float acc = 0.0f;
  for (int j = 0; j < (int)(i & 3); j++) acc = acc * 3.0f + (float)j;
  out[i] = acc + (float)n;
}""", ["7"], ((True, 1), (True, 1)), lambda i, n: tri3(i & 3) + n),
    # the trip count comes from a private variable written through a
    # pointer (clang -O0 keeps it in memory): varying, a masked loop
    "private_escape": ("""
void set(int *p, int v) { *p = v; }
kernel void private_escape(global float *out, int n)
{
  int x = 0;
  set(&x, (int)get_local_id(0));
  float acc = 0.0f;
  for (int j = 0; j < x % 4; j++) acc = acc * 3.0f + (float)j;
  out[get_global_id(0)] = acc + (float)n;
}""", ["7"], ((True, 1), (True, 1)), lambda i, n: tri3((i % LOCAL) % 4) + n),
    # a lane-dependent loop left by two returns: at -O0 its exits go to
    # different blocks, so no masked loop and not convergent; clang -O2
    # merges them into one exit block with a phi: a masked loop
    "loop_return": ("""
kernel void loop_return(global float *out, int n)
{
  size_t i = get_global_id(0);
  for (int j = 0; j < (int)(i & 7); j++)
    if (j == n - 4) { out[i] = (float)j * 2.0f; return; }
  out[i] = -1.0f;
}""", ["7"], ((False, 0), (True, 1)), lambda i, n: 2.0 * (n - 4) if (i & 7) > n - 4 else -1.0),
    # nested lane-dependent ifs whose arms hold stores: at -O2 one masked
    # region (no loop), each arm under its lanes; at -O0 the ifs nest
    # deeper than a region takes (not convergent)
    "staircase": ("""
kernel void staircase(global float *out, int n)
{
  size_t i = get_global_id(0);
  if ((i & 3) != 0) {
    out[i] = 1.0f;
    if ((i & 3) > 1) {
      out[i] = 2.0f + (float)n;
      if ((i & 3) > 2) out[i] = 3.0f * (2.0f + (float)n);
    }
  }
}""", ["7"], ((False, 0), (True, 1)), lambda i, n: [0.0, 1.0, 2.0 + n, 3.0 * (2.0 + n)][i & 3]),
    # a lane-dependent loop inside a lane-dependent loop: two masked loops,
    # the inner one nested in the outer's region (at -O2; clang -O0's shape
    # is not taken)
    "nested_loops": ("""
kernel void nested_loops(global float *out, int n)
{
  size_t i = get_global_id(0);
  float acc = 0.0f;
  for (int a = 0; a < (int)(i & 3); a++)
    for (int b = 0; b < (int)((i >> 2) & 3) + a; b++) acc = acc * 2.0f + (float)(a + b);
  out[i] = acc + (float)n;
}""", ["7"], ((False, 0), (True, 2)), lambda i, n: nest2(i) + n),
}


def run(sgrun, path, backend, opt, args, outfile, extra=(), env=None):
    cmd = [sgrun, "--backend", backend, "-O%d" % opt, "--json", "--global", str(N), "--local", str(LOCAL)] + list(extra) + [
           "--arg", "out=zero:%d" % N] + \
          ["--arg", "n=" + args[0], "--write", "out=" + outfile, path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout, p.stderr


def outcome(rc, so, se, outfile, want):
    """The --json object of a run (None if it failed) and its problems: the
    exit status, or the first float of outfile that differs from want."""
    if rc != 0: return None, ["exit %d: %s" % (rc, se.strip()[:300])]
    got = list(struct.unpack("<%df" % N, open(outfile, "rb").read()))
    bad = [i for i in range(N) if got[i] != want[i]]
    if bad: return json.loads(so), ["out[%d] = %r, expected %r" % (bad[0], got[bad[0]], want[bad[0]])]
    return json.loads(so), []


def report(tag, problems):
    print("FAIL %s: %s" % (tag, "; ".join(problems)) if problems else "ok   %s" % tag)
    return not problems


WIDE_SRC = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
kernel void wide(global float *out, int n)
{
  size_t i = get_global_id(0);
  double x = (double)(i % 10) * 0.125, y = 0;
  ulong s = i + 1;
  float z = (float)(i % 7) * 0.25f, w = 1;
  for (int k = 0; k < n; k++) {
    y = y * x + 0.5;
    s = s * 3 + 1;
    w = w * z + 0.5f;
  }
  out[i] = (float)y + (float)(s & 1023) + w;
}"""


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def wide_ref(i, n):
    x, y, s, z, w = (i % 10) * 0.125, 0.0, i + 1, f32((i % 7) * 0.25), 1.0
    for _ in range(n):
        y = y * x + 0.5
        s = (s * 3 + 1) & ((1 << 64) - 1)
        w = f32(f32(w * z) + 0.5)
    return f32(f32(f32(y) + float(s & 1023)) + w)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgrun", required=True)
    ap.add_argument("--work", required=True)
    o = ap.parse_args()
    os.makedirs(o.work, exist_ok=True)
    env_cache = os.path.join(o.work, "cache")
    os.environ["XDG_CACHE_HOME"] = env_cache
    passed = failed = 0
    for name, (src, args, convs, ref) in KERNELS.items():
        path = os.path.join(o.work, name + ".cl")
        with open(path, "w") as f: f.write(src)
        n = int(args[0])
        want = [ref(i, n) for i in range(N)]
        for opt in (0, 2):
            for backend in ("interp", "jit"):
                out = os.path.join(o.work, "%s_O%d_%s.bin" % (name, opt, backend))
                d, problems = outcome(*run(o.sgrun, path, backend, opt, args, out), out, want)
                if d is not None and backend == "jit":
                    if d.get("backend") != "jit": problems.append("ran on %s" % d.get("backend"))
                    conv = d.get("jit", {}).get("convergent")
                    ml = d.get("jit", {}).get("masked_loops")
                    expect, expect_ml = convs[0] if opt == 0 else convs[1]
                    if conv is not expect: problems.append("convergent %r, expected %r" % (conv, expect))
                    if ml != expect_ml: problems.append("masked loops %r, expected %r" % (ml, expect_ml))
                if report("%s -O%d %s" % (name, opt, backend), problems): passed += 1
                else: failed += 1
    # masked loops off: the lane-dependent loop is not convergent
    path = os.path.join(o.work, "lane_loop.cl")
    out = os.path.join(o.work, "nomloop.bin")
    os.environ["SPIRV_SG_JIT_NO_MLOOP"] = "1"
    rc, so, se = run(o.sgrun, path, "jit", 2, ["7"], out)
    del os.environ["SPIRV_SG_JIT_NO_MLOOP"]
    got = list(struct.unpack("<%df" % N, open(out, "rb").read())) if rc == 0 else []
    if rc == 0 and json.loads(so).get("jit", {}).get("convergent") is False and \
            got == [tri3(i & 3) + 7 for i in range(N)]:
        passed += 1
        print("ok   SPIRV_SG_JIT_NO_MLOOP=1: lane_loop not convergent, same values")
    else:
        failed += 1
        print("FAIL SPIRV_SG_JIT_NO_MLOOP=1: exit %d, %s" % (rc, so[-300:]))
    # the safety net: forced convergent mode on a kernel whose branch
    # diverges must stop with the internal-error fault, not run on
    path = os.path.join(o.work, "lane_loop.cl")
    out = os.path.join(o.work, "forced.bin")
    os.environ["SPIRV_SG_JIT_CONV"] = "force"
    rc, so, se = run(o.sgrun, path, "jit", 2, ["7"], out)
    del os.environ["SPIRV_SG_JIT_CONV"]
    if rc == 1 and "proved uniform diverged" in se:
        passed += 1
        print("ok   forced convergent mode reports the divergent branch")
    else:
        failed += 1
        print("FAIL forced convergent mode: exit %d, stderr %r" % (rc, se[-300:]))
    # wide lane arrays: 64-bit values at subgroup size 16 (and 32-bit ones
    # at 32 with SPIRV_SG_JIT_WIDE32=1: 128 bytes a value) live in vector
    # locals ("wide_fields" > 0; SPIRV_SG_JIT_WIDE_V256=1, so also on CPUs
    # whose GCC tuning prefers 256-bit vectors), none with
    # SPIRV_SG_JIT_NO_WIDE=1; the same values either way
    path = os.path.join(o.work, "wide.cl")
    with open(path, "w") as f: f.write(WIDE_SRC)
    want = [wide_ref(i, 9) for i in range(N)]
    for S in (16, 32):
        for nowide in (False, True):
            out = os.path.join(o.work, "wide_%d_%d.bin" % (S, nowide))
            env = {"SPIRV_SG_JIT_WIDE_V256": "1"}   # also where GCC tunes for 256-bit vectors
            if nowide: env["SPIRV_SG_JIT_NO_WIDE"] = "1"
            if S == 32: env["SPIRV_SG_JIT_WIDE32"] = "1"   # 32-bit lanes: on request
            d, problems = outcome(*run(o.sgrun, path, "jit", 2, ["9"], out, ["--subgroup-size", str(S)], env),
                                  out, want)
            if d is not None:
                wf = d.get("jit", {}).get("wide_fields")
                if d.get("backend") != "jit": problems.append("ran on %s" % d.get("backend"))
                if nowide and wf != 0: problems.append("wide_fields %r, expected 0" % wf)
                if not nowide and not (isinstance(wf, int) and wf > 0): problems.append("wide_fields %r, expected > 0" % wf)
            if report("wide S=%d%s" % (S, " SPIRV_SG_JIT_NO_WIDE=1" if nowide else ""), problems): passed += 1
            else: failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
