// Scene defaults, validation and the JSON session file (read with strict type checks, written
// atomically so a crash mid-save leaves the previous file intact).
#include "ropescope/scene.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include <filesystem>

#include "ropescope/atomic_file.h"
#include "ropescope/errors.h"
#include "ropescope/ids_file.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_family.h"
#include "ropescope/named.h"
#include "ropescope/position_design.h"
#include "ropescope/scene_fields.h"
#include "scene_rope.h"

namespace ropescope {

using json = nlohmann::ordered_json;

namespace {
constexpr const char* kFormat = "ropescope-scene";
constexpr int kVersion = 1;
constexpr std::size_t kMaxSceneBytes = 16u << 20;

[[noreturn]] void sceneError(const std::string& what, const std::string& field = {}) {
  throw InputError("scene file: " + what, field);
}

void rejectUnknownKeys(const json& obj, const std::vector<std::string>& allowed,
                       const std::string& where) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    std::string list;
    for (const std::string& a : allowed) {
      ok = ok || it.key() == a;
      list += (list.empty() ? "" : ", ") + a;
    }
    if (!ok)
      sceneError("unknown key \"" + it.key() + "\" in " + where + " (accepted: " + list + ")");
  }
}

// nlohmann's message without its "[json.exception.type.id] " prefix.
std::string jsonMessage(const nlohmann::json::exception& e) {
  std::string m = e.what();
  if (m.rfind("[json.exception.", 0) == 0)
    if (const auto end = m.find("] "); end != std::string::npos) m.erase(0, end + 2);
  return m;
}

// 1-based line of the first place `token` stands as a number in `text` (not inside a longer
// word or number), 0 if it is not found.
std::size_t lineOfNumber(const std::string& text, const std::string& token) {
  if (token.empty()) return 0;
  const auto numberChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-';
  };
  for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + 1)) {
    const std::size_t end = at + token.size();
    if ((at == 0 || !numberChar(text[at - 1])) && (end >= text.size() || !numberChar(text[end])))
      return static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
  }
  return 0;
}

// Parses JSON text, refusing a key given twice in one object (nlohmann keeps the last one
// silently) and naming the line of a number too large for a double.
json parseJsonStrictly(const std::string& text) {
  std::vector<std::vector<std::string>> open;  // keys of each object being read
  std::string duplicate;
  const json::parser_callback_t seen = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      open.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      if (!open.empty()) open.pop_back();
    } else if (event == json::parse_event_t::key && !open.empty() && duplicate.empty()) {
      const std::string key = parsed.get<std::string>();
      auto& keys = open.back();
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) duplicate = key;
      keys.push_back(key);
    }
    return true;
  };
  json j;
  try {
    j = json::parse(text, seen);
  } catch (const json::out_of_range& e) {
    // "number overflow parsing '1e400'": the lexer gives no position, so find the number.
    const std::string m = jsonMessage(e);
    const auto q = m.find('\''), q2 = m.rfind('\'');
    const std::string token = q != std::string::npos && q2 > q ? m.substr(q + 1, q2 - q - 1) : "";
    const std::size_t line = lineOfNumber(text, token);
    sceneError("number " + token + " is out of range" +
               (line ? " at line " + std::to_string(line) : std::string()) +
               " (accepted: finite numbers up to about 1.8e308)");
  } catch (const json::exception& e) {
    std::string msg = jsonMessage(e);
    const auto pos = msg.find("parse error");
    sceneError("not valid JSON (" + (pos == std::string::npos ? msg : msg.substr(pos)) + ")");
  }
  if (!duplicate.empty()) sceneError("key \"" + duplicate + "\" given twice", duplicate);
  return j;
}

// A JSON whole number: an integer, or a float with a whole value (128.0, as numpy's float64
// values and many writers put it) up to 2^53, where every whole number is exact.
std::optional<long long> wholeValue(const json& v) {
  if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<long long>();
  if (v.is_number_unsigned()) {
    const auto u = v.get<unsigned long long>();
    if (u <= static_cast<unsigned long long>(LLONG_MAX)) return static_cast<long long>(u);
    return std::nullopt;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0)
      return static_cast<long long>(d);
  }
  return std::nullopt;
}

// `field`: the error's field id; empty for the key itself (keys that are not Scene fields).
template <typename T>
T getAs(const json& obj, const char* key, const std::string& where, std::string field = {}) {
  if (field.empty()) field = key;
  const json& v = obj.at(key);
  if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) sceneError(where + "." + key + " must be a string", field);
  } else if constexpr (std::is_same_v<T, int>) {
    const std::optional<long long> whole = wholeValue(v);
    if (!whole) sceneError(where + "." + key + " must be a whole number", field);
    const long long x = *whole;
    if (x < -1000000000LL || x > 1000000000LL)
      sceneError(where + "." + key + " is out of range", field);
    return static_cast<int>(x);
  } else if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number()) sceneError(where + "." + key + " must be a number", field);
  }
  return v.get<T>();
}

// Writes `value` at the field table's JSON place of `f` (its section's object, or the top).
template <typename T>
void putField(json& scene, const SceneField& f, const T& value) {
  (f.section.empty() ? scene : scene[f.section])[f.jsonKey] = value;
}
template <typename T>
void putField(json& scene, const char* key, const T& value) {
  putField(scene, sceneField(key), value);
}

// The value of field `f` in its section's object `obj` (where it is present), of the field's
// type. Ranges are validateScene's, except that a whole number must fit the Scene's member.
FieldValue readField(const json& obj, const SceneField& f) {
  const json& v = obj.at(f.jsonKey);
  const std::string where =
      (f.section.empty() ? std::string("scene") : f.section) + "." + f.jsonKey;
  // A wrong value names the accepted ones and what the file has (its start, if long).
  const auto refuse = [&](const std::string& accepted) {
    std::string got = v.dump();
    if (got.size() > 40) got = got.substr(0, 37) + "...";
    sceneError(where + " must be " + accepted + " (got " + got + ")", f.key());
  };
  if (f.list) {
    const std::string accepted = "[] or [t, h, w], whole numbers in " + f.rangeText();
    if (!v.is_array() || v.size() > 3) refuse(accepted);
    std::vector<int> out;
    for (const json& x : v) {
      const std::optional<long long> whole = wholeValue(x);
      if (!whole || *whole < f.spec.min || *whole > f.spec.max) refuse(accepted);
      out.push_back(static_cast<int>(*whole));
    }
    return out;
  }
  if (f.text) {
    if (!v.is_string()) refuse("a string");
    return v.get<std::string>();
  }
  if (f.spec.kind == ParameterSpec::Kind::Choice) {
    if (!v.is_string()) refuse("one of " + f.rangeText());
    return v.get<std::string>();
  }
  if (f.spec.kind == ParameterSpec::Kind::Number) {
    if (!v.is_number()) refuse("a number in " + f.rangeText());
    return v.get<double>();
  }
  // An int member holds +-1e9; the pixel counts' long long holds the table's range.
  const double reach = std::max(1e9, f.spec.max);
  const std::optional<long long> whole = wholeValue(v);
  if (!whole || std::abs(static_cast<double>(*whole)) > reach)
    refuse(std::string(f.even ? "an even" : "a") + " whole number in " + f.rangeText());
  return *whole;
}

// Sets every field of `section` that `obj` holds, in table order. A name the field does not
// know is refused with its place in the file ("frequency.pairs: pair layout must be ...").
void readSection(const json& obj, std::string_view section, Scene& s) {
  for (const SceneField& f : sceneFields()) {
    if (f.section != section || !f.set || !obj.contains(f.jsonKey)) continue;
    const FieldValue v = readField(obj, f);
    try {
      f.set(s, v);
    } catch (const InputError& e) {
      sceneError(f.jsonPath() + ": " + e.what(), f.key());
    }
  }
}

// The keys of the file's top level: its header and the layout, then the table's sections and
// top-level fields in table order, the design's parameters after the design.
std::vector<std::string> topLevelKeys() {
  std::vector<std::string> keys = {"format", "version", "layout", "video_timing"};
  for (const SceneField& f : sceneFields()) {
    const std::string key = f.section.empty() ? f.jsonKey : f.section;
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    if (f.key() == "design") keys.push_back("design_params");
  }
  return keys;
}

// The accepted keys of a section object, from the field table (and frequency's rope object).
void rejectUnknownFields(const json& obj, const char* section) {
  std::vector<std::string> keys = sceneFieldKeys(section);
  if (std::string_view(section) == "frequency") keys.push_back("rope");
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (std::find(keys.begin(), keys.end(), it.key()) != keys.end()) continue;
    std::string list;
    for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
    sceneError("unknown key \"" + it.key() + "\" in " + section + " (accepted: " + list + ")");
  }
}
}  // namespace

Scene defaultScene() {
  Scene s;
  for (const SceneField& f : sceneFields())
    if (f.set) f.set(s, f.defaultValue());
  s.layout = parseLayoutSpec(std::get<std::string>(sceneField("layout").defaultValue()));
  return s;
}

void validateScene(const Scene& scene) {
  validateImageGridSettings(scene.imageGrid);
  validateLayout(scene.layout);
  const PositionDesign& design = findDesign(scene.design);
  validateParameters(scene.designParams, design.parameters());
  resolvePairs(scene.frequency);
  ageLayers(scene.age);
  // The table's ranges, with the bounds the scene sets: the AGE layers, the text tokens.
  const SceneField& ageLayer = sceneField("age_layer");
  if (scene.ageLayer < ageLayer.spec.min || scene.ageLayer >= scene.age.layers)
    throw InputError("AGE layer must be -1 (off) or 0.." + std::to_string(scene.age.layers - 1) +
                         " (got " + std::to_string(scene.ageLayer) + ")",
                     ageLayer.key());
  const SceneField& selected = sceneField("selected_text");
  if (scene.selectedText < selected.spec.min)
    throw InputError("selected text token must be >= 0", selected.key());
  if (scene.model.size() > kMaxModelNameChars ||
      std::any_of(scene.model.begin(), scene.model.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    throw InputError("model name must be at most " + std::to_string(kMaxModelNameChars) +
                         " characters without control characters",
                     "model");
  if (scene.design == kIdsFileDesign) {
    if (scene.fileIds.empty())
      throw InputError(
          "design ids-file has no ids loaded: --ids FILE.npy (GUI: File \xe2\x86\x92 Load "
          "ids\xe2\x80\xa6)",
          "design");
    idsFromFile(scene.layout, scene.fileIds, scene.idsFile);  // the token counts must match
  }
}

bool sameDocument(const Scene& a, const Scene& b) {
  Scene selected = a;
  selected.selectedText = b.selectedText;
  return selected == b;
}

namespace {
// setDesign without the sound recount: the design and its parameters only.
void assignDesignOnly(Scene& scene, const std::string& name) {
  const PositionDesign& design = findDesign(name);
  if (design.name() != scene.design) scene.designParams = {};
  scene.design = design.name();
}
}  // namespace

void setDesign(Scene& scene, const std::string& name) {
  assignDesignOnly(scene, name);
  // Sound files count their tokens as the design's processor does (no file is read again).
  setAudioTokenRule(scene.layout, audioTokenRuleOf(scene.design));
}

LayoutFileContext layoutContextOf(const Scene& scene, const std::string& baseDir) {
  LayoutFileContext files{baseDir, scene.imageGrid, audioTokenRuleOf(scene.design)};
  if (const auto rules = scene.designParams.find("rules"))
    files.rules = static_cast<std::size_t>(*rules);
  return files;
}

void useImageGrid(Scene& scene, const ImageGridSettings& grid) {
  if (scene.imageGrid == grid) return;
  regridLayout(scene.layout, grid);
  scene.imageGrid = grid;
}

void pickDesign(Scene& scene, const std::string& name, bool keepPlan) {
  const std::string previous = scene.design;
  const bool changed = previous != name;
  setDesign(scene, name);
  if (const ModelFamily* family = familyOfDesign(name)) {
    // A model family's rotary is its released checkpoints' (plan, sections, head and rotary
    // dim, base, pairs) and its pictures are cut by its image processor; a scene already under
    // the family (a --model config) keeps its own.
    if (changed) {
      scene.frequency = family->defaultFrequency();
      useImageGrid(scene, family->imageGrid());
    }
    return;
  }
  // The grid a family brought goes with it, as its rotary does.
  if (changed && familyOfDesign(previous)) useImageGrid(scene, defaultScene().imageGrid);
  const std::string plan = findDesign(name).suggestedPlan();
  // The rotary a design brought goes with it: a design without a plan of its own picked after
  // a family's (GLM's 64-dim GPT-J rotary) or one with its own plan (MM-RoPE's) starts from the
  // default rotary, as it does in a new scene; it kept the other's, so the same layout measured
  // differently by the order of clicks.
  if (plan.empty() && changed && !keepPlan &&
      (familyOfDesign(previous) || !findDesign(previous).suggestedPlan().empty())) {
    scene.frequency = defaultScene().frequency;
    return;
  }
  if (keepPlan || plan.empty() || plan == scene.frequency.plan) return;
  scene.frequency.plan = plan;
  scene.frequency.sections.clear();  // each plan counts sections in its own units
}

Scene sceneUnderDesign(const Scene& scene, const std::string& name) {
  Scene s = scene;
  if (s.design == name) return s;
  // Every design of a comparison reads the same tokens: the sounds keep the scene's counts.
  assignDesignOnly(s, name);
  s.ageLayer = -1;
  return s;
}

Scene withIdsFile(Scene scene, const std::string& path) {
  std::error_code ec;
  const std::filesystem::path abs = std::filesystem::absolute(path, ec);
  scene.idsFile = (ec ? std::filesystem::path(path) : abs).lexically_normal().string();
  scene.fileIds = readIdsFile(path);
  setDesign(scene, kIdsFileDesign);
  validateScene(scene);
  return scene;
}

namespace {

// The design's parameters, a Choice by its name and a switch as true/false.
json designParamsJson(const Scene& scene) {
  json params = json::object();
  const auto specs = findDesign(scene.design).parameters();
  for (const auto& [key, value] : scene.designParams.values()) {
    const ParameterSpec* spec = findSpec(specs, key);
    if (spec && spec->kind == ParameterSpec::Kind::Choice)
      params[key] = spec->choices.at(static_cast<std::size_t>(value));
    else if (spec && spec->kind == ParameterSpec::Kind::Bool)
      params[key] = value != 0.0;
    else
      params[key] = value;
  }
  return params;
}

}  // namespace

std::string sceneToJson(const Scene& scene, const std::string& baseDir) {
  json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  putField(j, "layout", formatLayoutSpec(scene.layout, baseDir));
  // The spec writes a plain video's seconds per grid and video item (v4x8x8#0@0.5s); a video
  // made from files (vid:...) keeps them here, in the order of the layout's videos.
  json fileVideos = json::array();
  bool anyTiming = false;
  for (const Segment& seg : scene.layout.segments) {
    if (seg.kind != SegmentKind::Video) continue;
    if (!seg.source.isFile()) {
      fileVideos.push_back(nullptr);
      continue;
    }
    anyTiming = anyTiming || seg.secondsPerGrid != 0.0 || seg.videoItem != -1;
    fileVideos.push_back({{"seconds_per_grid", seg.secondsPerGrid}, {"video_item", seg.videoItem}});
  }
  if (anyTiming) j["video_timing"] = fileVideos;
  // The token the views show: after a layout edit the selection may point past the last text
  // token, and the views take the last one (computeDesignIds); a file holds what was shown, so
  // that it loads back (the loader refuses a selection outside the layout).
  Scene shown = scene;
  const std::size_t texts = scene.layout.textCount();
  shown.selectedText = static_cast<int>(
      std::min<long long>(scene.selectedText, static_cast<long long>(texts > 0 ? texts - 1 : 0)));
  for (const SceneField& f : sceneFields()) {
    if (f.key() == "ids_file" && !scene.idsFile.empty()) {
      std::error_code ec;
      const auto base = std::filesystem::absolute(std::filesystem::path(baseDir), ec);
      putField(j, f,
               baseDir.empty() || ec
                   ? scene.idsFile
                   : std::filesystem::path(scene.idsFile).lexically_proximate(base).string());
    }
    if (!f.get) continue;  // the files: the layout above, the ids file here
    const FieldValue v = f.get(shown);
    if (f.optional && v == f.defaultValue()) continue;
    std::visit([&](const auto& x) { putField(j, f, x); }, v);
    if (f.key() == "design") j["design_params"] = designParamsJson(scene);
  }
  if (scene.frequency.rope.active())
    j["frequency"]["rope"] = detail::ropeScalingJson(scene.frequency.rope);
  return j.dump(2) + "\n";
}

namespace {

// "video_timing": per video of the layout, null (a plain video: the spec holds its timing) or
// {"seconds_per_grid": S, "video_item": N} for a video made from files. Values are checked
// with the layout (validateLayout).
void applyVideoTiming(const json& timing, Layout& layout) {
  if (!timing.is_array()) sceneError("video_timing must be an array", "video_timing");
  std::vector<Segment*> videos;
  for (Segment& seg : layout.segments)
    if (seg.kind == SegmentKind::Video) videos.push_back(&seg);
  if (timing.size() != videos.size())
    sceneError("video_timing has " + std::to_string(timing.size()) +
                   " entries but the layout has " +
                   countOf(static_cast<long long>(videos.size()), "video") +
                   " (one entry per video, null for a plain one)",
               "video_timing");
  for (std::size_t i = 0; i < videos.size(); ++i) {
    const json& e = timing[i];
    if (e.is_null()) continue;
    if (!e.is_object()) sceneError("video_timing entries must be null or objects", "video_timing");
    if (!videos[i]->source.isFile())
      sceneError("video_timing entry " + std::to_string(i + 1) +
                     " belongs to a plain video, whose timing is in the layout spec (null here)",
                 "video_timing");
    rejectUnknownKeys(e, {"seconds_per_grid", "video_item"}, "video_timing");
    if (e.contains("seconds_per_grid")) {
      if (!e.at("seconds_per_grid").is_number())
        sceneError("video_timing seconds_per_grid must be a number", "video_timing");
      videos[i]->secondsPerGrid = e.at("seconds_per_grid").get<double>();
    }
    if (e.contains("video_item")) {
      const json& v = e.at("video_item");
      const std::optional<long long> item = wholeValue(v);
      if (!item || *item < -1 || *item > 1 << 30)
        sceneError("video_timing video_item must be a whole number, -1 for a standalone video",
                   "video_timing");
      videos[i]->videoItem = static_cast<int>(*item);
    }
  }
}

Scene sceneFromJsonImpl(const std::string& text, const std::string& baseDir,
                        std::vector<LayoutProblem>* problems) {
  if (text.size() > kMaxSceneBytes) sceneError("larger than 16 MiB");
  const json j = parseJsonStrictly(text);
  if (!j.is_object()) sceneError("top level must be a JSON object");
  Scene s = defaultScene();
  try {
    rejectUnknownKeys(j, topLevelKeys(), "the scene");
    if (!j.contains("format") || getAs<std::string>(j, "format", "scene") != kFormat)
      sceneError("\"format\" must be \"ropescope-scene\"");
    if (!j.contains("version") || getAs<int>(j, "version", "scene") != kVersion)
      sceneError("unsupported \"version\" (accepted: 1)");
    if (!j.contains("layout")) sceneError("missing \"layout\"");
    // The table's fields: the sections' objects, then the top level.
    for (const char* section : {"image_grid", "frequency", "age"}) {
      if (!j.contains(section)) continue;
      const json& obj = j.at(section);
      if (!obj.is_object()) sceneError(std::string(section) + " must be an object");
      rejectUnknownFields(obj, section);
      readSection(obj, section, s);
      if (std::string_view(section) == "frequency" && obj.contains("rope")) {
        try {
          s.frequency.rope = detail::ropeScalingFromJson(obj.at("rope"));
        } catch (const InputError& e) {
          sceneError(e.what(), e.field());
        }
      }
    }
    readSection(j, "", s);
    validateImageGridSettings(s.imageGrid);
    const auto specs = findDesign(s.design).parameters();
    if (j.contains("design_params")) {
      const json& p = j.at("design_params");
      if (!p.is_object()) sceneError("design_params must be an object");
      for (auto it = p.begin(); it != p.end(); ++it) {
        const ParameterSpec* spec = findSpec(specs, it.key());
        if (!spec) try {
            requireSpec(specs, it.key(), s.design);
          } catch (const InputError& e) {
            sceneError(e.what(), e.field());
          }
        double value = 0.0;
        if (it->is_boolean()) {
          value = it->get<bool>() ? 1.0 : 0.0;
        } else if (it->is_number()) {
          value = it->get<double>();
        } else if (it->is_string() && spec->kind == ParameterSpec::Kind::Choice) {
          const std::string name = it->get<std::string>();
          const auto named = namedParameterValue(*spec, name);
          if (!named)
            sceneError(
                it.key() + " must be one of " + spec->rangeText() + " (got \"" + name + "\")",
                it.key());
          value = *named;
        } else {
          sceneError(it.key() + " has the wrong type (accepted " + spec->rangeText() + ")",
                     it.key());
        }
        s.designParams.set(it.key(), value);
      }
    }
    // The layout after the design's parameters: sound files count their tokens as the design's
    // processor does, FAMILY: items are written as its rule set's release writes them.
    const LayoutFileContext files = layoutContextOf(s, baseDir);
    const std::string spec = getAs<std::string>(j, "layout", "scene");
    s.layout =
        problems ? parseLayoutSpecKeeping(spec, files, *problems) : parseLayoutSpec(spec, files);
    if (j.contains("video_timing") && (!problems || problems->empty()))
      applyVideoTiming(j.at("video_timing"), s.layout);
    if (j.contains("ids_file")) {
      std::filesystem::path p(getAs<std::string>(j, "ids_file", "scene"));
      if (p.is_relative() && !baseDir.empty()) p = std::filesystem::path(baseDir) / p;
      s.idsFile = p.lexically_normal().string();
      s.fileIds = readIdsFile(s.idsFile);
    }
    validateScene(s);
    // The GUI keeps the selection within the layout; a file must too (the figure would be
    // titled with a token that is not there).
    const std::size_t texts = s.layout.textCount();
    if (static_cast<std::size_t>(s.selectedText) >= std::max<std::size_t>(texts, 1))
      sceneError("selected_text must be " +
                     (texts > 1 ? "0.." + std::to_string(texts - 1) : std::string("0")) +
                     " (the layout has " + countOf(static_cast<long long>(texts), "text token") +
                     "; got " + std::to_string(s.selectedText) + ")",
                 "selected_text");
  } catch (const json::exception& e) {
    sceneError("malformed (" + jsonMessage(e) + ")");
  } catch (const InputError& e) {
    const std::string m = e.what();
    if (m.rfind("scene file: ", 0) == 0) throw;
    throw InputError("scene file: " + m, e.field());
  }
  return s;
}

std::string parentDir(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path abs = std::filesystem::absolute(path, ec);
  return (ec ? std::filesystem::path(path) : abs).parent_path().string();
}

std::string readSceneText(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError("scene file \"" + path + "\" is a folder", "scene");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)  // the reason: no such file, permission denied, ...
    throw InputError("cannot open scene file \"" + path + "\"" +
                         (errno ? std::string(" (") + std::strerror(errno) + ")" : std::string()),
                     "scene");
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size < 0) throw InputError("cannot read scene file \"" + path + "\"", "scene");
  if (static_cast<std::size_t>(size) > kMaxSceneBytes)
    throw InputError("scene file \"" + path + "\" is larger than 16 MiB", "scene");
  in.seekg(0);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), size);
  if (!in) throw InputError("cannot read scene file \"" + path + "\"", "scene");
  return text;
}

Scene sceneFromFile(const std::string& path, std::vector<LayoutProblem>* problems) {
  const std::string text = readSceneText(path);
  try {
    return sceneFromJsonImpl(text, parentDir(path), problems);
  } catch (const InputError& e) {
    throw InputError(
        std::string(e.what()).insert(std::string("scene file").size(), " \"" + path + "\""),
        e.field());
  }
}

}  // namespace

Scene sceneFromJson(const std::string& text, const std::string& baseDir) {
  return sceneFromJsonImpl(text, baseDir, nullptr);
}

Scene loadSceneFile(const std::string& path) {
  return sceneFromFile(path, nullptr);
}

SceneLoadReport loadSceneFileReport(const std::string& path) {
  SceneLoadReport r;
  r.scene = sceneFromFile(path, &r.problems);
  return r;
}

void saveSceneFile(const Scene& scene, const std::string& path) {
  validateScene(scene);
  const std::string text = sceneToJson(scene, parentDir(path));
  writeFileAtomically(path, text, "scene");
}

}  // namespace ropescope
