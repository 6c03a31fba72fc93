#!/bin/sh
# build.sh: the two commands of the README, on a fresh Debian 12 machine (as root).
#   ./build.sh deps      install what is missing (apt), nothing else
#   ./build.sh example   deps + build + run examples/saxpy.sim
#   ./build.sh test      deps + build + every test suite; ends with "N passed, N failed"
#                        (with CI=true also a short fuzz run: a minute per target)
#   ./build.sh fuzz      deps + the libFuzzer build (clang-15, ASan+UBSan) + a long
#                        fuzz run: SG_FUZZ_SECONDS per target (default 3600),
#                        SG_FUZZ_TARGETS (default: all), tests/fuzz/README.md
# Environment: SG_WERROR=1 (-Dwerror=true), SG_SANITIZE=1 (also build and test
# build-san with ASan+UBSan), SG_LONG=1 (-Dlong_tests=true),
# SG_BUILD_DIR=DIR (build folder instead of build).
set -eu
cd "$(dirname "$0")"
B=${SG_BUILD_DIR:-build}     # build folder (the sanitizer tree is $B-san)

PKGS="meson ninja-build gcc pkg-config python3 spirv-headers spirv-tools libgccjit-12-dev opencl-c-headers clang-15 llvm-spirv-15 ocl-icd-dev ocl-icd-opencl-dev clinfo scdoc tmux libfuzzer-15-dev slurmctld slurmd slurm-client munge"

deps() {
  missing=""
  for p in $PKGS; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$st" in *"install ok installed"*) ;; *) missing="$missing $p" ;; esac
  done
  [ -z "$missing" ] && return 0
  echo "build.sh: installing:$missing"
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
      echo "build.sh: error: missing packages:$missing (run as root, or install them)" >&2; exit 1
    fi
  else SUDO=""; fi
  $SUDO apt-get update
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $missing
}

onoff() { if [ "${1:-0}" = 1 ]; then echo true; else echo false; fi; }

# configure DIR [extra meson options...]: setup once, reconfigure afterwards.
configure() {
  dir=$1; shift
  opts="-Dwerror=$(onoff "${SG_WERROR:-0}") -Dlong_tests=$(onoff "${SG_LONG:-0}")"
  if [ -f "$dir/build.ninja" ]; then
    # shellcheck disable=SC2086
    meson configure "$dir" $opts "$@" >/dev/null
  else
    # shellcheck disable=SC2086
    meson setup "$dir" $opts "$@"
  fi
  ninja -C "$dir"
}

build() {
  configure "$B"
  if [ "${SG_SANITIZE:-0}" = 1 ]; then
    configure "$B-san" -Db_sanitize=address,undefined -Db_lundef=false
  fi
}

# Sum the per-case counts: a test whose output ends with "N passed, N failed"
# counts as those N; any other test counts as one.
summarize() {
  python3 - "$@" <<'PY'
import json, re, sys
p = f = 0
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        try:
            t = json.loads(line)
        except ValueError:
            continue
        if t.get("result") == "EXPECTEDFAIL":
            # a self-test that must fail (should_fail) and did: one pass; its
            # own "N passed, M failed" line counts the failures it planted
            p += 1
            continue
        ok = t.get("result") in ("OK", "SKIP")
        m = None
        for l in reversed((t.get("stdout") or "").splitlines()):
            m = re.match(r"^(\d+) passed, (\d+) failed$", l.strip())
            if m:
                break
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if not ok and b == 0:
                b = 1
            p += a; f += b
        elif ok:
            p += 1
        else:
            f += 1
print("%d passed, %d failed" % (p, f))
sys.exit(1 if f else 0)
PY
}

# runtests: its own status variable (rt): sh has no locals, and the caller's
# status holds the fuzz run's result.
runtests() {
  rt=0
  logs="$B/meson-logs/testlog.json"
  # Each build tree compiles JIT objects into a cache of its own: test runs
  # do not depend on (or fill) the user's ~/.cache, and the sanitized tree
  # runs every JIT compile under the sanitizers rather than loading the plain
  # tree's objects (the cache key is the code generator's source stamp).
  case "$B" in /*) absb=$B ;; *) absb=$PWD/$B ;; esac
  XDG_CACHE_HOME="$absb/test-cache" meson test -C "$B" --print-errorlogs || rt=1
  if [ "${SG_SANITIZE:-0}" = 1 ]; then
    XDG_CACHE_HOME="$absb-san/test-cache" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
    ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    LSAN_OPTIONS="suppressions=$PWD/.ci/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
      meson test -C "$B-san" --print-errorlogs || rt=1
    logs="$logs $B-san/meson-logs/testlog.json"
  fi
  # shellcheck disable=SC2086
  summarize $logs || rt=1
  return $rt
}

# fuzz SECONDS: builds $B-fuzz (clang-15, -Dfuzzing=true, ASan+UBSan) and
# runs each libFuzzer target SECONDS, seeded from tests/fuzz/corpus and
# regressions, with its dictionary; prints executions, coverage and crashes
# per target.  Crashing inputs stay in $B-fuzz/fuzz-out/TARGET/artifacts.
FUZZ_ALL="load assemble run runfile argspec diff"
fuzz() {
  secs=$1
  F=$B-fuzz
  targets=${SG_FUZZ_TARGETS:-$FUZZ_ALL}
  if [ ! -f "$F/build.ninja" ]; then
    CC=clang-15 meson setup "$F" -Dfuzzing=true -Db_sanitize=address,undefined \
      -Db_lundef=false --buildtype=debugoptimized
  fi
  # shellcheck disable=SC2046
  nice -n 10 ninja -C "$F" $(for t in $targets; do printf ' tests/fuzz/fuzz_%s' "$t"; done)
  out=$F/fuzz-out
  found=0
  summary=""
  for t in $targets; do
    mkdir -p "$out/$t/corpus" "$out/$t/artifacts"
    case $t in
      load) seeds="tests/fuzz/corpus/load tests/fuzz/corpus/run"; dict=spirv.dict ;;
      run|diff) seeds="tests/fuzz/corpus/$t tests/fuzz/corpus/run"; dict=spirv.dict ;;
      runfile) seeds=tests/fuzz/corpus/runfile; dict=runfile.dict ;;
      argspec) seeds=tests/fuzz/corpus/argspec; dict=argspec.dict ;;
      *) seeds=tests/fuzz/corpus/$t; dict="" ;;
    esac
    echo "build.sh: fuzz $t for $secs s"
    # shellcheck disable=SC2086
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    ASAN_OPTIONS="detect_leaks=1" \
    LSAN_OPTIONS="suppressions=$PWD/.ci/lsan.supp:print_suppressions=0" \
    XDG_CACHE_HOME="$PWD/$F/test-cache" \
      nice -n 10 "$F/tests/fuzz/fuzz_$t" "$out/$t/corpus" $seeds "tests/fuzz/regressions/$t" \
        ${dict:+-dict=tests/fuzz/dict/$dict} -max_total_time="$secs" -timeout=30 \
        -rss_limit_mb=3072 -malloc_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/$t/artifacts/" >"$out/$t/log" 2>&1 || true
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t/log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$out/$t/log" | tail -n 1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$out/$t/log" | tail -n 1 | cut -d' ' -f2)
    # slow-unit-* files are only slow inputs, not failures
    n=$(find "$out/$t/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' -o -name 'oom-*' \) | wc -l)
    found=$((found + n))
    line="$t: ${execs:-0} executions, coverage ${cov:-0} edges, ${ft:-0} features, $n crash/timeout/leak inputs"
    echo "build.sh: fuzz $line"
    summary="$summary
  $line"
    [ "$n" -gt 0 ] && find "$out/$t/artifacts" -type f ! -name 'slow-unit-*' | sed 's/^/    /'
  done
  echo "build.sh: fuzz summary ($secs s per target):$summary"
  [ "$found" -eq 0 ]
}

case "${1:-}" in
  deps) deps ;;
  example)
    deps; build
    "$B/src/spirv-sgrun" examples/saxpy.sim ;;
  test)
    deps; build
    status=0
    # CI: a short fuzz run (a minute per target) on top of the replays; first,
    # so that the tests' "N passed, N failed" stays the last line
    if [ "${CI:-}" = true ]; then
      fuzz "${SG_FUZZ_SECONDS:-60}" || status=1
    fi
    runtests || status=1
    if [ "$status" != 0 ] && [ "${CI:-}" = true ]; then
      echo "build.sh: FAILED (tests or fuzzing: see the fuzz summary above)" >&2
    fi
    exit $status ;;
  fuzz) deps; fuzz "${SG_FUZZ_SECONDS:-3600}" ;;
  *) echo "usage: ./build.sh deps | example | test | fuzz" >&2; exit 2 ;;
esac
