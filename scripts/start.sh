#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is needed, build, start the app on the
# default scene (under Xvfb when there is no display, e.g. over ssh: then it only proves startup).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh -DROPESCOPE_BUILD_BENCH=OFF
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/app/ropescope "$@"
else
  echo "no display: starting under xvfb-run (nothing will be visible)"
  exec xvfb-run -a -s "-screen 0 1600x1000x24" ./build/app/ropescope "$@"
fi
