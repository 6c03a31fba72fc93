#!/usr/bin/env python3
"""bench/patterns.py - the JIT on shapes that ordinary kernels are made of
(the eight kernels of bench/run.py have none of them): a bounds guard, a
data-dependent `if`, float -> int casts, OpenCL built-ins, integer division,
libm functions, vload4/vstore4, geometric and relational built-ins, Khronos
shuffles, min/max reductions and scans, votes and rotates, a loop whose trip
count differs per element, each beside the
same kernel without them.  Prints nanoseconds per element of
spirv-sgrun --backend jit -j 1 (best of --repeat launches), the interpreter's
on a smaller NDRange, and JIT/interp; with --build-b, the same JIT column for
a second build and the ratio (A/B), to compare two builds on one machine.

usage: python3 bench/patterns.py [--build DIR] [--build-b DIR] [--size N] [--repeat R]
                                 [--only NAME,NAME]"""
import argparse, json, os, subprocess, sys, tempfile

BODY = {
    # name: kernel body (i = get_global_id(0); x, y float buffers, a float, n uint)
    "plain": "y[i] = a * x[i] + y[i];",
    "guard": "if (i < n) y[i] = a * x[i] + y[i];",
    "if_data": "if (((as_uint(x[i]) * 2654435761u) >> 28) < 10) y[i] = a * x[i] + y[i];",
    "cast": "y[i] = (float)((uint)x[i]) + (float)((int)(a * x[i]));",
    "builtins": "int q = (int)x[i];\n  y[i] = sqrt(fabs(a * x[i])) + floor(y[i]) + (float)clamp(q, 10, 1000) + (float)max(q, 7);",
    "division": "uint q = (uint)i;\n  y[i] = (float)(q / 3u) + (float)(q % 7u) + (float)((int)q / -5) + (float)((int)(q - 1000) % 9);",
    "libm": "float v = x[i] * 0.001f;\n  y[i] = exp(-v) + native_sin(v) + fmin(v, a) + pow(v + 1.0f, 0.5f);",
    # four elements per work-item (GROUPS: an NDRange of n / 4)
    "vload4": "float4 v = vload4(i, x) * a + vload4(i, y);\n  vstore4(v, i, y);",
    "geometric": "float2 p = (float2)(x[i], a);\n  y[i] = length(p) + dot(p, p) + normalize(p).x + select(1.0f, 2.0f, (int)(i & 1)) + (float)convert_uchar_sat(y[i]);",
    # subgroup operations (default subgroup size) that ran a handler or a host helper before session 26
    "khr_shuffle": "float v = x[i];\n  for (uint m = 1; m < 16; m <<= 1) v += sub_group_shuffle_xor(v, m);\n  y[i] = v + sub_group_shuffle(x[i], 0);",
    "sg_minmax": "int v = (int)x[i];\n  y[i] = (float)(sub_group_reduce_min(v) + sub_group_scan_inclusive_max(v) + sub_group_clustered_reduce_and(v, 4));",
    "sg_vote": "float v = x[i];\n  y[i] = sub_group_broadcast_first(v) + sub_group_elect() + sub_group_rotate(v, 3) + sub_group_non_uniform_all_equal((int)(i / 64));",
    # a loop whose trip count (0 to 7) differs per element: a masked loop (session 30)
    "lane_loop": "float v = x[i], s = 0.0f;\n  for (uint t = (as_uint(v) * 2654435761u) >> 29; t > 0; t--) s = s * a + v;\n  y[i] = s;",
}
GROUPS = {"vload4": 4}   # elements per work-item, where not 1
SRC = """#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_clustered_reduce : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_vote : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_rotate : enable
kernel void k(global const float *x, global float *y, float a, uint n)
{
  size_t i = get_global_id(0);
  %s
}
"""


def sim(work, name, n):
    cl = os.path.join(work, name + ".cl")
    with open(cl, "w") as f:
        f.write(SRC % BODY[name])
    path = os.path.join(work, "%s_%d.sim" % (name, n))
    with open(path, "w") as f:
        f.write("# bench/patterns.py\n%s\nk\n%d 1 1\n256 1 1\n" % (cl, n // GROUPS.get(name, 1)))
        f.write("<size=%d float range=0:1:%d>\n<size=%d float fill=1.0>\n<size=4>\n2.0\n<size=4>\n%d\n"
                % (4 * n, n - 1, 4 * n, n - 3))   # n - 3: the guard's last subgroup is partial
    return path


def run(sgrun, path, backend, repeat, cache, n):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    p = subprocess.run([sgrun, "--json", "--time", "--backend", backend, "-j", "1", "--repeat", str(repeat), path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=600)
    try:
        d = json.loads(p.stdout)
    except ValueError:
        return None, "no JSON (exit %d): %s" % (p.returncode, p.stderr.decode(errors="replace")[:100])
    if d.get("status") != "ok" or (backend == "jit" and d.get("backend") != "jit"):
        return None, "status %s, backend %s" % (d.get("status"), d.get("backend"))
    return d["times_ms"]["best"] * 1e6 / n, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--build-b", default=None)
    ap.add_argument("--size", type=int, default=1 << 22)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--only", default=None)
    o = ap.parse_args()
    names = o.only.split(",") if o.only else list(BODY)
    a = os.path.abspath(os.path.join(o.build, "src", "spirv-sgrun"))
    b = os.path.abspath(os.path.join(o.build_b, "src", "spirv-sgrun")) if o.build_b else None
    small = max(4096, o.size // 64)
    rows = []
    with tempfile.TemporaryDirectory(prefix="sgpat") as work:
        for name in names:
            big, lit = sim(work, name, o.size), sim(work, name, small)
            ta, ea = run(a, big, "jit", o.repeat, os.path.join(work, "ca"), o.size)
            ti, ei = run(a, lit, "interp", 3, os.path.join(work, "ca"), small)
            tb, eb = run(b, big, "jit", o.repeat, os.path.join(work, "cb"), o.size) if b else (None, None)
            rows.append((name, ta, ti, tb, ea or ei or eb))
    hdr = "%-11s %10s %12s %10s" % ("kernel", "JIT ns/el", "interp ns/el", "JIT/interp")
    if b: hdr += " %12s %6s" % ("B JIT ns/el", "A/B")
    print("spirv-sgrun -j 1, %d elements (interpreter: %d), best of %d launches" % (o.size, small, o.repeat))
    print(hdr)
    for name, ta, ti, tb, err in rows:
        f = lambda v: "%.3g" % v if v is not None else "-"
        line = "%-11s %10s %12s %10s" % (name, f(ta), f(ti), f(ti / ta) + "x" if ta and ti else "-")
        if b: line += " %12s %6s" % (f(tb), f(ta / tb) + "x" if ta and tb else "-")
        print(line + ("  " + err if err else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
