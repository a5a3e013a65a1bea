#!/bin/sh
# Rewrites the README's screenshots of the main window (resources/screenshots/main_window.png,
# compare_mode.png, picture_on_cone.png, picture_hard.png, attention.png) from
# a build with tests: scripts/readme-screenshots.sh [BUILD_DIR] [--light]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift 2>/dev/null || true
tool=$build/tests/ui/readme_screenshots
[ -x "$tool" ] || { echo "readme-screenshots: $tool not built (cmake --build $build --target readme_screenshots)" >&2; exit 2; }
QT_QPA_PLATFORM=xcb QT_SCALE_FACTOR=1 LIBGL_ALWAYS_SOFTWARE=1 \
  xvfb-run -a -s "-screen 0 1920x1200x24" "$tool" "$here/resources/screenshots" "$@"
