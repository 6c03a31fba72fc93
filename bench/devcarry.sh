#!/bin/sh
# devcarry.sh BUILD OUT: a folder that runs the JIT's -j scaling on another
# x86-64 Linux machine without libgccjit (Ubuntu 24.04 with GCC 13, say):
#   OUT/bin/spirv-sgrun        the tool from BUILD
#   OUT/lib/                   Debian 12's libgccjit 12 and the libraries it needs
#   OUT/bin/gcc                a wrapper: GCC 13 answers "-march=native -### -E -"
#                              (how the JIT learns the CPU's -m flags) with options
#                              libgccjit 12 does not know; it keeps the ones GCC 12
#                              lists (OUT/gcc12_mopts.txt, OUT/gcc12_arch.txt)
#   OUT/sims/KERNEL.{spv,sim}  the bench kernels at their bench sizes, as SPIR-V
#                              (no clang needed there)
#   OUT/run.sh                 best of 5 JIT launches per kernel at -j 1 2 4 8 16
#                              (JS, KS override); a time marked !interp fell back
# libgccjit runs its embedded GCC 12 driver, which finds GCC 13's collect2 and
# crt files through COMPILER_PATH and LIBRARY_PATH (run.sh sets them).
# Measured so on the 16-core device in session 15 (issue #12's note).
set -eu
B=${1:?usage: devcarry.sh BUILD OUT}; O=${2:?usage: devcarry.sh BUILD OUT}
cd "$(dirname "$0")/.."
rm -rf "$O"; mkdir -p "$O/bin" "$O/lib" "$O/sims"
cp "$B/src/spirv-sgrun" "$O/bin/"
for l in libgccjit.so.0 libisl.so.23 libmpc.so.3 libmpfr.so.6; do
  cp -L "/usr/lib/x86_64-linux-gnu/$l" "$O/lib/"
done
gcc-12 -Q --help=target 2>/dev/null | awk '{print $1}' | grep '^-m' | sed 's/=.*//' | sort -u > "$O/gcc12_mopts.txt"
gcc-12 -march=none -x c -E - </dev/null 2>&1 | grep 'valid arguments' | head -n 1 |
  sed 's/.*are: //; s/;.*//' | tr ' ' '\n' | sed "s/'//g" | grep -v '^$' > "$O/gcc12_arch.txt" || true
cat > "$O/bin/gcc" <<'PY'
#!/usr/bin/env python3
import os, subprocess, sys
args = sys.argv[1:]
real = "/usr/bin/gcc"
if not ("-E" in args and ("-v" in args or "-###" in args)):
    os.execv(real, [real] + args)
d = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
mopts = set(open(os.path.join(d, "gcc12_mopts.txt")).read().split())
arch = set(open(os.path.join(d, "gcc12_arch.txt")).read().split()) | {"generic", "intel"}
p = subprocess.run([real] + args, stdin=sys.stdin, capture_output=True, text=True)
out = []
for line in p.stderr.splitlines():
    if "cc1" in line and "-march=" in line:
        keep = []
        for t in line.split():
            t = t.strip('"')   # -### quotes some arguments
            if t.startswith(("-march=", "-mtune=")):
                if t != "-march=native" and t.split("=", 1)[1] not in arch:
                    continue
            elif t.startswith("-m"):
                base = ("-m" + t[5:] if t.startswith("-mno-") else t).split("=", 1)[0]
                if base not in mopts:
                    continue
            keep.append(t)
        line = " ".join(keep)
    out.append(line)
sys.stdout.write(p.stdout)
sys.stderr.write("\n".join(out) + "\n")
sys.exit(p.returncode)
PY
chmod +x "$O/bin/gcc"
# the bench's kernels at its big sizes (sizes[1]: 2^24 elements, transpose
# 4096, gemm 512), as SPIR-V next to their run files
python3 - "$O/sims" <<'PY'
import importlib.util, os, subprocess, sys
out = sys.argv[1]
spec = importlib.util.spec_from_file_location("run", os.path.join("bench", "run.py"))
run = importlib.util.module_from_spec(spec); spec.loader.exec_module(run)
for k in run.KERNELS:
    name, n = k["name"], k["sizes"][1]
    subprocess.run(["sh", "tests/compile_cl.sh", os.path.join("bench", "kernels", k["file"]),
                    os.path.join(out, name + ".spv"), "-O2", "-cl-std=CL2.0"], check=True)
    with open(os.path.join(out, name + ".sim"), "w") as f:
        f.write(run.sim_text(name + ".spv", name, k["nd"](n), k["args"](n), False))
PY
cat > "$O/run.sh" <<'SH'
#!/bin/sh
D=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$D/lib PATH=$D/bin:$PATH XDG_CACHE_HOME=/tmp/sgxc_$$
export COMPILER_PATH=${COMPILER_PATH:-/usr/libexec/gcc/x86_64-linux-gnu/13}
export LIBRARY_PATH=${LIBRARY_PATH:-/usr/lib/gcc/x86_64-linux-gnu/13:/usr/lib/x86_64-linux-gnu}
nproc; grep -m1 "model name" /proc/cpuinfo; cat /sys/kernel/mm/transparent_hugepage/enabled
for k in ${KS:-saxpy reduce scan compact transpose gemm hist stencil collatz horner}; do
  line="$k"
  for j in ${JS:-1 2 4 8 16}; do
    b=$("$D/bin/spirv-sgrun" --backend jit -j "$j" --repeat 5 --time "$D/sims/$k.sim" 2>&1 >/dev/null | grep 'time:' |
        sed 's/.*best \([0-9.]*\) ms.*(\(.*\))/\1 \2/' | awk '{print $1 ($4 == "jit" ? "" : "!" $4)}')
    line="$line j$j=${b:-ERR}"
  done
  echo "$line"
done
SH
chmod +x "$O/run.sh"
echo "devcarry.sh: $O ($(du -sh "$O" | cut -f1)); on the other machine: sh $O/run.sh"
