#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then the installed tree: every file in its place,
# the desktop entry and metainfo valid, the man page and completion well-formed, and the
# installed program and Python module against the reference vectors (pytest).
# usage: install_test.sh BUILD_DIR SOURCE_DIR PYTHON HAVE_GUI(0|1)
set -euo pipefail
build=$1 source=$2 python=$3 gui=${4:-0}
P=$(mktemp -d /tmp/ropescope-install.XXXXXX)
trap 'rm -rf "$P"' EXIT
cmake --install "$build" --prefix "$P" >/dev/null

id=io.github.ropescope.ropescope
for f in bin/ropescope share/applications/$id.desktop share/metainfo/$id.metainfo.xml \
  share/icons/hicolor/scalable/apps/$id.svg share/man/man1/ropescope.1 \
  share/bash-completion/completions/ropescope share/ropescope/samples/castle.png \
  share/ropescope/models/qwen2.5-vl-7b/config.json share/ropescope/presets/roformer-decay.json \
  lib/python3/dist-packages/ropescope/__init__.py; do
  [ -f "$P/$f" ] || { echo "missing: $f"; exit 1; }
done
ls "$P"/lib/python3/dist-packages/ropescope/_ropescope*.so >/dev/null
# The desktop app, which the front execs (found from bin/ as ../libexec/ropescope/).
if [ "$gui" = 1 ]; then [ -x "$P/libexec/ropescope/ropescope-gui" ] || { echo "missing: ropescope-gui"; exit 1; }; fi

desktop-file-validate "$P/share/applications/$id.desktop"
appstreamcli validate --no-net --pedantic "$P/share/metainfo/$id.metainfo.xml" >/dev/null
# The man page: roff without warnings, every command in it.
warnings=$(MANWIDTH=80 man -l --warnings "$P/share/man/man1/ropescope.1" 2>&1 >/dev/null || true)
[ -z "$warnings" ] || { echo "man page: $warnings"; exit 1; }
# The completion: valid bash that completes commands, options and values.
bash -n "$P/share/bash-completion/completions/ropescope"
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ropescope 2>/dev/null
           echo "${COMPREPLY[*]}"' _ "$P/share/bash-completion/completions/ropescope" "$@"
}
[ "$(complete_words ropescope che)" = check-ids ]
[ "$(complete_words ropescope decay --max-d)" = --max-distance ]
[[ " $(complete_words ropescope ids --design ci) " == *" circle "* ]]

cd "$P"
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$P/lib/python3/dist-packages" ROPESCOPE_BIN="$P/bin/ropescope" \
  ROPESCOPE_SOURCE_DIR="$source" ROPESCOPE_EXPECT_PREFIX="$P" \
  "$python" -m pytest -q -p no:cacheprovider --rootdir "$source" \
  "$source/python/tests" "$source/tests/install/test_installed_cli.py"
