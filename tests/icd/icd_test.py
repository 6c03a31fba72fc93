#!/usr/bin/env python3
"""icd_test.py - the OpenCL ICD as a user meets it: `meson install` into a
scratch DESTDIR, then host programs built there against the installed files
and the system's ICD loader (-lOpenCL), never against this tree's headers:

  host_tests.c   every case of tests/icd/host_tests.c, on each backend
  clinfo         lists our platform with the subgroup extensions, exits 0
  --exec         spirv-sgrun --exec runs an unmodified program (clinfo) with
                 our platform as the only one
  examples/      the out-of-tree example, built with pkg-config

Ends with "N passed, N failed"."""
import argparse, os, re, shutil, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--build", required=True)
ap.add_argument("--source", required=True)
ap.add_argument("--compile", required=True)
ap.add_argument("--work", required=True)
a = ap.parse_args()

passed = failed = 0
def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (what, ("\n  " + detail.replace("\n", "\n  ")) if detail else ""))

def run(cmd, env=None, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=600, **kw)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

shutil.rmtree(a.work, ignore_errors=True)
dest = os.path.join(a.work, "dest")
os.makedirs(a.work)
rc, out, err = run(["meson", "install", "-C", a.build, "--destdir", dest, "--no-rebuild", "--quiet"])
if rc != 0:
    print("meson install failed:\n" + out + err)
    print("0 passed, 1 failed")
    sys.exit(1)
def find(name):
    for root, _, files in os.walk(dest):
        if name in files:
            return os.path.join(root, name)
    return None
icd = find("libSpirvSgOpenCL.so")
header = find("spirv_sg.h")
pc = find("spirv-sg.pc")
sgrun = find("spirv-sgrun")
check(icd and header and pc and sgrun, "installed files", "icd %s header %s pc %s sgrun %s" % (icd, header, pc, sgrun))
for page in ("spirv-sgrun.1", "spirv-sgconform.1", "spirv-sgdb.1", "spirv-sg-runfile.5"):
    check(find(page) is not None, "man page %s installed" % page)
vendors = find("spirv-sg.icd")
check(vendors is not None, "the .icd file is installed")

env = dict(os.environ)
env["XDG_CACHE_HOME"] = os.path.join(a.work, "cache")
env["OCL_ICD_VENDORS"] = icd
env["OCL_ICD_FILENAMES"] = icd
# A sanitized build: the ICD needs the sanitizer runtimes loaded first in
# programs that were not built with them (the loader, clinfo).
rc, out, _ = run(["ldd", icd])
pre = [l.split("=>")[1].split()[0] for l in out.splitlines() if re.search(r"lib(asan|ubsan)\.so", l) and "=>" in l]
if pre:
    env["LD_PRELOAD"] = " ".join(pre)
    env["ASAN_OPTIONS"] = "detect_leaks=0:" + env.get("ASAN_OPTIONS", "")

# host_tests.c: built with the system headers and -lOpenCL only
spv = os.path.join(a.work, "sg_reduce.spv")
rc, out, err = run(["sh", a.compile, os.path.join(a.source, "sg_reduce.cl"), spv])
check(rc == 0, "compile sg_reduce.cl", out + err)
exe = os.path.join(a.work, "host_tests")
rc, out, err = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", exe,
                    os.path.join(a.source, "host_tests.c"), "-lOpenCL"])
check(rc == 0, "build host_tests.c against -lOpenCL", out + err)
for backend in (("interp", "jit") if rc == 0 else ()):
    # waits for a user event nobody sets give up quickly (test_user_events)
    e = dict(env, SPIRV_SG_BACKEND=backend, SPIRV_SG_WAIT_TIMEOUT="0.2")
    rc, out, err = run([exe, spv], env=e)
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    n = int(m.group(1)) if m else 0
    check(rc == 0 and m and m.group(2) == "0" and n > 100, "host_tests on %s" % backend, out[-3000:] + err[-2000:])
    # each case of host_tests.c counts in the summary
    if m:
        passed += n
        failed += int(m.group(2))
    # the fault: reported on stderr, CL_SUCCESS for the program (checked inside)
    check("out-of-bounds" in err and "spirv-sg: kernel 'oob'" in err, "fault report on stderr (%s)" % backend, err[-2000:])
    print("host_tests on %s: %s" % (backend, m.group(0) if m else "no summary"))

# clinfo lists our platform and device with the subgroup extensions
if shutil.which("clinfo"):
    rc, out, err = run(["clinfo"], env=env)
    check(rc == 0, "clinfo exits 0", err[-1000:])
    for want in ("Platform Name                                   spirv-sg", "cl_khr_subgroups",
                 "cl_intel_required_subgroup_size", "cl_khr_il_program", "Sub-group sizes (Intel)"):
        check(want in out, "clinfo shows '%s'" % want, out[:1500])
    # the launcher: only our platform, from the installed layout (no
    # OCL_ICD_* variables given)
    e = {k: v for k, v in env.items() if not k.startswith("OCL_ICD_")}
    rc, out, err = run([sgrun, "--backend", "interp", "--exec", "clinfo", "-l"], env=e)
    plats = re.findall(r"Platform #\d+: (.*)", out)
    check(rc == 0 and plats == ["spirv-sg"], "spirv-sgrun --exec clinfo -l: only spirv-sg", out + err)
else:
    check(False, "clinfo is not installed (apt-get install clinfo)")
# spirv-sgrun --link: a kernel calling a function another module defines
la = os.path.join(a.work, "la.cl"); lb = os.path.join(a.work, "lb.cl")
open(la, "w").write("int helper(int x);\n"
                    "kernel void k(global int *o) { o[get_global_id(0)] = helper((int)get_global_id(0)); }\n")
open(lb, "w").write("int helper(int x) { return x * 3 + 1; }\n")
for backend in ("interp", "jit"):
    rc, out, err = run([sgrun, "--backend", backend, la, "--link", lb, "--global", "8", "--arg", "o=zero:8",
                        "--print", "o"], env=env)
    vals = [int(v) for v in re.findall(r"o\[\d+\] = (-?\d+)", out)]
    check(rc == 0 and vals == [3 * i + 1 for i in range(8)], "spirv-sgrun --link on %s" % backend, out + err)
rc, out, err = run([sgrun, la, "--global", "8", "--arg", "o=zero:8"], env=env)
check(rc != 0 and "helper" in err, "without --link the import is reported", err)
rc, out, err = run([sgrun, "--exec"], env=env)
check(rc == 2 and "needs a program" in err, "--exec without a program is a usage error", err)

# examples/: out of tree, with pkg-config against the installed .pc
ex = os.path.join(a.source, "..", "..", "examples", "embed.c")
if os.path.exists(ex):
    e = dict(env, PKG_CONFIG_PATH=os.path.dirname(pc))
    # the installed prefix, relocated under DESTDIR
    prefix = os.path.dirname(os.path.dirname(sgrun))
    rc, flags, err = run(["pkg-config", "--define-variable=prefix=" + prefix, "--cflags", "--libs", "spirv-sg"], env=e)
    check(rc == 0, "pkg-config spirv-sg", err)
    exe2 = os.path.join(a.work, "embed")
    # the compiler runs without the sanitizer runtimes preloaded
    ecc = {k: v for k, v in e.items() if k != "LD_PRELOAD"}
    rc, out, err = run(["cc", "-std=c11", "-Wall", "-Werror", "-o", exe2, ex] + flags.split() +
                       ["-Wl,-rpath," + os.path.dirname(find("libspirv-sg.so.0"))], env=ecc)
    check(rc == 0, "build examples/embed.c with pkg-config", out + err)
    if rc == 0:
        rc, out, err = run([exe2, os.path.join(a.source, "sg_reduce.cl")], env=e)
        check(rc == 0 and "sum of subgroup 0 = 120" in out, "run examples/embed", out + err)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
