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
llvm-spirv-15 --spirv-ext=+all "$tmp" -o "$out"
