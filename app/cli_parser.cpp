#include "cli_parser.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "own_options.h"
#include "ropescope/errors.h"

namespace ropescope::cli {

namespace {

// Help columns: the option and its argument, then the help wrapped to this width.
constexpr std::size_t kNameColumn = 30, kHelpWidth = 96;

// A flag: CLI11 expects no value after it.
bool isFlag(const CLI::Option* opt) {
  return opt->get_items_expected_max() == 0;
}

// CLI11's help layout with the table's words: "--name ARG" (no "-h," alias, no type or default
// notes CLI11 would add), the help wrapped beside it.
class TableFormatter : public CLI::Formatter {
 public:
  TableFormatter() { column_width(kNameColumn); }
  // Each group ("options", "attention options") after one blank line.
  std::string groups(const CLI::App* app) const {
    std::string out;
    for (const std::string& group : app->get_groups()) {
      const auto opts =
          app->get_options([&group](const CLI::Option* o) { return o->get_group() == group; });
      if (!group.empty() && !opts.empty()) out += make_group(group, false, opts);
    }
    return out;
  }
  std::string make_option_name(const CLI::Option* opt, bool) const override {
    return "--" + opt->get_lnames().front();
  }
  std::string make_option_opts(const CLI::Option* opt) const override {
    return isFlag(opt) ? std::string() : " " + opt->get_type_name();
  }
  std::string make_option_desc(const CLI::Option* opt) const override {
    std::istringstream words(opt->get_description());
    std::string out, line, w;
    while (words >> w) {
      if (!line.empty() && kNameColumn + line.size() + 1 + w.size() > kHelpWidth) {
        out += line + "\n";
        line.clear();
      }
      line += (line.empty() ? "" : " ") + w;
    }
    return out + line;
  }
};

// `command`'s options declared to CLI11: each a flag or an option taking one value, every
// occurrence kept (the table walk refuses repeats with its own words), unknown words left over
// for splitCommandLine to name. --help also answers to -h.
std::unique_ptr<CLI::App> declare(Command command) {
  auto app = std::make_unique<CLI::App>(commandSummary(command), commandName(command));
  app->set_help_flag();
  app->allow_extras();
  app->formatter(std::make_shared<TableFormatter>());
  const std::string own = std::string(commandName(command)) + " options";
  for (const OptionInfo& o : optionsOf(command)) {
    const std::string name =
        std::string(o.name) == "help" ? "-h,--help" : std::string("--") + o.name;
    const std::string help = o.help ? o.help : "";
    CLI::Option* opt = o.arg ? app->add_option(name, help)
                                   ->expected(1)
                                   ->type_name(o.arg)
                                   ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
                             : app->add_flag(name, help);
    // No help: described by the subcommand's own text, and not listed (CLI11 hides group "").
    opt->group(!o.help ? "" : o.own ? own : "options");
  }
  return app;
}

std::string seeHelp(Command command) {
  return std::string("see ropescope ") + commandName(command) + " --help";
}

}  // namespace

std::vector<OptionInfo> optionsOf(Command command) {
  std::vector<OptionInfo> out;
  std::set<std::string> seen;  // a name the shared table lists per command group (--out) once
  for (const OptionInfo& o : optionTable())
    if ((o.commands & command) && seen.insert(o.name).second) out.push_back(o);
  for (const OwnOption& o : ownOptions())
    if (o.command == command && seen.insert(o.name).second)
      out.push_back({o.name, o.arg, static_cast<unsigned>(command), o.help, true});
  return out;
}

CommandLine splitCommandLine(Command command, const std::vector<std::string>& args,
                             bool acceptPositional) {
  const std::unique_ptr<CLI::App> app = declare(command);
  // "--out=" names no value (CLI11 would take the next word as it).
  for (const std::string& w : args) {
    if (w == "--") break;
    if (w.size() > 3 && w.rfind("--", 0) == 0 && w.back() == '=' && w.find('=') == w.size() - 1) {
      const std::string name = w.substr(0, w.size() - 1);
      for (const OptionInfo& o : optionsOf(command))
        if (o.arg && name == std::string("--") + o.name)
          throw InputError(name + " needs a value (" + o.arg + ")", o.name);
    }
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
  try {
    app->parse(reversed);
  } catch (const CLI::ArgumentMismatch&) {
    // CLI11 ran out of words for an option's value: the option is the last word.
    std::string name = args.empty() ? std::string() : args.back();
    name = name.substr(0, name.find('='));
    for (const OptionInfo& o : optionsOf(command))
      if (o.arg && name == std::string("--") + o.name)
        throw InputError(name + " needs a value (" + o.arg + ")", o.name);
    throw InputError(name + " needs a value (" + seeHelp(command) + ")");
  } catch (const CLI::ParseError& e) {
    throw InputError(e.what());
  }
  CommandLine line;
  // Unknown words first: a misspelt option is the problem, not what the others say.
  bool optionsDone = false;
  for (const std::string& w : app->remaining()) {
    if (!optionsDone && w == "--") {
      optionsDone = true;
    } else if (!optionsDone && w.size() > 2 && w.rfind("--", 0) == 0) {
      throw InputError("unknown option " + w.substr(0, w.find('=')) + " for " +
                       commandName(command) + " (" + seeHelp(command) + ")");
    } else if (acceptPositional) {
      line.positional.push_back(w);
    } else {
      throw InputError("unexpected argument \"" + w + "\" (options start with --; " +
                       seeHelp(command) + ")");
    }
  }
  std::map<const CLI::Option*, std::size_t> seen;
  for (const CLI::Option* opt : app->parse_order()) {
    const std::string name = opt->get_lnames().front();
    const std::string value = opt->results().at(seen[opt]++);
    if (isFlag(opt)) {
      // A flag: CLI11 records "true" for a bare one and the text of "--flag=TEXT".
      if (value != "true") throw InputError("--" + name + " takes no value", name);
      line.options.push_back({name, ""});
    } else {
      line.options.push_back({name, value});
    }
  }
  return line;
}

std::string optionsHelp(Command command) {
  const std::unique_ptr<CLI::App> app = declare(command);
  return TableFormatter().groups(app.get());
}

std::string commandsHelp() {
  CLI::App top;
  TableFormatter layout;
  layout.column_width(13);
  for (Command c : kAllCommands)
    top.add_subcommand(commandName(c), commandSummary(c))->group("commands");
  return layout.make_subcommands(&top, CLI::AppFormatMode::Normal);
}

}  // namespace ropescope::cli
