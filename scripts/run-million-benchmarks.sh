#!/usr/bin/env bash
# The million-token rows of docs/dev/performance.md, beside a chunked numpy peer in the same run:
# whole `ropescope` processes (wall time and peak memory from /usr/bin/time) of `ids --out X.npy`,
# `budget`, `ptd` and `bias` on two families of layouts scaled from about 1k to 4M tokens,
#   video:        t1000,v<T>x32x32,t1000            (one long video, M-RoPE)
#   interleaved:  (t1000,i32x32) x K, t1000          (K pictures with 1000 text tokens between)
# and tests/bench/peers/million_peer.py (numpy: the same ids block by block, saved as .npy, and
# the running largest id per axis), checking that both wrote the same ids.
# Usage: scripts/run-million-benchmarks.sh [--reps N] [--build DIR] [--max-tokens N] [--no-metrics]
#   --no-metrics  skip ptd and bias (the rows whose cost grows with text x visual pairs)
# Outputs go to ROPESCOPE_BENCH_OUT (default /dev/shm): the disk is not timed. Never a test.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
reps=3
max_tokens=4200000
metrics=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --max-tokens) max_tokens=$2; shift 2 ;;
    --no-metrics) metrics=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "run-million-benchmarks.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
rs=$build/app/ropescope
[[ -x $rs ]] || { echo "run-million-benchmarks.sh: no $rs (build first, or --build DIR)" >&2; exit 2; }
py=/usr/bin/python3
out=${ROPESCOPE_BENCH_OUT:-/dev/shm}
peer=$root/tests/bench/peers/million_peer.py

# median wall seconds and the largest peak memory (MiB) of $reps runs of a command
measure() {
  local walls=() mems=() line
  for _ in $(seq "$reps"); do
    /usr/bin/time -o "$out/time.txt" -f '%e %M' "$@" >/dev/null 2>/dev/null || true
    line=$(tail -1 "$out/time.txt")
    walls+=("${line% *}"); mems+=("${line#* }")
  done
  printf '%s %s\n' "$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "$(( (reps + 1) / 2 ))p")" \
    "$(( $(printf '%s\n' "${mems[@]}" | sort -g | tail -1) / 1024 ))"
}

video() { echo "t1000,v$1x32x32,t1000"; }
interleaved() { local s="" k; for ((k = 0; k < $1; k++)); do s+="t1000,i32x32,"; done; echo "${s}t1000"; }

printf '| layout | tokens | ids .npy s (MiB) | numpy ids + save s | same ids | budget s (MiB) | numpy running max s |'
[[ $metrics == 1 ]] && printf ' ptd s (MiB) | bias s (MiB) |'
printf '\n|---|---|---|---|---|---|---|'
[[ $metrics == 1 ]] && printf -- '---|---|'
printf '\n'
for kind in video interleaved; do
  for n in 1 4 16 64 256 500 1000 2000 4096; do
    spec=$($kind "$n")
    tokens=$("$rs" budget --layout "$spec" --design mrope --format json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["tokens"])')
    (( tokens <= max_tokens )) || continue
    read -r ids_s ids_m < <(measure "$rs" ids --layout "$spec" --design mrope --out "$out/rs-ids.npy")
    read -r bud_s bud_m < <(measure "$rs" budget --layout "$spec" --design mrope --format json)
    p=$("$py" "$peer" --layout "$spec" --out "$out/np-ids.npy" --compare "$out/rs-ids.npy" --repeat "$reps")
    np_ids=$(echo "$p" | "$py" -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["ids_s"])')
    np_max=$(echo "$p" | "$py" -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["running_max_s"])')
    same=$(echo "$p" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["equal_to_ropescope"])')
    label="$kind $n"
    printf '| %s | %s | %s (%s) | %s | %s | %s (%s) | %s |' "$label" "$tokens" "$ids_s" "$ids_m" \
      "$np_ids" "$same" "$bud_s" "$bud_m" "$np_max"
    if [[ $metrics == 1 ]]; then
      read -r ptd_s ptd_m < <(measure timeout 600 "$rs" ptd --layout "$spec" --design mrope)
      read -r bias_s bias_m < <(measure timeout 600 "$rs" bias --layout "$spec" --design mrope)
      printf ' %s (%s) | %s (%s) |' "$ptd_s" "$ptd_m" "$bias_s" "$bias_m"
    fi
    printf '\n'
  done
done
rm -f "$out/rs-ids.npy" "$out/np-ids.npy"
