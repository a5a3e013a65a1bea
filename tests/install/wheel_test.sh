#!/usr/bin/env bash
# The wheel as a researcher gets it: built once from a copy of the sources (python3 -m build
# --wheel --no-isolation, scikit-build and the project's CMake, offline), installed into a fresh
# virtual environment (--system-site-packages: numpy, pytest and matplotlib from Debian), then
# the module's tests against the installed package, away from the source and the build trees.
# The core and command-line libraries are this build's (BUILD_DIR, ROPESCOPE_PREBUILT_DIR in
# CMakeLists.txt): the release build compiles and tests them; this test is of the packaging, the
# install and the module's behaviour. `pip install .` without it compiles everything.
# usage: wheel_test.sh SOURCE_DIR PYTHON BUILD_DIR
set -euo pipefail
source=$1 python=$2 build=$3
# The installed package alone: no build tree on the path, no resource folder given.
unset PYTHONPATH ROPESCOPE_RESOURCES
W=$(mktemp -d /tmp/ropescope-wheel.XXXXXX)
trap 'rm -rf "$W"' EXIT

# The sources a clone has: every top-level entry but build folders and earlier pip builds.
mkdir "$W/src"
for f in "$source"/* "$source"/.gitignore; do
  case "${f##*/}" in build* | _skbuild | dist | *.egg-info) ;; *) cp -a "$f" "$W/src/" ;; esac
done
start=$(date +%s)
# The module's own sources compiled at -O1 (SKBUILD_CONFIGURE_OPTIONS comes after setup.py's
# arguments): the release build compiles and tests the same sources at -O3.
(cd "$W/src" && CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) SKBUILD_CONFIGURE_OPTIONS="-DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 \
  -DROPESCOPE_PREBUILT_DIR=$build" "$python" -m build --wheel --no-isolation --outdir "$W/dist" .) >"$W/build.log" 2>&1 ||
  { tail -n 40 "$W/build.log"; echo "wheel_test: the wheel build failed"; exit 1; }
echo "wheel built in $(($(date +%s) - start)) s: $(cd "$W/dist" && echo *.whl)"
wheel=$(echo "$W"/dist/ropescope-*.whl)

# What the wheel holds: the package with its module, stub and py.typed, the program and its
# man page; not the desktop app's files.
"$python" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = ["ropescope/__init__.py", "ropescope/__init__.pyi", "ropescope/py.typed",
        "ropescope/_results.py", "ropescope/_plots.py"]
missing = [n for n in need if n not in names]
if not any(n.startswith("ropescope/_ropescope") and n.endswith(".so") for n in names):
    missing.append("ropescope/_ropescope*.so")
if not any(n.endswith(".data/data/bin/ropescope") for n in names):
    missing.append("bin/ropescope")
extra = [n for n in names if "applications" in n or "metainfo" in n or "/icons/" in n]
if missing or extra:
    sys.exit(f"wheel: missing {missing}, unexpected {extra}")
PY

"$python" -m venv --system-site-packages "$W/venv"
"$W/venv/bin/python" -m pip install --no-index --no-deps --quiet "$wheel"
cd "$W"
# The installed package, not the source's or the build tree's; the program beside it agrees.
"$W/venv/bin/python" - "$W/venv" <<'PY'
import os, subprocess, sys
import ropescope
venv = sys.argv[1]
assert ropescope.__file__.startswith(os.path.join(venv, "lib")), ropescope.__file__
out = subprocess.run([os.path.join(venv, "bin", "ropescope"), "--version"], check=True,
                     capture_output=True, text=True).stdout.split()
assert out == ["ropescope", ropescope.__version__], (out, ropescope.__version__)
assert "qwen2.5-vl-7b" in ropescope.models()  # the configs inside the module
print("installed:", ropescope.__file__, ropescope.__version__)
PY
PYTHONDONTWRITEBYTECODE=1 ROPESCOPE_SOURCE_DIR="$source" "$W/venv/bin/python" -m pytest -q \
  -p no:cacheprovider --rootdir "$source/python/tests" "$source/python/tests"
