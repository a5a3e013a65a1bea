#!/usr/bin/env bash
# `cpack -G DEB` from the build's CPack config into a temporary folder, then the package: its
# file list (dpkg-deb -c) and its dependencies (dpkg-shlibdeps's libraries, python3, numpy).
# usage: deb_test.sh BUILD_DIR HAVE_GUI(0|1)
set -euo pipefail
build=$1 gui=${2:-0}
out=$(mktemp -d /tmp/ropescope-deb.XXXXXX)
trap 'rm -rf "$out"' EXIT
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$out" >/dev/null
deb=$(ls "$out"/ropescope_*.deb)
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
id=io.github.ropescope.ropescope
for f in ./usr/bin/ropescope ./usr/share/applications/$id.desktop \
  ./usr/share/metainfo/$id.metainfo.xml ./usr/share/icons/hicolor/scalable/apps/$id.svg \
  ./usr/share/man/man1/ropescope.1 ./usr/share/bash-completion/completions/ropescope \
  ./usr/share/ropescope/samples/castle.png ./usr/lib/python3/dist-packages/ropescope/__init__.py; do
  grep -qxF "$f" <<<"$files" || { echo "not in the package: $f"; exit 1; }
done
grep -q '^./usr/lib/python3/dist-packages/ropescope/_ropescope.*\.so$' <<<"$files"
if [ "$gui" = 1 ]; then
  grep -qxF ./usr/libexec/ropescope/ropescope-gui <<<"$files" || { echo "no ropescope-gui"; exit 1; }
fi
# Nothing outside /usr, no build paths.
if grep -v '^./usr' <<<"$files" | grep -qvx './'; then echo "outside /usr:"; grep -v '^./usr' <<<"$files"; exit 1; fi
depends=$(dpkg-deb -f "$deb" Depends)
for d in libc6 libstdc++6 libsndfile1 python3-numpy "python3 (>="; do
  grep -qF "$d" <<<"$depends" || { echo "Depends lacks $d: $depends"; exit 1; }
done
# The desktop build writes animated GIFs with giflib (dpkg-shlibdeps finds it).
if [ "$gui" = 1 ]; then
  grep -qF libgif7 <<<"$depends" || { echo "Depends lacks libgif7: $depends"; exit 1; }
fi
[ "$(dpkg-deb -f "$deb" Package)" = ropescope ]
echo "$(basename "$deb"): $(wc -l <<<"$files") entries; Depends: $depends"
