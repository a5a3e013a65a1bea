#!/usr/bin/env bash
# Builds the Release benchmarks, runs every C++ benchmark and its numpy peer in the same run, checks
# that both computed the same numbers, and prints the comparison table with the issue-2 targets.
#
# Usage: scripts/run-benchmarks.sh [--reps N] [--no-build] [--no-variants] [--native]
#   --no-variants  skip core rebuilt with -fno-math-errno; --native: also with -march=native
#   --report-only  print the table again from the last run's results
#   --click  only the GUI benchmarks: bench_click (a token click on t1000,i500x500 in the main
#            window, target 50 ms) and bench_alpha_drag (Circle-RoPE's alpha dragged on a
#            4096-token scene, target 30 fps): built with the GUI in ROPESCOPE_CLICK_BUILD
#            (default: build), run under xvfb-run with software OpenGL
#   ROPESCOPE_BENCH_BUILD  build folder (default: build-bench in the repository)
# Results (JSON) stay in <build>/bench-results. Never run as a test: timings depend on the machine.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${ROPESCOPE_BENCH_BUILD:-$root/build-bench}
reps=3
do_build=1
variants=ON
native=0
report_only=0
click=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --no-variants) variants=OFF; shift ;;
    --native) native=1; shift ;;
    --report-only) report_only=1; shift ;;
    --click) click=1; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "run-benchmarks.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [[ $click == 1 ]]; then
  click_build=${ROPESCOPE_CLICK_BUILD:-$root/build}
  [[ $do_build == 1 ]] && ninja -C "$click_build" -j2 bench_click bench_alpha_drag
  for bench in bench_click bench_alpha_drag; do
    QT_QPA_PLATFORM=xcb LIBGL_ALWAYS_SOFTWARE=1 QT_SCALE_FACTOR=1 \
      xvfb-run -a -s "-screen 0 1600x1200x24" "$click_build/tests/bench/$bench" \
      --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=false
  done
  exit 0
fi

py=/usr/bin/python3  # Debian's python3 with python3-numpy (OpenBLAS via update-alternatives)
peers=$root/tests/bench/peers
out=$build/bench-results
benches=(bench_floor bench_ptd bench_decay bench_bias bench_live)
variant_names=(nomatherrno)  # core rebuilt with -fno-math-errno (--native: also -march=native)
[[ $native == 1 ]] && variant_names+=(native)
if [[ $variants == ON ]]; then
  for v in "${variant_names[@]}"; do
    benches+=(bench_ptd_$v bench_decay_$v bench_bias_$v bench_live_$v)
  done
fi

if [[ $report_only == 1 ]]; then
  do_build=0
fi
if [[ $do_build == 1 ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DROPESCOPE_BUILD_GUI=OFF \
    -DROPESCOPE_BUILD_BENCH=ON -DROPESCOPE_BENCH_CORE_VARIANTS=$variants >/dev/null
  ninja -C "$build" -j2 "${benches[@]}"
fi
bin=$(dirname "$(find "$build" -name bench_ptd -type f -perm -u+x | head -n 1)")
[[ -x $bin/bench_ptd ]] || { echo "run-benchmarks.sh: bench_ptd not built in $build" >&2; exit 1; }
if [[ $report_only == 0 ]]; then
rm -rf "$out" && mkdir -p "$out"
cut -d' ' -f1-3 /proc/loadavg >"$out/load.txt"

gbench() {  # name, extra args...: repetitions, medians to JSON, console copy to .txt
  local name=$1; shift
  echo "== $name $*" >&2
  "$bin/$name" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json "$@" >"$out/$name.txt"
}
peer() {  # threads, output name, script, args...
  local threads=$1 name=$2 script=$3; shift 3
  echo "== numpy $name (OPENBLAS_NUM_THREADS=$threads)" >&2
  OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads \
    "$py" "$peers/$script" --repeat "$reps" "$@" >"$out/peer_$name.json"
}

# Checksums (and the ids / curves the peers compare against), outside any timing.
"$bin/bench_ptd" --check --ids-dir="$out" >"$out/check_ptd.jsonl"
"$bin/bench_decay" --check --ids-dir="$out" >"$out/check_decay.jsonl"
"$bin/bench_bias" --check --ids-dir="$out" >"$out/check_bias.jsonl"
"$bin/bench_live" --check >"$out/check_live.jsonl"
params() {  # design parameters (core's defaults) from the PTD check line
  "$py" -c 'import json,sys; [print(json.dumps(r["params"])) for r in map(json.loads, open(sys.argv[1])) if r["case"] == sys.argv[2]]' \
    "$out/check_ptd.jsonl" "ptd/$1"
}

gbench bench_floor
gbench bench_ptd
for d in mrope circle; do
  peer 1 "ptd_$d" ptd_peer.py --design "$d" --params "$(params "$d")" --ids-npy "$out/ids_ptd_$d.npy"
done
# PTD at scale: (A), (B) and the 1k..4M series; the peer computes 64 sampled text rows (the
# rows bench_ptd --check-scale sums) and its time is extrapolated to all rows.
"$bin/bench_ptd" --check-scale >"$out/check_ptd_scale.jsonl"
"$py" -c 'import json,sys; [print(r["case"].split("/")[-1], r["layout_full"]) for r in map(json.loads, open(sys.argv[1])) if "layout_full" in r]' \
  "$out/check_ptd_scale.jsonl" | while read -r name layout; do
  peer 1 "ptd_scale_$name" ptd_peer.py --layout "$layout" --sample 64 --params "$(params mrope)"
done
gbench bench_decay
peer 1 decay decay_peer.py --reference-npy "$out/decay_vanilla128.npy"
gbench bench_bias
for d in mrope circle; do
  peer 1 "bias_direct_$d" bias_peer.py --design "$d" --form direct --params "$(params "$d")" \
    --ids-npy "$out/ids_bias_$d.npy" --pairs-npy "$out/pairs_bias.npy"
  for t in 1 2; do
    peer "$t" "bias_gemm_${d}_t$t" bias_peer.py --design "$d" --form gemm --params "$(params "$d")" \
      --ids-npy "$out/ids_bias_$d.npy" --pairs-npy "$out/pairs_bias.npy"
  done
done
peer 1 dgemm_roofline dgemm_peer.py
gbench bench_live
if [[ $variants == ON ]]; then
  for v in "${variant_names[@]}"; do
    gbench bench_ptd_$v --benchmark_filter='ptd/(ids\+ptd|ptd-only)/'
    gbench bench_decay_$v --benchmark_filter='curve'
    gbench bench_bias_$v
    gbench bench_live_$v
  done
fi

# Peak RSS of one ids + PTD run (131 M distances) and of the numpy peer: memory stays O(N).
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'; }
rss_cpp=$(rss "$bin/bench_ptd" --benchmark_filter='^ptd/ids\+ptd/mrope/threads:1' --benchmark_min_time=0)
rss_ids=$(rss "$bin/bench_ptd" --benchmark_filter='^ptd/ids-only/mrope' --benchmark_min_time=0)
rss_np=$(OPENBLAS_NUM_THREADS=1 rss "$py" "$peers/ptd_peer.py" --repeat 1 --params "$(params mrope)")
printf '{"rss_kib_ptd": %s, "rss_kib_ids_only": %s, "rss_kib_numpy_ptd": %s}\n' \
  "$rss_cpp" "$rss_ids" "$rss_np" >"$out/rss.json"

cut -d' ' -f1-3 /proc/loadavg >>"$out/load.txt"
fi  # report_only

"$py" - "$out" "$reps" <<'EOF'
import glob, json, math, os, sys

out, reps = sys.argv[1], sys.argv[2]

def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]

checks = {r["case"]: r for p in glob.glob(f"{out}/check_*.jsonl") for r in lines(p)}
peer = {os.path.basename(p)[5:-5]: lines(p)[0] for p in glob.glob(f"{out}/peer_*.json")}
cpp = {}  # benchmark name -> (median real time in ms, ns per distance or None)
for p in glob.glob(f"{out}/bench_*.json"):
    variant = os.path.basename(p)[:-5].split("_")[2:]
    prefix = f"core-{variant[0]}:" if variant else ""
    runs = json.load(open(p))["benchmarks"]
    medians = any(b.get("aggregate_name") == "median" for b in runs)
    for b in runs:  # medians of the repetitions; the single run with --reps 1
        if medians and b.get("aggregate_name") != "median":
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        name = prefix + b["run_name"].removesuffix("/real_time")
        cpp[name] = (b["real_time"] * scale, b.get("ns_per_distance"), b["cpu_time"] * scale)

def ms(name):
    return cpp.get(name, (math.nan, None))[0]

def cpu_ms(name):
    return cpp.get(name, (math.nan, None, math.nan))[2]

def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)

def same(case, pname, keys, tol=1e-9):
    c, p = checks.get(case), peer.get(pname)
    if not c or not p:
        return False, "missing"
    worst = max(rel(c[k], p[k]) for k in keys)
    extra = [p.get(k, 0.0) for k in ("ids_max_abs_diff", "max_rel_diff", "pairs_theta_max_rel_diff")]
    ok = worst <= tol and all(x <= 1e-9 for x in extra)
    return ok, f"{worst:.1e}"

rows = []
variants = {"nomatherrno": "-fno-math-errno", "native": "-fno-math-errno -march=native"}
def row(case, key1, key2, pname, target, ok_check, note="", flag_rows=True):
    """C++ benchmarks key1 (1 thread) and key2 (2 threads) against numpy peer pname. Ratios of
    wall-time medians; the CPU ratio compares process CPU times on one thread."""
    np_ms, np_cpu = peer[pname]["median_s"] * 1e3, peer[pname]["cpu_median_s"] * 1e3
    def add(label, prefix):
        c1, c2 = ms(prefix + key1), ms(prefix + key2) if key2 else math.nan
        rows.append((label, c1, c2, np_ms, np_ms / c1, np_ms / c2, np_cpu / cpu_ms(prefix + key1),
                     target if not prefix else "(flag test)", ok_check, note if not prefix else ""))
    add(case, "")
    for v, flags in variants.items():  # the same core sources built with candidate flags
        if flag_rows and f"core-{v}:{key1}" in cpp:
            add(f"  core {flags}", f"core-{v}:")
    return rows[-1 - sum(flag_rows and f"core-{v}:{key1}" in cpp for v in variants)][4:6]

verdicts = []
def verdict(name, ok):
    verdicts.append((name, "PASS" if ok else "FAIL"))

for d in ("mrope", "circle"):
    ok, diff = same(f"ptd/{d}", f"ptd_{d}", ["ptd", "sum_mean_distance", "sum_per_text"])
    r1, r2 = row(f"PTD ids+PTD {d}", f"ptd/ids+ptd/{d}/threads:1", f"ptd/ids+ptd/{d}/threads:2",
                 f"ptd_{d}", ">=7x / >=12x", (ok, diff))
    verdict(f"PTD {d}: >= 7x numpy on 1 core ({r1:.1f}x)", ok and r1 >= 7)
    verdict(f"PTD {d}: >= 12x numpy on 2 cores ({r2:.1f}x)", ok and r2 >= 12)
    pc = checks[f"ptd/{d}"]
    for kind in ("exact", "rsqrt", "exact-dedupe", "rsqrt-dedupe"):
        err = rel(pc[f"prototype_{kind}_ptd"], pc["ptd"])
        pok = ok and err <= 1e-9 and pc[f"prototype_{kind}_mean_maxrel"] <= 1e-9
        row(f"  prototype-{kind} {d}", f"ptd/ids+prototype-{kind}/{d}/threads:1",
            f"ptd/ids+prototype-{kind}/{d}/threads:2", f"ptd_{d}", "(bench kernel)",
            (pok, f"{err:.1e}"), flag_rows=False)

# PTD at scale against the sampled numpy peer (its time extrapolated from 64 rows).
scale = [r for r in checks.values() if r["case"].startswith("ptd/scale/") and "tokens" in r]
for r in sorted(scale, key=lambda r: (r["case"][10] not in "AB", r["tokens"])):
    name = r["case"].split("/")[-1]
    pname = f"ptd_scale_{name}"
    if pname not in peer:
        continue
    p = peer[pname]
    worst = max(rel(r[k], p[k]) for k in ("sum_per_text_sampled", "sum_mean_distance_sampled"))
    ok = worst <= 1e-12 and r["sampled_direct_maxrel"] <= 1e-12
    r1, r2 = row(f"PTD {name} ({r['tokens']:,} tokens)", f"ptd/scale/{name}/threads:1",
                 f"ptd/scale/{name}/threads:2", pname,
                 "<=1 s (2 cores)" if name.startswith("A") else
                 "<=5 s (2 cores)" if name.startswith("B") else "(scaling)",
                 (ok, f"{worst:.1e}"), "numpy time extrapolated from 64 rows", flag_rows=False)
    if name[0] in "AB":
        limit = 1000 if name[0] == "A" else 5000
        two = ms(f"ptd/scale/{name}/threads:2")
        verdict(f"PTD {name}: <= {limit / 1000:.0f} s on 2 cores ({two / 1000:.2f} s), exact to 1e-12",
                ok and two <= limit)

ok, diff = same("decay/vanilla128", "decay", ["sum", "u10", "u200", "ulast"])
r1, _ = row("Decay 100k d=128", "decay/vanilla128/curve/threads:1",
            "decay/vanilla128/curve/threads:2", "decay", ">=20x", (ok, diff),
            f"max elementwise rel {peer['decay'].get('max_rel_diff', math.nan):.1e}")
verdict(f"Decay: >= 20x numpy ({r1:.1f}x)", ok and r1 >= 20)
dc = checks["decay/vanilla128"]
for anchor in (256, 4096):
    err = dc[f"prototype{anchor}_vs_exact_max_rel"]
    row(f"  prototype, anchor every {anchor}", f"decay/vanilla128/prototype-anchor{anchor}/threads:1",
        f"decay/vanilla128/prototype-anchor{anchor}/threads:2", "decay", "(bench kernel)",
        (err <= 1e-9, f"{err:.1e}"), "check = max rel vs exact trig", flag_rows=False)
row("  decay reference (trig)", "decay/vanilla128/reference-trig", None, "decay", "(info)",
    (ok, diff), flag_rows=False)
for d in ("mrope", "circle"):
    keys = ["spread", "sum_mean_bias", "sum_per_text"]
    ok, diff = same(f"bias/{d}", f"bias_direct_{d}", keys)
    k1, k2 = f"bias/{d}/threads:1", f"bias/{d}/threads:2"
    row(f"Bias spread {d}", k1, k2, f"bias_direct_{d}", "(no target)", (ok, diff),
        "numpy: cos per pair")
    bc = checks[f"bias/{d}"]
    if "prototype_spread" in bc:
        err = max(rel(bc["prototype_spread"], bc["spread"]),
                  rel(bc["prototype_sum_mean_bias"], bc["sum_mean_bias"]))
        row(f"  prototype (integer ids)", f"bias/{d}/prototype/threads:1",
            f"bias/{d}/prototype/threads:2", f"bias_direct_{d}", "(bench kernel)",
            (ok and err <= 1e-9, f"{err:.1e}"), flag_rows=False)
    for t in (1, 2):
        ok, diff = same(f"bias/{d}", f"bias_gemm_{d}_t{t}", keys)
        target = ">=3x" if d == "circle" else "(info)"
        g1, g2 = row(f"  vs numpy GEMM form, {t} BLAS thr", k1, k2, f"bias_gemm_{d}_t{t}", target,
                     (ok, diff), flag_rows=False)
        if d == "circle":  # threads matched: 1 vs 1 BLAS thread, 2 vs 2
            g = g1 if t == 1 else g2
            verdict(f"Bias spread circle: >= 3x numpy GEMM form, {t} thread(s) each ({g:.1f}x)",
                    ok and g >= 3)

frame = 1000.0 / 60.0
load = open(f"{out}/load.txt").read().split("\n")
print(f"\nload average (1, 5, 15 min) before: {load[0]}; after: {load[1]} (2 CPUs; > 0.3 means noise)")
print(f"\nropescope benchmarks: C++ (Google Benchmark, median of {reps}) vs numpy peer "
      f"(median of {reps}; numpy {next(iter(peer.values()))['numpy']}, 1 BLAS/OMP thread unless noted)")
print("ratio = numpy wall time / C++ wall time (medians); 1t CPU = the same ratio of process CPU times\n"
      "on one thread (robust to other load); check = worst relative checksum difference (<= 1e-9)\n")
hdr = (f"{'case':34} {'C++ 1t ms':>10} {'C++ 2t ms':>10} {'numpy ms':>10} {'ratio 1t':>9} "
       f"{'ratio 2t':>9} {'1t CPU':>7}  {'target':14} check")
print(hdr)
print("-" * len(hdr))
for case, c1, c2, npm, r1, r2, rcpu, target, (ok, diff), note in rows:
    chk = ("ok " if ok else "MISMATCH ") + diff
    print(f"{case:34} {c1:10.2f} {c2:10.2f} {npm:10.1f} {r1:8.1f}x {r2:8.1f}x {rcpu:6.1f}x  "
          f"{target:14} {chk}"
          + (f"  [{note}]" if note else ""))

print("\nLive update (computeSceneMetrics, one core; one 60 Hz frame = 16.7 ms):")
for d in ("mrope", "circle"):
    t1, t2 = ms(f"live/scene-metrics/{d}/threads:1"), ms(f"live/scene-metrics/{d}/threads:2")
    parts = ", ".join(f"{p} {ms(f'live/part/{d}/{p}'):.2f}" for p in ("ids", "ptd", "bias", "decay3"))
    print(f"  {d:7} {checks[f'live/{d}']['layout']} ({checks[f'live/{d}']['tokens']} tokens): "
          f"1 thread {t1:.2f} ms, 2 threads {t2:.2f} ms   parts (ms): {parts}")
    for v, flags in variants.items():
        key = f"core-{v}:live/scene-metrics/{d}/threads:1"
        if key in cpp:
            parts = ", ".join(f"{p} {ms(f'core-{v}:live/part/{d}/{p}'):.2f}"
                              for p in ("ids", "ptd", "bias", "decay3"))
            print(f"    core {flags}: 1 thread {ms(key):.2f} ms   parts (ms): {parts}")
    if f"live/prototype-kernels/{d}" in cpp:
        print(f"    prototype PTD + bias kernels with core's decay and profiles: "
              f"{ms(f'live/prototype-kernels/{d}'):.2f} ms")
    if d == "circle":
        verdict(f"Live circle: <= 25 ms on one thread ({t1:.2f} ms)", t1 <= 25)
        verdict(f"Live circle: <= 16 ms on two threads ({t2:.2f} ms)", t2 <= 16)
        continue
    verdict(f"Live {d}: < 16.7 ms on one core ({t1:.2f} ms)", t1 < frame)
    verdict(f"Live {d}: well under a frame, <= half (8.3 ms) ({t1:.2f} ms)", t1 <= frame / 2)

roof = peer.get("dgemm_roofline")
gemm = next((v for k, v in cpp.items() if k.startswith("bias/kernel/gemm")), None)
if roof and gemm:
    flops = 2.0 * 2048 * 128 * 2048
    core_rate = flops / (gemm[2] * 1e-3) * 1e-9  # CPU time: robust to other load
    print(f"\nBias GEMM kernel (2048 x 128 x 2048, 64 columns a call), CPU time: {core_rate:.1f} GFLOP/s; "
          f"OpenBLAS dgemm, same calls {roof['gflops_2048x128x2048_chunk64']:.1f}, one call "
          f"{roof['gflops_2048x128x2048']:.1f}, 2048^3 {roof['gflops_2048x2048x2048']:.1f} GFLOP/s "
          f"=> {100 * core_rate / roof['gflops_2048x2048x2048']:.0f} % of this CPU's DGEMM roofline "
          f"({100 * core_rate / roof['gflops_2048x128x2048_chunk64']:.0f} % at the same shape)")

print("\nFloor for an exact double distance (sum of sqrt(dx^2+dy^2+dz^2), 131 M per run), ns/distance:")
floor = {k.split("floor/")[1]: v[1] for k, v in cpp.items() if k.startswith("floor/")}
for k, v in sorted(floor.items(), key=lambda kv: kv[1]):
    print(f"  {k:38} {v:.3f}")
exact = min(v for k, v in floor.items() if k.startswith("exact3/"))
print(f"  => floor (best exact3 loop): {exact:.3f} ns/distance")
print("C++ inner loop (perTokenDistance, ids prepared), ns/distance:")
for d in ("mrope", "circle"):
    for t in (1, 2):
        print(f"  core {d} {t} thread(s): {cpp[f'ptd/ptd-only/{d}/threads:{t}'][1]:.3f}")
    for v, flags in variants.items():
        key = f"core-{v}:ptd/ptd-only/{d}/threads:1"
        if key in cpp:
            print(f"  core {d} built with {flags}, 1 thread: {cpp[key][1]:.3f}")
inner = cpp["ptd/ptd-only/mrope/threads:1"][1]
verdict(f"PTD inner loop within 1.5x of floor ({inner:.3f} / {exact:.3f} = {inner / exact:.2f}x)",
        inner <= 1.5 * exact)

rss = json.load(open(f"{out}/rss.json"))
nt, nv = checks["ptd/mrope"]["n_text"], checks["ptd/mrope"]["n_visual"]
print(f"\nPeak RSS (/usr/bin/time -v): ids + PTD run {rss['rss_kib_ptd'] / 1024:.1f} MiB, ids-only run "
      f"{rss['rss_kib_ids_only'] / 1024:.1f} MiB, numpy peer {rss['rss_kib_numpy_ptd'] / 1024:.1f} MiB; "
      f"an N_text x N_vis double matrix would be {nt * nv * 8 / 2**20:.0f} MiB")
verdict(f"PTD memory O(N): peak RSS {rss['rss_kib_ptd'] / 1024:.1f} MiB",
        rss["rss_kib_ptd"] * 1024 < nt * nv * 8 / 10)
print(f"numpy BLAS: {next(iter(peer.values()))['blas']}")
print("(numpy's PTD, decay and direct bias are element-wise ufunc loops: BLAS threads do not touch "
      "them; only the GEMM form of the bias uses them.)")
print("\nTargets:")
for name, v in verdicts:
    print(f"  {v}  {name}")
EOF
