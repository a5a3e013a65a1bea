// What the two programs built from app/ do differently. Each program links one implementation:
// front_program.cpp in `ropescope`, the front without Qt or VTK, which runs the core subcommands
// itself and starts ropescope-gui (gui_exec.h) for the desktop app, render and attention on the
// GPU; gui_program.cpp in `ropescope-gui` (Qt, VTK, the GPU backend), which runs everything.
// Every other file of app/ is compiled once and shared by both programs.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli_options.h"
#include "command_table.h"
#include "ropescope/attention.h"

namespace ropescope::cli {

// Before a subcommand parses its arguments: ropescope-gui silences Qt's own messages on the
// command line's stderr for the rows it runs with Qt (program Gui or FrontOrGpu).
void beforeCommand(const CommandRow& row);

// The desktop app, started without a subcommand or with a scene file (args: argv[1..]).
int runDesktop(int argc, char** argv, const std::vector<std::string>& args);

// `render`: ropescope-gui draws (cmd_render.cpp); the front answers --help itself and hands
// everything else to ropescope-gui. Its row of commands.inc names runRenderCommand.

// The attention backend a run uses, and what to tell the user about the choice.
struct SelectedBackend {
  std::unique_ptr<AttentionBackend> backend;
  std::string note, reason;
  bool failed = false;  // the GPU was there but failed: worth a line on stderr
};

// The front: --backend gpu, and auto where a GPU context could be had, continue in
// ropescope-gui with the same arguments (this process is replaced); ropescope-gui: nothing.
void handOffAttention(BackendChoice choice, const std::vector<std::string>& args);
SelectedBackend selectAttentionBackend(BackendChoice choice, int threads);
// Runs `compute` on the selected backend. ropescope-gui turns a GPU failure of --backend gpu
// into one line, and notes (sel) when auto's GPU failed mid-run and the CPU finished.
void computeOnBackend(SelectedBackend& sel, const std::function<void()>& compute);

}  // namespace ropescope::cli
