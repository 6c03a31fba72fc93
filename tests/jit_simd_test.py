#!/usr/bin/env python3
"""jit_simd_test.py - shows the JIT's inline code for elementwise
arithmetic, float -> integer conversions, subgroup reductions, scans, shuffles and ballots: SIMD
instructions for all (the scan: with AVX-512; without it, a scalar pass).

For each kernel below: spirv-sgrun --backend jit --jit-asm FILE writes the
generated assembly; the test looks inside the compiled kernel function
(sg_kernel, sg_kernel_full, sg_groups) for the instruction that does the
operation (packed, on vector registers; for the scan without AVX-512 the
running sum's addition of each lane), prints those lines, and checks the
outputs against the interpreter's.

An integer scan of 16 32-bit lanes, with AVX-512, is four shifted adds in
one register (valignd brings in the lanes 1, 2, 4, 8 below, vpaddd adds
them: scan 0.44x the time of the pass below).  Without AVX-512 it is one
scalar pass over the lanes in lane order (a running sum read from the
operand's lanes): the log2(S)-step vector scan through a stack buffer that
pass replaced reloaded each step's sums shifted by 1, 2, 4, 8 lanes, a load
that spans two vector stores and cannot be store-forwarded.  A ballot of
a whole 16-lane subgroup, with AVX-512, is one vptestmd of the predicate's
lanes into a mask register (compact 0.88x the time of the lane loop's
shifts and OR reduction, which it is without AVX-512).  A whole subgroup's
consecutive store of 64-byte lines, run with SPIRV_SG_JIT_NT_MIN=0 (every
region counts as larger than the cache), is a non-temporal vmovntdq of a zmm
register with AVX-512 (none without it: the outputs alone are compared).
With AVX-512, the elementwise kernel again under -mtune=sapphirerapids (the
CPU's -m flags rewritten in the cache folder): its multiply is on zmm
registers (the JIT asks for 512-bit vectors where GCC 12 tunes Intel's
AVX-512 CPUs for 256 bits), and on ymm with SPIRV_SG_JIT_V256=1.
Exit 77 (meson: skipped) only when the CPU has no AVX2.

usage: jit_simd_test.py --sgrun PATH --work DIR
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

KERNELS = {
    # name: (source, required instruction regex on ymm/zmm registers)
    "elementwise": ("""
kernel void elementwise(global const float *x, global float *y, float a)
{
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}""", r"\bv(mul|add|fmadd\w*)ps\b.*%[yz]mm"),
    # float -> int casts (saturating, NaN -> 0) inline: a packed truncating
    # conversion, not the interpreter's handler
    "convert": ("""
kernel void convert(global const float *x, global float *y, float a)
{
  size_t i = get_global_id(0);
  y[i] = (float)(int)(a * x[i]) + (float)(uint)(x[i] - 100.0f);
}""", r"\bvcvttps2u?dq\b.*%[yz]mm"),
    "reduce": ("""
__attribute__((intel_reqd_sub_group_size(16)))
kernel void reduce(global const uint *x, global uint *y)
{
  size_t i = get_global_id(0);
  y[i] = sub_group_reduce_add(x[i]);
}""", r"\bvpaddd\b.*%[yz]mm"),
    "scan": ("""
__attribute__((intel_reqd_sub_group_size(16)))
kernel void scan(global const uint *x, global uint *y)
{
  size_t i = get_global_id(0);
  y[i] = sub_group_scan_inclusive_add(x[i]);
}""", None),   # scan_pattern(): what the CPU has
    "shuffle": ("""
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void shuffle(global const uint *x, global uint *y)
{
  size_t i = get_global_id(0);
  uint l = get_sub_group_local_id();
  y[i] = intel_sub_group_shuffle(x[i], (l * 5 + 3) & 15) + intel_sub_group_shuffle_down(x[i], x[i] * 7, 3);
}""", r"\bvperm(d|i2d|t2d)\b.*%[yz]mm"),
    "ballot": ("""
__attribute__((intel_reqd_sub_group_size(16)))
kernel void ballot(global const uint *x, global uint *y)
{
  size_t i = get_global_id(0);
  uint4 b = sub_group_ballot((x[i] * 2654435761u >> 16) & 1u);
  y[i] = b.x + sub_group_ballot_inclusive_scan(b);
}""", None),   # ballot_pattern(): what the CPU has
    # run with SPIRV_SG_JIT_NT_MIN=0: every region counts as large
    "streaming": ("""
__attribute__((intel_reqd_sub_group_size(16)))
kernel void streaming(global const uint *x, global uint *y)
{
  size_t i = get_global_id(0);
  y[i] = x[i] * 3u + sub_group_reduce_max(x[i]);
}""", None),   # nt_pattern(): what the CPU has
}

N = 256


def scan_pattern(cpuflags):
    """The scan's addition: the register scan's shifts with AVX-512, else
    the scalar pass's memory-operand add."""
    if " avx512f" in cpuflags:
        return r"\bvalignd\s+\$\d+, %zmm\d+, %zmm\d+, %zmm\d+"
    return r"\baddl\s+-?\w*\(%r\w+(,%r\w+(,\d)?)?\), %e\w+"


def ballot_pattern(cpuflags):
    """The ballot's gathering of the lanes' bits: with AVX-512, one test of
    the predicate's 16 lanes into a mask register; else the lane loop's
    shifts by the lane index."""
    if " avx512f" in cpuflags:
        return r"\bvptestmd\s+%zmm\d+, %zmm\d+, %k\d"
    return r"\bvpsllvd\b.*%[yz]mm"


def nt_pattern(cpuflags):
    """A consecutive store of whole 64-byte lines to a region at least
    SPIRV_SG_JIT_NT_MIN bytes large: one non-temporal vmovntdq of a zmm
    register per line with AVX-512 (none without it: None)."""
    if " avx512f" in cpuflags:
        return r"\bvmovntdq\s+%zmm\d+, \(%r\w+\)"
    return None


def sim(name, float_args):
    lines = [name + ".cl", name, "%d 1 1" % N, "64 1 1"]
    if float_args:
        lines += ["<size=%d float range=0:1:%d>" % (4 * N, N - 1), "<size=%d float fill=1.5 dump>" % (4 * N),
                  "<size=4>", "2.0"]
    else:
        lines += ["<size=%d uint range=7:3:%d>" % (4 * N, 7 + 3 * (N - 1)), "<size=%d uint fill=0 dump>" % (4 * N)]
    return "\n".join(lines) + "\n"


def kernel_text(asm):
    """The lines of the compiled kernel: sg_kernel, sg_kernel_full (the
    whole-subgroup variant of a convergent kernel) and sg_groups (which GCC
    may inline them into)."""
    out, inside = [], None
    for line in asm.splitlines():
        m = re.match(r"^((sg_kernel\w*|sg_groups)(\.\w+)*):", line)
        if m and not inside:
            inside = m.group(1)
            continue
        if inside and re.match(r"^\s*\.size\s+" + re.escape(inside) + r"\b", line):
            inside = None
            continue
        if inside:
            out.append(line)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgrun", required=True)
    ap.add_argument("--work", required=True)
    o = ap.parse_args()
    o.sgrun = os.path.abspath(o.sgrun)
    flags = open("/proc/cpuinfo").read()
    if " avx2" not in flags:
        print("no AVX2 on this CPU: nothing to show")
        return 77
    os.makedirs(o.work, exist_ok=True)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(o.work, "cache"))
    failed = 0
    bodies = {}
    for name, (src, pattern) in KERNELS.items():
        pattern = pattern or (ballot_pattern(flags) if name == "ballot" else nt_pattern(flags) if name == "streaming"
                              else scan_pattern(flags))
        kenv = dict(env, SPIRV_SG_JIT_NT_MIN="0") if name == "streaming" else env
        with open(os.path.join(o.work, name + ".cl"), "w") as f:
            f.write(src)
        with open(os.path.join(o.work, name + ".sim"), "w") as f:
            f.write(sim(name, name in ("elementwise", "convert")))
        asm_path = os.path.join(o.work, name + ".s")
        if os.path.exists(asm_path):
            os.unlink(asm_path)
        outs = {}
        for backend in ("interp", "jit"):
            cmd = [o.sgrun, "--backend", backend, name + ".sim"]
            if backend == "jit":
                cmd[1:1] = ["--jit-asm", asm_path]
            p = subprocess.run(cmd, cwd=o.work, env=kenv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            if p.returncode != 0:
                print("FAIL %s: %s exited %d: %s" % (name, backend, p.returncode, p.stderr.decode(errors="replace")))
                failed += 1
            outs[backend] = p.stdout
        if outs.get("interp") != outs.get("jit"):
            print("FAIL %s: JIT output differs from the interpreter's" % name)
            failed += 1
        if not os.path.exists(asm_path):
            print("FAIL %s: no assembly written (did the JIT fall back?)" % name)
            failed += 1
            continue
        body = kernel_text(open(asm_path).read())
        if pattern is None:   # streaming without AVX-512: the outputs alone
            print("PASS %s: outputs match the interpreter's (no AVX-512: no non-temporal stores)" % name)
            continue
        hits = [l.strip() for l in body if re.search(pattern, l)]
        vec = [l for l in body if re.search(r"%[yz]mm", l)]
        bodies[name] = body
        if not hits:
            print("FAIL %s: no /%s/ in the kernel functions (%d lines, %d on vector registers)" %
                  (name, pattern, len(body), len(vec)))
            failed += 1
            continue
        # the instruction must come from the operation, not from the code every
        # kernel has (SIMT stack, mask bookkeeping): the elementwise kernel,
        # which has no cross-lane operation, is the control
        base = [l for l in bodies.get("elementwise", []) if re.search(pattern, l)]
        if name not in ("elementwise", "streaming") and len(hits) <= len(base):
            print("FAIL %s: /%s/ appears %d times, no more than in the elementwise control (%d)" %
                  (name, pattern, len(hits), len(base)))
            failed += 1
            continue
        print("PASS %s: %d of %d instructions in the kernel functions use ymm/zmm; the operation: %s" %
              (name, len(vec), len(body), "; ".join(hits[:4])))
    n = len(KERNELS)
    if " avx512f" in flags:
        n += 1
        failed += intel_tuning(o, env)
    print("%d passed, %d failed" % (n - failed if failed <= n else 0, failed))
    return 1 if failed else 0


def intel_tuning(o, env):
    """GCC 12 tunes Intel's AVX-512 CPUs (-mtune=sapphirerapids and the
    rest) for 256-bit vectors; the JIT adds -mprefer-vector-width=512 there,
    so the lane loops run 512-bit vectors as on AMD, unless
    SPIRV_SG_JIT_V256=1.  The CPU's -m flags come from the cache folder's
    mflags-*.txt (written by the runs above), here rewritten to tune for
    sapphirerapids on whatever CPU runs the test.  Returns 0 or 1 failure."""
    src_cache = os.path.join(o.work, "cache", "spirv-sg")
    files = [f for f in os.listdir(src_cache) if f.startswith("mflags-")] if os.path.isdir(src_cache) else []
    if not files:
        print("FAIL intel_tuning: no mflags-*.txt in %s" % src_cache)
        return 1
    mflags = open(os.path.join(src_cache, files[0])).read().split()
    mflags = [f for f in mflags if not f.startswith("-mtune=")] + ["-mtune=sapphirerapids"]
    muls = {}
    outs = set()
    for v256 in (False, True):
        cache = os.path.join(o.work, "cache-spr-%d" % v256)
        shutil.rmtree(cache, ignore_errors=True)
        os.makedirs(os.path.join(cache, "spirv-sg"))
        with open(os.path.join(cache, "spirv-sg", files[0]), "w") as f:
            f.write(" ".join(mflags) + "\n")
        kenv = dict(env, XDG_CACHE_HOME=cache)
        kenv.pop("SPIRV_SG_JIT_V256", None)
        if v256:
            kenv["SPIRV_SG_JIT_V256"] = "1"
        asm_path = os.path.join(o.work, "elementwise-spr-%d.s" % v256)
        p = subprocess.run([o.sgrun, "--backend", "jit", "--jit-asm", asm_path, "elementwise.sim"], cwd=o.work,
                           env=kenv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        if p.returncode != 0 or not os.path.exists(asm_path):
            print("FAIL intel_tuning: the JIT run exited %d: %s" % (p.returncode, p.stderr.decode(errors="replace")))
            return 1
        outs.add(p.stdout)
        body = kernel_text(open(asm_path).read())
        muls[v256] = [l.strip() for l in body if re.search(r"\bvmulps\b", l)]
    ref = subprocess.run([o.sgrun, "--backend", "interp", "elementwise.sim"], cwd=o.work, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300).stdout
    if outs != {ref}:
        print("FAIL intel_tuning: the JIT's outputs under -mtune=sapphirerapids differ from the interpreter's")
        return 1
    z = lambda ls: [l for l in ls if "%zmm" in l]
    y = lambda ls: [l for l in ls if "%ymm" in l]
    if not z(muls[False]) or y(muls[False]):
        print("FAIL intel_tuning: -mtune=sapphirerapids: the multiply is not on zmm only: %s" % muls[False])
        return 1
    if not y(muls[True]) or z(muls[True]):
        print("FAIL intel_tuning: with SPIRV_SG_JIT_V256=1 the multiply is not on ymm only: %s" % muls[True])
        return 1
    print("PASS intel_tuning: -mtune=sapphirerapids: %s; with SPIRV_SG_JIT_V256=1: %s" %
          (muls[False][0], muls[True][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
