// The option table and its walk. Every option is declared once, with its help text and the
// subcommands it applies to; the parser (cli_parser.h, CLI11) splits the command line by these
// rows, and the walk applies each option's value; values are checked by core, which names the
// accepted range.
#include "cli_options.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "cli_parser.h"
#include "ropescope/age_schedule.h"
#include "ropescope/atomic_file.h"
#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/ids_file.h"
#include "ropescope/image_grid.h"
#include "ropescope/layer_stack.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_config.h"
#include "ropescope/model_family.h"
#include "ropescope/named.h"
#include "ropescope/position_design.h"
#include "ropescope/rope_scaling.h"
#include "ropescope/scene_fields.h"
#include "ropescope/scene_metrics.h"
#include "ropescope/thread_count.h"
#include "ropescope/tokens_file.h"
#include "ropescope/transformers_release.h"

namespace ropescope::cli {

namespace {

// Take a layout:
constexpr unsigned kScene = kIds | kPtd | kBias | kAttention | kRender | kRotary | kBudget |
                            kPrinciples | kPixels | kQkUsage;
constexpr unsigned kNeedsLayout =
    kIds | kPtd | kBias | kAttention | kRotary | kBudget | kPrinciples | kPixels | kQkUsage;
constexpr unsigned kPlan = kBias | kDecay | kFreqs | kIds | kPtd | kAttention | kRender | kRotary |
                           kBudget | kPrinciples | kQkUsage;
constexpr unsigned kTokens = kScene | kCheckIds;  // take --tokens
constexpr unsigned kModel = kTokens | kPlan;      // take --model
constexpr unsigned kAll = kEveryCommand;
constexpr unsigned kTables = kIds | kPtd | kBias | kDecay | kFreqs;  // print JSON or CSV
constexpr unsigned kSceneFile =
    kTables | kAttention | kRender | kRotary | kBudget | kPrinciples | kPixels | kQkUsage;
constexpr unsigned kRope = kPlan;  // take --rope: the scaling is part of the frequency plan

// One design parameter as the command line gave it.
struct ParamValue {
  std::string key;   // the design's parameter key, e.g. "radius_mode"
  std::string raw;   // the value as typed, e.g. "auto" or "true"
  std::string flag;  // what the user typed it with: "--radius" or "--param alpha"
};

struct State {
  Request req;
  bool haveLayout = false, haveScene = false;
  std::string layoutSpec;  // parsed last, with the image-grid options
  std::string designFlag;
  std::string idsPath;    // --ids FILE.npy
  bool havePlan = false;  // --plan given: a design's suggested plan does not replace it
  // The plan options as given, in order: applied again over the rotary a model family's
  // --design brings (pickDesign), so that they override it as they override --model's.
  std::vector<std::function<void(Scene&)>> planEdits;
  std::vector<ParamValue> params;  // in order
  bool haveAxis = false, haveDirection = false;
  std::string gridPreset, gridPresetFlag;
  long long minPixels = 0, maxPixels = 0, patch = 0, merge = 0;  // 0: not given
  std::string firstGridFlag;  // the first image-grid option given, for messages
  bool haveModel = false;
  ModelConfig model;
  std::string tokensPath;              // --tokens, read after the options (it needs the model)
  std::string ropeType;                // --rope TYPE, "" without it
  std::vector<ParamValue> ropeParams;  // --rope-param KEY=VALUE, in order
  long long maxPositionId = -1;        // --max-position-id P, -1 without it
  // A command's own --rules (check-ids: RELEASE|NAME|all) when it names one rule set: the tokens
  // reader reads runs that disagree with their grids as that set does and names it.
  std::optional<std::size_t> ownRules;
};

// --rules: the releases and named sets of the release table (transformers_release.h).
const char* rulesHelp() {
  static const std::string text = [] {
    const auto& r = transformersReleases();
    return "model families: the transformers release whose get_rope_index to follow, " + r.front() +
           " ... " + r[r.size() - 2] +
           " or main (e.g. 5.5.4), or a named set: " + ruleSetAliasesText() + " (default hf-4.57)";
  }();
  return text.c_str();
}

// A help text that lists the names of a registry, built from the registry itself so that a new
// design, plan or preset shows up in --help, the man page and the completion at once. The
// texts live as long as the option table (built once).
const char* namesHelp(const std::string& before, const std::vector<std::string>& names,
                      const std::string& after = {}) {
  static std::deque<std::string> texts;
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  texts.push_back(before + list + after);
  return texts.back().c_str();
}

// The option of a Scene field (scene_fields.h): its flag and its help, with the table's range
// and default, so that the parser, --help and the GUI cannot disagree.
const char* fieldFlag(const char* key) {
  return sceneField(key).cliFlag.c_str();
}
const char* fieldHelp(const char* key) {
  return namesHelp(sceneFieldHelp(sceneField(key)), {});
}

// --max-distance of decay and render's decay views: one row, core's range (decay.h).
const char* maxDistanceHelp() {
  static const std::string text =
      "largest distance of the decay curve, " + std::to_string(kMinDecayDistance) + ".." +
      std::to_string(kMaxDecayDistance) + " (default " + std::to_string(kDefaultDecayDistance) +
      "; render: or the preset's)";
  return text.c_str();
}

// --context: the default is core's (the scene's wavelengths use the same length).
const char* contextHelp() {
  static const std::string text =
      "context length for the full-turn test (default " + formatDouble(kDefaultContextLength) + ")";
  return text.c_str();
}

// The help of a design parameter's own option (--alpha, --radius, --dff): the design that takes
// it, what it is, and its range and default as the design's ParameterSpec has them.
const char* parameterOptionHelp(const std::string& key, const std::string& what,
                                const std::string& more = {}) {
  static std::map<std::string, std::string> texts;  // nodes stay put: the pointers stay valid
  std::string& text = texts[key];
  if (!text.empty()) return text.c_str();
  for (const PositionDesign* d : allDesigns()) {
    const std::vector<ParameterSpec> specs = d->parameters();
    if (const ParameterSpec* spec = findSpec(specs, key)) {
      text = d->name() + ": " + what + " in " + spec->rangeText() + " (default " +
             formatDouble(spec->defaultValue) + ")" + more;
      break;
    }
  }
  return text.c_str();
}

// --threads of every command that computes on the CPU: one range (core's), one default (all
// cores; the results are the same bits for any count).
const char* threadsHelp() {
  static const std::string text =
      "CPU worker threads, 0 = all cores, 0.." + std::to_string(kMaxThreads) + " (default 0)";
  return text.c_str();
}

struct Option {
  const char* name;
  const char* arg;  // nullptr: a flag
  unsigned commands;
  const char* help;  // nullptr: the subcommand's own help describes it
  std::function<void(State&, const std::string&)> apply;
};

double parseNumber(const std::string& option, const std::string& text,
                   const std::string& accepted) {
  return parseNumberAs("--" + option, option, text, accepted);
}

// The rows' name for parseWholeOption<int>.
int parseInt(const std::string& option, const std::string& text, int lo, int hi) {
  return parseWholeOption(option, text, lo, hi);
}

// A whole-number Scene field as --FLAG gave it, within the table's range; the error carries
// the field's key (the GUI's field id), not the flag.
int fieldInt(const char* key, const std::string& text) {
  const SceneField& f = sceneField(key);
  try {
    return parseInt(f.cliFlag, text, static_cast<int>(f.spec.min), static_cast<int>(f.spec.max));
  } catch (const InputError& e) {
    throw InputError(e.what(), f.key());
  }
}

std::vector<double> parseList(const std::string& option, const std::string& text, std::size_t n,
                              const std::string& accepted) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(parseNumber(option, item, accepted));
  if (out.size() != n || (!text.empty() && text.back() == ','))
    throw InputError("--" + option + " expects " + std::to_string(n) +
                         " comma-separated numbers (got \"" + text + "\")",
                     option);
  return out;
}

// The value of Scene field `f` as --FLAG gave it, of the field's type: a whole number within the
// table's range, a finite number, the sections' t,h,w (core's text form), or a name, which the
// field's setter looks up (refusing an unknown one with the accepted names).
FieldValue fieldValueOf(const SceneField& f, const std::string& text) {
  if (f.list) return parseSectionsText(text, "--" + f.cliFlag);
  if (f.text || f.spec.kind == ParameterSpec::Kind::Choice) return text;
  if (f.spec.kind == ParameterSpec::Kind::Number)
    return parseNumberAs("--" + f.cliFlag, f.key(), text, "in " + f.spec.rangeText());
  return static_cast<long long>(fieldInt(f.key().c_str(), text));
}

void param(State& s, const std::string& key, const std::string& value, const std::string& flag) {
  for (const ParamValue& p : s.params)
    if (p.key == key)
      throw InputError(
          p.flag == flag ? flag + " given twice" : p.flag + " and " + flag + " both set " + key,
          key);
  s.params.push_back({key, value, flag});
}

// The image-grid options: each remembers that one was given (they need --layout).
void gridOption(State& s, const char* key, long long* field, const std::string& v) {
  const SceneField& f = sceneField(key);
  try {
    *field = parseWholeOption(f.cliFlag, v, static_cast<long long>(f.spec.min),
                              static_cast<long long>(f.spec.max));
  } catch (const InputError& e) {
    throw InputError(e.what(), f.key());  // the field's key, as the GUI names it
  }
  if (s.firstGridFlag.empty()) s.firstGridFlag = "--" + f.cliFlag;
}

void gridPreset(State& s, const char* flag, const std::string& v) {
  if (!s.gridPreset.empty())
    throw InputError(s.gridPresetFlag == flag
                         ? std::string(flag) + " given twice"
                         : s.gridPresetFlag + " and " + flag + " both name the image-grid preset",
                     "preset");
  imageGridPreset(v);  // refuses an unknown name now, naming the accepted ones
  s.gridPreset = v;
  s.gridPresetFlag = flag;
  if (s.firstGridFlag.empty()) s.firstGridFlag = flag;
}

void setOut(State& s, const std::string& v) {
  if (v.empty()) throw InputError("--out needs a file name", "out");
  s.req.out = v;
}

// The row of a Scene field whose value goes straight into the scene: flag, range and default
// from the table, the value through the table's setter.
Option fieldOption(const char* key, const char* arg, unsigned commands) {
  return {fieldFlag(key), arg, commands, fieldHelp(key), [key](State& s, const std::string& v) {
            const SceneField& f = sceneField(key);
            f.set(s.req.scene, fieldValueOf(f, v));
          }};
}

// A frequency-plan option: a Scene field, kept in State::planEdits.
Option planOption(const char* key, const char* arg) {
  Option o = fieldOption(key, arg, kPlan);
  o.apply = [key](State& s, const std::string& v) {
    const SceneField& f = sceneField(key);
    const FieldValue value = fieldValueOf(f, v);
    f.set(s.req.scene, value);
    s.planEdits.push_back([&f, value](Scene& scene) { f.set(scene, value); });
  };
  return o;
}

}  // namespace

ModelConfig pickModelLayer(const std::string& model, const std::string& layerType, bool layerGiven,
                           const std::string& layerText, std::vector<std::string>* notes,
                           bool nopeAllowed) {
  ModelConfig m;
  if (layerGiven) {
    const LayerStack stack = readLayerStack(model);
    const int layer =
        parseWholeOption<int>("layer", layerText, 0, static_cast<int>(stack.layers.size()) - 1);
    const StackLayer& l = stack.layers[static_cast<std::size_t>(layer)];
    if (nopeAllowed && !l.rotary) {
      m = readModelConfig(model);
      m.layer = layer;
      m.layerType = l.type;
      if (notes)
        notes->push_back("model " + m.name + ": layer " + std::to_string(layer) + " (" + l.type +
                         ") has no rotary (NoPE)");
      return m;
    }
    m = modelConfigOfLayer(readModelConfig(model), stack, layer);
    if (notes)
      notes->push_back("model " + m.name + " has a rotary per layer; these numbers are layer " +
                       std::to_string(layer) + "'s (" + m.layerType + ")");
    return m;
  }
  if (!layerType.empty()) {
    // Layer types that are not rope blocks (Llama 4's chunked_attention / full_attention): the
    // first layer of that type, through the stack. A model without such a stack keeps
    // readModelConfig's refusal below.
    const ModelConfig plain = readModelConfig(model);
    std::optional<LayerStack> stack;
    if (plain.family.empty() && plain.layerTypes.empty()) {
      try {
        stack = readLayerStack(model);
      } catch (const InputError&) {
      }
    }
    if (stack && !stack->uniform()) {
      const int layer = firstLayerOfType(*stack, layerType);
      if (nopeAllowed && !stack->layers[static_cast<std::size_t>(layer)].rotary) {
        m = plain;
        m.layer = layer;
        m.layerType = layerType;
        if (notes)
          notes->push_back("model " + m.name + ": layer " + std::to_string(layer) + ", the first " +
                           layerType + ", has no rotary (NoPE)");
        return m;
      }
      m = modelConfigOfLayer(plain, *stack, layer);
      if (notes)
        notes->push_back("model " + m.name + " has a rotary per layer; these numbers are layer " +
                         std::to_string(layer) + "'s, the first " + layerType);
      return m;
    }
  }
  m = readModelConfig(model, layerType);
  if (!notes) return m;
  if (!m.layerTypes.empty()) {
    notes->push_back("model " + m.name + " has a rotary per layer type (" +
                     joinNames(m.layerTypes) + "); these numbers are " + m.layerType +
                     "'s (--layer N or --layer-type picks)");
  } else if (m.family.empty()) {
    // A text model with layers that have no rotary at all (Llama 4's NoPE layers): say whose
    // numbers these are. A stack that cannot be read leaves the command as it was.
    try {
      const LayerStack stack = readLayerStack(model);
      std::string nope;
      for (const StackLayer& l : stack.layers)
        if (!l.rotary) nope += (nope.empty() ? "" : ", ") + std::to_string(l.index);
      if (!nope.empty())
        notes->push_back("model " + m.name + " has layers without rotary (NoPE: " + nope +
                         "); these numbers are the other layers' (--layer N picks one)");
    } catch (const InputError&) {
    }
  }
  return m;
}

AttentionLayer attentionLayerOf(const Request& request) {
  AttentionLayer out;
  if (request.model.empty()) return out;
  try {
    out.stack = readLayerStack(request.model);
  } catch (const InputError&) {
    // A model without a layer stack (no num_hidden_layers, say): every layer as the scene.
    if (request.modelLayer >= 0 || !request.modelLayerType.empty()) throw;
    return out;
  }
  if (request.modelLayer >= 0)
    out.layer = request.modelLayer;
  else if (!request.modelLayerType.empty())
    out.layer = firstLayerOfType(*out.stack, request.modelLayerType);
  return out;
}

namespace {

const std::vector<Option>& options() {
  static const std::vector<Option> table = {
      {"layout", "SPEC", kScene,
       "layout, e.g. t5,i3x3,t2 or t20,v8x16x16,t4 (LLM grids after the 2x2 merge)",
       [](State& s, const std::string& v) {
         s.layoutSpec = v;  // parsed after the options: the image-grid ones decide its pictures
         s.haveLayout = true;
       }},
      {"model", "DIR|NAME", kModel | kLayers,
       "a checkpoint folder (config.json, preprocessor_config.json) or a shipped config, e.g. "
       "qwen2.5-vl-7b: the family's design, rotary, token ids and image grid (plan options "
       "override)",
       [](State&, const std::string&) {}},  // applied before the other options (parseArguments)
      {"layer-type", "NAME", kModel,
       "a --model whose rope_parameters are keyed by layer type (full_attention, "
       "sliding_attention, ...): the layers whose rotary to use (default full_attention)",
       [](State& s, const std::string& v) {  // read with --model (parseArguments)
         if (v.empty()) throw InputError("--layer-type needs a layer type name", "layer-type");
         if (!s.haveModel)
           throw InputError(
               "--layer-type needs --model DIR|NAME (a config with a rope block "
               "per layer type)",
               "layer-type");
       }},
      {"layer", "N", kModel,
       "a --model whose rotary changes by layer (Gemma 3, Gemma 4, Llama 4; `ropescope layers` "
       "lists them): the layer whose rotary to use, 0..layers-1 (a NoPE layer has none)",
       [](State& s, const std::string&) {  // read with --model (parseArguments)
         if (!s.haveModel)
           throw InputError("--layer needs --model DIR|NAME (a config whose layers it numbers)",
                            "layer");
       }},
      {"tokens", "FILE.json", kTokens,
       "a processor output saved as json.dump({k: v.tolist() for k, v in inputs.items()}) "
       "becomes the layout (needs --model)",
       [](State& s, const std::string& v) {
         if (v.empty()) throw InputError("--tokens needs a file name", "tokens");
         s.tokensPath = v;
       }},
      {"row", "N", kTokens,
       "--tokens holding a batch of prompts (input_ids [B, N], padded): the row to show, "
       "0..B-1; check-ids checks every row unless --row is given",
       [](State& s, const std::string& v) {
         s.req.row = parseInt("row", v, 0, 1 << 20);
         s.req.rowGiven = true;
       }},
      {"grid-preset", "NAME", kScene | kGrid,
       namesHelp("pictures' processor (default qwen2.5-vl): ", imageGridPresetNames(),
                 "; the four below override it"),
       [](State& s, const std::string& v) { gridPreset(s, "--grid-preset", v); }},
      {"preset", "NAME", kGrid,
       "the same as --grid-preset (grid only: render --preset is a figure)",
       [](State& s, const std::string& v) { gridPreset(s, "--preset", v); }},
      {fieldFlag("min_pixels"), "N", kScene | kGrid, fieldHelp("min_pixels"),
       [](State& s, const std::string& v) { gridOption(s, "min_pixels", &s.minPixels, v); }},
      {fieldFlag("max_pixels"), "N", kScene | kGrid, fieldHelp("max_pixels"),
       [](State& s, const std::string& v) { gridOption(s, "max_pixels", &s.maxPixels, v); }},
      {fieldFlag("patch"), "N", kScene | kGrid, fieldHelp("patch"),
       [](State& s, const std::string& v) { gridOption(s, "patch", &s.patch, v); }},
      {fieldFlag("merge"), "N", kScene | kGrid, fieldHelp("merge"),
       [](State& s, const std::string& v) { gridOption(s, "merge", &s.merge, v); }},
      {"scene", "FILE", kSceneFile,
       "read layout, design, parameters and plan from a scene file (.json)",
       [](State& s, const std::string& v) {
         s.req.scene = loadSceneFile(v);
         s.haveScene = true;
       }},
      {fieldFlag("design"), "NAME", kScene | kGrid,
       namesHelp("position design: ", designChoices(), " (ids-file with --ids)"),
       [](State& s, const std::string& v) {
         if (v.empty()) findDesign(v);  // refused with the designs' names (empty means unset)
         s.designFlag = v;
       }},
      {"rules", "NAME", kScene, rulesHelp(),
       [](State& s, const std::string& v) {
         // Refused with the compact list (the releases are many); "v5.5.4" is "5.5.4".
         param(s, "rules", ruleSetName(parseRuleSet(v)), "--rules");
       }},
      {"ids", "FILE.npy", kScene,
       "design ids-file: your own (t,h,w) per token, [N,3] or [3,N], int or float; the layout "
       "(--layout or --scene) says what each token is and must have N tokens",
       [](State& s, const std::string& v) {
         if (v.empty()) throw InputError("--ids needs a file name", "ids_file");
         s.idsPath = v;
       }},
      {"alpha", "A", kScene, parameterOptionHelp("alpha", "angle mix alpha"),
       [](State& s, const std::string& v) { param(s, "alpha", v, "--alpha"); }},
      {"radius", "R|auto|auto-K", kScene,
       parameterOptionHelp("radius", "ring radius R", ", auto, or auto-K"),
       [](State& s, const std::string& v) {
         if (v == "auto") {
           param(s, "radius_mode", "auto", "--radius");
         } else if (v.rfind("auto-", 0) == 0) {
           param(s, "radius_mode", "auto", "--radius");
           param(s, "auto_k", v.substr(5), "--radius auto-K");
         } else {
           param(s, "radius_mode", "fixed", "--radius");
           param(s, "radius", v, "--radius");
         }
       }},
      {"dff", "BETA", kScene, parameterOptionHelp("dff", "Dual-Frame Fusion beta"),
       [](State& s, const std::string& v) { param(s, "dff", v, "--dff"); }},
      {"param", "KEY=VALUE", kScene,
       "any design parameter, e.g. fps=4, temporal_stride=2, centre=false, move_to_positive=auto "
       "(see the design list below); true/false for switches",
       [](State& s, const std::string& v) {
         const auto eq = v.find('=');
         if (eq == std::string::npos || eq == 0)
           throw InputError("--param expects KEY=VALUE (got \"" + v + "\")", "param");
         param(s, v.substr(0, eq), v.substr(eq + 1), "--param " + v.substr(0, eq));
       }},
      fieldOption("age_layer", "L", kScene),
      fieldOption("age_strategy", "S", kScene),
      fieldOption("age_layers", "L", kScene),
      {fieldFlag("plan"), "NAME", kPlan, namesHelp("frequency plan: ", planChoices()),
       [](State& s, const std::string& v) {
         const auto edit = [v](Scene& scene) {
           if (v != scene.frequency.plan) scene.frequency.sections.clear();
           scene.frequency.plan = v;
         };
         edit(s.req.scene);
         s.planEdits.push_back(edit);
         s.havePlan = true;
       }},
      // Parsed within the table's range; core then checks what depends on other fields (even,
      // the rotary dim at most the head dim) and names the range.
      planOption("head_dim", "D"),
      planOption("rotary_dim", "R"),
      planOption("pairs", "neox|gptj"),
      planOption("base", "B"),
      planOption("sections", "T,H,W"),
      planOption("kv_heads", "N"),
      planOption("kv_head", "K"),
      {"rope", "TYPE", kRope,
       namesHelp("context extension of the rotary as transformers computes it (rope_type): ",
                 ropeTypeNames(),
                 "; over all pairs in pair order, then the plan's axes (replaces --model's)"),
       [](State& s, const std::string& v) {
         findRopeType(v);  // refuses an unknown type now, naming the accepted ones
         s.ropeType = v;
       }},
      {"rope-param", "KEY=VALUE", kRope,
       "a parameter of the rope type, e.g. factor=4, original_max_position_embeddings=32768, "
       "truncate=false, short_factor=1,1.1,... (one per pair; see the rope types below)",
       [](State& s, const std::string& v) {
         const auto eq = v.find('=');
         if (eq == std::string::npos || eq == 0)
           throw InputError("--rope-param expects KEY=VALUE (got \"" + v + "\")", "rope-param");
         const std::string key = v.substr(0, eq);
         for (const ParamValue& p : s.ropeParams)
           if (p.key == key) throw InputError("--rope-param " + key + " given twice", key);
         s.ropeParams.push_back({key, v.substr(eq + 1), "--rope-param " + key});
       }},
      {"max-position-id", "P", kRope,
       "dynamic / longrope: the sequence's largest position id over all axes; the frequencies "
       "the rotary forward switches to for it (default: the largest id of the layout, scene or "
       "tokens given, as the forward takes it; without one, as the module is built)",
       [](State& s, const std::string& v) {
         s.maxPositionId = parseWholeOption<long long>("max-position-id", v, 0, kMaxRopePositionId);
       }},
      {"axis", "t|h|w", kDecay, "decay along one axis (default: all three together, the text axis)",
       [](State& s, const std::string& v) {
         if (v != "t" && v != "h" && v != "w")
           throw InputError("--axis must be t, h or w (got \"" + v + "\")", "axis");
         if (s.haveDirection)
           throw InputError("give either --axis or --direction, not both", "axis");
         s.haveAxis = true;
         s.req.direction = {v == "t" ? 1.0 : 0.0, v == "h" ? 1.0 : 0.0, v == "w" ? 1.0 : 0.0};
       }},
      {"direction", "A,B,C", kDecay,
       [] {
         static const std::string help =
             std::string("decay along the displacement direction (t, h, w), each in ") +
             kDecayDirectionRange + "; distance d moves d*(t, h, w), not normalised";
         return help.c_str();
       }(),
       [](State& s, const std::string& v) {
         if (s.haveAxis)
           throw InputError("give either --axis or --direction, not both", "direction");
         const auto d = parseList("direction", v, 3, std::string("in ") + kDecayDirectionRange);
         if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0)
           throw InputError("--direction must not be 0,0,0 (give a nonzero t,h,w direction)",
                            "direction");
         s.haveDirection = true;
         s.req.direction = {d[0], d[1], d[2]};
       }},
      {"max-distance", "N", kDecay | kRender, maxDistanceHelp(),
       [](State& s, const std::string& v) {
         s.req.maxDistance = parseMaxDistance(v);
         s.req.maxDistanceGiven = true;
       }},
      {"form", "full|subset", kDecay,
       "full: all pairs in the partial sums (default); subset: only the moving axis's pairs",
       [](State& s, const std::string& v) {
         if (v != "full" && v != "subset")
           throw InputError("--form must be full or subset (got \"" + v + "\")", "form");
         s.req.subsetForm = v == "subset";
       }},
      {"context", "L", kFreqs, contextHelp(),
       [](State& s, const std::string& v) {
         s.req.contextLength = parseNumber("context", v, "> 0");
         if (s.req.contextLength <= 0)
           throw InputError("--context must be > 0 (got \"" + v + "\")", "context");
       }},
      {"format", "json|csv|npy", kTables,
       "output format: json or csv; ids also npy, an [N,3] float64 array of t,h,w (chosen by "
       "--out FILE.npy) (default json)",
       [](State& s, const std::string& v) { s.req.format = parseTableFormat(v); }},
      // attention lists --format among its own options (own_options.cpp): --readouts takes more.
      {"out", "FILE", kTables | kGrid | kBudget | kPrinciples | kPixels | kQkUsage | kLayers,
       "write the output to FILE (atomically) instead of standard output",
       [](State& s, const std::string& v) { setOut(s, v); }},
      {"out", "FILE.npy", kAttention,
       "write the rows (or pooled blocks) to FILE.npy as float32 [heads, rows, N]",
       [](State& s, const std::string& v) {
         setOut(s, v);
         // A device, FIFO or open descriptor (/dev/null, a pipe to numpy) takes the bytes as
         // they are; a file is named as what it holds.
         const bool npy = v.size() >= 4 && v.compare(v.size() - 4, 4, ".npy") == 0;
         if (!npy && checkOutputPath(v).kind != OutputKind::Direct)
           throw InputError("--out must name a .npy file, a device or a FIFO (got \"" + v +
                                "\"): attention writes float32 .npy",
                            "out");
       }},
      {"out", "DIR", kRotary,
       "the folder the tables go to: created, or an empty one; a folder that holds files only "
       "with --force",
       [](State& s, const std::string& v) { setOut(s, v); }},
      // render lists --out among its own options (cmd_render.cpp), with the formats it writes.
      {"out", "FILE", kRender,
       "output file; the extension picks the format: .png .svg .pdf (figure) or .csv .json (the "
       "data behind the view)",
       [](State& s, const std::string& v) { setOut(s, v); }},
      {"from", "GROUP", kPtd | kBias,
       "measure from the tokens of GROUP: text, visual, image, video or audio (default text)",
       [](State& s, const std::string& v) { s.req.groups.from = parseTokenGroup(v, "from"); }},
      {"to", "GROUP", kPtd | kBias,
       "measure to the tokens of GROUP, without tokens in common with --from (default visual)",
       [](State& s, const std::string& v) { s.req.groups.to = parseTokenGroup(v, "to"); }},
      {"threads", "N", kPtd | kBias | kDecay | kAttention | kQkUsage, threadsHelp(),
       [](State& s, const std::string& v) {
         s.req.threads = parseInt("threads", v, 0, kMaxThreads);
       }},
      {"progress", nullptr, kPtd | kBias,
       "print the percentage done on standard error, one line per step (Ctrl-C stops the "
       "computation cleanly with or without it)",
       [](State& s, const std::string&) { s.req.progress = true; }},
      {"help", nullptr, kAll, "show this help",
       [](State& s, const std::string&) { s.req.help = true; }},
  };
  return table;
}

// A switch's value: true/false or 1/0, as the scene file takes it.
double parseSwitch(const ParamValue& p, const ParameterSpec& spec) {
  if (const auto named = namedParameterValue(spec, p.raw)) return *named;
  try {
    return parseNumberAs(p.flag, p.key, p.raw, spec.rangeText());
  } catch (const InputError&) {
    throw InputError(p.flag + " must be " + spec.rangeText() + " (got \"" + p.raw + "\")", p.key);
  }
}

// A choice by name ("auto") or by its index.
double parseChoice(const ParamValue& p, const ParameterSpec& spec) {
  if (const auto named = namedParameterValue(spec, p.raw)) return *named;
  try {
    return parseNumberAs(p.flag, p.key, p.raw, spec.rangeText());
  } catch (const InputError&) {
    throw InputError(p.flag + " must be one of " + spec.rangeText() + " (got \"" + p.raw + "\")",
                     p.key);
  }
}

// "design circle" or "designs circle and hope": the designs that take parameter `key`.
std::string designsWith(const std::string& key) {
  std::vector<std::string> names;
  for (const PositionDesign* d : allDesigns())
    if (findSpec(d->parameters(), key)) names.push_back(d->name());
  std::string out = names.size() == 1 ? "design " : "designs ";
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// The image-grid options over `base`: a --preset in its place, then each number given.
ImageGridSettings gridOptions(const State& s, const ImageGridSettings& base) {
  ImageGridSettings g = s.gridPreset.empty() ? base : imageGridPreset(s.gridPreset);
  if (s.minPixels) g.minPixels = s.minPixels;
  if (s.maxPixels) g.maxPixels = s.maxPixels;
  if (s.patch) g.patch = static_cast<int>(s.patch);
  if (s.merge) g.merge = static_cast<int>(s.merge);
  validateImageGridSettings(g);
  return g;
}

void applyParams(State& s) {
  Scene& scene = s.req.scene;
  // The plan the design was published with, unless --plan chose one; a family's rotary and
  // picture grid, under the plan and grid options given.
  if (!s.designFlag.empty()) {
    pickDesign(scene, s.designFlag, s.havePlan);
    for (const auto& edit : s.planEdits) edit(scene);
    if (!s.firstGridFlag.empty()) useImageGrid(scene, gridOptions(s, scene.imageGrid));
  }
  const PositionDesign& design = findDesign(scene.design);
  const auto specs = design.parameters();
  for (const ParamValue& p : s.params) {
    const ParameterSpec* spec = findSpec(specs, p.key);
    if (!spec) {
      if (p.flag.rfind("--param ", 0) != 0)  // --alpha, --radius, --dff
        throw InputError(
            p.flag + " applies to " + designsWith(p.key) + " (the design is " + design.name() + ")",
            p.key);
      requireSpec(specs, p.key, design.name());  // throws, naming the design's parameters
    }
    double value = 0.0;
    if (spec->kind == ParameterSpec::Kind::Choice) {
      value = parseChoice(p, *spec);
    } else if (spec->kind == ParameterSpec::Kind::Bool) {
      value = parseSwitch(p, *spec);
    } else {
      value = parseNumberAs(p.flag, p.key, p.raw, "in " + spec->rangeText());
    }
    if (std::string m = spec->check(value); !m.empty()) {
      // The K of --radius auto-K is the auto_k parameter: say so in the flag's terms.
      if (p.flag == "--radius auto-K") m = "--radius auto-K: K" + m.substr(p.key.size());
      throw InputError(m, p.key);
    }
    scene.designParams.set(p.key, value);
  }
}

// --rope and --rope-param over the scene's scaling (a --model's, or none): the type's table
// names the keys and ranges; each value is checked here, the whole scaling by core.
void applyRope(State& s) {
  RopeScaling& rope = s.req.scene.frequency.rope;
  if (!s.ropeType.empty()) rope = RopeScaling{s.ropeType, {}, {}, {}, -1};
  if (rope.type.empty() && (!s.ropeParams.empty() || s.maxPositionId >= 0))
    throw InputError(std::string(!s.ropeParams.empty() ? "--rope-param" : "--max-position-id") +
                         " needs --rope TYPE (" + joinNames(ropeTypeNames()) +
                         ") or a --model whose config has a scaling",
                     "rope");
  if (s.maxPositionId >= 0) rope.maxPositionId = s.maxPositionId;
  if (rope.type.empty()) return;
  const RopeType& type = findRopeType(rope.type);
  for (const ParamValue& p : s.ropeParams) {
    if (p.key == "short_factor" || p.key == "long_factor") {
      bool listed = false;
      for (const RopeListSpec& l : type.lists()) listed = listed || l.key == p.key;
      if (listed) {
        std::vector<double>& list = p.key == "short_factor" ? rope.shortFactor : rope.longFactor;
        try {  // the one reader of a typed list (the desktop app's too); core checks the values
          list = parseRopeListText(p.raw, p.key);
        } catch (const InputError& e) {
          throw InputError("--rope-param " + std::string(e.what()), p.key);
        }
        continue;
      }
    }
    const ParameterSpec* spec = findSpec(type.parameters(), p.key);
    if (!spec)
      throw InputError(p.flag + ": rope type " + type.name() + " has no parameter \"" + p.key +
                           "\" (accepted: " + joinNames(ropeParameterKeys(type)) + ")",
                       p.key);
    const double value = spec->kind == ParameterSpec::Kind::Bool
                             ? parseSwitch(p, *spec)
                             : parseNumberAs(p.flag, p.key, p.raw, "in " + spec->rangeText());
    if (std::string m = spec->check(value); !m.empty()) throw InputError(p.flag + ": " + m, p.key);
    rope.params.set(p.key, value);
  }
  resolvePairs(s.req.scene.frequency);  // the whole scaling, now: one line naming the problem
}

// The rule set --rules names (a design parameter, read before the parameters are applied: the
// layout is made first); nullopt without --rules.
std::optional<std::size_t> rulesOption(const State& s) {
  for (const ParamValue& p : s.params)
    if (p.key == "rules") return static_cast<std::size_t>(parseRuleSet(p.raw));
  return s.ownRules;
}

// The image-grid options over the scene's settings, then the layout parsed with them.
void applyLayout(State& s) {
  Scene& scene = s.req.scene;
  if (!s.firstGridFlag.empty() && !s.haveLayout && s.req.command != kGrid)
    throw InputError(s.firstGridFlag + " sets how --layout's pictures become grids; give it with " +
                         "--layout (a scene file keeps its own image_grid)",
                     "layout");
  const ImageGridSettings g = gridOptions(s, scene.imageGrid);
  scene.imageGrid = g;
  // FAMILY: items as the --rules release's processor writes them; sounds by the scene's design
  // (a --model's; a --design given too recounts them as it is set, setDesign).
  LayoutFileContext files{{}, g};
  files.audio = audioTokenRuleOf(scene.design);
  files.rules = rulesOption(s);
  if (s.haveLayout) scene.layout = parseLayoutSpec(s.layoutSpec, files);
}

}  // namespace

namespace {

// The whole text as a T: no sign or space around it, nothing after it.
template <class T>
bool readAll(const std::string& text, T* v) {
  const char* e = text.data() + text.size();
  const auto res = std::from_chars(text.data(), e, *v);
  return !text.empty() && res.ec == std::errc() && res.ptr == e;
}

}  // namespace

template <class T>
T parseWholeOption(const std::string& option, const std::string& text, T lo, T hi) {
  T v = 0;
  if (!readAll(text, &v) || v < lo || v > hi)
    throw InputError("--" + option + " expects a whole number in " + std::to_string(lo) + ".." +
                         std::to_string(hi) + " (got \"" + text + "\")",
                     option);
  return v;
}
template int parseWholeOption<int>(const std::string&, const std::string&, int, int);
template long parseWholeOption<long>(const std::string&, const std::string&, long, long);
template long long parseWholeOption<long long>(const std::string&, const std::string&, long long,
                                               long long);
template unsigned long long parseWholeOption<unsigned long long>(const std::string&,
                                                                 const std::string&,
                                                                 unsigned long long,
                                                                 unsigned long long);

double parseNumberAs(const std::string& flag, const std::string& field, const std::string& text,
                     const std::string& accepted) {
  double v = 0.0;
  if (!readAll(text, &v))
    throw InputError(flag + " expects a number " + accepted + " (got \"" + text + "\")", field);
  if (!std::isfinite(v))
    throw InputError(flag + " must be a finite number " + accepted + " (got \"" + text + "\")",
                     field);
  return v;
}

double parseNumberOption(const std::string& option, const std::string& text, double lo, double hi) {
  double v = 0.0;
  if (!readAll(text, &v) || !std::isfinite(v) || v < lo || v > hi)
    throw InputError("--" + option + " expects a number in " + formatDouble(lo) + ".." +
                         formatDouble(hi) + " (got \"" + text + "\")",
                     option);
  return v;
}

int parseMaxDistance(const std::string& text) {
  return parseWholeOption("max-distance", text, kMinDecayDistance, kMaxDecayDistance);
}

namespace {
// The name and summary of every row of commands.inc, by its CommandIndex.
struct CommandWords {
  const char* name;
  const char* summary;
};
constexpr CommandWords kCommandWords[] = {
#define ROPESCOPE_COMMAND(id, name, summary, run, program) {name, summary},
#include "commands.inc"
#undef ROPESCOPE_COMMAND
};
static_assert(std::size(kCommandWords) == kCommandCount);

const CommandWords& commandWordsOf(Command c) {
  return kCommandWords[std::countr_zero(static_cast<unsigned>(c))];
}
}  // namespace

const char* commandName(Command c) {
  return commandWordsOf(c).name;
}

const char* commandSummary(Command c) {
  return commandWordsOf(c).summary;
}

bool parseCommand(const std::string& name, Command* out) {
  for (Command c : kAllCommands)
    if (name == commandName(c)) {
      *out = c;
      return true;
    }
  return false;
}

Request parseArguments(Command command, const std::vector<std::string>& args,
                       const ExtraOptions& extra, const Scene* base,
                       std::vector<std::string>* positional) {
  CommandLine line = splitCommandLine(command, args, positional != nullptr);
  if (positional) *positional = std::move(line.positional);
  return parseArguments(command, line, extra, base);
}

Request parseArguments(Command command, const CommandLine& line, const ExtraOptions& extra,
                       const Scene* base) {
  State s;
  s.req.command = command;
  s.req.scene = base ? *base : defaultScene();
  s.haveScene = base != nullptr;
  // --model first, wherever it stands: the plan and design options override what it sets.
  std::string layerType, layerText;
  bool layerGiven = false;
  for (const GivenOption& g : line.options) {
    if (g.name == "layer-type") layerType = g.value;
    if (g.name == "layer" && (command & kModel)) {
      layerText = g.value;
      layerGiven = true;
    }
  }
  for (const GivenOption& g : line.options) {
    if (g.name != "model") continue;
    if (s.haveModel) throw InputError("--model given twice", "model");
    if (layerGiven && !layerType.empty())
      throw InputError("give either --layer or --layer-type, not both", "layer");
    s.model = pickModelLayer(g.value, layerType, layerGiven, layerText, &s.req.inputNotes,
                             command == kAttention);
    s.req.scene = applyModel(s.req.scene, s.model);
    s.req.model = g.value;
    s.req.modelLayer = s.model.layer;
    s.req.modelLayerType = layerType;
    s.req.modelMaxPositions = s.model.maxPositionEmbeddings;
    s.haveModel = true;
  }
  std::vector<std::string> given;  // options seen so far: each may be given once
  for (const GivenOption& g : line.options) {
    // --param names its key; a key given twice is caught with the parameters.
    if (g.name != "param" && g.name != "rope-param") {
      if (std::find(given.begin(), given.end(), g.name) != given.end())
        throw InputError("--" + g.name + " given twice", g.name);
      given.push_back(g.name);
    }
    const Option* opt = nullptr;
    for (const Option& o : options())
      if (g.name == o.name && (o.commands & command)) opt = &o;
    if (opt) {
      opt->apply(s, g.value);
      if (s.req.help) return s.req;
      continue;
    }
    // The command's own option (own_options.h): the subcommand applies it.
    if (!extra || !extra(g.name, [&g] { return g.value; }))
      throw InputError("unknown option --" + g.name + " for " + commandName(command) +
                       " (see ropescope " + commandName(command) + " --help)");
    // The command checked the name; "all" names no one set (the reader says "every release").
    if (g.name == "rules" && g.value != "all")
      s.ownRules = static_cast<std::size_t>(parseRuleSet(g.value));
  }
  if (s.haveLayout && s.haveScene && !base)
    throw InputError("give either --layout or --scene, not both", "layout");
  if (s.haveModel && s.haveScene && !base)
    throw InputError(
        "give either --model or --scene, not both (a scene file keeps its own "
        "design and plan)",
        "model");
  const bool haveTokens = !s.tokensPath.empty();
  if (haveTokens) {
    if (!s.haveModel)
      throw InputError(
          "--tokens needs --model DIR|NAME (the token ids and the family come from "
          "the model's config)",
          "tokens");
    if (s.haveLayout || s.haveScene)
      throw InputError(std::string("give either --tokens or ") +
                           (s.haveLayout ? "--layout" : "--scene") + ", not both",
                       "tokens");
  }
  if ((command & kNeedsLayout) && !s.haveLayout && !s.haveScene && !haveTokens && !s.req.help)
    throw InputError(std::string(commandName(command)) +
                         " needs --layout SPEC (e.g. t5,i3x3,t2) or --scene FILE",
                     "layout");
  applyLayout(s);
  if (haveTokens) {
    // Runs that disagree with their grids are read as --rules' release reads them (tokens_file.h).
    const std::optional<std::size_t> rules = rulesOption(s);
    s.req.tokenRows = splitBatchRows(readTokenRows(s.tokensPath), s.model, {rules, nullptr});
    const std::size_t rows = s.req.tokenRows.size();
    if (s.req.rowGiven && static_cast<std::size_t>(s.req.row) >= rows)
      throw InputError("--row " + std::to_string(s.req.row) + " is out of range: \"" +
                           s.tokensPath + "\" holds " +
                           countOf(static_cast<long long>(rows), "row") + " (0.." +
                           std::to_string(rows - 1) + ")",
                       "row");
    if (rows > 1 && !s.req.rowGiven && command != kCheckIds)
      throw InputError("tokens file \"" + s.tokensPath + "\" holds a batch of " +
                           std::to_string(rows) + " sequences; pick one with --row 0.." +
                           std::to_string(rows - 1),
                       "row");
    for (std::size_t b = 0; b < rows; ++b) {
      std::vector<std::string> warnings;
      s.req.rowLayouts.push_back(
          layoutFromTokens(s.req.tokenRows[b], s.model, nullptr, {rules, &warnings}));
      for (const std::string& w : warnings)
        s.req.tokenWarnings.push_back(rows > 1 ? "row " + std::to_string(b) + ": " + w : w);
    }
    const TokenInput& input = s.req.tokenRows[static_cast<std::size_t>(s.req.row)];
    s.req.scene.layout = s.req.rowLayouts[static_cast<std::size_t>(s.req.row)];
    s.req.tokenIds.assign(input.inputIds.begin(), input.inputIds.end());
    s.req.tokenKept = input.kept;
  } else if (s.req.rowGiven) {
    throw InputError("--row needs --tokens (a batch of prompts)", "row");
  }
  applyParams(s);
  applyRope(s);
  // Runs read as the release reads them (a warning): where the release raises on this layout
  // anyway (GLM-4.1V 4.53.0 on a multi-frame video), its one line alone, not the warning too.
  // Only such files pay for this second computation of the ids.
  if (!s.req.tokenWarnings.empty() && familyOfDesign(s.req.scene.design))
    (void)findDesign(s.req.scene.design).ids(s.req.scene.layout, s.req.scene.designParams);
  if (!s.idsPath.empty()) {
    if (!s.designFlag.empty() && s.designFlag != kIdsFileDesign)
      throw InputError("--ids makes the design ids-file; leave out --design " + s.designFlag,
                       "ids_file");
    s.req.scene = withIdsFile(s.req.scene, s.idsPath);
  }
  // A design's or a plan's own option where the scene has another is refused, as --alpha is for
  // another design (--age-layer with mrope and --kv-head without multihead were ignored).
  const auto gave = [&given](const char* name) {
    return std::find(given.begin(), given.end(), name) != given.end();
  };
  const Scene& scene = s.req.scene;
  if (gave(fieldFlag("age_layer")) && scene.design != kAgeDesign)
    throw InputError("--" + std::string(fieldFlag("age_layer")) + " applies to design " +
                         kAgeDesign + " (the design is " + scene.design + ")",
                     "age_layer");
  for (const char* key : {"kv_head", "kv_heads"})
    if (const std::string flag = fieldFlag(key);
        gave(flag.c_str()) && scene.frequency.plan != "multihead")
      throw InputError(
          "--" + flag + " applies to plan multihead (the plan is " + scene.frequency.plan + ")",
          key);
  // .npy is an array: the ids listing only, which --out FILE.npy writes as one.
  const bool npyOut =
      s.req.out.size() > 4 && s.req.out.compare(s.req.out.size() - 4, 4, ".npy") == 0;
  if (command == kIds && npyOut && !gave("format")) s.req.format = TableFormat::Npy;
  if (s.req.format == TableFormat::Npy && command != kIds)
    throw InputError("--format npy writes an array, the ids listing only (" +
                         std::string(commandName(command)) + " writes json or csv)",
                     "format");
  validateScene(s.req.scene);
  // dynamic / longrope: the frequencies the rotary forward uses for this sequence (seq_len = its
  // largest position id + 1, over all axes), unless --max-position-id or the scene file names
  // the id. Without a layout (freqs, decay alone) they are those of the module as built.
  RopeScaling& rope = s.req.scene.frequency.rope;
  if (rope.active() && rope.maxPositionId < 0 && findRopeType(rope.type).sequenceDependent() &&
      (s.haveLayout || s.haveScene || haveTokens)) {
    setRopeMaxPositionIdFromScene(s.req.scene);
  }
  return s.req;
}

std::vector<std::string> designChoices() {
  return sceneField("design").spec.choices;
}

std::vector<std::string> planChoices() {
  return sceneField("plan").spec.choices;
}

std::vector<OptionInfo> optionTable() {
  std::vector<OptionInfo> out;
  for (const Option& o : options()) out.push_back({o.name, o.arg, o.commands, o.help});
  return out;
}

std::string commandHelp(Command command) {
  std::ostringstream o;
  o << "usage: ropescope " << commandName(command) << " [options]\n"
    << commandSummary(command) << "\n"
    << optionsHelp(command) << designsHelp(command);
  return o.str();
}

std::string designsHelp(Command command) {
  std::ostringstream o;
  if (command & kScene) {
    o << "\ndesigns and their parameters (--param KEY=VALUE):\n";
    for (const PositionDesign* d : allDesigns()) {
      o << "  " << d->name() << ": " << d->summary() << "\n";
      for (const ParameterSpec& p : d->parameters())
        o << "      " << p.key << "  " << p.rangeText() << ", default "
          << (p.kind == ParameterSpec::Kind::Choice
                  ? p.choices.at(static_cast<std::size_t>(p.defaultValue))
                  : formatDouble(p.defaultValue))
          << " - " << p.help << "\n";
    }
  }
  if (command & kRope) {
    o << "\nrope types and their parameters (--rope TYPE --rope-param KEY=VALUE; * required):\n";
    for (const RopeType* t : allRopeTypes()) {
      o << "  " << t->name() << ": " << t->summary() << "\n";
      const auto required = t->requiredKeys();
      const auto star = [&](const std::string& key) {
        return std::find(required.begin(), required.end(), key) != required.end() ? "*" : "";
      };
      for (const ParameterSpec& p : t->parameters())
        o << "      " << p.key << star(p.key) << "  " << p.rangeText() << " - " << p.help << "\n";
      for (const RopeListSpec& l : t->lists())
        o << "      " << l.key << star(l.key) << "  numbers > 0, one per pair - " << l.help << "\n";
    }
  }
  return o.str();
}

}  // namespace ropescope::cli
