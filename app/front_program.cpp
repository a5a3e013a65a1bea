// The `ropescope` front's side of program.h: no Qt, no VTK; what needs them runs in
// ropescope-gui, which this process execs with the same arguments.
#include <cstdlib>
#include <iostream>

#include "command_table.h"
#include "gui_exec.h"
#include "program.h"
#include "ropescope/gpu_probe.h"

namespace ropescope::cli {

void beforeCommand(const CommandRow&) {}

int runDesktop(int, char**, const std::vector<std::string>& args) {
  execGui(args, "the desktop app");
}

int runRenderCommand(const std::vector<std::string>& args) {
  // --help needs no GUI: said here, also where ropescope-gui is not installed.
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << commandHelp(kRender) << kRenderHelpNotes;
      return 0;
    }
  std::vector<std::string> all{commandName(kRender)};
  all.insert(all.end(), args.begin(), args.end());
  execGui(all, commandName(kRender));
}

// --backend gpu, and auto where a GPU context could be had (a display, a Qt platform, or a
// forced GPU fault), run in ropescope-gui; auto without a display, or without ropescope-gui,
// stays here on the CPU.
void handOffAttention(BackendChoice choice, const std::vector<std::string>& args) {
  if (choice == BackendChoice::Cpu) return;
  const char* fault = std::getenv("ROPESCOPE_GPU_FAULT");
  if (choice == BackendChoice::Auto && !gpuDisplayAvailable(nullptr) && !(fault && *fault)) return;
  if (choice == BackendChoice::Auto && findGuiBinary().empty()) return;
  std::vector<std::string> all{commandName(kAttention)};
  all.insert(all.end(), args.begin(), args.end());
  execGui(all, choice == BackendChoice::Gpu ? "attention --backend gpu" : "attention on the GPU");
}

// handOffAttention has handed every request that could get a GPU to ropescope-gui.
SelectedBackend selectAttentionBackend(BackendChoice choice, int threads) {
  SelectedBackend s{makeCpuAttentionBackend(threads), {}, {}};
  if (choice != BackendChoice::Cpu) {
    if (gpuDisplayAvailable(&s.reason))
      s.reason = "ropescope-gui (the GPU backend) is not installed";
    s.note = gpuUnavailableNote(s.reason);
  }
  return s;
}

void computeOnBackend(SelectedBackend&, const std::function<void()>& compute) {
  compute();
}

}  // namespace ropescope::cli
