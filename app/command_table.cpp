// The command table: the rows of commands.inc with their run functions.
#include "command_table.h"

#include <bit>
#include <iterator>
#include <string_view>

namespace ropescope::cli {

namespace {

constexpr CommandRow kCommandRows[] = {
#define ROPESCOPE_COMMAND(id, name, summary, run, program) \
  {id, name, summary, &run, Program::program},
#include "commands.inc"
#undef ROPESCOPE_COMMAND
};

// Checked when the table compiles: every row in its bit's place, with a name, a summary and a run
// function, and no name twice.
constexpr bool commandRowsWellFormed() {
  constexpr std::size_t n = std::size(kCommandRows);
  for (std::size_t i = 0; i < n; ++i) {
    const CommandRow& r = kCommandRows[i];
    if (static_cast<unsigned>(r.command) != 1u << i) return false;
    if (std::string_view(r.name).empty() || std::string_view(r.summary).empty() || !r.run)
      return false;
    for (std::size_t j = 0; j < i; ++j)
      if (std::string_view(kCommandRows[j].name) == r.name) return false;
  }
  return n == kCommandCount;
}
static_assert(commandRowsWellFormed(),
              "commands.inc: a row without a name, summary or run "
              "function, a name given twice, or rows out of bit order");

}  // namespace

std::span<const CommandRow> commandTable() {
  return kCommandRows;
}

const CommandRow& commandRow(Command command) {
  return kCommandRows[std::countr_zero(static_cast<unsigned>(command))];
}

const CommandRow* findCommand(const std::string& name) {
  for (const CommandRow& r : kCommandRows)
    if (name == r.name) return &r;
  return nullptr;
}

}  // namespace ropescope::cli
