// The table of Scene fields (scene_fields.h): the one place their ranges, defaults and names
// are written.
#include "ropescope/scene_fields.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <stdexcept>

#include "ropescope/age_schedule.h"
#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/ids_file.h"
#include "ropescope/image_grid.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"
#include "ropescope/scene_defaults.h"

namespace ropescope {

namespace {

using Kind = ParameterSpec::Kind;

// The multihead plan's KV heads are 1..kMaxKvHeads; the KV head shown is one of them.
constexpr int kMaxKvHeads = 256;

// A value of the field's type, as set receives it.
long long asWhole(const FieldValue& v) {
  return std::get<long long>(v);
}
// An int member's value, saturated: a value past int's range stays out of the field's range
// (validateScene refuses it) instead of wrapping into it.
int asInt(const FieldValue& v) {
  return static_cast<int>(std::clamp<long long>(asWhole(v), INT_MIN, INT_MAX));
}
const std::string& asName(const FieldValue& v) {
  return std::get<std::string>(v);
}

// Binds a field to its place in the Scene.
SceneField at(SceneField f, FieldValue (*get)(const Scene&),
              void (*set)(Scene&, const FieldValue&)) {
  f.get = get;
  f.set = set;
  return f;
}

SceneField whole(const char* key, const char* section, const char* jsonKey, const char* flag,
                 double lo, double hi, double def, const char* label, const char* help) {
  SceneField f;
  f.spec.key = key;
  f.spec.label = label;
  f.spec.help = help;
  f.spec.kind = Kind::Integer;
  f.spec.min = lo;
  f.spec.max = hi;
  f.spec.defaultValue = def;
  f.section = section;
  f.jsonKey = jsonKey;
  f.cliFlag = flag;
  return f;
}

SceneField choice(const char* key, const char* section, const char* jsonKey, const char* flag,
                  std::vector<std::string> choices, const std::string& def, const char* label,
                  const char* help) {
  SceneField f = whole(key, section, jsonKey, flag, 0, 0, 0, label, help);
  f.spec.kind = Kind::Choice;
  f.spec.max = static_cast<double>(choices.size()) - 1;
  for (std::size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == def) f.spec.defaultValue = static_cast<double>(i);
  f.spec.choices = std::move(choices);
  return f;
}

SceneField text(const char* key, const char* jsonKey, const char* flag, const char* label,
                const char* help) {
  SceneField f = whole(key, "", jsonKey, flag, 0, 0, 0, label, help);
  f.text = true;
  return f;
}

std::vector<std::string> designNames() {
  std::vector<std::string> out;
  for (const PositionDesign* d : allDesigns()) out.push_back(d->name());
  out.push_back(kIdsFileDesign);
  return out;
}

std::vector<std::string> planNames() {
  std::vector<std::string> out;
  for (const FrequencyPlan* p : allPlans()) out.push_back(p->name());
  return out;
}

std::vector<SceneField> buildTable() {
  std::vector<SceneField> t;
  // Each default is written once: a constant of scene_defaults.h, or the initialiser of the one
  // struct that holds the field (read here from a default-constructed one).
  const Scene blank;
  // The image processor's settings (image_grid.h); the defaults are Qwen2.5-VL's.
  const ImageGridSettings& grid = blank.imageGrid;
  t.push_back(at(
      whole("min_pixels", "image_grid", "min_pixels", "min-pixels", 1,
            static_cast<double>(kMaxMaxPixels), static_cast<double>(grid.minPixels), "Min pixels",
            "smallest resized picture area in pixels"),
      [](const Scene& s) -> FieldValue { return s.imageGrid.minPixels; },
      [](Scene& s, const FieldValue& v) { s.imageGrid.minPixels = asWhole(v); }));
  t.push_back(at(
      whole("max_pixels", "image_grid", "max_pixels", "max-pixels", 1,
            static_cast<double>(kMaxMaxPixels), static_cast<double>(grid.maxPixels), "Max pixels",
            "largest resized picture area in pixels"),
      [](const Scene& s) -> FieldValue { return s.imageGrid.maxPixels; },
      [](Scene& s, const FieldValue& v) { s.imageGrid.maxPixels = asWhole(v); }));
  t.push_back(at(
      whole("patch", "image_grid", "patch", "patch", 1, kMaxPatch, grid.patch, "Patch",
            "ViT patch side in pixels"),
      [](const Scene& s) -> FieldValue { return static_cast<long long>(s.imageGrid.patch); },
      [](Scene& s, const FieldValue& v) { s.imageGrid.patch = asInt(v); }));
  t.push_back(at(
      whole("merge", "image_grid", "merge", "merge", 1, kMaxMerge, grid.merge, "Merge",
            "patches merged per LLM token along each side"),
      [](const Scene& s) -> FieldValue { return static_cast<long long>(s.imageGrid.merge); },
      [](Scene& s, const FieldValue& v) { s.imageGrid.merge = asInt(v); }));
  SceneField rule = at(
      choice("resize_rule", "image_grid", "resize_rule", "",
             {resizeRuleName(ResizeRule::Qwen), resizeRuleName(ResizeRule::Ernie),
              resizeRuleName(ResizeRule::Glm)},
             resizeRuleName(grid.rule), "Resize rule",
             "whose smart_resize cuts pictures into the grid"),
      [](const Scene& s) -> FieldValue { return resizeRuleName(s.imageGrid.rule); },
      [](Scene& s, const FieldValue& v) { s.imageGrid.rule = parseResizeRule(asName(v)); });
  rule.optional = true;  // files before ERNIE and GLM-4V have none: Qwen's
  t.push_back(rule);
  t.push_back(at(
      choice("design", "", "design", "design", designNames(), kDefaultDesign, "Position design",
             "position design"),
      [](const Scene& s) -> FieldValue { return s.design; },
      [](Scene& s, const FieldValue& v) { setDesign(s, asName(v)); }));
  // The frequency plan and its rotary settings (frequency_plan.h).
  t.push_back(at(
      choice("plan", "frequency", "plan", "plan", planNames(), kDefaultPlan, "Plan",
             "frequency plan"),
      [](const Scene& s) -> FieldValue { return s.frequency.plan; },
      [](Scene& s, const FieldValue& v) { s.frequency.plan = asName(v); }));
  SceneField head = at(
      whole("head_dim", "frequency", "head_dim", "head-dim", 2, 1024, kDefaultHeadDim, "Head dim",
            "head dimension"),
      [](const Scene& s) -> FieldValue {
        return static_cast<long long>(s.frequency.rotary.headDim);
      },
      [](Scene& s, const FieldValue& v) { s.frequency.rotary.headDim = asInt(v); });
  head.even = true;
  t.push_back(head);
  SceneField rotary = at(
      whole("rotary_dim", "frequency", "rotary_dim", "rotary-dim", 0, 1024,
            blank.frequency.rotary.rotaryDim, "Rotary dim",
            "dims that rotate (partial rotary, the rest pass through), at most "
            "the head dim, 0 = all"),
      [](const Scene& s) -> FieldValue {
        return static_cast<long long>(s.frequency.rotary.rotaryDim);
      },
      [](Scene& s, const FieldValue& v) { s.frequency.rotary.rotaryDim = asInt(v); });
  rotary.even = true;
  t.push_back(rotary);
  SceneField base = at(
      whole("base", "frequency", "base", "base", 1, 1e12, kDefaultRopeBase, "Base",
            "RoPE base (1e4 RoFormer, 1e6 Qwen2.5-VL, 5e6 Qwen3-VL)"),
      [](const Scene& s) -> FieldValue { return s.frequency.rotary.base; },
      [](Scene& s, const FieldValue& v) { s.frequency.rotary.base = std::get<double>(v); });
  base.spec.kind = Kind::Number;
  base.spec.minExclusive = true;
  t.push_back(base);
  SceneField sections = at(
      whole("sections", "frequency", "sections", "sections", 0, 100000, 0, "Sections",
            "pairs per axis t,h,w (mrope 16,24,24; interleaved 24,20,20); "
            "multihead: KV heads per axis; empty = the plan's default"),
      [](const Scene& s) -> FieldValue { return s.frequency.sections; },
      [](Scene& s, const FieldValue& v) { s.frequency.sections = std::get<std::vector<int>>(v); });
  sections.list = true;
  t.push_back(sections);
  t.push_back(at(
      whole("kv_heads", "frequency", "kv_heads", "kv-heads", 1, kMaxKvHeads, kDefaultKvHeads,
            "KV heads", "multihead: number of KV heads"),
      [](const Scene& s) -> FieldValue { return static_cast<long long>(s.frequency.kvHeads); },
      [](Scene& s, const FieldValue& v) { s.frequency.kvHeads = asInt(v); }));
  t.push_back(at(
      whole("kv_head", "frequency", "kv_head", "kv-head", 0, kMaxKvHeads - 1,
            blank.frequency.kvHead, "KV head",
            "multihead: the KV head whose pair map is used, below the KV heads"),
      [](const Scene& s) -> FieldValue { return static_cast<long long>(s.frequency.kvHead); },
      [](Scene& s, const FieldValue& v) { s.frequency.kvHead = asInt(v); }));
  t.push_back(at(
      choice("pairs", "frequency", "pairs", "pairs",
             {pairLayoutName(PairLayout::NeoX), pairLayoutName(PairLayout::GptJ)},
             pairLayoutName(blank.frequency.rotary.pairs), "Pairs",
             "pair layout: neox = dims p, p + r/2 (Qwen); gptj = 2p, 2p + 1 (GLM-4V, "
             "ERNIE)"),
      [](const Scene& s) -> FieldValue { return pairLayoutName(s.frequency.rotary.pairs); },
      [](Scene& s, const FieldValue& v) {
        s.frequency.rotary.pairs = parsePairLayout(asName(v), "pairs");
      }));
  // Alternating Geometry Encoding (age_schedule.h), circle design only.
  const AgeSchedule& age = blank.age;
  t.push_back(at(
      whole("age_layers", "age", "layers", "layers", 1, 1024, age.layers, "Layers",
            "AGE: number of decoder layers"),
      [](const Scene& s) -> FieldValue { return static_cast<long long>(s.age.layers); },
      [](Scene& s, const FieldValue& v) { s.age.layers = asInt(v); }));
  t.push_back(at(
      choice("age_strategy", "age", "strategy", "age-strategy",
             {ageStrategyName(AgeStrategy::All), ageStrategyName(AgeStrategy::FirstHalf),
              ageStrategyName(AgeStrategy::SecondHalf), ageStrategyName(AgeStrategy::Alternate)},
             ageStrategyName(age.strategy), "Strategy", "AGE strategy"),
      [](const Scene& s) -> FieldValue { return ageStrategyName(s.age.strategy); },
      [](Scene& s, const FieldValue& v) { s.age.strategy = parseAgeStrategy(asName(v)); }));
  t.push_back(at(
      whole("age_layer", "age", "layer", "age-layer", -1, 1023, blank.ageLayer, "Show layer",
            "circle: show the ids AGE layer L uses, below the AGE layers (-1: circle ids)"),
      [](const Scene& s) -> FieldValue { return static_cast<long long>(s.ageLayer); },
      [](Scene& s, const FieldValue& v) { s.ageLayer = asInt(v); }));
  // The text token the views show; its upper bound is the layout's text count.
  t.push_back(at(
      whole("selected_text", "", "selected_text", "", 0, 1000000000, blank.selectedText,
            "Text token", "the selected text token, below the layout's text count"),
      [](const Scene& s) -> FieldValue { return static_cast<long long>(s.selectedText); },
      [](Scene& s, const FieldValue& v) { s.selectedText = asInt(v); }));
  SceneField layout = text("layout", "layout", "layout", "Layout", "the token layout");
  layout.defaultText = "t4,i6x6,t8";
  t.push_back(layout);
  SceneField ids =
      text("ids_file", "ids_file", "ids", "Ids file", "design ids-file: the .npy of ids");
  ids.optional = true;
  t.push_back(ids);
  SceneField model = at(
      text("model", "model", "", "Model", "the model applied last"),
      [](const Scene& s) -> FieldValue { return s.model; },
      [](Scene& s, const FieldValue& v) { s.model = asName(v); });
  model.optional = true;
  t.push_back(model);
  return t;
}

// Whole numbers in full (1099511627776, not 1.09951e+12): the ranges of Integer fields.
std::string wholeText(double v) {
  return std::to_string(static_cast<long long>(v));
}

// A Number field's bound as people write it: 1, 0.5, 1e12 (not 1e+12).
std::string shortest(double v) {
  if (v == static_cast<double>(static_cast<long long>(v)) && v > -1e5 && v < 1e5)
    return wholeText(v);
  std::string s = formatDouble(v);
  if (const auto e = s.find("e+"); e != std::string::npos) s.erase(e + 1, 1);
  if (const auto e = s.find("e0"); e != std::string::npos) s.erase(e + 1, 1);
  return s;
}

}  // namespace

std::string SceneField::rangeText() const {
  if (text) return "text";
  switch (spec.kind) {
    case Kind::Choice: {
      std::string r;
      for (const std::string& c : spec.choices) r += (r.empty() ? "" : ", ") + c;
      return r;
    }
    case Kind::Number: {
      std::string r = spec.minExclusive ? "(" : "[";
      r += shortest(spec.min);
      r += ", ";
      r += shortest(spec.max);
      return r + "]";
    }
    case Kind::Integer:
    case Kind::Bool:
      break;
  }
  return wholeText(spec.min) + ".." + wholeText(spec.max);
}

FieldValue SceneField::defaultValue() const {
  if (text) return defaultText;
  if (list) return std::vector<int>{};
  switch (spec.kind) {
    case Kind::Choice:
      return spec.choices.at(static_cast<std::size_t>(spec.defaultValue));
    case Kind::Number:
      return spec.defaultValue;
    case Kind::Integer:
    case Kind::Bool:
      break;
  }
  return static_cast<long long>(spec.defaultValue);
}

const std::vector<SceneField>& sceneFields() {
  static const std::vector<SceneField> table = buildTable();
  return table;
}

const SceneField& sceneField(std::string_view key) {
  for (const SceneField& f : sceneFields())
    if (f.key() == key) return f;
  throw std::out_of_range("no scene field \"" + std::string(key) + "\"");
}

std::vector<std::string> sceneFieldKeys(std::string_view section) {
  std::vector<std::string> out;
  for (const SceneField& f : sceneFields())
    if (f.section == section) out.push_back(f.jsonKey);
  return out;
}

std::vector<int> parseSectionsText(std::string_view text, const std::string& name) {
  const SceneField& f = sceneField("sections");
  const auto trim = [](std::string_view t) {
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    return t;
  };
  const std::string_view all = trim(text);
  if (all.empty()) return {};
  std::vector<int> out;
  bool ok = true;
  for (std::size_t at = 0; ok && at <= all.size();) {
    const std::size_t comma = std::min(all.find(',', at), all.size());
    const std::string_view item = trim(all.substr(at, comma - at));
    long long v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    ok = !item.empty() && ec == std::errc() && end == item.data() + item.size() &&
         v >= f.spec.min && v <= f.spec.max;
    if (ok) out.push_back(static_cast<int>(v));
    at = comma + 1;
  }
  if (!ok || out.size() != 3)
    throw InputError(name + " expects three whole numbers t,h,w in " + f.rangeText() +
                         ", e.g. 16,24,24, or nothing for the plan's default (got \"" +
                         std::string(text) + "\")",
                     f.key());
  return out;
}

std::string formatSectionsText(const std::vector<int>& sections) {
  std::string out;
  for (int s : sections) {
    if (!out.empty()) out += ',';
    out += std::to_string(s);
  }
  return out;
}

std::string sceneFieldHelp(const SceneField& f) {
  std::string h = f.spec.help;
  if (f.text) return h;
  if (f.spec.kind == Kind::Choice) {
    h += ": " + f.rangeText() + " (default " +
         f.spec.choices.at(static_cast<std::size_t>(f.spec.defaultValue)) + ")";
    return h;
  }
  h += std::string(", ") + (f.even ? "even, " : "") + f.rangeText();
  if (!f.list)
    h += " (default " +
         (f.spec.kind == Kind::Number ? shortest(f.spec.defaultValue)
                                      : wholeText(f.spec.defaultValue)) +
         ")";
  return h;
}

}  // namespace ropescope
