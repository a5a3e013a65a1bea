#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang + ASan + UBSan in build-fuzz/ (or in
# ROPESCOPE_FUZZ_BUILD_DIR) and runs
# each for SECONDS (default 60). New inputs go to build-fuzz/fuzz-corpus/<target> (the committed
# seeds in tests/fuzz/corpus and tests/fuzz/regressions are read, never written). Prints the
# executions and findings per target; exits 1 if any target crashed, leaked, hung or ran out of
# memory, with the reproducer saved under build-fuzz/fuzz-artifacts/<target>/.
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: layout scene npy image model_config tokens sound
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then TARGETS=(layout scene npy image model_config tokens sound); fi
BUILD=${ROPESCOPE_FUZZ_BUILD_DIR:-build-fuzz}

LAUNCHER=()
if command -v ccache >/dev/null; then
  LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# A build folder configured with the fuzz targets already (scripts/test.sh's sanitizer build, which
# compiles everything once with the fuzzer's instrumentation) is used as it is; any other is
# configured for the fuzz targets alone. -O1 -g1, as the sanitizer build: a fifth less compile
# time than -O2 -g, line tables for the reports.
if ! grep -qs '^ROPESCOPE_BUILD_FUZZ:BOOL=ON' "$BUILD/CMakeCache.txt"; then
  CC=clang CXX=clang++ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DROPESCOPE_BUILD_FUZZ=ON -DROPESCOPE_BUILD_TESTS=OFF -DROPESCOPE_BUILD_GUI=OFF \
    -DROPESCOPE_BUILD_BENCH=OFF "${LAUNCHER[@]}" >/dev/null
fi
cmake --build "$BUILD" -j"$(nproc)" --target "${TARGETS[@]/#/fuzz_}"

# Longest input tried per target: a few times the largest real seed.
declare -A MAX_LEN=([layout]=512 [scene]=4096 [npy]=4096 [image]=16384 [model_config]=8192 [tokens]=8192 [sound]=16384)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Leaks inside third-party libraries only (tests/lsan.supp: libvorbis's failed open).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0}
# Targets run side by side, as many at a time as there are cores: each still gets its full
# SECONDS of fuzzing, and CI waits a fraction of the sequential time.
run_target() {
  local t=$1 work="$BUILD/fuzz-corpus/$1" artifacts="$BUILD/fuzz-artifacts/$1" rc=0
  mkdir -p "$work" "$artifacts"
  local dict=()
  if [ -f "tests/fuzz/dict/$t.dict" ]; then dict=(-dict="tests/fuzz/dict/$t.dict"); fi
  "$BUILD/tests/fuzz/fuzz_$t" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 \
    -max_len="${MAX_LEN[$t]}" -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" \
    "$work" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" >"$BUILD/fuzz-$t.log" 2>&1 || rc=$?
  echo "$rc" >"$BUILD/fuzz-$t.rc"
}
PARALLEL=$(nproc)
running=0
for t in "${TARGETS[@]}"; do
  echo "== fuzz $t for ${SECONDS_EACH}s"
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$PARALLEL" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
status=0
summary=()
for t in "${TARGETS[@]}"; do
  log="$BUILD/fuzz-$t.log"
  artifacts="$BUILD/fuzz-artifacts/$t"
  rc=$(cat "$BUILD/fuzz-$t.rc")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "== $t: FINDING (exit $rc); last lines of $log:"
    grep -E 'ERROR|SUMMARY|fuzz check failed|Test unit written|terminate' "$log" | head -8 | sed 's/^/   /'
    echo "   reproduce: $BUILD/tests/fuzz/fuzz_$t <file>; then copy the file to"
    echo "   tests/fuzz/regressions/$t/ and fix the reader (the replay test runs it in every build)"
    summary+=("$(printf '%-7s %12s execs  cov %6s  peak %5s MB  FINDING (see %s)' "$t" \
      "${execs:-?}" "${cov:-?}" "${rss:-?}" "$artifacts")")
  else
    summary+=("$(printf '%-7s %12s execs  cov %6s  peak %5s MB  no findings' "$t" "${execs:-?}" \
      "${cov:-?}" "${rss:-?}")")
  fi
done
echo "== fuzz summary (${SECONDS_EACH}s per target)"
printf '%s\n' "${summary[@]}" | tee "$BUILD/fuzz-summary.txt"
exit $status
