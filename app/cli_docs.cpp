#include "cli_docs.h"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <vector>

#include "cli_options.h"
#include "cli_parser.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/image_grid.h"
#include "ropescope/model_config.h"
#include "ropescope/model_family.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"
#include "ropescope/scene_fields.h"

namespace ropescope::cli {

namespace {

// Text safe in roff: backslashes escaped, hyphens as \- (so they copy as ASCII), no line that
// starts with a control character.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// The values an option's argument takes, when they are a fixed list: the lists core keeps,
// else the lowercase words of a "neox|gptj" argument. Empty: free text or a file.
std::vector<std::string> choicesOf(const OptionInfo& o) {
  const std::string name = o.name;
  // A Scene field's choices (design, plan, pairs, age-strategy): the field table's.
  for (const SceneField& f : sceneFields())
    if (f.cliFlag == name && f.spec.kind == ParameterSpec::Kind::Choice) return f.spec.choices;
  if (name == "rules") {
    std::vector<std::string> r = ruleSetNames();
    if (std::string(o.arg).find("all") != std::string::npos) r.push_back("all");
    return r;
  }
  // render --preset names a figure preset (the desktop app's): free text here.
  if (name == "grid-preset" || (name == "preset" && o.commands != kRender))
    return imageGridPresetNames();
  if (name == "model") return shippedModelNames();
  std::vector<std::string> out;
  if (!o.arg) return out;
  std::stringstream parts(o.arg);
  std::string part;
  bool lowerOnly = true;
  while (std::getline(parts, part, '|')) {
    for (char c : part)
      if (!(c >= 'a' && c <= 'z') && c != '-') lowerOnly = false;
    out.push_back(part);
  }
  return out.size() > 1 && lowerOnly ? out : std::vector<std::string>{};
}

bool takesFile(const OptionInfo& o) {
  const std::string arg = o.arg ? o.arg : "";
  return arg.find("FILE") != std::string::npos || arg.find("DIR") != std::string::npos;
}

// roff for a form's words: upper-case words (FILE.json, COMMAND) in italics, the rest as typed.
std::string roffWords(const std::string& words) {
  std::stringstream in(words);
  std::string word, out;
  while (in >> word) {
    const bool placeholder = word.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") != std::string::npos;
    std::string text = roff(word);
    if (placeholder) {
      // "[FILE.json]": the brackets stay upright.
      const std::size_t open = text.find_first_not_of('['), close = text.find_last_not_of(']');
      text = text.substr(0, open) + "\\fI" + text.substr(open, close + 1 - open) + "\\fR" +
             text.substr(close + 1);
    }
    out += (out.empty() ? "" : " ") + text;
  }
  return out;
}

}  // namespace

std::string usageLines() {
  std::size_t width = 0;
  for (const UsageForm& f : kUsageForms) width = std::max(width, std::string(f.words).size());
  std::string out;
  bool first = true;
  for (const UsageForm& f : kUsageForms) {
    std::string line = std::string(first ? "usage: " : "       ") + "ropescope " + f.words;
    line.append(width - std::string(f.words).size() + 3, ' ');
    out += line + f.what + "\n";
    first = false;
  }
  return out;
}

std::string manPage() {
  std::ostringstream o;
  o << ".TH ROPESCOPE 1 \"\" \"ropescope " << ROPESCOPE_VERSION << "\" \"User Commands\"\n"
    << ".SH NAME\nropescope \\- geometry of rotary position embeddings in vision\\-language "
       "models\n"
    << ".SH SYNOPSIS\n";
  for (std::size_t i = 0; i < std::size(kUsageForms); ++i)
    o << (i ? ".br\n" : "") << ".B ropescope\n" << roffWords(kUsageForms[i].words) << "\n";
  o << ".SH DESCRIPTION\nWithout a command, ropescope opens the desktop app (on a scene file when "
       "one is given). With a command it computes position ids, metrics, decay curves, "
       "frequencies, picture grids or attention for a layout or scene and prints JSON or CSV. "
       "Bad input prints one line on standard error and exits with status 2.\n"
    << ".SH COMMANDS\n";
  for (Command c : kAllCommands) {
    o << ".SS " << roff(commandName(c)) << "\n" << roff(commandSummary(c)) << "\n";
    for (const OptionInfo& opt : optionsOf(c)) {
      o << ".TP\n.B \\-\\-" << roff(opt.name);
      if (opt.arg) o << " \\fI" << roff(opt.arg) << "\\fR";
      o << "\n" << roff(opt.help) << "\n";
    }
  }
  o << ".SH DESIGNS\nThe position designs of \\fB\\-\\-design\\fR and their parameters "
       "(\\fB\\-\\-param\\fR \\fIKEY=VALUE\\fR):\n";
  for (const PositionDesign* d : allDesigns()) {
    o << ".TP\n.B " << roff(d->name()) << "\n" << roff(d->summary()) << "\n";
    for (const ParameterSpec& p : d->parameters()) {
      const std::string def = p.kind == ParameterSpec::Kind::Choice
                                  ? p.choices.at(static_cast<std::size_t>(p.defaultValue))
                                  : formatDouble(p.defaultValue);
      o << ".br\n\\fI" << roff(p.key) << "\\fR " << roff(p.rangeText()) << ", default " << roff(def)
        << ": " << roff(p.help) << "\n";
    }
  }
  o << ".SH FREQUENCY PLANS\n";
  for (const FrequencyPlan* p : allPlans())
    o << ".TP\n.B " << roff(p->name()) << "\n" << roff(p->summary()) << "\n";
  o << ".SH EXIT STATUS\n0: done. 1: \\fBcheck\\-ids\\fR found ids that differ. 2: bad input "
       "(the message names the problem and the accepted range).\n"
    << ".SH FILES\n.TP\n.I share/ropescope/\nSample pictures, figure presets and shipped model "
       "configs.\n"
    << ".SH SEE ALSO\nThe README of the source tree; the Python module \\fBropescope\\fR "
       "(\\fIimport ropescope\\fR).\n";
  return o.str();
}

std::string bashCompletion() {
  std::vector<std::string> commands;
  for (Command c : kAllCommands) commands.push_back(commandName(c));
  std::ostringstream o;
  o << "# bash completion for ropescope; generated by `ropescope --bash-completion` from its "
       "option table\n"
    << "_ropescope() {\n"
    << "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd= i\n"
    << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
    << "    case \"${COMP_WORDS[i]}\" in\n"
    << "      " <<
      [&] {
        std::string s;
        for (const std::string& c : commands) s += (s.empty() ? "" : "|") + c;
        return s;
      }()
    << ") cmd=\"${COMP_WORDS[i]}\"; break ;;\n"
    << "    esac\n"
    << "  done\n"
    << "  if [[ -z $cmd ]]; then\n"
    << "    if [[ $cur == -* ]]; then\n"
    << "      COMPREPLY=($(compgen -W \"--help --version\" -- \"$cur\"))\n"
    << "    else\n"
    << "      COMPREPLY=($(compgen -W \"" << joined(commands) << "\" -- \"$cur\"))\n"
    << "      COMPREPLY+=($(compgen -f -X '!*.json' -- \"$cur\"))\n"
    << "    fi\n"
    << "    return\n"
    << "  fi\n"
    << "  case \"$cmd:$prev\" in\n";
  // Values of the previous option, per command (render --preset is not grid --preset): a fixed
  // list, a file, or free text (nothing offered).
  for (Command c : kAllCommands)
    for (const OptionInfo& opt : optionsOf(c)) {
      if (!opt.arg) continue;
      o << "    " << commandName(c) << ":--" << opt.name << ") ";
      const std::vector<std::string> choices = choicesOf(opt);
      if (!choices.empty())
        o << "COMPREPLY=($(compgen -W \"" << joined(choices) << "\" -- \"$cur\"))";
      if (takesFile(opt)) o << (choices.empty() ? "" : "; ") << "compopt -o default";
      if (choices.empty() && !takesFile(opt)) o << "COMPREPLY=()";
      o << "; return ;;\n";
    }
  o << "  esac\n"
    << "  local opts=\n"
    << "  case \"$cmd\" in\n";
  for (Command c : kAllCommands) {
    std::vector<std::string> names;
    for (const OptionInfo& opt : optionsOf(c)) names.push_back(std::string("--") + opt.name);
    o << "    " << commandName(c) << ") opts=\"" << joined(names) << "\" ;;\n";
  }
  o << "  esac\n"
    << "  if [[ $cur == -* ]]; then\n"
    << "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
    << "  else\n"
    << "    compopt -o default; COMPREPLY=()\n"
    << "  fi\n"
    << "}\n"
    << "complete -F _ropescope ropescope\n";
  return o.str();
}

}  // namespace ropescope::cli
