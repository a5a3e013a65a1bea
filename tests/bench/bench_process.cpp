// Whole-process speed of the `ropescope` front: what a user running the command
// waits for, start-up, output writing and exit included. Each iteration forks and execs the
// program, its standard output going to a file in ROPESCOPE_BENCH_OUT (default /dev/shm, so the
// disk is not timed), and waits for it. Peers in the same program: `python3 -S -c pass` (the
// cheapest Python start-up); numpy's in-process figures come from peers/*.py (see
// scripts/run-process-benchmarks.sh, which runs both and prints the ratios).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::string outDir() {
  const char* d = std::getenv("ROPESCOPE_BENCH_OUT");
  return d && *d ? d : "/dev/shm";
}

// Runs argv[0] with stdout to `out` (stderr to /dev/null); false when it did not exit 0.
bool runOnce(const std::vector<std::string>& argv, const std::string& out) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int n = ::open("/dev/null", O_WRONLY);
    if (o < 0 || n < 0) _exit(127);
    ::dup2(o, 1);
    ::dup2(n, 2);
    std::vector<std::string> copy = argv;
    std::vector<char*> args;
    for (std::string& a : copy) args.push_back(a.data());
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void runProcess(benchmark::State& state, const std::vector<std::string>& argv) {
  const std::string out = outDir() + "/ropescope-bench-stdout-" + std::to_string(::getpid());
  for (auto _ : state)
    if (!runOnce(argv, out)) {
      state.SkipWithError(("failed: " + argv[0]).c_str());
      break;
    }
  ::unlink(out.c_str());
}

void BM_PythonStart(benchmark::State& state) {
  runProcess(state, {"/usr/bin/python3", "-S", "-c", "pass"});
}

// ids + PTD of a 9-token layout: almost nothing but the process itself.
void BM_PtdTiny(benchmark::State& state) {
  runProcess(state, {ROPESCOPE_BIN, "ptd", "--layout", "t3,i2x2,t2"});
}

// U(r) for r = 0..100000 (head dim 128, base 1e4), 100 001 rows of JSON written to stdout.
void BM_Decay(benchmark::State& state) {
  runProcess(state, {ROPESCOPE_BIN, "decay", "--plan", "vanilla", "--max-distance", "100000",
                     "--head-dim", "128", "--base", "10000"});
}

// N = 16384, d = 128: every row's softmax to a .npy (1 GiB) plus the JSON summary.
void BM_AttentionRows(benchmark::State& state) {
  const std::string npy = outDir() + "/ropescope-bench-rows-" + std::to_string(::getpid()) + ".npy";
  const std::string n = std::to_string(state.range(0));
  runProcess(state, {ROPESCOPE_BIN, "attention", "--layout", "t" + n, "--head-dim", "128", "--qk",
                     "random", "--rows", "0:" + n, "--softmax", "--backend", "cpu", "--threads",
                     std::to_string(state.range(1)), "--out", npy});
  ::unlink(npy.c_str());
}

BENCHMARK(BM_PythonStart)
    ->Name("process/python3-S-pass")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_PtdTiny)->Name("process/ptd-tiny")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Decay)->Name("process/decay-100000")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AttentionRows)
    ->Name("process/attention-rows-softmax")
    ->Args({16384, 1})
    ->Args({16384, 2})
    ->ArgNames({"n", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
