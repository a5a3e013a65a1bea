#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is needed, build, run every test.
#   1. a release build of everything (GUI, Python module, benchmarks) and every test suite in it;
#   2. a clang AddressSanitizer + UndefinedBehaviorSanitizer build: every display-free suite
#      (LeakSanitizer on), the CLI's rendering, the GPU suites and the GUI's safety program
#      (autosave, GPU fallback, the abuse test) under the sanitizers;
#   3. each fuzz target for a bounded time.
# docs/dev/testing.md ("CI") says what runs under which build and why. At the end it prints each
# stage's time against its share of the 30-minute budget (STAGE_BUDGET below) and the total; a
# stage over its share is named there, for review (a slow machine does not fail the run).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=$(nproc)
CCACHE=()
if command -v ccache >/dev/null; then
  CCACHE=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
FUZZ_SECONDS=${ROPESCOPE_FUZZ_SECONDS:-30}
# Each stage's share of the budget, in seconds, on a fresh 2-core machine without a compiler
# cache (measured figures per release: docs/dev/testing.md). They add up to the 1800 s: set from
# the fresh runs of 2026-12-07 (1,777 s), so a stage that grows past its share shows at once.
declare -A STAGE_BUDGET=(
  [install]=150 [format]=5 [release build]=355 [release tests]=390 [sanitizer build]=460
  [sanitizer tests]=315 [fuzz]=125
)
STAGES=()
started=$(date +%s)
stage_start=$started
stage_done() {
  local now took budget note=""
  now=$(date +%s)
  took=$((now - stage_start))
  budget=${STAGE_BUDGET[$1]}
  if [ "$took" -gt "$budget" ]; then note="  OVER ITS SHARE ($budget s): review what grew"; fi
  STAGES+=("$(printf '%-18s %5ds  of %4ds%s' "$1" "$took" "$budget" "$note")")
  stage_start=$now
}
ASAN_GUI_TESTS=""
report() {
  if [ -n "$ASAN_GUI_TESTS" ]; then kill "$ASAN_GUI_TESTS" 2>/dev/null || true; fi
  printf '== stage times (budget: docs/dev/testing.md)\n'
  printf '%s\n' "${STAGES[@]}"
  printf '%-18s %5ds  of %4ds\n' total $(($(date +%s) - started)) 1800
}
trap report EXIT

echo "== install"
bash scripts/install-deps.sh
stage_done install

echo "== format: clang-format (.clang-format) over every tracked C++ file"
# A difference fails the run and names the file; \`clang-format -i FILE\` fixes it.
git ls-files -z '*.cpp' '*.h' '*.inc' | xargs -0 -P"$JOBS" -n 40 clang-format --dry-run --Werror
stage_done format

echo "== release build"
bash scripts/build.sh -DROPESCOPE_BUILD_BENCH=ON "${CCACHE[@]}"
stage_done "release build"

echo "== release tests: every suite"
# The GUI and GPU suites start their own Xvfb each and wait for events, never for times, so
# they run side by side with the rest, one more at a time than there are cores. The GUI abuse
# test sends 2500 random events with a pinned seed, so that a submission's result does not
# depend on the draw (other seeds are run by hand: ROPESCOPE_ABUSE_SEED=S; docs/dev/testing.md
# lists the ones run).
(cd build && ROPESCOPE_ABUSE_EVENTS=${ROPESCOPE_ABUSE_EVENTS:-2500} \
  ROPESCOPE_ABUSE_SEED=${ROPESCOPE_ABUSE_SEED:-8} \
  ctest --output-on-failure -j$((JOBS + 1)) --timeout 600)
stage_done "release tests"

echo "== sanitizer build (clang, ASan + UBSan, the fuzzer's coverage)"
# clang compiles ASan + UBSan code in half gcc's time; -O1 -g1 (line tables for the reports).
# ROPESCOPE_BUILD_FUZZ adds libFuzzer's coverage instrumentation, so the same build holds the
# fuzz targets (the fuzz stage below) and every source is compiled once under the sanitizers.
# The GUI test programs other than the safety one are left out (tests/ui/CMakeLists.txt).
# It runs after the release tests, not behind them: they keep both cores busy (876 CPU-s in
# 467 s on the developers' host), and a build started behind them at nice 10 finished 1 of its
# 181 steps in the fresh run of 2026-12-07.
CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DROPESCOPE_SANITIZE=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DROPESCOPE_BUILD_GUI=ON \
  -DROPESCOPE_BUILD_BENCH=OFF -DROPESCOPE_BUILD_PYTHON=OFF -DROPESCOPE_BUILD_FUZZ=ON \
  "${CCACHE[@]}"
ninja -C build-asan -j"$JOBS"
stage_done "sanitizer build"

echo "== sanitizer tests"
# UBSan findings abort the test (-fno-sanitize-recover=all) in every suite. LeakSanitizer:
# - on for every display-free suite, with the third-party suppressions of tests/lsan.supp
#   (fontconfig's never-finalised configuration, which `ropescope render` loads through Qt's
#   fonts; libvorbis on a damaged header);
# - off for the gui and gpu suites only. Under Xvfb + Mesa llvmpipe + Qt xcb + VTK every GUI
#   process ends with the same 1272 bytes in 4 blocks "leaked" by libdbus-1 and by modules
#   already unloaded at exit (LSan prints "<unknown module>": libraries the GL/Qt stack loads
#   with dlopen and closes before the leak check), so a library-name suppression cannot match
#   them and matching the unknown module would hide ours too. ASan's memory-error checks and
#   UBSan stay on there.
# Per-test timeouts are scaled by ROPESCOPE_SANITIZE_TIMEOUT_SCALE in this build. The abuse
# test sends fewer events here (each is several times slower), with the same pinned seed.
UBSAN="print_stacktrace=1:halt_on_error=1"
LSAN="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
# Reports and leak suppressions are matched on symbolized stacks: llvm-symbolizer (package llvm;
# clang does not bring it). Without it the runtime warns on stderr, which the CLI tests refuse.
llvm-symbolizer --version >/dev/null
# The two sets run side by side (the GUI set's output goes to build-asan/gui-tests.log and is
# printed after): one after the other, the last minutes of each had one long test alone on the
# machine (the abuse tests, the kill test); together 371 s against 412 s.
(cd build-asan && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=$UBSAN \
  ROPESCOPE_ABUSE_EVENTS=${ROPESCOPE_ASAN_ABUSE_EVENTS:-500} \
  ROPESCOPE_ABUSE_SEED=${ROPESCOPE_ABUSE_SEED:-8} \
  ctest --output-on-failure -j"$JOBS" --timeout 1800 -L 'gui|gpu') >build-asan/gui-tests.log 2>&1 &
ASAN_GUI_TESTS=$!
failed=0
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=$UBSAN \
  LSAN_OPTIONS=$LSAN ctest --output-on-failure -j"$JOBS" --timeout 900 -LE 'gui|gpu') || failed=1
wait "$ASAN_GUI_TESTS" || failed=1
ASAN_GUI_TESTS=""
echo "== sanitizer tests: the gui and gpu set (build-asan/gui-tests.log)"
cat build-asan/gui-tests.log
if [ "$failed" != 0 ]; then exit 1; fi
stage_done "sanitizer tests"

echo "== fuzz each parser for ${FUZZ_SECONDS}s (clang, libFuzzer, ASan + UBSan)"
ROPESCOPE_FUZZ_BUILD_DIR=build-asan bash scripts/fuzz.sh "$FUZZ_SECONDS"
stage_done fuzz
