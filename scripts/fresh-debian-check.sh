#!/usr/bin/env bash
# The fresh-machine check: CI's run on a machine where nothing was installed by hand. Makes a
# minimal Debian 12 (debootstrap --variant=minbase bookworm: the base system and apt, no man, no
# python3, no compiler), puts a clean clone of this repository's HEAD in it and runs `bash
# .ci/run` there under chroot, as root, without a compiler cache; prints its stage table.
#
# With --pip it runs the Python install recipe of docs/user/python.md there instead: install-deps,
# a venv with --system-site-packages, `pip install --no-build-isolation --no-index .`, the decay
# plot one-liner (headless), the module's and the installed program's versions, and a
# million-token layout's ids from the installed module.
#
# Usage (as root, on a Debian machine with network access to its archive):
#   scripts/fresh-debian-check.sh [--pip] [FOLDER]     default FOLDER: /srv/ropescope-fresh
# The base system is made once into FOLDER.base and copied afresh for every run, so a second
# run starts as clean as the first. The run's output is in FOLDER/ci.log (FOLDER-pip/pip.log).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
pip=0
if [ "${1:-}" = --pip ]; then
  pip=1
  shift
fi
root=${1:-/srv/ropescope-fresh}
base=$root.base
if [ "$pip" = 1 ]; then root=$root-pip; fi
mirror=${ROPESCOPE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [ "$(id -u)" != 0 ]; then
  echo "fresh-debian-check.sh: needs root (debootstrap, mount, chroot)" >&2
  exit 2
fi
if [ ! -x "$base/usr/bin/apt-get" ]; then
  echo "== debootstrap --variant=minbase bookworm into $base"
  debootstrap --variant=minbase bookworm "$base" "$mirror" >"$root.debootstrap.log" 2>&1 || {
    echo "fresh-debian-check.sh: debootstrap failed; see $root.debootstrap.log" >&2
    exit 1
  }
fi
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
rm -rf "$root"
cp -a "$base" "$root"
git clone -q "$repo" "$root/work/ropescope"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for d in proc sys dev dev/pts; do
  mount --bind "/$d" "$root/$d"
  mounted+=("$root/$d")
done
mount -t tmpfs tmpfs "$root/dev/shm"
mounted+=("$root/dev/shm")
if [ "$pip" = 1 ]; then
  echo "== the pip install recipe in the fresh system (log: $root/pip.log)"
  status=0
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 ROPESCOPE_THROWAWAY_MACHINE=1 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin bash -c '
set -euo pipefail
cd /work/ropescope
apt-get update >/dev/null
start=$(date +%s)
bash scripts/install-deps.sh >/tmp/deps.log 2>&1
echo "install-deps: $(( $(date +%s) - start )) s"
python3 -m venv --system-site-packages ~/venvs/rs
start=$(date +%s)
~/venvs/rs/bin/pip install --no-build-isolation --no-index . >/tmp/pip-install.log 2>&1 ||
  { tail -40 /tmp/pip-install.log; exit 1; }
echo "pip install: $(( $(date +%s) - start )) s"
cd /tmp
MPLBACKEND=Agg ~/venvs/rs/bin/python -c "import ropescope; ropescope.decay(plan=\"vanilla\").plot()"
echo "decay plot: ok"
echo "module $(~/venvs/rs/bin/python -c "import ropescope; print(ropescope.__version__)"), program $(~/venvs/rs/bin/ropescope --version)"
~/venvs/rs/bin/python -c "import ropescope; print(\"1M-token ids:\", ropescope.ids(\"t1000,v1000x32x32,t1000\", design=\"mrope\").shape)"
' </dev/null >"$root/pip.log" 2>&1 || status=$?
  cat "$root/pip.log"
  echo "== the pip recipe exited $status"
  exit "$status"
fi
echo "== bash .ci/run in the fresh system (log: $root/ci.log)"
status=0
chroot "$root" /usr/bin/env -i HOME=/root CI=true LANG=C.UTF-8 \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  bash -c 'cd /work/ropescope && bash .ci/run' </dev/null >"$root/ci.log" 2>&1 || status=$?
sed -n '/^== stage times/,$p' "$root/ci.log"
echo "== .ci/run exited $status"
exit "$status"
