#!/usr/bin/env bash
# The fresh-machine check of `pip install .` (docs/user/python.md, "Install"): in a minimal
# Debian 12 (the base system scripts/fresh-debian-check.sh makes into FOLDER.base), a clean clone
# of this repository's HEAD, scripts/install-deps.sh, a virtual environment with
# --system-site-packages, `pip install --no-build-isolation --no-index .`, and then the recipe's
# one-liner (a decay plot, headless), the versions of the module and of the installed program,
# and a million-token layout's ids from the installed module.
#
# Usage (as root, after scripts/fresh-debian-check.sh has made the base system once):
#   scripts/fresh-debian-pip-check.sh [FOLDER]     default FOLDER: /srv/ropescope-fresh
# The run happens in FOLDER-pip (made afresh); its output is printed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-/srv/ropescope-fresh}.base
root=${1:-/srv/ropescope-fresh}-pip
if [ "$(id -u)" != 0 ]; then
  echo "fresh-debian-pip-check.sh: needs root (mount, chroot)" >&2
  exit 2
fi
if [ ! -x "$base/usr/bin/apt-get" ]; then
  echo "fresh-debian-pip-check.sh: no base system in $base (run scripts/fresh-debian-check.sh once)" >&2
  exit 2
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
~/venvs/rs/bin/pip install --no-build-isolation --no-index . >/tmp/pip.log 2>&1 ||
  { tail -40 /tmp/pip.log; exit 1; }
echo "pip install: $(( $(date +%s) - start )) s"
cd /tmp
MPLBACKEND=Agg ~/venvs/rs/bin/python -c "import ropescope; ropescope.decay(plan=\"vanilla\").plot()"
echo "decay plot: ok"
echo "module $(~/venvs/rs/bin/python -c "import ropescope; print(ropescope.__version__)"), program $(~/venvs/rs/bin/ropescope --version)"
~/venvs/rs/bin/python -c "import ropescope; print(\"1M-token ids:\", ropescope.ids(\"t1000,v1000x32x32,t1000\", design=\"mrope\").shape)"
'
