"""The wheel's build (pyproject.toml): scikit-build runs the project's CMake with the desktop app,
tests and benchmarks off, and installs the Python package (python/ropescope with _ropescope*.so,
py.typed and the stub) and the command line (bin/ropescope, its man page) into the wheel. The
model configs and sample pictures are compiled into both (core/shipped), so the wheel needs no
data folder."""

import os
import re
import sys

from skbuild import setup
from skbuild.constants import CMAKE_INSTALL_DIR

HERE = os.path.dirname(os.path.abspath(__file__))


def cmake_project_version():
    """The one version: CMakeLists.txt's project(ropescope VERSION x.y.z)."""
    with open(os.path.join(HERE, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"^project\(ropescope\s+VERSION\s+([0-9][0-9.]*)\b", f.read(), re.M)
    if not m:
        raise SystemExit("setup.py: no project(ropescope VERSION x.y.z) in CMakeLists.txt")
    return m.group(1)


# What of `cmake --install` goes into the wheel: the package, the program and its man page (the
# desktop entry, icons and share/ropescope are the desktop app's and the .deb's).
WHEEL_FILES = re.compile(r"^(python/ropescope/.*|bin/ropescope|share/man/man1/ropescope\.1)$")


def wheel_files(manifest):
    root = CMAKE_INSTALL_DIR()
    return [path for path in manifest
            if WHEEL_FILES.match(os.path.relpath(path, root).replace(os.sep, "/"))]


setup(
    version=cmake_project_version(),
    packages=["ropescope"],
    package_dir={"ropescope": "python/ropescope"},
    package_data={"ropescope": ["py.typed", "*.pyi"]},
    cmake_args=[
        "-DROPESCOPE_BUILD_GUI=OFF",
        "-DROPESCOPE_BUILD_TESTS=OFF",
        "-DROPESCOPE_BUILD_BENCH=OFF",
        "-DROPESCOPE_BUILD_PYTHON=ON",
        # The package inside the install tree where package_dir puts it in the wheel, built for
        # the interpreter that runs the build (a virtual environment's python3).
        "-DROPESCOPE_PYTHON_INSTALL_DIR=python",
        f"-DPython3_EXECUTABLE={sys.executable}",
        "-DCMAKE_INSTALL_LIBDIR=lib",
    ],
    cmake_process_manifest_hook=wheel_files,
)
