#!/usr/bin/env bash
# The fresh-machine check: CI's run on a machine where nothing was installed by hand. Makes a
# minimal Debian 12 (debootstrap --variant=minbase bookworm: the base system and apt, no man, no
# python3, no compiler), puts a clean clone of this repository's HEAD in it and runs `bash
# .ci/run` there under chroot, as root, without a compiler cache; prints its stage table.
#
# Usage (as root, on a Debian machine with network access to its archive):
#   scripts/fresh-debian-check.sh [FOLDER]     default FOLDER: /srv/ropescope-fresh
# The base system is made once into FOLDER.base and copied afresh for every run, so a second
# run starts as clean as the first. The run's output is in FOLDER/ci.log.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/srv/ropescope-fresh}
base=$root.base
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
echo "== bash .ci/run in the fresh system (log: $root/ci.log)"
status=0
chroot "$root" /usr/bin/env -i HOME=/root CI=true LANG=C.UTF-8 \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  bash -c 'cd /work/ropescope && bash .ci/run' </dev/null >"$root/ci.log" 2>&1 || status=$?
sed -n '/^== stage times/,$p' "$root/ci.log"
echo "== .ci/run exited $status"
exit "$status"
