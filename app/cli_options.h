// Command-line options of the ropescope subcommands: declared once in a table that the parser
// (cli_parser.h), --help, the man page and the completion read, and applied to a Scene plus
// output settings.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ropescope/decay.h"
#include "ropescope/layer_stack.h"
#include "ropescope/model_config.h"
#include "ropescope/position_ids.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"
#include "ropescope/token_groups.h"
#include "ropescope/tokens_file.h"
#include "ropescope/wavelengths.h"

namespace ropescope::cli {

// One bit per subcommand, for the option table's masks; the subcommands themselves (name,
// summary, run function, program) are the rows of commands.inc, in that order.
enum CommandIndex : unsigned {
#define ROPESCOPE_COMMAND(id, name, summary, run, program) id##Index,
#include "commands.inc"
#undef ROPESCOPE_COMMAND
  kCommandCount
};
enum Command : unsigned {
#define ROPESCOPE_COMMAND(id, name, summary, run, program) id = 1u << id##Index,
#include "commands.inc"
#undef ROPESCOPE_COMMAND
};

// Every command, in help order.
inline constexpr Command kAllCommands[] = {
#define ROPESCOPE_COMMAND(id, name, summary, run, program) id,
#include "commands.inc"
#undef ROPESCOPE_COMMAND
};
// The bits of every command.
inline constexpr unsigned kEveryCommand = (1u << kCommandCount) - 1u;

struct Request {
  Command command = kIds;
  Scene scene;
  bool help = false;
  TableFormat format = TableFormat::Json;
  std::string out;
  int threads = 0;        // --threads: 0 = all cores
  bool progress = false;  // --progress: percent lines on stderr
  Id3 direction{1.0, 1.0, 1.0};
  int maxDistance = kDefaultDecayDistance;
  bool maxDistanceGiven = false;  // --max-distance given (render: else the preset's)
  bool subsetForm = false;
  double contextLength = kDefaultContextLength;
  // --tokens: the token id of every token of the layout, in order (empty without --tokens).
  std::vector<long long> tokenIds;
  std::vector<bool> tokenKept;  // --tokens: per input_ids entry, padding included: not padding
  // --tokens of a batch (input_ids [B, N]): every row with its own grids, and its layout; the
  // scene, tokenIds and tokenKept above are row `row`'s. One row without a batch.
  TokenRows tokenRows;
  std::vector<Layout> rowLayouts;
  int row = 0;
  bool rowGiven = false;  // --row given
  std::string model;      // --model as given, "" without it
  // --layer N (or the first layer of --layer-type on a model with a layer stack): the layer
  // whose rotary the scene holds and whose mask and rotary the attention preview applies; -1
  // without one. modelLayerType: --layer-type as given.
  int modelLayer = -1;
  std::string modelLayerType;
  // The model config's max_position_embeddings (ModelConfig::maxPositionEmbeddings), 0 without
  // --model or when the config does not say: budget's trained length where the rope names none.
  long long modelMaxPositions = 0;
  // What the request's input says beside its numbers (printInputWarnings shows them): which
  // layer type's rotary a per-layer-type config gave.
  std::vector<std::string> inputNotes;
  // --tokens: runs of image or video tokens read as the release reads them where their lengths
  // disagree with their grids (tokens_file.h TokenReading); printInputWarnings shows them too.
  std::vector<std::string> tokenWarnings;
  GroupPair groups;  // --from / --to (ptd, bias): text -> visual by default
};

// The command line's number parsers: every option value that is a number is read by one of
// them. `option` is the name without the dashes ("heads"), also the error's field id. A bad value
// gives one line naming the accepted range:
//   --heads expects a whole number in 1..256 (got "0")
// T: int, long, long long or unsigned long long.
template <class T>
T parseWholeOption(const std::string& option, const std::string& text, T lo, T hi);
// A finite number in lo..hi: "--scale expects a number in 0.5..16 (got "99")".
double parseNumberOption(const std::string& option, const std::string& text, double lo, double hi);
// Any finite number, for values whose range core checks; the message names the accepted range
// as `accepted` words it: "--base expects a number in (1, 1e+09] (got "x")", "... must be a
// finite number in (1, 1e+09] (got "inf")". `flag` as the user typed it ("--param alpha"),
// `field` the error's field id.
double parseNumberAs(const std::string& flag, const std::string& field, const std::string& text,
                     const std::string& accepted);

// --max-distance N (decay, render): kMinDecayDistance..kMaxDecayDistance (decay.h).
int parseMaxDistance(const std::string& text);

// A command's row of commands.inc: its name, and its one-line summary for the top-level help.
const char* commandName(Command c);
bool parseCommand(const std::string& name, Command* out);
const char* commandSummary(Command c);

// A subcommand's own options (own_options.h): called, in command-line order, for each one given,
// with a function that returns its value ("" for a flag). Return false if the subcommand does
// not take it after all (the option is then refused as unknown).
using ExtraOptions =
    std::function<bool(const std::string& name, const std::function<std::string()>& value)>;

struct CommandLine;  // cli_parser.h

// Splits `args` with the one parser (cli_parser.h) and applies the options, in command-line order
// (--model first), to a Request; `extra` gets the command's own options.
// Throws InputError with a one-line message for any bad option or value. `base`: the scene the
// options start from (a preset), instead of defaultScene(); it counts as a given scene.
// `positional`, when given, receives the arguments that are not options (and everything after
// "--"); without it such an argument is refused.
// An option given twice is refused ("--base given twice"), as are contradictions (--axis with
// --direction) and two flags that set one design parameter (--radius with --param radius).
Request parseArguments(Command command, const std::vector<std::string>& args,
                       const ExtraOptions& extra = {}, const Scene* base = nullptr,
                       std::vector<std::string>* positional = nullptr);
// The same over a command line already split (render picks its preset out of it first).
Request parseArguments(Command command, const CommandLine& line, const ExtraOptions& extra,
                       const Scene* base);

// --model with --layer-type or --layer (layer_stack.h): the model config whose frequency is
// that layer type's or layer's rotary. `notes` (may be null) receives what the numbers are of
// where the model's rotary changes by layer. Throws InputError naming the accepted layers.
// `nopeAllowed` (the attention preview): a NoPE layer is accepted, the config keeping the
// model's own rotary (unused there) and `layer` naming it.
ModelConfig pickModelLayer(const std::string& model, const std::string& layerType, bool layerGiven,
                           const std::string& layerText, std::vector<std::string>* notes,
                           bool nopeAllowed = false);

// The layer whose mask and rotary the attention preview applies (layer_attention.h): --layer,
// else the first layer of --layer-type; `stack` is read for any --model with a layer stack (its
// `unmodelled` lines are warnings wherever attention is computed). layer -1: none picked.
struct AttentionLayer {
  std::optional<LayerStack> stack;
  int layer = -1;
};
AttentionLayer attentionLayerOf(const Request& request);

// The list of designs and their parameters that the scene commands' --help ends with.
std::string designsHelp(Command command);

// A command's --help: usage, summary, its options (cli_parser.h optionsHelp), the designs.
std::string commandHelp(Command command);
// What render's --help says after its options (the front prints it without starting the GUI).
inline constexpr const char* kRenderHelpNotes =
    "3-D views (space, compare) need an X display: run them under xvfb-run -a. Charts and\n"
    "heat maps need none.\n";

// One row of the option table, for what reads it besides the parser: the man page and the
// shell completion (cli_docs.h), the Python module's keyword arguments.
struct OptionInfo {
  const char* name;   // "head-dim"
  const char* arg;    // "D"; nullptr for a flag
  unsigned commands;  // Command bits it applies to
  const char* help;   // nullptr: the subcommand's own help describes it
  bool own = false;   // a subcommand's own option (own_options.h), not the shared table's
};
std::vector<OptionInfo> optionTable();

// The names --design and --plan accept (the registries, and ids-file), for help and completion.
std::vector<std::string> designChoices();
std::vector<std::string> planChoices();

}  // namespace ropescope::cli
