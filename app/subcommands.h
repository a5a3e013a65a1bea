// Subcommands that parse their own options on top of the shared table: each lives in its own
// file (cmd_<name>.cpp), returns the exit status and throws InputError for bad input.
#pragma once

#include <string>
#include <vector>

namespace ropescope::cli {

int runGridCommand(const std::vector<std::string>& args);        // cmd_grid.cpp
int runAttentionCommand(const std::vector<std::string>& args);   // cmd_attention.cpp
int runRenderCommand(const std::vector<std::string>& args);      // cmd_render.cpp
int runCheckIdsCommand(const std::vector<std::string>& args);    // cmd_check_ids.cpp
int runRotaryCommand(const std::vector<std::string>& args);      // cmd_rotary.cpp
int runBudgetCommand(const std::vector<std::string>& args);      // cmd_budget.cpp
int runPrinciplesCommand(const std::vector<std::string>& args);  // cmd_principles.cpp
int runPixelsCommand(const std::vector<std::string>& args);      // cmd_pixels.cpp
int runQkUsageCommand(const std::vector<std::string>& args);     // cmd_qk_usage.cpp
int runLayersCommand(const std::vector<std::string>& args);      // cmd_layers.cpp

}  // namespace ropescope::cli
