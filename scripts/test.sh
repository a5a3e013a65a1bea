#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is needed, build, run every test
# (core, golden vectors, CLI, GUI under Xvfb), then the core, golden and CLI suites again in an
# AddressSanitizer + UndefinedBehaviorSanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
JOBS=$(nproc)

echo "== release build and full test suite"
bash scripts/build.sh -DROPESCOPE_BUILD_BENCH=ON
# Display-free suites in parallel; the suites that start their own Xvfb one at a time.
(cd build && ctest --output-on-failure -j"$JOBS" --timeout 600 -LE 'gui|gpu')
(cd build && ctest --output-on-failure --timeout 600 -L 'gui|gpu')

echo "== ASan + UBSan build of the core, golden and CLI tests"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROPESCOPE_SANITIZE=ON \
  -DROPESCOPE_BUILD_GUI=OFF -DROPESCOPE_BUILD_BENCH=OFF
cmake --build build-asan -j"$JOBS"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j"$JOBS" --timeout 900 -L 'core|golden|cli')
