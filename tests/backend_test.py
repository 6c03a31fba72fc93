#!/usr/bin/env python3
"""--backend interp|jit|auto (issue #4): every backend, -j 1 and -j 2, gives
byte-identical outputs, printf text (in work-group order), diagnostics and
counts, all checked against values computed here; auto switches mid-launch
("mixed") with a low --jit-threshold; the "compiled before" probe starts the
JIT at once; --repeat reuses the compiled kernel.

usage: backend_test.py --sgrun PATH --compile tests/compile_cl.sh --work DIR

Each spirv-sgrun run gets a fresh XDG_CACHE_HOME, so every JIT run compiles
(and the JIT's on-disk cache does not enter the comparison)."""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
M32 = 0xFFFFFFFF
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def s32(x):
    x &= M32
    return x - (1 << 32) if x >= 1 << 31 else x


def run(a, spv, extra, cache=None, json_out=True):
    cache = cache or tempfile.mkdtemp(prefix="cache-", dir=a.work)
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    env.pop("SPIRV_SG_JIT_THRESHOLD", None)
    cmd = [a.sgrun, spv] + extra + (["--json"] if json_out else [])
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if json_out:
        try:
            d = json.loads(p.stdout)
        except ValueError:
            d = {"error": "no JSON: " + p.stdout[:200] + p.stderr[:200]}
        return p, d, cache
    return p, None, cache


def canon(d):
    """What must not depend on the backend."""
    return json.dumps([d.get("outputs"), d.get("printf"), d.get("diagnostics"), d.get("faults"),
                       d.get("ub"), d.get("status")], sort_keys=True)


def heavy_expected(nitems, n, S=16, local=16):
    acc = []
    for g in range(nitems):
        x = g
        for i in range(n):
            x = (x * 1664525 + 1013904223 + i * S) & M32
        acc.append(x)
    # printed as int: .spv input has no signedness (docs/runfile.md)
    out = [s32(acc[g] + acc[g - g % S + 3]) for g in range(nitems)]
    groups = nitems // local
    text = "".join("wg %u sg 0\n" % w for w in range(groups) if w % 1000 == 7)
    return out, text


def faulty_expected(groups, local=64, S=16):
    nitems = groups * local
    v = list(range(nitems))
    for g in range(nitems):
        wg, lane = g // local, (g % local) % S
        if wg % 512 == 5 and 2 <= lane < 5:
            v[g] = 0              # out-of-bounds read: zero
    out = []
    for g in range(nitems):
        wg, sgid, lane = g // local, (g % local) // S, (g % local) % S
        if wg % 512 == 6 and sgid == 1:
            w = 0                 # shuffle index out of range: documented value 0
        else:
            w = v[g - lane + (lane ^ 1)]
        out.append(s32(2 * v[g] + w))
    text = "".join("g%u\n" % w for w in range(groups) if w % 512 == 9)
    nbad = sum(1 for w in range(groups) if w % 512 == 5)
    nub = sum(1 for w in range(groups) if w % 512 == 6)
    return out, text, nbad * (local // S) * 3, nub


CONFIGS = [
    ("interp", ["--backend", "interp"]),
    ("jit", ["--backend", "jit"]),
    ("auto-wait", ["--backend", "auto", "--jit-threshold", "20000", "--jit-wait"]),
    ("auto", ["--backend", "auto", "--jit-threshold", "20000"]),
]


def case(a, name, spv, launch, expect_values, expect_text, faults, ub):
    ref = None
    for cname, flags in CONFIGS:
        for j in ("1", "2"):
            tag = "%s %s -j %s" % (name, cname, j)
            p, d, _ = run(a, spv, launch + flags + ["-j", j])
            if not check("error" not in d, "%s: %s" % (tag, d.get("error"))):
                continue
            check(p.returncode == (1 if faults or ub else 0), "%s: exit %d" % (tag, p.returncode))
            vals = d["outputs"][0]["values"]
            check(vals == expect_values, "%s: wrong output values" % tag)
            check(d["printf"] == expect_text, "%s: printf %r" % (tag, d["printf"][:80]))
            check(d["faults"] == faults and d["ub"] == ub,
                  "%s: faults %s ub %s, expected %d %d" % (tag, d["faults"], d["ub"], faults, ub))
            wg = d.get("work_groups", {})
            total = len(expect_values) // (d["local_size"][0] * d["local_size"][1] * d["local_size"][2])
            check(wg.get("interp", 0) + wg.get("jit", 0) == total, "%s: work_groups %s" % (tag, wg))
            if cname == "interp":
                check(d["backend"] == "interp" and wg.get("jit") == 0, "%s: backend %s" % (tag, d["backend"]))
            elif cname == "jit":
                check(d["backend"] == "jit" and wg.get("interp") == 0,
                      "%s: backend %s (%s)" % (tag, d["backend"], d.get("fallback_reason")))
            elif cname == "auto-wait":
                check(d["backend"] == "mixed" and wg["interp"] > 0 and wg["jit"] > 0,
                      "%s: backend %s %s" % (tag, d["backend"], wg))
            else:
                check(d["backend"] in ("interp", "mixed", "jit"), "%s: backend %s" % (tag, d["backend"]))
            c = canon(d)
            if ref is None:
                ref = (tag, c)
            else:
                check(c == ref[1], "%s: result differs from %s" % (tag, ref[0]))
    # plain output: dumps and printf on stdout, diagnostics on stderr, identical
    outs = []
    for cname, flags in CONFIGS[:3]:
        p, _, _ = run(a, spv, launch + flags + ["-j", "2"], json_out=False)
        err = [l for l in p.stderr.splitlines() if "warning" not in l]
        outs.append((cname, p.stdout, err))
    for cname, so, se in outs[1:]:
        check(so == outs[0][1], "%s %s: stdout differs from interp" % (name, cname))
        check(se == outs[0][2], "%s %s: stderr diagnostics differ from interp" % (name, cname))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgrun", required=True)
    ap.add_argument("--compile", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    spv = {}
    for k in ("heavy", "faulty"):
        spv[k] = os.path.join(a.work, k + ".spv")
        p = subprocess.run([a.compile, os.path.join(HERE, "backend", k + ".cl"), spv[k], "-O2"],
                           capture_output=True, text=True)
        if p.returncode:
            print("cannot compile %s: %s" % (k, p.stderr))
            return 77 if "not found" in p.stderr else 1

    hv, ht = heavy_expected(4096 * 16, 20)
    heavy_launch = ["--global", str(4096 * 16), "--local", "16", "--arg", "out=zero:%d" % (4096 * 16),
                    "--arg", "n=20"]
    case(a, "heavy", spv["heavy"], heavy_launch, hv, ht, 0, 0)

    fv, ft, nf, nu = faulty_expected(4096)
    faulty_launch = ["--global", str(4096 * 64), "--local", "64", "--arg", "out=zero:%d" % (4096 * 64),
                     "--arg", "in=range:0:1:%d" % (4096 * 64), "--arg", "n=1000000"]
    case(a, "faulty", spv["faulty"], faulty_launch, fv, ft, nf, nu)

    # the probe: a kernel compiled before starts in the JIT at once
    p, d, cache = run(a, spv["heavy"], heavy_launch + ["--backend", "auto", "--jit-threshold", "20000",
                                                        "--jit-wait"])
    markers = glob.glob(os.path.join(cache, "spirv-sg", "hot-*"))
    if check(len(markers) == 1, "probe: %d hot-* markers after a JIT compile" % len(markers)):
        fresh = tempfile.mkdtemp(prefix="cache-", dir=a.work)
        os.makedirs(os.path.join(fresh, "spirv-sg"))
        shutil.copy(markers[0], os.path.join(fresh, "spirv-sg"))
        p, d, _ = run(a, spv["heavy"], heavy_launch + ["--backend", "auto", "--jit-wait"], cache=fresh)
        check(d.get("backend") == "jit" and d.get("work_groups", {}).get("interp") == 0,
              "probe: backend %s %s" % (d.get("backend"), d.get("work_groups")))
        check(d.get("outputs", [{}])[0].get("values") == hv, "probe: wrong output values")

    # --repeat: later launches reuse the compiled kernel
    p, d, _ = run(a, spv["heavy"], heavy_launch + ["--backend", "auto", "--jit-threshold", "20000",
                                                    "--jit-wait", "--repeat", "3", "-j", "2"])
    wg = d.get("work_groups", {})
    check(d.get("backend") == "mixed" and wg.get("jit", 0) >= 2 * 4096 and
          wg.get("interp", 0) + wg.get("jit", 0) == 3 * 4096, "repeat: %s %s" % (d.get("backend"), wg))
    check(d.get("outputs", [{}])[0].get("values") == hv and d.get("printf") == ht, "repeat: wrong results")

    # the default threshold keeps a small launch in the interpreter
    p, d, _ = run(a, spv["heavy"], ["--global", "64", "--local", "16", "--arg", "out=zero:64", "--arg", "n=20"])
    check(d.get("backend") == "interp", "small auto launch: backend %s" % d.get("backend"))

    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("backend test: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
