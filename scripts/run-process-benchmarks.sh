#!/usr/bin/env bash
# Whole-process and one-pass attention benchmarks beside their peers, in one run:
#   - `ropescope ptd` on a 9-token layout vs `python3 -S -c pass` (both whole processes);
#   - `ropescope decay --max-distance 100000` (whole process, JSON to a file) vs numpy in-process;
#   - `ropescope attention --rows 0:16384 --softmax --out X.npy` (N 16384, d 128, whole process)
#     vs numpy + OpenBLAS in-process (rotation, q k^T, softmax), on 1 and 2 threads;
#   - the logits' FLOP rate (bench_attention) vs OpenBLAS sgemm on 1 and 2 threads.
# Outputs go to ROPESCOPE_BENCH_OUT (default /dev/shm): the disk is not timed.
# Usage: scripts/run-process-benchmarks.sh [--reps N] [--no-build] [--decay-only]
#   --decay-only  only the start-up and decay rows (skips the 1 GiB attention runs)
#   ROPESCOPE_BENCH_BUILD  build folder (default: build-bench in the repository)
# Never run as a test: timings depend on the machine and its load.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${ROPESCOPE_BENCH_BUILD:-$root/build-bench}
reps=3
do_build=1
attention=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --decay-only) attention=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "run-process-benchmarks.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
py=/usr/bin/python3  # Debian's python3 with python3-numpy (OpenBLAS pthreads)
peers=$root/tests/bench/peers
out=$build/bench-results-process
export ROPESCOPE_BENCH_OUT=${ROPESCOPE_BENCH_OUT:-/dev/shm}

if [[ $do_build == 1 ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DROPESCOPE_BUILD_GUI=OFF \
    -DROPESCOPE_BUILD_BENCH=ON >/dev/null
  ninja -C "$build" -j2 bench_process bench_attention ropescope
fi
bin=$build/tests/bench
rm -rf "$out" && mkdir -p "$out"
cut -d' ' -f1-3 /proc/loadavg >"$out/load.txt"

gb() {  # output name, program, args...
  local name=$1 prog=$2; shift 2
  echo "== $name" >&2
  "$bin/$prog" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json "$@" >/dev/null
}
gb process bench_process --benchmark_filter='python|ptd|decay' --benchmark_min_time=1
echo "== numpy decay" >&2
OPENBLAS_NUM_THREADS=1 "$py" "$peers/decay_peer.py" --max-distance 100000 --repeat "$reps" \
  >"$out/peer_decay.json"
# Process CPU time (user + sys) of 20 decay runs, against numpy's in-process CPU time: the ratio
# that other load on the machine moves least.
/usr/bin/time -f '%U %S' -o "$out/decay_cpu.txt" bash -c \
  "for i in \$(seq 20); do '$build/app/ropescope' decay --plan vanilla --max-distance 100000 \
     --head-dim 128 --base 10000 >/dev/null; done"
for t in 1 2; do
  [[ $attention == 1 ]] || break
  gb "attention_process_t$t" bench_process \
    --benchmark_filter="attention-rows-softmax/n:16384/threads:$t"
  ROPESCOPE_BENCH_THREADS=$t gb "attention_kernels_t$t" bench_attention \
    --benchmark_filter='CpuLogits/16384|CpuOnePassRows/16384'
  echo "== numpy attention, $t BLAS thread(s)" >&2
  OPENBLAS_NUM_THREADS=$t OMP_NUM_THREADS=$t "$py" "$peers/attention_peer.py" --n 16384 \
    --repeat "$reps" >"$out/peer_attention_t$t.json"
done
cut -d' ' -f1-3 /proc/loadavg >>"$out/load.txt"

"$py" - "$out" <<'EOF'
import glob, json, os, sys

out = sys.argv[1]
bench = {}
for p in glob.glob(f"{out}/*.json"):
    if os.path.basename(p).startswith("peer_"):
        continue
    runs = json.load(open(p))["benchmarks"]
    for b in runs:
        if b.get("aggregate_name", "median") != "median":
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        name = b["run_name"].removesuffix("/real_time").removesuffix("/iterations:1")
        bench[(os.path.basename(p)[:-5], name)] = (
            b["real_time"] * scale, b.get("GFLOPs"))
peer = {os.path.basename(p)[5:-5]: json.load(open(p)) for p in glob.glob(f"{out}/peer_*.json")}

def ms(file, name):
    return bench[(file, name)][0]

load = open(f"{out}/load.txt").read().split("\n")
print(f"load average before: {load[0]}; after: {load[1]} (2 CPUs: other load makes noise)\n")
rows = []
py_ms, ptd_ms = ms("process", "process/python3-S-pass"), ms("process", "process/ptd-tiny")
rows.append(("ptd t3,i2x2,t2, whole process", ptd_ms, "python3 -S -c pass", py_ms, py_ms / ptd_ms, "> 1x"))
dec_ms, np_dec = ms("process", "process/decay-100000"), peer["decay"]["median_s"] * 1e3
rows.append(("decay 100 000, whole process", dec_ms, "numpy in-process", np_dec, np_dec / dec_ms, ">= 20x"))
user, sys_ = map(float, open(f"{out}/decay_cpu.txt").read().split()[-2:])
dec_cpu, np_cpu = (user + sys_) / 20 * 1e3, peer["decay"]["cpu_median_s"] * 1e3
rows.append(("decay 100 000, process CPU (user+sys)", dec_cpu, "numpy CPU in-process", np_cpu,
             np_cpu / dec_cpu, "(info)"))
for t in (1, 2) if "attention_t1" in peer else ():
    a = ms(f"attention_process_t{t}", f"process/attention-rows-softmax/n:16384/threads:{t}")
    npw = peer[f"attention_t{t}"]["whole_pass_s"] * 1e3
    rows.append((f"attention N 16384 rows+softmax, {t} thr", a, "numpy+OpenBLAS in-proc", npw,
                 npw / a, ">= 1.5x"))
print(f"{'case':40} {'ropescope ms':>12}  {'peer':24} {'peer ms':>9} {'ratio':>7}  target")
for case, c, pname, p, r, target in rows:
    print(f"{case:40} {c:12.2f}  {pname:24} {p:9.2f} {r:6.2f}x  {target}")
print(f"\n{'logits FLOP rate, N 16384 d 128':40} {'GFLOP/s':>9} {'sgemm GFLOP/s':>14} {'share':>7}  target")
for t in (1, 2) if "attention_t1" in peer else ():
    sg = peer[f"attention_t{t}"]["matmul_gflops"]
    for label, key in (("logits only (rows, logits)", "BM_CpuLogits/16384"),
                       ("one pass rows+softmax (effective)", "BM_CpuOnePassRows/16384")):
        g = bench[(f"attention_kernels_t{t}", key)][1] / 1e9
        print(f"{label + f', {t} thr':40} {g:9.1f} {sg:14.1f} {100 * g / sg:6.1f}%  "
              f"{'>= 85%' if key.startswith('BM_CpuLogits') else '(info)'}")
EOF
