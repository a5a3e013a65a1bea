// The options of one subcommand only, on top of the shared table of cli_options.cpp: declared
// here once, so the parser (cli_parser.h), the subcommand's --help, the man page and the bash
// completion (cli_docs.cpp) know the same options, and a number's accepted range is written here
// once: the help shows it and the subcommand parses the value through the table (ownWhole,
// ownNumber). What an option does stays with the subcommand (cmd_*.cpp).
#pragma once

#include <string>
#include <vector>

#include "cli_options.h"

namespace ropescope::cli {

struct OwnOption {
  Command command;
  const char* name;  // "rows"
  const char* arg;   // "A:B"; nullptr for a flag
  const char* help;  // one paragraph, naming the range of a number; --help wraps it
  // A number's kind and its accepted range lo..hi (Text: no range).
  enum class Value { Text, Whole, Number } value = Value::Text;
  double lo = 0.0, hi = 0.0;
};

const std::vector<OwnOption>& ownOptions();

// The row of `command`'s own option `name`; throws std::logic_error when there is none.
const OwnOption& ownOption(Command command, const std::string& name);

// `text` as the value of own option `name` of `command`, in the table's range; a bad value gives
// the one line of parseWholeOption / parseNumberOption ("--heads expects a whole number in
// 1..256 (got "0")").
long long ownWhole(Command command, const std::string& name, const std::string& text);
double ownNumber(Command command, const std::string& name, const std::string& text);

}  // namespace ropescope::cli
