// ropescope-gui's side of program.h: the desktop app, Qt kept quiet on the command line, and
// attention on the GPU with its fallback to the CPU.
#include <iostream>

#include "program.h"
#include "ropescope/errors.h"
#include "ropescope_gpu/gpu_attention.h"
#include "ropescope_ui/cli_qt.h"
#include "ropescope_ui/gui_main.h"

namespace ropescope::cli {

void beforeCommand(const CommandRow& row) {
  // render and attention start Qt: none of its own words on the CLI's stderr.
  if (row.program != Program::Front) ui::quietQtForCommandLine();
}

int runDesktop(int argc, char** argv, const std::vector<std::string>& args) {
  return ui::runGui(argc, argv, args.empty() ? std::string() : args[0]);
}

void handOffAttention(BackendChoice, const std::vector<std::string>&) {}

SelectedBackend selectAttentionBackend(BackendChoice choice, int threads) {
  if (choice == BackendChoice::Gpu) {
    // Unwrapped: with --backend gpu a GPU failure mid-run ends the run (exit 2), no CPU rerun.
    std::string why;
    bool noDisplay = false;
    if (auto g = gpu::makeGpuAttentionBackend(&why, &noDisplay)) return {std::move(g), {}, {}};
    return {makeCpuAttentionBackend(threads), {}, why, !noDisplay};
  }
  gpu::BackendSelection s = gpu::selectAttentionBackend(choice, threads);
  return {std::move(s.backend), s.note, s.reason, s.failed};
}

void computeOnBackend(SelectedBackend& sel, const std::function<void()>& compute) {
  try {
    compute();
  } catch (const gpu::GpuError& e) {  // only the unwrapped --backend gpu gets here
    const std::string what = e.what();
    throw InputError("--backend gpu: " + (what.rfind("GPU: ", 0) == 0 ? what.substr(5) : what) +
                         " (--backend auto falls back to the CPU)",
                     "backend");
  }
  // auto: the GPU failed mid-run and the CPU finished the job.
  if (const std::string fell = gpu::fallbackNote(*sel.backend); !fell.empty()) {
    sel.note = fell;
    sel.reason = gpu::fallbackReason(*sel.backend);
    sel.failed = true;
    std::cerr << "ropescope: " << fell << "\n";
  }
}

}  // namespace ropescope::cli
