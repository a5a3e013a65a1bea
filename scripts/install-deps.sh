#!/usr/bin/env bash
# Installs the Debian 12 packages ropescope needs to build, run and test. Idempotent.
# Every program a script or test calls comes from one of these (or from the base system):
# tests/install/commands_test.py finds the calls in the sources and checks each one's package.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev nlohmann-json3-dev libsndfile1-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-image-formats-plugins
  libvtk9-dev libgif-dev
  xvfb xauth libgl1-mesa-dri fonts-dejavu-core
  openbox x11-utils
  poppler-utils man-db time git debootstrap
  clang libclang-rt-14-dev llvm clang-format
  python3-dev python3-numpy pybind11-dev python3-pybind11 python3-pytest
  python3-matplotlib python3-skbuild python3-build python3-venv
  desktop-file-utils appstream dpkg-dev file
  libopenblas0-pthread
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# ROPESCOPE_THROWAWAY_MACHINE=1 (.ci/run sets it: CI's machine lives for one run) installs for
# speed over durability: dpkg without an fsync per file, and no manual-page index (man-db's
# trigger; `man -l` reads a page without it). The two halved the install of the 677 packages in
# an empty Debian 12 (docs/dev/testing.md). A person's machine keeps dpkg's and man-db's defaults.
APT_OPTIONS=()
if [ "${ROPESCOPE_THROWAWAY_MACHINE:-0}" = 1 ]; then
  APT_OPTIONS=(-o Dpkg::Options::=--force-unsafe-io)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if [ "${ROPESCOPE_THROWAWAY_MACHINE:-0}" = 1 ]; then
    echo "man-db man-db/auto-update boolean false" | $SUDO debconf-set-selections
  fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${APT_OPTIONS[@]}" "${missing[@]}"
fi
