#!/bin/sh
# compile_cl.sh IN.cl OUT.spv [-O0|-O2|...] [-cl-std=CL3.0] [-m32] [extra clang args]
# The one way this project compiles OpenCL C to SPIR-V (also used by spirv-sgrun
# for .cl input): clang-15 with typed pointers, then llvm-spirv-15 with every
# extension allowed (llvm-spirv needs SPV_INTEL_arbitrary_precision_integers
# for the i2 switch conditions -O2 produces).
# -m32: compile for spir-unknown-unknown (32-bit pointers: Physical32) instead
# of the default spir64-unknown-unknown (Physical64).
set -e
in=$1; out=$2; shift 2
opt=-O2; std=-cl-std=CL3.0
triple=spir64-unknown-unknown
extra=""
for a in "$@"; do
  case "$a" in
    -O*) opt=$a ;;
    -cl-std=*) std=$a ;;
    -m32) triple=spir-unknown-unknown ;;
    *) extra="$extra $a" ;;
  esac
done
tmp=$(mktemp "${TMPDIR:-/tmp}/sgcl.XXXXXX.bc")
trap 'rm -f "$tmp"' EXIT
clang-15 -cc1 -triple $triple $std -finclude-default-header \
  -no-opaque-pointers -cl-ext=+all -emit-llvm-bc $opt $extra -o "$tmp" "$in"
if ! msg=$(llvm-spirv-15 --spirv-ext=+all "$tmp" -o "$out" 2>&1); then
  case "$msg" in
    *freeze*)
      # llvm-spirv-15 cannot translate LLVM's freeze (clang -O1 and up make
      # it from x / y next to x % y): as spirv-sgrun does (src/api.c,
      # unfreeze), the module as IR text with each freeze its operand
      ll=$(mktemp "${TMPDIR:-/tmp}/sgcl.XXXXXX.ll")
      trap 'rm -f "$tmp" "$ll"' EXIT
      clang-15 -cc1 -triple $triple $std -finclude-default-header \
        -no-opaque-pointers -cl-ext=+all -emit-llvm $opt $extra -o "$ll" "$in"
      sed -i -E 's/^(\s*%[^ ]+) = freeze (.*) ([^ ,]+)(, !.*)?$/\1 = select i1 true, \2 \3, \2 \3\4/' "$ll"
      clang-15 -cc1 -triple $triple -no-opaque-pointers -x ir -emit-llvm-bc -disable-llvm-passes -o "$tmp" "$ll"
      llvm-spirv-15 --spirv-ext=+all "$tmp" -o "$out"
      echo "compile_cl.sh: warning: $in: each LLVM freeze became its operand (llvm-spirv-15 cannot translate it)" >&2 ;;
    *) printf '%s\n' "$msg" >&2; exit 1 ;;
  esac
fi
