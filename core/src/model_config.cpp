// Reading a checkpoint's config.json (+ processor configs) into a ModelConfig. Where a field
// lives differs by transformers release: <= 4.57 writes the text model's fields at the top
// level with rope_scaling, 5.x nests them in text_config with rope_parameters. Each field is
// looked up in both places; a field transformers gives a class default (token ids) falls back
// to the family's released value, one it cannot do without (rope_theta, mrope_section, the head
// size, the vision merge and patch) is refused by name.
#include "ropescope/model_config.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "families/family_base.h"
#include "layer_families.h"
#include "ropescope/errors.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_family.h"
#include "ropescope/named.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"
#include "ropescope/rope_scaling.h"
#include "ropescope/text_model.h"

namespace ropescope {

using ConfigJson = nlohmann::json;
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw InputError(where + ": " + what, "model");
}

std::string supportedFamilies() {
  std::string out;
  for (const ModelFamily* f : allFamilies()) {
    std::string types;
    for (const std::string& t : f->modelTypes()) types += (types.empty() ? "" : "/") + t;
    out += (out.empty() ? "" : ", ") + f->name() + " (" + types + ")";
  }
  std::string text;
  for (const TextModelType& t : textModelTypes()) text += (text.empty() ? "" : "/") + t.modelType;
  for (const LayerFamily& f : layerFamilies())
    for (const std::string& t : f.modelTypes) text += "/" + t;
  return out + "; text-only: " + text;
}

std::string typeName(const ConfigJson& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return "a whole number";
  if (v.is_number()) return "a number";
  return v.type_name();
}

ConfigJson parseJson(const std::string& text, const std::string& where) {
  if (text.size() > kMaxModelConfigBytes)
    fail(where, "larger than " + std::to_string(kMaxModelConfigBytes >> 10) + " KiB");
  ConfigJson j;
  try {
    j = ConfigJson::parse(text);
  } catch (const ConfigJson::exception& e) {
    std::string m = e.what();
    if (auto p = m.find("] "); m.rfind("[json.exception.", 0) == 0 && p != std::string::npos)
      m.erase(0, p + 2);
    fail(where, "not valid JSON (" + m + ")");
  }
  if (!j.is_object()) fail(where, "not a JSON object (got " + typeName(j) + ")");
  return j;
}

// The first of `objs` (in order) that holds `key` with a non-null value, and its path.
struct Found {
  const ConfigJson* value = nullptr;
  std::string path;
};
Found find(const std::vector<std::pair<const ConfigJson*, std::string>>& objs,
           const std::string& key) {
  for (const auto& [obj, prefix] : objs)
    if (obj && obj->is_object()) {
      auto it = obj->find(key);
      if (it != obj->end() && !it->is_null()) return {&*it, prefix + key};
    }
  return {};
}

long long wholeNumber(const Found& f, const std::string& where, long long lo, long long hi) {
  const ConfigJson& v = *f.value;
  long long x = 0;
  if (v.is_number_integer()) {
    x = v.get<long long>();
  } else if (v.is_number_unsigned()) {
    const auto u = v.get<unsigned long long>();
    x = u > static_cast<unsigned long long>(hi) ? hi + 1 : static_cast<long long>(u);
  } else if (v.is_number_float() && std::isfinite(v.get<double>()) &&
             v.get<double>() == std::floor(v.get<double>()) && std::fabs(v.get<double>()) < 1e18) {
    x = static_cast<long long>(v.get<double>());
  } else {
    fail(where, f.path + " must be a whole number (got " + typeName(v) + ")");
  }
  if (x < lo || x > hi)
    fail(where, f.path + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                    " (got " + v.dump() + ")");
  return x;
}

double realNumber(const Found& f, const std::string& where, double lo, double hi,
                  bool loExclusive = false) {
  const ConfigJson& v = *f.value;
  if (!v.is_number()) fail(where, f.path + " must be a number (got " + typeName(v) + ")");
  const double x = v.get<double>();
  if (!std::isfinite(x) || x > hi || x < lo || (loExclusive && x == lo)) {
    std::string range =
        (loExclusive ? "(" : "[") + formatDouble(lo) + ", " + formatDouble(hi) + "]";
    fail(where, f.path + " must be in " + range + " (got " + v.dump() + ")");
  }
  return x;
}

const ConfigJson* objectAt(const ConfigJson& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? &*it : nullptr;
}

std::string readSmallFile(const fs::path& path, const std::string& what) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    fail("--model", what + " \"" + path.string() + "\" does not exist");
  const auto size = fs::file_size(path, ec);
  if (ec) fail(what + " \"" + path.string() + "\"", "cannot be read");
  if (size > kMaxModelConfigBytes)
    fail(what + " \"" + path.string() + "\"",
         "larger than " + std::to_string(kMaxModelConfigBytes >> 10) + " KiB (not a config file)");
  std::ifstream in(path, std::ios::binary);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (!in) fail(what + " \"" + path.string() + "\"", "cannot be read");
  return text;
}

// min/max pixels, patch and merge of an image (or video) processor config; false if it names
// no pixel bounds. Both forms: min_pixels/max_pixels (<= 4.57) and size.shortest_edge /
// size.longest_edge (pixel areas, not sides, in the Qwen and GLM processors).
bool readProcessor(const ConfigJson& p, const std::string& where, ImageGridSettings& g) {
  const ConfigJson* size = objectAt(p, "size");
  const std::vector<std::pair<const ConfigJson*, std::string>> top{{&p, ""}},
      sized{{size, "size."}};
  Found lo = find(top, "min_pixels"), hi = find(top, "max_pixels");
  if (!lo.value) lo = find(sized, "shortest_edge");
  if (!hi.value) hi = find(sized, "longest_edge");
  if (Found f = find(top, "patch_size"); f.value)
    g.patch = static_cast<int>(wholeNumber(f, where, 1, kMaxPatch));
  if (Found f = find(top, "merge_size"); f.value)
    g.merge = static_cast<int>(wholeNumber(f, where, 1, kMaxMerge));
  // Each bound on its own, as the processor reads them: the one not given keeps the family's
  // default (a config with only max_pixels was ignored whole).
  if (lo.value) g.minPixels = wholeNumber(lo, where, 1, kMaxMaxPixels);
  if (hi.value) g.maxPixels = wholeNumber(hi, where, 1, kMaxMaxPixels);
  if (g.minPixels > g.maxPixels)
    fail(where, (lo.value ? lo.path : "the default min_pixels") + " (" +
                    std::to_string(g.minPixels) + ") is above " +
                    (hi.value ? hi.path : "the default max_pixels") + " (" +
                    std::to_string(g.maxPixels) + ")");
  return lo.value || hi.value;
}

// The keys of a rope block that are not the scaling's: read elsewhere (theta, partial rotary,
// sections) or the type's name.
bool ropeBlockKey(const std::string& key) {
  return key == "rope_type" || key == "type" || key == "rope_theta" ||
         key == "partial_rotary_factor" || key == "mrope_section" || key == "mrope_interleaved" ||
         key == "interleaved";  // Qwen3-Omni's name for mrope_interleaved
}

// The context extension of a rope_scaling / rope_parameters block, in every shipped
// form: rope_type or the legacy type key, "mrope" and "default" read as no scaling. Every other
// key must be a parameter of the type ropescope models; one it does not is refused by name,
// with the accepted set, never dropped. `textObjs` give max_position_embeddings and a top-level
// original_max_position_embeddings (Phi-3; transformers 5 lets it override the block's).
RopeScaling readRopeScaling(const Found& block,
                            const std::vector<std::pair<const ConfigJson*, std::string>>& textObjs,
                            const std::string& where, double partialRotary) {
  RopeScaling r;
  if (!block.value) return r;
  const ConfigJson& b = *block.value;
  const std::string prefix = block.path + ".";
  std::string type = "default";
  for (const char* key : {"rope_type", "type"})
    if (auto it = b.find(key); it != b.end() && !it->is_null()) {
      if (!it->is_string())
        fail(where, prefix + key + " must be a string (got " + typeName(*it) + ")");
      type = it->get<std::string>();
      break;
    }
  if (type == "mrope") type = "default";  // Qwen2-VL's legacy name, remapped by transformers
  const auto names = ropeTypeNames();
  if (std::find(names.begin(), names.end(), type) == names.end())
    fail(where, prefix + "rope_type \"" + type +
                    "\" is not a rope type ropescope models (accepted: " + joinNames(names) +
                    ", mrope)");
  // Per layer type (Gemma: {"full_attention": {...}, ...}) is not modelled: say so.
  for (const auto& [key, value] : b.items())
    if (value.is_object())
      fail(where, prefix + key +
                      " is a rope block per layer type; ropescope models one rope "
                      "block for the text model");
  const RopeType& rope = findRopeType(type);
  const std::vector<std::string> accepted = ropeParameterKeys(rope);
  r.type = type;
  for (const auto& [key, value] : b.items()) {
    if (ropeBlockKey(key) || value.is_null()) continue;
    if (std::find(accepted.begin(), accepted.end(), key) == accepted.end())
      fail(where, prefix + key + " is not a parameter of rope type " + type +
                      " that ropescope models (accepted: " + joinNames(accepted) + ")");
    if (key == "short_factor" || key == "long_factor") {
      if (!value.is_array())
        fail(where, prefix + key + " must be a list of numbers (got " + typeName(value) + ")");
      std::vector<double>& list = key == "short_factor" ? r.shortFactor : r.longFactor;
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_number())
          fail(where, prefix + key + "[" + std::to_string(i) + "] must be a number (got " +
                          typeName(value[i]) + ")");
        list.push_back(value[i].get<double>());
      }
    } else if (value.is_boolean()) {
      r.params.set(key, value.get<bool>() ? 1.0 : 0.0);
    } else if (value.is_number()) {
      r.params.set(key, value.get<double>());
    } else {
      fail(where, prefix + key + " must be a number (got " + typeName(value) + ")");
    }
  }
  if (type == "default") return {};  // no scaling: theta as the plan gives it
  const auto takes = [&](const char* key) {
    return std::find(accepted.begin(), accepted.end(), key) != accepted.end();
  };
  const Found maxPos = find(textObjs, "max_position_embeddings");
  if (takes("max_position_embeddings") && !r.params.find("max_position_embeddings") && maxPos.value)
    r.params.set("max_position_embeddings",
                 static_cast<double>(wholeNumber(maxPos, where, 1, 1LL << 40)));
  if (takes("original_max_position_embeddings")) {
    if (const Found top = find(textObjs, "original_max_position_embeddings"); top.value)
      r.params.set("original_max_position_embeddings",
                   static_cast<double>(wholeNumber(top, where, 1, 1LL << 40)));
    else if (!r.params.find("original_max_position_embeddings") && maxPos.value)
      r.params.set("original_max_position_embeddings",
                   static_cast<double>(wholeNumber(maxPos, where, 1, 1LL << 40)));
  }
  if (type == "proportional") r.params.set("partial_rotary_factor", partialRotary);
  return r;
}
}  // namespace

ModelConfig modelConfigFromJson(const std::string& configText, const std::string& preprocessor,
                                const std::string& video, const std::string& name,
                                const std::string& layerType) {
  const std::string where = "model config \"" + name + "\"";
  ConfigJson cfg = parseJson(configText, where);
  const auto mt = cfg.find("model_type");
  if (mt == cfg.end()) fail(where, "no model_type (supported: " + supportedFamilies() + ")");
  if (!mt->is_string()) fail(where, "model_type must be a string (got " + typeName(*mt) + ")");
  const std::string modelType = mt->get<std::string>();
  const ModelFamily* family = familyForModelType(modelType);
  // A text model whose rotary changes by layer (Gemma 3, Gemma 4, Llama 4: layer_families.h).
  const LayerFamily* layered = family ? nullptr : layerFamilyForModelType(modelType);
  const TextModelType* textModel = family || layered ? nullptr : findTextModelType(modelType);
  if (!family && !textModel && !layered)
    fail(where,
         "unknown model_type \"" + modelType + "\" (supported: " + supportedFamilies() + ")");
  if (layered) {
    // transformers' class defaults for what the published config leaves out (Gemma 3's 4B
    // config names neither rope_theta nor rope_local_base_freq), in the text config.
    putClassDefaults(*layered, cfg);
  }

  ModelConfig m;
  m.name = name;
  m.family = family ? family->name() : "";
  m.title =
      family ? family->title() : (layered ? layered->title : textModel->title) + " (text only)";
  m.modelType = modelType;
  if (family) {
    m.frequency = family->defaultFrequency();
  } else {
    m.frequency.plan = "vanilla";  // one position per token: every pair on the text axis
    m.frequency.rotary = RotaryConfig{};
    m.frequency.sections.clear();
  }
  // Omni checkpoints (Qwen2.5-Omni, Qwen3-Omni) keep the thinker's settings (its text_config,
  // vision_config, token ids, position_id_per_seconds, seconds_per_chunk) in thinker_config.
  const ConfigJson* thinker = objectAt(cfg, "thinker_config");
  const ConfigJson& root = thinker ? *thinker : cfg;
  const std::string pre = thinker ? "thinker_config." : "";

  // Text model: nested (5.x) first, then the flat form; rope settings in rope_parameters (5.x)
  // or rope_scaling (<= 4.57), either inside text_config or at the top level.
  const ConfigJson* text = objectAt(root, "text_config");
  const std::vector<std::pair<const ConfigJson*, std::string>> textObjs{
      {text, pre + "text_config."}, {&root, pre}};
  std::vector<std::pair<const ConfigJson*, std::string>> ropeObjs;
  if (text) {
    ropeObjs.push_back({objectAt(*text, "rope_parameters"), pre + "text_config.rope_parameters."});
    ropeObjs.push_back({objectAt(*text, "rope_scaling"), pre + "text_config.rope_scaling."});
  }
  ropeObjs.push_back({objectAt(root, "rope_parameters"), pre + "rope_parameters."});
  ropeObjs.push_back({objectAt(root, "rope_scaling"), pre + "rope_scaling."});
  // rope_parameters keyed by layer type (5.x; Gemma's {"full_attention": {...},
  // "sliding_attention": {...}}): the block of one layer type is the rope block, the one asked
  // for, else full_attention (the layers that see the whole context), else the first by name.
  for (const auto& [obj, path] : ropeObjs) {
    if (!obj) continue;
    std::vector<std::string> kinds;
    for (const auto& [key, value] : obj->items())
      if (value.is_object()) kinds.push_back(key);
    if (kinds.empty()) break;
    for (const auto& [key, value] : obj->items())
      if (!value.is_object())
        fail(where, path + key + " stands beside rope blocks per layer type (" + joinNames(kinds) +
                        "); ropescope reads one block per layer type or one "
                        "block for every layer, not both");
    std::string pick = layerType;
    if (pick.empty())
      pick = std::find(kinds.begin(), kinds.end(), "full_attention") != kinds.end()
                 ? "full_attention"
                 : kinds.front();
    if (std::find(kinds.begin(), kinds.end(), pick) == kinds.end())
      fail(where, "layer type \"" + pick + "\" has no block in " + path.substr(0, path.size() - 1) +
                      " (accepted: " + joinNames(kinds) + ")");
    m.layerTypes = kinds;
    m.layerType = pick;
    ropeObjs = {{&obj->at(pick), path + pick + "."}};
    break;
  }
  // Gemma 3's 4.x form: one rope block for the full_attention layers; the sliding ones take
  // rope_theta from rope_local_base_freq and no scaling, as Gemma3TextModel's rotary_emb_local.
  bool localTheta = false;
  if (m.layerType.empty() && layered && !layered->localThetaKey.empty()) {
    m.layerTypes = {"full_attention", "sliding_attention"};
    m.layerType = layerType.empty() ? "full_attention" : layerType;
    if (std::find(m.layerTypes.begin(), m.layerTypes.end(), m.layerType) == m.layerTypes.end())
      fail(where, "layer type \"" + m.layerType + "\" is not one of " + m.title +
                      "'s (accepted: " + joinNames(m.layerTypes) + ")");
    if (m.layerType == "sliding_attention") {
      localTheta = true;
      ropeObjs.clear();
    }
  }
  if (!layerType.empty() && m.layerType.empty())
    fail(where, "layer type \"" + layerType +
                    "\" asked for, but the config has one rope block for every layer (no "
                    "rope_parameters per layer type)");
  std::vector<std::pair<const ConfigJson*, std::string>> ropeOrText = ropeObjs;
  ropeOrText.insert(ropeOrText.end(), textObjs.begin(), textObjs.end());

  const Found theta =
      localTheta ? find(textObjs, layered->localThetaKey) : find(ropeOrText, "rope_theta");
  if (!theta.value)
    fail(where, "missing field rope_theta (in text_config, rope_parameters or the top level)");
  m.frequency.rotary.base = realNumber(theta, where, 1.0, 1e12, true);

  if (const Found maxPos = find(textObjs, "max_position_embeddings"); maxPos.value)
    m.maxPositionEmbeddings = wholeNumber(maxPos, where, 1, 1LL << 40);

  int headDim = 0;
  if (Found hd = find(textObjs, "head_dim"); hd.value) {
    headDim = static_cast<int>(wholeNumber(hd, where, 2, 1024));
  } else {
    const Found hs = find(textObjs, "hidden_size"), nh = find(textObjs, "num_attention_heads");
    if (!hs.value || !nh.value)
      fail(where, std::string("missing field ") +
                      (hs.value ? "num_attention_heads" : "hidden_size") +
                      " (no head_dim: the head size is hidden_size / num_attention_heads)");
    const long long h = wholeNumber(hs, where, 1, 1 << 20);
    const long long n = wholeNumber(nh, where, 1, 4096);
    if (h % n != 0 || h / n < 2 || h / n > 1024)
      fail(where, hs.path + " " + std::to_string(h) + " / " + nh.path + " " + std::to_string(n) +
                      " is not a whole head size in 2..1024");
    headDim = static_cast<int>(h / n);
  }
  // Gemma 4: the full_attention layers have a head size of their own (global_head_dim).
  if (layered && !layered->fullHeadDimKey.empty() && m.layerType == "full_attention")
    if (Found g = find(textObjs, layered->fullHeadDimKey); g.value)
      headDim = static_cast<int>(wholeNumber(g, where, 2, 1024));
  if (headDim % 2 != 0)
    fail(where, "head size " + std::to_string(headDim) + " is odd (rotary needs pairs)");
  m.frequency.rotary.headDim = headDim;
  if (layered) m.frequency.rotary.pairs = layered->pairs;

  // partial_rotary_factor: absent means the family's released ratio (GLM 0.5, Qwen3.5 0.25).
  const RotaryConfig fr = family ? family->defaultFrequency().rotary : RotaryConfig{};
  double factor = static_cast<double>(fr.effectiveRotaryDim()) / fr.headDim;
  if (Found f = find(ropeOrText, "partial_rotary_factor"); f.value)
    factor = realNumber(f, where, 0.0, 1.0, true);
  const double rd = headDim * factor;
  const int rotary = static_cast<int>(std::lround(rd));
  if (std::fabs(rd - rotary) > 1e-9 || rotary % 2 != 0 || rotary < 2)
    fail(where, "partial_rotary_factor " + formatDouble(factor) + " of head size " +
                    std::to_string(headDim) + " gives " + formatDouble(rd) +
                    " rotated dims (needs an even whole number >= 2)");
  m.frequency.rotary.rotaryDim = rotary == headDim ? 0 : rotary;

  const Found sec = find(ropeObjs, "mrope_section");
  // The family's own ways of writing its sections (ERNIE's, in its family file).
  const detail::ConfigQuirks quirks =
      family ? detail::configQuirksOf(*family) : detail::ConfigQuirks{};
  if (!sec.value && quirks.freqAllocation) {
    // freq_allocation t pairs, h and w share the rest.
    const Found fa = find(textObjs, "freq_allocation");
    if (!fa.value) fail(where, "missing field mrope_section (or freq_allocation)");
    const int pairs = m.frequency.rotary.pairCount();
    const int t = static_cast<int>(wholeNumber(fa, where, 0, pairs));
    if ((pairs - t) % 2 != 0)
      fail(where, fa.path + " " + std::to_string(t) + " leaves an odd number of h/w pairs");
    m.frequency.sections = {t, (pairs - t) / 2, (pairs - t) / 2};
  } else if (!sec.value && family) {
    fail(where, "missing field mrope_section (in rope_scaling or rope_parameters)");
  }
  if (sec.value && !family)
    fail(where, sec.path + " is M-RoPE's; " + m.title +
                    " gives every pair the one text axis (a text-only model_type)");
  if (sec.value) {
    if (!sec.value->is_array() || sec.value->size() != 3)
      fail(where, sec.path + " must be a list of 3 whole numbers (got " +
                      sec.value->dump().substr(0, 60) + ")");
    m.frequency.sections.clear();
    for (std::size_t i = 0; i < 3; ++i)
      m.frequency.sections.push_back(static_cast<int>(wholeNumber(
          {&(*sec.value)[i], sec.path + "[" + std::to_string(i) + "]"}, where, 0, 512)));
    // Listed h, w, t (ERNIE); the family's plan takes t, h, w.
    if (quirks.sectionsHwt)
      std::rotate(m.frequency.sections.begin(), m.frequency.sections.begin() + 2,
                  m.frequency.sections.end());
  }
  // The context extension: the first rope block, in the order above.
  Found ropeBlock;
  for (const auto& [obj, path] : ropeObjs)
    if (obj) {
      ropeBlock = {obj, path.substr(0, path.size() - 1)};
      break;
    }
  m.frequency.rope = readRopeScaling(ropeBlock, textObjs, where, factor);
  // proportional builds its ladder over the full head dim; the share is its own parameter.
  if (m.frequency.rope.type == "proportional") m.frequency.rotary.rotaryDim = 0;
  try {
    FrequencySpec plain = m.frequency;
    plain.rope = {};
    resolvePairs(plain);
  } catch (const InputError& e) {
    fail(where,
         std::string("its rotary settings do not fit the ") + m.title + " plan: " + e.what());
  }
  try {
    resolvePairs(m.frequency);
  } catch (const InputError& e) {
    fail(where, ropeBlock.path + ": " + e.what());
  }
  if (!family) {  // a text-only model: no processor, no vision, no special tokens
    // Except the picture token of a model whose rotary changes by layer (Gemma 3/4, Llama 4):
    // its pictures take text positions, one token each, and the config's id marks them, so that
    // a processor output's pictures are pictures (the attention preview's picture blocks).
    if (layered)
      for (const char* key : {"image_token_index", "image_token_id"})
        if (Found f = find({{&root, pre}, {text, pre + "text_config."}}, key); f.value)
          m.tokens.imageToken = wholeNumber(f, where, 0, (1LL << 40));
    m.source = name;
    return m;
  }

  // Token ids: top level (all forms), text_config (GLM-4.5V repeats them there), else the
  // family's released ids (transformers' class defaults).
  m.tokens = family->defaultTokenIds();
  const auto tokenId = [&](const char* key, std::int64_t& out) {
    if (Found f = find({{&root, pre}, {text, pre + "text_config."}}, key); f.value)
      out = wholeNumber(f, where, 0, (1LL << 40));
  };
  tokenId("image_token_id", m.tokens.imageToken);
  tokenId("im_patch_id", m.tokens.imageToken);  // ERNIE's own (pre-transformers) config
  tokenId("video_token_id", m.tokens.videoToken);
  tokenId("vision_start_token_id", m.tokens.visionStart);
  tokenId("vision_end_token_id", m.tokens.visionEnd);
  tokenId("image_start_token_id", m.tokens.imageStart);
  tokenId("image_end_token_id", m.tokens.imageEnd);
  tokenId("video_start_token_id", m.tokens.videoStart);
  tokenId("video_end_token_id", m.tokens.videoEnd);
  // Qwen2.5-Omni names them *_token_index.
  tokenId("image_token_index", m.tokens.imageToken);
  tokenId("video_token_index", m.tokens.videoToken);
  if (const OmniFacts* facts = family->omni()) {
    OmniFacts o = *facts;
    tokenId("audio_token_id", o.audioToken);
    tokenId("audio_token_index", o.audioToken);
    tokenId("audio_start_token_id", o.audioStart);
    tokenId("audio_end_token_id", o.audioEnd);
    if (Found f = find({{&root, pre}}, "position_id_per_seconds"); f.value)
      o.positionIdPerSeconds = realNumber(f, where, 0.0, 1000.0, true);
    if (Found f = find({{&root, pre}}, "seconds_per_chunk"); f.value)
      o.secondsPerChunk = realNumber(f, where, 0.0, 3600.0, true);
    // Qwen3-Omni's windowed audio length (_get_feat_extract_output_lengths) cuts the mel frames
    // into n_window * 2 = 100; sound_file.h's rule is that of the released n_window 50.
    if (o.audio == AudioTokenRule::Qwen3Omni)
      if (const ConfigJson* audio = objectAt(root, "audio_config"))
        if (Found f = find({{audio, pre + "audio_config."}}, "n_window"); f.value)
          if (const long long w = wholeNumber(f, where, 1, 1 << 20); w != 50)
            fail(where, f.path + " is " + std::to_string(w) +
                            "; ropescope's Qwen3-Omni audio token count takes 50 (windows of 100 "
                            "mel frames, the released value)");
    m.omni = o;
  }

  const ConfigJson* vision = objectAt(root, "vision_config");
  if (!vision) fail(where, "missing field " + pre + "vision_config");
  const std::vector<std::pair<const ConfigJson*, std::string>> visionObjs{
      {vision, pre + "vision_config."}};
  const Found merge = find(visionObjs, "spatial_merge_size");
  if (!merge.value) fail(where, "missing field " + pre + "vision_config.spatial_merge_size");
  m.spatialMerge = static_cast<int>(wholeNumber(merge, where, 1, kMaxMerge));
  Found patch = find(visionObjs, "patch_size");
  if (!patch.value) patch = find(visionObjs, "spatial_patch_size");
  if (!patch.value) fail(where, "missing field " + pre + "vision_config.patch_size");
  m.patchSize = static_cast<int>(wholeNumber(patch, where, 1, kMaxPatch));
  Found temporal = find(visionObjs, "temporal_patch_size");
  if (!temporal.value) temporal = find(visionObjs, "temporal_merge_size");
  m.temporalPatchSize = temporal.value ? static_cast<int>(wholeNumber(temporal, where, 1, 64)) : 2;

  const PositionDesign& design = findDesign(m.family);
  const auto specs = design.parameters();
  if (Found tps =
          find({{vision, pre + "vision_config."}, {text, pre + "text_config."}, {&root, pre}},
               "tokens_per_second");
      tps.value) {
    m.tokensPerSecond = realNumber(tps, where, 0.0, kMaxTokensPerSecond, true);
  } else if (detail::configQuirksOf(*family).needsTokensPerSecond) {
    fail(where, "missing field vision_config.tokens_per_second (" + family->title() +
                    "'s video time scale)");
  }
  if (m.omni) {
    m.designParams.set("position_id_per_seconds", m.omni->positionIdPerSeconds);
    if (findSpec(specs, "seconds_per_chunk"))
      m.designParams.set("seconds_per_chunk", m.omni->secondsPerChunk);
  }
  if (m.tokensPerSecond > 0)
    for (const char* key : {"tokens_per_second", "tps"})
      if (findSpec(specs, key)) m.designParams.set(key, m.tokensPerSecond);

  // The family's image processor defaults (its smart_resize rule and pixel bounds); a
  // preprocessor config below overrides the bounds.
  m.grid = family->imageGrid();
  m.grid.patch = m.patchSize;
  m.grid.merge = m.spatialMerge;
  bool haveGrid = false;
  if (!preprocessor.empty()) {
    const std::string pw = "preprocessor config of \"" + name + "\"";
    haveGrid = readProcessor(parseJson(preprocessor, pw), pw, m.grid);
  }
  if (!video.empty()) {
    const std::string vw = "video preprocessor config of \"" + name + "\"";
    const ConfigJson v = parseJson(video, vw);
    ImageGridSettings vg = m.grid;
    if (readProcessor(v, vw, vg) && !haveGrid) m.grid = vg;
    if (Found fps = find({{&v, ""}}, "fps"); fps.value && findSpec(specs, "fps"))
      m.designParams.set("fps", realNumber(fps, vw, 0.0, 1e4, true));
  }
  try {
    validateImageGridSettings(m.grid);
    validateParameters(m.designParams, specs);
  } catch (const InputError& e) {
    fail(where, e.what());
  }
  m.source = name;
  return m;
}

namespace {

std::mutex& locatorMutex() {
  static std::mutex m;
  return m;
}
ModelLocator& installed() {
  static ModelLocator l;
  return l;
}
ModelLocator currentLocator() {
  std::lock_guard<std::mutex> lock(locatorMutex());
  return installed();
}

bool isPlainName(const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos && name != "." && name != "..";
}

std::string optionalFile(const fs::path& p, const std::string& what) {
  std::error_code ec;
  return fs::exists(p, ec) ? readSmallFile(p, what) : std::string();
}

}  // namespace

void setModelLocator(ModelLocator locator) {
  std::lock_guard<std::mutex> lock(locatorMutex());
  installed() = std::move(locator);
}

ModelLocator modelFolderLocator(const std::string& root) {
  ModelLocator l;
  l.folderOf = [root](const std::string& name) -> std::string {
    if (!isPlainName(name)) return {};
    std::error_code ec;
    const fs::path p = fs::path(root) / name;
    return fs::is_regular_file(p / "config.json", ec) ? p.string() : std::string();
  };
  l.names = [root]() {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root, ec))
      if (e.is_directory(ec) && fs::is_regular_file(e.path() / "config.json", ec))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  };
  return l;
}

std::vector<std::string> shippedModelNames() {
  const ModelLocator l = currentLocator();
  return l.names ? l.names() : std::vector<std::string>{};
}

ModelFiles readModelFiles(const std::string& dirOrName, std::string* nameOut,
                          std::string* sourceOut) {
  std::error_code ec;
  fs::path dir;
  fs::path configFile;
  std::string name, source;
  if (!dirOrName.empty() && fs::is_directory(dirOrName, ec)) {
    dir = dirOrName;
    configFile = dir / "config.json";
    if (!fs::is_regular_file(configFile, ec))
      fail("--model \"" + dirOrName + "\"", "the folder has no config.json");
  } else if (!dirOrName.empty() && fs::is_regular_file(dirOrName, ec)) {
    configFile = dirOrName;
    dir = configFile.parent_path();
  } else {
    const ModelLocator l = currentLocator();
    ModelFiles files;
    if (isPlainName(dirOrName) && l.filesOf && l.filesOf(dirOrName, &files)) {
      if (nameOut) *nameOut = dirOrName;
      if (sourceOut) *sourceOut = "shipped: " + dirOrName;
      return files;
    }
    const std::string found = isPlainName(dirOrName) && l.folderOf ? l.folderOf(dirOrName) : "";
    if (found.empty()) {
      std::string names;
      for (const std::string& n : shippedModelNames()) names += (names.empty() ? "" : ", ") + n;
      fail("--model \"" + dirOrName + "\"",
           "no such folder and no shipped model of that name (shipped: " +
               (names.empty() ? std::string("none in this build") : names) + ")");
    }
    dir = found;
    configFile = dir / "config.json";
    name = dirOrName;
    source = "shipped: " + dirOrName;
  }
  if (name.empty()) {
    const fs::path abs = fs::absolute(dir, ec).lexically_normal();
    name = (abs.has_filename() ? abs : abs.parent_path()).filename().string();
    if (name.empty()) name = dir.string();
    source = configFile.string();
  }
  ModelFiles files;
  files.config = readSmallFile(configFile, "model config");
  files.preprocessor = optionalFile(dir / "preprocessor_config.json", "preprocessor config");
  files.video = optionalFile(dir / "video_preprocessor_config.json", "video preprocessor config");
  if (nameOut) *nameOut = name;
  if (sourceOut) *sourceOut = source;
  return files;
}

ModelConfig readModelConfig(const std::string& dirOrName, const std::string& layerType) {
  std::string name, source;
  const ModelFiles files = readModelFiles(dirOrName, &name, &source);
  ModelConfig m =
      modelConfigFromJson(files.config, files.preprocessor, files.video, name, layerType);
  m.source = source;
  return m;
}

Scene applyModel(Scene scene, const ModelConfig& model) {
  // A text-only model gives every token the next position (hard) and keeps the scene's
  // picture grid: it has no processor of its own.
  const bool textOnly = model.family.empty();
  setDesign(scene, textOnly ? "hard" : model.family);
  const PositionDesign& design = findDesign(scene.design);
  for (const auto& [key, value] : model.designParams.values()) scene.designParams.set(key, value);
  validateParameters(scene.designParams, design.parameters());
  scene.frequency = model.frequency;
  if (!textOnly) {
    validateImageGridSettings(model.grid);
    scene.imageGrid = model.grid;
  }
  // The pictures are cut again by the model's processor (patch, merge, min/max pixels, its
  // resize rule) and the sounds counted by its family's rule, as a layout parsed after the
  // model would be: the app kept the old grid (99 tokens of castle.png under Qwen3-VL, which
  // cuts 80) and showed numbers the command line did not give.
  regridLayout(scene.layout, scene.imageGrid);  // the sounds were recounted by setDesign
  // Ids loaded from a file were the ids of the layout and design before the model: a scene saved
  // after the model kept naming that file (and failed to open where the file was gone).
  scene.idsFile.clear();
  scene.fileIds.clear();
  scene.model = model.name;
  return scene;
}

}  // namespace ropescope
